#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

class PrinterTest : public ::testing::Test {
 protected:
  MeshAttr mesh(std::vector<std::pair<std::string, int64_t>> axes,
                std::vector<int64_t> ids = {}) {
    std::vector<MeshAxisAttr> list;
    for (const auto& [name, size] : axes) list.push_back(MeshAxisAttr::get(ctx_, name, size));
    return MeshAttr::get(ctx_, list, ids);
  }
  AxisRefAttr axis(std::string_view name) { return AxisRefAttr::get(ctx_, name); }
  AxisRefAttr sub(std::string_view name, int64_t pre, int64_t size) {
    return AxisRefAttr::get(ctx_, name, pre, size);
  }
  DimensionShardingAttr dim(std::vector<AxisRefAttr> axes, bool closed = true,
                            std::optional<int64_t> priority = std::nullopt) {
    return DimensionShardingAttr::get(ctx_, axes, closed, priority);
  }
  MeshOrRef ref(std::string_view name) { return MeshOrRef::ref(ctx_, name); }

  Context ctx_;
};

TEST_F(PrinterTest, Meshes) {
  EXPECT_EQ(printMesh(mesh({})), "#sdy.mesh<[]>");
  EXPECT_EQ(printMesh(mesh({}, {3})), "#sdy.mesh<[], device_ids=[3]>");
  EXPECT_EQ(printMesh(mesh({{"a", 2}, {"b", 2}}, {3, 2, 1, 0})),
            "#sdy.mesh<[\"a\"=2, \"b\"=2], device_ids=[3, 2, 1, 0]>");
  // The builder drops iota device ids.
  EXPECT_EQ(printMesh(mesh({{"a", 2}, {"b", 2}}, {0, 1, 2, 3})),
            "#sdy.mesh<[\"a\"=2, \"b\"=2]>");
  EXPECT_EQ(printMesh(mesh({{"a", -3}}, {-1})), "#sdy.mesh<[\"a\"=-3], device_ids=[-1]>");
  EXPECT_EQ(printMesh(mesh({{"x", 8}}), {.withPrefix = false}), "<[\"x\"=8]>");
}

TEST_F(PrinterTest, MeshSymbols) {
  EXPECT_EQ(printMeshSymbol({"mesh", mesh({{"a", 2}})}), "sdy.mesh @mesh = <[\"a\"=2]>");
  EXPECT_EQ(printMeshSymbol({"_m.1$x", mesh({})}), "sdy.mesh @_m.1$x = <[]>");
  // Names that are not bare identifiers are quoted, as MLIR prints symbols.
  EXPECT_EQ(printMeshSymbol({"my mesh", mesh({})}), "sdy.mesh @\"my mesh\" = <[]>");
  EXPECT_EQ(printMeshSymbol({"1m", mesh({})}), "sdy.mesh @\"1m\" = <[]>");
  EXPECT_EQ(printMeshSymbol({"", mesh({})}), "sdy.mesh @\"\" = <[]>");
}

TEST_F(PrinterTest, Shardings) {
  std::vector<DimensionShardingAttr> dims = {dim({axis("a")}, false, 1), dim({})};
  std::vector<AxisRefAttr> replicated = {axis("c")};
  EXPECT_EQ(printTensorSharding(TensorShardingAttr::get(ctx_, ref("mesh"), dims, replicated)),
            "#sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"c\"}>");
  EXPECT_EQ(printTensorSharding(TensorShardingAttr::get(ctx_, ref("mesh"), {})),
            "#sdy.sharding<@mesh, []>");
  std::vector<DimensionShardingAttr> open = {dim({}, false), dim({}, true, 0),
                                             dim({sub("x", 2, 4), axis("y")}, false)};
  EXPECT_EQ(printTensorSharding(TensorShardingAttr::get(ctx_, ref("m"), open)),
            "#sdy.sharding<@m, [{?}, {}p0, {\"x\":(2)4, \"y\", ?}]>");
  EXPECT_EQ(printTensorSharding(TensorShardingAttr::getFullyOpen(ctx_, ref("m"), 2)),
            "#sdy.sharding<@m, [{?}, {?}]>");
  EXPECT_EQ(printTensorSharding(TensorShardingAttr::getFullyClosed(ctx_, ref("m"), 2),
                                {.withPrefix = false}),
            "<@m, [{}, {}]>");
}

TEST_F(PrinterTest, NamedAxisListsAndReductions) {
  std::vector<DimensionShardingAttr> dims = {dim({})};
  std::vector<AxisRefAttr> r = {axis("a"), sub("b", 1, 2)};
  std::vector<AxisRefAttr> u = {axis("w")};
  EXPECT_EQ(printTensorSharding(TensorShardingAttr::get(ctx_, ref("m"), dims, {}, u)),
            "#sdy.sharding<@m, [{}], unreduced={\"w\"}>");
  EXPECT_EQ(printTensorSharding(
                TensorShardingAttr::get(ctx_, ref("m"), dims, {}, u, ReductionOp::kMax)),
            "#sdy.sharding<@m, [{}], unreduced=max{\"w\"}>");
  EXPECT_EQ(printTensorSharding(
                TensorShardingAttr::get(ctx_, ref("m"), dims, r, u, ReductionOp::kMin)),
            "#sdy.sharding<@m, [{}], replicated={\"a\", \"b\":(1)2}, unreduced=min{\"w\"}>");
  // Without unreduced axes the reduction op is not printed at all.
  EXPECT_EQ(printTensorSharding(
                TensorShardingAttr::get(ctx_, ref("m"), dims, r, {}, ReductionOp::kMax)),
            "#sdy.sharding<@m, [{}], replicated={\"a\", \"b\":(1)2}>");
}

TEST_F(PrinterTest, InlineMeshAndPerValue) {
  std::vector<DimensionShardingAttr> dims = {dim({axis("x")})};
  auto inlineSharding =
      TensorShardingAttr::get(ctx_, MeshOrRef::inlineMesh(mesh({{"x", 2}})), dims);
  EXPECT_EQ(printTensorSharding(inlineSharding), "#sdy.sharding<mesh<[\"x\"=2]>, [{\"x\"}]>");

  std::vector<DimensionShardingAttr> two = {dim({axis("a")}), dim({})};
  std::vector<TensorShardingAttr> list = {TensorShardingAttr::get(ctx_, ref("mesh"), two),
                                          TensorShardingAttr::get(ctx_, ref("mesh"), {})};
  auto perValue = TensorShardingPerValueAttr::get(ctx_, list);
  EXPECT_EQ(printTensorShardingPerValue(perValue),
            "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>, <@mesh, []>]>");
  EXPECT_EQ(printTensorShardingPerValue(TensorShardingPerValueAttr::get(ctx_, {})),
            "#sdy.sharding_per_value<[]>");
  EXPECT_EQ(printTensorShardingPerValue(perValue, {.withPrefix = false}),
            "<[<@mesh, [{\"a\"}, {}]>, <@mesh, []>]>");
}

TEST_F(PrinterTest, AxisRefs) {
  EXPECT_EQ(printAxisRef(axis("a")), "\"a\"");
  EXPECT_EQ(printAxisRef(sub("a", 2, 2)), "\"a\":(2)2");
  EXPECT_EQ(printAxisRef(sub("a", 2, 2), {.escapeQuotes = true}), "\\22a\\22:(2)2");
}

TEST_F(PrinterTest, NamesUseMlirStringEscaping) {
  EXPECT_EQ(printAxisRef(axis("a\"b")), "\"a\\22b\"");
  EXPECT_EQ(printAxisRef(axis("a\\b")), "\"a\\\\b\"");
  EXPECT_EQ(printAxisRef(axis(std::string("a\0\n\x7f\xff", 5))), "\"a\\00\\0A\\7F\\FF\"");
  EXPECT_EQ(printAxisRef(axis("~ !")), "\"~ !\"");
}

TEST_F(PrinterTest, EscapedQuotesForm) {
  std::vector<DimensionShardingAttr> dims = {dim({axis("a")}, false)};
  std::vector<AxisRefAttr> replicated = {axis("c")};
  auto sharding = TensorShardingAttr::get(ctx_, ref("mesh"), dims, replicated);
  EXPECT_EQ(printTensorSharding(sharding, {.escapeQuotes = true}),
            "#sdy.sharding<@mesh, [{\\22a\\22, ?}], replicated={\\22c\\22}>");
  // A backslash of the canonical text is escaped once more.
  EXPECT_EQ(printAxisRef(axis("q\""), {.escapeQuotes = true}), "\\22q\\\\22\\22");
  EXPECT_EQ(printMeshSymbol({"a b", mesh({{"x", 2}})}, {.escapeQuotes = true}),
            "sdy.mesh @\\22a b\\22 = <[\\22x\\22=2]>");
}

TEST_F(PrinterTest, PrintAttributeDispatches) {
  EXPECT_EQ(printAttribute(AnyAttr(mesh({}))), "#sdy.mesh<[]>");
  EXPECT_EQ(printAttribute(AnyAttr(MeshSymbol{"m", mesh({})})), "sdy.mesh @m = <[]>");
  EXPECT_EQ(printAttribute(AnyAttr(TensorShardingAttr::get(ctx_, ref("m"), {}))),
            "#sdy.sharding<@m, []>");
  EXPECT_EQ(printAttribute(AnyAttr(TensorShardingPerValueAttr::get(ctx_, {}))),
            "#sdy.sharding_per_value<[]>");
}

TEST_F(PrinterTest, NullHandlesDoNotCrash) {
  EXPECT_EQ(printMesh(MeshAttr()), "#sdy.mesh<<NULL ATTRIBUTE>>");
  EXPECT_EQ(printTensorSharding(TensorShardingAttr()), "#sdy.sharding<<NULL ATTRIBUTE>>");
  EXPECT_EQ(printAxisRef(AxisRefAttr()), "<<NULL ATTRIBUTE>>");
}

}  // namespace
}  // namespace shardbridge::sdy
