// Tests for scanMlir (mlir_scan.h): what the text scanner recognises, the
// positions it reports, and its errors with their exact byte offsets.
#include "shardbridge/module/mlir_scan.h"

#include <gtest/gtest.h>

#include <string>

namespace shardbridge::module {
namespace {

MlirScan scanOk(const std::string& text) {
  auto scan = scanMlir(text);
  EXPECT_TRUE(scan.has_value()) << (scan.has_value() ? "" : scan.error().message);
  return scan.has_value() ? *scan : MlirScan{};
}

TEST(MlirScan, FuncArgumentsResultsOpsAndMeshes) {
  std::string text =
      "module @jit_f attributes {mhlo.num_partitions = 8 : i32} {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"
      "  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>},"
      " %arg1: tensor<8xf32>) -> (tensor<8x8xf32> {jax.result_info = \"r\", mhlo.sharding = \"{replicated}\"}) {\n"
      "    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}]>]>} : tensor<8x8xf32>\n"
      "    return %0 : tensor<8x8xf32>\n"
      "  }\n"
      "}\n";
  MlirScan scan = scanOk(text);
  ASSERT_EQ(scan.meshes.size(), 1u);
  EXPECT_EQ(scan.meshes[0].name, "mesh");
  EXPECT_EQ(scan.meshes[0].text, "<[\"x\"=2, \"y\"=4]>");
  EXPECT_EQ(scan.meshes[0].line, 2);
  EXPECT_EQ(scan.meshes[0].column, 3);
  ASSERT_EQ(scan.shardings.size(), 3u);
  EXPECT_EQ(scan.shardings[0].place, "@main %arg0");
  EXPECT_EQ(scan.shardings[0].attribute, "sdy.sharding");
  EXPECT_EQ(scan.shardings[0].value, "#sdy.sharding<@mesh, [{\"x\"}, {}]>");
  EXPECT_EQ(text.substr(scan.shardings[0].offset, scan.shardings[0].length), scan.shardings[0].value);
  EXPECT_EQ(scan.shardings[0].line, 3);
  EXPECT_EQ(scan.shardings[0].column, static_cast<int>(text.find("#sdy.sharding<") - text.find("  func.func")) + 1);
  EXPECT_EQ(scan.shardings[1].place, "@main result 0");
  EXPECT_EQ(scan.shardings[1].attribute, "mhlo.sharding");
  EXPECT_EQ(scan.shardings[1].value, "{replicated}");
  EXPECT_EQ(text.substr(scan.shardings[1].offset, scan.shardings[1].length), "\"{replicated}\"");
  EXPECT_EQ(scan.shardings[2].place, "%0 = stablehlo.add");
  EXPECT_EQ(scan.shardings[2].line, 4);
}

TEST(MlirScan, StringEscapesAreDecoded) {
  std::string text =
      "func.func @f(%a: tensor<f32> {mhlo.sharding = \"{unreduced metadata={op_type=\\22x\\22 op_name=\\\"SUM\\\"}}\"}) {\n"
      "  return\n}\n";
  MlirScan scan = scanOk(text);
  ASSERT_EQ(scan.shardings.size(), 1u);
  EXPECT_EQ(scan.shardings[0].value, "{unreduced metadata={op_type=\"x\" op_name=\"SUM\"}}");
  EXPECT_EQ(scan.shardings[0].place, "@f %a");
}

TEST(MlirScan, SerializedBytesAreDecoded) {
  std::string text = "func.func @f(%a: tensor<8x8xf32> {mhlo.sharding = \"\\08\\03\\1A\\02\\02\\01\\22\\02\\00\\01\"})\n";
  MlirScan scan = scanOk(text);
  ASSERT_EQ(scan.shardings.size(), 1u);
  EXPECT_EQ(scan.shardings[0].value, std::string("\x08\x03\x1a\x02\x02\x01\x22\x02\x00\x01", 10));
}

TEST(MlirScan, CommentsAndStringsHideLookalikes) {
  std::string text =
      "// sdy.mesh @nope = <[\"x\"=2]>\n"
      "func.func @f(%a: tensor<f32> {x = \"{sdy.sharding = 1} // not a comment\"}) {\n"
      "  // %0 = stablehlo.add %a, %a {mhlo.sharding = \"{replicated}\"} : tensor<f32>\n"
      "  %0 = stablehlo.add %a, %a {mhlo.sharding = \"{maximal device=1}\"} : tensor<f32> // a comment }\n"
      "  return\n}\n";
  MlirScan scan = scanOk(text);
  EXPECT_TRUE(scan.meshes.empty());
  ASSERT_EQ(scan.shardings.size(), 1u);
  EXPECT_EQ(scan.shardings[0].value, "{maximal device=1}");
  EXPECT_EQ(scan.shardings[0].line, 4);
}

TEST(MlirScan, ArrowsAndComparisonsAreNotBrackets) {
  std::string text =
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {m = affine_map<(d0) -> (d0)>} {\n"
      "  %0 = \"foo.op\"(%a) <{p = affine_set<(d0) : (d0 >= 0, d0 <= 4)>}> {mhlo.sharding = \"{replicated}\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n";
  MlirScan scan = scanOk(text);
  ASSERT_EQ(scan.shardings.size(), 1u);
  EXPECT_EQ(scan.shardings[0].place, "%0 = foo.op");
}

TEST(MlirScan, ConstraintsManualComputationsAndRoundTripForm) {
  std::string text =
      "module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\22x\\22=2]>}\"}} {\n"
      "  func.func @f(%a: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = \"#sdy.sharding<@mesh, [{\\22x\\22}]>\"}}) -> tensor<8xf32> {\n"
      "    %1 = sdy.sharding_constraint %a <@mesh, [{\"x\"}]> : tensor<8xf32>\n"
      "    %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={\"x\"} (%b: tensor<4xf32>) {\n"
      "      sdy.return %b : tensor<4xf32>\n"
      "    } : (tensor<8xf32>) -> tensor<8xf32>\n"
      "    return %2 : tensor<8xf32>\n  }\n}\n";
  MlirScan scan = scanOk(text);
  ASSERT_EQ(scan.meshes.size(), 1u);
  EXPECT_EQ(scan.meshes[0].name, "mesh");
  EXPECT_EQ(scan.meshes[0].text, "#sdy.mesh<[\"x\"=2]>");
  ASSERT_EQ(scan.shardings.size(), 4u);
  EXPECT_EQ(scan.shardings[0].attribute, "xla.sdy.sharding");
  EXPECT_EQ(scan.shardings[0].value, "#sdy.sharding<@mesh, [{\"x\"}]>");
  EXPECT_EQ(scan.shardings[1].attribute, "sdy.sharding_constraint");
  EXPECT_EQ(scan.shardings[1].place, "sdy.sharding_constraint %a");
  EXPECT_EQ(scan.shardings[1].value, "<@mesh, [{\"x\"}]>");
  EXPECT_EQ(scan.shardings[2].place, "sdy.manual_computation in_shardings[0]");
  EXPECT_EQ(scan.shardings[3].attribute, "out_shardings");
}

struct ErrorRow {
  const char* text;
  const char* message;
  size_t offset;
};

class MlirScanErrors : public ::testing::TestWithParam<ErrorRow> {};

TEST_P(MlirScanErrors, LocatedError) {
  const ErrorRow& row = GetParam();
  auto scan = scanMlir(row.text);
  ASSERT_FALSE(scan.has_value()) << row.text;
  EXPECT_EQ(scan.error().message, row.message);
  EXPECT_EQ(scan.error().offset, row.offset);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, MlirScanErrors,
    ::testing::Values(
        // Truncated: the last open bracket is named (the op tree's
        // messages, module/op_tree.h).
        ErrorRow{"func.func @f(%a: tensor<f32>) {\n  return",
                 "unexpected end of input: the region opened here is not closed", 30},
        ErrorRow{"module {\n  func.func @f(%a: tensor<f32", "unexpected end of input: '<' opened here is not closed", 34},
        ErrorRow{"func.func @f(%a: tensor<f32> {mhlo.sharding = \"{repl", "unterminated string literal", 46},
        ErrorRow{"func.func @f() {\n  %0 = foo.bar ) \n}", "unbalanced ')'", 32},
        ErrorRow{"sdy.mesh @m <[\"x\"=2]>", "expected 'sdy.mesh @name = <...>', got '<'", 12},
        ErrorRow{"func.func @f(%a tensor<f32>)", "expected ':' after argument name, got 't'", 16},
        ErrorRow{"func.func @f(%a: tensor<f32> {mhlo.sharding = \"\\q\"})", "unknown escape in string literal", 47},
        ErrorRow{"func.func @f(%a: tensor<f32> {a = })", "expected attribute value, got '}'", 34},
        ErrorRow{"func.func @f(%a: tensor<f32> {1 = 2})", "expected attribute name, got '1'", 30}));

TEST(MlirScan, NestingIsBounded) {
  std::string text = "func.func @f() {\n  %0 = foo.op " + std::string(5000, '(') + "\n}";
  auto scan = scanMlir(text);
  ASSERT_FALSE(scan.has_value());
  EXPECT_EQ(scan.error().message, "brackets nested deeper than 512 levels");
}

}  // namespace
}  // namespace shardbridge::module
