// toProtoOnArena (shardbridge/proto/pb/convert.h): a new message on a
// protobuf Arena, or on the heap for a null arena, whose serialized bytes
// are toProto's, and which fails where toProto fails with toProto's error.
// Compared over every sharding of the hlo goldens (tests/golden/hlo), chosen
// examples of each field, and built shardings (RapidCheck).
#include "shardbridge/proto/pb/convert.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"
#include "shardbridge/proto/pb/wire.h"
#include "proto/tiled_kind_gen.h"

namespace shardbridge::proto {
namespace {

using hlo::HloSharding;

// toProto's bytes, or "error: <code> <message>".
std::string arenaTestByValue(const HloSharding& s) {
  auto p = toProto(s);
  if (!p) {
    return "error: " + std::to_string(static_cast<int>(p.error().code)) + " " + p.error().message;
  }
  return serializeOpSharding(*p);
}

// toProtoOnArena's, the same way; a heap message (null arena) is deleted.
std::string arenaTestOnArena(const HloSharding& s, google::protobuf::Arena* arena) {
  auto p = toProtoOnArena(s, arena);
  if (!p) {
    return "error: " + std::to_string(static_cast<int>(p.error().code)) + " " + p.error().message;
  }
  EXPECT_EQ((*p)->GetArena(), arena);
  std::unique_ptr<wire::OpSharding> owned(arena == nullptr ? *p : nullptr);
  return serializeOpSharding(**p);
}

// Both arenas the bench uses (a stack first block), a heap-grown arena, and
// the heap.
void expectArenaBytesEqual(const HloSharding& s) {
  const std::string expected = arenaTestByValue(s);
  alignas(8) char block[1024];
  google::protobuf::Arena onStack(block, sizeof block);
  EXPECT_EQ(arenaTestOnArena(s, &onStack), expected) << s.toString(true);
  google::protobuf::Arena grown;
  EXPECT_EQ(arenaTestOnArena(s, &grown), expected) << s.toString(true);
  EXPECT_EQ(arenaTestOnArena(s, nullptr), expected) << s.toString(true);
}

// The inputs of a golden file: its lines that are neither comments nor
// separators, as sharding text or OpSharding text format.
std::vector<HloSharding> arenaTestGoldenInputs(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<HloSharding> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.rfind("//", 0) == 0) continue;
    if (auto s = hlo::parseSharding(line)) {
      out.push_back(*s);
    } else if (auto p = parseOpShardingText(line)) {
      if (auto fromMessage = fromProto(*p)) out.push_back(*fromMessage);
    }
  }
  return out;
}

TEST(ToProtoOnArena, GoldenInputsGiveToProtosBytes) {
  size_t count = 0;
  for (const char* name : {"devices", "equal", "parse_errors", "print", "proto", "validate"}) {
    SCOPED_TRACE(name);
    for (const HloSharding& s :
         arenaTestGoldenInputs(std::string(SB_TESTS_DIR) + "/golden/hlo/" + name + ".txt")) {
      expectArenaBytesEqual(s);
      ++count;
    }
  }
  // The goldens hold about sixty inputs that parse; a path or format change
  // that made them unreadable must not pass as "nothing differed".
  EXPECT_GE(count, 40u);
}

TEST(ToProtoOnArena, ExamplesGiveToProtosBytes) {
  const char* texts[] = {
      "{replicated}",
      "{manual}",
      "{unknown}",
      "{unreduced}",
      "{unreduced metadata={op_name=\"u\"}}",
      "{devices=[2,2,2]<=[8] last_tile_dims={manual, unreduced}}",
      "{maximal device=7}",
      "{maximal device=-1 shard_as 3}",
      "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}",
      "{devices=[2,2,2,2]<=[16] last_tile_dims={manual, replicated}}",
      "{devices=[1024,1024]<=[1048576]}",
      "{devices=[2,2]3,2,1,0 shard_like 300}",
      "{maximal device=0 metadata={op_type=\"dot\" op_name=\"a/b\" source_line=42}}",
      "{{replicated}, {maximal device=1}, {devices=[2]0,1 shard_like 2}, {unreduced}}",
      "{}",
      "{mesh['x'=4,'y'=2], [{'y'}, {'x'}]}",
      "{mesh['x'=2,'y'=2], [{'x'}], replicated={'y'}}",
      "{mesh['a'=2,'b'=4,'c'=4,'d'=2], device_ids=([4,16]T(1,0)), [{'a'}]}",
      "{{replicated}, {mesh['a'=2], [{'a'}]}, {devices=[2]<=[2]}}",
  };
  for (const char* text : texts) {
    auto s = hlo::parseSharding(text);
    ASSERT_TRUE(s.has_value()) << text << ": " << s.error().message;
    expectArenaBytesEqual(*s);
  }
}

// A leaf with 4096 devices: its device list outgrows the 1 KiB first block,
// so the arena allocates a block of its own; the bytes do not change.
TEST(ToProtoOnArena, MessagesLargerThanTheFirstBlock) {
  std::string text = "{devices=[64,64]";
  for (int i = 4095; i >= 0; --i) text += std::to_string(i) + (i ? "," : "}");
  auto s = hlo::parseSharding(text);
  ASSERT_TRUE(s.has_value()) << s.error().message;
  expectArenaBytesEqual(*s);
}

// A V3 leaf whose device order (2^25 devices, transposed) is too large to
// materialise: toProto's error, alone and inside a tuple, on every arena and
// through printOpSharding(kBinary).
TEST(ToProtoOnArena, V3LeafFailsAsToProtoFails) {
  for (const char* text :
       {"{mesh['a'=8192,'b'=4096], device_ids=([4096,8192]T(1,0)), [{'a'}]}",
        "{{replicated}, {mesh['a'=8192,'b'=4096], device_ids=([4096,8192]T(1,0)), [{'a'}]}}"}) {
    SCOPED_TRACE(text);
    auto s = hlo::parseSharding(text);
    ASSERT_TRUE(s.has_value()) << s.error().message;
    auto byValue = toProto(*s);
    ASSERT_FALSE(byValue.has_value());
    google::protobuf::Arena arena;
    for (google::protobuf::Arena* a : {&arena, static_cast<google::protobuf::Arena*>(nullptr)}) {
      auto onArena = toProtoOnArena(*s, a);
      ASSERT_FALSE(onArena.has_value());
      EXPECT_EQ(onArena.error().code, byValue.error().code);
      EXPECT_EQ(onArena.error().message, byValue.error().message);
    }
    // The bytes API (the wire encoder, whose leaves take a path without a
    // Status) fails the same way.
    auto encoded = printOpSharding(*s, ProtoFormat::kBinary);
    ASSERT_FALSE(encoded.has_value());
    EXPECT_EQ(encoded.error().code, byValue.error().code);
    EXPECT_EQ(encoded.error().message, byValue.error().message);
  }
}

// Built shardings: leaves of every kind with metadata, subgroups (unreduced
// ones included) and shard groups, and tuples of them.
HloSharding arenaTestGenLeaf() {
  std::vector<hlo::OpMetadata> md;
  for (size_t i = *rc::gen::element<size_t>(0, 0, 1, 2); i > 0; --i) {
    hlo::OpMetadata m;
    m.opName = *rc::gen::element<std::string>("", "a", "x/y");
    m.sourceLine = *rc::gen::inRange(0, 100);
    md.push_back(m);
  }
  HloSharding s;
  switch (*rc::gen::inRange(0, 7)) {
    case 0: s = HloSharding::replicate(md); break;
    case 1: s = HloSharding::manual(md); break;
    case 2: s = HloSharding::unknown(md); break;
    case 3: s = HloSharding::unreduced(md); break;
    case 4: s = HloSharding::singleDevice(*rc::gen::inRange<int64_t>(-2, 300), md); break;
    default: {
      const std::vector<int64_t> dims = *rc::gen::element(
          std::vector<int64_t>{4}, std::vector<int64_t>{2, 2}, std::vector<int64_t>{2, 2, 2},
          std::vector<int64_t>{4, 2, 4});
      int64_t n = 1;
      for (int64_t d : dims) n *= d;
      hlo::TileAssignment tiles;
      if (*rc::gen::arbitrary<bool>()) {
        const std::vector<int64_t> reshape{2, n / 2};
        const std::vector<int> perm =
            *rc::gen::arbitrary<bool>() ? std::vector<int>{1, 0} : std::vector<int>{0, 1};
        tiles = *hlo::TileAssignment::iota(dims, reshape, perm);
      } else {
        std::vector<int64_t> devices(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) devices[static_cast<size_t>(i)] = n - 1 - i;
        tiles = *hlo::TileAssignment::fromDevices(dims, devices);
      }
      Result<HloSharding> r = genTiledKind(tiles, dims.size(), md);
      RC_PRE(r.has_value());
      s = *r;
    }
  }
  switch (*rc::gen::inRange(0, 3)) {
    case 0: return s.withShardGroup(hlo::ShardGroup::as(*rc::gen::inRange<int64_t>(0, 9)));
    case 1: return s.withShardGroup(hlo::ShardGroup::like(*rc::gen::inRange<int64_t>(0, 9)));
    default: return s;
  }
}

RC_GTEST_PROP(ToProtoOnArenaProperty, BytesEqualToProtos, ()) {
  HloSharding s;
  if (*rc::gen::inRange(0, 4) == 0) {
    std::vector<HloSharding> leaves;
    for (int i = *rc::gen::inRange(0, 5); i > 0; --i) leaves.push_back(arenaTestGenLeaf());
    s = HloSharding::tuple(std::move(leaves));
  } else {
    s = arenaTestGenLeaf();
  }
  const std::string expected = arenaTestByValue(s);
  RC_ASSERT(expected.rfind("error", 0) != 0);
  alignas(8) char block[1024];
  google::protobuf::Arena arena(block, sizeof block);
  RC_ASSERT(arenaTestOnArena(s, &arena) == expected);
  RC_ASSERT(arenaTestOnArena(s, nullptr) == expected);
}

}  // namespace
}  // namespace shardbridge::proto
