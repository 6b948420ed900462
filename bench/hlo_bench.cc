// Benchmarks for the HLO sharding model and text (issue 3, "Performance").
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
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

// --- Issue 14's table: equality and materialisation -------------------------
//
// XLA's figures (median ns; upstream xla/hlo/ir/hlo_sharding.cc and
// tile_assignment.cc built -O3, measured side by side on the same machine):
// operator== of two equal shardings 23 ({replicated}), 6.0 (V2 partial
// replicate), 6.6 (manual+replicated subgroups), 6.0 ([1024,1024]<=[1048576]);
// materialising the 1,048,576-device array 286 us.

struct TableInput {
  const char* name;
  const char* text;
};
constexpr TableInput kTable[] = {
    {"Replicated", "{replicated}"},
    {"V2PartialReplicate", "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}"},
    {"ManualReplicatedSubgroups", "{devices=[2,2,2,2]<=[16] last_tile_dims={manual, replicated}}"},
    {"Iota1024x1024", "{devices=[1024,1024]<=[1048576]}"},
};

// Two shardings parsed separately (no shared state), equal.
void equalShardings(benchmark::State& state, const char* text) {
  const HloSharding a = parseSharding(text).value();
  const HloSharding b = parseSharding(text).value();
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    bool eq = a == b;
    benchmark::DoNotOptimize(eq);
  }
}

[[maybe_unused]] const bool kTableRegistered = [] {
  for (const TableInput& in : kTable) {
    benchmark::RegisterBenchmark((std::string("BM_Equal/") + in.name).c_str(), equalShardings,
                                 in.text);
  }
  return true;
}();

// A fresh [1024,1024]<=[1048576] each iteration, materialised: the iota's
// creation, the allocation, the fill and the release.
void BM_Materialize_Iota1024x1024(benchmark::State& state) {
  const std::vector<int64_t> dims = {1024, 1024};
  for (auto _ : state) {
    const TileAssignment t = TileAssignment::iota(dims).value();
    auto devices = t.devices();
    benchmark::DoNotOptimize(devices->data());
  }
}
BENCHMARK(BM_Materialize_Iota1024x1024)->Unit(benchmark::kMicrosecond);

// The floor for the row above: std::iota into a freshly allocated array of
// the same size (allocation and release included).
void BM_StdIotaFresh_1048576(benchmark::State& state) {
  const size_t n = 1024 * 1024;
  for (auto _ : state) {
    std::unique_ptr<int64_t[]> a(new int64_t[n]);
    std::iota(a.get(), a.get() + n, int64_t{0});
    benchmark::DoNotOptimize(a.get());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_StdIotaFresh_1048576)->Unit(benchmark::kMicrosecond);

// Transposed materialisation (item 3 keeps it where it is).
void BM_Materialize_Transposed1024x1024(benchmark::State& state) {
  const std::vector<int64_t> dims = {1024, 1024};
  const std::vector<int64_t> reshape = {1024, 1024};
  const std::vector<int> perm = {1, 0};
  for (auto _ : state) {
    const TileAssignment t = TileAssignment::iota(dims, reshape, perm).value();
    auto devices = t.devices();
    benchmark::DoNotOptimize(devices->data());
  }
}
BENCHMARK(BM_Materialize_Transposed1024x1024)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
