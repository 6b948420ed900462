// Tests for stablehlo-ext-flatten-entry-function-tuples beyond its goldens
// (tests/golden/module/): a malformed return is a located parse error, never
// an internal one.
#include <gtest/gtest.h>

#include <string>

#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

TEST(FlattenEntryFunctionTuples, AValueAmongTheReturnTypesIsAParseError) {
  // A value where the return's type should be: the operands and the types
  // are rewritten as two spans, which overlapped (a kInternal error found by
  // mlir_import_fuzz).
  const std::string text =
      "func.func @main(%arg0: tensor<8xf32>) -> tuple<tuple<>> {\n"
      "  %1 = \"stablehlo.tuple\"() : () -> tuple<tuple<>>\n"
      "  return %1 : %tuple<tuple<>>\n}\n";
  auto out = runPasses(text, {*parsePassSpec("stablehlo-ext-flatten-entry-function-tuples")});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code, ErrorCode::kParse) << out.error().message;
  EXPECT_EQ(out.error().offset, text.find("%tuple")) << out.error().message;
  EXPECT_EQ(out.error().message, "expected a type in the return of @main, got '%tuple'");
}

}  // namespace
}  // namespace shardbridge::module
