sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
func.func @constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
