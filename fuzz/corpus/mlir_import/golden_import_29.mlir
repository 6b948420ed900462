func.func @import_sharding_with_token_types(%arg0: !stablehlo.token {mhlo.sharding = "{replicated}"},
                                           %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"})
                                           -> (tensor<f32>, !stablehlo.token) {
  %0:2 = stablehlo.custom_call @foo(%arg0, %arg1) : (!stablehlo.token, tensor<8x8xf32>) -> (tensor<f32>, !stablehlo.token)
  %1 = stablehlo.custom_call @Sharding(%0#1) {mhlo.sharding = "{replicated}"} : (!stablehlo.token) -> !stablehlo.token
  func.return %0#0, %1 : tensor<f32>, !stablehlo.token
}
