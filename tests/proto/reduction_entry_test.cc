// The `sdy::reduction_op` metadata entry: what XLA's HloSharding::ToProto
// writes for unreduced shardings and what its FromProto makes of such entries
// (xla/hlo/ir/hlo_sharding.cc at openxla/xla 183fa00cb5d8, ToProto and
// FromProto; docs/upstream.md § ToProto, § FromProto). The expected bytes
// are decoded by hand from xla_data.proto's field numbers: OpSharding.type 1
// (08), tile_assignment_dimensions 3 (1a), metadata 7 (3a), last_tile_dims 8
// (42), iota_reshape_dims 9 (4a), iota_transpose_perm 10 (52);
// OpMetadata.op_type 1 (0a), op_name 2 (12), source_line 4 (20).
#include "shardbridge/proto/pb/convert.h"

#include <gtest/gtest.h>

#include <string>

#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"
#include "shardbridge/proto/pb/wire.h"
#include "proto/test_helpers.h"

namespace shardbridge::proto {
namespace {

using test_helpers::pbtxt;
using test_helpers::text;

using namespace std::string_literals;
using hlo::HloSharding;

std::string hexBytes(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
    out += ' ';
  }
  return out;
}



// 3a 18 | 0a 11 "sdy::reduction_op" | 12 03 <name>: one metadata entry.
std::string entry(const std::string& name) {
  return "\x3a\x18\x0a\x11sdy::reduction_op\x12\x03"s + name;
}

// Both ways to the bytes: toProto + SerializeToString, and the library's
// encoder (printOpSharding kBinary), which must agree with it.
void expectBytes(const HloSharding& s, const std::string& bytes) {
  auto message = toProto(s);
  ASSERT_TRUE(message.has_value()) << message.error().message;
  EXPECT_EQ(hexBytes(serializeOpSharding(*message)), hexBytes(bytes));
  auto encoded = printOpSharding(s, ProtoFormat::kBinary);
  ASSERT_TRUE(encoded.has_value()) << encoded.error().message;
  EXPECT_EQ(hexBytes(*encoded), hexBytes(bytes));
}

struct Case {
  const char* input;
  std::string bytes;
};

// ToProto: an unreduced leaf, or one with an UNREDUCED subgroup, gets
// {op_type "sdy::reduction_op", op_name "SUM"} after its own metadata.
TEST(ReductionEntry, ToProtoAddsSumToUnreducedLeaves) {
  const Case cases[] = {
      // 08 06: UNREDUCED.
      {"{unreduced}", "\x08\x06"s + entry("SUM")},
      {"{unreduced shard_as 2}", "\x08\x06"s + entry("SUM") + "\x58\x01\x60\x02"s},
      // The sharding's own entry (3a 03 12 01 61: op_name "a") comes first.
      {"{unreduced metadata={op_name=\"a\"}}", "\x08\x06\x3a\x03\x12\x01\x61"s + entry("SUM")},
      // 1a 03 02 02 02: dims; 42 01 06: last_tile_dims [UNREDUCED]; 4a 01 08
      // 52 01 00: <=[8].
      {"{devices=[2,2,2]<=[8] last_tile_dims={unreduced}}",
       "\x08\x03\x1a\x03\x02\x02\x02"s + entry("SUM") + "\x42\x01\x06\x4a\x01\x08\x52\x01\x00"s},
      // 42 02 04 06: [MANUAL, UNREDUCED].
      {"{devices=[2,2,2]<=[8] last_tile_dims={manual, unreduced}}",
       "\x08\x03\x1a\x03\x02\x02\x02"s + entry("SUM") + "\x42\x02\x04\x06\x4a\x01\x08\x52\x01\x00"s},
      // A tuple's unreduced element (2a 1c: 28 bytes) carries it, the tuple not.
      {"{{unreduced}, {replicated}}", "\x08\x02\x2a\x1c\x08\x06"s + entry("SUM") + "\x2a\x00"s},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    expectBytes(text(c.input), c.bytes);
  }
}

TEST(ReductionEntry, ToProtoAddsNothingElsewhere) {
  const Case cases[] = {
      {"{replicated}", ""s},
      {"{manual}", "\x08\x04"s},
      {"{devices=[2,2,2]<=[8] last_tile_dims={manual}}",
       "\x08\x03\x1a\x03\x02\x02\x02\x42\x01\x04\x4a\x01\x08\x52\x01\x00"s},
      // An entry already there is the reduction op XLA would write: not a second one.
      {"{unreduced metadata={op_type=\"sdy::reduction_op\" op_name=\"MAX\"}}",
       "\x08\x06"s + entry("MAX")},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    expectBytes(text(c.input), c.bytes);
  }
}

// FromProto takes reduction entries out of the metadata into the reduction
// op (the last MAX or MIN wins; other names leave it), and ToProto writes
// the op back as one entry after the rest: so what comes back is XLA's
// ToProto(FromProto(bytes)).
TEST(ReductionEntry, FromProtoThenToProtoIsXlas) {
  const Case cases[] = {
      // Moved after the other entry.
      {"type: UNREDUCED metadata { op_type: \"sdy::reduction_op\" op_name: \"MAX\" } "
       "metadata { op_name: \"a\" }",
       "\x08\x06\x3a\x03\x12\x01\x61"s + entry("MAX")},
      // Its other fields are not kept (20 03: source_line 3 is dropped).
      {"type: UNREDUCED metadata { op_type: \"sdy::reduction_op\" op_name: \"SUM\" source_line: 3 }",
       "\x08\x06"s + entry("SUM")},
      // Merged into one: MIN after MAX wins; an unknown name changes nothing.
      {"type: UNREDUCED metadata { op_type: \"sdy::reduction_op\" op_name: \"MAX\" } "
       "metadata { op_type: \"sdy::reduction_op\" op_name: \"MIN\" }",
       "\x08\x06"s + entry("MIN")},
      {"type: UNREDUCED metadata { op_type: \"sdy::reduction_op\" op_name: \"MAX\" } "
       "metadata { op_type: \"sdy::reduction_op\" op_name: \"avg\" }",
       "\x08\x06"s + entry("MAX")},
      {"type: UNREDUCED metadata { op_type: \"sdy::reduction_op\" op_name: \"avg\" }",
       "\x08\x06"s + entry("SUM")},
      // A sharding that is not unreduced keeps MAX or MIN, and loses SUM.
      {"type: REPLICATED metadata { op_type: \"sdy::reduction_op\" op_name: \"MIN\" }",
       entry("MIN")},
      {"type: REPLICATED metadata { op_type: \"sdy::reduction_op\" op_name: \"SUM\" }", ""s},
      {"type: MANUAL metadata { op_name: \"a\" } "
       "metadata { op_type: \"sdy::reduction_op\" op_name: \"SUM\" }",
       "\x08\x04\x3a\x03\x12\x01\x61"s},
      // An UNREDUCED subgroup without an entry gets SUM.
      {"type: OTHER tile_assignment_dimensions: [2, 2] last_tile_dims: [UNREDUCED] "
       "iota_reshape_dims: 4 iota_transpose_perm: 0",
       "\x08\x03\x1a\x02\x02\x02"s + entry("SUM") + "\x42\x01\x06\x4a\x01\x04\x52\x01\x00"s},
      // A tuple's metadata is checked without its reduction entries (so this
      // one is accepted), and a tuple writes no reduction op.
      {"type: TUPLE metadata { op_type: \"sdy::reduction_op\" op_name: \"MAX\" } "
       "tuple_shardings { type: MANUAL }",
       "\x08\x02\x2a\x02\x08\x04"s},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    auto s = fromProto(pbtxt(c.input));
    ASSERT_TRUE(s.has_value()) << s.error().message;
    expectBytes(*s, c.bytes);
  }
}

TEST(ReductionEntry, FromProtoMetadataHoldsTheOpAsToProtoWritesIt) {
  auto s = fromProto(pbtxt(
      "type: UNREDUCED metadata { op_type: \"sdy::reduction_op\" op_name: \"MIN\" source_line: 4 } "
      "metadata { op_name: \"a\" }"));
  ASSERT_TRUE(s.has_value()) << s.error().message;
  ASSERT_EQ(s->metadata().size(), 2u);
  EXPECT_EQ(s->metadata()[0].opName, "a");
  EXPECT_EQ(s->metadata()[1].opType, "sdy::reduction_op");
  EXPECT_EQ(s->metadata()[1].opName, "MIN");
  EXPECT_EQ(s->metadata()[1].sourceLine, 0);
  EXPECT_EQ(s->toString(true),
            "{unreduced metadata={{op_name=\"a\"}, {op_type=\"sdy::reduction_op\" op_name=\"MIN\"}}}");
}

TEST(ReductionEntry, TupleWithOtherMetadataIsStillRefused) {
  auto s = fromProto(pbtxt(
      "type: TUPLE metadata { op_type: \"sdy::reduction_op\" op_name: \"MAX\" } "
      "metadata { op_name: \"a\" }"));
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message, "Tuple sharding is expected to have no metadata.");
}

}  // namespace
}  // namespace shardbridge::proto
