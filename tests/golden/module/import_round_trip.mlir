// The round-trip import: `shardbridge convert --to sdy` on a module in the round-trip form
// (it carries xla.sdy.meshes or the round-trip custom calls: docs/module.md "Which import") and
// `--pass xla-sdy-round-trip-import-pipeline` / its passes. Each case names the upstream lit test
// and function of xla/service/spmd/shardy/test/ (at the commit docs/module.md pins) whose facts it
// encodes; the inputs are ours.
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// sdy_round_trip_import_shardy_attrs.mlir (@sparse_offload_sharded_caller_module, meshes and
// argument strings) and sdy_round_trip_import_pipeline_sharding_in_frontend_attr.mlir: the saved
// meshes become sdy.mesh ops, an argument's xla.sdy.sharding its sdy.sharding, every mhlo.sharding
// goes, and @Sharding keeps its saved sharding for xla-sdy-import-sdy-custom-calls; other ops lose
// theirs (upstream keeps op shardings only on @Sharding, callbacks, send, recv and after_all).
// CHECK: module @m attributes {mhlo.num_partitions = 4 : i32} {
// CHECK:   sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>) {
// CHECK:     %0 = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
// CHECK:     return %1 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=2]>}"}, mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}, mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.add %0, %0 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}, mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// The same module through `convert --to sdy`: the round-trip pipeline with shardbridge's
// import-op-shardings, so the add keeps its saved sharding (it fits its result), and the
// @Sharding call becomes sdy.sharding_constraint.
// CHECK: module @m attributes {mhlo.num_partitions = 4 : i32} {
// CHECK:   sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>) {
// CHECK:     %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
// CHECK:     %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
// CHECK:     return %1 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=2]>}"}, mhlo.num_partitions = 4 : i32} {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}, mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.add %0, %0 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}, mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// sdy_round_trip_import_pipeline_sharding_in_frontend_attr.mlir (func result shardings):
// @xla.sdy.FuncResultSharding moves its sharding to the results it is returned as (twice here) and
// goes; one whose value has another user becomes a constraint with its dims opened
// (import_shardy_attrs.cc handleFuncResultSharding).
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["a"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, tensor<8x8xf32>) {
// CHECK:     %1 = sdy.sharding_constraint %arg0 <@mesh, [{?}, {"a", ?}]> : tensor<8x8xf32>
// CHECK:     %2 = stablehlo.add %1, %1 : tensor<8x8xf32>
// CHECK:     return %arg0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}"}} {
  func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {\22a\22}]>]>"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.add %1, %1 : tensor<8x8xf32>
    return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// import_shardy_attrs.cc (kInTupleShardings / kOutTupleShardings, tuple args shardings):
// the module's xla.sdy.tuple_args_shardings / xla.sdy.tuple_results_shardings give @main's argument
// and result shardings; xla.sdy.sharding_rule becomes sdy.sharding_rule (kept verbatim).
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["a"=2]>
// CHECK:   func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
// CHECK:     %0 = stablehlo.custom_call @foo(%arg0, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK:     return %0 : tensor<8xf32>
// CHECK:   }
// CHECK: }
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}", xla.sdy.tuple_args_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>, <@mesh, [{}]>]>", xla.sdy.tuple_results_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} {
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @foo(%arg0, %arg1) {mhlo.frontend_attributes = {xla.sdy.sharding_rule = "#sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>"}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// Beyond upstream (which stops in MLIR's attribute parser): an xla.sdy.sharding_rule whose text
// is not one balanced attribute is refused, located at its string, rather than written verbatim
// into a module that no longer parses (found by mlir_import_fuzz).
// expected-error {{xla.sdy.sharding_rule does not hold one attribute: unbalanced ')'}}
// expected-error-at {{3:104}}
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}"}} {
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @foo(%arg0, %arg1) {mhlo.frontend_attributes = {xla.sdy.sharding_rule = "#sdy.op_sharding_rule<[i], [i])->([i]) {i=8}>"}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// sdy_round_trip_import_shardy_attrs.mlir @sparse_offload_module, @sparse_offload_sharded_module,
// @sparse_offload_sharded_caller_module and @sparse_offload_unreduced_module (single-line here: the op
// tree does not read their hand-wrapped dictionaries yet): the callee of a sparse-offload call gets a
// FORWARD propagation barrier on an argument read by @Sharding, unless a call site's operand would be
// sliced there (@sliced: no caller sharding against a sharded dim) or the sharding has unreduced
// axes (@unreduced).
// CHECK: module @m {
// CHECK:   sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK:   func.func private @replicated(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %arg0_barrier = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8x8xf32>
// CHECK:     %0 = stablehlo.custom_call @Sharding(%arg0_barrier) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func private @sliced(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func private @matching(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %arg0_barrier = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8x8xf32>
// CHECK:     %0 = stablehlo.custom_call @Sharding(%arg0_barrier) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func private @unreduced(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK:     %0 = stablehlo.custom_call @Sharding(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a"}>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %0 : tensor<8x8xf32>
// CHECK:   }
// CHECK:   func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
// CHECK:     %0 = call @replicated(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     %1 = call @sliced(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     %2 = call @matching(%arg1) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     %3 = call @unreduced(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:     return %3 : tensor<8x8xf32>
// CHECK:   }
// CHECK: }
module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\"a\"=2, \"b\"=2]>}"}} {
  func.func private @replicated(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @sliced(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @matching(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @unreduced(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={\"a\"}>]>"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\"a\"}, {}]>"}}) -> tensor<8x8xf32> {
    %0 = call @replicated(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = call @sliced(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = call @matching(%arg1) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = call @unreduced(%arg0) {mhlo.frontend_attributes = {_xla_compute_type = "sparseoffload"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %3 : tensor<8x8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// sdy_round_trip_import_pipeline_sharding_in_frontend_attr.mlir
// @func_result_sharding_used_by_x64_combine_non_tuple: the X64Combine reading the function-result
// sharding calls takes their sharding, and the result gets it.
// CHECK: module {
// CHECK:   sdy.mesh @mesh = <["a"=8]>
// CHECK:   func.func @main(%arg0: tensor<16xi64>) -> (tensor<16xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
// CHECK:     %0 = stablehlo.custom_call @X64SplitLow(%arg0) : (tensor<16xi64>) -> tensor<16xui32>
// CHECK:     %1 = stablehlo.custom_call @X64SplitHigh(%arg0) : (tensor<16xi64>) -> tensor<16xui32>
// CHECK:     %4 = stablehlo.custom_call @X64Combine(%0, %1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<16xui32>, tensor<16xui32>) -> tensor<16xi64>
// CHECK:     return %4 : tensor<16xi64>
// CHECK:   }
// CHECK: }
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=8]>}"}} {
  func.func @main(%arg0: tensor<16xi64>) -> tensor<16xi64> {
    %0 = stablehlo.custom_call @X64SplitLow(%arg0) : (tensor<16xi64>) -> tensor<16xui32>
    %1 = stablehlo.custom_call @X64SplitHigh(%arg0) : (tensor<16xi64>) -> tensor<16xui32>
    %2 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} : (tensor<16xui32>) -> tensor<16xui32>
    %3 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} : (tensor<16xui32>) -> tensor<16xui32>
    %4 = stablehlo.custom_call @X64Combine(%2, %3) : (tensor<16xui32>, tensor<16xui32>) -> tensor<16xi64>
    return %4 : tensor<16xi64>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-pipeline{enable-hlo-sharding-v3=true}
// INPUT: file
// sdy_round_trip_import_pipeline_hlo_sharding_v3.mlir @module_1 (meshes and
// @results_with_sharding): V3 strings on several meshes; each is read on its own mesh, and the
// lifted meshes are named @mesh, @mesh_0, @maximal_mesh_<id>; every mhlo.sharding goes.
// CHECK: module @module_1 {
// CHECK:   sdy.mesh @mesh = <["a"=8, "b"=8, "c"=8]>
// CHECK:   sdy.mesh @mesh_0 = <["a"=2, "b"=2]>
// CHECK:   sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>
// CHECK:   func.func @main(%arg0: tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}, %arg1: tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"a"}]>}, %arg2: tensor<32xi32> {sdy.sharding = #sdy.sharding<@maximal_mesh_5, []>}) -> (tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) {
// CHECK:     %0 = stablehlo.add %arg0, %arg1 : tensor<32xi32>
// CHECK:     return %0 : tensor<32xi32>
// CHECK:   }
// CHECK: }
module @module_1 {
  func.func @main(%arg0: tensor<32xi32> {mhlo.sharding = "{mesh['a'=8,'b'=8,'c'=8], [{'b'}]}"}, %arg1: tensor<32xi32> {mhlo.sharding = "{mesh['a'=2,'b'=2], [{'a'}]}"}, %arg2: tensor<32xi32> {mhlo.sharding = "{maximal_mesh[device_id=5]}"}) -> (tensor<32xi32> {mhlo.sharding = "{mesh['a'=8,'b'=8,'c'=8], [{'c'}]}"}) {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{mesh['a'=8,'b'=8,'c'=8], [{'a'}]}"} : tensor<32xi32>
    return %0 : tensor<32xi32>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-import-shardy-attrs
// INPUT: file
// import_shardy_attrs.cc handleFuncTupleInOutShardings: a count that differs from @main's
// arguments is upstream's error (its message, missing blank included), at the module.
// expected-error {{Number of actual shardings (1) does not match number of expected shardings (2for xla.sdy.tuple_args_shardings) for function.}}
// expected-error-at {{1:1}}
module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}", xla.sdy.tuple_args_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} {
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// JAX's back-compat dumps (shardy_ops 2025-02-12, the older round-trip spelling): doubly
// escaped strings (\\\22), the in/out shardings and manual axes on the call of
// @xla.sdy.manual_computation_body, no attributes on the custom calls. sdy_round_trip_shard_map_import.mlir
// @single_manual_comp gives the rewrite: one sdy.manual_computation with the body inlined.
// CHECK: module @jit_func attributes {mhlo.num_partitions = 2 : i32} {
// CHECK:   sdy.mesh @mesh = <["a"=2]>
// CHECK:   func.func public @main(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32> {jax.result_info = ""}) {
// CHECK:     %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<2x4xf32>
// CHECK:     %3 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg0_0: tensor<1x4xf32>) {
// CHECK:       %0_0 = stablehlo.negate %arg0_0 : tensor<1x4xf32>
// CHECK:       sdy.return %0_0 : tensor<1x4xf32>
// CHECK:     } : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:     return %3 : tensor<2x4xf32>
// CHECK:   }
// CHECK: }
module @jit_func attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\\\22a\\\22=2]>}"}, mhlo.num_partitions = 2 : i32} {
  func.func public @main(%arg0: tensor<2x4xf32>) -> (tensor<2x4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\\\22a\\\22}, {}]>]>"}, mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%0) : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %2 = call @xla.sdy.manual_computation_body(%1) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\\\22a\\\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\\\22a\\\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\\\22a\\\22}, {}]>]>"}} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %3 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%2) : (tensor<1x4xf32>) -> tensor<2x4xf32>
    return %3 : tensor<2x4xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<1x4xf32>
    return %0 : tensor<1x4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// sdy_round_trip_shard_map_import.mlir @single_manual_comp_name_is_not_prefix_nor_suffix,
// @manual_computation_some_zero_dim_inputs_outputs and @nested_shmaps (the pinned spelling): callees
// are matched by containing xla.sdy.manual_computation_body; operands are the
// GlobalToLocalShape's (a 0-element operand replaced by a constant is skipped), results the
// LocalToGlobalShape's; a nested body is rewritten first; names the caller uses are renamed.
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK: func.func @main(%arg0: tensor<0x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>) {
// CHECK:   %c1 = stablehlo.constant dense<0.000000e+00> : tensor<0x8xf32>
// CHECK:   %c2 = stablehlo.constant dense<0.000000e+00> : tensor<0x32xf32>
// CHECK:   %2:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}, {"b"}]>, <@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{}, {}], replicated={"b"}>, <@mesh, [{"b"}, {}]>] manual_axes={"b"} (%arg0_0: tensor<0x8xf32>, %arg1_0: tensor<8x32xf32>) {
// CHECK:     %0_0 = stablehlo.dot %arg0_0, %arg1_0 : (tensor<0x8xf32>, tensor<8x32xf32>) -> tensor<0x32xf32>
// CHECK:     %3 = sdy.manual_computation(%arg1_0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg0_0_0: tensor<4x32xf32>) {
// CHECK:       %0_0_0 = stablehlo.abs %arg0_0_0 : tensor<4x32xf32>
// CHECK:       sdy.return %0_0_0 : tensor<4x32xf32>
// CHECK:     } : (tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK:     sdy.return %0_0, %3 : tensor<0x32xf32>, tensor<8x32xf32>
// CHECK:   } : (tensor<0x16xf32>, tensor<16x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>)
// CHECK:   return %c2, %2#1 : tensor<0x32xf32>, tensor<16x32xf32>
// CHECK: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<0x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>) {
  %c1 = stablehlo.constant dense<0.000000e+00> : tensor<0x8xf32>
  %c2 = stablehlo.constant dense<0.000000e+00> : tensor<0x32xf32>
  %0:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0, %arg1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>, <@mesh, [{\22b\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<0x16xf32>, tensor<16x32xf32>) -> (tensor<0x8xf32>, tensor<8x32xf32>)
  %1:2 = call @local_xla.sdy.manual_computation_body_9.fwd(%c1, %0#1) {mhlo.frontend_attributes = {inlineable = "xla_late"}} : (tensor<0x8xf32>, tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<8x32xf32>)
  %2:2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%c2, %1#1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {}], replicated={\22b\22}>, <@mesh, [{\22b\22}, {}]>]>"}} : (tensor<0x32xf32>, tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>)
  return %c2, %2#1 : tensor<0x32xf32>, tensor<16x32xf32>
}
func.func @local_xla.sdy.manual_computation_body_9.fwd(%arg0: tensor<0x8xf32>, %arg1: tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<8x32xf32>) {
  %0 = stablehlo.dot %arg0, %arg1 : (tensor<0x8xf32>, tensor<8x32xf32>) -> tensor<0x32xf32>
  %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8x32xf32>) -> tensor<4x32xf32>
  %2 = call @xla.sdy.manual_computation_body_1(%1) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %3 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}} : (tensor<4x32xf32>) -> tensor<8x32xf32>
  return %0, %3 : tensor<0x32xf32>, tensor<8x32xf32>
}
func.func @xla.sdy.manual_computation_body_1(%arg0: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// sdy_round_trip_shard_map_import.mlir @manual_computation_all_outputs_zero_dim and
// @stray_unused_manual_computation_custom_calls: a call none of whose results is used goes, and so
// do unused GlobalToLocalShape / LocalToGlobalShape calls and the body functions.
// CHECK: sdy.mesh @mesh = <["b"=2]>
// CHECK: func.func @main(%arg0: tensor<0x16xf32>) -> tensor<0x16xf32> {
// CHECK:   %c1 = stablehlo.constant dense<0.000000e+00> : tensor<0x8xf32>
// CHECK:   %c2 = stablehlo.constant dense<0.000000e+00> : tensor<0x16xf32>
// CHECK:   return %c2 : tensor<0x16xf32>
// CHECK: }
sdy.mesh @mesh = <["b"=2]>
func.func @main(%arg0: tensor<0x16xf32>) -> tensor<0x16xf32> {
  %c1 = stablehlo.constant dense<0.000000e+00> : tensor<0x8xf32>
  %c2 = stablehlo.constant dense<0.000000e+00> : tensor<0x16xf32>
  %0 = call @xla.sdy.manual_computation_body(%c1) : (tensor<0x8xf32>) -> tensor<0x8xf32>
  %1 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%c1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}, {}]>]>"}} : (tensor<0x8xf32>) -> tensor<0x16xf32>
  return %c2 : tensor<0x16xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<0x8xf32>) -> tensor<0x8xf32> {
  return %arg0 : tensor<0x8xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// sdy_round_trip_shard_map_import_failure.mlir @manual_computation_missing_global_to_local_shape:
// upstream's message, at the call.
// expected-error {{'func.call' op expected at least one operand of @xla.sdy.manual_computation_body to be produced by a xla.sdy.GlobalToLocalShape CustomCallOp}}
// expected-error-at {{4:3}}
sdy.mesh @mesh = <["b"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  %0 = call @xla.sdy.manual_computation_body(%c) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// sdy_round_trip_shard_map_import_failure.mlir @manual_computation_missing_local_to_global_shape.
// expected-error {{'func.call' op expected the first use of @xla.sdy.manual_computation_body to be a xla.sdy.LocalToGlobalShape CustomCallOp}}
// expected-error-at {{4:3}}
sdy.mesh @mesh = <["b"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
  %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// The saved manual axes are an MLIR attribute (`#sdy<manual_axes{"b", "c"}>`), parsed, not copied:
// two names without their comma are refused at the attribute (upstream's attribute parser fails
// on them too), so no `manual_axes={"b" "c"}` that nothing can read again is written.
// expected-error {{expected '#sdy<manual_axes{...}>' (expected ',' or '}' in the manual axes), got '#sdy<manual_axes{"b" "c"}>'}}
// expected-error-at {{3:190}}
sdy.mesh @mesh = <["b"=2, "c"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22 \22c\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
  %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// A manual axis that is not a quoted name (a fuzzer's `\52x\22`, which decodes to `Rx"`): refused
// at the attribute; its stray quote used to reach the output unterminated.
// expected-error {{expected '#sdy<manual_axes{...}>' (expected a quoted axis name), got '#sdy<manual_axes{Rx"}>'}}
// expected-error-at {{3:190}}
sdy.mesh @mesh = <["b"=2, "c"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\52x\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
  %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-sdy-custom-calls
// INPUT: file
// sdy_round_trip_sharding_group_import_failure.mlir @sharding_group_import_with_used_result.
// expected-error {{xla.sdy.ShardingGroup CustomCallOp should have no uses.}}
// expected-error-at {{2:3}}
func.func @main(%arg0: tensor<8x8xf32>) -> tuple<tuple<>> {
  %0 = stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "21 : i64"}} : (tensor<8x8xf32>) -> tuple<>
  %1 = "stablehlo.tuple"(%0) : (tuple<>) -> tuple<tuple<>>
  return %1 : tuple<tuple<>>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-sdy-custom-calls
// INPUT: file
// sdy_round_trip_sharding_group_import_failure.mlir @sharding_group_import_failure_if_no_group_id.
// expected-error {{expected CustomCallOp with a sharding group id.}}
// expected-error-at {{2:3}}
func.func @main(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {}} : (tensor<16x16xf32>) -> ()
  return %arg0 : tensor<16x16xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-sdy-custom-calls
// INPUT: file
// import_sdy_custom_calls.cc rewritePropagationBarrierCustomCall (the round-trip export's
// "K : i32" direction, round_trip_export.mlir) and rewriteShardingCustomCall without a sharding
// (upstream's message).
// expected-error {{expected CustomCallOp with a sharding attribute. If you are a JAX user hitting this, please file a bug against the OpenXLA Shardy team. This shouldn't happen to you. One of the possible bugs is the model has been lowered targeting GSPMD, but Shardy was then enabled in XLA.}}
// expected-error-at {{3:3}}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.allowed_direction = "1 : i32"}} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @Sharding(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-sdy-custom-calls
// INPUT: file
// import_sdy_custom_calls.cc rewritePropagationBarrierCustomCall.
// CHECK: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   %0 = sdy.propagation_barrier %arg0 allowed_direction=FORWARD : tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.allowed_direction = "1 : i32"}} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-open-while-free-vars-sharding --pass xla-sdy-open-while-free-vars-sharding
// INPUT: file
// open_while_free_vars_sharding.mlir @while_with_free_variables and
// @free_var_used_in_multiple_while_ops (run twice: the second run is a no-op): a free variable gets
// one constraint per while op; an already open sharding (%arg2) and a rank-0 one (%1) get none.
// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK: func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> tensor<8x4xf32> {
// CHECK:   %0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK:   %1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<4> : tensor<i32>
// CHECK:   %arg1_open = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<8x4xf32>
// CHECK:   %2:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<8x4xf32>, tensor<i32>
// CHECK:     cond {
// CHECK:     %4 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %4 : tensor<i1>
// CHECK:   } do {
// CHECK:     %4 = stablehlo.add %iterArg, %arg1_open : tensor<8x4xf32>
// CHECK:     %5 = stablehlo.add %4, %arg2 : tensor<8x4xf32>
// CHECK:     stablehlo.return %5, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
// CHECK:   }
// CHECK:   %arg1_open_0 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<8x4xf32>
// CHECK:   %3:2 = stablehlo.while(%iterArg = %2#0, %iterArg_0 = %0) : tensor<8x4xf32>, tensor<i32>
// CHECK:     cond {
// CHECK:     %4 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:     stablehlo.return %4 : tensor<i1>
// CHECK:   } do {
// CHECK:     %4 = stablehlo.add %iterArg, %arg1_open_0 : tensor<8x4xf32>
// CHECK:     stablehlo.return %4, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
// CHECK:   }
// CHECK:   return %3#0 : tensor<8x4xf32>
// CHECK: }
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<4> : tensor<i32>
  %2:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<8x4xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg, %arg1 : tensor<8x4xf32>
    %5 = stablehlo.add %4, %arg2 : tensor<8x4xf32>
    stablehlo.return %5, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
  }
  %3:2 = stablehlo.while(%iterArg = %2#0, %iterArg_0 = %0) : tensor<8x4xf32>, tensor<i32>
    cond {
    %4 = stablehlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  } do {
    %4 = stablehlo.add %iterArg, %arg1 : tensor<8x4xf32>
    stablehlo.return %4, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
  }
  return %3#0 : tensor<8x4xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-import-constants
// INPUT: file
// import_constants.cc: stablehlo.constant -> sdy.constant, attributes kept, both forms.
// CHECK: func.func @main() -> (tensor<i32>, tensor<2xf32>) {
// CHECK:   %0 = sdy.constant {mhlo.sharding = "{replicated}"} dense<1> : tensor<i32>
// CHECK:   %1 = "sdy.constant"() <{value = dense<2.0> : tensor<2xf32>}> : () -> tensor<2xf32>
// CHECK:   return %0, %1 : tensor<i32>, tensor<2xf32>
// CHECK: }
func.func @main() -> (tensor<i32>, tensor<2xf32>) {
  %0 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<1> : tensor<i32>
  %1 = "stablehlo.constant"() <{value = dense<2.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  return %0, %1 : tensor<i32>, tensor<2xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-testing-pipeline
// INPUT: file
// round_trip_pipeline_manual_computation.mlir (export then import in one process; upstream
// converts to HLO and back in between): a manual computation and the argument shardings come back;
// the op shardings go, as upstream drops them (`convert --to sdy` keeps them).
// CHECK: module {
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK: func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<16x32xf32> {
// CHECK:   %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
// CHECK:     %1 = stablehlo.add %arg1, %arg1 : tensor<8x32xf32>
// CHECK:     sdy.return %1 : tensor<8x32xf32>
// CHECK:   } : (tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK:   return %0 : tensor<16x32xf32>
// CHECK: }
// CHECK: }
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    %1 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x32xf32>
    sdy.return %1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// sdy_round_trip_import_pipeline_sharding_in_frontend_attr.mlir @manual_computation_nested_tuples:
// stablehlo-ext's canonicalize-from-HLO-import (run before the round-trip imports) flattens the
// @xla.sdy.GlobalToLocalShape's tuple operand and nested tuple result, and the tuple result of
// @xla.sdy.LocalToGlobalShape, so the shard_map import sees one value per leaf and raises an
// sdy.manual_computation with three operands and two results.
// CHECK: module @tupled {
// CHECK:   sdy.mesh @mesh = <["y"=2, "z"=2]>
// CHECK:   func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<8xf32>) {
// CHECK:     %7:2 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{"y"}, {}]>, <@mesh, [{"y"}]>] out_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{"y"}]>] manual_axes={"y"} (%arg0_0: tensor<4x4xf32>, %arg1_0: tensor<4x4xf32>, %arg2_0: tensor<4xf32>) {
// CHECK:       %0 = stablehlo.subtract %arg0_0, %arg1_0 : tensor<4x4xf32>
// CHECK:       sdy.return %0, %arg2_0 : tensor<4x4xf32>, tensor<4xf32>
// CHECK:     } : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8xf32>) -> (tensor<8x4xf32>, tensor<8xf32>)
// CHECK:     return %7#0, %7#1 : tensor<8x4xf32>, tensor<8xf32>
// CHECK:   }
// CHECK: }
module @tupled attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22y\22=2, \22z\22=2]>}"}} {
  func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<8xf32>) {
    %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<8x4xf32>, tensor<8x4xf32>>
    %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%0, %arg2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22y\22}, {}]>, <@mesh, [{\22y\22}, {}]>, <@mesh, [{\22y\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22y\22}>"}} : (tuple<tensor<8x4xf32>, tensor<8x4xf32>>, tensor<8xf32>) -> tuple<tuple<tensor<4x4xf32>, tensor<4x4xf32>>, tensor<4xf32>>
    %2 = stablehlo.get_tuple_element %1[0] : (tuple<tuple<tensor<4x4xf32>, tensor<4x4xf32>>, tensor<4xf32>>) -> tuple<tensor<4x4xf32>, tensor<4x4xf32>>
    %3 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<4x4xf32>, tensor<4x4xf32>>) -> tensor<4x4xf32>
    %4 = stablehlo.get_tuple_element %2[0] : (tuple<tensor<4x4xf32>, tensor<4x4xf32>>) -> tensor<4x4xf32>
    %5 = stablehlo.get_tuple_element %1[1] : (tuple<tuple<tensor<4x4xf32>, tensor<4x4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
    %6:2 = call @xla.sdy.manual_computation_body(%4, %3, %5) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)
    %7 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%6#0, %6#1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22y\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22y\22}, {}]>, <@mesh, [{\22y\22}]>]>"}} : (tensor<4x4xf32>, tensor<4xf32>) -> tuple<tensor<8x4xf32>, tensor<8xf32>>
    %8 = stablehlo.get_tuple_element %7[0] : (tuple<tensor<8x4xf32>, tensor<8xf32>>) -> tensor<8x4xf32>
    %9 = stablehlo.get_tuple_element %7[1] : (tuple<tensor<8x4xf32>, tensor<8xf32>>) -> tensor<8xf32>
    return %8, %9 : tensor<8x4xf32>, tensor<8xf32>
  }
  func.func private @xla.sdy.manual_computation_body(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<4x4xf32>
    return %0, %arg2 : tensor<4x4xf32>, tensor<4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// sdy_round_trip_import_pipeline_sharding_in_frontend_attr.mlir @maximal_sharding_empty_tuple: a
// Python callback returning `tuple<>` keeps no result once flattened, and keeps its saved maximal
// sharding. The module's and the call's attribute dictionaries are wrapped after their '{', as the
// upstream lit tests write them (module_lex::looksLikeDict).
// CHECK: module @callback {
// CHECK:   sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK:   func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     stablehlo.custom_call @xla_python_cpu_callback(%arg0) {api_version = 2 : i32, has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, []>]>} : (tensor<4xf32>) -> ()
// CHECK:     return %arg0 : tensor<4xf32>
// CHECK:   }
// CHECK: }
module @callback attributes {mhlo.frontend_attributes = {
    xla.sdy.meshes = "{maximal_mesh_3 = #sdy.mesh<[], device_ids=[3]>}"
  }} {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @xla_python_cpu_callback(%arg0) {
      api_version = 2 : i32,
      has_side_effect = true,
      mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@maximal_mesh_3, []>]>"},
      mhlo.sharding = "{{maximal device=3}}"
    } : (tensor<4xf32>) -> tuple<>
    return %arg0 : tensor<4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// The single manual-computation custom call of older snapshots (the 2024
// sdy_round_trip/shard_map_import.cc ManualComputationPattern: `@local_xla.sdy.ManualComputation`
// naming its body in `called_computations`). The pinned shard_map_import.cc reads only the
// GlobalToLocalShape / call / LocalToGlobalShape form, so the call is left as it is, and so is the
// body it names (docs/module.md "Import").
// CHECK: module @single_call {
// CHECK:   sdy.mesh @mesh = <["b"=4]>
// CHECK:   func.func @main(%arg0: tensor<16x2xf32>) -> tensor<16x2xf32> {
// CHECK:     %0 = stablehlo.custom_call @local_xla.sdy.ManualComputation(%arg0) {called_computations = [@local_xla.sdy.manual_computation_body_1], mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}, {}]>]>"}} : (tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK:     return %0 : tensor<16x2xf32>
// CHECK:   }
// CHECK:   func.func private @local_xla.sdy.manual_computation_body_1(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
// CHECK:     %0 = stablehlo.negate %arg0 : tensor<4x2xf32>
// CHECK:     return %0 : tensor<4x2xf32>
// CHECK:   }
// CHECK: }
module @single_call attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22b\22=4]>}"}} {
  func.func @main(%arg0: tensor<16x2xf32>) -> tensor<16x2xf32> {
    %0 = stablehlo.custom_call @local_xla.sdy.ManualComputation(%arg0) {called_computations = [@local_xla.sdy.manual_computation_body_1], mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}, {}]>]>"}} : (tensor<16x2xf32>) -> tensor<16x2xf32>
    return %0 : tensor<16x2xf32>
  }
  func.func private @local_xla.sdy.manual_computation_body_1(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass sdy-flatten-call-graph
// INPUT: file
// Shardy's walkCalls (shardy/dialect/sdy/ir/utils.cc) visits the functions in post-order of MLIR's
// CallGraph, whose external node has an edge to every function in text order, private ones
// included (mlir/lib/Analysis/CallGraph.cpp getOrAddNode). So the private @a, first in the text,
// is a root ahead of @b: the order is @e, @a, @c, @b, @a's call keeps @e and @c's gets the clone.
// Rooted at the public @b alone, the order would be @e, @c, @a, @b, the other way round.
// CHECK: module @m {
// CHECK:   func.func private @a(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     %0 = call @e(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     return %0 : tensor<4xf32>
// CHECK:   }
// CHECK:   func.func @b(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     %0 = call @c(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     %1 = call @a(%0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     return %1 : tensor<4xf32>
// CHECK:   }
// CHECK:   func.func private @c(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     %0 = call @e_0(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     return %0 : tensor<4xf32>
// CHECK:   }
// CHECK:   func.func private @e(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     return %arg0 : tensor<4xf32>
// CHECK:   }
// CHECK:   func.func private @e_0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {sdy.original_func_name = "e"} {
// CHECK:     return %arg0 : tensor<4xf32>
// CHECK:   }
// CHECK: }
module @m {
  func.func private @a(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @e(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @b(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @c(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = call @a(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @c(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @e(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @e(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass sdy-flatten-call-graph
// INPUT: file
// Shardy transforms/import/test/flatten_call_graph.mlir @main_calls_foo_twice and
// @main_calls_foo_calls_bar_twice (the registered pass flattens fully): calls are visited callee
// first, a second call of @f gets a clone of it and of what it calls, and the second call of @g
// one of @g; clones carry sdy.original_func_name, are named NAME_N with one counter per module, and
// go at the end of the module, callees first.
// CHECK: func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   %1 = call @f_1(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   %2 = call @g_2(%1) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %2 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   %0 = call @g(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {mhlo.frontend_attributes = {a = "b"}} {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @g_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {mhlo.frontend_attributes = {a = "b"}, sdy.original_func_name = "g"} {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f_1(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
// CHECK:   %0 = call @g_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @g_2(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {mhlo.frontend_attributes = {a = "b"}, sdy.original_func_name = "g"} {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @g(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @g(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {mhlo.frontend_attributes = {a = "b"}} {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass sdy-flatten-call-graph
// INPUT: file
// flatten_call_graph.cc looks every callee up (getFuncOpOrDie, fatal upstream): a call of a function
// the module lacks is an error at the call.
// expected-error {{Failed to lookup function: missing}}
// expected-error-at {{2:3}}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @missing(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @missing(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass sdy-unflatten-call-graph
// INPUT: file
// Shardy transforms/export/test/unflatten_call_graph.mlir @vanilla_call and
// @multiple_same_calls_same_shardings: @f_0 (origin f, same shardings) is merged into @f, the first
// one called; @h_1 (origin h) differs from @h by its argument sharding and stays; every function
// loses sdy.original_func_name (the uncalled @f_0 is left to symbol-dce).
// CHECK: sdy.mesh @mesh = <["a"=2]>
// CHECK: func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
// CHECK:   %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   %2 = call @h_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   %0 = call @h(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @h(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   return %arg0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f_0(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   %0 = call @h(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @h_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
// CHECK:   return %arg0 : tensor<8xf32>
// CHECK: }
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @h_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @h(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @h(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @f_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  %0 = call @h(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @h_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> attributes {sdy.original_func_name = "h"} {
  return %arg0 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// sdy_round_trip/pipelines.cc addSdyRoundTripImportPipeline: sdy-flatten-call-graph restricted to
// manual-computation bodies (isManualComputation), symbol-dce, the shard-map import, then
// sdy-unflatten-call-graph and symbol-dce (the pin's sdy_round_trip_shard_map_import.mlir runs the
// import after a test flattening too). The body called twice gets a clone for its second call; the
// first call's body keeps it but calls a clone of @helper (@helper_0), the second a clone of that
// (@helper_0_1); once both bodies are manual computations, the two clones are one again under the
// name of the first called, and the unused @helper goes.
// CHECK: module @two_bodies {
// CHECK:   sdy.mesh @mesh = <["a"=2]>
// CHECK:   func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:     %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg0_0: tensor<4xf32>) {
// CHECK:       %0_0 = call @helper_0(%arg0_0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       sdy.return %0_0 : tensor<4xf32>
// CHECK:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:     %5 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg0_1: tensor<4xf32>) {
// CHECK:       %0_1 = call @helper_0(%arg0_1) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       sdy.return %0_1 : tensor<4xf32>
// CHECK:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:     return %5 : tensor<8xf32>
// CHECK:   }
// CHECK:   func.func private @helper_0(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     %0 = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK:     return %0 : tensor<4xf32>
// CHECK:   }
// CHECK: }
module @two_bodies attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}"}} {
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
    %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
    %3 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%2) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
    %4 = call @xla.sdy.manual_computation_body(%3) : (tensor<4xf32>) -> tensor<4xf32>
    %5 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%4) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
    return %5 : tensor<8xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// import_shardy_attrs.cc kInTupleShardings after stablehlo-ext-canonicalize-from-hlo-import flattened
// @main's tuple argument (HLO's tuple-args form): xla.sdy.tuple_args_shardings gives the flat
// arguments their shardings; the body's get_tuple_element of the stablehlo.tuple rebuilding the
// argument is the leaf (stablehlo_canonicalize_from_hlo_import.mlir @get_tuple_element), and the
// tuple, read by nothing else, goes.
// CHECK: module @tuple_args {
// CHECK:   sdy.mesh @mesh = <["a"=2]>
// CHECK:   func.func @main(%arg0_0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg0_1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
// CHECK:     return %arg0_0 : tensor<8xf32>
// CHECK:   }
// CHECK: }
module @tuple_args attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}", xla.sdy.tuple_args_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>, <@mesh, [{}]>]>"}} {
  func.func @main(%arg0: tuple<tensor<8xf32>, tensor<4xf32>>) -> tensor<8xf32> {
    %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tensor<8xf32>, tensor<4xf32>>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass sdy-flatten-call-graph
// INPUT: file
// flatten_call_graph.cc cloneFuncRecursively (beyond upstream, whose clones grow without bound): each
// function calls the next twice, so a full flattening would clone 2^16 functions of 2 KB; past
// 16 MiB of clones the pass stops with an error at the call being cloned.
// expected-error {{flattening the call graph would clone more than 16777216 bytes of functions}}
// expected-error-at {{78:3}}
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @f0(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f0(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f0(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f1(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f1(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f1(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f2(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f2(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f2(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f3(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f3(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f3(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f4(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f4(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f4(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f5(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f5(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f5(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f6(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f6(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f6(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f7(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f7(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f7(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f8(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f8(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f8(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f9(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f9(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f9(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f10(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f10(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f10(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f11(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f11(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f11(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f12(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f12(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f12(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f13(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f13(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f13(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f14(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f14(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f14(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  %0 = call @f15(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = call @f15(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
func.func private @f15(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {pad = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"} {
  return %arg0 : tensor<2xf32>
}
// -----
// CMD: convert
// ARGS: --pass sdy-flatten-call-graph{manual-computation-bodies-only=true} --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// sdy_round_trip_shard_map_import.mlir @non_flat_manual_and_non_manual_interleaved (run there after
// the pin's test flattening): @scale holds a manual computation of its own and is called by a body
// called twice and twice from @main. The calls are visited callee first: @scale's body keeps its
// name but calls a clone of @leaf (@leaf_0); the first call of the outer body clones @scale for it
// (@scale_3, with @leaf_0_1), the second clones the body, and so @scale_3 again (@scale_3_6, with
// @leaf_0_1_4) -- the names the pin's test checks. @main's own calls keep @scale. Then, as the
// pin's shard_map_import.cc does last, each function called inside a manual computation gets
// sdy.func_manual_axes: its caller's own axes, then those of the manual computations around the call
// (@scale_3 {"p"} and @scale_3_6 {"q"}, as the test's @foo_3 and @foo_3_6; @leaf_0 {"r"}; @leaf_0_1
// {"p", "r"} and @leaf_0_1_4 {"q", "r"}).
// CHECK: sdy.mesh @mesh = <["p"=2, "q"=2, "r"=2]>
// CHECK: func.func @main(%arg0: tensor<16x2xf32>, %arg1: tensor<8x2xf32>) -> (tensor<16x2xf32>, tensor<8x2xf32>) {
// CHECK:   %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"p"}, {}]>] out_shardings=[<@mesh, [{"p"}, {}]>] manual_axes={"p"} (%arg0_0: tensor<8x2xf32>) {
// CHECK:     %0_0 = call @scale_3(%arg0_0) : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:     sdy.return %0_0 : tensor<8x2xf32>
// CHECK:   } : (tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK:   %5 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"q"}, {}]>] out_shardings=[<@mesh, [{"q"}, {}]>] manual_axes={"q"} (%arg0_1: tensor<8x2xf32>) {
// CHECK:     %0_1 = call @scale_3_6(%arg0_1) : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:     sdy.return %0_1 : tensor<8x2xf32>
// CHECK:   } : (tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK:   %6 = call @scale(%arg1) : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:   %7 = call @scale(%6) : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:   return %5, %7 : tensor<16x2xf32>, tensor<8x2xf32>
// CHECK: }
// CHECK: func.func private @scale(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
// CHECK:   %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"r"}, {}]>] out_shardings=[<@mesh, [{"r"}, {}]>] manual_axes={"r"} (%arg0_0: tensor<4x2xf32>) {
// CHECK:     %0_0 = call @leaf_0(%arg0_0) : (tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:     sdy.return %0_0 : tensor<4x2xf32>
// CHECK:   } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:   return %2 : tensor<8x2xf32>
// CHECK: }
// CHECK: func.func private @leaf(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
// CHECK:   %0 = stablehlo.abs %arg0 : tensor<4x2xf32>
// CHECK:   return %0 : tensor<4x2xf32>
// CHECK: }
// CHECK: func.func private @leaf_0(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"r"}>, sdy.original_func_name = "leaf"} {
// CHECK:   %0 = stablehlo.abs %arg0 : tensor<4x2xf32>
// CHECK:   return %0 : tensor<4x2xf32>
// CHECK: }
// CHECK: func.func private @leaf_0_1(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"p", "r"}>, sdy.original_func_name = "leaf"} {
// CHECK:   %0 = stablehlo.abs %arg0 : tensor<4x2xf32>
// CHECK:   return %0 : tensor<4x2xf32>
// CHECK: }
// CHECK: func.func private @scale_3(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"p"}>, sdy.original_func_name = "scale"} {
// CHECK:   %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"r"}, {}]>] out_shardings=[<@mesh, [{"r"}, {}]>] manual_axes={"r"} (%arg0_0: tensor<4x2xf32>) {
// CHECK:     %0_0 = call @leaf_0_1(%arg0_0) : (tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:     sdy.return %0_0 : tensor<4x2xf32>
// CHECK:   } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:   return %2 : tensor<8x2xf32>
// CHECK: }
// CHECK: func.func private @leaf_0_1_4(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"q", "r"}>, sdy.original_func_name = "leaf"} {
// CHECK:   %0 = stablehlo.abs %arg0 : tensor<4x2xf32>
// CHECK:   return %0 : tensor<4x2xf32>
// CHECK: }
// CHECK: func.func private @scale_3_6(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"q"}>, sdy.original_func_name = "scale"} {
// CHECK:   %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"r"}, {}]>] out_shardings=[<@mesh, [{"r"}, {}]>] manual_axes={"r"} (%arg0_0: tensor<4x2xf32>) {
// CHECK:     %0_0 = call @leaf_0_1_4(%arg0_0) : (tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:     sdy.return %0_0 : tensor<4x2xf32>
// CHECK:   } : (tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK:   return %2 : tensor<8x2xf32>
// CHECK: }
sdy.mesh @mesh = <["p"=2, "q"=2, "r"=2]>
func.func @main(%arg0: tensor<16x2xf32>, %arg1: tensor<8x2xf32>) -> (tensor<16x2xf32>, tensor<8x2xf32>) {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22p\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22p\22}>"}} : (tensor<16x2xf32>) -> tensor<8x2xf32>
  %1 = call @xla.sdy.manual_computation_body_7(%0) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22p\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22p\22}, {}]>]>"}} : (tensor<8x2xf32>) -> tensor<16x2xf32>
  %3 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%2) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22q\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22q\22}>"}} : (tensor<16x2xf32>) -> tensor<8x2xf32>
  %4 = call @xla.sdy.manual_computation_body_7(%3) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %5 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%4) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22q\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22q\22}, {}]>]>"}} : (tensor<8x2xf32>) -> tensor<16x2xf32>
  %6 = call @scale(%arg1) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %7 = call @scale(%6) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %5, %7 : tensor<16x2xf32>, tensor<8x2xf32>
}
func.func private @xla.sdy.manual_computation_body_7(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = call @scale(%arg0) : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
func.func private @scale(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22r\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22r\22}>"}} : (tensor<8x2xf32>) -> tensor<4x2xf32>
  %1 = call @xla.sdy.manual_computation_body_8(%0) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22r\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22r\22}, {}]>]>"}} : (tensor<4x2xf32>) -> tensor<8x2xf32>
  return %2 : tensor<8x2xf32>
}
func.func private @xla.sdy.manual_computation_body_8(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = call @leaf(%arg0) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
func.func private @leaf(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
// -----
// CMD: convert
// ARGS: --pass sdy-flatten-call-graph{manual-computation-bodies-only=true} --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// sdy_round_trip_shard_map_import.mlir
// @non_flat_same_non_manual_called_by_another_non_manual_and_parent_manual_comp_multiple_axes_on_one_manual_axes
// (after the pin's test flattening; our names @leaf and @mid for its @bar and @foo): the last step of
// shard_map_import.cc gives every function called inside a manual computation
// sdy.func_manual_axes, the axes of its caller's attribute then of each manual computation around the
// call, outermost first: @mid_1_3, called in the inner body ({"b"}) nested in the outer ({"a", "d"}),
// gets {"a", "d", "b"} and passes it on to @leaf_0_2; @leaf_5, called in the outer body only,
// {"a", "d"} -- the clone names and axes the pin's test checks. The clones nothing calls
// (@leaf_0, @mid_1) get none.
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>
// CHECK: func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK:   %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "d"}]>] out_shardings=[<@mesh, [{"a", "d"}]>] manual_axes={"a", "d"} (%arg0_0: tensor<4xf32>) {
// CHECK:     %2_0 = sdy.manual_computation(%arg0_0) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"} (%arg0_0_0: tensor<2xf32>) {
// CHECK:       %0_0 = call @mid_1_3(%arg0_0_0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:       sdy.return %0_0 : tensor<2xf32>
// CHECK:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     %3 = stablehlo.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK:     %4 = call @leaf_5(%3) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:     sdy.return %2_0 : tensor<4xf32>
// CHECK:   } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK:   return %2 : tensor<16xf32>
// CHECK: }
// CHECK: func.func private @leaf(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
// CHECK: func.func private @mid(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK:   %0 = call @leaf(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
// CHECK: func.func private @leaf_0(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {sdy.original_func_name = "leaf"} {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
// CHECK: func.func private @mid_1(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {sdy.original_func_name = "mid"} {
// CHECK:   %0 = call @leaf_0(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
// CHECK: func.func private @leaf_0_2(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"a", "d", "b"}>, sdy.original_func_name = "leaf"} {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
// CHECK: func.func private @mid_1_3(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"a", "d", "b"}>, sdy.original_func_name = "mid"} {
// CHECK:   %0 = call @leaf_0_2(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
// CHECK: func.func private @leaf_5(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"a", "d"}>, sdy.original_func_name = "leaf"} {
// CHECK:   %0 = stablehlo.negate %arg0 : tensor<2xf32>
// CHECK:   return %0 : tensor<2xf32>
// CHECK: }
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>
func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22, \22d\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22, \22d\22}>"}} : (tensor<16xf32>) -> tensor<4xf32>
  %1 = call @xla.sdy.manual_computation_body_outer(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22, \22d\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22, \22d\22}]>]>"}} : (tensor<4xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
func.func private @leaf(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.negate %arg0 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @mid(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @leaf(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @xla.sdy.manual_computation_body_outer(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<4xf32>) -> tensor<2xf32>
  %1 = call @xla.sdy.manual_computation_body_inner(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>"}} : (tensor<2xf32>) -> tensor<4xf32>
  %3 = stablehlo.constant dense<1.000000e+00> : tensor<2xf32>
  %4 = call @leaf(%3) : (tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<4xf32>
}
func.func private @xla.sdy.manual_computation_body_inner(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @mid(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
// CMD: convert
// ARGS: --to sdy
// INPUT: file
// sdy_round_trip/pipelines.cc addSdyRoundTripImportPipeline, with
// sdy_round_trip_shard_map_import.mlir @non_flat_same_manual_comp_called_by_another_manual_comp_and_non_manual_comp
// (the clone called inside the manual computation gets sdy.func_manual_axes = {"a"}, the function
// called outside none) and Shardy's unflatten_call_graph.mlir @same_func_different_manual_axes (functions
// of one origin with other manual axes are not merged): @helper is called from the body and from
// @main. The flattening gives the body its own clone @helper_0; once the body is a manual
// computation, @helper_0 runs under {"a"} and @helper does not, so sdy-unflatten-call-graph keeps
// them apart (without the attribute both calls would name @helper_0, the first called).
// CHECK: module @helper_in_and_out {
// CHECK:   sdy.mesh @mesh = <["a"=2]>
// CHECK:   func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
// CHECK:     %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg0_0: tensor<4xf32>) {
// CHECK:       %0_0 = call @helper_0(%arg0_0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:       sdy.return %0_0 : tensor<4xf32>
// CHECK:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:     %3 = call @helper(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK:     return %2, %3 : tensor<8xf32>, tensor<4xf32>
// CHECK:   }
// CHECK:   func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     %0 = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK:     return %0 : tensor<4xf32>
// CHECK:   }
// CHECK:   func.func private @helper_0(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK:     %0 = stablehlo.negate %arg0 : tensor<4xf32>
// CHECK:     return %0 : tensor<4xf32>
// CHECK:   }
// CHECK: }
module @helper_in_and_out attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}"}} {
  func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8xf32>) -> tensor<4xf32>
    %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}]>]>"}} : (tensor<4xf32>) -> tensor<8xf32>
    %3 = call @helper(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    return %2, %3 : tensor<8xf32>, tensor<4xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
// -----
// CMD: convert
// ARGS: --pass sdy-unflatten-call-graph
// INPUT: file
// Shardy transforms/export/test/unflatten_call_graph.mlir @same_func_different_manual_axes and
// @calls_same_func_with_manual_axes: functions of one origin merge only when their
// sdy.func_manual_axes agree too (@f_1 into @f, both {"x"}; @f_0, {"y"}, stays); every function
// loses the attribute, its `attributes` keyword with it (written on a line of its own here, as the
// Shardy test writes it).
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]>
// CHECK: func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
// CHECK:   %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   %1 = call @f_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   %2 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:   return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   return %arg0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f_0(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   return %arg0 : tensor<8xf32>
// CHECK: }
// CHECK: func.func private @f_1(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK:   return %arg0 : tensor<8xf32>
// CHECK: }
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @f_1(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32>
    attributes {sdy.func_manual_axes = #sdy<manual_axes{"x"}>} {
  return %arg0 : tensor<8xf32>
}
func.func private @f_0(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"y"}>, sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
func.func private @f_1(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {sdy.func_manual_axes = #sdy<manual_axes{"x"}>, sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// shard_map_import.cc "Set func manual axes" looks the callee of every call inside a manual
// computation up (sdy::getFuncOpOrDie, fatal upstream): a call of a function the module lacks is an
// error at the call.
// expected-error {{Failed to lookup function: missing}}
// expected-error-at {{4:5}}
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    %1 = call @missing(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----
// CMD: convert
// ARGS: --pass xla-sdy-round-trip-shard-map-import
// INPUT: file
// Beyond upstream (whose MLIR parser stops at the type): a stray '>' in the
// LocalToGlobalShape call's signature is refused, located at the call, rather
// than moving the signature's arrow and writing a manual computation whose
// brackets do not balance (found by mlir_import_fuzz).
// expected-error {{expected a signature '(L) -> G' on the xla.sdy.LocalToGlobalShape call}}
// expected-error-at {{5:3}}
sdy.mesh @mesh = <["b"=2]>
func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<16xf32>) -> tensor<8xf32>
  %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22b\22}]>]>"}} : (tensoprivatxf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
