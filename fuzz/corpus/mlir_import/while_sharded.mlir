sdy.mesh @mesh = <["x"=2]>
func.func @sharded_loop(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<3> : tensor<i32>
  %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %arg2) : tensor<8xf32>, tensor<8xf32>, tensor<i32> attributes {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}]>, <@mesh, [{}]>, <@mesh, []>]>"}, mhlo.sharding = "{{devices=[2]<=[2]}, {replicated}, {replicated}}", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}]>, <@mesh, []>]>}
    cond {
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg_0 : tensor<8xf32>
    stablehlo.return %1, %iterArg_0, %iterArg_1 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}
