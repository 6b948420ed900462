sdy.mesh @mesh = <["b"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  %0 = call @xla.sdy.manual_computation_body(%c) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
