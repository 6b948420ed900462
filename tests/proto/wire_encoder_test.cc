// The direct OpSharding encoder against protobuf's serializer: for every
// sharding, encodeOpSharding(s) == toProto(s)->SerializeToString(), byte for
// byte (issue 14 item 2 allows a direct encoder only with this proof).
#include "proto/wire_encoder.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"
#include "shardbridge/proto/pb/convert.h"
#include "shardbridge/proto/pb/wire.h"

namespace shardbridge::proto {
namespace {

using hlo::HloSharding;
using hlo::OpShardingType;
using hlo::TileAssignment;

std::string protobufBytes(const HloSharding& s) {
  auto p = toProto(s);
  if (!p) return "error: " + p.error().message;
  std::string out;
  p->SerializeToString(&out);
  return out;
}

std::string directBytes(const HloSharding& s) {
  auto b = encodeOpSharding(s);
  return b ? *b : "error: " + b.error().message;
}

// --- examples: one per field the encoder writes ------------------------------

TEST(WireEncoder, MatchesProtobufOnExamples) {
  const char* texts[] = {
      "{replicated}",
      "{manual}",
      "{unknown}",
      "{unreduced}",
      "{maximal device=7}",
      "{maximal device=-1}",
      "{devices=[4,2]<=[2,4]T(1,0)}",
      "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}",
      "{devices=[2,2,2,2]<=[16] last_tile_dims={manual, replicated}}",
      "{devices=[1024,1024]<=[1048576]}",
      "{devices=[2,2]3,2,1,0}",
      "{devices=[2,2]0,1,2,-5}",
      "{devices=[2,1]0,200000 shard_as 0}",
      "{devices=[2,2]<=[4] shard_like 300}",
      "{maximal device=3 shard_as -7}",
      "{{replicated}, {maximal device=1}, {devices=[2]0,1 shard_like 2}}",
      "{}",
      "{maximal device=0 metadata={op_type=\"dot\" op_name=\"a/b\" source_file=\"m.py\" source_line=42}}",
      "{mesh['x'=4,'y'=2], [{'y'}, {'x'}]}",
      "{mesh['x'=2,'y'=2], [{'x'}], replicated={'y'}}",
  };
  for (const char* text : texts) {
    auto s = hlo::parseSharding(text);
    ASSERT_TRUE(s.has_value()) << text << ": " << s.error().message;
    EXPECT_EQ(directBytes(*s), protobufBytes(*s)) << text;
    EXPECT_EQ(*printOpSharding(*s, ProtoFormat::kBinary), protobufBytes(*s)) << text;
  }
}

TEST(WireEncoder, LongVarintsAndLengths) {
  // A 300-device list: a two-byte packed length; ids up to 2^40: long varints.
  std::vector<int64_t> ids(300);
  std::iota(ids.begin(), ids.end(), int64_t{1} << 40);
  ids[7] = -1;  // ten bytes
  const HloSharding s =
      HloSharding::tile(TileAssignment::fromDevices(std::vector<int64_t>{300}, ids).value())
          .value();
  EXPECT_EQ(directBytes(s), protobufBytes(s));
}

// --- property over built shardings --------------------------------------------

std::vector<int> genPermutation(size_t n) {
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[*rc::gen::inRange<size_t>(0, i)]);
  return perm;
}

hlo::OpMetadata genEncoderMetadata() {
  hlo::OpMetadata md;
  md.opType = *rc::gen::element<std::string>("", "dot", "add");
  md.opName = *rc::gen::container<std::string>(*rc::gen::inRange<size_t>(0, 4),
                                               rc::gen::element('a', '/', 'z'));
  md.sourceFile = *rc::gen::element<std::string>("", "x.py");
  md.sourceLine = *rc::gen::arbitrary<int32_t>();
  md.sourceColumn = *rc::gen::inRange(-2, 3);
  md.stackFrameId = *rc::gen::inRange(0, 3);
  md.sizeOfGeneratedCodeInBytes = *rc::gen::element<int64_t>(0, 1, -1, int64_t{1} << 40);
  md.profileType = *rc::gen::container<std::vector<int32_t>>(*rc::gen::inRange<size_t>(0, 3),
                                                             rc::gen::inRange(-1, 4));
  if (*rc::gen::arbitrary<bool>()) md.metadataPayload = int64_t{*rc::gen::inRange(-3, 3)};
  return md;
}

TileAssignment genTiles() {
  std::vector<int64_t> dims;
  const size_t rank = *rc::gen::inRange<size_t>(1, 5);
  for (size_t i = 0; i < rank; ++i) dims.push_back(*rc::gen::element<int64_t>(1, 2, 2, 3, 4));
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  if (*rc::gen::arbitrary<bool>()) {
    std::vector<int64_t> devices(static_cast<size_t>(n));
    for (auto& d : devices) d = *rc::gen::element<int64_t>(0, 1, 5, 127, 128, 16384, -1, -300);
    return TileAssignment::fromDevices(dims, devices).value();
  }
  // An iota: n split into random factors, in a random order.
  std::vector<int64_t> reshape;
  int64_t rest = n;
  for (int64_t f = 2; rest > 1;) {
    if (rest % f != 0) {
      ++f;
      continue;
    }
    if (reshape.empty() || *rc::gen::arbitrary<bool>()) {
      reshape.push_back(f);
    } else {
      reshape.back() *= f;
    }
    rest /= f;
  }
  if (reshape.empty()) reshape.push_back(1);
  return TileAssignment::iota(dims, reshape, genPermutation(reshape.size())).value();
}

HloSharding genEncoderLeaf() {
  std::vector<hlo::OpMetadata> md;
  for (size_t i = *rc::gen::element<size_t>(0, 0, 0, 1, 2); i > 0; --i) md.push_back(genEncoderMetadata());
  HloSharding s;
  switch (*rc::gen::inRange(0, 8)) {
    case 0: s = HloSharding::replicate(md); break;
    case 1: s = HloSharding::manual(md); break;
    case 2: s = HloSharding::unknown(md); break;
    case 3: s = HloSharding::unreduced(md); break;
    case 4: s = HloSharding::singleDevice(*rc::gen::arbitrary<int64_t>(), md); break;
    case 5: s = HloSharding::tile(genTiles(), md).value(); break;
    case 6: {
      auto r = HloSharding::partialTile(genTiles(), md);
      if (r) s = *r;
      break;
    }
    default: {
      const TileAssignment tiles = genTiles();
      std::vector<OpShardingType> types;
      for (size_t i = *rc::gen::inRange<size_t>(0, static_cast<size_t>(tiles.numDimensions()) + 1);
           i > 0; --i) {
        types.push_back(*rc::gen::element(OpShardingType::kManual, OpShardingType::kReplicated,
                                          OpShardingType::kUnreduced, OpShardingType::kMaximal));
      }
      auto r = HloSharding::subgroup(tiles, types, md);
      if (r) s = *r;
    }
  }
  switch (*rc::gen::inRange(0, 4)) {
    case 0: s = s.withShardGroup(hlo::ShardGroup::as(*rc::gen::inRange<int64_t>(-2, 300))); break;
    case 1: s = s.withShardGroup(hlo::ShardGroup::like(*rc::gen::inRange<int64_t>(-2, 300))); break;
    default: break;
  }
  return s;
}

HloSharding genSharding() {
  if (*rc::gen::inRange(0, 4) != 0) return genEncoderLeaf();
  std::vector<HloSharding> leaves;
  for (size_t i = *rc::gen::inRange<size_t>(0, 7); i > 0; --i) leaves.push_back(genEncoderLeaf());
  return HloSharding::tuple(std::move(leaves));
}

RC_GTEST_PROP(WireEncoderProps, BuiltShardingsEncodeAsProtobufDoes, ()) {
  const HloSharding s = genSharding();
  RC_ASSERT(directBytes(s) == protobufBytes(s));
}

// --- property over arbitrary wire input ----------------------------------------
//
// Whatever protobuf parses and fromProto accepts (unknown fields, odd field
// orders, repeated scalars, all of it) comes back through both encoders
// identically.
RC_GTEST_PROP(WireEncoderProps, ParsedBytesEncodeAsProtobufDoes, (const std::string& junk)) {
  auto proto = parseOpShardingBinary(junk);
  if (!proto) return;
  auto s = fromProto(*proto);
  if (!s) return;
  RC_ASSERT(directBytes(*s) == protobufBytes(*s));
}

// Random messages field by field (any type number, dims, devices, iota
// parts, subgroup types, flags, shard groups, nested tuples): whatever
// fromProto accepts encodes identically.
void fillRandom(wire::OpSharding& p, int depth) {
  p.set_type(static_cast<wire::OpSharding::Type>(*rc::gen::inRange(0, 8)));
  if (p.type() == wire::OpSharding::TUPLE && depth < 2) {
    for (int i = *rc::gen::inRange(0, 4); i > 0; --i) fillRandom(*p.add_tuple_shardings(), depth + 1);
    return;
  }
  for (int i = *rc::gen::inRange(0, 4); i > 0; --i) {
    p.add_tile_assignment_dimensions(*rc::gen::element<int64_t>(1, 2, 2, 3, 4));
  }
  int64_t n = 1;
  for (int64_t d : p.tile_assignment_dimensions()) n *= d;
  if (*rc::gen::arbitrary<bool>()) {
    for (int64_t i = 0; i < n; ++i) {
      p.add_tile_assignment_devices(*rc::gen::element<int64_t>(0, 1, 2, 200, -1, int64_t{1} << 35));
    }
  } else if (n > 0) {
    p.add_iota_reshape_dims(n);
    p.add_iota_transpose_perm(0);
  }
  if (*rc::gen::arbitrary<bool>()) p.set_replicate_on_last_tile_dim(true);
  for (int i = *rc::gen::element(0, 0, 1, 2); i > 0; --i) {
    p.add_last_tile_dims(static_cast<wire::OpSharding::Type>(*rc::gen::element(1, 3, 4, 5, 6)));
  }
  if (*rc::gen::arbitrary<bool>()) {
    p.set_is_shard_group(true);
    p.set_shard_group_id(*rc::gen::element<int64_t>(0, 1, -1, 1000));
    p.set_shard_group_type(static_cast<wire::OpSharding::ShardGroupType>(*rc::gen::inRange(0, 2)));
  }
  if (*rc::gen::inRange(0, 4) == 0) {
    wire::OpMetadata* md = p.add_metadata();
    md->set_op_name(*rc::gen::element<std::string>("", "a/b"));
    md->set_source_line(*rc::gen::inRange(-2, 100));
  }
}

RC_GTEST_PROP(WireEncoderProps, RandomMessagesEncodeAsProtobufDoes, ()) {
  wire::OpSharding p;
  fillRandom(p, 0);
  auto s = fromProto(p);
  if (!s) return;
  RC_ASSERT(directBytes(*s) == protobufBytes(*s));
}

}  // namespace
}  // namespace shardbridge::proto
