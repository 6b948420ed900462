// Issue 10 item 7: the import pipelines (`convert --to sdy`) through
// module::runPasses, on what the export pipelines write.
//
// BM_ImportPipeline/MB/roundTrip: a module of about MB megabytes in the form
// `convert --to hlo` (roundTrip 0) or `convert --to hlo --round-trip`
// (roundTrip 1) writes for bench/module_export_bench.cc's function (two
// sharded arguments, a sharded result, sharded ops, a constraint, a reshard,
// a collective, a constant, a two-result reduce and one manual computation),
// repeated with fresh names (each copy with its own outlined body), imported
// by the pipeline `convert --to sdy` picks (module::importPipelineFor):
// xla-sdy-stablehlo-import-pipeline, which raises each manual computation
// back, or xla-sdy-round-trip-import-pipeline{import-op-shardings=true}.
// Sizes: 1 and 4 MB by default; SB_IMPORT_BENCH_MB=16,500 picks others.
//
// BM_ImportManualComputations/N/roundTrip: N manual computations chained in
// one function, exported, then imported; `us/manual` is the cost of each.
// N is 10,000 by default; SB_MANUAL_BENCH_N=1000,2000 picks others.
//
// BM_ImportPass/<pass>: each step of the StableHLO import alone, on the text
// the steps before it write, on a module of SB_PASS_BENCH_MB (2) MB.
//
// Counters: MB/s of input; peak_MB, the most heap bytes held at once during
// one run above the bytes held before it (a counting operator new in this
// binary); peak/input.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include "shardbridge/module/op_tree.h"
#include "shardbridge/module/pipeline.h"

#include "module_bench_common.h"

namespace {

using namespace shardbridge;

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// One function exported, then repeated with fresh names up to `bytes`.
std::string importInput(size_t bytes, bool roundTrip) {
  std::string one = header() + function(0) + "}\n";
  auto spec = module::parsePassSpec(roundTrip ? "xla-sdy-round-trip-export-pipeline" : "xla-sdy-stablehlo-export-pipeline");
  auto out = module::runPasses(one, {*spec});
  if (!out.has_value()) return {};
  const std::string& t = out->text;
  size_t firstLine = t.find('\n') + 1;
  size_t close = t.rfind("}\n");
  std::string head = t.substr(0, firstLine);
  std::string body = t.substr(firstLine, close - firstLine);
  std::string m = head;
  m.reserve(bytes + body.size() + 4096);
  for (size_t n = 0; m.size() < bytes; ++n) {
    std::string copy = body;
    replaceAll(copy, "@f0", "@f" + std::to_string(n));
    replaceAll(copy, "manual_computation_body", "manual_computation_body_c" + std::to_string(n));
    m += copy;
  }
  return m + "}\n";
}

std::vector<module::PassSpec> importPipeline(const std::string& text) {
  std::string name = module::importPipelineFor(text);
  if (name == "xla-sdy-round-trip-import-pipeline") name += "{import-op-shardings=true}";
  return {*module::parsePassSpec(name)};
}

void measure(benchmark::State& state, const std::string& text, const std::vector<module::PassSpec>& passes) {
  int64_t peak = 0;
  for (auto _ : state) {
    int64_t before = gHeld.load();
    gPeak.store(before);
    auto r = module::runPasses(text, passes);
    if (!r.has_value()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r->text.data());
    peak = std::max(peak, gPeak.load() - before);
  }
  double mb = static_cast<double>(text.size()) / 1e6;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["MB/s"] = benchmark::Counter(mb * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["input_MB"] = mb;
  state.counters["peak_MB"] = static_cast<double>(peak) / 1e6;
  state.counters["peak/input"] = static_cast<double>(peak) / static_cast<double>(text.size());
}

void BM_ImportPipeline(benchmark::State& state) {
  std::string text = importInput(static_cast<size_t>(state.range(0)) * 1000 * 1000, state.range(1) != 0);
  if (text.empty()) {
    state.SkipWithError("the export of the bench function failed");
    return;
  }
  measure(state, text, importPipeline(text));
}

// N manual computations chained in one function (a shard_map per layer of
// an unrolled model), exported by `convert --to hlo` (roundTrip 0) or
// `--to hlo --round-trip` (1), then imported: the `us/manual` counter is
// the import's cost per manual computation, which stays flat as N grows
// only if no step walks the function once per manual computation.
void BM_ImportManualComputations(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const bool roundTrip = state.range(1) != 0;
  std::string m = header();
  m += "  func.func @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}) -> "
       "tensor<16x64xf32> {\n";
  std::string last = "%arg0";
  for (int i = 0; i < count; ++i) {
    std::string k = std::to_string(i);
    m += "    %v" + k + " = sdy.manual_computation(" + last +
         ") in_shardings=[<@mesh, [{\"x\"}, {}]>] out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%b" + k +
         ": tensor<8x64xf32>) {\n      %w" + k + " = stablehlo.negate %b" + k +
         " : tensor<8x64xf32>\n      sdy.return %w" + k + " : tensor<8x64xf32>\n    } : (tensor<16x64xf32>) -> "
         "tensor<16x64xf32>\n";
    last = "%v" + k;
  }
  m += "    return " + last + " : tensor<16x64xf32>\n  }\n}\n";
  auto exported = module::runPasses(
      m, {*module::parsePassSpec(roundTrip ? "xla-sdy-round-trip-export-pipeline" : "xla-sdy-stablehlo-export-pipeline")});
  if (!exported.has_value()) {
    state.SkipWithError(exported.error().message.c_str());
    return;
  }
  measure(state, exported->text, importPipeline(exported->text));
  state.counters["us/manual"] = benchmark::Counter(static_cast<double>(count) * 1e-6,
                                                   benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
}

// The StableHLO import's steps (pipelines.cc), in order.
const std::vector<const char*> kSteps = {
    "xla-sdy-import-shardings", "xla-stablehlo-round-trip-shard-map-import", "symbol-dce", "xla-sdy-import-constants",
    "xla-sdy-round-trip-import-shardy-attrs", "xla-sdy-round-trip-shard-map-import",
    "xla-sdy-import-sdy-custom-calls", "xla-sdy-open-while-free-vars-sharding"};

void BM_ImportPass(benchmark::State& state) {
  const char* env = std::getenv("SB_PASS_BENCH_MB");
  std::string text = importInput(static_cast<size_t>(env ? std::atoll(env) : 2) * 1000 * 1000, false);
  size_t step = static_cast<size_t>(state.range(0));
  for (size_t i = 0; i < step; ++i) {
    auto r = module::runPasses(text, {*module::parsePassSpec(kSteps[i])});
    if (!r.has_value()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    text = std::move(r->text);
  }
  measure(state, text, {*module::parsePassSpec(kSteps[step])});
}

}  // namespace

int main(int argc, char** argv) {
  auto* b = benchmark::RegisterBenchmark("BM_ImportPipeline", BM_ImportPipeline);
  b->ArgNames({"MB", "roundTrip"})->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime()->MeasureProcessCPUTime();
  for (int64_t mb : listFromEnv("SB_IMPORT_BENCH_MB", {1, 4})) b->Args({mb, 0})->Args({mb, 1});
  auto* m = benchmark::RegisterBenchmark("BM_ImportManualComputations", BM_ImportManualComputations);
  m->ArgNames({"N", "roundTrip"})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime()->MeasureProcessCPUTime();
  for (int64_t n : listFromEnv("SB_MANUAL_BENCH_N", {10000})) m->Args({n, 0})->Args({n, 1});
  for (int step = 0; step < static_cast<int>(kSteps.size()); ++step)
    benchmark::RegisterBenchmark(("BM_ImportPass/" + std::string(kSteps[static_cast<size_t>(step)])).c_str(),
                                 BM_ImportPass)
        ->Arg(step)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
