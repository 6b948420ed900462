// V3 named shardings through xla.NamedShardingProto. Expected protos follow
// XLA's Mesh::ToProto / AxisRef::ToProto (xla/hlo/ir/mesh_and_axis.cc): axes
// by name and size, device_ids only for a non-trivial device order, axis refs
// by mesh index with an optional sub_axis_info.
#include "shardbridge/proto/pb/named_sharding_proto.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "shardbridge/hlo/text.h"

namespace shardbridge::proto {
namespace {

wire::NamedShardingProto parseText(const std::string& text) {
  wire::NamedShardingProto p;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p)) << text;
  return p;
}

std::string printText(const wire::NamedShardingProto& p) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  std::string out;
  printer.PrintToString(p, &out);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

const hlo::NamedSharding& namedOf(const hlo::HloSharding& s) { return *s.namedSharding(); }

TEST(NamedShardingProtoTest, ToProtoWritesWhatXlaWrites) {
  struct Row {
    const char* v3;
    const char* proto;
  };
  const Row rows[] = {
      {"{mesh['x'=2,'y'=4], [{'x'}, {'y', ?}]}",
       "mesh { axes { name: \"x\" size: 2 } axes { name: \"y\" size: 4 } } "
       "dim_shardings { axes { } is_closed: true } "
       "dim_shardings { axes { mesh_axis_index: 1 } }"},
      {"{mesh['x'=8], [{'x':(2)4}], unreduced={'x':(1)2}}",
       "mesh { axes { name: \"x\" size: 8 } } "
       "dim_shardings { axes { sub_axis_info { pre_size: 2 size: 4 } } is_closed: true } "
       "unreduced_axes { sub_axis_info { pre_size: 1 size: 2 } }"},
      // A non-trivial device order is written as the materialised ids.
      {"{mesh['a'=2,'b'=2], device_ids=(0,2,1,3), [{'a'}, {}], manual={'b'}}",
       "mesh { axes { name: \"a\" size: 2 } axes { name: \"b\" size: 2 } "
       "device_ids: 0 device_ids: 2 device_ids: 1 device_ids: 3 } "
       "dim_shardings { axes { } is_closed: true } dim_shardings { is_closed: true } "
       "manual_axes { mesh_axis_index: 1 }"},
      {"{maximal_mesh[device_id=5]}", "mesh { device_ids: 5 }"},
      {"{mesh[], replicated}", "mesh { }"},
  };
  for (const Row& row : rows) {
    auto parsed = hlo::parseSharding(row.v3);
    ASSERT_TRUE(parsed.has_value()) << row.v3 << ": " << parsed.error().message;
    ASSERT_TRUE(parsed->isNamed()) << row.v3;
    auto proto = namedShardingToProto(namedOf(*parsed));
    ASSERT_TRUE(proto.has_value()) << row.v3;
    EXPECT_EQ(printText(*proto), row.proto) << row.v3;
    // And back.
    auto back = namedShardingFromProto(*proto);
    ASSERT_TRUE(back.has_value()) << row.v3 << ": " << back.error().message;
    EXPECT_EQ(back->toString(), parsed->toString());
    EXPECT_TRUE(*back == *parsed);
  }
}

TEST(NamedShardingProtoTest, ReadsIotaTransform) {
  // Field 3 (2026): the device order as iota(4).reshape([2,2]).transpose([1,0]).
  auto p = parseText(
      "mesh { axes { name: \"a\" size: 2 } axes { name: \"b\" size: 2 } "
      "iota_transform { reshape_dims: 2 reshape_dims: 2 transpose_perm: 1 transpose_perm: 0 } } "
      "dim_shardings { axes { } is_closed: true }");
  auto s = namedShardingFromProto(p);
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->toString(), "{mesh['a'=2,'b'=2], device_ids=([2,2]T(1,0)), [{'a'}]}");
}

TEST(NamedShardingProtoTest, MetadataTravels) {
  auto parsed = hlo::parseSharding("{mesh['x'=2], [{'x'}], metadata={{op_name=\"a\"}}}");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  auto proto = namedShardingToProto(namedOf(*parsed));
  ASSERT_TRUE(proto.has_value());
  ASSERT_EQ(proto->metadata_size(), 1);
  EXPECT_EQ(proto->metadata(0).op_name(), "a");
  auto back = namedShardingFromProto(*proto);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->toString(/*includeMetadata=*/true), parsed->toString(true));
}

TEST(NamedShardingProtoTest, RejectsWhatXlaChecks) {
  struct Row {
    const char* proto;
    const char* message;
  };
  const Row rows[] = {
      {"mesh { device_ids: 1 device_ids: 2 }",
       "Maximal mesh must have exactly 1 device id, got 2"},
      {"mesh { axes { name: \"x\" size: 2 } } dim_shardings { axes { mesh_axis_index: 3 } }",
       "Axis index must be less than number of axes. Axis index: 3, Number of axes: 1"},
      {"mesh { axes { name: \"x\" size: 0 } }", "Mesh axis size must be positive."},
      {"mesh { axes { name: \"x\" size: 2 } axes { name: \"x\" size: 2 } }",
       "Mesh has duplicate axis names. Duplicate axis name: x"},
      {"mesh { axes { name: \"x\" size: 2 } device_ids: 1 device_ids: 1 }",
       "Device ids must be a permutation of [0,1,2,3...]."},
      {"mesh { axes { name: \"x\" size: 8 } } "
       "dim_shardings { axes { sub_axis_info { pre_size: 2 size: 3 } } }",
       "Sub-axis next_pre_size must divide the full axis size. Next pre-size: 6, Axis size: 8"},
      {"mesh { axes { name: \"a\" size: 2 } iota_transform { reshape_dims: 2 } }",
       "iota_transform reshape_dims and transpose_perm differ in length: 1 vs 0"},
  };
  for (const Row& row : rows) {
    auto s = namedShardingFromProto(parseText(row.proto));
    ASSERT_FALSE(s.has_value()) << row.proto << " gave " << s->toString();
    EXPECT_EQ(s.error().message, row.message) << row.proto;
    EXPECT_EQ(s.error().code, ErrorCode::kInvalid) << row.proto;
  }
}

}  // namespace
}  // namespace shardbridge::proto
