// Benchmarks for the HLO sharding model and text (issue 3, "Performance").
#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "shardbridge/hlo/text.h"

namespace {

using namespace shardbridge::hlo;

constexpr const char* kV2 = "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}";

void BM_ParsePrintV2(benchmark::State& state) {
  for (auto _ : state) {
    auto s = parseSharding(kV2);
    std::string out = s->toString();
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ParsePrintV2);

void BM_ParseV2(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parseSharding(kV2));
}
BENCHMARK(BM_ParseV2);

void BM_PrintV2(benchmark::State& state) {
  const HloSharding s = parseSharding(kV2).value();
  for (auto _ : state) benchmark::DoNotOptimize(s.toString());
}
BENCHMARK(BM_PrintV2);

void BM_PrintReplicated(benchmark::State& state) {
  const HloSharding s = HloSharding::replicate();
  for (auto _ : state) benchmark::DoNotOptimize(s.toString());
}
BENCHMARK(BM_PrintReplicated);

void BM_ParsePrintSubgroups(benchmark::State& state) {
  const char* text = "{devices=[2,2,2,2]<=[16] last_tile_dims={manual, replicated}}";
  for (auto _ : state) benchmark::DoNotOptimize(parseSharding(text)->toString());
}
BENCHMARK(BM_ParsePrintSubgroups);

// A 65,536-device V1 list ([256,256], random order).
std::string bigV1() {
  std::vector<int64_t> ids(65536);
  std::iota(ids.begin(), ids.end(), 0);
  std::shuffle(ids.begin(), ids.end(), std::mt19937_64(42));
  std::string text = "{devices=[256,256]";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) text += ',';
    text += std::to_string(ids[i]);
  }
  return text + "}";
}

void BM_ParseV1_65536(benchmark::State& state) {
  const std::string text = bigV1();
  for (auto _ : state) benchmark::DoNotOptimize(parseSharding(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseV1_65536)->Unit(benchmark::kMicrosecond);

void BM_PrintV1_65536(benchmark::State& state) {
  const HloSharding s = parseSharding(bigV1()).value();
  for (auto _ : state) benchmark::DoNotOptimize(s.toString());
}
BENCHMARK(BM_PrintV1_65536)->Unit(benchmark::kMicrosecond);

// Iota creation and printing at 8 and at 1,048,576 devices: the cost must not
// depend on the device count (nothing is materialised).
void BM_IotaCreate(benchmark::State& state) {
  const int64_t side = state.range(0);
  const std::vector<int64_t> dims = {side, side * 2};
  const std::vector<int64_t> reshape = {side * 2, side};
  const std::vector<int> perm = {1, 0};
  for (auto _ : state) {
    auto t = TileAssignment::iota(dims, reshape, perm);
    benchmark::DoNotOptimize(t);
    if (t->isMaterialized()) state.SkipWithError("materialised");
  }
  state.SetLabel(std::to_string(side * side * 2) + " devices");
}
BENCHMARK(BM_IotaCreate)->Arg(2)->Arg(724);  // 8 and 1,048,352 (~2^20) devices

void BM_IotaParsePrint(benchmark::State& state) {
  const std::string text = state.range(0) == 8 ? "{devices=[2,4]<=[4,2]T(1,0)}"
                                               : "{devices=[1024,1024]<=[1024,1024]T(1,0)}";
  for (auto _ : state) benchmark::DoNotOptimize(parseSharding(text)->toString());
  state.SetLabel(std::to_string(state.range(0)) + " devices");
}
BENCHMARK(BM_IotaParsePrint)->Arg(8)->Arg(1048576);

void BM_IotaPartialTile(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::vector<int64_t> dims = {n / 4, 2, 2};
  const std::vector<int64_t> reshape = {2, n / 2};
  const std::vector<int> perm = {1, 0};
  const TileAssignment t = TileAssignment::iota(dims, reshape, perm).value();
  for (auto _ : state) {
    auto s = HloSharding::partialTile(t);
    benchmark::DoNotOptimize(s);
    if (s->tileAssignment().isMaterialized()) state.SkipWithError("materialised");
  }
  state.SetLabel(std::to_string(n) + " devices");
}
BENCHMARK(BM_IotaPartialTile)->Arg(8)->Arg(1048576);

void BM_IotaValueAt(benchmark::State& state) {
  const int64_t n = state.range(0);
  const TileAssignment t =
      TileAssignment::iota(std::vector<int64_t>{n / 2, 2}, std::vector<int64_t>{2, n / 2},
                           std::vector<int>{1, 0})
          .value();
  const std::vector<int64_t> index = {n / 2 - 1, 1};
  for (auto _ : state) benchmark::DoNotOptimize(t.valueAt(index));
}
BENCHMARK(BM_IotaValueAt)->Arg(8)->Arg(1048576);

}  // namespace

BENCHMARK_MAIN();
