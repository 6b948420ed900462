// Tests for xla-sdy-stablehlo-export-manual-reduction-collectives beyond its
// goldens (tests/golden/module/export_manual_reduction_collectives.mlir):
// the warning of the backward unreduced sync, located where upstream's
// syncInOutUnreducedAxes logs it, and which ops stay unchanged.
#include <gtest/gtest.h>

#include <string>

#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

Result<ConvertedModule> runPass(const std::string& text) {
  auto spec = parsePassSpec("xla-sdy-stablehlo-export-manual-reduction-collectives");
  if (!spec) return spec.error();
  return runPasses(text, {*spec});
}

TEST(ExportManualReduction, OverlappingOperandIsWarnedAndLeft) {
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
      "func.func @f(%arg0: tensor<8x4xf32>) -> tensor<4x8xf32> {\n"
      "  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"x\":(2)2}]>]>} : "
      "tensor<8x4xf32>\n"
      "  %1 = stablehlo.transpose %0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], "
      "unreduced={\"x\"}>]>} : (tensor<8x4xf32>) -> tensor<4x8xf32>\n"
      "  return %1 : tensor<4x8xf32>\n}\n";
  auto out = runPass(text);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text, text);
  ASSERT_EQ(out->warnings.size(), 1u);
  EXPECT_EQ(out->warnings[0].offset, text.find("stablehlo.transpose"));
  EXPECT_EQ(out->warnings[0].message,
            "'stablehlo.transpose' has unreduced axes but its operand is sharded along one of them, which can lead "
            "to undefined behavior; the operand's sharding is left as it is");
}

TEST(ExportManualReduction, ReplicatedOperandAxisAlsoOverlaps) {
  // Upstream checks the replicated axes as well as the dims.
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], replicated={\"y\"}>]>} : "
      "tensor<8xf32>\n"
      "  %1 = mhlo.copy %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={\"y\"}>]>} : "
      "tensor<8xf32>\n"
      "  return %1 : tensor<8xf32>\n}\n";
  auto out = runPass(text);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text, text);
  ASSERT_EQ(out->warnings.size(), 1u);
  EXPECT_EQ(out->warnings[0].offset, text.find("mhlo.copy"));
}

TEST(ExportManualReduction, NoWarningForTheLoweredOps) {
  // sdy.replicated_to_unreduced used to be left with a warning.
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.replicated_to_unreduced {\"x\"} %arg0 out_sharding=<@mesh, [{}], unreduced={\"x\"}> : "
      "tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n}\n";
  auto out = runPass(text);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_TRUE(out->warnings.empty());
  EXPECT_EQ(out->text.find("sdy.replicated_to_unreduced"), std::string::npos);
  EXPECT_NE(out->text.find("stablehlo.select"), std::string::npos);
}

TEST(ExportManualReduction, SubAxisOutsideItsAxisIsAnError) {
  // The all_reduce's own axis list is read unverified; a sub-axis that
  // cannot be part of its axis (pre-size 0, a size past the axis, a product
  // that overflows) is an error, not a division by zero (a fuzz crash of
  // mlir_passes_fuzz) or a wrapped product.
  for (const char* axes : {"\"y\":(0)3", "\"y\":(4)3", "\"y\":(2)0", "\"y\":(4611686018427387904)4"}) {
    std::string text =
        "sdy.mesh @mesh = <[\"x\"=4, \"y\"=6]>\n"
        "func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], "
        "unreduced={\"x\", \"y\":(2)3}>}) -> tensor<8x8xf32> {\n"
        "  %0 = sdy.all_reduce {\"x\", " + std::string(axes) + "} %arg0 out_sharding=<@mesh, [{}, {}]> : "
        "tensor<8x8xf32>\n"
        "  return %0 : tensor<8x8xf32>\n}\n";
    auto out = runPass(text);
    ASSERT_FALSE(out.has_value()) << axes;
    EXPECT_NE(out.error().code, ErrorCode::kInternal) << axes << ": " << out.error().message;
    EXPECT_EQ(out.error().offset, text.find("sdy.all_reduce")) << axes << ": " << out.error().message;
  }
}

TEST(ExportManualReduction, AnInvalidMeshIsAnError) {
  // The pass reads meshes without the verifier; an axis of size 0 (named or
  // inline) is the verifier's error at the op's sharding, not a division by
  // zero in the replica groups (a fuzz crash of mlir_passes_fuzz).
  for (const char* mesh : {"@mesh", "mesh<[\"x\"=2, \"y\"=0]>"}) {
    std::string text =
        "sdy.mesh @mesh = <[\"x\"=2, \"y\"=0]>\n"
        "func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<" + std::string(mesh) +
        ", [{}, {}], unreduced={\"x\"}>}) -> tensor<8x8xf32> {\n"
        "  %0 = sdy.all_reduce {\"x\"} %arg0 out_sharding=<" + std::string(mesh) + ", [{}, {}]> : tensor<8x8xf32>\n"
        "  return %0 : tensor<8x8xf32>\n}\n";
    auto out = runPass(text);
    ASSERT_FALSE(out.has_value()) << mesh;
    EXPECT_NE(out.error().code, ErrorCode::kInternal) << mesh << ": " << out.error().message;
    EXPECT_EQ(out.error().offset, text.find("out_sharding") + 13) << mesh << ": " << out.error().message;
    EXPECT_NE(out.error().message.find("at least 1"), std::string::npos) << out.error().message;
  }
}

}  // namespace
}  // namespace shardbridge::module
