// `shardbridge convert --pass xla-sdy-stablehlo-export-manual-reduction-collectives`
// (upstream stablehlo_round_trip/export_manual_reduction_collectives.cc) and
// the export pipeline it starts. Replica groups, channel handles, local types
// and reducers follow upstream's lit test
// xla/service/spmd/shardy/test/stablehlo_export_manual_reduction_collectives.mlir
// (and ..._reduce_scatter.mlir) at the commit named in docs/module.md, case
// named per function; the SSA names of the new values are ours.
// @all_reduce_f32: groups [[0, 2], [1, 3]] over "x", local tensor<4x8xf32>,
// handle 1; @all_reduce_sub_axis: the "y":(2)3 sub-axis splits "y", groups
// of 12; @non_iota (all_reduce_non_iota_device_order, all_reduce_max): the
// device ids in the groups, stablehlo.maximum; @reduce_scatter_single_dim:
// scatter_dimension 1, 4x8 -> 4x4; @no_unreduced
// (all_reduce_input_no_unreduced_axes): left for export-ops.
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-export-manual-reduction-collectives
// INPUT: file
// CHECK: sdy.mesh @mesh_x_2_y_2 = <["x"=2, "y"=2]>
// CHECK: sdy.mesh @mesh_x_4_y_6 = <["x"=4, "y"=6]>
// CHECK: sdy.mesh @mesh_x_2_y_2_non_iota = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
// CHECK:
// CHECK: func.func @all_reduce_f32(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
// CHECK:   %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh_x_2_y_2, [{"y"}, {}]>] manual_axes={"x", "y"} (%arg: tensor<4x8xf32>) {
// CHECK:     %all_reduce = "stablehlo.all_reduce"(%arg) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK:     ^bb0(%arg_0: tensor<f32>, %arg_1: tensor<f32>):
// CHECK:       %red = stablehlo.add %arg_0, %arg_1 : tensor<f32>
// CHECK:       stablehlo.return %red : tensor<f32>
// CHECK:     }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:     sdy.return %all_reduce : tensor<4x8xf32>
// CHECK:   } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
// CHECK:
// CHECK: func.func @all_reduce_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_4_y_6, [{}, {}], unreduced={"x", "y":(2)3}>}) -> tensor<8x8xf32> {
// CHECK:   %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x_4_y_6, [{}, {}], unreduced={"x", "y":(2)3}>] out_shardings=[<@mesh_x_4_y_6, [{}, {}]>] manual_axes={"x", "y"} (%arg_2: tensor<8x8xf32>) {
// CHECK:     %all_reduce_0 = "stablehlo.all_reduce"(%arg_2) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 6, 7, 8, 12, 13, 14, 18, 19, 20], [3, 4, 5, 9, 10, 11, 15, 16, 17, 21, 22, 23]]> : tensor<2x12xi64>, use_global_device_ids}> ({
// CHECK:     ^bb0(%arg_3: tensor<f32>, %arg_4: tensor<f32>):
// CHECK:       %red_0 = stablehlo.add %arg_3, %arg_4 : tensor<f32>
// CHECK:       stablehlo.return %red_0 : tensor<f32>
// CHECK:     }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     sdy.return %all_reduce_0 : tensor<8x8xf32>
// CHECK:   } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
// CHECK:
// CHECK: func.func @non_iota(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2_non_iota, [{}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
// CHECK:   %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x_2_y_2_non_iota, [{}, {}], unreduced={"x"}>] out_shardings=[<@mesh_x_2_y_2_non_iota, [{}, {}]>] manual_axes={"x", "y"} (%arg_5: tensor<8x8xf32>) {
// CHECK:     %all_reduce_1 = "stablehlo.all_reduce"(%arg_5) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[3, 1], [2, 0]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK:     ^bb0(%arg_6: tensor<f32>, %arg_7: tensor<f32>):
// CHECK:       %red_1 = stablehlo.maximum %arg_6, %arg_7 : tensor<f32>
// CHECK:       stablehlo.return %red_1 : tensor<f32>
// CHECK:     }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     sdy.return %all_reduce_1 : tensor<8x8xf32>
// CHECK:   } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
// CHECK:
// CHECK: func.func @reduce_scatter_single_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
// CHECK:   %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>] out_shardings=[<@mesh_x_2_y_2, [{"y"}, {"x"}]>] manual_axes={"x", "y"} (%arg_8: tensor<4x8xf32>) {
// CHECK:     %reduce_scatter = "stablehlo.reduce_scatter"(%arg_8) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK:     ^bb0(%arg_9: tensor<f32>, %arg_10: tensor<f32>):
// CHECK:       %red_2 = stablehlo.add %arg_9, %arg_10 : tensor<f32>
// CHECK:       stablehlo.return %red_2 : tensor<f32>
// CHECK:     }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK:     sdy.return %reduce_scatter : tensor<4x4xf32>
// CHECK:   } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
// CHECK:
// CHECK: func.func @no_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}]>}) -> tensor<8x8xf32> {
// CHECK:   %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh_x_2_y_2, [{"y"}, {}]> : tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
sdy.mesh @mesh_x_2_y_2 = <["x"=2, "y"=2]>
sdy.mesh @mesh_x_4_y_6 = <["x"=4, "y"=6]>
sdy.mesh @mesh_x_2_y_2_non_iota = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

func.func @all_reduce_f32(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh_x_2_y_2, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func @all_reduce_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_4_y_6, [{}, {}], unreduced={"x", "y":(2)3}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x", "y":(2)3} %arg0 out_sharding=<@mesh_x_4_y_6, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func @non_iota(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2_non_iota, [{}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce max {"x"} %arg0 out_sharding=<@mesh_x_2_y_2_non_iota, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func @reduce_scatter_single_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reduce_scatter [{}, {"x"}] %arg0 out_sharding=<@mesh_x_2_y_2, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func @no_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh_x_2_y_2, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// -----
// @unique_channel_handle: handles continue after the module's largest (5);
// the second reduction over {"y"} only (all_reduce_i64's groups
// [[0, 1], [2, 3]]), min -> stablehlo.minimum; an input unreduced over both
// axes reduced to fully replicated (all_reduce_to_fully_replicated, one group).
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-export-manual-reduction-collectives
// INPUT: file
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}) -> tensor<8x8xi64> {
// CHECK:     %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     %1 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}], unreduced={"x", "y"}>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg: tensor<8x8xf32>) {
// CHECK:       %all_reduce = "stablehlo.all_reduce"(%arg) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
// CHECK:       ^bb0(%arg_0: tensor<f32>, %arg_1: tensor<f32>):
// CHECK:         %red = stablehlo.add %arg_0, %arg_1 : tensor<f32>
// CHECK:         stablehlo.return %red : tensor<f32>
// CHECK:       }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:       sdy.return %all_reduce : tensor<8x8xf32>
// CHECK:     } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     %2 = stablehlo.convert %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x8xf32>) -> tensor<8x8xi64>
// CHECK:     %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{}, {}], unreduced={"y"}>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg_2: tensor<8x8xi64>) {
// CHECK:       %all_reduce_0 = "stablehlo.all_reduce"(%arg_2) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK:       ^bb0(%arg_3: tensor<i64>, %arg_4: tensor<i64>):
// CHECK:         %red_0 = stablehlo.minimum %arg_3, %arg_4 : tensor<i64>
// CHECK:         stablehlo.return %red_0 : tensor<i64>
// CHECK:       }) : (tensor<8x8xi64>) -> tensor<8x8xi64>
// CHECK:       sdy.return %all_reduce_0 : tensor<8x8xi64>
// CHECK:     } : (tensor<8x8xi64>) -> tensor<8x8xi64>
// CHECK:     return %3 : tensor<8x8xi64>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y"}>}) -> tensor<8x8xi64> {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = sdy.all_reduce {"x", "y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %2 = stablehlo.convert %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>} : (tensor<8x8xf32>) -> tensor<8x8xi64>
    %3 = sdy.all_reduce min {"y"} %2 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xi64>
    return %3 : tensor<8x8xi64>
  }
}
// -----
// ..._reduce_scatter.mlir, export-all-reduce-scatter=true: an input without
// unreduced axes is lowered too, its in-sharding made unreduced over the
// scattered axes.
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-export-manual-reduction-collectives{export-all-reduce-scatter=true}
// INPUT: file
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK:     %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}], unreduced={"y"}>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg: tensor<4x8xf32>) {
// CHECK:       %reduce_scatter = "stablehlo.reduce_scatter"(%arg) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK:       ^bb0(%arg_0: tensor<f32>, %arg_1: tensor<f32>):
// CHECK:         %red = stablehlo.add %arg_0, %arg_1 : tensor<f32>
// CHECK:         stablehlo.return %red : tensor<f32>
// CHECK:       }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK:       sdy.return %reduce_scatter : tensor<4x4xf32>
// CHECK:     } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
// -----
// The same with the option off: left as it is (export-ops makes it a copy).
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-export-manual-reduction-collectives
// INPUT: file
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
// CHECK:     %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
// -----
// The export pipeline runs the lowering first: the fully manual computation
// becomes copies, @SPMDFullToShardShape and the call with `{manual}` (the
// operand's unreduced axes are all manual), the outlined body holding the
// stablehlo.all_reduce.
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// CHECK:
// CHECK: func.func @all_reduce_f32(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"}) -> tensor<8x8xf32> {
// CHECK:   %0_in0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"} : tensor<8x8xf32>
// CHECK:   %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK:   %0_body = call @xla.sdy.inlinable_manual_computation_body(%0_local0) {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:   %0_out0 = mhlo.copy %0_body {mhlo.sharding = "{manual}"} : tensor<4x8xf32>
// CHECK:   %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
// CHECK: func.func private @xla.sdy.inlinable_manual_computation_body(%arg: tensor<4x8xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4x8xf32> {mhlo.sharding = "{manual}"}) {
// CHECK:   %all_reduce = "stablehlo.all_reduce"(%arg) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
// CHECK:   ^bb0(%arg_0: tensor<f32>, %arg_1: tensor<f32>):
// CHECK:     %red = stablehlo.add %arg_0, %arg_1 {mhlo.sharding = "{manual}"} : tensor<f32>
// CHECK:     stablehlo.return %red : tensor<f32>
// CHECK:   }) {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:   return %all_reduce : tensor<4x8xf32>
// CHECK: }
sdy.mesh @mesh_x_2_y_2 = <["x"=2, "y"=2]>
sdy.mesh @mesh_x_4_y_6 = <["x"=4, "y"=6]>
sdy.mesh @mesh_x_2_y_2_non_iota = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>

func.func @all_reduce_f32(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2_y_2, [{"y"}, {}], unreduced={"x"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh_x_2_y_2, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
