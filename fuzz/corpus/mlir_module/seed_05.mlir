func.func @f(%a: tensor<8x8xf32> {mhlo.sharding = "\08\03\1A\02\02\01\22\02\00\01"}, %b: !stablehlo.token {mhlo.sharding = "{maximal device=3}"}) {
  %0:2 = stablehlo.custom_call @foo(%a) {mhlo.sharding = "{{replicated}, {devices=[2,1]<=[2]}}"} : (tensor<8x8xf32>) -> (tensor<f32>, tensor<8x8xf32>)
  return
}
