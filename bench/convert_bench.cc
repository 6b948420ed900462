// The sdy <-> HloSharding bridge (issue 4 targets: export of a rank-4
// sharding on a 4-axis iota mesh <= 300 ns, import <= 500 ns, iota cost flat
// in the device count, explicit device orders linear at <= 10 ns a device;
// item 8: the device-count sweep and the text -> OpSharding -> text
// pipeline).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "shardbridge/convert/any_order.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/pb/convert.h"
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

// --- The device-count sweep (item 8) ----------------------------------------
//
// Mesh <["a"=2, "b"=n/4, "c"=2]> over n devices, in iota order or with
// device_ids listing the devices in reverse (an order no iota has), and the
// sharding [{"b"}, {"c", "a"}]: every device is named by a tile (no
// replication group), through a transposed order. On the iota mesh the
// export is a V2 iota and the import reads it as such; on the explicit mesh
// the export is a V1 list of n ids and the import reads it in the mesh's
// order (AnyOrderOptions{true}). Explicit rows report the time per device.

constexpr const char* kSweepSharding = R"(#sdy.sharding<@mesh, [{"b"}, {"c", "a"}]>)";

sdy::MeshAttr sweepMesh(sdy::Context& ctx, int64_t devices, bool explicitOrder) {
  std::vector<sdy::MeshAxisAttr> axes = {sdy::MeshAxisAttr::get(ctx, "a", 2),
                                         sdy::MeshAxisAttr::get(ctx, "b", devices / 4),
                                         sdy::MeshAxisAttr::get(ctx, "c", 2)};
  std::vector<int64_t> ids;
  if (explicitOrder) {
    ids.resize(static_cast<size_t>(devices));
    std::iota(ids.rbegin(), ids.rend(), 0);
  }
  return sdy::MeshAttr::get(ctx, axes, ids);
}

void setSweepCounters(benchmark::State& state, int64_t devices, bool explicitOrder) {
  state.counters["devices"] = static_cast<double>(devices);
  if (explicitOrder) {
    // Seconds per device (printed with an SI prefix: 2.5n is 2.5 ns).
    state.counters["s/device"] = benchmark::Counter(
        static_cast<double>(devices),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  }
}

// Args: device count, explicit device order (0/1).
void sweepArgs(benchmark::internal::Benchmark* b) {
  for (int64_t explicitOrder : {0, 1}) {
    for (int64_t devices : {8, 256, 65'536, 1'048'576}) b->Args({devices, explicitOrder});
  }
  b->ArgNames({"devices", "explicit"});
}

void BM_ExportSweep(benchmark::State& state) {
  const int64_t devices = state.range(0);
  const bool explicitOrder = state.range(1) != 0;
  sdy::Context ctx;
  sdy::MeshAttr mesh = sweepMesh(ctx, devices, explicitOrder);
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  sdy::TensorShardingAttr s = *sdy::parseTensorSharding(ctx, kSweepSharding);
  for (auto _ : state) {
    auto h = convert::convertToHloSharding(s, lookup);
    if (!h) state.SkipWithError(h.error().message.c_str());
    benchmark::DoNotOptimize(h);
  }
  setSweepCounters(state, devices, explicitOrder);
}
BENCHMARK(BM_ExportSweep)->Apply(sweepArgs);

void BM_ImportSweep(benchmark::State& state) {
  const int64_t devices = state.range(0);
  const bool explicitOrder = state.range(1) != 0;
  sdy::Context ctx;
  sdy::MeshAttr mesh = sweepMesh(ctx, devices, explicitOrder);
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  sdy::TensorShardingAttr s = *sdy::parseTensorSharding(ctx, kSweepSharding);
  hlo::HloSharding h = *convert::convertToHloSharding(s, lookup);
  if (explicitOrder != !h.tileAssignment().isIota()) {
    state.SkipWithError("unexpected tile assignment form");
    return;
  }
  sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, "mesh");
  std::map<int64_t, std::string> single;
  const convert::AnyOrderOptions anyOrder{explicitOrder};
  for (auto _ : state) {
    auto back = convert::convertToSdySharding(ctx, h, mesh, ref, single, 2, false, anyOrder);
    if (!back) {
      state.SkipWithError(back.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(back);
  }
  setSweepCounters(state, devices, explicitOrder);
}
BENCHMARK(BM_ImportSweep)->Apply(sweepArgs);

// --- The whole pipeline (item 8) --------------------------------------------
//
// sdy sharding text -> parse -> export -> OpSharding -> bytes -> OpSharding
// -> HloSharding -> import -> sdy text, on the rank-4 sharding of BM_Export
// (4-axis iota mesh scaled by the argument). The OpSharding messages are
// reused across iterations, as a converter of many shardings would.
void BM_Pipeline(benchmark::State& state) {
  sdy::Context ctx;
  sdy::MeshAttr mesh = *sdy::parseMesh(ctx, meshText(state.range(0)));
  sdy::MeshLookup lookup = [mesh](std::string_view) { return mesh; };
  sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, "mesh");
  std::map<int64_t, std::string> single;
  const std::string text = kSharding;
  shardbridge::wire::OpSharding out;
  shardbridge::wire::OpSharding in;
  std::string bytes;
  for (auto _ : state) {
    auto parsed = sdy::parseTensorSharding(ctx, text);
    auto exported = parsed ? convert::convertToHloSharding(*parsed, lookup)
                           : Result<hlo::HloSharding>(parsed.error());
    if (!exported || !proto::toProto(*exported, &out)) {
      state.SkipWithError("parse/export/toProto failed");
      break;
    }
    bytes.clear();
    out.SerializeToString(&bytes);
    in.ParseFromString(bytes);
    auto read = proto::fromProto(in);
    auto imported =
        read ? convert::convertToSdySharding(ctx, *read, mesh, ref, single, 4, false)
             : Result<sdy::TensorShardingAttr>(read.error());
    if (!imported) {
      state.SkipWithError(imported.error().message.c_str());
      break;
    }
    std::string printed = sdy::printTensorSharding(*imported);
    benchmark::DoNotOptimize(printed);
  }
  state.counters["devices"] = static_cast<double>(*mesh.getTotalSize());
}
BENCHMARK(BM_Pipeline)->Arg(1)->Arg(512);

}  // namespace

BENCHMARK_MAIN();
