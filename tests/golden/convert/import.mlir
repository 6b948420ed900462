// `shardbridge import`: HloShardings as sdy shardings.
// Expectations: docs/upstream.md § Worked import examples ( from upstream's
// import_shardings.mlir and stablehlo_import_test.cc) and issue 4's
// acceptance list.

// Guided import onto a given mesh (issue 4 "Done when"; docs/upstream.md import example 2).
// CMD: import
// ARGS: --mesh '<["x"=4, "y"=2]>'
// CHECK: #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>
{devices=[2,4]<=[8]}

// -----
// Sub-axes of a single axis (docs/upstream.md import example 2).
// CMD: import
// ARGS: --mesh 'm=<["x"=16]>'
// CHECK: #sdy.sharding<@m, [{"x":(1)4}, {"x":(4)4}]>
{devices=[4,4]<=[16]}

// -----
// Size-1 axes are skipped; --open-dims opens every dim (docs/upstream.md import example 3).
// CMD: import
// ARGS: --mesh '<["x"=1, "y"=4, "z"=2]>' --open-dims
// CHECK: #sdy.sharding<@mesh, [{"y", ?}, {"z", ?}]>
{devices=[4,2]<=[8]}

// -----
// Partial replication with a transpose (docs/upstream.md import example 4).
// CMD: import
// ARGS: --mesh '<["x"=2, "y"=4]>'
// CHECK: #sdy.sharding<@mesh, [{"y":(2)2}, {"x"}]>
{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}

// -----
// Module mesh inference (docs/upstream.md import example 1): the coarsest common
// factorisation, `_axis_N` names, single-device meshes by id.
// CMD: import
// ARGS: '{devices=[4,8]<=[8,4]T(1,0)}' '{devices=[1,2,16]<=[32] last_tile_dim_replicate}' '{maximal device=3}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
// CHECK: sdy.mesh @single_device_3 = <[], device_ids=[3]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>
// CHECK: #sdy.sharding<@mesh, [{}, {"_axis_0"}]>
// CHECK: #sdy.sharding<@single_device_3, []>
// CHECK: #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_2"}]>
{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}

// -----
// Primes (docs/upstream.md import example 5).
// CMD: import
// ARGS: '{replicated}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=7, "_axis_1"=2, "_axis_2"=5, "_axis_3"=3]>
// CHECK: #sdy.sharding<@mesh, []>
// CHECK: #sdy.sharding<@mesh, [{"_axis_3", "_axis_1"}, {"_axis_2", "_axis_0"}]>
{devices=[6,35]<=[7,10,3]T(2,1,0)}

// -----
// Nothing tiled: the empty mesh; --rank gives replicated its dims; unknown
// comes back open (docs/upstream.md § Import steps, step 3).
// CMD: import
// ARGS: --rank 2 '{replicated}'
// CHECK: sdy.mesh @mesh = <[]>
// CHECK: #sdy.sharding<@mesh, [{}, {}]>
// CHECK: #sdy.sharding<@mesh, [{?}, {?}]>
{unknown}

// -----
// A tuple prints one sharding_per_value line.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=16]>
// CHECK: sdy.mesh @single_device_1 = <[], device_ids=[1]>
// CHECK: #sdy.sharding_per_value<[<@single_device_1, []>, <@mesh, [{"_axis_0"}, {"_axis_1"}]>]>
{{maximal device=1}, {devices=[2,16]<=[32]}}

// -----
// The subgroup types are read by subgroup dim (upstream misreads them for
// {unreduced, replicated}; docs/upstream.md § Import steps, step 6).
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_2"}, {}], replicated={"_axis_1"}, unreduced={"_axis_0"}>
{devices=[4,1,2,4]<=[8,4]T(1,0) last_tile_dims={unreduced, replicated}}

// -----
// --rank must match a tiled input's data rank.
// CMD: import
// ARGS: --rank 3
// expected-error {{input 1 ({devices=[2,4]<=[8]}): sharding {devices=[2,4]<=[8]} tiles 2 dimensions but the tensor has rank 3}}
{devices=[2,4]<=[8]}

// -----
// No common factorisation (upstream CHECK-fails): one axis over all six
// devices serves both through sub-axes (issue 4 item 4b; any_order.h).
// CMD: import
// ARGS: '{devices=[2,3]<=[6]}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=6]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0":(1)3}, {"_axis_0":(3)2}]>
{devices=[3,2]<=[6]}

// -----
// Issue 4 item 4b: an iota no iota mesh explains (upstream aborts) gets a
// mesh with device_ids: axes = the tile dims, device_ids = its device list.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
{devices=[2,3]<=[2,3]T(1,0)}

// -----
// Issue 4 item 4b: a TPU ring order.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>
{devices=[4,2]0,1,2,3,6,7,4,5}

// -----
// Issue 4 item 4a: a V1 list that is a transposed iota
// ({devices=[2,2]<=[2,2]T(1,0)}) gets an iota mesh.
// CMD: import
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK: #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>
{devices=[2,2]0,2,1,3}

// -----
// Issue 4 item 4c: no single mesh expresses both; the error names them.
// CMD: import
// ARGS: '{devices=[2,2]0,1,2,3}'
// expected-error {{no single mesh for shardings {devices=[2,2]0,1,2,3} and {devices=[2,2]0,1,3,2}: no device order tried (the iota order or the order of either sharding) lists both as factorable iotas}}
{devices=[2,2]0,1,3,2}

// -----
// Guided import honouring the mesh's device_ids (issue 4 item 6): in mesh
// order {devices=[2,2]<=[4]} reads [0,2,1,3], i.e. dim 0 on y.
// CMD: import
// ARGS: --mesh '<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>'
// CHECK: #sdy.sharding<@mesh, [{"y"}, {"x"}]>
{devices=[2,2]<=[4]}

// -----
// Guided import onto a ring mesh, with sub-axes (issue 4 item 5).
// CMD: import
// ARGS: --mesh '<["x"=4, "y"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>'
// CHECK: #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>
{devices=[2,4]0,1,2,3,6,7,4,5}

// -----
// A device order the given mesh cannot express (issue 4 item 5).
// CMD: import
// ARGS: --mesh '<["x"=2, "y"=2]>'
// expected-error {{input 1 ({devices=[2,2]0,1,3,2}): sharding {devices=[2,2]0,1,3,2} cannot be expressed on mesh #sdy.mesh<["x"=2, "y"=2]>: its devices in mesh order, devices=[2,2]0,1,3,2, are not an iota}}
{devices=[2,2]0,1,3,2}

// -----
// A malformed input: a located parse error, nothing printed.
// CMD: import
// expected-error {{expects integer}}
// expected-error-at {{1:15}}
{devices=[2,2]
