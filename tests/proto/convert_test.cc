// fromProto / toProto: XLA's ladder, its messages, the exact bytes ToProto
// produces, metadata, and the round-trip property.
#include "shardbridge/proto/pb/convert.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/pb/wire.h"
#include "proto/tiled_kind_gen.h"
#include "proto/test_helpers.h"

namespace shardbridge::proto {
namespace {

using test_helpers::pbtxt;
using test_helpers::text;

using hlo::HloSharding;



// --- the ladder, one failure per row, in XLA's order (docs/upstream.md § FromProto) -------------

struct LadderError {
  const char* proto;
  ErrorCode code;
  const char* message;
};

TEST(FromProto, LadderErrors) {
  const LadderError cases[] = {
      // Step 1: V3, whatever the other fields say; its own errors.
      {"type: OTHER named_sharding { mesh { axes { name: \"x\" size: 0 } } }",
       ErrorCode::kInvalid, "Mesh axis size must be positive."},
      // Step 3: XLA's RET_CHECK message.
      {"type: TUPLE metadata { op_name: \"x\" }", ErrorCode::kInvalid,
       "Tuple sharding is expected to have no metadata."},
      // ... and errors of elements propagate.
      {"type: TUPLE tuple_shardings { type: MAXIMAL }", ErrorCode::kInvalid,
       "Maximal sharding is expected to have single device assignment, but 0 has provided."},
      // Step 5 (the issue's acceptance case).
      {"type: MAXIMAL", ErrorCode::kInvalid,
       "Maximal sharding is expected to have single device assignment, but 0 has provided."},
      {"type: MAXIMAL tile_assignment_devices: [1, 2]", ErrorCode::kInvalid,
       "Maximal sharding is expected to have single device assignment, but 2 has provided."},
      // Step 6: an enum number XLA does not know (proto3 enums are open).
      {"type: 9", ErrorCode::kInvalid, "RET_CHECK failure: proto.type() == OpSharding::OTHER"},
      // Step 7.
      {"type: OTHER iota_reshape_dims: 2 iota_transpose_perm: 0 tile_assignment_devices: [0, 1]",
       ErrorCode::kInvalid, "RET_CHECK failure: proto.tile_assignment_devices().empty()"},
      {"type: OTHER iota_reshape_dims: [2, 2] iota_transpose_perm: 0", ErrorCode::kInvalid,
       "RET_CHECK failure: proto.iota_reshape_dims().size() == "
       "proto.iota_transpose_perm().size()"},
      {"type: OTHER tile_assignment_dimensions: [2]", ErrorCode::kInvalid,
       "RET_CHECK failure: !proto.tile_assignment_devices().empty()"},
      // Step 9 (after step 8's one-device shortcut, which needs no dims).
      {"type: OTHER tile_assignment_devices: [0, 1]", ErrorCode::kInvalid,
       "RET_CHECK failure: !proto.tile_assignment_dimensions().empty()"},
      {"type: OTHER tile_assignment_dimensions: [2, 0] tile_assignment_devices: [0, 1]",
       ErrorCode::kInvalid, "tile_assignment_dimensions must be positive, but dimension 1 is 0"},
      {"type: OTHER tile_assignment_dimensions: [-2, -1] tile_assignment_devices: [0, 1]",
       ErrorCode::kInvalid, "tile_assignment_dimensions must be positive, but dimension 0 is -2"},
      // Step 10: where XLA's product silently wraps.
      {"type: OTHER tile_assignment_dimensions: [4294967296, 4294967296] "
       "tile_assignment_devices: [0, 1]",
       ErrorCode::kInvalid, "product of tile_assignment_dimensions overflows int64"},
      {"type: OTHER tile_assignment_dimensions: 4 iota_reshape_dims: [4294967296, 4294967296] "
       "iota_transpose_perm: [0, 1]",
       ErrorCode::kInvalid, "product of iota_reshape_dims overflows int64"},
      {"type: OTHER tile_assignment_dimensions: 3 tile_assignment_devices: [0, 1]",
       ErrorCode::kInvalid,
       "RET_CHECK failure: product_of_dimensions == proto.tile_assignment_devices().size()"},
      {"type: OTHER tile_assignment_dimensions: 4 iota_reshape_dims: 2 iota_transpose_perm: 0",
       ErrorCode::kInvalid,
       "RET_CHECK failure: product_of_dimensions == product_of_iota_dimensions"},
      // Step 11: what XLA would build into garbage.
      {"type: OTHER tile_assignment_dimensions: 4 iota_reshape_dims: [2, 2] "
       "iota_transpose_perm: [0, 0]",
       ErrorCode::kInvalid, "iota transpose T(0,0) is not a permutation of the 2 reshape dimensions"},
      // Step 12.
      {"type: OTHER tile_assignment_dimensions: [2, 2] tile_assignment_devices: [0, 1, 2, 3] "
       "last_tile_dims: MANUAL replicate_on_last_tile_dim: true",
       ErrorCode::kInvalid, "RET_CHECK failure: !proto.replicate_on_last_tile_dim()"},
  };
  for (const LadderError& c : cases) {
    SCOPED_TRACE(c.proto);
    auto r = fromProto(pbtxt(c.proto));
    ASSERT_FALSE(r.has_value()) << r->toString();
    EXPECT_EQ(r.error().code, c.code);
    EXPECT_EQ(r.error().message, c.message);
    EXPECT_FALSE(r.error().hasOffset());
  }
}

// --- accepted protos and what XLA makes of them ------------------------------

struct Accepted {
  const char* proto;
  const char* text;  // toString(includeMetadata=true)
};

TEST(FromProto, AcceptedShapes) {
  const Accepted cases[] = {
      // Step 4: tile fields are ignored for the kinds without tiles.
      {"", "{replicated}"},
      {"type: REPLICATED tile_assignment_dimensions: 7 tile_assignment_devices: 3",
       "{replicated}"},
      {"type: MANUAL", "{manual}"},
      {"type: UNKNOWN", "{unknown}"},
      {"type: UNREDUCED", "{unreduced}"},
      // Step 5: MAXIMAL ignores dims (older XLA wrote `tile_assignment_dimensions: 1`).
      {"type: MAXIMAL tile_assignment_dimensions: 1 tile_assignment_devices: 7",
       "{maximal device=7}"},
      {"type: MAXIMAL tile_assignment_devices: -1", "{maximal device=-1}"},
      // Step 8: one device is replicated, even without dims (docs/upstream.md § FromProto, step 8).
      {"type: OTHER tile_assignment_devices: 3", "{replicated}"},
      {"type: OTHER iota_reshape_dims: [1, 1] iota_transpose_perm: [1, 0]", "{replicated}"},
      {"type: OTHER tile_assignment_devices: 3 metadata { op_name: \"m\" } is_shard_group: true "
       "shard_group_id: 4",
       "{replicated shard_as 4 metadata={op_name=\"m\"}}"},
      // Step 11: iota canonicalised, V1 kept as V1 (hlo_sharding_test's
      // proto round trips use these forms).
      {"type: OTHER tile_assignment_dimensions: [2, 2] iota_reshape_dims: [2, 2] "
       "iota_transpose_perm: [0, 1]",
       "{devices=[2,2]<=[4]}"},
      {"type: OTHER tile_assignment_dimensions: [4, 2] iota_reshape_dims: [2, 4] "
       "iota_transpose_perm: [1, 0]",
       "{devices=[4,2]<=[2,4]T(1,0)}"},
      {"type: OTHER tile_assignment_dimensions: [2, 2] tile_assignment_devices: [0, 1, 2, 3]",
       "{devices=[2,2]0,1,2,3}"},
      // Step 12: PartialTile sorts groups; Subgroup normalises.
      {"type: OTHER tile_assignment_dimensions: [2, 1, 2] tile_assignment_devices: [3, 2, 1, 0] "
       "replicate_on_last_tile_dim: true",
       "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}"},
      {"type: OTHER tile_assignment_dimensions: [2, 1, 2] tile_assignment_devices: [3, 2, 1, 0] "
       "last_tile_dims: REPLICATED",
       "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}"},
      {"type: OTHER tile_assignment_dimensions: [2, 2, 2] iota_reshape_dims: 8 "
       "iota_transpose_perm: 0 last_tile_dims: [REPLICATED, MANUAL]",
       "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}"},
      {"type: OTHER tile_assignment_dimensions: [1, 4] iota_reshape_dims: 4 "
       "iota_transpose_perm: 0 last_tile_dims: MANUAL",
       "{manual}"},
      // Step 13: AS -> shard_as; LIKE (and any other number) -> shard_like.
      {"type: OTHER tile_assignment_dimensions: 2 tile_assignment_devices: [1, 0] "
       "is_shard_group: true shard_group_id: 5 shard_group_type: LIKE",
       "{devices=[2]1,0 shard_like 5}"},
      {"type: MANUAL is_shard_group: true shard_group_id: 5 shard_group_type: 7",
       "{manual shard_like 5}"},
      {"type: MANUAL is_shard_group: false shard_group_id: 5", "{manual}"},
      // Tuples: flat, possibly empty; nested tuples are flattened.
      {"type: TUPLE", "{}"},
      {"type: TUPLE tuple_shardings { type: MAXIMAL tile_assignment_devices: 1 } "
       "tuple_shardings { }",
       "{{maximal device=1}, {replicated}}"},
      {"type: TUPLE tuple_shardings { type: TUPLE tuple_shardings { type: MANUAL } } "
       "tuple_shardings { type: UNKNOWN }",
       "{{manual}, {unknown}}"},
  };
  for (const Accepted& c : cases) {
    SCOPED_TRACE(c.proto);
    auto r = fromProto(pbtxt(c.proto));
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(r->toString(/*includeMetadata=*/true), c.text);
  }
}

TEST(FromProto, TupleShardGroupIsKeptButNotWritten) {
  auto r = fromProto(pbtxt("type: TUPLE tuple_shardings { type: MANUAL } is_shard_group: true "
                           "shard_group_id: 2"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->shardGroup(), hlo::ShardGroup::as(2));
  EXPECT_EQ(printOpShardingText(*toProto(*r)), "type: TUPLE\ntuple_shardings {\n  type: MANUAL\n}\n");
}

// Builds TUPLE{TUPLE{...{REPLICATED}}} `levels` deep.
wire::OpSharding nestedTuples(int levels) {
  wire::OpSharding root;
  wire::OpSharding* p = &root;
  for (int i = 0; i < levels; ++i) {
    p->set_type(wire::OpSharding::TUPLE);
    p = p->add_tuple_shardings();
  }
  return root;
}

TEST(FromProto, TupleDepthIsBounded) {
  EXPECT_TRUE(fromProto(nestedTuples(64)).has_value());
  auto r = fromProto(nestedTuples(65));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "tuple shardings nested deeper than 64 levels");
  ProtoParseOptions options;
  options.maxTupleDepth = 2;
  EXPECT_TRUE(fromProto(nestedTuples(2), options).has_value());
  EXPECT_FALSE(fromProto(nestedTuples(3), options).has_value());
}

// fromProto tests the plain iota before its bound on tuple elements; a
// non-TUPLE message with tuple_shardings entries must still meet the bound
// (and otherwise the ladder ignores them), so it is not taken for plain.
TEST(FromProto, PlainIotaWithTupleEntriesTakesTheLadder) {
  wire::OpSharding p = pbtxt("type: OTHER tile_assignment_dimensions: [2, 2] "
                             "iota_reshape_dims: 4 iota_transpose_perm: 0");
  auto plain = fromProto(p);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->toString(), "{devices=[2,2]<=[4]}");
  p.add_tuple_shardings();
  auto withEntry = fromProto(p);
  ASSERT_TRUE(withEntry.has_value());
  EXPECT_EQ(withEntry->toString(), "{devices=[2,2]<=[4]}");
  ProtoParseOptions options;
  options.maxTupleLeaves = 0;
  auto r = fromProto(p, options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message,
            "a tuple has more than 0 elements (counted over every level of nesting)");
}

// Issue 13 item 1: tuple elements are bounded (65,536 over every level, as
// HLO text's tuples), with a clear error, not a gigabyte of leaves.
TEST(FromProto, TupleElementsAreBounded) {
  constexpr char kTooMany[] = "a tuple has more than 3 elements (counted over every level of nesting)";
  ProtoParseOptions options;
  options.maxTupleLeaves = 3;
  wire::OpSharding flat;
  flat.set_type(wire::OpSharding::TUPLE);
  for (int i = 0; i < 3; ++i) flat.add_tuple_shardings();
  EXPECT_TRUE(fromProto(flat, options).has_value());
  flat.add_tuple_shardings();
  auto r = fromProto(flat, options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(r.error().message, kTooMany);
  // Nested: 2 + 2 elements (the inner tuple is one of the outer two).
  wire::OpSharding nested;
  nested.set_type(wire::OpSharding::TUPLE);
  nested.add_tuple_shardings();
  wire::OpSharding* inner = nested.add_tuple_shardings();
  inner->set_type(wire::OpSharding::TUPLE);
  inner->add_tuple_shardings();
  EXPECT_TRUE(fromProto(nested, options).has_value());
  inner->add_tuple_shardings();
  r = fromProto(nested, options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, kTooMany);

  // The default bound, through every format's reader: 65,536 elements read,
  // one more is refused (binary before protobuf builds a message).
  wire::OpSharding big;
  big.set_type(wire::OpSharding::TUPLE);
  for (int i = 0; i < 65536; ++i) big.add_tuple_shardings();
  const std::string ok = big.SerializeAsString();
  auto read = parseOpSharding(ok, ProtoFormat::kBinary);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->tupleElements().size(), 65536u);
  big.add_tuple_shardings();
  const char kDefault[] = "a tuple has more than 65536 elements (counted over every level of nesting)";
  for (ProtoFormat format : {ProtoFormat::kBinary, ProtoFormat::kText, ProtoFormat::kJson}) {
    std::string data = format == ProtoFormat::kBinary ? big.SerializeAsString()
                       : format == ProtoFormat::kText ? printOpShardingText(big)
                                                      : printOpShardingJson(big).value();
    auto refused = parseOpSharding(data, format);
    ASSERT_FALSE(refused.has_value()) << protoFormatName(format);
    EXPECT_EQ(refused.error().message, kDefault) << protoFormatName(format);
  }
  // Text and JSON are bounded before parsing by the messages they open.
  std::string text = "type: TUPLE";
  for (int i = 0; i < 4 * 65536 + 4; ++i) text += " tuple_shardings {}";
  auto early = parseOpShardingText(text);
  ASSERT_FALSE(early.has_value());
  EXPECT_EQ(early.error().message, kDefault);
}

TEST(FromProto, HugeIotaIsAnErrorNotAnAllocation) {
  // The issue's example, {devices=[1000000000,1000000000]<=[10^18]}.
  auto r = fromProto(pbtxt("type: OTHER tile_assignment_dimensions: [1000000000, 1000000000] "
                           "iota_reshape_dims: 1000000000000000000 iota_transpose_perm: 0"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalid);
}

// --- ToProto: exact wire bytes ----------------------------------------------

struct Bytes {
  const char* text;
  std::string bytes;
};

std::string hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (!out.empty()) out += ' ';
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// Expected bytes decoded by hand from xla_data.proto's field numbers (a tag
// byte is field << 3 | wire type; proto3 packs repeated scalars, wire type
// 2, and leaves zero/false/first-enum fields out). The field set is the one
// XLA's ToProto writes (docs/upstream.md § ToProto).
TEST(ToProto, WireBytes) {
  using namespace std::string_literals;
  const Bytes cases[] = {
      // type REPLICATED (0) is the default: nothing at all.
      {"{replicated}", ""s},
      // 08 01: type=MAXIMAL; 22 01 07: tile_assignment_devices=[7]. No dims.
      {"{maximal device=7}", "\x08\x01\x22\x01\x07"s},
      // 22 0a ff..ff 01: device -1 as a ten-byte varint.
      {"{maximal device=-1}", "\x08\x01\x22\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"s},
      // 08 04: MANUAL; 58 01: is_shard_group; 60 03: id 3; 68 01: LIKE.
      {"{manual shard_like 3}", "\x08\x04\x58\x01\x60\x03\x68\x01"s},
      // AS (0) is not written; neither is REPLICATED.
      {"{replicated shard_as 5}", "\x58\x01\x60\x05"s},
      // 08 06: UNREDUCED, then the reduction entry XLA's ToProto adds (3a
      // 18: op_type "sdy::reduction_op", op_name "SUM"; reduction_entry_test.cc);
      // 08 05: UNKNOWN.
      {"{unreduced}", "\x08\x06\x3a\x18\x0a\x11sdy::reduction_op\x12\x03SUM"s},
      {"{unknown}", "\x08\x05"s},
      // 08 03: OTHER; 1a 02 02 02: dims [2,2]; 4a 01 04: iota_reshape_dims
      // [4]; 52 01 00: iota_transpose_perm [0].
      {"{devices=[2,2]<=[4]}", "\x08\x03\x1a\x02\x02\x02\x4a\x01\x04\x52\x01\x00"s},
      // 4a 02 02 04: reshape [2,4]; 52 02 01 00: perm [1,0].
      {"{devices=[4,2]<=[2,4]T(1,0)}", "\x08\x03\x1a\x02\x04\x02\x4a\x02\x02\x04\x52\x02\x01\x00"s},
      // V1: 22 04 03 02 01 00: tile_assignment_devices [3,2,1,0].
      {"{devices=[2,2]3,2,1,0}", "\x08\x03\x1a\x02\x02\x02\x22\x04\x03\x02\x01\x00"s},
      // 1a 03 02 01 02: dims [2,1,2]; 22 04 02 03 00 01: sorted groups;
      // 30 01: replicate_on_last_tile_dim.
      {"{devices=[2,1,2]3,2,1,0 last_tile_dim_replicate}",
       "\x08\x03\x1a\x03\x02\x01\x02\x22\x04\x02\x03\x00\x01\x30\x01"s},
      // 42 01 04: last_tile_dims [MANUAL].
      {"{devices=[2,2]<=[4] last_tile_dims={manual}}",
       "\x08\x03\x1a\x02\x02\x02\x42\x01\x04\x4a\x01\x04\x52\x01\x00"s},
      // 3a 05: one metadata (5 bytes): 12 01 61 op_name "a"; 20 03 source_line 3.
      {"{replicated metadata={op_name=\"a\" source_line=3}}", "\x3a\x05\x12\x01\x61\x20\x03"s},
      // 08 02: TUPLE; 2a 00: an empty element ({replicated}); 2a 05 ...: the
      // maximal element.
      {"{{replicated}, {maximal device=1}}", "\x08\x02\x2a\x00\x2a\x05\x08\x01\x22\x01\x01"s},
      // The empty tuple is just its type.
      {"{}", "\x08\x02"s},
  };
  for (const Bytes& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(hex(serializeOpSharding(*toProto(text(c.text)))), hex(c.bytes));
  }
}

TEST(ToProto, SubgroupTypesKeepStoredOrder) {
  auto s = text("{devices=[2,2,2]<=[8] last_tile_dims={manual, unreduced}}");
  wire::OpSharding p = *toProto(s);
  ASSERT_EQ(p.last_tile_dims_size(), 2);
  EXPECT_EQ(p.last_tile_dims(0), wire::OpSharding::MANUAL);
  EXPECT_EQ(p.last_tile_dims(1), wire::OpSharding::UNREDUCED);
  EXPECT_FALSE(p.replicate_on_last_tile_dim());
}

// --- round trips text -> HloSharding -> proto -> HloSharding ----------------

TEST(RoundTrip, TextProtoText) {
  // Forms from hlo_sharding_test.cc's ToProto/FromProto tests and docs/upstream.md's
  // printed forms.
  const char* cases[] = {
      "{replicated}",
      "{manual}",
      "{unknown}",
      "{unreduced}",
      "{maximal device=3}",
      "{devices=[2,2]<=[4]}",
      "{devices=[4,2]<=[2,4]T(1,0)}",
      "{devices=[2,2]0,2,1,3}",
      "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}",
      "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}",
      "{devices=[2,2,2]<=[8] last_tile_dims={unreduced}}",
      "{devices=[4]<=[4] shard_as 1}",
      "{manual shard_like 0}",
      "{{replicated}, {maximal device=0}, {devices=[2]1,0}}",
      "{replicated metadata={op_type=\"t\" op_name=\"n\" source_file=\"f.py\" source_line=3 "
      "source_end_line=4 source_column=5 source_end_column=6 profile_type={1,2} "
      "deduplicated_name=\"d\" scheduling_name=\"s\" stack_frame_id=9 metadata_payload=\"p\"}}",
      "{maximal device=1 metadata={{op_name=\"a\"}, {op_name=\"b\"}}}",
  };
  for (const char* c : cases) {
    SCOPED_TRACE(c);
    HloSharding s = text(c);
    auto back = fromProto(*toProto(s));
    ASSERT_TRUE(back.has_value()) << back.error().message;
    EXPECT_EQ(*back, s);
    EXPECT_EQ(back->toString(true), c);
  }
}

TEST(RoundTrip, OneDeviceIotaFromTextBecomesReplicated) {
  // The parser keeps {devices=[1,1]<=[1]} tiled; FromProto makes the same
  // thing replicated (docs/upstream.md § FromProto: one device is replicated).
  auto back = fromProto(*toProto(text("{devices=[1,1]<=[1]}")));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->toString(), "{replicated}");
}

// --- metadata -----------------------------------------------------------------

TEST(Metadata, EveryFieldSurvives) {
  wire::OpMetadata m = pbtxt(R"(type: MAXIMAL tile_assignment_devices: 0 metadata {
      op_type: "t" op_name: "n" source_file: "f" source_line: 1 profile_type: [WINDOW, 7]
      size_of_generated_code_in_bytes: 11 size_of_memory_working_set_in_bytes: 12
      profile_info { relative_speedup: 1.5 profile_source: PROFILE_SOURCE_REMOTE }
      deduplicated_name: "d" stack_frame_id: 15 scheduling_name: "s" source_end_line: 17
      source_column: 18 source_end_column: 19 metadata_payload { id: 20 } })")
                          .metadata(0);
  hlo::OpMetadata md = metadataFromProto(m);
  EXPECT_EQ(md.opType, "t");
  EXPECT_EQ(md.sizeOfGeneratedCodeInBytes, 11);
  EXPECT_EQ(md.sizeOfMemoryWorkingSetInBytes, 12);
  EXPECT_EQ(md.profileType, (std::vector<int32_t>{1, 7}));
  EXPECT_EQ(std::get<int64_t>(md.metadataPayload), 20);
  EXPECT_FALSE(md.profileInfoBytes.empty());
  EXPECT_EQ(m.SerializeAsString(), metadataToProto(md).SerializeAsString());
}

TEST(Metadata, EmptySubmessagesAndUnknownFieldsSurvive) {
  using namespace std::string_literals;
  // 12 01 61: op_name "a"; 52 00: empty profile_info; a2 01 00: empty
  // payload; b0 06 2a: unknown field 102 = 42.
  const std::string bytes = "\x12\x01\x61\x52\x00\xa2\x01\x00\xb0\x06\x2a"s;
  wire::OpMetadata m;
  ASSERT_TRUE(m.ParseFromString(bytes));
  EXPECT_EQ(hex(metadataToProto(metadataFromProto(m)).SerializeAsString()), hex(bytes));
}

// --- property: fromProto . toProto == id, metadata kept, bytes stable -------

rc::Gen<hlo::OpMetadata> genMetadata() {
  return rc::gen::map(rc::gen::tuple(rc::gen::elementOf(std::vector<std::string>{"", "a", "x/y"}),
                                     rc::gen::inRange(0, 100)),
                      [](const std::tuple<std::string, int>& t) {
                        hlo::OpMetadata md;
                        md.opName = std::get<0>(t);
                        md.sourceLine = std::get<1>(t);
                        md.sourceFile = std::get<1>(t) % 2 ? "f.py" : "";
                        return md;
                      });
}

// One leaf, built with the hlo factories.
HloSharding genLeaf() {
  auto md = *rc::gen::container<std::vector<hlo::OpMetadata>>(
      *rc::gen::inRange<size_t>(0, 3), genMetadata());
  HloSharding s;
  switch (*rc::gen::inRange(0, 8)) {
    case 0: s = HloSharding::replicate(md); break;
    case 1: s = HloSharding::manual(md); break;
    case 2: s = HloSharding::unknown(md); break;
    case 3: s = HloSharding::unreduced(md); break;
    case 4: s = HloSharding::singleDevice(*rc::gen::inRange<int64_t>(-2, 64), md); break;
    default: {
      auto dims = *rc::gen::container<std::vector<int64_t>>(*rc::gen::inRange<size_t>(1, 4),
                                                            rc::gen::inRange<int64_t>(1, 4));
      int64_t n = 1;
      for (int64_t d : dims) n *= d;
      hlo::TileAssignment tiles;
      if (*rc::gen::arbitrary<bool>()) {
        // An iota over a random reshape/perm of the same size: split n
        // into two factors.
        std::vector<int64_t> reshape;
        for (int64_t f = 2; f <= n; ++f) {
          if (n % f == 0) {
            reshape = {f, n / f};
            break;
          }
        }
        if (reshape.empty()) reshape = {1};
        std::vector<int> perm(reshape.size());
        for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
        if (perm.size() == 2 && *rc::gen::arbitrary<bool>()) std::swap(perm[0], perm[1]);
        tiles = *hlo::TileAssignment::iota(dims, reshape, perm);
      } else {
        std::vector<int64_t> devices(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) devices[static_cast<size_t>(i)] = i;
        for (size_t i = devices.size(); i > 1; --i) {
          std::swap(devices[i - 1], devices[*rc::gen::inRange<size_t>(0, i)]);
        }
        tiles = *hlo::TileAssignment::fromDevices(dims, devices);
      }
      Result<HloSharding> r = genTiledKind(tiles, dims.size(), md);
      RC_PRE(r.has_value());
      s = *r;
      // A one-device tiled sharding comes back replicated (FromProto step 8).
      RC_PRE(s.kind() != HloSharding::Kind::kTiled || s.tileAssignment().numElements() > 1);
    }
  }
  switch (*rc::gen::inRange(0, 3)) {
    case 0: return s.withShardGroup(hlo::ShardGroup::as(*rc::gen::inRange<int64_t>(0, 9)));
    case 1: return s.withShardGroup(hlo::ShardGroup::like(*rc::gen::inRange<int64_t>(0, 9)));
    default: return s;
  }
}

void expectSameMetadata(const HloSharding& a, const HloSharding& b) {
  RC_ASSERT(a.metadata() == b.metadata());
  RC_ASSERT(a.tupleElements().size() == b.tupleElements().size());
  for (size_t i = 0; i < a.tupleElements().size(); ++i) {
    RC_ASSERT(a.tupleElements()[i].metadata() == b.tupleElements()[i].metadata());
  }
}

// What fromProto gives back for `s`: `s` itself, except that XLA's FromProto
// rebuilds last_tile_dims through Subgroup (convert.cc step 12), which
// collapses a leaf without data tiling whose subgroup dims are all of one
// type. Subgroup itself can return such a leaf when it drops size-1 dims of
// another type ([1,2] with {manual, unreduced} -> `{devices=[2]1,0
// last_tile_dims={unreduced}}`, export.h), and that comes back `{unreduced}`.
HloSharding afterProtoTrip(const HloSharding& s) {
  if (s.isTuple()) {
    std::vector<HloSharding> leaves;
    for (const HloSharding& leaf : s.tupleElements()) leaves.push_back(afterProtoTrip(leaf));
    return HloSharding::tuple(std::move(leaves)).withShardGroup(s.shardGroup());
  }
  if (s.kind() != HloSharding::Kind::kTiled || s.subgroupTypes().empty()) return s;
  const std::vector<hlo::OpShardingType>& types = s.subgroupTypes();
  if (!std::all_of(types.begin(), types.end(), [&](auto t) { return t == types[0]; })) return s;
  if (s.tiledDataRank() > 0) {
    auto dims = s.tileAssignment().dimensions();
    for (int64_t d = 0; d < s.tiledDataRank(); ++d) {
      if (dims[static_cast<size_t>(d)] != 1) return s;
    }
  }
  switch (types[0]) {
    case hlo::OpShardingType::kManual:
      return HloSharding::manual(s.metadata()).withShardGroup(s.shardGroup());
    case hlo::OpShardingType::kReplicated:
      return HloSharding::replicate(s.metadata()).withShardGroup(s.shardGroup());
    case hlo::OpShardingType::kUnreduced:
      return HloSharding::unreduced(s.metadata()).withShardGroup(s.shardGroup());
    default:
      return s;
  }
}

RC_GTEST_PROP(RoundTripProperty, FromProtoOfToProtoIsIdentity, ()) {
  HloSharding s;
  if (*rc::gen::inRange(0, 4) == 0) {
    std::vector<HloSharding> leaves;
    const int n = *rc::gen::inRange(0, 7);
    for (int i = 0; i < n; ++i) leaves.push_back(genLeaf());
    s = HloSharding::tuple(std::move(leaves));
  } else {
    s = genLeaf();
  }
  auto proto = toProto(s);
  RC_ASSERT(proto.has_value());
  const wire::OpSharding& p = *proto;
  auto back = fromProto(p);
  RC_ASSERT(back.has_value());
  const HloSharding expected = afterProtoTrip(s);
  if (!(*back == expected) || back->toString(true) != expected.toString(true)) {
    RC_FAIL(s.toString(true) + " came back from its proto as " + back->toString(true) +
            ", expected " + expected.toString(true));
  }
  if (!(expected == s)) RC_TAG("collapsed by Subgroup");
  expectSameMetadata(*back, s);
  // Serialize -> parse -> serialize is the identity on bytes.
  const std::string bytes = serializeOpSharding(p);
  auto parsed = parseOpShardingBinary(bytes);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(serializeOpSharding(*parsed) == bytes);
  if (expected.toString(true) == s.toString(true)) {
    RC_ASSERT(serializeOpSharding(*toProto(*back)) == bytes);
  }
}

// toProto into a message that held other shardings builds what toProto
// builds fresh, field for field and byte for byte: Clear() keeps the
// repeated fields' capacity, and each field is appended to from empty.
RC_GTEST_PROP(ToProtoProperty, ReusedMessageEqualsFresh, ()) {
  wire::OpSharding reused;
  for (int round = 0; round < 3; ++round) {
    HloSharding s;
    if (*rc::gen::inRange(0, 4) == 0) {
      std::vector<HloSharding> leaves;
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) leaves.push_back(genLeaf());
      s = HloSharding::tuple(std::move(leaves));
    } else {
      s = genLeaf();
    }
    RC_ASSERT(toProto(s, &reused).has_value());
    auto fresh = toProto(s);
    RC_ASSERT(fresh.has_value());
    RC_ASSERT(reused.DebugString() == fresh->DebugString());
    RC_ASSERT(serializeOpSharding(reused) == serializeOpSharding(*fresh));
  }
}

}  // namespace
}  // namespace shardbridge::proto
