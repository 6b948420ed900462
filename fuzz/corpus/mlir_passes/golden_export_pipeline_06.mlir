module {
  sdy.mesh @mesh_1 = <["a"=2, "b"=2, "c"=2, "d"=2]>
  func.func @nested_shmaps(%arg0: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"a"}, {"b"}, {"c"}]>}) -> (tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{"a"}, {"b"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_1, [{"a"}, {}, {}]>] out_shardings=[<@mesh_1, [{"a"}, {}, {}]>] manual_axes={"a"} (%arg1: tensor<2x8x16xf32>) {
      %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh_1, [{}, {"b"}, {}]>] out_shardings=[<@mesh_1, [{}, {"b"}, {}]>] manual_axes={"b"} (%arg2: tensor<2x4x16xf32>) {
        %2 = stablehlo.multiply %arg2, %arg2 : tensor<2x4x16xf32>
        sdy.return %2 : tensor<2x4x16xf32>
      } : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
      sdy.return %1 : tensor<2x8x16xf32>
    } : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    return %0 : tensor<4x8x16xf32>
  }
}
