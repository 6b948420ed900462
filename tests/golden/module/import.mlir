// `shardbridge convert --pass xla-sdy-import-shardings`: the import pass on whole
// modules (`convert --to sdy` runs it inside the import pipelines, import_*.mlir).
// Expectations come from upstream's lit test
// xla/service/spmd/shardy/test/import_shardings.mlir (xla-sdy-import-shardings;
// test function named per case) unless a case says otherwise. The inferred
// meshes go before the module body's first op, with its indentation.

// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// From @non_trivial_common_mesh and @multiple_shardings (one module there).
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>
// CHECK:   func.func @non_trivial_common_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>},
// CHECK:                                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>},
// CHECK:                                      %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_2"}]>}) -> tensor<8x16xf32> {
// CHECK:     %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
// CHECK:     %1 = "stablehlo.dot" (%0, %arg2) : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK:     return %1 : tensor<8x16xf32>
// CHECK:   }
// CHECK:   func.func @multiple_shardings(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>},
// CHECK:                                 %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0", "_axis_2"}]>},
// CHECK:                                 %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_1"}]>})
// CHECK:       -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}, {"_axis_2"}]>}) {
// CHECK:     %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"_axis_1", "_axis_0"}, {}]>]>} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module {
  func.func @non_trivial_common_mesh(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
                                     %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"},
                                     %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}"}) -> tensor<8x16xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
    %1 = "stablehlo.dot" (%0, %arg2) : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func @multiple_shardings(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
                                %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}"},
                                %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,4,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"})
      -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[8,4]<=[32]}"}) {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"} : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// From @multi_result_op: a tuple gives one sharding per result.
// CHECK: sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>
// CHECK: func.func @multi_result_op(%arg0: tensor<4x64x8xf32>, %arg1: tensor<4x64x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK:   %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:   %1:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %0) across dimensions = [1]
// CHECK:     {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"_axis_1"}]>, <@mesh, [{"_axis_1"}, {}]>]>} :
// CHECK:     (tensor<4x64x8xf32>, tensor<4x64x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:     reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
// CHECK:       %2 = stablehlo.add %arg2, %arg4 : tensor<f32>
// CHECK:       %3 = stablehlo.add %arg3, %arg5 : tensor<f32>
// CHECK:       stablehlo.return %2, %3 : tensor<f32>, tensor<f32>
// CHECK:     }
// CHECK:   return %1#0, %1#1 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK: }
func.func @multi_result_op(%arg0: tensor<4x64x8xf32>, %arg1: tensor<4x64x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %0) across dimensions = [1]
    {mhlo.sharding = "{{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}, {devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}}"} :
    (tensor<4x64x8xf32>, tensor<4x64x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
      %2 = stablehlo.add %arg2, %arg4 : tensor<f32>
      %3 = stablehlo.add %arg3, %arg5 : tensor<f32>
      stablehlo.return %2, %3 : tensor<f32>, tensor<f32>
    }
  return %1#0, %1#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// From @maximal_sharding_on_op, @two_meshes and @unknown_sharding: maximal
// meshes in ascending id order after @mesh; {unknown} gives open dims.
// CHECK: sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK: sdy.mesh @maximal_mesh_4 = <[], device_ids=[4]>
// CHECK: func.func @maximal_sharding_on_op(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> tensor<8x8xf32> {
// CHECK:   %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_4, []>]>} : tensor<8x8xf32>
// CHECK:   %1 = stablehlo.multiply %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : tensor<8x8xf32>
// CHECK:   return %1 : tensor<8x8xf32>
// CHECK: }
func.func @maximal_sharding_on_op(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}"}, %arg1: tensor<8x8xf32> {mhlo.sharding = "{unknown}"}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{maximal device=4}"} : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %0 {mhlo.sharding = "{maximal device=0}"} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// From @import_sharding_with_token_types: a token takes rank 0, and the
// import pass leaves @Sharding custom calls as they are, with a
// sharding_per_value (the conversion to sdy.sharding_constraint belongs to
// the later import pipeline, mhlo_import_pipeline.mlir).
// CHECK: sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>
// CHECK: func.func @import_sharding_with_token_types(%arg0: !stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, []>},
// CHECK:                                            %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>})
// CHECK:                                            -> (tensor<f32>, !stablehlo.token) {
// CHECK:   %0:2 = stablehlo.custom_call @foo(%arg0, %arg1) : (!stablehlo.token, tensor<8x8xf32>) -> (tensor<f32>, !stablehlo.token)
// CHECK:   %1 = stablehlo.custom_call @Sharding(%0#1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (!stablehlo.token) -> !stablehlo.token
// CHECK:   func.return %0#0, %1 : tensor<f32>, !stablehlo.token
// CHECK: }
func.func @import_sharding_with_token_types(%arg0: !stablehlo.token {mhlo.sharding = "{replicated}"},
                                           %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"})
                                           -> (tensor<f32>, !stablehlo.token) {
  %0:2 = stablehlo.custom_call @foo(%arg0, %arg1) : (!stablehlo.token, tensor<8x8xf32>) -> (tensor<f32>, !stablehlo.token)
  %1 = stablehlo.custom_call @Sharding(%0#1) {mhlo.sharding = "{replicated}"} : (!stablehlo.token) -> !stablehlo.token
  func.return %0#0, %1 : tensor<f32>, !stablehlo.token
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// Escaped serialized OpSharding bytes (openxla/stablehlo#619,
// docs/upstream.md § Reading mhlo.sharding): type OTHER, tile_assignment_dimensions [2, 1],
// devices [0, 1] = {devices=[2,1]0,1}; imported as the import pass imports
// that sharding (docs/upstream.md § Import steps).
// CHECK: sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK: func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {}]>}) -> tensor<8x8xf32> {
// CHECK:   return %arg0 : tensor<8x8xf32>
// CHECK: }
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "\08\03\1A\02\02\01\22\02\00\01"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// The round-trip form, as upstream's sdy round-trip import
// (sdy_round_trip_import_pipeline.mlir): xla.sdy.meshes -> sdy.mesh ops,
// xla.sdy.sharding -> sdy.sharding (canonical), mhlo.sharding dropped.
// CHECK: module @m {
// CHECK:   sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {jax.arg_info = "b", sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", ?}]>}) -> tensor<8x8xf32> {
// CHECK:     %0 = stablehlo.add %arg0, %arg1 {mhlo.frontend_attributes = {other = "1"}, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=2]>}"}} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<8x8xf32> {jax.arg_info = "b", mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {\22y\22,?}]>"}}) -> tensor<8x8xf32> {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.frontend_attributes = {other = "1", xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22x\22}, {}]>]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// A tiled sharding over a tensor of another rank, located at its string
// (convertToSdySharding's message, include/shardbridge/convert/import.h).
// expected-error {{sharding {devices=[2,2]<=[4]} tiles 2 dimensions but the tensor has rank 3}}
// expected-error-at {{1:59}}
func.func @main(%arg0: tensor<8x8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<8x8x8xf32> {
  return %arg0 : tensor<8x8x8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// HLO sharding text errors are located inside the string.
// expected-error {{expected ']' to end sharding iota_reshape_dims}}
// expected-error-at {{1:72}}
func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[4}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-shardings
// INPUT: file
// A module without shardings is printed back as it is (upstream creates no mesh).
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
