module {
  sdy.mesh @mesh_0 = <["a"=4, "b"=2]>
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  func.func @manual_computation_with_tokens(%arg0: !stablehlo.token, %arg1: tensor<2xi64>) -> (!stablehlo.token, tensor<2xi64>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_0, []>, <@mesh_0, [{"b"}]>] out_shardings=[<@mesh_0, []>, <@mesh_0, [{"b"}]>] manual_axes={"a", "b"} (%arg2: !stablehlo.token, %arg3: tensor<1xi64>) {
      %1 = stablehlo.custom_call @sdy_testonly(%arg2) : (!stablehlo.token) -> !stablehlo.token
      stablehlo.custom_call @sdy_testonly(%1) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (!stablehlo.token) -> ()
      sdy.return %1, %arg3 : !stablehlo.token, tensor<1xi64>
    } : (!stablehlo.token, tensor<2xi64>) -> (!stablehlo.token, tensor<2xi64>)
    return %0#0, %0#1 : !stablehlo.token, tensor<2xi64>
  }
  func.func @call_op_with_no_operands_or_results() {
    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<2x2xf32>
      %0 = stablehlo.add %cst, %cst {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"a"}, {}]>]>} : tensor<2x2xf32>
      sdy.return
    } : () -> ()
    return
  }
}
