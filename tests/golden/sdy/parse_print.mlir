// Parse -> verify -> print through `shardbridge sdy`: every syntax form, and
// the canonicalisations upstream's printer applies. A case without CHECK
// lines must print its input back unchanged.

// Empty mesh.
#sdy.mesh<[]>

// -----
// Maximal mesh.
#sdy.mesh<[], device_ids=[3]>

// -----
#sdy.mesh<["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>

// -----
#sdy.mesh<["a"=1]>

// -----
// Explicit iota device ids are dropped by the builder.
<["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>
// CHECK: #sdy.mesh<["a"=2, "b"=2]>

// -----
<["a"=1], device_ids=[0]>
// CHECK: #sdy.mesh<["a"=1]>

// -----
// Spacing is free; the printer puts ", " between elements and nothing else.
  #sdy.mesh < [ "a" = 2 ,"b"=3 ] , device_ids = [ 5,4,3,2,1,0 ] >
// CHECK: #sdy.mesh<["a"=2, "b"=3], device_ids=[5, 4, 3, 2, 1, 0]>

// -----
// The stripped body and the bare axis list are meshes too.
<["x"=8]>
// CHECK: #sdy.mesh<["x"=8]>

// -----
["x"=8, "y"=2]
// CHECK: #sdy.mesh<["x"=8, "y"=2]>

// -----
// Hex integers, as MLIR reads them.
#sdy.mesh<["a"=0x10]>
// CHECK: #sdy.mesh<["a"=16]>

// -----
// The input may span lines and carry MLIR comments.
#sdy.mesh<[
  "a"=2,  // data
  "b"=4   // model
]>
// CHECK: #sdy.mesh<["a"=2, "b"=4]>

// -----
sdy.mesh @mesh = <["a"=2]>

// -----
sdy.mesh @empty_mesh = <[]>

// -----
sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>

// -----
// The mesh of a symbol may carry its prefix; a trailing attr-dict is ignored.
sdy.mesh @m = #sdy.mesh<["a"=2]> {some.attr = "x}y", other = {nested = 1}}
// CHECK: sdy.mesh @m = <["a"=2]>

// -----
// Symbol names that are not bare identifiers print quoted.
sdy.mesh @"my mesh" = <["a"=2]>

// -----
sdy.mesh @"plain_name" = <["a"=2]>
// CHECK: sdy.mesh @plain_name = <["a"=2]>

// -----
// ARGS: --mesh '<["a"=2, "b"=2, "c"=2]>'
#sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"c"}>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, []>

// -----
// Open dims: `{?}` when empty, `{"a", ?}` otherwise.
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{?}, {"a", "b", ?}, {}]>

// -----
// Priorities.
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{"a"}p0, {"b"}p1]>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{"a"} p0, {"b"}  p12]>
// CHECK: #sdy.sharding<@mesh, [{"a"}p0, {"b"}p12]>

// -----
// Sub-axes.
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{"a"}, {"b":(2)2}]>

// -----
// ARGS: --mesh '<["a"=4, "b"=2]>'
#sdy.sharding<@mesh, [{"a":(1)2, "b", "a":(2)2}, {}]>

// -----
// ARGS: --mesh '<["a"=4, "b"=2]>'
#sdy.sharding<@mesh, [{"a" : ( 2 ) 2}, {}]>
// CHECK: #sdy.sharding<@mesh, [{"a":(2)2}, {}]>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{"a"}, {}], replicated={"b":(2)2}>

// -----
// Unreduced axes: SUM prints without a keyword, MAX and MIN with one.
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{}], unreduced={"b"}>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{}], unreduced=max{"b"}>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{}], unreduced=min{"b"}>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{}], unreduced=sum{"b"}>
// CHECK: #sdy.sharding<@mesh, [{}], unreduced={"b"}>

// -----
// Upstream also reads `unreduced{...}` without '='.
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{}], unreduced{"b"}>
// CHECK: #sdy.sharding<@mesh, [{}], unreduced={"b"}>

// -----
// The named lists may come in either order; replicated prints first.
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding<@mesh, [{}], unreduced={"b"}, replicated={"a"}>
// CHECK: #sdy.sharding<@mesh, [{}], replicated={"a"}, unreduced={"b"}>

// -----
// ARGS: --mesh '<["a"=2, "b"=4, "c"=2]>'
#sdy.sharding<@mesh, [{"c"}], replicated={"a"}, unreduced=max{"b"}>

// -----
// Inline meshes need no --mesh.
#sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>

// -----
#sdy.sharding<mesh<[], device_ids=[3]>, []>

// -----
// The stripped sharding.
// ARGS: --mesh '<["a"=2]>'
<@mesh, [{"a"}]>
// CHECK: #sdy.sharding<@mesh, [{"a"}]>

// -----
// Named meshes resolve by name.
// ARGS: --mesh 'foo=<["a"=2, "b"=4]>' --mesh 'bar=#sdy.mesh<["x"=8]>'
#sdy.sharding<@bar, [{"x"}]>

// -----
// A whole sdy.mesh line as --mesh.
// ARGS: --mesh 'sdy.mesh @foo = <["a"=2, "b"=4]>'
#sdy.sharding<@foo, [{"a"}, {"b"}]>

// -----
// ARGS: --mesh '<["a"=2, "b"=4]>'
#sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>

// -----
#sdy.sharding_per_value<[]>

// -----
// ARGS: --mesh 'foo=<["a"=2, "b"=4]>'
#sdy.sharding_per_value<[<mesh<["a"=2, "b"=4]>, [{"a"}, {}]>, <@foo, [{"a"}, {}]>]>

// -----
// ARGS: --mesh 'foo=<["a"=2, "b"=4]>'
#sdy.sharding_per_value<[<@foo, [], replicated={"b"}>]>

// -----
// Elements may carry the #sdy.sharding prefix.
// ARGS: --mesh '<["a"=2]>'
#sdy.sharding_per_value<[#sdy.sharding<@mesh, [{"a"}]>]>
// CHECK: #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>

// -----
// One --type per value.
// ARGS: --mesh '<["a"=2]>' --type 'tensor<8x8xf32>' --type 'tensor<f32>'
#sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>

// -----
// ARGS: --mesh '<["a"=2]>' --type 'tensor<8x8xf32>'
#sdy.sharding<@mesh, [{"a"}, {?}]>

// -----
// The escaped form of frontend attributes.
// ARGS: --mesh '<["a"=2, "b"=4, "c"=2]>'
#sdy.sharding<@mesh, [{\22a\22, ?}, {}], replicated={\22c\22}>
// CHECK: #sdy.sharding<@mesh, [{"a", ?}, {}], replicated={"c"}>

// -----
#sdy.mesh<[\22x\22=2, \22y\22=4]>
// CHECK: #sdy.mesh<["x"=2, "y"=4]>

// -----
// Names print with MLIR string escaping.
#sdy.mesh<["a\"b"=2, "c\\d"=2, "tab\there"=2]>
// CHECK: #sdy.mesh<["a\22b"=2, "c\\d"=2, "tab\09here"=2]>

// -----
#sdy.mesh<["\C3\A9t\C3\A9"=2]>
