// Mesh verification (docs/upstream.md § Shardy verifier, MeshAxisAttr::verify and MeshAttr::verify):
// every rule reachable from `shardbridge sdy`, in upstream's order, with the
// caret on the offending part. A mesh given with --mesh is verified the same
// way, its diagnostics named `--mesh`.

// Valid meshes print back canonically.
#sdy.mesh<[]>

// -----

#sdy.mesh<[], device_ids=[3]>

// -----

#sdy.mesh<["a"=1]>

// -----

sdy.mesh @mesh = <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>

// -----

// Explicit iota ids are dropped by the builder, so the "no need to specify
// them" rule is never reached from text (as upstream).
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>

// -----

// CHECK: #sdy.mesh<["a"=1]>
<["a"=1], device_ids=[0]>

// -----

// expected-error {{axis size must be at least 1, got: 0}}
// expected-error-at {{1:31}}
sdy.mesh @mesh = <["a"=2, "b"=0]>

// -----

// expected-error {{axis size must be at least 1, got: -2}}
// expected-error-at {{1:7}}
<["a"=-2]>

// -----

// Axis sizes are checked before device ids.
// expected-error {{axis size must be at least 1, got: 0}}
// expected-error-at {{1:7}}
<["a"=0], device_ids=[-1]>

// -----

// expected-error {{device id must be non-negative, got: -1}}
// expected-error-at {{1:35}}
sdy.mesh @mesh = <[], device_ids=[-1]>

// -----

// expected-error {{device id must be non-negative, got: -1}}
// expected-error-at {{1:26}}
<["a"=2], device_ids=[1, -1]>

// -----

// Negative ids are reported before the empty-axes rule.
// expected-error {{device id must be non-negative, got: -5}}
// expected-error-at {{1:21}}
<[], device_ids=[0, -5]>

// -----

// expected-error {{axes is empty and device_ids has more than one element}}
// expected-error-at {{1:34}}
sdy.mesh @mesh = <[], device_ids=[1, 0]>

// -----

// expected-error {{duplicate axis name: "a"}}
// expected-error-at {{1:34}}
sdy.mesh @mesh = <["a"=2, "b"=2, "a"=4]>

// -----

// Duplicate names are reported before the device count.
// expected-error {{duplicate axis name: "a"}}
// expected-error-at {{1:10}}
<["a"=2, "a"=2], device_ids=[0, 1, 3]>

// -----

// Not an upstream rule (upstream's product wraps around): a mesh whose total
// size does not fit int64 is rejected at the axis that overflows.
// expected-error {{total product of axis sizes overflows int64 at axis "b"}}
// expected-error-at {{1:23}}
<["a"=4294967296, "b"=4294967296, "c"=2]>

// -----

// expected-error {{total product of axis sizes must match total number of device ids, got: 4 != 6}}
// expected-error-at {{1:46}}
sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3, 4, 5]>

// -----

// expected-error {{total product of axis sizes must match total number of device ids, got: 2 != 1}}
// expected-error-at {{1:39}}
sdy.mesh @mesh = <["a"=2], device_ids=[0]>

// -----

// expected-error {{sorted device ids must be iota(product(axes)), got: 1, 1}}
// expected-error-at {{1:61}}
sdy.mesh @mesh_duplicated_device_ids = <["a"=2], device_ids=[1, 1]>

// -----

// expected-error {{sorted device ids must be iota(product(axes)), got: 1, 2}}
// expected-error-at {{1:63}}
sdy.mesh @mesh_out_if_bound_device_ids = <["a"=2], device_ids=[2, 1]>

// -----

// A mesh given with --mesh is verified before the sharding.
// ARGS: --mesh '<["a"=2, "a"=2]>'
// expected-error {{duplicate axis name: "a"}}
#sdy.sharding<@mesh, [{"a"}]>

// -----

// ARGS: --mesh 'm=<["x"=2], device_ids=[1, 1]>'
// expected-error {{sorted device ids must be iota(product(axes)), got: 1, 1}}
#sdy.sharding<@m, []>
