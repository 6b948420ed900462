module @m {
  sdy.mesh @mesh = <["x"=2]>
  func.func @f0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f2(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f3(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f4(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f5(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f6(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f7(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f8(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f9(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f10(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f11(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f12(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f13(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f14(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f15(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f16(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f17(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f18(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f19(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f20(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f21(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f22(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @f23(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
