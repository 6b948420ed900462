// PartitionSpec of an sdy sharding: the JAX spellings (docs/upstream.md § Meshes) and the
// reasons there is none.
#include "shardbridge/view/partition_spec.h"

#include <gtest/gtest.h>

#include <ostream>

#include "shardbridge/sdy/text.h"

namespace shardbridge::view {
namespace {

struct Row {
  const char* mesh;
  const char* sharding;
  const char* expected;  // the text, or "none: <reason prefix>"
};

// How CTest's discovered names show a row (without it, gtest prints the
// struct's bytes, addresses that change from build to build).
void PrintTo(const Row& row, std::ostream* os) { *os << row.sharding; }

class PartitionSpecTest : public ::testing::TestWithParam<Row> {};

TEST_P(PartitionSpecTest, Spec) {
  sdy::Context ctx;
  const Row& row = GetParam();
  sdy::MeshAttr mesh = sdy::parseMesh(ctx, row.mesh).value();
  sdy::TensorShardingAttr s = sdy::parseTensorSharding(ctx, row.sharding).value();
  PartitionSpec spec = toPartitionSpec(s, mesh);
  std::string expected = row.expected;
  if (expected.rfind("none: ", 0) == 0) {
    EXPECT_FALSE(spec.exists);
    EXPECT_EQ(spec.reason.rfind(expected.substr(6), 0), 0u) << spec.reason;
  } else {
    EXPECT_TRUE(spec.exists) << spec.reason;
    EXPECT_EQ(spec.text, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PartitionSpecTest,
    ::testing::Values(
        // The acceptance text's own example.
        Row{"<[\"x\"=2, \"y\"=2, \"z\"=2]>", "#sdy.sharding<@mesh, [{\"x\"}, {}, {\"y\", \"z\"}]>",
            "P('x', None, ('y', 'z'))"},
        Row{"<[\"x\"=2]>", "#sdy.sharding<@mesh, []>", "P()"},
        Row{"<[\"x\"=2]>", "#sdy.sharding<@mesh, [{}, {}]>", "P(None, None)"},
        Row{"<[\"x\"=2]>", "#sdy.sharding<@mesh, [{?}, {\"x\"}]>", "P(P.UNCONSTRAINED, 'x')"},
        Row{"<[\"x\"=2, \"w\"=2]>", "#sdy.sharding<@mesh, [{\"x\"}], unreduced={\"w\"}>",
            "P('x', unreduced={'w'})"},
        Row{"<[\"it's\"=2]>", "#sdy.sharding<@mesh, [{\"it's\"}]>", "P('it\\'s')"},
        // The Done-when sharding: a sub-axis.
        Row{"<[\"x\"=8, \"y\"=4]>", "#sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2}]>",
            "none: dimension 1 is sharded over the sub-axis \"x\":(2)2"},
        Row{"<[\"x\"=2]>", "#sdy.sharding<@mesh, [{\"x\", ?}]>", "none: dimension 0 is open"},
        Row{"<[\"x\"=2]>", "#sdy.sharding<@mesh, [{\"x\"}p1]>", "none: dimension 0 has priority p1"},
        Row{"<[\"x\"=4]>", "#sdy.sharding<@mesh, [{}], unreduced={\"x\":(1)2}>",
            "none: the unreduced sub-axis"},
        Row{"<[], device_ids=[3]>", "#sdy.sharding<@mesh, []>",
            "none: the sharding is on a single device (3)"}));

TEST(PartitionSpec, DeviceOrderIsANote) {
  sdy::Context ctx;
  auto mesh = sdy::parseMesh(ctx, "<[\"x\"=2, \"y\"=2], device_ids=[0, 2, 1, 3]>").value();
  auto s = sdy::parseTensorSharding(ctx, "#sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>").value();
  PartitionSpec spec = toPartitionSpec(s, mesh);
  ASSERT_TRUE(spec.exists);
  EXPECT_EQ(spec.text, "P('x', 'y')");
  ASSERT_EQ(spec.notes.size(), 1u);
  EXPECT_EQ(spec.notes[0], "the jax Mesh must list its devices in the mesh's device order [0, 2, 1, 3]");
}

}  // namespace
}  // namespace shardbridge::view
