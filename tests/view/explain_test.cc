// explain (src/view/explain.cc): the sdy form, axes and tiles of HLO and
// sdy inputs. Expected sdy texts were derived by hand from the device
// numbering (device = row-major mesh index) and agree with `shardbridge
// import`.
#include "shardbridge/view/explain.h"

#include <gtest/gtest.h>

#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::view {
namespace {

using I64s = std::vector<int64_t>;

std::string axes(const std::vector<sdy::AxisRefAttr>& list) {
  std::string s;
  for (auto a : list) s += (s.empty() ? "" : ", ") + sdy::printAxisRef(a);
  return s;
}

Explanation explainHlo(sdy::Context& ctx, const char* hlo, const char* mesh,
                       std::optional<std::string> shape) {
  auto s = hlo::parseSharding(hlo).value();
  sdy::MeshAttr m = mesh ? sdy::parseMesh(ctx, mesh).value() : sdy::MeshAttr();
  std::optional<hlo::Shape> sh;
  if (shape) sh = parseViewShape(*shape).value();
  auto e = explainHloSharding(ctx, s, m, "mesh", sh);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return std::move(*e);
}

TEST(Explain, DoneWhenCase) {
  sdy::Context ctx;
  Explanation e = explainHlo(ctx, "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}",
                             "<[\"x\"=8, \"y\"=4]>", "f32[16,32]");
  EXPECT_EQ(sdy::printTensorSharding(e.named), "#sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2}]>");
  EXPECT_EQ(axes(e.replicatedAxes), "\"x\":(1)2, \"x\":(4)2");
  EXPECT_TRUE(e.manualAxes.empty());
  EXPECT_FALSE(e.partitionSpec.exists);
  ASSERT_TRUE(e.tiles);
  EXPECT_EQ(e.tiles->numDevices, 32);
  std::string text = formatExplanation(e);
  EXPECT_NE(text.find("[{\"y\"}, {\"x\":(2)2}]"), std::string::npos);
  EXPECT_NE(text.find("replicated:    {\"x\":(1)2, \"x\":(4)2}"), std::string::npos);
  // Every device has its line: "  31     [3,1] [12,16] [4,16]      [12:16, 16:32]".
  for (int d = 0; d < 32; ++d) {
    EXPECT_NE(text.find("\n  " + std::to_string(d) + " "), std::string::npos) << d;
  }
}

TEST(Explain, InferredMeshAndSpec) {
  sdy::Context ctx;
  Explanation e = explainHlo(ctx, "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", nullptr, std::nullopt);
  EXPECT_EQ(e.meshSource, "inferred");
  EXPECT_EQ(sdy::printMesh(e.mesh), "#sdy.mesh<[\"_axis_0\"=2, \"_axis_1\"=2]>");
  EXPECT_EQ(e.partitionSpec.text, "P('_axis_0', None)");
  EXPECT_EQ(axes(e.replicatedAxes), "\"_axis_1\"");
  EXPECT_EQ(e.tiles->tileCounts, (I64s{2, 1}));
}

TEST(Explain, ManualSubgroupAxesAreManual) {
  sdy::Context ctx;
  Explanation e = explainHlo(ctx, "{devices=[2,1,2]<=[4] last_tile_dims={manual}}",
                             "<[\"a\"=2, \"m\"=2]>", "f32[4,4]");
  EXPECT_EQ(axes(e.manualAxes), "\"m\"");
  EXPECT_TRUE(e.replicatedAxes.empty());
  EXPECT_EQ(e.tiles->tiles[0].devices, (I64s{0, 1}));
}

TEST(Explain, UnreducedAndReplicated) {
  sdy::Context ctx;
  Explanation e = explainHlo(ctx, "{replicated}", "<[\"x\"=2, \"y\"=2]>", "f32[3]");
  EXPECT_EQ(axes(e.replicatedAxes), "\"x\", \"y\"");
  EXPECT_EQ(e.partitionSpec.text, "P(None)");
  EXPECT_EQ(e.tiles->tiles[0].devices, (I64s{0, 1, 2, 3}));
  Explanation u = explainHlo(ctx, "{devices=[2,2]<=[4] last_tile_dims={unreduced}}",
                             "<[\"x\"=2, \"y\"=2]>", std::nullopt);
  EXPECT_EQ(axes(u.unreducedAxes), "\"y\"");
  EXPECT_EQ(u.partitionSpec.text, "P('x', unreduced={'y'})");
}

TEST(Explain, ImportFailureIsReportedNotFatal) {
  sdy::Context ctx;
  Explanation e = explainHlo(ctx, "{devices=[2,2]0,1,3,2}", "<[\"x\"=2, \"y\"=2]>", "f32[4,4]");
  EXPECT_FALSE(e.named);
  EXPECT_NE(e.namedError.find("are not an iota"), std::string::npos) << e.namedError;
  EXPECT_FALSE(e.partitionSpec.exists);
  EXPECT_EQ(e.tiles->tiles[3].devices, (I64s{2}));
}

TEST(Explain, SdyInput) {
  sdy::Context ctx;
  auto mesh = sdy::parseMesh(ctx, "<[\"x\"=2, \"y\"=4]>").value();
  sdy::MeshLookup lookup = [&](std::string_view) { return mesh; };
  auto s = sdy::parseTensorSharding(ctx, "#sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>").value();
  auto e = explainSdySharding(ctx, s, lookup, parseViewShape("[8,4]").value()).value();
  EXPECT_EQ(e.hlo.toString(), "{devices=[4,2]<=[2,4]T(1,0)}");
  EXPECT_EQ(e.partitionSpec.text, "P('y', 'x')");
  EXPECT_EQ(e.tiles->tiles[1].devices, (I64s{4}));
  EXPECT_EQ(e.tiles->tiles[1].offset, (I64s{0, 2}));
  // Wrong rank.
  EXPECT_FALSE(explainSdySharding(ctx, s, lookup, parseViewShape("[8]").value()));
}

TEST(Explain, Errors) {
  sdy::Context ctx;
  auto tuple = hlo::parseSharding("{{replicated}, {replicated}}").value();
  EXPECT_FALSE(explainHloSharding(ctx, tuple, {}, "mesh", std::nullopt));
  auto s = hlo::parseSharding("{devices=[2,2]<=[4]}").value();
  auto bad = explainHloSharding(ctx, s, {}, "mesh", parseViewShape("f32[4]").value());
  ASSERT_FALSE(bad);
  EXPECT_FALSE(parseViewShape("(f32[2], f32[2])"));
  EXPECT_FALSE(parseViewShape("f32[?]"));
  EXPECT_EQ(parseViewShape("16,32")->toString(), "f32[16,32]");
  EXPECT_EQ(parseViewShape("bf16[2]")->toString(), "bf16[2]");
}

TEST(Explain, JsonHasTheSchemaFields) {
  sdy::Context ctx;
  Explanation e = explainHlo(ctx, "{devices=[2]<=[2]}", "<[\"x\"=2]>", "f32[3]");
  std::string json = explanationJson(e);
  for (const char* key : {"\"input_format\": \"hlo\"", "\"sdy\": \"#sdy.sharding<@mesh, [{\\\"x\\\"}]>\"",
                          "\"partition_spec\"", "\"text\": \"P('x')\"", "\"replicated_axes\": []",
                          "\"tile_counts\"", "\"groups\"", "\"offset\"", "\"devices\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  }
}

}  // namespace
}  // namespace shardbridge::view
