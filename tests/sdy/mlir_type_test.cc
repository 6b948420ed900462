#include "shardbridge/sdy/mlir_type.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace shardbridge {
namespace {

using Kind = MlirType::Kind;
constexpr int64_t kDyn = MlirType::kDynamic;

struct GoodCase {
  std::string input;
  Kind kind;
  std::vector<int64_t> shape;
  std::string elementType;
  std::string text;  // normalised
};

class MlirTypeGood : public ::testing::TestWithParam<GoodCase> {};

TEST_P(MlirTypeGood, Parses) {
  const GoodCase& c = GetParam();
  Result<MlirType> r = parseMlirType(c.input);
  ASSERT_TRUE(r.has_value()) << c.input << ": " << r.error().message;
  EXPECT_EQ(r->kind, c.kind);
  EXPECT_EQ(r->shape, c.shape);
  EXPECT_EQ(r->elementType, c.elementType);
  EXPECT_EQ(r->text, c.text);
  // The normalised text is a fixed point.
  Result<MlirType> again = parseMlirType(r->text);
  ASSERT_TRUE(again.has_value()) << r->text;
  EXPECT_EQ(again->text, r->text);
  EXPECT_EQ(again->kind, r->kind);
  EXPECT_EQ(again->shape, r->shape);
}

INSTANTIATE_TEST_SUITE_P(
    All, MlirTypeGood,
    ::testing::Values(
        GoodCase{"tensor<8x16xf32>", Kind::kRankedTensor, {8, 16}, "f32", "tensor<8x16xf32>"},
        GoodCase{
            "  tensor< 8 x ? x f32 >\n", Kind::kRankedTensor, {8, kDyn}, "f32", "tensor<8x?xf32>"},
        GoodCase{"tensor<f32>", Kind::kRankedTensor, {}, "f32", "tensor<f32>"},
        GoodCase{"tensor<0x4xi1>", Kind::kRankedTensor, {0, 4}, "i1", "tensor<0x4xi1>"},
        GoodCase{"tensor<007xf32>", Kind::kRankedTensor, {7}, "f32", "tensor<7xf32>"},
        GoodCase{"tensor<*xbf16>", Kind::kUnrankedTensor, {}, "bf16", "tensor<*xbf16>"},
        GoodCase{"tensor<8xf32,#enc>", Kind::kRankedTensor, {8}, "f32", "tensor<8xf32, #enc>"},
        GoodCase{"tensor<8xf32, #sparse<{ a = 1 ,b=[ 2, 3 ] }>>",
                 Kind::kRankedTensor,
                 {8},
                 "f32",
                 "tensor<8xf32, #sparse<{a = 1,b=[2, 3]}>>"},
        GoodCase{"tensor<4xcomplex< f32 >>",
                 Kind::kRankedTensor,
                 {4},
                 "complex<f32>",
                 "tensor<4xcomplex<f32>>"},
        GoodCase{"tensor<2x!quant.uniform<i8:f32, 1.0>>",
                 Kind::kRankedTensor,
                 {2},
                 "!quant.uniform<i8:f32, 1.0>",
                 "tensor<2x!quant.uniform<i8:f32, 1.0>>"},
        GoodCase{"tensor<3xf8E4M3FN>", Kind::kRankedTensor, {3}, "f8E4M3FN", "tensor<3xf8E4M3FN>"},
        GoodCase{"vector<4x[8]xf32>", Kind::kRankedTensor, {4, 8}, "f32", "vector<4x[8]xf32>"},
        GoodCase{"memref<*xf32>", Kind::kUnrankedTensor, {}, "f32", "memref<*xf32>"},
        GoodCase{"memref<4x?xf32, affine_map<(d0, d1) -> (d1, d0)>>",
                 Kind::kRankedTensor,
                 {4, kDyn},
                 "f32",
                 "memref<4x?xf32, affine_map<(d0, d1) -> (d1, d0)>>"},
        GoodCase{"!stablehlo.token", Kind::kToken, {}, "", "!stablehlo.token"},
        GoodCase{"!mhlo.token", Kind::kToken, {}, "", "!mhlo.token"},
        GoodCase{"tuple<tensor<2xf32>,!stablehlo.token>",
                 Kind::kTuple,
                 {},
                 "",
                 "tuple<tensor<2xf32>, !stablehlo.token>"},
        GoodCase{"tuple< >", Kind::kTuple, {}, "", "tuple<>"},
        GoodCase{"tuple<tuple<f32>>", Kind::kTuple, {}, "", "tuple<tuple<f32>>"},
        GoodCase{"f32", Kind::kOther, {}, "", "f32"}, GoodCase{"ui8", Kind::kOther, {}, "", "ui8"},
        GoodCase{"index", Kind::kOther, {}, "", "index"},
        GoodCase{"!foo.bar", Kind::kOther, {}, "", "!foo.bar"},
        GoodCase{"!foo.bar< x ,  y\t>", Kind::kOther, {}, "", "!foo.bar<x, y>"},
        GoodCase{"!foo<\"a >  b\">", Kind::kOther, {}, "", "!foo<\"a >  b\">"},
        GoodCase{"!stablehlo.token<x>", Kind::kOther, {}, "", "!stablehlo.token<x>"},
        // Blanks that keep bytes from reading as `->`, `<=` or `>=` stay.
        GoodCase{"!foo<a - >", Kind::kOther, {}, "", "!foo<a - >"},
        GoodCase{"!foo< =>", Kind::kOther, {}, "", "!foo< =>"},
        GoodCase{"!foo<=>", Kind::kOther, {}, "", "!foo<=>"},
        GoodCase{"tensor<8xf32, a- >", Kind::kRankedTensor, {8}, "f32", "tensor<8xf32, a- >"},
        GoodCase{"!foo<(d0)->(d0 >= 0)>", Kind::kOther, {}, "", "!foo<(d0)->(d0 >= 0)>"}));

TEST(MlirType, TupleElements) {
  Result<MlirType> r = parseMlirType("tuple<tensor<2x?xf32>, tuple<>, i32>");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->elements.size(), 3u);
  EXPECT_EQ(r->elements[0].kind, Kind::kRankedTensor);
  EXPECT_EQ(r->elements[0].shape, (std::vector<int64_t>{2, kDyn}));
  EXPECT_EQ(r->elements[1].kind, Kind::kTuple);
  EXPECT_TRUE(r->elements[1].elements.empty());
  EXPECT_EQ(r->elements[2].text, "i32");
  EXPECT_FALSE(r->isShaped());
  EXPECT_TRUE(r->elements[0].isShaped());
  EXPECT_EQ(r->elements[0].rank(), 2);
}

struct BadCase {
  std::string input;
  std::string message;
  size_t offset;
};

class MlirTypeBad : public ::testing::TestWithParam<BadCase> {};

TEST_P(MlirTypeBad, Rejects) {
  const BadCase& c = GetParam();
  Result<MlirType> r = parseMlirType(c.input);
  ASSERT_FALSE(r.has_value()) << c.input << " parsed as " << r->text;
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(r.error().message, c.message) << c.input;
  EXPECT_EQ(r.error().offset, c.offset) << c.input;
}

std::string deepTuple(int levels) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += "tuple<";
  s += "f32";
  for (int i = 0; i < levels; ++i) s += ">";
  return s;
}

INSTANTIATE_TEST_SUITE_P(
    All, MlirTypeBad,
    ::testing::Values(
        BadCase{"", "expected type, got end of input", 0},
        BadCase{"   ", "expected type, got end of input", 3},
        BadCase{"tensor", "expected '<' after 'tensor', got end of input", 6},
        BadCase{"tensor<8xf32", "expected '>' to close tensor type, got end of input", 12},
        BadCase{"tensor<8f32>", "expected 'x' after dimension size, got 'f'", 8},
        BadCase{"tensor<8x>", "expected type, got '>'", 9},
        BadCase{"tensor<99999999999999999999xf32>", "dimension size overflows int64", 7},
        BadCase{"tensor<*x?xf32>", "expected type, got '?'", 9},
        BadCase{"tensor<*8xf32>", "expected 'x' after '*' in an unranked shape, got '8'", 8},
        BadCase{"tenosr<8xf32>", "unknown type 'tenosr'", 0},
        BadCase{"tensor<8xf32> x", "unexpected 'x' after type", 14},
        BadCase{"tensor<8xf32>>", "unexpected '>' after type", 13},
        BadCase{"tensor<4x!stablehlo.token>", "element type of tensor cannot be '!stablehlo.token'",
                9},
        BadCase{"tensor<4xtensor<2xf32>>", "element type of tensor cannot be 'tensor<2xf32>'", 9},
        BadCase{"tensor<8xf32, >", "expected attribute, got '>'", 14},
        BadCase{"tensor<8xf32, #a<b>", "expected '>' to close tensor type, got end of input", 19},
        BadCase{"vector<?xf32>", "expected type, got '?'", 7},
        BadCase{"vector<[x]xf32>", "expected scalable dimension size, got 'x'", 8},
        BadCase{"tuple<f32", "expected '>' to close tuple type, got end of input", 9},
        BadCase{"tuple<f32,>", "expected type, got '>'", 10},
        BadCase{"complex<f32", "expected '>' to close complex type, got end of input", 11},
        BadCase{"!", "expected dialect type name after '!', got end of input", 1},
        BadCase{"!foo<a", "expected '>', got end of input", 6},
        BadCase{"!foo<\"abc>", "unterminated string in type", 5},
        BadCase{"!foo<(]>", "expected ')', got ']'", 6},
        BadCase{"tensor<8xf32, a)>", "unexpected ')'", 15},
        BadCase{"tensor<8xf32, #a<b)>>", "expected '>', got ')'", 18},
        BadCase{"(f32) -> f32", "expected type, got '('", 0},
        BadCase{std::string("f32\x01", 4), "unexpected byte 1 after type", 3},
        BadCase{deepTuple(100), "type nesting exceeds 64 levels", 6 * 64}));

}  // namespace
}  // namespace shardbridge
