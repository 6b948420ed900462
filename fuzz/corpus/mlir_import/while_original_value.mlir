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
