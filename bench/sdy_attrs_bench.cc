// Cost of interning sdy attributes: looking up one that already exists (the
// common case while parsing and converting), creating new ones, and lookups
// from two threads at once on one Context.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "shardbridge/sdy/attrs.h"

namespace shardbridge::sdy {
namespace {

// A sharding like the ones real programs carry: rank 3 on a 3-axis mesh.
struct Sample {
  explicit Sample(Context& ctx) : ctx(ctx) {
    x = AxisRefAttr::get(ctx, "x");
    y = AxisRefAttr::get(ctx, "y");
    zSub = AxisRefAttr::get(ctx, "z", 2, 4);
    dimAxes = {x, zSub};
    dims = {DimensionShardingAttr::get(ctx, dimAxes, true),
            DimensionShardingAttr::get(ctx, {}, false),
            DimensionShardingAttr::get(ctx, std::vector<AxisRefAttr>{y}, true, 1)};
    replicated = {y};
    meshRef = MeshOrRef::ref(ctx, "mesh");
    sharding = TensorShardingAttr::get(ctx, meshRef, dims, {}, replicated);
  }
  Context& ctx;
  AxisRefAttr x, y, zSub;
  std::vector<AxisRefAttr> dimAxes, replicated;
  std::vector<DimensionShardingAttr> dims;
  MeshOrRef meshRef;
  TensorShardingAttr sharding;
};

void BM_GetExistingFullAxisRef(benchmark::State& state) {
  Context ctx;
  Sample s(ctx);
  for (auto _ : state) benchmark::DoNotOptimize(AxisRefAttr::get(ctx, "x"));
}
BENCHMARK(BM_GetExistingFullAxisRef);

// Two interns: the SubAxisInfoAttr, then the AxisRefAttr.
void BM_GetExistingSubAxisRef(benchmark::State& state) {
  Context ctx;
  Sample s(ctx);
  for (auto _ : state) benchmark::DoNotOptimize(AxisRefAttr::get(ctx, "z", 2, 4));
}
BENCHMARK(BM_GetExistingSubAxisRef);

void BM_GetExistingDimensionSharding(benchmark::State& state) {
  Context ctx;
  Sample s(ctx);
  for (auto _ : state)
    benchmark::DoNotOptimize(DimensionShardingAttr::get(ctx, s.dimAxes, true));
}
BENCHMARK(BM_GetExistingDimensionSharding);

void BM_GetExistingTensorSharding(benchmark::State& state) {
  Context ctx;
  Sample s(ctx);
  for (auto _ : state)
    benchmark::DoNotOptimize(TensorShardingAttr::get(ctx, s.meshRef, s.dims, {}, s.replicated));
}
BENCHMARK(BM_GetExistingTensorSharding);

// Every iteration makes a new SubAxisInfoAttr and a new AxisRefAttr.
void BM_CreateNewSubAxisRef(benchmark::State& state) {
  Context ctx;
  int64_t pre = 1;
  for (auto _ : state) benchmark::DoNotOptimize(AxisRefAttr::get(ctx, "x", pre++, 2));
  state.counters["attrs"] = static_cast<double>(ctx.size());
}
BENCHMARK(BM_CreateNewSubAxisRef);

// Every iteration makes a new DimensionShardingAttr (new priority) and a new
// TensorShardingAttr holding it.
void BM_CreateNewTensorSharding(benchmark::State& state) {
  Context ctx;
  Sample s(ctx);
  std::vector<DimensionShardingAttr> dims = s.dims;
  int64_t priority = 0;
  for (auto _ : state) {
    dims[1] = DimensionShardingAttr::get(ctx, s.dimAxes, false, priority++);
    benchmark::DoNotOptimize(TensorShardingAttr::get(ctx, s.meshRef, dims));
  }
  state.counters["attrs"] = static_cast<double>(ctx.size());
}
BENCHMARK(BM_CreateNewTensorSharding);

// Two threads looking up the same existing attributes on one Context.
Context* sharedCtx = nullptr;
Sample* sharedSample = nullptr;

void BM_GetExistingTensorShardingThreads(benchmark::State& state) {
  if (state.thread_index() == 0) {
    sharedCtx = new Context();
    sharedSample = new Sample(*sharedCtx);
  }
  // Benchmark's threads start the timed loop together, after thread 0 set up.
  for (auto _ : state) {
    Sample& s = *sharedSample;
    benchmark::DoNotOptimize(
        TensorShardingAttr::get(*sharedCtx, s.meshRef, s.dims, {}, s.replicated));
  }
  if (state.thread_index() == 0) {
    delete sharedSample;
    delete sharedCtx;
  }
}
BENCHMARK(BM_GetExistingTensorShardingThreads)->Threads(1)->Threads(2)->UseRealTime();

void BM_GetExistingAxisRefThreads(benchmark::State& state) {
  if (state.thread_index() == 0) {
    sharedCtx = new Context();
    sharedSample = new Sample(*sharedCtx);
  }
  for (auto _ : state) benchmark::DoNotOptimize(AxisRefAttr::get(*sharedCtx, "z", 2, 4));
  if (state.thread_index() == 0) {
    delete sharedSample;
    delete sharedCtx;
  }
}
BENCHMARK(BM_GetExistingAxisRefThreads)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace shardbridge::sdy

BENCHMARK_MAIN();
