// Module mesh inference (mesh_inference.h) over 10,000 shardings of a
// 256-device module, the size issue 4 item 4 bounds: the upstream fold over
// iota shardings, and the any-order fallback over a module whose shardings
// list a ring device order.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "shardbridge/convert/export.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::convert {
namespace {

constexpr int kShardings = 10000;

// 10,000 shardings exported from `meshText` (axes a=4, b=4, c=16): each
// shards a random subset of the axes over 1 to 3 dims, the axes left
// replicated being a minor suffix of the mesh ({}, {c} or {b, c}) so that
// every one is expressible on the mesh; one in 16 is {replicated} and one
// in 32 a single device. Fixed seed: the same module every run.
std::vector<hlo::HloSharding> makeModule(const char* meshText) {
  sdy::Context ctx;
  auto mesh = sdy::parseMesh(ctx, meshText);
  const sdy::MeshAttr m = *mesh;
  const sdy::MeshLookup lookup = [&](std::string_view) { return m; };
  std::mt19937 rng(20261129);
  std::vector<hlo::HloSharding> out;
  out.reserve(kShardings);
  const char* names[] = {"\"a\"", "\"b\"", "\"c\""};
  for (int i = 0; i < kShardings; ++i) {
    const unsigned kind = rng() % 32;
    if (kind == 0) {
      out.push_back(*hlo::parseSharding("{maximal device=" + std::to_string(rng() % 256) + "}"));
      continue;
    }
    if (kind < 3) {
      out.push_back(*hlo::parseSharding("{replicated}"));
      continue;
    }
    const int used = 1 + static_cast<int>(rng() % 3);  // axes a.. used: 1 to 3
    std::vector<int> axes;
    for (int a = 0; a < used; ++a) axes.push_back(a);
    std::shuffle(axes.begin(), axes.end(), rng);
    const int rank = 1 + static_cast<int>(rng() % 3);
    std::vector<std::string> dims(static_cast<size_t>(rank));
    for (int a : axes) {
      std::string& d = dims[rng() % static_cast<unsigned>(rank)];
      d += (d.empty() ? "" : ", ") + std::string(names[a]);
    }
    std::string text = "#sdy.sharding<@mesh, [";
    for (int d = 0; d < rank; ++d) text += (d ? ", {" : "{") + dims[static_cast<size_t>(d)] + "}";
    text += "]>";
    auto sharding = sdy::parseTensorSharding(ctx, text);
    auto exported = convertToHloSharding(*sharding, lookup);
    out.push_back(*exported);
  }
  return out;
}

void runInference(benchmark::State& state, const char* meshText) {
  const std::vector<hlo::HloSharding> module = makeModule(meshText);
  int64_t tiledLists = 0;
  for (const auto& s : module) tiledLists += s.isTiled() && !s.tileAssignment().isIota();
  for (auto _ : state) {
    sdy::Context ctx;
    auto inferred = inferModuleMesh(ctx, module, AnyOrderOptions{true});
    if (!inferred.has_value()) state.SkipWithError(inferred.error().message.c_str());
    benchmark::DoNotOptimize(inferred);
  }
  state.counters["explicit_lists"] = static_cast<double>(tiledLists);
}

// Iota shardings: the upstream fold (repeats folded once).
void BM_InferIotaModule(benchmark::State& state) {
  runInference(state, R"(<["a"=4, "b"=4, "c"=16]>)");
}
BENCHMARK(BM_InferIotaModule)->Unit(benchmark::kMillisecond);

// A ring order on the major axis (chips 0,1,3,2): the exported shardings
// are explicit lists upstream cannot import, and the fallback search runs.
void BM_InferRingModule(benchmark::State& state) {
  std::string text = R"(<["a"=4, "b"=4, "c"=16], device_ids=[)";
  const int ring[] = {0, 1, 3, 2};
  for (int a = 0; a < 4; ++a)
    for (int bc = 0; bc < 64; ++bc) text += (a || bc ? ", " : "") + std::to_string(ring[a] * 64 + bc);
  text += "]>";
  static std::string stored;
  stored = text;
  runInference(state, stored.c_str());
}
BENCHMARK(BM_InferRingModule)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace shardbridge::convert

BENCHMARK_MAIN();
