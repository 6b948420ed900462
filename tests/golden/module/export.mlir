// `shardbridge convert --to hlo`: the export pass on whole modules.
// Expectations come from upstream's lit test
// xla/service/spmd/shardy/test/stablehlo_export_pipeline.mlir (CHECK-V2 and
// CHECK-V3 rows, named per case) unless a case says otherwise. Input modules
// are passed as a file (INPUT: file); output lines are the whole stdout.

// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @multiple_shardings: args, results and a one-result op.
// CHECK: module {
// CHECK:   func.func @multiple_shardings(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,8]<=[8,4]T(1,0)}"},
// CHECK:                                 %arg1: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}"},
// CHECK:                                 %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,4,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"})
// CHECK:       -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[8,4]<=[32]}"}) {
// CHECK:     %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"} : tensor<8x8xf32>
// CHECK:     %1 = stablehlo.dot %0, %arg2 : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK:     return %1 : tensor<8x16xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>
  func.func @multiple_shardings(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"axis_2"}, {"axis_0", "axis_1"}]>},
                                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{}, {"axis_0", "axis_2"}]>},
                                %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{}, {"axis_1"}]>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"axis_0", "axis_1"}, {"axis_2"}]>}) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"axis_1","axis_0"}, {}]>]>} : tensor<8x8xf32>
    %1 = stablehlo.dot %0, %arg2 : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo --v3
// INPUT: file
// From @multiple_shardings, CHECK-V3 rows (enable-hlo-sharding-v3=true).
// CHECK: func.func @multiple_shardings(%arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['axis_0'=2,'axis_1'=4,'axis_2'=4], [{'axis_2'}, {'axis_0', 'axis_1'}]}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{mesh['axis_0'=2,'axis_1'=4,'axis_2'=4], [{'axis_0', 'axis_1'}, {'axis_2'}]}"}) {
// CHECK:   %0 = stablehlo.add %arg0, %arg0 {mhlo.sharding = "{mesh['axis_0'=2,'axis_1'=4,'axis_2'=4], [{'axis_1', 'axis_0'}, {}]}"} : tensor<8x8xf32>
// CHECK:   return %0 : tensor<8x8xf32>
// CHECK: }
sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>
func.func @multiple_shardings(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"axis_2"}, {"axis_0", "axis_1"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"axis_0", "axis_1"}, {"axis_2"}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"axis_1","axis_0"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// From @multi_result_op: several results give a tuple string (CHECK-V2-SAME{LITERAL}).
// CHECK: func.func @multi_result_op(%arg0: tensor<4x64x8xf32>, %arg1: tensor<4x64x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK:   %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:   %1:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %0) across dimensions = [1]
// CHECK:     {mhlo.sharding = "{{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}, {devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}}"} :
// CHECK:     (tensor<4x64x8xf32>, tensor<4x64x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:     reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
// CHECK:       %2 = stablehlo.add %arg2, %arg4 : tensor<f32>
// CHECK:       %3 = stablehlo.add %arg3, %arg5 : tensor<f32>
// CHECK:       stablehlo.return %2, %3 : tensor<f32>, tensor<f32>
// CHECK:     }
// CHECK:   return %1#0, %1#1 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK: }
sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
func.func @multi_result_op(%arg0: tensor<4x64x8xf32>, %arg1: tensor<4x64x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %0) across dimensions = [1]
    {sdy.sharding = #sdy.sharding_per_value<[<@mesh_2, [{}, {"y"}]>, <@mesh_2, [{"y"}, {}]>]>} :
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
// ARGS: --to hlo
// INPUT: file
// From @unreduced_func_input and @split_constants: the reduction-op metadata
// quotes are written as \22; a constant's dictionary before its literal.
// CHECK: func.func @unreduced_func_input(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={unreduced} metadata={op_type=\22sdy::reduction_op\22 op_name=\22SUM\22}}"}, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK:   %0 = stablehlo.constant {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} dense<1.000000e+00> : tensor<4x8xf32>
// CHECK:   return %0 : tensor<4x8xf32>
// CHECK: }
sdy.mesh @mesh_5 = <["i"=2, "j"=2]>
func.func @unreduced_func_input(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh_5, [{"i"}, {}], unreduced={"j"}>}, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh_5, [{"i"}, {}]>]>} dense<1.000000e+00> : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-stablehlo-export-shardings
// INPUT: file
// Ops inside a manual computation, with the export-shardings pass alone: from
// @sharding_in_manual_computation_body, the body ops of
// @xla.sdy.inlinable_manual_computation_body (manual axes "a", "b" as a
// MANUAL subgroup). Without the shard-map export before it, the manual
// computation itself stays in sdy form with its mesh (a warning on stderr,
// see tests/cli/convert_cli.sh); the whole pipeline is in export_pipeline.mlir.
// CHECK: sdy.mesh @mesh_3 = <["a"=2, "b"=2, "c"=2, "d"=2]>
// CHECK: func.func @sharding_in_manual_computation_body(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,2,4]<=[16] last_tile_dim_replicate}"}, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
// CHECK:   %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_3, [{"b"}, {"a"}]>, <@mesh_3, [{"b"}, {}], replicated={"a"}>] out_shardings=[<@mesh_3, [{"a"}, {}], replicated={"b"}>] manual_axes={"a", "b"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8x32xf32>) {
// CHECK:     %2 = stablehlo.add %arg2, %arg2 {mhlo.sharding = "{devices=[2,1,4,2]<=[4,2,2]T(1,0,2) last_tile_dims={manual, replicated}}"} : tensor<4x8xf32>
// CHECK:     %3 = stablehlo.dot %2, %arg3 {mhlo.sharding = "{devices=[2,2,4]<=[4,4]T(1,0) last_tile_dims={manual}}"} : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
// CHECK:     %4 = stablehlo.sine %3 : tensor<4x32xf32>
// CHECK:     sdy.return %4 : tensor<4x32xf32>
// CHECK:   } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK:   return %0 : tensor<8x32xf32>
// CHECK: }
sdy.mesh @mesh_3 = <["a"=2, "b"=2, "c"=2, "d"=2]>
func.func @sharding_in_manual_computation_body(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_3, [{"a", ?}, {"b", ?}]>}, %arg1: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_3, [{"b"}, {"a"}]>, <@mesh_3, [{"b"}, {}], replicated={"a"}>] out_shardings=[<@mesh_3, [{"a"}, {}], replicated={"b"}>] manual_axes={"a", "b"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8x32xf32>) {
    %2 = stablehlo.add %arg2, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_3, [{"c"}, {}]>]>} : tensor<4x8xf32>
    %3 = stablehlo.dot %2, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_3, [{"c"}, {"d"}]>]>} : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
    %4 = stablehlo.sine %3 : tensor<4x32xf32>
    sdy.return %4 : tensor<4x32xf32>
  } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----
// CMD: convert
// ARGS: --to hlo --keep-hlo-sharding-constraints
// INPUT: file
// sdy.sharding_constraint -> the @Sharding custom call of upstream's
// export_ops.cc under keep-hlo-sharding-constraints (test
// stablehlo_export_pipeline_sharding_constraint_to_custom_call.mlir; the
// default, mhlo.copy, is in export_pipeline.mlir): operand, mhlo.sharding and
// the `(T) -> T` signature; the string is the mesh_2 [{"x"}, {}] row of
// @split_constants. A maximal mesh gives `{maximal device=1}`
// (@mesh_with_device_id_should_be_converted_to_maximal_sharding).
// CHECK: func.func @constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:   %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:   %1 = stablehlo.add %0, %0 {mhlo.sharding = "{maximal device=1}"} : tensor<8x8xf32>
// CHECK:   return %1 : tensor<8x8xf32>
// CHECK: }
sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
func.func @constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh_2, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// The round-trip form (docs/upstream.md § The round-trip form): xla.sdy.sharding in
// mhlo.frontend_attributes and the module's xla.sdy.meshes; mhlo.sharding is
// set to the export (added when missing, replaced when stale); the round-trip
// attributes stay. Strings by docs/upstream.md § Worked export examples rules, as `shardbridge export`.
// CHECK: module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=2]>}"}} {
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {\22y\22}]>"}, mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}) -> tensor<8x8xf32> {
// CHECK:     return %arg0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=2]>}"}} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}, {}]>"}}, %arg1: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {\22y\22}]>"}, mhlo.sharding = "{replicated}"}) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// The round-trip form doubly escaped (`\\\22` for each quote), as JAX's
// back-compat suite keeps it (jax/_src/internal_test_util/export_back_compat_test_data/
// shardy_sharding_ops_with_different_meshes.py, 2025-02-12): read as upstream's
// round-trip import reads it (docs/module.md "Import", doubly escaped strings).
// CHECK: module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\\\22x\\\22=2, \\\22y\\\22=2]>}"}} {
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\\\22x\\\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> tensor<8x8xf32> {
// CHECK:     return %arg0 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\\\22x\\\22=2, \\\22y\\\22=2]>}"}} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\\\22x\\\22}, {}]>"}}) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// A malformed doubly escaped sharding: the error and its note are located at
// the bytes of the input they are at, through both decodings (here right
// after `\\\22x\\\22`, where MLIR's parser expects the ',').
// expected-error {{expected ','}}
// STDERR: <input>:2:125: error: expected ','
// STDERR:   func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\\\22x\\\22 \\\22y\\\22}, {}]>"}}) -> tensor<8x8xf32> {
// STDERR:                                                                                                                             ^
// STDERR: <input>:2:126: note: failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\\\22x\\\22=2, \\\22y\\\22=2]>}"}} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\\\22x\\\22 \\\22y\\\22}, {}]>"}}) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// A sharding that does not match the rank of its argument's type: the
// verifier's message (docs/upstream.md § Shardy verifier), at the first superfluous dim.
// expected-error {{sharding doesn't match tensor rank: 2 != 1}}
// expected-error-at {{2:83}}
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// An op's result count and ranks come from its trailing type signature.
// expected-error {{sharding doesn't match tensor rank: 1 != 2}}
// expected-error-at {{3:76}}
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// expected-error {{unknown mesh: @other}}
// expected-error-at {{2:68}}
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// A truncated module: the brace left open.
// expected-error {{unexpected end of input: the region opened here is not closed}}
// expected-error-at {{2:83}}
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  return

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// expected-error {{unterminated string literal}}
// expected-error-at {{1:43}}
func.func @main(%arg0: tensor<8xf32> {a = "oops}) {
  return
}

// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// A mesh an attribute the export does not convert still names (`my.mesh_ref = @mesh`, as a
// composite's attributes do in real dumps) is kept, with a warning located at that reference:
// the bytes around it changed (the op's sharding joined the same dictionary), so the reference is
// found by its attribute entry. Our case.
// STDERR: <input>:4:61: warning: sdy.mesh @mesh kept: it is still referred to here after the export
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["x"=2]>
// CHECK:   func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
// CHECK:     %1 = stablehlo.custom_call @my_op(%arg0) {my.mesh_ref = @mesh, mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:     return %1 : tensor<8xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %1 = stablehlo.custom_call @my_op(%arg0) {my.mesh_ref = @mesh, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to hlo
// INPUT: file
// The same reference inside a manual computation: the export outlines its body at the end of the
// module, and the warning is located at the manual computation the body came from (not at the
// module's closing line). Our case.
// STDERR: <input>:4:5: warning: sdy.mesh @mesh kept: it is still referred to here after the export
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["x"=2]>
// CHECK:   func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:     %0_in0 = mhlo.copy %arg0 {mhlo.sharding = "{devices=[2]<=[2]}"} : tensor<8xf32>
// CHECK:     %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
// CHECK:     %0_body = call @xla.sdy.inlinable_manual_computation_body(%0_local0) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     %0_out0 = mhlo.copy %0_body {mhlo.sharding = "{manual}"} : tensor<4xf32>
// CHECK:     %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
// CHECK:     return %0 : tensor<8xf32>
// CHECK:   }
// CHECK:   func.func private @xla.sdy.inlinable_manual_computation_body(%arg1: tensor<4xf32> {mhlo.sharding = "{manual}"}) -> (tensor<4xf32> {mhlo.sharding = "{manual}"}) {
// CHECK:     %1 = stablehlo.custom_call @my_op(%arg1) {my.mesh_ref = @mesh, mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     return %1 : tensor<4xf32>
// CHECK:   }
// CHECK: }
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
      %1 = stablehlo.custom_call @my_op(%arg1) {my.mesh_ref = @mesh} : (tensor<4xf32>) -> tensor<4xf32>
      sdy.return %1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
