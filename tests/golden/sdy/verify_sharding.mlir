// Tensor sharding verification (docs/upstream.md § Shardy verifier, verifyTensorShardingAttr and
// verifyTensorShardingPerValueAttr): every rule reachable from
// `shardbridge sdy`, in upstream's order, with the caret on the most specific
// offending token. Messages carry no op prefix (`op result 0 - ...`).
// Not reachable here: negative priorities (the parser rejects `p-1`), the
// divisibility rule (off for shardings on values, as upstream; the CLI never
// turns it on), an invalid mesh behind `@name` (--mesh is verified first),
// and a zero-result op (the CLI cannot give zero --type).

// -----

// ARGS: --mesh '<["a"=2, "b"=4, "c"=16]>' --type 'tensor<8x8xf32>'
#sdy.sharding<@mesh, [{"a", ?}p1, {"c":(1)2, "b"}], replicated={"c":(2)2}, unreduced={"c":(4)4}>

// -----

// Without --type no type rules apply: any rank is fine when nothing is sharded.
// ARGS: --mesh '<["a"=2]>'
#sdy.sharding<@mesh, [{}, {}, {?}]>

// -----

// ARGS: --mesh 'other=<["a"=2]>'
// expected-error {{unknown mesh: @mesh}}
// expected-error-at {{1:15}}
#sdy.sharding<@mesh, [{"a"}]>

// -----

// expected-error {{unknown mesh: @mesh}}
// expected-error-at {{1:15}}
#sdy.sharding<@mesh, []>

// -----

// An inline mesh is verified before the sharding.
// expected-error {{duplicate axis name: "x"}}
// expected-error-at {{1:28}}
#sdy.sharding<mesh<["x"=2, "x"=2]>, [{"x"}]>

// -----

// ARGS: --type 'tensor<8xf32>'
// expected-error {{axis size must be at least 1, got: 0}}
// expected-error-at {{1:25}}
#sdy.sharding<mesh<["x"=0]>, [{}, {}]>

// -----

// Maximal mesh: rank 0 and no named axes, whatever the type.
// ARGS: --mesh '<[], device_ids=[3]>' --type 'tensor<8x8xf32>'
#sdy.sharding<@mesh, []>

// -----

// ARGS: --mesh '<[], device_ids=[3]>' --type 'tensor<8xf32>'
// expected-error {{a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes.}}
// expected-error-at {{1:23}}
#sdy.sharding<@mesh, [{}]>

// -----

// ARGS: --mesh '<[], device_ids=[3]>'
// expected-error {{a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes.}}
// expected-error-at {{1:38}}
#sdy.sharding<@mesh, [], replicated={"a"}>

// -----

// expected-error {{a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes.}}
// expected-error-at {{1:56}}
#sdy.sharding<mesh<[], device_ids=[0]>, [], unreduced={"a"}>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tuple<tensor<8xf32>,tensor<8xf32>>'
// expected-error {{ops can only have a sharding for a tuple of size 1: tuple<tensor<8xf32>, tensor<8xf32>>}}
// expected-error-at {{1:1}}
#sdy.sharding<@mesh, [{"a"}]>

// -----

// A tuple of one tensor is checked as that tensor.
// ARGS: --mesh '<["a"=2]>' --type 'tuple<tensor<8xf32>>'
#sdy.sharding<@mesh, [{"a"}]>

// -----

// ARGS: --mesh '<["a"=2]>' --type '!stablehlo.token'
// expected-error {{non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes. type: !stablehlo.token, sharding: #sdy.sharding<@mesh, [{}]>}}
// expected-error-at {{1:23}}
#sdy.sharding<@mesh, [{}]>

// -----

// ARGS: --mesh '<["a"=2]>' --type '!stablehlo.token'
// expected-error {{non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes. type: !stablehlo.token, sharding: #sdy.sharding<@mesh, [], replicated={"a"}>}}
// expected-error-at {{1:38}}
#sdy.sharding<@mesh, [], replicated={"a"}>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tuple< f32 >'
// expected-error {{non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes. type: tuple<f32>, sharding: #sdy.sharding<@mesh, [], unreduced=max{"a"}>}}
// expected-error-at {{1:40}}
#sdy.sharding<@mesh, [], unreduced=max{"a"}>

// -----

// ARGS: --mesh '<["a"=2]>' --type '!stablehlo.token'
#sdy.sharding<@mesh, []>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<*xf32>'
// expected-error {{only ranked tensors can have a sharding. type: tensor<*xf32>}}
// expected-error-at {{1:1}}
#sdy.sharding<@mesh, []>

// -----

// ARGS: --mesh '<["a"=2, "b"=2]>' --type 'tensor<8xf32>'
// expected-error {{sharding doesn't match tensor rank: 2 != 1}}
// expected-error-at {{1:27}}
#sdy.sharding<@mesh, [{}, {"b"}], replicated={"a"}>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<?x?xf32>'
// expected-error {{sharding doesn't match tensor rank: 1 != 2}}
// expected-error-at {{1:1}}
#sdy.sharding<@mesh, [{}]>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<?x?xf32>'
// expected-error {{dim 0 is empty and closed but has a priority}}
// expected-error-at {{1:25}}
#sdy.sharding<@mesh, [{}p1, {}]>

// -----

// ARGS: --mesh '<["a"=2, "b"=4]>' --type 'tensor<8x8xf32>'
// expected-error {{dim 1 is empty and closed but has a priority}}
// expected-error-at {{1:32}}
#sdy.sharding<@mesh, [{"a"}, {}p3]>

// -----

// An open empty dim may have a priority.
// ARGS: --mesh '<["a"=2]>' --type 'tensor<8xf32>'
#sdy.sharding<@mesh, [{?}p0]>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<8x8xf32>'
// expected-error {{unknown axis name: "c"}}
// expected-error-at {{1:28}}
#sdy.sharding<@mesh, [{}, {"c"}]>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{unknown axis name: "c"}}
// expected-error-at {{1:28}}
#sdy.sharding<@mesh, [{}, {"c":(1)2}]>

// -----

// expected-error {{unknown axis name: "c"}}
// expected-error-at {{1:43}}
#sdy.sharding<mesh<["a"=2, "b"=2]>, [{}, {"c"}]>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{unknown axis name: "c"}}
// expected-error-at {{1:44}}
#sdy.sharding<@mesh, [{}, {}], replicated={"c"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{unknown axis name: "c"}}
// expected-error-at {{1:43}}
#sdy.sharding<@mesh, [{}, {}], unreduced={"c"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:47}}
#sdy.sharding<@mesh, [{}, {"a"}], replicated={"a"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:46}}
#sdy.sharding<@mesh, [{}, {"a"}], unreduced={"a"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:61}}
#sdy.sharding<@mesh, [{}, {}], replicated={"a"}, unreduced={"a"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:49}}
#sdy.sharding<@mesh, [{}, {}], replicated={"a", "a"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:48}}
#sdy.sharding<@mesh, [{}, {}], unreduced={"a", "a"}>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:33}}
#sdy.sharding<@mesh, [{}, {"a", "a"}]>

// -----

// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:31}}
#sdy.sharding<@mesh, [{"a"}, {"a"}]>

// -----

// An exact duplicate of a sub-axis is a duplicate ref.
// ARGS: --mesh '<["c"=16]>'
// expected-error {{duplicate axis ref: "c":(1)2}}
// expected-error-at {{1:36}}
#sdy.sharding<@mesh, [{"c":(1)2}, {"c":(1)2}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{two consecutive sub-axes can be merged: "c":(1)2, "c":(2)2}}
// expected-error-at {{1:34}}
#sdy.sharding<@mesh, [{"c":(1)2, "c":(2)2}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{two consecutive sub-axes can be merged: "c":(1)2, "c":(2)4}}
// expected-error-at {{1:48}}
#sdy.sharding<@mesh, [], replicated={"c":(1)2, "c":(2)4}>

// -----

// A full axis between two sub-axes, and sub-axes in reverse order, are legal.
// ARGS: --mesh '<["a"=2, "c"=16]>'
#sdy.sharding<@mesh, [{"c":(1)2, "a", "c":(2)2}, {"c":(8)2, "c":(4)2}]>

// -----

// ARGS: --mesh '<["c"=2, "a"=2, "b"=2]>'
// expected-error {{replicated axes are not ordered w.r.t. mesh}}
// expected-error-at {{1:54}}
#sdy.sharding<@mesh, [{}, {}], replicated={"a", "b", "c"}>

// -----

// ARGS: --mesh '<["c"=2, "a"=2, "b"=2]>'
// expected-error {{unreduced axes are not ordered w.r.t. mesh}}
// expected-error-at {{1:53}}
#sdy.sharding<@mesh, [{}, {}], unreduced={"a", "b", "c"}>

// -----

// Mesh order, not alphabetical order.
// ARGS: --mesh '<["c"=2, "a"=2, "b"=2]>'
#sdy.sharding<@mesh, [{}, {}], replicated={"c", "a"}, unreduced={"b"}>

// -----

// Sub-axes of one axis: (1)k before the full axis before (k)m, and by (pre, size).
// ARGS: --mesh '<["c"=16]>'
// expected-error {{replicated axes are not ordered w.r.t. mesh}}
// expected-error-at {{1:48}}
#sdy.sharding<@mesh, [], replicated={"c":(4)2, "c":(1)2}>

// -----

// Dims are checked before the replicated axes.
// ARGS: --mesh '<["c"=2, "a"=2, "b"=2]>'
// expected-error {{unknown axis name: "z"}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"z"}], replicated={"b", "a"}>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{both sub-axis and full-axis are used for axis name: "c"}}
// expected-error-at {{1:31}}
#sdy.sharding<@mesh, [{"c"}, {"c":(1)2}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{both sub-axis and full-axis are used for axis name: "c"}}
// expected-error-at {{1:48}}
#sdy.sharding<@mesh, [{"c":(1)2}], replicated={"c"}>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{sub-axis pre-size must be at least 1: "c":(0)2}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"c":(0)2}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{sub-axis sizes must be greater than 1: "c":(1)1}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"c":(1)1}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{sub-axis next pre-size 6 doesn't divide the size of the full axis 16: "c":(3)2}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"c":(3)2}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{sub-axis next pre-size 32 doesn't divide the size of the full axis 16: "c":(8)4}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"c":(8)4}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{sub-axis size is equal to the full axis size: "c":(1)16}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"c":(1)16}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{overlapping sub-axes: "c":(1)4, "c":(2)2}}
// expected-error-at {{1:36}}
#sdy.sharding<@mesh, [{"c":(1)4}, {"c":(2)2}]>

// -----

// Overlaps are found after sorting: the error names them in order.
// ARGS: --mesh '<["c"=16]>'
// expected-error {{overlapping sub-axes: "c":(1)4, "c":(2)2}}
// expected-error-at {{1:24}}
#sdy.sharding<@mesh, [{"c":(2)2}, {"c":(1)4}]>

// -----

// ARGS: --mesh '<["c"=16]>'
// expected-error {{overlapping sub-axes: "c":(2)4, "c":(4)4}}
// expected-error-at {{1:47}}
#sdy.sharding<@mesh, [{"c":(2)4}], unreduced={"c":(4)4}>

// -----

// Axes are visited in mesh order ("b" before "c").
// ARGS: --mesh '<["b"=4, "c"=16]>'
// expected-error {{sub-axis size is equal to the full axis size: "b":(1)4}}
// expected-error-at {{1:36}}
#sdy.sharding<@mesh, [{"c":(3)2}, {"b":(1)4}]>

// -----

// Per value: one sharding per --type.
// ARGS: --mesh '<["a"=2, "b"=2]>' --type 'tensor<2x13xf32>' --type 'tensor<2x13xf32>'
// expected-error {{shardings don't match number of values: 3 shardings vs 2 values}}
// expected-error-at {{1:70}}
#sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"b"}, {}]>, <@mesh, [{"a"}, {}]>]>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<f32>' --type 'tensor<f32>'
// expected-error {{shardings don't match number of values: 1 shardings vs 2 values}}
// expected-error-at {{1:1}}
#sdy.sharding_per_value<[<@mesh, []>]>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<8x8xf32>' --type 'tensor<8x8xf32>'
// expected-error {{unknown axis name: "c"}}
// expected-error-at {{1:58}}
#sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"c"}, {}]>]>

// -----

// ARGS: --mesh 'mesh=<["a"=2]>' --type 'tensor<8x8xf32>' --type 'tensor<8x8xf32>'
// expected-error {{unknown mesh: @other_mesh}}
// expected-error-at {{1:46}}
#sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@other_mesh, [{}, {"a"}]>]>

// -----

// ARGS: --type 'tensor<8xf32>' --type 'tensor<f32>'
// expected-error {{sharding doesn't match tensor rank: 1 != 0}}
// expected-error-at {{1:69}}
#sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}]>, <mesh<["x"=2]>, [{}]>]>

// -----

// Without --type every sharding is checked without a type.
// ARGS: --mesh '<["a"=2]>'
// expected-error {{duplicate axis ref: "a"}}
// expected-error-at {{1:74}}
#sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [], replicated={"a", "a"}>]>

// -----

// ARGS: --mesh '<["a"=2]>' --type 'tensor<8xf32>' --type '!stablehlo.token'
#sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, []>]>
