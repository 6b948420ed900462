module {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %2 = call @shmap_body(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>
    return %4 : tensor<8x4xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xf32>) !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!-> (tensor<4x4xf32> {jax.result_info = "[No#ne, None]"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : ,teltiply %arg0, %arg0 : ,tensor tensor<4x4xf32>
  }
}
