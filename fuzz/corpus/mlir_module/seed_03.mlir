sdy.mesh @m = <["x"=2, "y"=4]>
func.func @f(%a: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y":(1)2}]>}) -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"x"}>}) {
  %0 = sdy.sharding_constraint %a <@m, [{"y"}, {}]> : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
