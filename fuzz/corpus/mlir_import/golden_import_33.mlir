func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[4}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
