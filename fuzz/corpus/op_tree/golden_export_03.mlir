sdy.mesh @mesh_5 = <["i"=2, "j"=2]>
func.func @unreduced_func_input(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_5, [{"i"}, {}], unreduced={"j"}>}, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_5, [{"i"}, {}]>]>} dense<1.000000e+00> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
