// OpSharding conversion speed.
//
// XLA's own figures, measured side by side with shardbridge on the same
// 2-core machine (issue 14): upstream xla/hlo/ir/hlo_sharding.cc and
// xla/hlo/ir/tile_assignment.cc built -O3 against the same libprotobuf,
// binaries copied to one path, six interleaved rounds, medians:
//   {devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}:
//     FromProto 0.18 us, ToProto + SerializeToString 0.11 us;
//   a 65,536-device V1 list ([256,256], random order): ToProto + serialize
//     0.17 ms.
// The rows named BM_<operation>/<input> below are the table of issue 14
// (docs/performance.md has every figure and how to reproduce it):
//   XLA, median ns        {replicated}  V2 partial-rep.  manual+repl.  [1024,1024]<=[1048576]
//   ToProto + serialize        54           107             114            96
//   FromProto                  25           181             387            60
// shardbridge's BM_FromProto rows, instructions per call (callgrind) before
// and after the second pass of docs/performance.md (the plain-iota path, the
// sharding built inside its Result): 303 -> 313, 2271 -> 2158, 2676 -> 2402,
// 1160 -> 755; projected on the quiet machine 15, 125, 141 and 46 ns.
// The third pass (docs/performance.md) takes them to 311, 1087, 1745 and
// 694: projected 16, 63, 114 and 42 ns.
// BM_ToProtoSerializeFresh, fourth pass (docs/performance.md): 717, 2296,
// 2531, 2138 -> 680, 2230, 2429, 2031 instructions a call; projected 48,
// 113, 122 and 106 ns against XLA's 54, 107, 114 and 96.
// Fifth pass (docs/performance.md): BM_FromProto 311, 1072, 1746, 697 ->
// 171, 1070, 1660, 473 instructions a call; projected 8.8, 63, 108 and
// 31 ns, 1.9x to 3.6x XLA. BM_XlaModelToProtoSerializeFresh, a model of
// XLA's ToProto over the same libprotobuf in this binary (not XLA itself),
// takes 867, 2492, 2658 and 2240 instructions where BM_ToProtoSerializeFresh
// takes 679, 2233, 2434 and 2032, and 6-27 % more CPU time; by the
// projection the message row still meets XLA's figure for {replicated} only.
// Sixth pass (docs/performance.md): toProto writes XLA's sdy::reduction_op
// entry for unreduced leaves (none of these inputs), and its tuple/V3 path
// is out of line: BM_ToProtoSerializeFresh 680, 2229, 2433, 2030 -> 678,
// 2231, 2443, 2030 instructions a call, the model 867, 2495, 2661, 2245.
// Seventh pass (docs/performance.md): BM_ToProtoSerializeFreshArena, the
// message on an Arena with a stack first block (toProtoOnArena), takes 960,
// 2119, 2198, 1919 where BM_ToProtoSerializeFresh takes 678, 2226, 2439,
// 2029; projected 68, 108, 112 and 100 ns against XLA's 54, 107, 114, 96.
// BM_PrintOpShardingBinaryFresh (no Status for leaves in the encoder): 220,
// 976, 934, 839 -> 176, 930, 890, 794.
// Eighth pass: BM_ToProtoSerializeFreshArenaBatch, one arena reset every 16
// calls, takes 666, 1822, 1903, 1621; projected 47, 93, 99 and 87 ns.
#include <benchmark/benchmark.h>
#include <google/protobuf/arena.h>
#include <google/protobuf/repeated_field.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"
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

// --- Issue 14's table: one row per operation and input ----------------------

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

// toProto + SerializeToString with a new message (and string) each call, as
// a caller of XLA's ToProto().SerializeAsString() does.
void toProtoSerializeFresh(benchmark::State& state, const char* text) {
  const hlo::HloSharding s = hlo::parseSharding(text).value();
  for (auto _ : state) {
    auto p = proto::toProto(s);
    std::string bytes;
    p->SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}

// toProto + SerializeToString with a new message each call, serialized into
// one string kept across calls (cleared, its capacity reused): issue 14's
// row as worded, "a new message each call", with nothing else allocated
// per call. The row above also allocates and frees the string's buffer
// (rows of 16 bytes or more of output; docs/performance.md, fourth pass).
void toProtoSerializeFreshMessage(benchmark::State& state, const char* text) {
  const hlo::HloSharding s = hlo::parseSharding(text).value();
  std::string bytes;
  for (auto _ : state) {
    auto p = proto::toProto(s);
    bytes.clear();
    p->SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}

// The first block of the arena of the row below, on the stack: the header
// protobuf puts in it (its Block and SerialArena, about 100 bytes), the
// message (about 150 bytes) and its repeated fields fit in it for every
// input of the table, so the arena mallocs no block (checked before timing).
constexpr size_t kArenaBlockBytes = 1024;

// toProto + SerializeToString with a new message each call made on a new
// protobuf Arena whose first block is a stack buffer (toProtoOnArena), and a
// new string, as the BM_ToProtoSerializeFresh row has: the message, its
// repeated fields and its destruction cost no malloc or free.
void toProtoSerializeFreshArena(benchmark::State& state, const char* text) {
  const hlo::HloSharding s = hlo::parseSharding(text).value();
  {
    alignas(8) char block[kArenaBlockBytes];
    google::protobuf::Arena arena(block, sizeof block);
    auto p = proto::toProtoOnArena(s, &arena);
    std::string onArena, byValue;
    if (p) (*p)->SerializeToString(&onArena);
    proto::toProto(s)->SerializeToString(&byValue);
    if (!p || onArena != byValue) {
      state.SkipWithError("toProtoOnArena's bytes differ from toProto's");
      return;
    }
    if (arena.SpaceAllocated() > sizeof block) {
      state.SkipWithError("the message does not fit in the arena's first block");
      return;
    }
  }
  for (auto _ : state) {
    alignas(8) char block[kArenaBlockBytes];
    google::protobuf::Arena arena(block, sizeof block);
    auto p = proto::toProtoOnArena(s, &arena);
    std::string bytes;
    (*p)->SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}

// toProto + SerializeToString with a new message each call, made on one
// arena kept across calls and Reset() after every kArenaBatch calls, the way
// protobuf means arenas to be used for many short-lived messages: each call
// still constructs a new message and allocates its repeated fields, but the
// arena's set-up and teardown (about 300 instructions, docs/performance.md,
// seventh pass) are paid once per batch. The batch's messages fit in the
// arena's first block, a stack buffer (checked before timing).
constexpr size_t kArenaBatchBlockBytes = 16384;
constexpr int kArenaBatch = 16;

void toProtoSerializeFreshArenaBatch(benchmark::State& state, const char* text) {
  const hlo::HloSharding s = hlo::parseSharding(text).value();
  alignas(8) static char block[kArenaBatchBlockBytes];
  {
    google::protobuf::Arena arena(block, sizeof block);
    std::string byValue;
    proto::toProto(s)->SerializeToString(&byValue);
    for (int i = 0; i < kArenaBatch; ++i) {
      auto p = proto::toProtoOnArena(s, &arena);
      std::string onArena;
      if (p) (*p)->SerializeToString(&onArena);
      if (!p || onArena != byValue) {
        state.SkipWithError("toProtoOnArena's bytes differ from toProto's");
        return;
      }
    }
    if (arena.SpaceAllocated() > sizeof block) {
      state.SkipWithError("a batch of messages does not fit in the arena's first block");
      return;
    }
  }
  google::protobuf::Arena arena(block, sizeof block);
  int made = 0;
  for (auto _ : state) {
    if (made == kArenaBatch) {
      arena.Reset();
      made = 0;
    }
    ++made;
    auto p = proto::toProtoOnArena(s, &arena);
    std::string bytes;
    (*p)->SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}

// HloSharding -> serialized bytes through the library's bytes API, a fresh
// string each call (no protobuf types at the call site).
void printBinaryFresh(benchmark::State& state, const char* text) {
  const hlo::HloSharding s = hlo::parseSharding(text).value();
  for (auto _ : state) {
    auto bytes = proto::printOpSharding(s, proto::ProtoFormat::kBinary);
    benchmark::DoNotOptimize(bytes);
  }
}

// Message -> HloSharding.
void fromProtoMessage(benchmark::State& state, const char* text) {
  const shardbridge::wire::OpSharding p = protoOf(text);
  for (auto _ : state) {
    auto s = proto::fromProto(p);
    benchmark::DoNotOptimize(s);
  }
}

// Serialized bytes -> HloSharding (protobuf's parser, then fromProto).
void parseBinary(benchmark::State& state, const char* text) {
  const std::string bytes = *proto::printOpSharding(hlo::parseSharding(text).value(),
                                                    proto::ProtoFormat::kBinary);
  for (auto _ : state) {
    auto s = proto::parseOpSharding(bytes, proto::ProtoFormat::kBinary);
    benchmark::DoNotOptimize(s);
  }
}

// --- A same-binary model of XLA's ToProto (docs/performance.md, fifth pass) --
//
// XLA cannot be built here, so its row of the table is modelled: the
// protobuf calls XLA's HloSharding::ToProto() makes for a leaf
// (xla/hlo/ir/hlo_sharding.cc at openxla/xla 183fa00cb5d8), in its order,
// over the same generated message and libprotobuf, fed from a parsed
// shardbridge sharding whose fields are read out before the timed loop (XLA
// keeps them as members). It models only the protobuf work of XLA's
// ToProto, not XLA's own data structures or compiler output.

// The members of XLA's HloSharding that its ToProto reads, for a leaf.
struct XlaModelLeaf {
  wire::OpSharding::Type type = wire::OpSharding::REPLICATED;
  bool replicateOnLastTileDim = false;
  // XLA adds a reduction-op metadata entry for unreduced shardings (and
  // UNREDUCED subgroups); shardbridge keeps no reduction op, so its SUM
  // (toProto writes the same entry: docs/upstream.md § The reduction-op entry).
  bool addsReductionMetadata = false;
  std::vector<wire::OpMetadata> metadata;  // XLA stores OpMetadata messages
  bool isIota = false;
  std::vector<int64_t> reshapeDims;
  std::vector<int> transposePerm;
  std::vector<int64_t> devices;  // the explicit array (empty for the default one)
  std::vector<int64_t> dims;     // tile_assignment dimensions (tiled only)
  std::vector<wire::OpSharding::Type> subgroupTypes;
  hlo::ShardGroup shardGroup;
};

// Reads a leaf's fields through shardbridge's public accessors; false for
// what the model does not cover (tuples, V3 leaves).
bool xlaModelLeafOf(const hlo::HloSharding& s, XlaModelLeaf& out) {
  using Kind = hlo::HloSharding::Kind;
  switch (s.kind()) {
    case Kind::kReplicated: out.type = wire::OpSharding::REPLICATED; break;
    case Kind::kSingleDevice: out.type = wire::OpSharding::MAXIMAL; break;
    case Kind::kManual: out.type = wire::OpSharding::MANUAL; break;
    case Kind::kUnreduced: out.type = wire::OpSharding::UNREDUCED; break;
    case Kind::kUnknown: out.type = wire::OpSharding::UNKNOWN; break;
    case Kind::kTiled: out.type = wire::OpSharding::OTHER; break;
    case Kind::kTuple:
    case Kind::kNamed:
      return false;
  }
  out.replicateOnLastTileDim = s.replicateOnLastTileDim();
  for (const hlo::OpMetadata& md : s.metadata()) out.metadata.push_back(proto::metadataToProto(md));
  for (hlo::OpShardingType t : s.subgroupTypes()) {
    out.subgroupTypes.push_back(static_cast<wire::OpSharding::Type>(t));
  }
  out.addsReductionMetadata =
      s.kind() == Kind::kUnreduced ||
      std::find(out.subgroupTypes.begin(), out.subgroupTypes.end(), wire::OpSharding::UNREDUCED) !=
          out.subgroupTypes.end();
  const hlo::TileAssignment& tiles = s.tileAssignment();
  if (const auto& iota = tiles.iotaForm()) {
    out.isIota = true;
    out.reshapeDims.assign(iota->reshapeDims().begin(), iota->reshapeDims().end());
    out.transposePerm.assign(iota->transposePerm().begin(), iota->transposePerm().end());
  } else {
    auto devices = tiles.devices();
    if (!devices) return false;
    out.devices.assign(devices->begin(), devices->end());
  }
  out.dims.assign(tiles.dimensions().begin(), tiles.dimensions().end());
  out.shardGroup = s.shardGroup();
  return true;
}

// XLA's ToProto for a leaf, step by step: a new message returned by value;
// metadata reserved one past its size and copied; the iota's two fields (or
// the device list) reserved and appended one Add per entry; the type; for a
// tiled sharding the replication flag, one add per subgroup type, the dims
// reserved and appended; the shard group. Not inlined, as XLA's ToProto
// lives in another translation unit than its caller.
[[gnu::noinline]] wire::OpSharding xlaModelToProto(const XlaModelLeaf& s) {
  wire::OpSharding result;
  result.mutable_metadata()->Reserve(static_cast<int>(s.metadata.size()) + 1);
  for (const wire::OpMetadata& md : s.metadata) *result.add_metadata() = md;
  if (s.addsReductionMetadata) {
    wire::OpMetadata reduction;
    reduction.set_op_type("sdy::reduction_op");
    reduction.set_op_name("SUM");
    *result.add_metadata() = reduction;
  }
  if (s.isIota) {
    result.mutable_iota_reshape_dims()->Reserve(static_cast<int>(s.reshapeDims.size()));
    std::copy(s.reshapeDims.begin(), s.reshapeDims.end(),
              google::protobuf::RepeatedFieldBackInserter(result.mutable_iota_reshape_dims()));
    result.mutable_iota_transpose_perm()->Reserve(static_cast<int>(s.transposePerm.size()));
    std::copy(s.transposePerm.begin(), s.transposePerm.end(),
              google::protobuf::RepeatedFieldBackInserter(result.mutable_iota_transpose_perm()));
  } else {
    result.mutable_tile_assignment_devices()->Reserve(static_cast<int>(s.devices.size()));
    std::copy(s.devices.begin(), s.devices.end(),
              google::protobuf::RepeatedFieldBackInserter(result.mutable_tile_assignment_devices()));
  }
  result.set_type(s.type);
  if (s.type == wire::OpSharding::OTHER) {
    result.set_replicate_on_last_tile_dim(s.replicateOnLastTileDim);
    for (wire::OpSharding::Type t : s.subgroupTypes) result.add_last_tile_dims(t);
    result.mutable_tile_assignment_dimensions()->Reserve(static_cast<int>(s.dims.size()));
    std::copy(s.dims.begin(), s.dims.end(),
              google::protobuf::RepeatedFieldBackInserter(
                  result.mutable_tile_assignment_dimensions()));
  }
  if (s.shardGroup.isShardGroup()) {
    result.set_is_shard_group(true);
    result.set_shard_group_id(s.shardGroup.id);
    result.set_shard_group_type(s.shardGroup.shardAs ? wire::OpSharding::AS
                                                     : wire::OpSharding::LIKE);
  }
  return result;
}

// The model, then SerializeToString into a new string, as the
// BM_ToProtoSerializeFresh row does with toProto. Before timing, the model's
// bytes are checked against toProto's.
void xlaModelToProtoSerializeFresh(benchmark::State& state, const char* text) {
  const hlo::HloSharding s = hlo::parseSharding(text).value();
  XlaModelLeaf leaf;
  if (!xlaModelLeafOf(s, leaf)) {
    state.SkipWithError("the model covers leaves other than V3 only");
    return;
  }
  std::string ours, model;
  proto::toProto(s)->SerializeToString(&ours);
  xlaModelToProto(leaf).SerializeToString(&model);
  if (ours != model) {
    state.SkipWithError("the model's bytes differ from toProto's");
    return;
  }
  for (auto _ : state) {
    wire::OpSharding p = xlaModelToProto(leaf);
    std::string bytes;
    p.SerializeToString(&bytes);
    benchmark::DoNotOptimize(bytes);
  }
}

[[maybe_unused]] const bool kTableRegistered = [] {
  for (const TableInput& in : kTable) {
    benchmark::RegisterBenchmark((std::string("BM_ToProtoSerializeFresh/") + in.name).c_str(),
                                 toProtoSerializeFresh, in.text);
    benchmark::RegisterBenchmark((std::string("BM_XlaModelToProtoSerializeFresh/") + in.name).c_str(),
                                 xlaModelToProtoSerializeFresh, in.text);
    benchmark::RegisterBenchmark((std::string("BM_ToProtoSerializeFreshMessage/") + in.name).c_str(),
                                 toProtoSerializeFreshMessage, in.text);
    benchmark::RegisterBenchmark((std::string("BM_ToProtoSerializeFreshArena/") + in.name).c_str(),
                                 toProtoSerializeFreshArena, in.text);
    benchmark::RegisterBenchmark((std::string("BM_ToProtoSerializeFreshArenaBatch/") + in.name).c_str(),
                                 toProtoSerializeFreshArenaBatch, in.text);
    benchmark::RegisterBenchmark((std::string("BM_PrintOpShardingBinaryFresh/") + in.name).c_str(),
                                 printBinaryFresh, in.text);
    benchmark::RegisterBenchmark((std::string("BM_FromProto/") + in.name).c_str(),
                                 fromProtoMessage, in.text);
    benchmark::RegisterBenchmark((std::string("BM_ParseOpShardingBinary/") + in.name).c_str(),
                                 parseBinary, in.text);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
