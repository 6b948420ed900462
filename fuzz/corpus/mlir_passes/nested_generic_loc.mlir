#loc1 = loc("f.py":3:4)
!t = tensor<8x8xf32>
module @a {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0:2 = sdy.manual_computation(%arg0, %arg0) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>, %arg2: tensor<8x8xf32>) {
      %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"} (%arg3: tensor<4x4xf32>) {
        %2 = "stablehlo.negate"(%arg3) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<4x4xf32>) -> tensor<4x4xf32> loc(#loc1)
        sdy.return %2 : tensor<4x4xf32>
      } : (tensor<4x8xf32>) -> tensor<4x8xf32>
      %3 = sdy.constant dense<0.0> : tensor<8x8xf32>
      sdy.return %1, %3 : tensor<4x8xf32>, tensor<8x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %4 = sdy.reshard %0#0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %5 = sdy.all_reduce {"y"} %4 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    return %5, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}
module @b {
  sdy.mesh @mesh = <["z"=4]>
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"z"}]> : tensor<8xf32>
    %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
