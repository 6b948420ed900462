// The direct OpSharding encoder (wire_encoder.h). The wire format: each field
// is a varint key (field_number << 3 | wire_type) then its value; varints are
// little-endian base-128; packed repeated scalars and nested messages are
// length-delimited (wire type 2). Negative int32/enum values are sign-extended
// to 64 bits (10 bytes), as protobuf writes them.
// https://protobuf.dev/programming-guides/encoding/
#include "proto/wire_encoder.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "shardbridge/proto/pb/convert.h"
#include "shardbridge/proto/pb/named_sharding_proto.h"
#include "proto/reduction_entry.h"

namespace shardbridge::proto {
namespace {

using hlo::HloSharding;

// OpSharding field numbers (proto/op_sharding.proto).
enum Field : uint32_t {
  kType = 1,
  kTileAssignmentDimensions = 3,
  kTileAssignmentDevices = 4,
  kTupleShardings = 5,
  kReplicateOnLastTileDim = 6,
  kMetadata = 7,
  kLastTileDims = 8,
  kIotaReshapeDims = 9,
  kIotaTransposePerm = 10,
  kIsShardGroup = 11,
  kShardGroupId = 12,
  kShardGroupType = 13,
  kNamedSharding = 14,
};
constexpr uint32_t kVarint = 0;
constexpr uint32_t kLengthDelimited = 2;

size_t varintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Writes `v` at `p`, returns the end.
char* writeVarint(char* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

void putVarint(std::string& out, uint64_t v) {
  char buf[10];
  char* end = buf;
  while (v >= 0x80) {
    *end++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *end++ = static_cast<char>(v);
  out.append(buf, static_cast<size_t>(end - buf));
}

void putKey(std::string& out, uint32_t field, uint32_t wireType) {
  putVarint(out, field << 3 | wireType);
}

// A varint field with proto3's implicit presence: omitted when zero.
void putScalar(std::string& out, uint32_t field, int64_t value) {
  if (value == 0) return;
  char buf[15];
  char* end = writeVarint(buf, field << 3 | kVarint);
  end = writeVarint(end, static_cast<uint64_t>(value));
  out.append(buf, static_cast<size_t>(end - buf));
}

// A packed repeated int64 / int32 / enum field; omitted when empty. int32
// values widen to int64 first (sign extension), as protobuf's Int32Size and
// WriteInt32 do.
template <typename T>
void putPacked(std::string& out, uint32_t field, std::span<const T> values) {
  if (values.empty()) return;
  size_t bytes = 0;
  for (T v : values) bytes += varintSize(static_cast<uint64_t>(static_cast<int64_t>(v)));
  // One resize for the key, the length and every value (not an append
  // each: profiles showed the appends dominating small shardings).
  const uint32_t key = field << 3 | kLengthDelimited;
  const size_t start = out.size();
  out.resize(start + varintSize(key) + varintSize(bytes) + bytes);
  char* p = writeVarint(out.data() + start, key);
  p = writeVarint(p, bytes);
  for (T v : values) p = writeVarint(p, static_cast<uint64_t>(static_cast<int64_t>(v)));
}

void putBytes(std::string& out, uint32_t field, std::string_view bytes) {
  putKey(out, field, kLengthDelimited);
  putVarint(out, bytes.size());
  out.append(bytes);
}

// A leaf other than a V3 one: the same fields as toProto's, in
// field-number order. Cannot fail, so it returns no Status.
void encodeLeaf(const HloSharding& sharding, std::string& out) {
  hlo::OpShardingType type = hlo::OpShardingType::kOther;
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated: type = hlo::OpShardingType::kReplicated; break;
    case HloSharding::Kind::kSingleDevice: type = hlo::OpShardingType::kMaximal; break;
    case HloSharding::Kind::kManual: type = hlo::OpShardingType::kManual; break;
    case HloSharding::Kind::kUnreduced: type = hlo::OpShardingType::kUnreduced; break;
    case HloSharding::Kind::kUnknown: type = hlo::OpShardingType::kUnknown; break;
    default: break;
  }
  const bool tiled = type == hlo::OpShardingType::kOther;
  const hlo::TileAssignment& tiles = sharding.tileAssignment();
  const auto& iota = tiles.iotaForm();

  putScalar(out, kType, static_cast<int64_t>(type));
  if (tiled) putPacked(out, kTileAssignmentDimensions, tiles.dimensions());
  if (!iota) {
    // Explicit arrays are in memory: devices() cannot fail here.
    if (auto devices = tiles.devices()) putPacked(out, kTileAssignmentDevices, *devices);
  }
  if (tiled) putScalar(out, kReplicateOnLastTileDim, sharding.replicateOnLastTileDim());
  const std::vector<hlo::OpMetadata>& metadata = sharding.metadata();
  for (const hlo::OpMetadata& md : metadata) {
    putBytes(out, kMetadata, metadataToProto(md).SerializeAsString());
  }
  if (appendsSumReductionEntry(sharding, metadata)) {
    // OpMetadata {op_type (1): "sdy::reduction_op", op_name (2): "SUM"}.
    putBytes(out, kMetadata, std::string_view("\x0a\x11sdy::reduction_op\x12\x03SUM", 24));
  }
  if (tiled) {
    putPacked(out, kLastTileDims, std::span<const hlo::OpShardingType>(sharding.subgroupTypes()));
  }
  if (iota) {
    putPacked(out, kIotaReshapeDims, iota->reshapeDims());
    putPacked(out, kIotaTransposePerm, iota->transposePerm());
  }
  const hlo::ShardGroup& group = sharding.shardGroup();
  if (group.isShardGroup()) {
    putScalar(out, kIsShardGroup, 1);
    putScalar(out, kShardGroupId, group.id);
    // OpSharding.ShardGroupType: AS = 0, LIKE = 1.
    putScalar(out, kShardGroupType, group.shardAs ? 0 : 1);
  }
}

// Any sharding. Only a V3 leaf, alone or in a tuple, can fail.
Status encode(const HloSharding& sharding, std::string& out) {
  if (sharding.isTuple()) {
    putScalar(out, kType, static_cast<int64_t>(hlo::OpShardingType::kTuple));
    std::string element;
    for (const HloSharding& e : sharding.tupleElements()) {
      element.clear();
      SB_TRY(encode(e, element));
      putBytes(out, kTupleShardings, element);
    }
    return okStatus();
  }
  if (sharding.kind() == HloSharding::Kind::kNamed) {
    SB_ASSIGN_OR_RETURN(const wire::NamedShardingProto named,
                        namedShardingToProto(*sharding.namedSharding()));
    putBytes(out, kNamedSharding, named.SerializeAsString());
    return okStatus();
  }
  encodeLeaf(sharding, out);
  return okStatus();
}

// A tuple or V3 leaf into `out`, which holds an empty string; on failure
// `out` becomes the error. Out of line, so that the leaves' path builds and
// tests no Status (as toProto's fillFallible; docs/performance.md, seventh
// pass).
[[gnu::noinline]] void encodeFallible(const HloSharding& sharding, Result<std::string>& out) {
  Status status = encode(sharding, *out);
  if (!status) out = std::move(status).error();
}

}  // namespace

Result<std::string> encodeOpSharding(const HloSharding& sharding) {
  Result<std::string> out(std::in_place);
  if (sharding.kind() != HloSharding::Kind::kTuple &&
      sharding.kind() != HloSharding::Kind::kNamed) {
    encodeLeaf(sharding, *out);
    return out;
  }
  encodeFallible(sharding, out);
  return out;
}

}  // namespace shardbridge::proto
