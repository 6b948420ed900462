func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "\08\03\1A\02\02\01\22\02\00\01"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
