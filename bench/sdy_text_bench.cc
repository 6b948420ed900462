// Parse + verify + print of sdy shardings: the work `shardbridge sdy` does per
// attribute. Target (issue 2): <= 1 us for the sharding below.
#include <benchmark/benchmark.h>

#include <string>

#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace {

using namespace shardbridge;

constexpr const char* kSharding =
    R"(#sdy.sharding<@mesh, [{"x", "y":(2)2}, {?}], replicated={"z"}>)";
constexpr const char* kMesh = R"(<["x"=4, "y"=4, "z"=2]>)";

void BM_ParseVerifyPrint(benchmark::State& state) {
  sdy::Context ctx;
  sdy::MeshAttr mesh = *sdy::parseMesh(ctx, kMesh);
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  size_t bytes = 0;
  for (auto _ : state) {
    auto sharding = sdy::parseTensorSharding(ctx, kSharding);
    if (!sharding) state.SkipWithError("parse failed");
    auto ok = sdy::verifyTensorSharding(*sharding, lookup);
    if (!ok) state.SkipWithError("verify failed");
    std::string out = sdy::printTensorSharding(*sharding);
    bytes += out.size();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_ParseVerifyPrint);

void BM_Parse(benchmark::State& state) {
  sdy::Context ctx;
  for (auto _ : state) {
    auto sharding = sdy::parseTensorSharding(ctx, kSharding);
    benchmark::DoNotOptimize(sharding);
  }
}
BENCHMARK(BM_Parse);

// Parse only, over the shardings an exported module carries most: the
// stripped forms of mhlo.sharding-derived attributes. Counted per call with
// callgrind (docs/performance.md, "The sdy attribute parser").
constexpr const char* kParseCases[] = {
    R"(<@mesh, [{"x"}, {}]>)",
    R"(<@mesh, [{"x", "y"}, {}], replicated={"z"}>)",
    R"(<@mesh, [{"x":(1)2, ?}, {}]>)",
};

void BM_ParseTensorSharding(benchmark::State& state) {
  sdy::Context ctx;
  const char* text = kParseCases[state.range(0)];
  for (auto _ : state) {
    auto sharding = sdy::parseTensorSharding(ctx, text);
    if (!sharding) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(sharding);
  }
}
BENCHMARK(BM_ParseTensorSharding)->DenseRange(0, 2);

void BM_ParseTensorShardingPerValue(benchmark::State& state) {
  sdy::Context ctx;
  const char* text = R"(<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]>)";
  for (auto _ : state) {
    auto sharding = sdy::parseTensorShardingPerValue(ctx, text);
    if (!sharding) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(sharding);
  }
}
BENCHMARK(BM_ParseTensorShardingPerValue);

void BM_Print(benchmark::State& state) {
  sdy::Context ctx;
  auto sharding = *sdy::parseTensorSharding(ctx, kSharding);
  for (auto _ : state) {
    std::string out = sdy::printTensorSharding(sharding);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_Print);

void BM_Verify(benchmark::State& state) {
  sdy::Context ctx;
  sdy::MeshAttr mesh = *sdy::parseMesh(ctx, kMesh);
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  auto sharding = *sdy::parseTensorSharding(ctx, kSharding);
  for (auto _ : state) {
    auto ok = sdy::verifyTensorSharding(sharding, lookup);
    benchmark::DoNotOptimize(ok);
  }
}
BENCHMARK(BM_Verify);

}  // namespace

BENCHMARK_MAIN();
