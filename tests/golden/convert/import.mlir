// `shardbridge import`: HloShardings as sdy shardings.
// Expectations: facts/shardy_bridge.md §5.5 (worked examples, from upstream's
// import_shardings.mlir and stablehlo_import_test.cc) and issue 4's
// acceptance list.

// Guided import onto a given mesh (issue 4 "Done when"; facts §5.5 ex. 2).
// CMD: import
// ARGS: --mesh '<["x"=4, "y"=2]>'
// CHECK: #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>
{devices=[2,4]<=[8]}

// -----
// Sub-axes of a single axis (facts §5.5 ex. 2).
// CMD: import
// ARGS: --mesh 'm=<["x"=16]>'
// CHECK: #sdy.sharding<@m, [{"x":(1)4}, {"x":(4)4}]>
{devices=[4,4]<=[16]}

// -----
// Size-1 axes are skipped; --open-dims opens every dim (facts §5.5 ex. 3).
// CMD: import
// ARGS: --mesh '<["x"=1, "y"=4, "z"=2]>' --open-dims
// CHECK: #sdy.sharding<@mesh, [{"y", ?}, {"z", ?}]>
{devices=[4,2]<=[8]}

// -----
// Partial replication with a transpose (facts §5.5 ex. 4).
// CMD: import
// ARGS: --mesh '<["x"=2, "y"=4]>'
// CHECK: #sdy.sharding<@mesh, [{"y":(2)2}, {"x"}]>
{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}

// -----
// Module mesh inference (facts §5.5 ex. 1): the coarsest common
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
// Primes (facts §5.5 ex. 5).
// CMD: import
// ARGS: '{replicated}'
// CHECK: sdy.mesh @mesh = <["_axis_0"=7, "_axis_1"=2, "_axis_2"=5, "_axis_3"=3]>
// CHECK: #sdy.sharding<@mesh, []>
// CHECK: #sdy.sharding<@mesh, [{"_axis_3", "_axis_1"}, {"_axis_2", "_axis_0"}]>
{devices=[6,35]<=[7,10,3]T(2,1,0)}

// -----
// Nothing tiled: the empty mesh; --rank gives replicated its dims; unknown
// comes back open (facts §5.4 step 3).
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
// {unreduced, replicated}; facts §5.4 step 6).
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
// No common factorisation: an error naming both shardings, not an abort.
// (Upstream CHECK-fails; a mesh with sub-axes serving both is issue 4 item 4.)
// CMD: import
// ARGS: '{devices=[2,3]<=[6]}'
// expected-error {{no common mesh for shardings {devices=[2,3]<=[6]} and {devices=[3,2]<=[6]}}}
{devices=[3,2]<=[6]}

// -----
// A malformed input: a located parse error, nothing printed.
// CMD: import
// expected-error {{expects integer}}
// expected-error-at {{1:15}}
{devices=[2,2]
