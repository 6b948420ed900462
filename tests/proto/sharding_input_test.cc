// Format detection and readSharding's fallback rule.
#include "shardbridge/proto/sharding_input.h"

#include <gtest/gtest.h>

#include <string>

namespace shardbridge::proto {
namespace {

using namespace std::string_literals;

struct Detect {
  std::string data;
  ShardingFormat format;
};

TEST(DetectShardingFormat, FirstSignificantByte) {
  const Detect cases[] = {
      {"{replicated}", ShardingFormat::kHloText},
      {"  \n\t{devices=[2]0,1}", ShardingFormat::kHloText},
      {"// a comment\n/* another */ {manual}", ShardingFormat::kHloText},
      {"# pbtxt comment\n{replicated}", ShardingFormat::kHloText},
      {"{}", ShardingFormat::kHloText},
      {"{ \"type\": \"MANUAL\" }", ShardingFormat::kProtoJson},
      {"type: MAXIMAL", ShardingFormat::kProtoText},
      {"# comment\ntype: OTHER", ShardingFormat::kProtoText},
      {"", ShardingFormat::kProtoText},
      {"\x08\x01\x22\x01\x07"s, ShardingFormat::kProtoBinary},  // control bytes
      {"\xff\xfe"s, ShardingFormat::kProtoBinary},              // not UTF-8
      {"op_name: \"\xc3\xa9\""s, ShardingFormat::kProtoText},   // UTF-8 is text
      {"\xc0\xaf"s, ShardingFormat::kProtoBinary},              // overlong
      {"\xed\xa0\x80"s, ShardingFormat::kProtoBinary},          // surrogate
  };
  for (const Detect& c : cases) {
    SCOPED_TRACE(c.data);
    EXPECT_EQ(detectShardingFormat(c.data), c.format);
  }
}

TEST(ReadSharding, EachFormat) {
  struct Row {
    std::string data;
    ShardingFormat format;
    const char* text;
  };
  const Row cases[] = {
      {"{devices=[2,2]<=[2,2]T(0,1)}", ShardingFormat::kHloText, "{devices=[2,2]<=[4]}"},
      {"type: MAXIMAL tile_assignment_devices: 3", ShardingFormat::kProtoText,
       "{maximal device=3}"},
      {"{\"type\": \"MAXIMAL\", \"tileAssignmentDevices\": [\"3\"]}", ShardingFormat::kProtoJson,
       "{maximal device=3}"},
      {"\x08\x01\x22\x01\x03"s, ShardingFormat::kProtoBinary, "{maximal device=3}"},
      // 08 04: type MANUAL; its control bytes make it binary up front.
      {"\x08\x04"s, ShardingFormat::kProtoBinary, "{manual}"},
  };
  for (const Row& c : cases) {
    SCOPED_TRACE(c.data);
    auto r = readSharding(c.data);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(r->format, c.format);
    EXPECT_EQ(r->sharding.toString(), c.text);
  }
}

TEST(ReadSharding, TextThatFailsAsPbtxtButParsesAsBinary) {
  // 60 30 is "`0": printable UTF-8, not valid text format, but a valid
  // binary OpSharding: shard_group_id (field 12) = 48 without
  // is_shard_group, i.e. {replicated}.
  auto r = readSharding("`0");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->format, ShardingFormat::kProtoBinary);
  EXPECT_EQ(r->sharding.toString(), "{replicated}");
}

TEST(ReadSharding, ErrorsOfTheDetectedFormat) {
  // HLO text: the hlo parser's located error.
  auto text = readSharding("{devices=[2,2]0,1,2,3 bogus}");
  ASSERT_FALSE(text.has_value());
  EXPECT_TRUE(text.error().hasOffset());
  // pbtxt that is not binary either: the text-format error.
  auto pbtxt = readSharding("type: NOPE");
  ASSERT_FALSE(pbtxt.has_value());
  EXPECT_EQ(pbtxt.error().message, "Unknown enumeration value of \"NOPE\" for field \"type\".");
  EXPECT_EQ(pbtxt.error().offset, 10u);
  // A ladder error is not retried as binary.
  auto ladder = readSharding("type: MAXIMAL");
  ASSERT_FALSE(ladder.has_value());
  EXPECT_EQ(ladder.error().code, ErrorCode::kInvalid);
  // An explicit format is not second-guessed.
  auto forced = readSharding("{replicated}", ShardingFormat::kProtoText);
  ASSERT_FALSE(forced.has_value());
  EXPECT_EQ(forced.error().code, ErrorCode::kParse);
}

TEST(ShardingFormatName, Spellings) {
  EXPECT_STREQ(shardingFormatName(ShardingFormat::kHloText), "text");
  EXPECT_STREQ(shardingFormatName(ShardingFormat::kProtoText), "pbtxt");
  EXPECT_STREQ(shardingFormatName(ShardingFormat::kProtoBinary), "pb");
  EXPECT_STREQ(shardingFormatName(ShardingFormat::kProtoJson), "json");
}

}  // namespace
}  // namespace shardbridge::proto
