// isShapedType's and typeRank's fast path for plain ranked tensors (src/module/op_types.cc)
// must answer as the type parser does, and module_lex::contains as
// std::string_view::find does.
#include "module/op_types.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "module/text_lex.h"
#include "shardbridge/sdy/mlir_type.h"

namespace shardbridge::module {
namespace {

bool parsedShaped(const std::string& t) {
  auto parsed = parseMlirType(t);
  return parsed && parsed->isShaped();
}

// A stray `>` in a type moved the top-level arrow: the round-trip shard-map
// import then wrote a signature with unbalanced brackets (found by
// mlir_import_fuzz). Such a signature is not known; arrows and nested types
// are.
TEST(OpTypes, ASignatureWithUnmatchedBracketsIsNotKnown) {
  // The types are views of the tree's text, which must outlive them.
  std::deque<std::string> texts;
  auto types = [&texts](const std::string& signature) {
    const std::string& text = texts.emplace_back("%0 = stablehlo.custom_call @f(%a) " + signature + "\n");
    auto tree = parseOpTree(text);
    EXPECT_TRUE(tree.has_value()) << signature;
    return tree ? opTypes(*tree, tree->ops[0]) : OpTypes();
  };
  OpTypes bad = types(": (tensoprivatxf32>, tensor<8x32xf32>) -> (tensor<0x32xf32>, tensor<16x32xf32>)");
  EXPECT_FALSE(bad.known);
  OpTypes good = types(": (tensor<8x32xf32>, !t<\"ab\">) -> (tensor<4xcomplex<f32>>, (tensor<2xf32>) -> tensor<2xf32>)");
  ASSERT_TRUE(good.known);
  EXPECT_EQ(good.operands, (std::vector<std::string_view>{"tensor<8x32xf32>", "!t<\"ab\">"}));
  EXPECT_EQ(good.results, (std::vector<std::string_view>{"tensor<4xcomplex<f32>>", "(tensor<2xf32>) -> tensor<2xf32>"}));
}

TEST(IsShapedType, AnswersAsTheTypeParser) {
  for (const char* t : {"tensor<16x64xf32>", "tensor<f32>", "tensor<?x4xbf16>", "tensor<0x1xi1>", "tensor<*xf32>",
                        "tensor<8xf32, #enc>", "!stablehlo.token", "tuple<tensor<2xf32>>", "f32", "tensor<?5xf32>",
                        "tensor<xf32>", "tensor<16xx>", "tensor<8xfoo>", "tensor<4xindex>", "tensor<4xnone>",
                        "tensor<99999999999999999999xf32>", "tensor<999999999999999999xf32>", "tensor<4x>",
                        "tensor<>", "tensor<4xf32>>", " tensor<4xf32>", "tensor< 4xf32>", "tensor<007xsi32>",
                        "vector<4xf32>", "tensor<4xi0>", "tensor<4xcomplex<f32>>"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(isShapedType(t), parsedShaped(t));
    auto parsed = parseMlirType(t);
    EXPECT_EQ(typeRank(t), parsed && parsed->kind == MlirType::Kind::kRankedTensor ? parsed->rank() : 0);
  }
  EXPECT_TRUE(isShapedType("tensor<16x64xf32>"));
  EXPECT_FALSE(isShapedType("!stablehlo.token"));
}

// Strings near the fast path's grammar: pieces of plain tensor types in any
// order, so that both well-formed and broken spellings come up.
RC_GTEST_PROP(IsShapedType, FastPathAgreesWithTheParser, ()) {
  const std::vector<std::string> pieces = {"tensor<", ">", "x", "?", "0", "7", "16", "999999999999999999",
                                           "9999999999999999999", "f32", "bf16", "i1", "ui32", "si8", "f8E4M3FN",
                                           "index", " ", ",", "*", "!t", "tuple<"};
  auto parts = *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(pieces));
  std::string t = "tensor<";
  for (const std::string& p : parts) t += p;
  if (*rc::gen::arbitrary<bool>()) t += ">";
  RC_ASSERT(isShapedType(t) == parsedShaped(t));
  auto parsed = parseMlirType(t);
  int64_t rank = parsed && parsed->kind == MlirType::Kind::kRankedTensor ? parsed->rank() : 0;
  RC_ASSERT(typeRank(t) == rank);
}

RC_GTEST_PROP(ModuleLexContains, AgreesWithFind, ()) {
  auto alphabet = rc::gen::elementOf(std::string("ab.@\n"));
  std::string hay = *rc::gen::container<std::string>(alphabet);
  std::string needle = *rc::gen::resize(4, rc::gen::container<std::string>(alphabet));
  RC_ASSERT(module_lex::contains(hay, needle) == (std::string_view(hay).find(needle) != std::string_view::npos));
}

// Long texts of a few bytes, so that the needle's rarest byte is common and
// the search hands over to Horspool partway (more than 64 misses, one in
// 256 bytes), with the needle before, across or after that point.
RC_GTEST_PROP(ModuleLexContains, AgreesWithFindOnLongTexts, ()) {
  auto alphabet = rc::gen::elementOf(std::string("ab.@"));
  // A generated piece repeated (a generated 20 KB text would make the
  // property's 10,000 cases take minutes).
  const std::string piece = *rc::gen::container<std::string>(alphabet);
  const int repeats = *rc::gen::inRange(0, 400);
  std::string hay;
  for (int i = 0; i < repeats; ++i) hay += piece;
  std::string needle = *rc::gen::resize(6, rc::gen::container<std::string>(alphabet));
  if (!needle.empty() && *rc::gen::arbitrary<bool>()) {
    size_t at = *rc::gen::inRange<size_t>(0, hay.size() + 1);
    hay.insert(at, needle);
  }
  RC_ASSERT(module_lex::contains(hay, needle) == (std::string_view(hay).find(needle) != std::string_view::npos));
}

}  // namespace
}  // namespace shardbridge::module
