// Tests for module_lex::looksLikeDict (src/module/text_lex.h): at a '{', an
// attribute dictionary or a region, including dictionaries wrapped after
// their '{' as hand-written lit tests write them, and skipAttrValue (upstream
// xla/service/spmd/shardy/test/sdy_round_trip_import_shardy_attrs.mlir puts
// `mhlo.frontend_attributes = {` at a line's end and one entry per line).
#include "module/text_lex.h"

#include <gtest/gtest.h>

#include <string_view>

namespace shardbridge::module_lex {
namespace {

bool dictAt0(std::string_view t) { return looksLikeDict(t, 0); }

TEST(LooksLikeDict, OneLineDictionaries) {
  EXPECT_TRUE(dictAt0("{}"));
  EXPECT_TRUE(dictAt0("{a = 1}"));
  EXPECT_TRUE(dictAt0("{ mhlo.sharding = \"{replicated}\" }"));
  EXPECT_TRUE(dictAt0("{\"quoted key\" = 1}"));
  EXPECT_TRUE(dictAt0("{unit, b = 2}"));
  EXPECT_TRUE(dictAt0("{unit}"));
}

TEST(LooksLikeDict, WrappedDictionaries) {
  EXPECT_TRUE(dictAt0("{\n    xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\\"a\\\"=2]>}\"\n  }"));
  EXPECT_TRUE(dictAt0("{\n  \"quoted\" = 1,\n  b = 2\n}"));
  EXPECT_TRUE(dictAt0("{\n  has_side_effect,\n  b = 2\n}"));
  EXPECT_TRUE(dictAt0("{  // a comment\n  a = 1}"));
  EXPECT_TRUE(dictAt0("{\n  a\n  = 1}"));
}

TEST(LooksLikeDict, Regions) {
  EXPECT_FALSE(dictAt0("{\n  %0 = stablehlo.add %a, %a : tensor<f32>\n}"));
  EXPECT_FALSE(dictAt0("{\n  stablehlo.return %a : tensor<f32>\n}"));
  EXPECT_FALSE(dictAt0("{\n  \"stablehlo.return\"(%a) : (tensor<f32>) -> ()\n}"));
  EXPECT_FALSE(dictAt0("{\n^bb0(%a: tensor<f32>):\n  sdy.return %a : tensor<f32>\n}"));
  // Ambiguous when wrapped: an empty region, or a region holding only a
  // `return` without operands, rather than `{unit}` or `{}`.
  EXPECT_FALSE(dictAt0("{\n}"));
  EXPECT_FALSE(dictAt0("{\n  return\n}"));
  EXPECT_FALSE(dictAt0("{\n  sdy.return\n}"));
  // `==` is not an entry's `=`.
  EXPECT_FALSE(dictAt0("{a == b}"));
  EXPECT_FALSE(dictAt0("{"));
}

// A wrapped dictionary's last value is followed by a line break and the
// indentation of the closing brace, which are not part of the value.
TEST(SkipAttrValue, StopsBeforeTheBlanksThatEndIt) {
  std::string_view t = "\"s\"\n  }";
  auto e = skipAttrValue(t, 0);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(*e, 3u);
  t = "[1, 2] , b = 2}";
  e = skipAttrValue(t, 0);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(*e, 6u);
  e = skipAttrValue("1", 0);
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().message, "unexpected end of input in an attribute dictionary");
}

}  // namespace
}  // namespace shardbridge::module_lex
