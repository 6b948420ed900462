// `shardbridge import` beyond upstream (issue 4 item 4; docs/import.md):
// device orders upstream aborts on, modules without a common factorisation,
// and --mesh-per-group. Every mesh below was checked by hand: in the mesh's
// device order each sharding is an iota whose factors map onto the axes as
// printed (the unit tests in tests/convert/any_order_test.cc also export
// each result back and compare it with the input).

// (a) A transposed V1 list is that iota: [2,2]<=[2,2]T(1,0), dim 0 on the
// minor axis; an iota mesh, no device_ids.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>
{devices=[2,2]0,2,1,3}

// -----
// (b) No iota mesh explains [2,3]<=[2,3]T(1,0) (tile dims [2,3], device
// dims [3,2]); its own device order does, with its tile dims as axes.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
{devices=[2,3]<=[2,3]T(1,0)}

// -----
// (b) A TPU ring order: the mesh lists the devices in that order.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
{devices=[4,2]0,1,2,3,6,7,4,5}

// -----
// (b) A module of the ring order: the same devices cut [4,2], transposed
// ([2,4] reads x-major in mesh order: 0,2,6,4 are mesh indices 0,2,4,6) and
// flattened; the replicated input takes no part.
// CMD: import
// ARGS: '{devices=[4,2]0,1,2,3,6,7,4,5}' '{devices=[2,4]0,2,6,4,1,3,7,5}' '{devices=[8]0,1,2,3,6,7,4,5}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>
// CHECK: #sdy.sharding<@mesh, []>
{replicated}

// -----
// (b) A transposed V1 list beside plain iotas of other ranks: the iota
// order serves all (upstream aborts on the list).
// CMD: import
// ARGS: '{devices=[2,2]0,2,1,3}' '{devices=[4]<=[4]}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {}]>
{devices=[2,1,2]<=[4] last_tile_dim_replicate}

// -----
// (b) Local meshes [2,3] and [3,2] have no common factorisation (upstream
// aborts); one axis of 6 serves both through sub-axes.
// CMD: import
// ARGS: '{devices=[2,3]<=[6]}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=6]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0":(1)3}, {"_axis_0":(3)2}]>
{devices=[3,2]<=[6]}

// -----
// (b) Three explicit lists from one 12-device mesh with axes 2, 3, 2 and
// a non-iota order, each using the axes in another order; the first one's
// own order serves the other two.
// CMD: import
// ARGS: '{devices=[2,3,2]0,9,2,11,4,7,1,10,3,6,5,8}' '{devices=[3,4]0,9,1,10,2,11,3,6,4,7,5,8}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3, "_axis_2"=2], device_ids=[0, 9, 2, 11, 4, 7, 1, 10, 3, 6, 5, 8]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}, {"_axis_2"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0", "_axis_2"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_2", "_axis_1", "_axis_0"}]>
{devices=[12]0,1,2,3,4,5,9,10,11,6,7,8}

// -----
// (c) No single mesh: the identity and a swapped pair. The error names
// both and points at --mesh-per-group.
// CMD: import
// ARGS: '{devices=[2,2]0,1,2,3}'
// expected-error {{no single mesh for shardings {devices=[2,2]0,1,2,3} and {devices=[2,2]0,1,3,2}: no device order tried (the iota order or the order of either sharding) lists both as factorable iotas, nor does either one's device list read along its tile dims in another order; --mesh-per-group imports them onto one mesh per compatible group}}
{devices=[2,2]0,1,3,2}

// -----
// (c) --mesh-per-group: greedy in input order. The swapped pair starts
// @mesh_1 (its own order); replicated joins the first group; the [4] list in
// the swapped order fits @mesh_1 only; single devices as usual.
// CMD: import
// ARGS: --mesh-per-group '{devices=[2,2]0,1,2,3}' '{devices=[2,2]0,1,3,2}' '{replicated}' '{maximal device=1}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK: sdy.mesh @mesh_1 = <["_axis_0"=2, "_axis_1"=2], device_ids=[0, 1, 3, 2]>
// CHECK: sdy.mesh @single_device_1 = <[], device_ids=[1]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
// CHECK: #sdy.sharding<@mesh_1, [{"_axis_0"}, {"_axis_1"}]>
// CHECK: #sdy.sharding<@mesh, []>
// CHECK: #sdy.sharding<@single_device_1, []>
// CHECK: #sdy.sharding<@mesh_1, [{"_axis_0", "_axis_1"}]>
{devices=[4]0,1,3,2}

// -----
// (c) Different device counts cannot share a mesh; the third joins the
// first group, whose fold of [4] and [2,2] is [2,2].
// CMD: import
// ARGS: --mesh-per-group '{devices=[4]<=[4]}' '{devices=[8]<=[8]}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK: sdy.mesh @mesh_1 = <["_axis_0"=8]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>
// CHECK: #sdy.sharding<@mesh_1, [{"_axis_0"}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
{devices=[2,2]<=[4]}

// -----
// (c) One group gives the single mesh.
// CMD: import
// ARGS: --mesh-per-group '{devices=[2,3]<=[6]}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=6]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0":(1)3}, {"_axis_0":(3)2}]>
{devices=[3,2]<=[6]}
