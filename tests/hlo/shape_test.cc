// Tests for the HLO shape model and parser (ShapeUtil::HumanString forms).
#include "shardbridge/hlo/shape.h"

#include <gtest/gtest.h>

namespace shardbridge::hlo {
namespace {

TEST(ShapeTest, ParsesAndPrints) {
  const struct {
    const char* input;
    const char* printed;
    int64_t leaves;
  } rows[] = {
      {"f32[4,6]", "f32[4,6]", 1},
      {"f32[]", "f32[]", 1},
      {"token[]", "token[]", 1},
      {"f32[4,6]{1,0}", "f32[4,6]", 1},
      {"bf16[8,128]{1,0:T(8,128)(2,1)}", "bf16[8,128]", 1},
      {"(f32[4], s32[2,3])", "(f32[4], s32[2,3])", 2},
      {" ( f32[4] ,(s32[2,3]{0,1}, pred[]) , () ) ", "(f32[4], (s32[2,3], pred[]), ())", 3},
      {"()", "()", 0},
      {"f32[<=4,?]", "f32[<=4,?]", 1},
      {"u8[0]", "u8[0]", 1},
  };
  for (const auto& row : rows) {
    auto s = parseShape(row.input);
    ASSERT_TRUE(s.has_value()) << row.input << ": " << s.error().message;
    EXPECT_EQ(s->toString(), row.printed);
    EXPECT_EQ(s->leafCount(), row.leaves) << row.input;
  }
  EXPECT_TRUE(parseShape("token[]")->isToken());
  EXPECT_EQ(parseShape("f32[4,6]")->rank(), 2);
}

TEST(ShapeTest, Errors) {
  const struct {
    const char* input;
    const char* message;
    size_t offset;
  } rows[] = {
      {"", "expected primitive type or '('", 0},
      {"f31[4]", "unknown primitive type 'f31'", 0},
      {"f32", "expected '[' after primitive type", 3},
      {"f32[4", "expected ']' to close shape dimensions", 5},
      {"f32[-1]", "expected dimension size", 4},
      {"f32[99999999999999999999]", "dimension size out of range", 4},
      {"(f32[4]", "expected ')' at the end of tuple shape", 7},
      {"f32[4] x", "unexpected text after shape", 7},
      {"f32[4]{1,0", "expected '}' to close layout", 10},
      {"token[2]", "token shapes have no dimensions", 8},
  };
  for (const auto& row : rows) {
    auto s = parseShape(row.input);
    ASSERT_FALSE(s.has_value()) << row.input;
    EXPECT_EQ(s.error().message, row.message) << row.input;
    EXPECT_EQ(s.error().offset, row.offset) << row.input;
  }
  EXPECT_EQ(parseShape(std::string(100, '(')).error().message, "shape nesting deeper than 64");
}

}  // namespace
}  // namespace shardbridge::hlo
