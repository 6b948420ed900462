// Issue 9 item 8: the export pipeline (xla-sdy-stablehlo-export-pipeline,
// `convert --to hlo`) through module::runPasses.
//
// BM_ExportPipeline/MB: a module of about MB megabytes, made of one function
// repeated with fresh names (composition per function, 3.2 KB):
//   2 arguments and 1 result with sdy.sharding;
//   stablehlo.dot_general and stablehlo.add with sharding_per_value,
//   stablehlo.multiply without;
//   sdy.sharding_constraint, sdy.reshard, sdy.all_gather, sdy.constant;
//   a two-result stablehlo.reduce with a reducer region;
//   one sdy.manual_computation (one operand, manual axis "x") whose body
//   holds a sharded stablehlo.add, lowered to copies, the custom calls and a
//   call of an outlined body.
// Sizes: 1 and 4 MB by default; SB_EXPORT_BENCH_MB=16,500 picks others
// (at today's 7-13 MB/s and 14x peak heap, 500 MB takes about a minute
// and 7 GB).
//
// BM_ManualComputations/N/oneFunction: N manual computations (1 operand, a
// one-op body), each in a function of its own (0) or all in one function (1);
// the time per manual computation is the `us/manual` counter. N is 10,000
// by default; SB_MANUAL_BENCH_N=1000,2000 picks others.
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

std::string exportModule(size_t bytes) {
  std::string m = header();
  m.reserve(bytes + 4096);
  for (size_t n = 0; m.size() < bytes; ++n) m += function(n);
  return m + "}\n";
}

std::string manualModule(int count, bool oneFunction) {
  auto manual = [](int i, const std::string& operand) {
    std::string v = "%v" + std::to_string(i);
    return "    " + v + " = sdy.manual_computation(" + operand +
           ") in_shardings=[<@mesh, [{\"x\"}, {}]>] out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} "
           "(%b" + std::to_string(i) + ": tensor<8x64xf32>) {\n"
           "      %w" + std::to_string(i) + " = stablehlo.negate %b" + std::to_string(i) +
           " : tensor<8x64xf32>\n"
           "      sdy.return %w" + std::to_string(i) + " : tensor<8x64xf32>\n"
           "    } : (tensor<16x64xf32>) -> tensor<16x64xf32>\n";
  };
  std::string m = header();
  const std::string sig =
      "(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}) -> tensor<16x64xf32> {\n";
  if (oneFunction) {
    m += "  func.func @main" + sig;
    std::string last = "%arg0";
    for (int i = 0; i < count; ++i) {
      m += manual(i, last);
      last = "%v" + std::to_string(i);
    }
    m += "    return " + last + " : tensor<16x64xf32>\n  }\n";
  } else {
    for (int i = 0; i < count; ++i)
      m += "  func.func @f" + std::to_string(i) + sig + manual(i, "%arg0") + "    return %v" + std::to_string(i) +
           " : tensor<16x64xf32>\n  }\n";
  }
  return m + "}\n";
}

std::vector<module::PassSpec> pipeline() {
  auto spec = module::parsePassSpec("xla-sdy-stablehlo-export-pipeline");
  return {*spec};
}

// Runs the pipeline on `text` per iteration; sets MB/s and peak counters.
void run(benchmark::State& state, const std::string& text) {
  std::vector<module::PassSpec> passes = pipeline();
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
  state.counters["MB/s"] = benchmark::Counter(mb * static_cast<double>(state.iterations()),
                                              benchmark::Counter::kIsRate);
  state.counters["input_MB"] = mb;
  state.counters["peak_MB"] = static_cast<double>(peak) / 1e6;
  state.counters["peak/input"] = static_cast<double>(peak) / static_cast<double>(text.size());
}

void BM_ExportPipeline(benchmark::State& state) {
  std::string text = exportModule(static_cast<size_t>(state.range(0)) * 1000 * 1000);
  run(state, text);
}

void BM_ManualComputations(benchmark::State& state) {
  int count = static_cast<int>(state.range(0));
  std::string text = manualModule(count, state.range(1) != 0);
  run(state, text);
  // Inverted rate: seconds per (count * 1e-6) manual computations = us each.
  state.counters["us/manual"] = benchmark::Counter(static_cast<double>(count) * 1e-6,
                                                   benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
}

// The pipeline's passes in order (pipelines.cc), each timed alone on the
// text the passes before it write, on a module of SB_PASS_BENCH_MB (2) MB:
// where the time and the memory of BM_ExportPipeline go.
const std::vector<const char*> kSteps = {"xla-sdy-export-ops", "xla-sdy-stablehlo-round-trip-shard-map-export",
                                         "symbol-dce", "xla-sdy-stablehlo-export-shardings"};

size_t passBenchBytes() {
  const char* env = std::getenv("SB_PASS_BENCH_MB");
  return static_cast<size_t>(env ? std::atoll(env) : 2) * 1000 * 1000;
}

void BM_ExportPass(benchmark::State& state) {
  std::string text = exportModule(passBenchBytes());
  size_t step = static_cast<size_t>(state.range(0));
  for (size_t i = 0; i < step; ++i) {
    auto r = module::runPasses(text, {*module::parsePassSpec(kSteps[i])});
    if (!r.has_value()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    text = std::move(r->text);
  }
  std::vector<module::PassSpec> passes = {*module::parsePassSpec(kSteps[step])};
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
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(text.size()) / 1e6 * static_cast<double>(state.iterations()),
                                              benchmark::Counter::kIsRate);
  state.counters["peak/input"] = static_cast<double>(peak) / static_cast<double>(text.size());
}

// The op tree alone (every pass parses one).
void BM_ParseOpTree(benchmark::State& state) {
  std::string text = exportModule(passBenchBytes());
  int64_t peak = 0;
  for (auto _ : state) {
    int64_t before = gHeld.load();
    gPeak.store(before);
    auto r = module::parseOpTree(text);
    if (!r.has_value()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r->ops.data());
    peak = std::max(peak, gPeak.load() - before);
  }
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(text.size()) / 1e6 * static_cast<double>(state.iterations()),
                                              benchmark::Counter::kIsRate);
  state.counters["peak/input"] = static_cast<double>(peak) / static_cast<double>(text.size());
}

}  // namespace

int main(int argc, char** argv) {
  auto* b = benchmark::RegisterBenchmark("BM_ExportPipeline", BM_ExportPipeline);
  b->ArgName("MB")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime()->MeasureProcessCPUTime();
  for (int64_t mb : listFromEnv("SB_EXPORT_BENCH_MB", {1, 4})) b->Arg(mb);
  auto* m = benchmark::RegisterBenchmark("BM_ManualComputations", BM_ManualComputations);
  m->ArgNames({"N", "oneFunction"})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime()->MeasureProcessCPUTime();
  for (int step = 0; step < static_cast<int>(kSteps.size()); ++step)
    benchmark::RegisterBenchmark(("BM_ExportPass/" + std::string(kSteps[static_cast<size_t>(step)])).c_str(),
                                 BM_ExportPass)
        ->Arg(step)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  benchmark::RegisterBenchmark("BM_ParseOpTree", BM_ParseOpTree)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3)
      ->UseRealTime()
      ->MeasureProcessCPUTime();
  for (int64_t n : listFromEnv("SB_MANUAL_BENCH_N", {10000})) m->Args({n, 0})->Args({n, 1});
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
