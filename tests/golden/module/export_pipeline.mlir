// `shardbridge convert --to hlo` (xla-sdy-stablehlo-export-pipeline) and its
// passes alone (`--pass NAME`). Sharding strings follow upstream's lit tests in
// xla/service/spmd/shardy/test/ at the commit named in docs/module.md (file
// and function named per case); the text around them is ours: every byte not
// rewritten stays, new values get fresh names (`%0_in0`), and new ops are
// written one per line as MLIR prints them.
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @sharding_in_manual_computation_body (stablehlo_export_pipeline.mlir, CHECK-V2): the manual
// computation lowered to copies, @SPMDFullToShardShape, a call of the outlined
// @xla.sdy.inlinable_manual_computation_body and @SPMDShardToFullShape; every
// string as upstream writes it (the reshard in the body a copy, the unsharded
// sine replicated on the manual axes). SSA names of the new values are ours.
// CHECK: module {
// CHECK:   func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,2,4]<=[16] last_tile_dim_replicate}"}, %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,1,8]<=[2,2,4]T(1,0,2) last_tile_dim_replicate}"}) -> (tensor<8x32xf32> {mhlo.sharding = "{devices=[2,1,8]<=[16] last_tile_dim_replicate}"}) {
// CHECK:     %0_in0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2,2,4]<=[2,2,4]T(1,0,2) last_tile_dim_replicate}"} : tensor<8x16xf32>
// CHECK:     %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"} : (tensor<8x16xf32>) -> tensor<4x8xf32>
// CHECK:     %0_in1 = mhlo.copy %arg1 {mhlo.sharding = "{devices=[2,1,8]<=[2,2,4]T(1,0,2) last_tile_dim_replicate}"} : tensor<16x32xf32>
// CHECK:     %0_local1 = stablehlo.custom_call @SPMDFullToShardShape(%0_in1) {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"} : (tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK:     %0_body = call @xla.sdy.inlinable_manual_computation_body(%0_local0, %0_local1) {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"} : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
// CHECK:     %0_out0 = mhlo.copy %0_body {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"} : tensor<4x32xf32>
// CHECK:     %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {mhlo.sharding = "{devices=[2,1,8]<=[16] last_tile_dim_replicate}"} : (tensor<4x32xf32>) -> tensor<8x32xf32>
// CHECK:     return %0 : tensor<8x32xf32>
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body(%arg2: tensor<4x8xf32> {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"}, %arg3: tensor<8x32xf32> {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"}) -> (tensor<4x32xf32> {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"}) {
// CHECK:     %1 = mhlo.copy %arg2 {mhlo.sharding = "{devices=[1,2,4,2]<=[8,2]T(1,0) last_tile_dims={manual, replicated}}"} : tensor<4x8xf32>
// CHECK:     %2 = stablehlo.add %1, %1 {mhlo.sharding = "{devices=[2,1,4,2]<=[4,2,2]T(1,0,2) last_tile_dims={manual, replicated}}"} : tensor<4x8xf32>
// CHECK:     %3 = stablehlo.dot %2, %arg3 {mhlo.sharding = "{devices=[2,2,4]<=[4,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
// CHECK:     %4 = stablehlo.sine %3 {mhlo.sharding = "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"} : tensor<4x32xf32>
// CHECK:     return %4 : tensor<4x32xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_3 = <["a"=2, "b"=2, "c"=2, "d"=2]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_3, [{"a", ?}, {"b", ?}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh_3, [{"b", ?}, {?}]>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh_3, [{"a"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_3, [{"b"}, {"a"}]>, <@mesh_3, [{"b"}, {}], replicated={"a"}>] out_shardings=[<@mesh_3, [{"a"}, {}], replicated={"b"}>] manual_axes={"a", "b"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8x32xf32>) {
      %1 = sdy.reshard %arg2 <@mesh_3, [{}, {"d"}]> : tensor<4x8xf32>
      %2 = stablehlo.add %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_3, [{"c"}, {}]>]>} : tensor<4x8xf32>
      %3 = stablehlo.dot %2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_3, [{"c"}, {"d"}]>]>} : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
      %4 = stablehlo.sine %3 : tensor<4x32xf32>
      sdy.return %4 : tensor<4x32xf32>
    } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @reshard, @chain_of_collectives, @all_reduce, @collective_permute and
// @reduce_scatter (stablehlo_export_pipeline.mlir, CHECK-V2): reshards and
// collectives become mhlo.copy with the result sharding; an all_reduce whose
// input has no unreduced axes is removed and its uses take its operand.
// CHECK: module {
// CHECK:   func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2,4,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}"} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @chain_of_collectives(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}"}) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
// CHECK:     %1 = mhlo.copy %0 {mhlo.sharding = "{devices=[8,4]<=[32]}"} : tensor<8x8xf32>
// CHECK:     %2 = mhlo.copy %1 {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} : tensor<8x8xf32>
// CHECK:     return %2 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @all_reduce(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"}) -> tensor<8x8xf32> {
// CHECK:     %1 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
// CHECK:     return %1 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @collective_permute(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[32,1]<=[8,4]T(1,0)}"} : tensor<32x8xf32>
// CHECK:     return %0 : tensor<32x8xf32>
// CHECK:   }
// CHECK:   func.func @reduce_scatter(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[8,4]<=[32]}"} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.reshard %arg0 <@mesh_0, [{"axis_0"}, {"axis_2"}], replicated={"axis_1"}> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func @chain_of_collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"y"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh_2, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %2 = sdy.all_gather [{}, {"y"}] %1 out_sharding=<@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
  func.func @all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
  func.func @collective_permute(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %0 = sdy.collective_permute %arg0 out_sharding=<@mesh_2, [{"y", "x"}, {}]> : tensor<32x8xf32>
    return %0 : tensor<32x8xf32>
  }
  func.func @reduce_scatter(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @split_constants (stablehlo_export_pipeline.mlir): sdy.constant becomes
// stablehlo.constant with its sharding. A sharding constraint becomes mhlo.copy
// (export_ops.cc default; keep-hlo-sharding-constraints gives @Sharding), a
// propagation barrier forwards its operand (export_ops.cc), a sharding group
// is erased (Shardy's sdy-remove-sharding-groups, which upstream runs first).
// CHECK: module {
// CHECK:   func.func @split_constants() -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK:     %0 = stablehlo.constant {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} dense<1.000000e+00> : tensor<8x8xf32>
// CHECK:     %1 = stablehlo.constant {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}"} dense<1.000000e+00> : tensor<8x8xf32>
// CHECK:     return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  func.func @split_constants() -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{"x"}, {}]>]>} dense<1.000000e+00> : tensor<8x8xf32>
    %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{"y"}, {}]>]>} dense<1.000000e+00> : tensor<8x8xf32>
    return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh_2, [{"x"}, {?}]> : tensor<8x8xf32>
    %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<8x8xf32>
    sdy.sharding_group %1 group_id=3 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @manual_computation_with_tokens and @call_op_with_no_operands_or_results
// (stablehlo_round_trip_shard_map_export.mlir): tokens bypass the copies both
// ways; a maximal-mesh sharding in the body is replaced by the manual one; a
// manual computation without in/out shardings is inlined and takes no number.
// CHECK: module {
// CHECK:   func.func @manual_computation_with_tokens(%arg0: !stablehlo.token, %arg1: tensor<2xi64>) -> (!stablehlo.token, tensor<2xi64>) {
// CHECK:     %0_in1 = mhlo.copy %arg1 {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : tensor<2xi64>
// CHECK:     %0_local1 = stablehlo.custom_call @SPMDFullToShardShape(%0_in1) {mhlo.sharding = "{manual}"} : (tensor<2xi64>) -> tensor<1xi64>
// CHECK:     %0_body:2 = call @xla.sdy.inlinable_manual_computation_body(%arg0, %0_local1) {mhlo.sharding = "{{manual}, {manual}}"} : (!stablehlo.token, tensor<1xi64>) -> (!stablehlo.token, tensor<1xi64>)
// CHECK:     %0_out1 = mhlo.copy %0_body#1 {mhlo.sharding = "{manual}"} : tensor<1xi64>
// CHECK:     %0_full1 = stablehlo.custom_call @SPMDShardToFullShape(%0_out1) {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : (tensor<1xi64>) -> tensor<2xi64>
// CHECK:     return %0_body#0, %0_full1 : !stablehlo.token, tensor<2xi64>
// CHECK:   }
// CHECK:   func.func @call_op_with_no_operands_or_results() {
// CHECK:     %cst = stablehlo.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK:     %0 = stablehlo.add %cst, %cst {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : tensor<2x2xf32>
// CHECK:     return
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body(%arg2: !stablehlo.token {mhlo.sharding = "{manual}"}, %arg3: tensor<1xi64> {mhlo.sharding = "{manual}"}) -> (!stablehlo.token {mhlo.sharding = "{manual}"}, tensor<1xi64> {mhlo.sharding = "{manual}"}) {
// CHECK:     %1 = stablehlo.custom_call @sdy_testonly(%arg2) {mhlo.sharding = "{manual}"} : (!stablehlo.token) -> !stablehlo.token
// CHECK:     stablehlo.custom_call @sdy_testonly(%1) {mhlo.sharding = "{manual}"} : (!stablehlo.token) -> ()
// CHECK:     return %1, %arg3 : !stablehlo.token, tensor<1xi64>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_0 = <["a"=4, "b"=2]>
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  func.func @manual_computation_with_tokens(%arg0: !stablehlo.token, %arg1: tensor<2xi64>) -> (!stablehlo.token, tensor<2xi64>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_0, []>, <@mesh_0, [{"b"}]>] out_shardings=[<@mesh_0, []>, <@mesh_0, [{"b"}]>] manual_axes={"a", "b"} (%arg2: !stablehlo.token, %arg3: tensor<1xi64>) {
      %1 = stablehlo.custom_call @sdy_testonly(%arg2) : (!stablehlo.token) -> !stablehlo.token
      stablehlo.custom_call @sdy_testonly(%1) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (!stablehlo.token) -> ()
      sdy.return %1, %arg3 : !stablehlo.token, tensor<1xi64>
    } : (!stablehlo.token, tensor<2xi64>) -> (!stablehlo.token, tensor<2xi64>)
    return %0#0, %0#1 : !stablehlo.token, tensor<2xi64>
  }
  func.func @call_op_with_no_operands_or_results() {
    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<2x2xf32>
      %0 = stablehlo.add %cst, %cst {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"a"}, {}]>]>} : tensor<2x2xf32>
      sdy.return
    } : () -> ()
    return
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @call_in_manual_computation_partially_manual (stablehlo_export_pipeline.mlir):
// the callee of a call in the body gets the manual axes on its arguments,
// results and ops; symbol-dce removes the private function nothing calls.
// CHECK: module {
// CHECK:   func.func @call_in_manual_computation_partially_manual(%arg0: tensor<32x32xf32> {mhlo.sharding = "{devices=[32,1]<=[32]}"}) -> (tensor<32x32xf32> {mhlo.sharding = "{devices=[32,1]<=[32]}"}) {
// CHECK:     %0_in0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[32,1]<=[32]}"} : tensor<32x32xf32>
// CHECK:     %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"} : (tensor<32x32xf32>) -> tensor<4x32xf32>
// CHECK:     %0_body = call @xla.sdy.inlinable_manual_computation_body(%0_local0) {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK:     %0_out0 = mhlo.copy %0_body {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"} : tensor<4x32xf32>
// CHECK:     %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {mhlo.sharding = "{devices=[32,1]<=[32]}"} : (tensor<4x32xf32>) -> tensor<32x32xf32>
// CHECK:     return %0 : tensor<32x32xf32>
// CHECK:   }
// CHECK:   func.func private @foo(%arg0: tensor<4x32xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"}) -> (tensor<4x32xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"}) {
// CHECK:     %0 = stablehlo.multiply %arg0, %arg0 {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"} : tensor<4x32xf32>
// CHECK:     return %0 : tensor<4x32xf32>
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body(%arg1: tensor<4x32xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"}) -> (tensor<4x32xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"}) {
// CHECK:     %1 = func.call @foo(%arg1) {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK:     return %1 : tensor<4x32xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  func.func @call_in_manual_computation_partially_manual(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"x", "y"}, {}]>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"x", "y"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_2, [{"x", "y"}, {}]>] out_shardings=[<@mesh_2, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x32xf32>) {
      %1 = func.call @foo(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{"y"}, {}]>]>} : (tensor<4x32xf32>) -> tensor<4x32xf32>
      sdy.return %1 : tensor<4x32xf32>
    } : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
  func.func private @foo(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"y"}, {}]>}) -> (tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"y"}, {}]>}) {
    %0 = stablehlo.multiply %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{"y"}, {}]>]>} : tensor<4x32xf32>
    return %0 : tensor<4x32xf32>
  }
  func.func private @unused(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// Two modules in one file, each with its own @mesh. From
// @preserve_mesh_in_replica_groups (stablehlo_export_pipeline.mlir): a mesh
// named by a collective's replica_group_mesh_axes is kept.
// CHECK: module @first {
// CHECK:   sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK:   func.func @preserve_mesh_in_replica_groups(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> tensor<16x8xf32> {
// CHECK:     %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = ["a"]>} : (tensor<8x8xf32>) -> tensor<16x8xf32>
// CHECK:     return %0 : tensor<16x8xf32>
// CHECK:   }
// CHECK: }
// CHECK: module @second {
// CHECK:   func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
// CHECK:     return %arg0 : tensor<8xf32>
// CHECK:   }
// CHECK: }
module @first {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @preserve_mesh_in_replica_groups(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<16x8xf32> {
    %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = ["a"]>} : (tensor<8x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
module @second {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-round-trip-shard-map-export
// INPUT: file
// From @nested_shmaps (stablehlo_round_trip_shard_map_export.mlir), the pass
// alone: bodies numbered inner first; the inner copy carries the outer manual
// axes, its custom calls both.
// CHECK: module {
// CHECK:   sdy.mesh @mesh_1 = <["a"=2, "b"=2, "c"=2, "d"=2]>
// CHECK:   func.func @nested_shmaps(%arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"a"}, {"b"}, {"c"}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"a"}, {"b"}, {}]>}) {
// CHECK:     %0_in0 = mhlo.copy %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{"a"}, {}, {}]>]>} : tensor<4x8x16xf32>
// CHECK:     %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>} : (tensor<4x8x16xf32>) -> tensor<2x8x16xf32>
// CHECK:     %0_body = call @xla.sdy.inlinable_manual_computation_body_0(%0_local0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>} : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
// CHECK:     %0_out0 = mhlo.copy %0_body {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>} : tensor<2x8x16xf32>
// CHECK:     %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{"a"}, {}, {}]>]>} : (tensor<2x8x16xf32>) -> tensor<4x8x16xf32>
// CHECK:     return %0 : tensor<4x8x16xf32>
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body(%arg2: tensor<2x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"a", "b"}>}) -> (tensor<2x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"a", "b"}>}) {
// CHECK:     %2 = stablehlo.multiply %arg2, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a", "b"}>} : tensor<2x4x16xf32>
// CHECK:     return %2 : tensor<2x4x16xf32>
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body_0(%arg1: tensor<2x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>}) -> (tensor<2x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>}) {
// CHECK:     %1_in0 = mhlo.copy %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {"b"}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>} : tensor<2x8x16xf32>
// CHECK:     %1_local0 = stablehlo.custom_call @SPMDFullToShardShape(%1_in0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a", "b"}>} : (tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
// CHECK:     %1_body = call @xla.sdy.inlinable_manual_computation_body(%1_local0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a", "b"}>} : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK:     %1_out0 = mhlo.copy %1_body {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a", "b"}>} : tensor<2x4x16xf32>
// CHECK:     %1 = stablehlo.custom_call @SPMDShardToFullShape(%1_out0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {"b"}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"a"}>} : (tensor<2x4x16xf32>) -> tensor<2x8x16xf32>
// CHECK:     return %1 : tensor<2x8x16xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_1 = <["a"=2, "b"=2, "c"=2, "d"=2]>
  func.func @nested_shmaps(%arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"a"}, {"b"}, {"c"}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"a"}, {"b"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_1, [{"a"}, {}, {}]>] out_shardings=[<@mesh_1, [{"a"}, {}, {}]>] manual_axes={"a"} (%arg1: tensor<2x8x16xf32>) {
      %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh_1, [{}, {"b"}, {}]>] out_shardings=[<@mesh_1, [{}, {"b"}, {}]>] manual_axes={"b"} (%arg2: tensor<2x4x16xf32>) {
        %2 = stablehlo.multiply %arg2, %arg2 : tensor<2x4x16xf32>
        sdy.return %2 : tensor<2x4x16xf32>
      } : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
      sdy.return %1 : tensor<2x8x16xf32>
    } : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    return %0 : tensor<4x8x16xf32>
  }
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-round-trip-shard-map-export
// INPUT: file
// The pass alone on a manual computation whose shardings hold an inline
// mesh (Shardy's TensorShardingAttr takes `mesh<...>` where a `@name`
// goes): the shardings the pass writes inside name that same mesh, as
// upstream's shard_map_export.cc gives the body the manual computation's
// mesh. Our case; upstream's lit tests have only named meshes.
// CHECK: module {
// CHECK:   func.func @inline_mesh(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK:     %0_in0 = mhlo.copy %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>]>} : tensor<8x16xf32>
// CHECK:     %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK:     %0_body = call @xla.sdy.inlinable_manual_computation_body(%0_local0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK:     %0_out0 = mhlo.copy %0_body {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : tensor<4x16xf32>
// CHECK:     %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>]>} : (tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK:     return %0 : tensor<8x16xf32>
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body(%arg1: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>}) -> (tensor<4x16xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{}, {}]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>}) {
// CHECK:     %1 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["x"=2, "y"=2]>, [{}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : tensor<4x16xf32>
// CHECK:     return %1 : tensor<4x16xf32>
// CHECK:   }
// CHECK: }
module {
  func.func @inline_mesh(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>] out_shardings=[<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
      %1 = stablehlo.add %arg1, %arg1 : tensor<4x16xf32>
      sdy.return %1 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-export-ops{keep-hlo-sharding-constraints=true}
// INPUT: file
// From stablehlo_export_pipeline_sharding_constraint_to_custom_call.mlir: the
// export-ops pass alone with keep-hlo-sharding-constraints writes @Sharding.
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK:   func.func @sharding_constraint_to_custom_call(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @sharding_constraint_to_custom_call(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo --v3
// INPUT: file
// From @reshard and @chain_of_collectives, CHECK-V3 rows.
// CHECK: module {
// CHECK:   func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{mesh['axis_0'=2,'axis_1'=4,'axis_2'=4], [{'axis_0'}, {'axis_2'}], replicated={'axis_1'}}"} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @chain_of_collectives(%arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'y'}, {}]}"}) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{mesh['x'=8,'y'=4], [{}, {'y'}]}"} : tensor<8x8xf32>
// CHECK:     %1 = mhlo.copy %0 {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'x'}, {'y'}]}"} : tensor<8x8xf32>
// CHECK:     %2 = mhlo.copy %1 {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'x'}, {}]}"} : tensor<8x8xf32>
// CHECK:     return %2 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @all_reduce(%arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'x'}, {}]}"}) -> tensor<8x8xf32> {
// CHECK:     %1 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
// CHECK:     return %1 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @collective_permute(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'y', 'x'}, {}]}"} : tensor<32x8xf32>
// CHECK:     return %0 : tensor<32x8xf32>
// CHECK:   }
// CHECK:   func.func @reduce_scatter(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = mhlo.copy %arg0 {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'x'}, {'y'}]}"} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.reshard %arg0 <@mesh_0, [{"axis_0"}, {"axis_2"}], replicated={"axis_1"}> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func @chain_of_collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"y"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh_2, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %2 = sdy.all_gather [{}, {"y"}] %1 out_sharding=<@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
  func.func @all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
  func.func @collective_permute(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %0 = sdy.collective_permute %arg0 out_sharding=<@mesh_2, [{"y", "x"}, {}]> : tensor<32x8xf32>
    return %0 : tensor<32x8xf32>
  }
  func.func @reduce_scatter(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @while_with_no_sharding, @custom_call_erf_topk and
// @callback_transform_to_tuple (stablehlo_export_pipeline.mlir, CHECK-V2): a
// while without a sharding gets {replicated} (add-missing-sharding-to-control-flow,
// on by default; a custom-form while takes `attributes {...}`); the sharding of
// @mhlo.erf / @mhlo.topk moves into mhlo.attributes at its sorted place; a used
// Python callback returns a tuple read by get_tuple_element.
// CHECK: module {
// CHECK:   func.func @while_with_no_sharding(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
// CHECK:     %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK:     %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<32x96xf32>, tensor<i32> attributes {mhlo.sharding = "{replicated}"}
// CHECK:      cond {
// CHECK:       %1 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:       stablehlo.return %1 : tensor<i1>
// CHECK:     } do {
// CHECK:       stablehlo.return %iterArg, %iterArg_0 : tensor<32x96xf32>, tensor<i32>
// CHECK:     }
// CHECK:     return %0#0 : tensor<32x96xf32>
// CHECK:   }
// CHECK:   func.func @custom_call_erf_topk(%arg0: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>) {
// CHECK:     %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", mhlo.version = 1 : i64}} : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK:     %1:2 = stablehlo.custom_call @mhlo.topk(%0) {mhlo.attributes = {k = 2 : i64, largest = true, mhlo.sharding = "{{devices=[2,1,2]<=[4] last_tile_dim_replicate}, {devices=[2,1,2]<=[4] last_tile_dim_replicate}}"}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
// CHECK:     return %0, %1#0, %1#1 : tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>
// CHECK:   }
// CHECK:   func.func @callback_transform_to_tuple(%arg0: tensor<2xf64> {mhlo.sharding = "{replicated}"}) -> tensor<2xf64> {
// CHECK:     %c = stablehlo.constant dense<56238273106176> : tensor<i64>
// CHECK:     %0_tuple = stablehlo.custom_call @xla_python_cpu_callback(%c, %arg0) {api_version = 2 : i32, backend_config = "56238273106176", operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], mhlo.sharding = "{replicated}", xla_shape = "(f64[2]{0})"} : (tensor<i64>, tensor<2xf64>) -> tuple<tensor<2xf64>>
// CHECK:     %0 = stablehlo.get_tuple_element %0_tuple[0] {mhlo.sharding = "{replicated}"} : (tuple<tensor<2xf64>>) -> tensor<2xf64>
// CHECK:     return %0 : tensor<2xf64>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  sdy.mesh @mesh_5 = <["i"=2, "j"=2]>
  sdy.mesh @empty_mesh_0 = <[]>
  func.func @while_with_no_sharding(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<32x96xf32>, tensor<i32>
     cond {
      %1 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<32x96xf32>, tensor<i32>
    }
    return %0#0 : tensor<32x96xf32>
  }
  func.func @custom_call_erf_topk(%arg0: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>) {
    %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.version = 1 : i64}, sdy.sharding = #sdy.sharding_per_value<[<@mesh_5, [{"i", ?}, {?}]>]>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1:2 = stablehlo.custom_call @mhlo.topk(%0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh_5, [{"i", ?}, {?}]>, <@mesh_5, [{"i", ?}, {?}]>]>} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    return %0, %1#0, %1#1 : tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>
  }
  func.func @callback_transform_to_tuple(%arg0: tensor<2xf64> {sdy.sharding = #sdy.sharding<@empty_mesh_0, [{}]>}) -> tensor<2xf64> {
    %c = stablehlo.constant dense<56238273106176> : tensor<i64>
    %0 = stablehlo.custom_call @xla_python_cpu_callback(%c, %arg0) {api_version = 2 : i32, backend_config = "56238273106176", operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh_0, [{}]>]>, xla_shape = "(f64[2]{0})"} : (tensor<i64>, tensor<2xf64>) -> tensor<2xf64>
    return %0 : tensor<2xf64>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo --v3
// INPUT: file
// The same, CHECK-V3 rows: the while is {replicated} in V3 too at the pinned
// commit; an empty mesh keeps the rank (`{mesh[], [{}]}`).
// CHECK: module {
// CHECK:   func.func @while_with_no_sharding(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
// CHECK:     %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK:     %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<32x96xf32>, tensor<i32> attributes {mhlo.sharding = "{replicated}"}
// CHECK:      cond {
// CHECK:       %1 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:       stablehlo.return %1 : tensor<i1>
// CHECK:     } do {
// CHECK:       stablehlo.return %iterArg, %iterArg_0 : tensor<32x96xf32>, tensor<i32>
// CHECK:     }
// CHECK:     return %0#0 : tensor<32x96xf32>
// CHECK:   }
// CHECK:   func.func @custom_call_erf_topk(%arg0: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>) {
// CHECK:     %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.sharding = "{mesh['i'=2,'j'=2], [{'i', ?}, {?}]}", mhlo.version = 1 : i64}} : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK:     %1:2 = stablehlo.custom_call @mhlo.topk(%0) {mhlo.attributes = {k = 2 : i64, largest = true, mhlo.sharding = "{{mesh['i'=2,'j'=2], [{'i', ?}, {?}]}, {mesh['i'=2,'j'=2], [{'i', ?}, {?}]}}"}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
// CHECK:     return %0, %1#0, %1#1 : tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>
// CHECK:   }
// CHECK:   func.func @callback_transform_to_tuple(%arg0: tensor<2xf64> {mhlo.sharding = "{mesh[], [{}]}"}) -> tensor<2xf64> {
// CHECK:     %c = stablehlo.constant dense<56238273106176> : tensor<i64>
// CHECK:     %0_tuple = stablehlo.custom_call @xla_python_cpu_callback(%c, %arg0) {api_version = 2 : i32, backend_config = "56238273106176", operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], mhlo.sharding = "{mesh[], [{}]}", xla_shape = "(f64[2]{0})"} : (tensor<i64>, tensor<2xf64>) -> tuple<tensor<2xf64>>
// CHECK:     %0 = stablehlo.get_tuple_element %0_tuple[0] {mhlo.sharding = "{mesh[], [{}]}"} : (tuple<tensor<2xf64>>) -> tensor<2xf64>
// CHECK:     return %0 : tensor<2xf64>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  sdy.mesh @mesh_5 = <["i"=2, "j"=2]>
  sdy.mesh @empty_mesh_0 = <[]>
  func.func @while_with_no_sharding(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<32x96xf32>, tensor<i32>
     cond {
      %1 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<32x96xf32>, tensor<i32>
    }
    return %0#0 : tensor<32x96xf32>
  }
  func.func @custom_call_erf_topk(%arg0: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>) {
    %0 = stablehlo.custom_call @mhlo.erf(%arg0) {mhlo.attributes = {mhlo.version = 1 : i64}, sdy.sharding = #sdy.sharding_per_value<[<@mesh_5, [{"i", ?}, {?}]>]>} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1:2 = stablehlo.custom_call @mhlo.topk(%0) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh_5, [{"i", ?}, {?}]>, <@mesh_5, [{"i", ?}, {?}]>]>} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    return %0, %1#0, %1#1 : tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x2xi32>
  }
  func.func @callback_transform_to_tuple(%arg0: tensor<2xf64> {sdy.sharding = #sdy.sharding<@empty_mesh_0, [{}]>}) -> tensor<2xf64> {
    %c = stablehlo.constant dense<56238273106176> : tensor<i64>
    %0 = stablehlo.custom_call @xla_python_cpu_callback(%c, %arg0) {api_version = 2 : i32, backend_config = "56238273106176", operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], sdy.sharding = #sdy.sharding_per_value<[<@empty_mesh_0, [{}]>]>, xla_shape = "(f64[2]{0})"} : (tensor<i64>, tensor<2xf64>) -> tensor<2xf64>
    return %0 : tensor<2xf64>
  }
}

// -----
// CMD: convert
// ARGS: --pass 'xla-sdy-stablehlo-export-pipeline{clear-reverse-op-sharding=true enable-hlo-sharding-v3=true simplify-replicated-shardings=true}'
// INPUT: file
// From stablehlo_export_pipeline_clear_reverse_op_sharding.mlir @reverse_blocked
// and stablehlo_export_pipeline_simplify_replicated.mlir (@simplify_replicated_sharding,
// @simplify_explicit_replicated_sharding, @do_not_simplify_unreduced): open dims
// and unreduced axes are not simplified.
// CHECK: module {
// CHECK:   func.func @reverse_blocked(%arg0: tensor<8x16xf32> {mhlo.sharding = "{mesh['axis_0'=16], [{}, {'axis_0'}]}"}) -> tensor<8x16xf32> {
// CHECK:     %0 = stablehlo.reverse %arg0, dims = [1] : tensor<8x16xf32>
// CHECK:     return %0 : tensor<8x16xf32>
// CHECK:   }
// CHECK:   func.func @simplify_replicated_sharding(%arg0: tensor<8x8xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<8x8xf32> {mhlo.sharding = "{mesh['axis_0'=16], [{?}, {}]}"}, %arg2: tensor<8x8xf32> {mhlo.sharding = "{replicated}"}, %arg3: tensor<8x8xf32> {mhlo.sharding = "{mesh['axis_0'=16], [{}, {}], unreduced={'axis_0'}}"}) -> tensor<8x8xf32> {
// CHECK:     return %arg0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_1 = <["axis_0"=16]>
  func.func @reverse_blocked(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {"axis_0"}]>}) -> tensor<8x16xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, [{}, {"axis_0"}]>]>} : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func @simplify_replicated_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{?}, {}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}], replicated={"axis_0"}>}, %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}, {}], unreduced={"axis_0"}>}) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}
