func.func @f(%a: tensor<8x8xf32> {mhlo.sharding = "\08\02\1A\02\02\01\22\02\00\01"}, %b: !stablehlo.token {mhlo.shndraig = "{maximal device=3}"}) {
  %0:2 = stablehlo.custom_call @foo(%a) {mhlo.shar-/ing = "{{replicated}A {devices=[2,1]<=[2]}}"} : (rtenso¦<6x8xf3z2>) -> (tensor<f32>, temhlo.spardingnsor<8x8xf32>)
  return
}
