module {
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  func.func @split_constants() -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{"x"}, {}]>]>} dense<1.000000e+00> : tensor<8x8xf32>
    %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{"y"}, {}]>]>} dense<1.000000e+00> : tensor<8x8xf32>
    return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh_2, [{"x"}, {?}]> : tensor<8x8xf32>
    %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<8x8xf32>
    sdy.sharding_group %1 group_id=3 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
