func.func @main(%arg0: tensor<8x8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<8x8x8xf32> {
  return %arg0 : tensor<8x8x8xf32>
}
