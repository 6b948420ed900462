module {
  sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>
  sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
  func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.reshard %arg0 <@mesh_0, [{"axis_0"}, {"axis_2"}], replicated={"axis_1"}> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func @chain_of_collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"y"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh_2, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %2 = sdy.all_gather [{}, {"y"}] %1 out_sharding=<@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
  func.func @all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
  func.func @collective_permute(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %0 = sdy.collective_permute %arg0 out_sharding=<@mesh_2, [{"y", "x"}, {}]> : tensor<32x8xf32>
    return %0 : tensor<32x8xf32>
  }
  func.func @reduce_scatter(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.reduce_scatter [{}, {"y"}] %arg0 out_sharding=<@mesh_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
