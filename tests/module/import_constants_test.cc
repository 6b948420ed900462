// Tests for import-constants over another pass's unapplied edits
// (runImportConstantsOver, src/module/import_constants.cc): each of the two
// refusals on its own (the import property's stepwise check sees them only
// together, since a moved body is both erased and written again).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "module/pass.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
namespace {

const std::string kConstantsText =
    "func.func private @body(%arg0: tensor<i32>) -> tensor<i32> {\n"
    "  %c = stablehlo.constant dense<1> : tensor<i32>\n"
    "  return %c : tensor<i32>\n"
    "}\n"
    "func.func @main(%arg0: tensor<i32>) -> tensor<i32> {\n"
    "  %c = stablehlo.constant dense<2> : tensor<i32>\n"
    "  return %c : tensor<i32>\n"
    "}\n";

// Whether import-constants composes with `pending`, and the text of both
// applied when it does.
std::pair<bool, std::string> over(const OpTree& tree, const Rewriter& pending) {
  std::map<std::string, std::string, std::less<>> options;
  std::vector<ModuleWarning> warnings;
  Rewriter both(kConstantsText);
  PassContext ctx{tree, both, options, warnings};
  auto r = runImportConstantsOver(ctx, pending);
  EXPECT_TRUE(r.has_value());
  if (!r || !*r) return {false, ""};
  auto text = both.apply();
  EXPECT_TRUE(text.has_value());
  return {true, text ? *text : ""};
}

TEST(ImportConstantsOver, RenamesAlongsideEditsElsewhere) {
  auto tree = parseOpTree(kConstantsText);
  ASSERT_TRUE(tree.has_value());
  Rewriter pending(kConstantsText);
  size_t at = kConstantsText.find("dense<2>");
  pending.replace({static_cast<uint32_t>(at), static_cast<uint32_t>(at + 8)}, "dense<3>");
  auto [composed, text] = over(*tree, pending);
  ASSERT_TRUE(composed);
  EXPECT_EQ(text.find("stablehlo.constant"), std::string::npos) << text;
  EXPECT_NE(text.find("%c = sdy.constant dense<3>"), std::string::npos) << text;
}

TEST(ImportConstantsOver, RefusesAConstantInBytesTheEditsErase) {
  auto tree = parseOpTree(kConstantsText);
  ASSERT_TRUE(tree.has_value());
  Rewriter pending(kConstantsText);
  size_t end = kConstantsText.find("func.func @main");
  pending.erase({0, static_cast<uint32_t>(end)});  // the private function goes, text and all
  EXPECT_FALSE(over(*tree, pending).first);
}

TEST(ImportConstantsOver, RefusesAConstantTheEditsWrite) {
  auto tree = parseOpTree(kConstantsText);
  ASSERT_TRUE(tree.has_value());
  Rewriter pending(kConstantsText);
  size_t at = kConstantsText.find("  return %c : tensor<i32>\n}\n", kConstantsText.find("@main"));
  pending.insert(at, "  %d = stablehlo.constant dense<4> : tensor<i32>\n");
  EXPECT_FALSE(over(*tree, pending).first);
}

}  // namespace
}  // namespace shardbridge::module
