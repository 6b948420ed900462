sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<0x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>) {
  %c1 = stablehlo.constant dense<0.000000e+00> : tensor<0x8xf32>
  %c2 = stablehlo.constant dense<0.000000e+00> : tensor<0x32xf32>
  %0:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0, %arg1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>, <@mesh, [{\22b\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<0x16xf32>, tensor<16x32xf32>) -> (tensor<0x8xf32>, tensor<8x32xf32>)
  %1:2 = call @local_xla.sdy.manual_computation_body_9.fwd(%c1, %0#1) {mhlo.frontend_attributes = {inlineable = "xla_late"}} : (tensor<0x8xf32>, tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<8x32xf32>)
  %2:2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%c2, %1#1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {}], replicated={\22b\22}>, <@mesh, [{\22b\22}, {}]>]>"}} : (tensoprivatxf32>, tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>)
  return %c2, %2#1 : tensor<0x32xf32>, tensor<16x32xf32>
}
func.func @local_xla.sdy.manual_computation_body_9.fwd(%arg0: tensor<0x8xf32>, %arg1: tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<8x32xf32>) {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<0x8xf32>, tensor<8x32xf32>) -> tensor<0x32xf32>
  %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdynin_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8x32xf32>) -> tensor<4x32xf32>
  %2 = call @xla.sdy.manual_computation_body_1(%1) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %3 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}} : (tensor<4x32xf32>) -> tensor<8x32xf32>
  return %0, %3 : tensor<0x32xf32>, tensor<8x32xf32>
}
func.func @xla.sdy.manual_computation_body_1(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
