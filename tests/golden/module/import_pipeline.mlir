// `shardbridge convert --to sdy` on StableHLO with mhlo.sharding strings: the
// xla-sdy-stablehlo-import-pipeline (docs/module.md "Import"). Each case names the upstream
// lit test and function of xla/service/spmd/shardy/test/ (at the commit docs/module.md pins)
// whose facts it encodes; the inputs are ours.
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// stablehlo_import_pipeline.mlir @sharding_custom_call_no_unspecified_dims and
// @sharding_custom_call_with_unspecified_dims: @Sharding becomes sdy.sharding_constraint, and
// backend_config's unspecified_dims become open dims.
// CHECK: sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>
// CHECK: func.func @constraints(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK:   %0 = sdy.sharding_constraint %arg0 <@mesh, [{"_axis_0"}, {}]> : tensor<8x8xf32>
// CHECK:   %1 = sdy.sharding_constraint %arg0 <@mesh, [{"_axis_0"}, {?}]> : tensor<8x8xf32>
// CHECK:   return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK: }
func.func @constraints(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// stablehlo_import_pipeline.mlir @while_with_free_variables: constants become sdy.constant
// (xla-sdy-import-constants), and the sharded free variable %arg1 of the while gets a fully open
// sdy.sharding_constraint read inside the loop (xla-sdy-open-while-free-vars-sharding); the
// unsharded %arg0 and the rank-0 %2 get none.
// CHECK: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK: func.func @free_variables(%arg0: tensor<32x96xf32>, %arg1: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> tensor<32x96xf32> {
// CHECK:   %0 = sdy.constant dense<0> : tensor<i32>
// CHECK:   %1 = sdy.constant dense<1> : tensor<i32>
// CHECK:   %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<32> : tensor<i32>
// CHECK:   %arg1_open = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<32x96xf32>
// CHECK:   %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32>
// CHECK:     cond {
// CHECK:     %4 = stablehlo.compare LT, %iterArg_0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %4 : tensor<i1>
// CHECK:   } do {
// CHECK:     %4 = stablehlo.add %iterArg_0, %1 : tensor<i32>
// CHECK:     %5 = stablehlo.add %iterArg, %arg1_open : tensor<32x96xf32>
// CHECK:     stablehlo.return %5, %4 : tensor<32x96xf32>, tensor<i32>
// CHECK:   }
// CHECK:   return %3#0 : tensor<32x96xf32>
// CHECK: }
func.func @free_variables(%arg0: tensor<32x96xf32>, %arg1: tensor<32x96xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> tensor<32x96xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant dense<1> : tensor<i32>
  %2 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<32> : tensor<i32>
  %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg_0, %1 : tensor<i32>
    %5 = stablehlo.add %iterArg, %arg1 : tensor<32x96xf32>
    stablehlo.return %5, %4 : tensor<32x96xf32>, tensor<i32>
  }
  return %3#0 : tensor<32x96xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// stablehlo_import_pipeline.mlir @import_sharding_group_with_unused_result: the
// @xla.sdy.ShardingGroup custom call becomes sdy.sharding_group; a module without shardings gets no
// mesh.
// CHECK: func.func @group(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:   sdy.sharding_group %arg0 group_id=21 : tensor<8x8xf32>
// CHECK:   return %arg0 : tensor<8x8xf32>
// CHECK: }
func.func @group(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "21 : i64"}} : (tensor<8x8xf32>) -> ()
  return %arg0 : tensor<8x8xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// stablehlo_import_pipeline.mlir @custom_call_with_tuple_operand_result (stablehlo-ext's
// canonicalize-from-HLO-import, its tuple flattening only): the stablehlo.tuple operand and the
// get_tuple_element'd result of a custom call become flat values.
// CHECK: !pair = tuple<tensor<8x8xf32>, tensor<4x8xf32>>
// CHECK: func.func @tuples(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>) {
// CHECK:   %1:2 = stablehlo.custom_call @foo(%arg0, %arg1) : (tensor<8x8xf32>, tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>)
// CHECK:   return %1#0, %1#1 : tensor<8x8xf32>, tensor<4x8xf32>
// CHECK: }
!pair = tuple<tensor<8x8xf32>, tensor<4x8xf32>>
func.func @tuples(%arg0: tensor<8x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>) {
  %0 = stablehlo.tuple %arg0, %arg1 : !pair
  %1 = stablehlo.custom_call @foo(%0) : (!pair) -> !pair
  %2 = stablehlo.get_tuple_element %1[1] : (!pair) -> tensor<4x8xf32>
  %3 = stablehlo.get_tuple_element %1[0] : (!pair) -> tensor<8x8xf32>
  return %3, %2 : tensor<8x8xf32>, tensor<4x8xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// import_shardings.mlir @one_maximal_mesh (mesh names): the pinned pass names a maximal
// sharding's mesh maximal_mesh_<id>.
// CHECK: sdy.mesh @mesh = <[]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK: func.func @maximal(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}) -> tensor<8x8xf32> {
// CHECK:   return %arg0 : tensor<8x8xf32>
// CHECK: }
func.func @maximal(%arg0: tensor<8x8xf32> {mhlo.sharding = "{maximal device=0}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// Beyond upstream (an existing mesh named @mesh, as `shardbridge list` handles it): the
// module already defines a different @mesh, so the inferred mesh is @mesh_1; a mesh the module
// defines identically would be used as it is.
// CHECK: module {
// CHECK:   sdy.mesh @mesh_1 = <["_axis_0"=2]>
// CHECK:   sdy.mesh @mesh = <["x"=3]>
// CHECK:   func.func @clash(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"_axis_0"}, {}]>}) -> tensor<8x8xf32> {
// CHECK:     return %arg0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["x"=3]>
  func.func @clash(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// The TensorFlow copies of stablehlo_round_trip_shard_map_import.mlir (the pass
// xla-stablehlo-round-trip-shard-map-import, gone from the pinned commit): JAX's GSPMD shard_map
// pattern becomes sdy.manual_computation; the manual axes are the axes of the in/out shardings;
// the body is inlined and its {manual} shardings go with the pattern.
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK:   func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) {
// CHECK:     %4 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}, {}]>] out_shardings=[<@mesh, [{"_axis_0"}, {}]>] manual_axes={"_axis_0"} (%arg0_0: tensor<4x4xf32>) {
// CHECK:       %0_0 = stablehlo.multiply %arg0_0, %arg0_0 : tensor<4x4xf32>
// CHECK:       sdy.return %0_0 : tensor<4x4xf32>
// CHECK:     } : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK:     return %4 : tensor<8x4xf32>
// CHECK:   }
// CHECK: }
module {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %2 = call @shmap_body(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>
    return %4 : tensor<8x4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "[None, None]"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// The same pattern with an unused result (upstream drops it from the manual computation
// and its return) and a body called twice (cloned, its values renamed where the caller uses the
// names).
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK:   func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> tensor<8x4xf32> {
// CHECK:     %4 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"_axis_0"}, {}]>] out_shardings=[<@mesh, [{"_axis_0"}, {}]>] manual_axes={"_axis_0"} (%arg0_0: tensor<4x4xf32>) {
// CHECK:       %0_0 = stablehlo.multiply %arg0_0, %arg0_0 : tensor<4x4xf32>
// CHECK:       sdy.return %0_0 : tensor<4x4xf32>
// CHECK:     } : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK:     %9 = sdy.manual_computation(%4) in_shardings=[<@mesh, [{"_axis_0"}, {}]>] out_shardings=[<@mesh, [{"_axis_0"}, {}]>] manual_axes={"_axis_0"} (%arg0_1: tensor<4x4xf32>) {
// CHECK:       %0_1 = stablehlo.multiply %arg0_1, %arg0_1 : tensor<4x4xf32>
// CHECK:       sdy.return %0_1 : tensor<4x4xf32>
// CHECK:     } : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK:     return %9 : tensor<8x4xf32>
// CHECK:   }
// CHECK: }
module {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x4xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %2:2 = call @shmap_body(%1) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
    %3 = stablehlo.custom_call @Sharding(%2#0) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.custom_call @SPMDFullToShardShape(%5) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %7:2 = call @shmap_body(%6) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
    %8 = stablehlo.custom_call @Sharding(%7#0) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %9 = stablehlo.custom_call @SPMDShardToFullShape(%8) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>
    return %9 : tensor<8x4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4x4xf32>
    return %0, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// Beyond upstream (docs/module.md "Raising the export's own output"): what
// xla-sdy-stablehlo-export-pipeline writes for a manual computation (examples/jax_module_mhlo.mlir:
// mhlo.copy, @SPMDFullToShardShape, a call of @xla.sdy.inlinable_manual_computation_body, mhlo.copy,
// @SPMDShardToFullShape) comes back as sdy.manual_computation; its manual axis is the one the local
// sharding no longer uses.
// CHECK: module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK:   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>
// CHECK:   func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1", "_axis_2"}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1", "_axis_2"}, {}]>}, %arg2: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_2"}]>}) -> (tensor<16x64xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}, {}]>}, tensor<16x64xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}], unreduced={"_axis_1", "_axis_2"}>}) {
// CHECK:     %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {}], unreduced={"_axis_1", "_axis_2"}>]>} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
// CHECK:     %1 = stablehlo.add %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {"_axis_2"}]>]>} : tensor<16x64xf32>
// CHECK:     %2 = mhlo.copy %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}, {}]>]>} : tensor<16x64xf32>
// CHECK:     %7 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}, {}]>] out_shardings=[<@mesh, [{"_axis_0", "_axis_1", "_axis_2"}, {}]>] manual_axes={"_axis_0"} (%arg0_0: tensor<8x64xf32>) {
// CHECK:       %0_0 = stablehlo.multiply %arg0_0, %arg0_0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_1", "_axis_2"}, {}]>]>} : tensor<8x64xf32>
// CHECK:       sdy.return %0_0 : tensor<8x64xf32>
// CHECK:     } : (tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK:     return %7, %0 : tensor<16x64xf32>, tensor<16x64xf32>
// CHECK:   }
// CHECK: }
module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<32x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<16x64xf32> {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}"}) -> (tensor<16x64xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[8,1]<=[8]}"}, tensor<16x64xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.add %0, %arg2 {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}"} : tensor<16x64xf32>
    %2 = mhlo.copy %1 {mhlo.sharding = "{devices=[8,1]<=[8]}"} : tensor<16x64xf32>
    %3 = mhlo.copy %2 {mhlo.sharding = "{devices=[8,1]<=[8]}"} : tensor<16x64xf32>
    %4 = stablehlo.custom_call @SPMDFullToShardShape(%3) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<16x64xf32>) -> tensor<8x64xf32>
    %5 = call @xla.sdy.inlinable_manual_computation_body(%4) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %6 = mhlo.copy %5 {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : tensor<8x64xf32>
    %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x64xf32>) -> tensor<16x64xf32>
    return %7, %0 : tensor<16x64xf32>, tensor<16x64xf32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<8x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) -> (tensor<8x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) {
    %0 = stablehlo.multiply %arg0, %arg0 {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : tensor<8x64xf32>
    return %0 : tensor<8x64xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// TensorFlow copy of stablehlo_round_trip_shard_map_import_failure.mlir: a shmap_body
// call whose operand is not an SPMDFullToShardShape custom call is an error, at the call.
// expected-error {{expecting CustomCallOp as operand}}
// expected-error-at {{2:3}}
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = call @shmap_body(%arg0) : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func private @shmap_body(%arg0: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir @custom_call_tupled_operand (stablehlo-ext
// FlattenCustomCallOp, nested operands): a custom call's nested tuple operand becomes its leaves, in
// order, through the stablehlo.tuple ops that build it (which go once nothing else reads them) and,
// for a tuple argument, through get_tuple_elements inserted before the call.
// CHECK: func.func @f(%arg0: tuple<tensor<4xf32>, tensor<i32>>, %arg1: tensor<8xf32>, %arg2: tensor<2xi32>) -> tensor<8xf32> {
// CHECK:   %arg0_0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
// CHECK:   %arg0_1 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
// CHECK:   %2 = stablehlo.custom_call @pack(%arg1, %arg2, %arg0_0, %arg0_1) : (tensor<8xf32>, tensor<2xi32>, tensor<4xf32>, tensor<i32>) -> tensor<8xf32>
// CHECK:   return %2 : tensor<8xf32>
// CHECK: }
func.func @f(%arg0: tuple<tensor<4xf32>, tensor<i32>>, %arg1: tensor<8xf32>, %arg2: tensor<2xi32>) -> tensor<8xf32> {
  %0 = stablehlo.tuple %arg1, %arg2 : tuple<tensor<8xf32>, tensor<2xi32>>
  %1 = stablehlo.tuple %0, %arg0 : tuple<tuple<tensor<8xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<i32>>>
  %2 = stablehlo.custom_call @pack(%1) : (tuple<tuple<tensor<8xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<i32>>>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir @custom_call_tupled_result: a nested tuple result
// becomes one result per leaf; the get_tuple_element chain reads its leaf, and the returned tuple is
// rebuilt from the leaves after the call (inner tuple first, the alias kept as written).
// CHECK: !inner = tuple<tensor<2xf32>, tensor<i1>>
// CHECK: func.func @f(%arg0: tensor<2xf32>) -> (tuple<tensor<2xf32>, !inner>, tensor<i1>) {
// CHECK:   %0:3 = stablehlo.custom_call @unpack(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<i1>)
// CHECK:   %0_tuple = stablehlo.tuple %0#1, %0#2 : !inner
// CHECK:   %0_tuple_0 = stablehlo.tuple %0#0, %0_tuple : tuple<tensor<2xf32>, !inner>
// CHECK:   return %0_tuple_0, %0#2 : tuple<tensor<2xf32>, !inner>, tensor<i1>
// CHECK: }
!inner = tuple<tensor<2xf32>, tensor<i1>>
func.func @f(%arg0: tensor<2xf32>) -> (tuple<tensor<2xf32>, !inner>, tensor<i1>) {
  %0 = stablehlo.custom_call @unpack(%arg0) : (tensor<2xf32>) -> tuple<tensor<2xf32>, !inner>
  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf32>, !inner>) -> !inner
  %2 = stablehlo.get_tuple_element %1[1] : (!inner) -> tensor<i1>
  return %0, %2 : tuple<tensor<2xf32>, !inner>, tensor<i1>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir @custom_call (the generic form): a generic custom
// call is flattened in its own form; its get_tuple_element (`{index = 1 : i32}`) reads the leaf,
// and a custom call reading the whole tuple takes the leaves directly (the tuple upstream rebuilds
// is folded by TupleIsUnpacked and then dead).
// CHECK: func.func @f(%arg0: tensor<4x2xf32>) -> tensor<2xf32> {
// CHECK:   %0:2 = "stablehlo.custom_call"(%arg0) {call_target_name = "split", has_side_effect = true} : (tensor<4x2xf32>) -> (tensor<4xf32>, tensor<2xf32>)
// CHECK:   %2 = stablehlo.custom_call @consume(%0#0, %0#1) : (tensor<4xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK:   %3 = stablehlo.add %0#1, %2 : tensor<2xf32>
// CHECK:   return %3 : tensor<2xf32>
// CHECK: }
func.func @f(%arg0: tensor<4x2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "split", has_side_effect = true} : (tensor<4x2xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<2xf32>>
  %1 = "stablehlo.get_tuple_element"(%0) {index = 1 : i32} : (tuple<tuple<tensor<4xf32>>, tensor<2xf32>>) -> tensor<2xf32>
  %2 = stablehlo.custom_call @consume(%0) : (tuple<tuple<tensor<4xf32>>, tensor<2xf32>>) -> tensor<2xf32>
  %3 = stablehlo.add %1, %2 : tensor<2xf32>
  return %3 : tensor<2xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.cpp FlattenCustomCallOp / createTupleValue on the edge
// cases: a `tuple<>` result leaves the call with no result, and a one-element tuple with a single
// one; both are returned, so each is rebuilt after its call (the empty one in the generic form).
// CHECK: func.func @f(%arg0: tensor<2xf32>) -> (tuple<>, tuple<tensor<2xf32>>) {
// CHECK:   stablehlo.custom_call @g(%arg0) : (tensor<2xf32>) -> ()
// CHECK:   %0_tuple = "stablehlo.tuple"() : () -> tuple<>
// CHECK:   %1 = stablehlo.custom_call @h(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:   %1_tuple = stablehlo.tuple %1 : tuple<tensor<2xf32>>
// CHECK:   return %0_tuple, %1_tuple : tuple<>, tuple<tensor<2xf32>>
// CHECK: }
func.func @f(%arg0: tensor<2xf32>) -> (tuple<>, tuple<tensor<2xf32>>) {
  %0 = stablehlo.custom_call @g(%arg0) : (tensor<2xf32>) -> tuple<>
  %1 = stablehlo.custom_call @h(%arg0) : (tensor<2xf32>) -> tuple<tensor<2xf32>>
  return %0, %1 : tuple<>, tuple<tensor<2xf32>>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// import_shardings.mlir @multi_result_op (a tuple mhlo.sharding gives one sharding per result) and
// stablehlo_import_pipeline.mlir @custom_call_with_tuple_operand_result (the tuple flattening of
// canonicalize-from-hlo-import): a custom call whose single result is a tuple gets one sharding per
// leaf from its tuple sharding, which the call keeps once its tuple operand and result are flat.
// CHECK: sdy.mesh @mesh = <["_axis_0"=4]>
// CHECK: func.func @main(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> (tensor<16x4xf32>, tensor<2xi32>) {
// CHECK:   %1:2 = stablehlo.custom_call @topk_like(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {}]>, <@mesh, [{}]>]>} : (tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<2xi32>)
// CHECK:   return %1#0, %1#1 : tensor<16x4xf32>, tensor<2xi32>
// CHECK: }
func.func @main(%arg0: tensor<16x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<16x4xf32>, tensor<2xi32>) {
  %0 = stablehlo.tuple %arg0 : tuple<tensor<16x4xf32>>
  %1 = stablehlo.custom_call @topk_like(%0) {mhlo.sharding = "{{devices=[4,1]<=[4]}, {replicated}}"} : (tuple<tensor<16x4xf32>>) -> tuple<tensor<16x4xf32>, tensor<2xi32>>
  %2 = stablehlo.get_tuple_element %1[0] : (tuple<tensor<16x4xf32>, tensor<2xi32>>) -> tensor<16x4xf32>
  %3 = stablehlo.get_tuple_element %1[1] : (tuple<tensor<16x4xf32>, tensor<2xi32>>) -> tensor<2xi32>
  return %2, %3 : tensor<16x4xf32>, tensor<2xi32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// stablehlo_import.cc importShardings pairs a tuple sharding's elements with the op's results: any op
// other than a custom call (which canonicalize-from-hlo-import flattens) with a single tuple-typed
// result and a two-element tuple sharding has too few results for it: an error at the string.
// expected-error {{sharding has 2 leaves but 1 ranks were given}}
// expected-error-at {{2:54}}
func.func @main(%arg0: tensor<16x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<2xi32>) -> tuple<tensor<16x4xf32>, tensor<2xi32>> {
  %0 = stablehlo.tuple %arg0, %arg1 {mhlo.sharding = "{{devices=[4,1]<=[4]}, {replicated}}"} : tuple<tensor<16x4xf32>, tensor<2xi32>>
  return %0 : tuple<tensor<16x4xf32>, tensor<2xi32>>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.cpp expandTupledTensorInReturnOp (lit test
// stablehlo_canonicalize_from_hlo_import.mlir, the @main cases): @main's nested tuple argument becomes
// one argument per leaf, and what read it reads a stablehlo.tuple of them (inner first); the
// returned tuple is replaced by the operands of the stablehlo.tuple building it, which goes. Then,
// as the @get_tuple_element case folds it, each get_tuple_element of a rebuilt tuple is the leaf,
// and the tuples nothing reads any more go.
// CHECK: func.func @main(%arg0_0: tensor<8xf32>, %arg0_1: tensor<4xbf16>, %arg0_2: tensor<i32>, %arg1: tensor<2xf32>) -> (tensor<8xf32>, tensor<2xf32>, tensor<i32>) {
// CHECK:   return %arg0_0, %arg1, %arg0_2 : tensor<8xf32>, tensor<2xf32>, tensor<i32>
// CHECK: }
func.func @main(%arg0: tuple<tensor<8xf32>, tuple<tensor<4xbf16>, tensor<i32>>>, %arg1: tensor<2xf32>) -> (tuple<tensor<8xf32>, tensor<2xf32>>, tensor<i32>) {
  %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<8xf32>, tuple<tensor<4xbf16>, tensor<i32>>>) -> tensor<8xf32>
  %1 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<8xf32>, tuple<tensor<4xbf16>, tensor<i32>>>) -> tuple<tensor<4xbf16>, tensor<i32>>
  %2 = stablehlo.get_tuple_element %1[1] : (tuple<tensor<4xbf16>, tensor<i32>>) -> tensor<i32>
  %3 = stablehlo.tuple %0, %arg1 : tuple<tensor<8xf32>, tensor<2xf32>>
  return %3, %2 : tuple<tensor<8xf32>, tensor<2xf32>>, tensor<i32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir, the @main case with a doubly nested tuple argument
// and result: a result no stablehlo.tuple builds is read by get_tuple_elements before the return,
// one tuple level at a time (as upstream's loop makes them); a returned tuple argument is its
// leaves. The new arguments have no attributes, so the tuple argument's sharding goes (warned); a
// function other than @main keeps its tuples.
// STDERR: <input>:1:95: warning: the sharding of tuple argument %arg1 of @main is dropped: its leaves become arguments without attributes, as upstream's canonicalize-from-HLO-import makes them
// CHECK: func.func @main(%arg0_0: tensor<3xi8>, %arg1_0: tensor<5xf32>, %arg1_1: tensor<5xf32>) -> (tensor<3xf32>, tensor<i1>, tensor<5xf32>, tensor<5xf32>) {
// CHECK:   %arg0_tuple = stablehlo.tuple %arg0_0 : tuple<tensor<3xi8>>
// CHECK:   %arg0 = stablehlo.tuple %arg0_tuple : tuple<tuple<tensor<3xi8>>>
// CHECK:   %0 = "test.producer"(%arg0) : (tuple<tuple<tensor<3xi8>>>) -> tuple<tuple<tensor<3xf32>>, tensor<i1>>
// CHECK:   %0_0 = stablehlo.get_tuple_element %0[0] : (tuple<tuple<tensor<3xf32>>, tensor<i1>>) -> tuple<tensor<3xf32>>
// CHECK:   %0_1 = stablehlo.get_tuple_element %0[1] : (tuple<tuple<tensor<3xf32>>, tensor<i1>>) -> tensor<i1>
// CHECK:   %0_0_0 = stablehlo.get_tuple_element %0_0[0] : (tuple<tensor<3xf32>>) -> tensor<3xf32>
// CHECK:   return %0_0_0, %0_1, %arg1_0, %arg1_1 : tensor<3xf32>, tensor<i1>, tensor<5xf32>, tensor<5xf32>
// CHECK: }
// CHECK: func.func @helper(%arg0: tuple<tensor<5xf32>>) -> tuple<tensor<5xf32>> {
// CHECK:   return %arg0 : tuple<tensor<5xf32>>
// CHECK: }
func.func @main(%arg0: tuple<tuple<tensor<3xi8>>>, %arg1: tuple<tensor<5xf32>, tensor<5xf32>> {mhlo.sharding = "{{replicated}, {replicated}}"}) -> (tuple<tuple<tensor<3xf32>>, tensor<i1>>, tuple<tensor<5xf32>, tensor<5xf32>>) {
  %0 = "test.producer"(%arg0) : (tuple<tuple<tensor<3xi8>>>) -> tuple<tuple<tensor<3xf32>>, tensor<i1>>
  return %0, %arg1 : tuple<tuple<tensor<3xf32>>, tensor<i1>>, tuple<tensor<5xf32>, tensor<5xf32>>
}
func.func @helper(%arg0: tuple<tensor<5xf32>>) -> tuple<tensor<5xf32>> {
  return %arg0 : tuple<tensor<5xf32>>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// expandTupledTensorInReturnOp changes only @main's result types (func.setType), so with result
// attributes and a tuple result the attribute array no longer matches the results: MLIR's verifier
// message, at the signature.
// expected-error {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 2, but expected 3}}
// expected-error-at {{1:16}}
func.func @main() -> (tensor<2xf32>, tuple<tensor<2xf32>, tensor<2xf32>> {mhlo.sharding = "{{replicated}, {replicated}}"}) {
  %0 = "test.producer"() : () -> tensor<2xf32>
  %1 = stablehlo.tuple %0, %0 : tuple<tensor<2xf32>, tensor<2xf32>>
  return %0, %1 : tensor<2xf32>, tuple<tensor<2xf32>, tensor<2xf32>>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir, the @main case returning `tuple<>`: an empty tuple
// result leaves no result (the arrow goes, the return has no operand) and the empty tuple that only
// the return read goes; an empty tuple argument leaves no argument, and what read it reads an
// empty stablehlo.tuple, placed before the first op's line even when that line goes.
// CHECK: func.func @main(%arg1: tensor<2xf32>) {
// CHECK:   %arg0 = "stablehlo.tuple"() : () -> tuple<>
// CHECK:   "test.use"(%arg0) : (tuple<>) -> ()
// CHECK:   func.return
// CHECK: }
func.func @main(%arg0: tuple<>, %arg1: tensor<2xf32>) -> tuple<> {
  %0 = "stablehlo.tuple"() {xla_shape = "()"} : () -> tuple<>
  "test.use"(%arg0) : (tuple<>) -> ()
  func.return %0 : tuple<>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-flatten-entry-function-tuples
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.cpp expandTupledTensorInReturnOp (its part alone) on a module printed with
// locations: the new arguments are inserted, and the stablehlo.tuple rebuilding the old one created, at
// the function's location (`func.getBody().getLoc()`, the func.func's loc), and MLIR prints an
// argument's location after it, so every leaf of %arg1 and both tuples carry the function's
// `loc(#loc1)`; the other arguments keep theirs, dictionary and location, as written.
// CHECK: #loc1 = loc("main.py":3:0)
// CHECK: #loc2 = loc("x")
// CHECK: #loc3 = loc("pair")
// CHECK: module @located {
// CHECK:   func.func @main(%arg0: tensor<2xf32> loc("x"), %arg1_0: tensor<4xf32> loc(#loc1), %arg1_1: tensor<8xf32> loc(#loc1), %arg1_2: tensor<1xf32> loc(#loc1), %arg2: tensor<3xf32> {mhlo.sharding = "{replicated}"} loc("y")) -> tensor<4xf32> {
// CHECK:     %arg1_tuple = stablehlo.tuple %arg1_1, %arg1_2 : tuple<tensor<8xf32>, tensor<1xf32>> loc(#loc1)
// CHECK:     %arg1 = stablehlo.tuple %arg1_0, %arg1_tuple : tuple<tensor<4xf32>, tuple<tensor<8xf32>, tensor<1xf32>>> loc(#loc1)
// CHECK:     %0 = stablehlo.get_tuple_element %arg1[0] : (tuple<tensor<4xf32>, tuple<tensor<8xf32>, tensor<1xf32>>>) -> tensor<4xf32> loc(#loc1)
// CHECK:     return %0 : tensor<4xf32> loc(#loc1)
// CHECK:   } loc(#loc1)
// CHECK: } loc(#loc1)
#loc1 = loc("main.py":3:0)
#loc2 = loc("x")
#loc3 = loc("pair")
module @located {
  func.func @main(%arg0: tensor<2xf32> loc("x"), %arg1: tuple<tensor<4xf32>, tuple<tensor<8xf32>, tensor<1xf32>>> loc(#loc3), %arg2: tensor<3xf32> {mhlo.sharding = "{replicated}"} loc("y")) -> tensor<4xf32> {
    %0 = stablehlo.get_tuple_element %arg1[0] : (tuple<tensor<4xf32>, tuple<tensor<8xf32>, tensor<1xf32>>>) -> tensor<4xf32> loc(#loc1)
    return %0 : tensor<4xf32> loc(#loc1)
  } loc(#loc1)
} loc(#loc1)
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-flatten-entry-function-tuples
// INPUT: file
// expandTupledTensorInReturnOp, as above, on a function whose location is not written (MLIR would
// give it the position it was parsed at): beyond upstream, the leaves and the rebuilt tuple keep the
// old argument's location rather than none.
// CHECK: func.func @main(%arg0_0: tensor<4xf32> loc("t"), %arg0_1: tensor<2xf32> loc("t"), %arg1: tensor<2xf32> loc("u")) -> tensor<4xf32> {
// CHECK:   %arg0 = stablehlo.tuple %arg0_0, %arg0_1 : tuple<tensor<4xf32>, tensor<2xf32>> loc("t")
// CHECK:   %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<4xf32>, tensor<2xf32>>) -> tensor<4xf32>
// CHECK:   return %0 : tensor<4xf32>
// CHECK: }
func.func @main(%arg0: tuple<tensor<4xf32>, tensor<2xf32>> loc("t"), %arg1: tensor<2xf32> loc("u")) -> tensor<4xf32> {
  %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<4xf32>, tensor<2xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir @get_tuple_element, @unpack_repack_same_tuple and
// @unpack_repack_same_tuple_single_element (stablehlo's GetTupleElementOp_UnpackTuple and
// TupleIsRepacking, StablehloAggressiveSimplification{.cpp,Patterns.td}): a get_tuple_element of a
// stablehlo.tuple is the tuple's operand, through nested tuples too (%1 is %arg0); one of a block
// argument stays; a tuple of get_tuple_elements 0..n-1 of one value of the tuple's type is that value
// (not %3, whose elements are swapped). Tuples and get_tuple_elements left without readers go, as
// upstream's driver erases them.
// CHECK: func.func @unpack(%arg0: tensor<2xi8>, %arg1: tensor<3xf32>, %arg2: tuple<tensor<3xf32>, tensor<i1>>) -> (tensor<2xi8>, tensor<3xf32>, tensor<i1>, tensor<3xf32>) {
// CHECK:   %3 = stablehlo.get_tuple_element %arg2[1] : (tuple<tensor<3xf32>, tensor<i1>>) -> tensor<i1>
// CHECK:   %4 = stablehlo.get_tuple_element %arg2[0] : (tuple<tensor<3xf32>, tensor<i1>>) -> tensor<3xf32>
// CHECK:   return %arg0, %arg1, %3, %4 : tensor<2xi8>, tensor<3xf32>, tensor<i1>, tensor<3xf32>
// CHECK: }
// CHECK: func.func @repack(%arg0: tuple<tensor<4xf32>, !stablehlo.token>) -> (tuple<tensor<4xf32>, !stablehlo.token>, tuple<!stablehlo.token, tensor<4xf32>>) {
// CHECK:   %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<4xf32>, !stablehlo.token>) -> tensor<4xf32>
// CHECK:   %1 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<4xf32>, !stablehlo.token>) -> !stablehlo.token
// CHECK:   %3 = stablehlo.tuple %1, %0 : tuple<!stablehlo.token, tensor<4xf32>>
// CHECK:   return %arg0, %3 : tuple<tensor<4xf32>, !stablehlo.token>, tuple<!stablehlo.token, tensor<4xf32>>
// CHECK: }
// CHECK: func.func @repack_one(%arg0: tuple<tensor<i32>>) -> tuple<tensor<i32>> {
// CHECK:   return %arg0 : tuple<tensor<i32>>
// CHECK: }
func.func @unpack(%arg0: tensor<2xi8>, %arg1: tensor<3xf32>, %arg2: tuple<tensor<3xf32>, tensor<i1>>) -> (tensor<2xi8>, tensor<3xf32>, tensor<i1>, tensor<3xf32>) {
  %pair = stablehlo.tuple %arg0, %arg1 : tuple<tensor<2xi8>, tensor<3xf32>>
  %nest = stablehlo.tuple %pair, %arg1 : tuple<tuple<tensor<2xi8>, tensor<3xf32>>, tensor<3xf32>>
  %0 = stablehlo.get_tuple_element %nest[0] : (tuple<tuple<tensor<2xi8>, tensor<3xf32>>, tensor<3xf32>>) -> tuple<tensor<2xi8>, tensor<3xf32>>
  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<2xi8>, tensor<3xf32>>) -> tensor<2xi8>
  %2 = stablehlo.get_tuple_element %pair[1] : (tuple<tensor<2xi8>, tensor<3xf32>>) -> tensor<3xf32>
  %3 = stablehlo.get_tuple_element %arg2[1] : (tuple<tensor<3xf32>, tensor<i1>>) -> tensor<i1>
  %4 = stablehlo.get_tuple_element %arg2[0] : (tuple<tensor<3xf32>, tensor<i1>>) -> tensor<3xf32>
  return %1, %2, %3, %4 : tensor<2xi8>, tensor<3xf32>, tensor<i1>, tensor<3xf32>
}
func.func @repack(%arg0: tuple<tensor<4xf32>, !stablehlo.token>) -> (tuple<tensor<4xf32>, !stablehlo.token>, tuple<!stablehlo.token, tensor<4xf32>>) {
  %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<4xf32>, !stablehlo.token>) -> tensor<4xf32>
  %1 = stablehlo.get_tuple_element %arg0[1] : (tuple<tensor<4xf32>, !stablehlo.token>) -> !stablehlo.token
  %2 = stablehlo.tuple %0, %1 : tuple<tensor<4xf32>, !stablehlo.token>
  %3 = stablehlo.tuple %1, %0 : tuple<!stablehlo.token, tensor<4xf32>>
  return %2, %3 : tuple<tensor<4xf32>, !stablehlo.token>, tuple<!stablehlo.token, tensor<4xf32>>
}
func.func @repack_one(%arg0: tuple<tensor<i32>>) -> tuple<tensor<i32>> {
  %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<i32>>) -> tensor<i32>
  %1 = stablehlo.tuple %0 : tuple<tensor<i32>>
  return %1 : tuple<tensor<i32>>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo's ReshapeOp_RemoveNoop (ReshapeIsNoop) with mergeDiscardableAttributes: a reshape to its
// operand's own type is the operand, and its attributes are merged into the operand's defining op,
// the reshape's winning (%1's mhlo.sharding), mhlo.frontend_attributes merged key by key (%2's
// a = "3" last), the op keeping its own xla_metadata_payload; a block argument takes none (%6). A
// reshape of another type stays (%5), and so does a no-op reshape nothing reads (%7: upstream's
// driver erases it unrewritten, so @abs does not take its sharding; the erasure of dead ops is not
// done here).
// CHECK: func.func @reshapes(%arg0: tensor<4x2xf32>, %arg1: tensor<8xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<8xf32>) {
// CHECK:   %0 = stablehlo.negate %arg0 {mhlo.frontend_attributes = {a = "3", b = "2", xla_metadata_payload = "negate"}, mhlo.sharding = "{devices=[2,1]<=[2]}"} : tensor<4x2xf32>
// CHECK:   %3 = stablehlo.abs %arg0 {mhlo.sharding = "{maximal device=1}"} : tensor<4x2xf32>
// CHECK:   %5 = stablehlo.reshape %0 : (tensor<4x2xf32>) -> tensor<2x4xf32>
// CHECK:   %7 = stablehlo.reshape %3 {mhlo.sharding = "{maximal device=0}"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:   return %0, %3, %5, %arg1 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<8xf32>
// CHECK: }
func.func @reshapes(%arg0: tensor<4x2xf32>, %arg1: tensor<8xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<8xf32>) {
  %0 = stablehlo.negate %arg0 {mhlo.frontend_attributes = {a = "1", xla_metadata_payload = "negate"}, mhlo.sharding = "{replicated}"} : tensor<4x2xf32>
  %1 = stablehlo.reshape %0 {mhlo.frontend_attributes = {b = "2", xla_metadata_payload = "reshape"}, mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = stablehlo.reshape %1 {mhlo.frontend_attributes = {a = "3"}} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %3 = stablehlo.abs %arg0 : tensor<4x2xf32>
  %4 = stablehlo.reshape %3 {mhlo.sharding = "{maximal device=1}"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %5 = stablehlo.reshape %0 : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %6 = stablehlo.reshape %arg1 {mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
  %7 = stablehlo.reshape %3 {mhlo.sharding = "{maximal device=0}"} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %2, %4, %5, %6 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-canonicalize-from-hlo-import
// INPUT: file
// stablehlo_canonicalize_from_hlo_import.mlir @while_op_original_value_index_shifting, with our
// own values: the second operand is returned as its own iteration argument, so the loop stops
// carrying it (WhileOpImplicitCapture); the condition reads %arg1, the later results are
// renumbered, and mhlo.original_value keeps the leaves of the kept operands with their shape
// indices shifted past the dropped one ([2, 0] -> [1, 0]), as upstream's
// projectOriginalValueAttr writes them.
// CHECK: func.func @original_value_shift(%arg0: tensor<4xf32>, %arg1: tensor<i32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK:   %c = stablehlo.constant dense<4> : tensor<i32>
// CHECK:   %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg2, %iterArg_3 = %arg3) : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> attributes {mhlo.original_value = #mhlo.original_value<false, [<[0], <"a", []>>, <[1, 0], <"c0", []>>, <[1, 1], <"c1", []>>]>}
// CHECK:     cond {
// CHECK:     %1 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %1 : tensor<i1>
// CHECK:   } do {
// CHECK:     %1 = stablehlo.add %iterArg, %iterArg : tensor<4xf32>
// CHECK:     %2 = stablehlo.add %iterArg_2, %iterArg_2 : tensor<4xf32>
// CHECK:     %3 = stablehlo.add %iterArg_3, %iterArg_3 : tensor<4xf32>
// CHECK:     stablehlo.return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK:   }
// CHECK:   return %0#0, %0#1, %0#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK: }
func.func @original_value_shift(%arg0: tensor<4xf32>, %arg1: tensor<i32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = stablehlo.constant dense<4> : tensor<i32>
  %0:4 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1, %iterArg_2 = %arg2, %iterArg_3 = %arg3) : tensor<4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32> attributes {mhlo.original_value = #mhlo.original_value<false, [<[0], <"a", []>>, <[1], <"b", []>>, <[2, 0], <"c0", []>>, <[2, 1], <"c1", []>>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<4xf32>
    %2 = stablehlo.add %iterArg_2, %iterArg_2 : tensor<4xf32>
    %3 = stablehlo.add %iterArg_3, %iterArg_3 : tensor<4xf32>
    stablehlo.return %1, %iterArg_1, %2, %3 : tensor<4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#2, %0#3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-while-op-implicit-capture
// INPUT: file
// WhileOpImplicitCapture (stablehlo_canonicalize_from_hlo_import.cpp) on nested and chained loops,
// our case: the outer loop's %iterArg_0 and the inner loop's %iterArg_3 are returned unchanged,
// so both read %arg1 (the inner one through the outer's replacement); the inner loop keeps one
// result (%1#0 -> %1). The second loop returns %0#1, its own operand, and its own iteration
// argument: nothing is left to carry, so it has no operands, types or results, and its users read
// the operands (through the first loop's renumbering: %0#2 -> %0#1).
// CHECK: func.func @nested_and_chained(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i32>) {
// CHECK:   %c = stablehlo.constant dense<1> : tensor<i32>
// CHECK:   %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<i32>
// CHECK:     cond {
// CHECK:     %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %1 : tensor<i1>
// CHECK:   } do {
// CHECK:     %1 = stablehlo.while(%iterArg_2 = %iterArg) : tensor<8xf32>
// CHECK:       cond {
// CHECK:       %3 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:       stablehlo.return %3 : tensor<i1>
// CHECK:     } do {
// CHECK:       %3 = stablehlo.multiply %iterArg_2, %arg1 : tensor<8xf32>
// CHECK:       stablehlo.return %3 : tensor<8xf32>
// CHECK:     }
// CHECK:     %2 = stablehlo.add %iterArg_1, %c : tensor<i32>
// CHECK:     stablehlo.return %1, %2 : tensor<8xf32>, tensor<i32>
// CHECK:   }
// CHECK:   stablehlo.while()
// CHECK:     cond {
// CHECK:     %5 = stablehlo.compare LT, %0#1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %5 : tensor<i1>
// CHECK:   } do {
// CHECK:     stablehlo.return
// CHECK:   }
// CHECK:   return %0#0, %arg1, %0#1 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
// CHECK: }
func.func @nested_and_chained(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i32>) {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<8xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1:2 = stablehlo.while(%iterArg_2 = %iterArg, %iterArg_3 = %iterArg_0) : tensor<8xf32>, tensor<8xf32>
      cond {
      %3 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = stablehlo.multiply %iterArg_2, %iterArg_3 : tensor<8xf32>
      stablehlo.return %3, %iterArg_3 : tensor<8xf32>, tensor<8xf32>
    }
    %2 = stablehlo.add %iterArg_1, %c : tensor<i32>
    stablehlo.return %1#0, %iterArg_0, %2 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
  }
  %4:2 = stablehlo.while(%iterArg_4 = %0#1, %iterArg_5 = %0#2) : tensor<8xf32>, tensor<i32>
    cond {
    %5 = stablehlo.compare LT, %iterArg_5, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %5 : tensor<i1>
  } do {
    stablehlo.return %0#1, %iterArg_5 : tensor<8xf32>, tensor<i32>
  }
  return %0#0, %4#0, %4#1 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// The StableHLO import of a sharded while with loop-invariant operands, our case: upstream's
// WhileOpImplicitCapture keeps the while's attributes as they are, so after import-shardings its
// sdy.sharding would list three shardings for one result, which Shardy's verifier rejects; here
// the shardings of the dropped results go with them (beyond upstream).
// CHECK: sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK: func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> tensor<8xf32> {
// CHECK:   %c = sdy.constant dense<3> : tensor<i32>
// CHECK:   %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_0"}]>]>}
// CHECK:     cond {
// CHECK:     %1 = stablehlo.compare LT, %arg2, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %1 : tensor<i1>
// CHECK:   } do {
// CHECK:     %1 = stablehlo.add %iterArg, %arg1 : tensor<8xf32>
// CHECK:     stablehlo.return %1 : tensor<8xf32>
// CHECK:   }
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<8xf32>, tensor<i32> attributes {mhlo.sharding = "{{devices=[2]<=[2]}, {replicated}, {replicated}}"}
    cond {
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg_0 : tensor<8xf32>
    stablehlo.return %1, %iterArg_0, %iterArg_1 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-while-op-implicit-capture
// INPUT: file
// A while whose mhlo.original_value does not read as upstream's attribute (a shape index that is
// not a list of integers) cannot be projected: a located error, our case.
// expected-error {{expected #mhlo.original_value<false, [<[index], array>, ...]>}}
// expected-error-at {{2:87}}
func.func @f(%a: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %a) : tensor<i32> attributes {mhlo.original_value = #mhlo.original_value<false, [<[x], <"a", []>>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg, %iterArg : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}
// -----
// CMD: convert
// ARGS: --pass stablehlo-ext-while-op-implicit-capture
// INPUT: file
// A module the pass has nothing to do in (no stablehlo.while: its prefilter skips it) is still
// read as MLIR, so an unclosed region is an error rather than passed through unchanged. Our case
// (a finding of fuzz/mlir_import_fuzz.cc).
// expected-error {{unexpected end of input: the region opened here is not closed}}
// expected-error-at {{2:48}}
module {
  func.func @f(%a: tensor<i32>) -> tensor<i32> {
    return %a : tensor<i32>
