// The sdy <-> HloSharding bridge (issue 4 targets: export of a rank-4
// sharding on a 4-axis iota mesh <= 300 ns, import <= 500 ns, iota cost flat
// in the device count).
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"

namespace {

using namespace shardbridge;

// Axis sizes scaled by `scale` so the device count grows while the shape of
// the sharding stays the same.
std::string meshText(int64_t scale) {
  return "<[\"a\"=" + std::to_string(2 * scale) + ", \"b\"=4, \"c\"=2, \"d\"=" +
         std::to_string(4 * scale) + "]>";
}

constexpr const char* kSharding =
    R"(#sdy.sharding<@mesh, [{"b"}, {"a"}, {"d":(1)2}, {"c"}], replicated={"d":(2)2}>)";

void BM_Export(benchmark::State& state) {
  sdy::Context ctx;
  sdy::MeshAttr mesh = *sdy::parseMesh(ctx, meshText(state.range(0)));
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  sdy::TensorShardingAttr s = *sdy::parseTensorSharding(ctx, kSharding);
  for (auto _ : state) {
    auto h = convert::convertToHloSharding(s, lookup);
    if (!h) state.SkipWithError("export failed");
    benchmark::DoNotOptimize(h);
  }
  state.counters["devices"] = static_cast<double>(*mesh.getTotalSize());
}
BENCHMARK(BM_Export)->Arg(1)->Arg(16)->Arg(512);

void BM_Import(benchmark::State& state) {
  sdy::Context ctx;
  sdy::MeshAttr mesh = *sdy::parseMesh(ctx, meshText(state.range(0)));
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  sdy::TensorShardingAttr s = *sdy::parseTensorSharding(ctx, kSharding);
  hlo::HloSharding h = *convert::convertToHloSharding(s, lookup);
  sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, "mesh");
  std::map<int64_t, std::string> single;
  for (auto _ : state) {
    auto back = convert::convertToSdySharding(ctx, h, mesh, ref, single, 4, false);
    if (!back) state.SkipWithError(back.error().message.c_str());
    benchmark::DoNotOptimize(back);
  }
  state.counters["devices"] = static_cast<double>(*mesh.getTotalSize());
}
BENCHMARK(BM_Import)->Arg(1)->Arg(16)->Arg(512);

}  // namespace

BENCHMARK_MAIN();
