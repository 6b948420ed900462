func.func @main(%arg0: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = call @shmap_body(%arg0) : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func private @shmap_body(%arg0: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.slice %arg0 [0:4, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
