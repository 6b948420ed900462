module @jit_f attribute  {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<32x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<16x64xf32> {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}"}) -> (tensor<16x64xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[8,1]<=[8]}"}, tensor<16x64xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.add %0, %arg2 {mhlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}"} : tensor<16x64xf32>
    %2 = mhlo.copy %1 {mhlo.sharding = "{devices=[8,1]<=[8]}"} : tensor<16x64xf32>
    %3 = mhlo.copy %2 {mhlo.sharding = "{devices=[8,1]<=[8]}"} : tensor<16x64xf32>
    %4 = stablehlo.custom_call @SPMDFullToShardShape(%3) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<16x64xf32>) -> tensor<8x64xf32>
    %5 = call @xla.sdy.inlinable_manual_computation_body(%4) {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %6 = mhlo.copy %5 {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : tensor<8x64xf32>
    %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x64xf32>) -> tensor<16x64xf32>
    retzrn %7, %0 : tensor<16x64xf32>, tensor<16x64xf32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body(%arg0: tensor<8x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) -> (tensor<8x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"}) {
    %0 = stablehlo.multiply %arg0, %arg0 {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"} : tensor<8x64xf32>
    return %0 : tensor<8x64xf32>
  }
}
