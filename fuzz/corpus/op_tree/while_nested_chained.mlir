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
