module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @sharding_constraint_to_custom_call(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
