module attributes {mhlo.frontend_attributes = {xla.s*y.tuple_args = "1"}} {
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
