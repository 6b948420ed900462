module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg2: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y":(2)2}]>}) -> (tensor<16x64xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, tensor<16x64xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}], unreduced={"y"}>]>} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.add %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y":(2)2}]>]>} : tensor<16x64xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x", "y"}, {}]> : tensor<16x64xf32>
    %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x"} (%arg3: tensor<8x64xf32>) {
      %4 = stablehlo.multiply %arg3, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x64xf32>
      sdy.return %4 : tensor<8x64xf32>
    } : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %3, %0 : tensor<16x64xf32>, tensor<16x64xf32>
  }
}
