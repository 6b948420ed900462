// Tests for the shard-map export (xla-sdy-stablehlo-round-trip-shard-map-export)
// beyond its goldens (tests/golden/module/): a result name defined twice,
// which the op tree lets through, is a located parse error, never an
// internal one.
#include <gtest/gtest.h>

#include <string>

#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

std::string manual(const std::string& result, const std::string& inner) {
  return "  " + result +
         " = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] out_shardings=[<@mesh, [{\"a\"}]>] "
         "manual_axes={\"a\"} (%b: tensor<4xf32>) {\n" +
         inner + "    sdy.return %b : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n";
}

TEST(ShardMapExport, AManualComputationResultDefinedTwiceIsAParseError) {
  // In one block, and inside the computation that defines the name: the
  // uses of the name were redirected twice, an internal "overlapping
  // rewrites" (mlir_passes_fuzz).
  const std::string head = "sdy.mesh @mesh = <[\"a\"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n";
  const std::string tail = "  return %0 : tensor<8xf32>\n}\n";
  const std::string inner = "    %0 = sdy.manual_computation(%b) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, "
                            "[{}]>] manual_axes={} (%c: tensor<4xf32>) {\n      sdy.return %c : tensor<4xf32>\n    } "
                            ": (tensor<4xf32>) -> tensor<4xf32>\n";
  for (const std::string& body : {manual("%0", "") + manual("%0", ""), manual("%0", inner)}) {
    std::string text = head + body + tail;
    auto out = runPasses(text, {*parsePassSpec("xla-sdy-stablehlo-round-trip-shard-map-export")});
    ASSERT_FALSE(out.has_value()) << text;
    EXPECT_EQ(out.error().code, ErrorCode::kParse) << out.error().message;
    EXPECT_EQ(out.error().message, "redefinition of SSA value '%0'");
    EXPECT_EQ(out.error().offset, text.rfind("%0 = sdy.manual_computation")) << out.error().message;
  }
  // The same name in two functions is fine.
  std::string two = head + manual("%0", "") + tail + "func.func @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n" +
                    manual("%0", "") + tail;
  auto ok = runPasses(two, {*parsePassSpec("xla-sdy-stablehlo-round-trip-shard-map-export")});
  EXPECT_TRUE(ok.has_value()) << ok.error().message;
}

}  // namespace
}  // namespace shardbridge::module
