// Whole-module conversion throughput (issue 5 item 1: a 500 MB module at
// >= 100 MB/s using at most ~3x its size in memory). The module is built in
// memory by repeating a realistic JAX-style function body (dot_general, add,
// sharding constraint, an op without sharding, a multi-result reduce) with
// varying value names, so that every op is scanned and every sharding
// converted (repeated texts hit the conversion cache, as in real modules).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "shardbridge/module/convert_module.h"

namespace {

using namespace shardbridge;

// A module of about `bytes` bytes in the sdy form.
std::string sdyModule(size_t bytes) {
  std::string m =
      "module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n";
  int f = 0;
  while (m.size() < bytes) {
    std::string n = std::to_string(f++);
    m += "  func.func private @f" + n +
         "(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}, "
         "%arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {}]>}) -> "
         "(tensor<16x64xf32> {jax.result_info = \"result\", sdy.sharding = #sdy.sharding<@mesh, [{\"x\", \"y\"}, {}]>}) {\n"
         "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
         "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}], unreduced={\"y\"}>]>} : "
         "(tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>\n"
         "    %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {\"y\":(2)2}]>]>} : tensor<16x64xf32>\n"
         "    %2 = sdy.sharding_constraint %1 <@mesh, [{\"x\", \"y\"}, {}]> : tensor<16x64xf32>\n"
         "    %3 = stablehlo.multiply %2, %2 : tensor<16x64xf32>\n"
         "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
         "    %4:2 = stablehlo.reduce(%3 init: %cst), (%2 init: %cst) across dimensions = [1] "
         "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, <@mesh, [{\"y\"}]>]>} : "
         "(tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>)\n"
         "     reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>)  {\n"
         "      %5 = stablehlo.add %a, %c : tensor<f32>\n"
         "      %6 = stablehlo.add %b, %d : tensor<f32>\n"
         "      stablehlo.return %5, %6 : tensor<f32>, tensor<f32>\n"
         "    }\n"
         "    return %3 : tensor<16x64xf32>\n"
         "  }\n";
  }
  m += "}\n";
  return m;
}

const std::string& sdyText() {
  static const std::string text = sdyModule(size_t{50} << 20);
  return text;
}

const std::string& hloText() {
  static const std::string text = [] {
    auto r = module::exportModule(sdyText());
    return r.has_value() ? r->text : std::string();
  }();
  return text;
}

void BM_ExportModule(benchmark::State& state) {
  const std::string& text = sdyText();
  for (auto _ : state) {
    auto r = module::exportModule(text);
    if (!r.has_value()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r->text.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(state.iterations() * text.size()) / 1e6,
                                              benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExportModule)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ImportModule(benchmark::State& state) {
  const std::string& text = hloText();
  module::ImportModuleOptions options;
  options.anyOrder.enabled = true;
  for (auto _ : state) {
    auto r = module::importModule(text, options);
    if (!r.has_value()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r->text.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(state.iterations() * text.size()) / 1e6,
                                              benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ImportModule)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
