module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func public @main(%arg0: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<32x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
    %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>} dense<1.000000e+00> : tensor<32x64xf32>
    %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %2 = sdy.reshard %1 <@mesh, [{"data", "model"}, {}]> : tensor<32x64xf32>
    %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"data", "model"}, {}]>] out_shardings=[<@mesh, [{"data", "model"}, {}]>] manual_axes={"data", "model"} (%arg2: tensor<4x64xf32>) {
      %5 = stablehlo.tanh %arg2 : tensor<4x64xf32>
      sdy.return %5 : tensor<4x64xf32>
    } : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %4 = sdy.all_gather [{"model"}, {}] %3 out_sharding=<@mesh, [{"data"}, {}]> : tensor<32x64xf32>
    %6 = stablehlo.add %4, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : tensor<32x64xf32>
    return %6 : tensor<32x64xf32>
  }
}
