func.func @main() -> (tensor<i32>, tensor<2xf32>) {
  %0 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<1> : tensor<i32>
  %1 = "stablehlo.constant"() <{value = dense<2.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  return %0, %1 : tensor<i32>, tensor<2xf32>
}
