// OpSharding conversion speed (issue 3's targets, 3x upstream XLA's -O2):
//   {devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}:
//     fromProto + toProto + serialize <= 300 ns (XLA: ~0.5 + ~0.5 us);
//   a 65,536-device V1 list ([256,256], random order): XLA FromProto ~61 us,
//     ToProto + serialize ~0.54 ms.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/pb/convert.h"

namespace {

using namespace shardbridge;

shardbridge::wire::OpSharding protoOf(const std::string& text) {
  auto s = hlo::parseSharding(text);
  auto p = proto::toProto(*s);
  return *p;
}

std::string bigV1List() {
  std::vector<int64_t> ids(65536);
  std::iota(ids.begin(), ids.end(), 0);
  std::mt19937_64 rng(7);
  std::shuffle(ids.begin(), ids.end(), rng);
  std::string text = "{devices=[256,256]";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) text += ',';
    text += std::to_string(ids[i]);
  }
  return text + "}";
}

void BM_FromProtoToProtoSerialize_V2(benchmark::State& state) {
  shardbridge::wire::OpSharding p =
      protoOf("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  std::string bytes;
  shardbridge::wire::OpSharding back;  // reused, as a converter of many shardings would
  for (auto _ : state) {
    auto s = proto::fromProto(p);
    if (!s) state.SkipWithError("fromProto failed");
    auto ok = proto::toProto(*s, &back);
    bytes.clear();
    back.SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_FromProtoToProtoSerialize_V2);

void BM_FromProto_V2(benchmark::State& state) {
  shardbridge::wire::OpSharding p =
      protoOf("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  for (auto _ : state) {
    auto s = proto::fromProto(p);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_FromProto_V2);

void BM_ToProtoSerialize_V2(benchmark::State& state) {
  auto s = hlo::parseSharding("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  std::string bytes;
  shardbridge::wire::OpSharding p;
  for (auto _ : state) {
    auto ok = proto::toProto(*s, &p);
    bytes.clear();
    p.SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_ToProtoSerialize_V2);

// The same with a fresh message per call (allocating its repeated fields).
void BM_ToProtoSerializeFresh_V2(benchmark::State& state) {
  auto s = hlo::parseSharding("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  std::string bytes;
  for (auto _ : state) {
    auto p = proto::toProto(*s);
    bytes.clear();
    p->SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_ToProtoSerializeFresh_V2);

void BM_FromProto_V1_65536(benchmark::State& state) {
  shardbridge::wire::OpSharding p = protoOf(bigV1List());
  for (auto _ : state) {
    auto s = proto::fromProto(p);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_FromProto_V1_65536)->Unit(benchmark::kMicrosecond);

void BM_ToProtoSerialize_V1_65536(benchmark::State& state) {
  auto s = hlo::parseSharding(bigV1List());
  std::string bytes;
  for (auto _ : state) {
    auto p = proto::toProto(*s);
    bytes.clear();
    p->SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_ToProtoSerialize_V1_65536)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
