module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
