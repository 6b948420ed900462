// Binary, text format and JSON for xla.OpSharding messages.
#include "shardbridge/proto/pb/wire.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace shardbridge::proto {
namespace {

using namespace std::string_literals;

// --- binary -------------------------------------------------------------------

TEST(Binary, UnknownFieldsSurviveARoundTrip) {
  // 08 03: type OTHER. 12 0c ...: tile_shape (field 2), a ShapeProto whose
  //   10 0b: element_type F32; 1a 02 04 06: dimensions [4,6];
  //   2a 04 0a 02 01 00: field 5 (layout, not declared here: unknown) with
  //     minor_to_major [1,0].
  // 1a 02 02 01: tile_assignment_dimensions [2,1]; 22 02 00 01: devices.
  // f8 06 01: field 111, varint 1 (unknown to this proto entirely).
  const std::string bytes =
      "\x08\x03\x12\x0c\x10\x0b\x1a\x02\x04\x06\x2a\x04\x0a\x02\x01\x00"
      "\x1a\x02\x02\x01\x22\x02\x00\x01\xf8\x06\x01"s;
  auto p = parseOpShardingBinary(bytes);
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->tile_shape().dimensions_size(), 2);
  EXPECT_EQ(serializeOpSharding(*p), bytes);
}

TEST(Binary, MalformedInputIsAnError) {
  const std::string cases[] = {
      "\x08"s,              // a tag without its value
      "\x22\x05\x01"s,      // a length past the end
      "\x0f"s,              // wire type 7 does not exist
      "\x3a\x02\x12\x05"s,  // a metadata whose op_name overruns it
  };
  for (const std::string& c : cases) {
    auto p = parseOpShardingBinary(c);
    ASSERT_FALSE(p.has_value());
    EXPECT_EQ(p.error().code, ErrorCode::kParse);
    EXPECT_EQ(p.error().message,
              "cannot parse binary OpSharding: malformed wire format (or a string field that "
              "is not UTF-8, or nesting deeper than 100)");
  }
}

// 2a LEN (08 02 2a LEN (...)): TUPLE inside TUPLE, `levels` deep, written
// outermost first so building it is linear.
std::string nestedTupleBytes(int levels) {
  std::vector<size_t> len(static_cast<size_t>(levels) + 1, 0);
  auto varintSize = [](size_t n) {
    size_t k = 1;
    while (n >= 0x80) {
      n >>= 7;
      ++k;
    }
    return k;
  };
  for (int i = 1; i <= levels; ++i) {
    len[i] = 3 + varintSize(len[i - 1]) + len[i - 1];
  }
  std::string out;
  for (int i = levels; i >= 1; --i) {
    out += "\x08\x02\x2a"s;
    size_t n = len[i - 1];
    while (n >= 0x80) {
      out += static_cast<char>((n & 0x7f) | 0x80);
      n >>= 7;
    }
    out += static_cast<char>(n);
  }
  return out;
}

TEST(Binary, HundredThousandNestedTuplesAreAnError) {
  const std::string bytes = nestedTupleBytes(100000);
  auto p = parseOpShardingBinary(bytes);
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().code, ErrorCode::kParse);
  EXPECT_TRUE(parseOpShardingBinary(nestedTupleBytes(50)).has_value());
}

TEST(Binary, SizeLimit) {
  ProtoParseOptions options;
  options.maxInputBytes = 4;
  auto p = parseOpShardingBinary("\x08\x03\x1a\x02\x02\x02"s, options);
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().message,
            "binary OpSharding input of 6 bytes exceeds the limit of 4 bytes");
}

// --- text format ----------------------------------------------------------------

TEST(Text, PrintsProtobufsDefaultTextFormat) {
  auto p = parseOpShardingText(
      "type: OTHER tile_assignment_dimensions: [2, 2] iota_reshape_dims: 4 "
      "iota_transpose_perm: 0 metadata { op_name: \"a\\\"b\" }");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(printOpShardingText(*p),
            "type: OTHER\n"
            "tile_assignment_dimensions: 2\n"
            "tile_assignment_dimensions: 2\n"
            "metadata {\n"
            "  op_name: \"a\\\"b\"\n"
            "}\n"
            "iota_reshape_dims: 4\n"
            "iota_transpose_perm: 0\n");
  EXPECT_EQ(printOpShardingText(wire::OpSharding()), "");
}

struct TextError {
  std::string text;
  const char* message;  // protobuf's own wording
  size_t offset;
};

TEST(Text, ErrorsCarryTheirByteOffset) {
  const TextError cases[] = {
      {"type: BOGUS", "Unknown enumeration value of \"BOGUS\" for field \"type\".", 11},
      {"type: OTHER\nfoo: 1", "Message type \"xla.OpSharding\" has no field named \"foo\".", 15},
      // A tab advances protobuf's column to the next multiple of 8; the
      // offset still points at the token ("nope", byte 13).
      {"type: OTHER\n\tnope: 1", "Message type \"xla.OpSharding\" has no field named \"nope\".",
       17},
      {"type: MAXIMAL type: OTHER",
       "Non-repeated field \"type\" is specified multiple times.", 18},
      {"metadata { op_name: \"x\" ", "Expected identifier, got: ", 24},
  };
  for (const TextError& c : cases) {
    SCOPED_TRACE(c.text);
    auto p = parseOpShardingText(c.text);
    ASSERT_FALSE(p.has_value());
    EXPECT_EQ(p.error().code, ErrorCode::kParse);
    EXPECT_EQ(p.error().message, c.message);
    EXPECT_EQ(p.error().offset, c.offset);
  }
}

TEST(Text, NestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "tuple_shardings { ";
  for (int i = 0; i < 200; ++i) deep += "} ";
  auto p = parseOpShardingText(deep);
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().code, ErrorCode::kParse);
}

// --- JSON -------------------------------------------------------------------------

TEST(Json, BothDirections) {
  auto p = parseOpShardingText(
      "type: MAXIMAL tile_assignment_devices: 7 metadata { op_name: \"a\" source_line: 2 } "
      "is_shard_group: true shard_group_id: 4 shard_group_type: LIKE");
  ASSERT_TRUE(p.has_value());
  // proto3's canonical JSON: lowerCamelCase names, int64 as strings, int32
  // as numbers, enums by name, defaults left out.
  const std::string json =
      "{\"type\":\"MAXIMAL\",\"tileAssignmentDevices\":[\"7\"],\"metadata\":[{\"opName\":\"a\","
      "\"sourceLine\":2}],\"isShardGroup\":true,\"shardGroupId\":\"4\",\"shardGroupType\":"
      "\"LIKE\"}";
  auto printed = printOpShardingJson(*p);
  ASSERT_TRUE(printed.has_value());
  EXPECT_EQ(*printed, json);
  auto back = parseOpShardingJson(json);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(serializeOpSharding(*back), serializeOpSharding(*p));
  // The proto field names are accepted too.
  auto snake = parseOpShardingJson("{\"type\": \"MAXIMAL\", \"tile_assignment_devices\": [7]}");
  ASSERT_TRUE(snake.has_value());
  EXPECT_EQ(snake->tile_assignment_devices(0), 7);
  EXPECT_EQ(*printOpShardingJson(wire::OpSharding()), "{}");
}

TEST(Json, ErrorsAreParseErrors) {
  const char* cases[] = {"{\"type\": \"BOGUS\"}", "{\"nope\": 1}", "{", "[]"};
  for (const char* c : cases) {
    SCOPED_TRACE(c);
    auto p = parseOpShardingJson(c);
    ASSERT_FALSE(p.has_value());
    EXPECT_EQ(p.error().code, ErrorCode::kParse);
    EXPECT_EQ(p.error().message.rfind("cannot parse JSON OpSharding: ", 0), 0u);
  }
}

}  // namespace
}  // namespace shardbridge::proto
