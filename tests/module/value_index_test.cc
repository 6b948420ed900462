// Tests for FuncValueIndex (src/module/value_index.h): its answers are those
// of a walk over the function's ops, which is what the passes relied on
// before the index (definitions first in text order, uses in text order).
#include "module/value_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
namespace {

const char* kModule =
    "module {\n"
    "  func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
    "    %0:2 = stablehlo.custom_call @pair(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
    "    %1 = stablehlo.add %0#1, %0#1 : tensor<2xf32>\n"
    "    %2 = stablehlo.negate %0#0 : tensor<2xf32>\n"
    "    %3 = stablehlo.while(%w = %1) : tensor<2xf32>\n"
    "     cond {\n"
    "      %c = stablehlo.constant dense<true> : tensor<i1>\n"
    "      stablehlo.return %c : tensor<i1>\n"
    "    } do {\n"
    "      %4 = stablehlo.add %w, %2 : tensor<2xf32>\n"
    "      stablehlo.return %4 : tensor<2xf32>\n"
    "    }\n"
    "    %5 = stablehlo.abs %a : tensor<2xf32>\n"
    "    return %3 : tensor<2xf32>\n"
    "  }\n"
    "}\n";

// The op of `tree` whose text starts with `start`.
int opStarting(const OpTree& tree, std::string_view start) {
  for (size_t i = 0; i < tree.ops.size(); ++i)
    if (tree.ops[i].whole.in(tree.text).starts_with(start)) return static_cast<int>(i);
  return -1;
}

TEST(FuncValueIndex, AnswersAsAWalkWould) {
  auto tree = parseOpTree(kModule);
  ASSERT_TRUE(tree.has_value()) << tree.error().message;
  int f = tree->lookupSymbol(tree->modules().empty() ? -1 : tree->modules()[0], "f");
  ASSERT_GE(f, 0);
  FuncValueIndex index(*tree);
  const int pair = opStarting(*tree, "%0:2");
  const int add = opStarting(*tree, "%1 = ");
  const int neg = opStarting(*tree, "%2 = ");
  const int inner = opStarting(*tree, "%4 = ");
  const int loop = opStarting(*tree, "%3 = ");
  int resultIndex = -1;
  EXPECT_EQ(index.definingOp(f, "%0", 1, &resultIndex), pair);
  EXPECT_EQ(resultIndex, 1);
  EXPECT_EQ(index.definingOp(f, "%0", 2), -1);  // a group of two
  EXPECT_EQ(index.definingOp(f, "%a", 0), -1);  // an argument, not a result
  // %0#1 twice in one op: the op once per use, in text order.
  EXPECT_EQ(index.users(f, "%0", 1), (std::vector<int>{add, add}));
  EXPECT_EQ(index.users(f, "%0", 0), (std::vector<int>{neg}));
  EXPECT_EQ(index.users(f, "%0", -1), (std::vector<int>{add, add, neg}));
  // A use inside a region belongs to the op that holds it.
  EXPECT_EQ(index.users(f, "%2", 0), (std::vector<int>{inner}));
  EXPECT_EQ(index.users(f, "%1", 0), (std::vector<int>{loop}));
  for (const char* name : {"%0", "%1", "%2", "%4", "%5", "%a", "%nothing"})
    for (int i : {-1, 0, 1})
      EXPECT_EQ(index.used(f, name, i), !index.users(f, name, i).empty()) << name << "#" << i;
  EXPECT_FALSE(index.used(f, "%5", 0));  // defined, never used
  EXPECT_TRUE(index.used(f, "%a", 0));
  EXPECT_FALSE(index.used(-1, "%a", 0));
  EXPECT_TRUE(index.users(-1, "%a", 0).empty());
}

}  // namespace
}  // namespace shardbridge::module
