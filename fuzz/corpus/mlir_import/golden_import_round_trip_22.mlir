func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.allowed_direction = "1 : i32"}} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
