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

// --- a counting allocator: current and peak heap bytes ---------------------
namespace {
std::atomic<int64_t> gHeld{0};
std::atomic<int64_t> gPeak{0};

void noteAlloc(void* p) {
  if (!p) return;
  int64_t now = gHeld.fetch_add(static_cast<int64_t>(malloc_usable_size(p))) +
                static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = gPeak.load(std::memory_order_relaxed);
  while (now > peak && !gPeak.compare_exchange_weak(peak, now)) {
  }
}
void noteFree(void* p) {
  if (p) gHeld.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)));
}
void* countedAlloc(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  noteAlloc(p);
  return p;
}
}  // namespace

void* operator new(size_t n) { return countedAlloc(n); }
void* operator new[](size_t n) { return countedAlloc(n); }
void operator delete(void* p) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete[](void* p) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  noteFree(p);
  std::free(p);
}

namespace {

using namespace shardbridge;

// The function and module header of bench/module_export_bench.cc.
std::string function(size_t n) {
  std::string f = "f" + std::to_string(n);
  return "  func.func @" + f +
         "(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}, "
         "%arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {}]>}) -> "
         "(tensor<16x64xf32> {jax.result_info = \"result\", sdy.sharding = #sdy.sharding<@mesh, [{\"x\", \"y\"}, {}]>}) {\n"
         "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
         "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}], unreduced={\"y\"}>]>} : "
         "(tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>\n"
         "    %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {\"y\":(2)2}]>]>} : tensor<16x64xf32>\n"
         "    %2 = sdy.sharding_constraint %1 <@mesh, [{\"x\", \"y\"}, {}]> : tensor<16x64xf32>\n"
         "    %3 = stablehlo.multiply %2, %2 : tensor<16x64xf32>\n"
         "    %4 = sdy.reshard %3 <@mesh, [{\"y\"}, {\"x\"}]> : tensor<16x64xf32>\n"
         "    %5 = sdy.all_gather [{}, {\"x\"}] %4 out_sharding=<@mesh, [{\"y\"}, {}]> : tensor<16x64xf32>\n"
         "    %cst = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<0.000000e+00> : tensor<f32>\n"
         "    %6:2 = stablehlo.reduce(%5 init: %cst), (%2 init: %cst) across dimensions = [1] "
         "{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, <@mesh, [{\"y\"}]>]>} : "
         "(tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>)\n"
         "     reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>)  {\n"
         "      %7 = stablehlo.add %a, %c : tensor<f32>\n"
         "      %8 = stablehlo.add %b, %d : tensor<f32>\n"
         "      stablehlo.return %7, %8 : tensor<f32>, tensor<f32>\n"
         "    }\n"
         "    %9 = sdy.manual_computation(%5) in_shardings=[<@mesh, [{\"x\"}, {}]>] "
         "out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%arg2: tensor<8x64xf32>) {\n"
         "      %10 = stablehlo.add %arg2, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}]>]>} : tensor<8x64xf32>\n"
         "      sdy.return %10 : tensor<8x64xf32>\n"
         "    } : (tensor<16x64xf32>) -> tensor<16x64xf32>\n"
         "    %11 = stablehlo.add %9, %3 : tensor<16x64xf32>\n"
         "    return %11 : tensor<16x64xf32>\n"
         "  }\n";
}

std::string header() {
  return "module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {\n"
         "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n";
}

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

// A comma-separated list of integers from the environment, or `fallback`.
std::vector<int64_t> listFromEnv(const char* name, std::vector<int64_t> fallback) {
  std::vector<int64_t> v;
  if (const char* env = std::getenv(name)) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) v.push_back(std::atoll(item.c_str()));
  }
  return v.empty() ? fallback : v;
}

}  // namespace

int main(int argc, char** argv) {
  auto* b = benchmark::RegisterBenchmark("BM_ImportPipeline", BM_ImportPipeline);
  b->ArgNames({"MB", "roundTrip"})->Unit(benchmark::kMillisecond)->Iterations(3);
  for (int64_t mb : listFromEnv("SB_IMPORT_BENCH_MB", {1, 4})) b->Args({mb, 0})->Args({mb, 1});
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
