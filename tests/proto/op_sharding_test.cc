// The encoding-level API (bytes / pbtxt / JSON <-> HloSharding) and the
// bundled examples/op_sharding.{pb,pbtxt}.
#include "shardbridge/proto/op_sharding.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "shardbridge/hlo/text.h"

namespace shardbridge::proto {
namespace {

using namespace std::string_literals;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What examples/op_sharding.pbtxt says it holds (its header comment).
constexpr const char* kExampleSharding =
    "{devices=[4,2]<=[2,4]T(1,0) shard_like 3 metadata={op_type=\"dot\" "
    "op_name=\"layer1/dot\" source_file=\"model.py\" source_line=42}}";

TEST(Examples, BinaryDecodesToTheExpectedSharding) {
  const std::string bytes = readFile(SB_SOURCE_DIR "/examples/op_sharding.pb");
  auto s = parseOpSharding(bytes, ProtoFormat::kBinary);
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->toString(/*includeMetadata=*/true), kExampleSharding);
  // And the committed bytes are exactly what we (and XLA) write for it.
  auto again = printOpSharding(*s, ProtoFormat::kBinary);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, bytes);
}

TEST(Examples, TextFormatMatchesTheBinary) {
  auto s = parseOpSharding(readFile(SB_SOURCE_DIR "/examples/op_sharding.pbtxt"),
                           ProtoFormat::kText);
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->toString(true), kExampleSharding);
  EXPECT_EQ(*printOpSharding(*s, ProtoFormat::kBinary),
            readFile(SB_SOURCE_DIR "/examples/op_sharding.pb"));
}

struct Encoded {
  const char* sharding;
  ProtoFormat format;
  std::string encoded;
};

TEST(PrintOpSharding, EveryFormat) {
  const Encoded cases[] = {
      {"{maximal device=7}", ProtoFormat::kBinary, "\x08\x01\x22\x01\x07"s},
      {"{maximal device=7}", ProtoFormat::kText, "type: MAXIMAL\ntile_assignment_devices: 7\n"},
      {"{maximal device=7}", ProtoFormat::kJson,
       "{\"type\":\"MAXIMAL\",\"tileAssignmentDevices\":[\"7\"]}"},
      {"{replicated}", ProtoFormat::kText, ""},
      {"{replicated}", ProtoFormat::kJson, "{}"},
      {"{devices=[2,2]<=[4] last_tile_dims={manual}}", ProtoFormat::kText,
       "type: OTHER\ntile_assignment_dimensions: 2\ntile_assignment_dimensions: 2\n"
       "last_tile_dims: MANUAL\niota_reshape_dims: 4\niota_transpose_perm: 0\n"},
  };
  for (const Encoded& c : cases) {
    SCOPED_TRACE(std::string(c.sharding) + " as " + protoFormatName(c.format));
    auto s = hlo::parseSharding(c.sharding);
    ASSERT_TRUE(s.has_value());
    auto out = printOpSharding(*s, c.format);
    ASSERT_TRUE(out.has_value());
    EXPECT_EQ(*out, c.encoded);
    auto back = parseOpSharding(c.encoded, c.format);
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(back->toString(), c.sharding);
  }
}

TEST(ParseOpSharding, ErrorKinds) {
  // Syntax: kParse with an offset (text format only).
  auto syntax = parseOpSharding("type: OTHER oops", ProtoFormat::kText);
  ASSERT_FALSE(syntax.has_value());
  EXPECT_EQ(syntax.error().code, ErrorCode::kParse);
  EXPECT_EQ(syntax.error().offset, 16u);
  // The ladder: kInvalid, no offset.
  auto ladder = parseOpSharding("type: MAXIMAL", ProtoFormat::kText);
  ASSERT_FALSE(ladder.has_value());
  EXPECT_EQ(ladder.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(ladder.error().message,
            "Maximal sharding is expected to have single device assignment, but 0 has provided.");
  // V3. 72 00: named_sharding (field 14), empty: the empty mesh, replicated.
  auto v3 = parseOpSharding("\x72\x00"s, ProtoFormat::kBinary);
  ASSERT_TRUE(v3.has_value()) << v3.error().message;
  EXPECT_EQ(v3->toString(), "{mesh[], replicated}");
}

TEST(ProtoFormatName, Spellings) {
  EXPECT_STREQ(protoFormatName(ProtoFormat::kBinary), "pb");
  EXPECT_STREQ(protoFormatName(ProtoFormat::kText), "pbtxt");
  EXPECT_STREQ(protoFormatName(ProtoFormat::kJson), "json");
}

}  // namespace
}  // namespace shardbridge::proto
