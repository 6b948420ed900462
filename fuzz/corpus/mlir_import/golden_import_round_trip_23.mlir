sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<4> : tensor<i32>
  %2:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<8x4xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg, %arg1 : tensor<8x4xf32>
    %5 = stablehlo.add %4, %arg2 : tensor<8x4xf32>
    stablehlo.return %5, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
  }
  %3:2 = stablehlo.while(%iterArg = %2#0, %iterArg_0 = %0) : tensor<8x4xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg, %arg1 : tensor<8x4xf32>
    stablehlo.return %4, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
  }
  return %3#0 : tensor<8x4xf32>
}
