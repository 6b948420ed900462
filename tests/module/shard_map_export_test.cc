// Tests for the shard-map export (xla-sdy-stablehlo-round-trip-shard-map-export)
// beyond its goldens (tests/golden/module/): a result name defined twice,
// which the op tree lets through, is a located parse error, never an
// internal one; and where export-ops' edits compose with the pass in one
// rewrite (runShardMapExportOver) and where they are left to two steps.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "module/pass.h"
#include "shardbridge/module/op_tree.h"
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

// Whether the shard-map export composes with export-ops' unapplied edits on
// `text`: -1 when export-ops' edits may not be left unapplied at all.
int composesWithExportOps(const std::string& text) {
  auto tree = parseOpTree(text);
  EXPECT_TRUE(tree.has_value()) << text;
  if (!tree) return -1;
  std::map<std::string, std::string, std::less<>> eoOptions = {{"keep-hlo-sharding-constraints", "false"}};
  std::map<std::string, std::string, std::less<>> smOptions = {{"create-hlo-sharding-constraints", "false"}};
  std::vector<ModuleWarning> warnings;
  Rewriter pending(text);
  PassContext eo{*tree, pending, eoOptions, warnings};
  EXPECT_TRUE(runExportOps(eo).has_value());
  if (!exportOpsKeepsNames(*tree)) return -1;
  Rewriter both(text);
  PassContext sm{*tree, both, smOptions, warnings};
  auto composed = runShardMapExportOver(sm, pending);
  EXPECT_TRUE(composed.has_value()) << composed.error().message;
  return composed && *composed ? 1 : 0;
}

// The two passes in one runPasses (one rewrite when they compose) against
// each on its own parse.
void expectTwoStepsText(const std::string& text) {
  PassSpec exportOps = *parsePassSpec("xla-sdy-export-ops");
  PassSpec shardMap = *parsePassSpec("xla-sdy-stablehlo-round-trip-shard-map-export");
  auto together = runPasses(text, {exportOps, shardMap});
  auto first = runPasses(text, {exportOps});
  ASSERT_TRUE(together.has_value()) << together.error().message;
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto second = runPasses(first->text, {shardMap});
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_EQ(together->text, second->text) << text;
}

const std::string kHead = "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\nfunc.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n";

// A manual computation over `operand` (manual axis "a") with `inner` before
// its terminator, which returns %b.
std::string manualOver(const std::string& result, const std::string& operand, const std::string& inner,
                       const std::string& manualAxes = "{\"a\"}") {
  return "  " + result + " = sdy.manual_computation(" + operand +
         ") in_shardings=[<@mesh, [{\"a\"}]>] out_shardings=[<@mesh, [{\"a\"}]>] manual_axes=" + manualAxes +
         " (%b: tensor<4xf32>) {\n" + inner + "    sdy.return %b : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n";
}

// The outlined body goes at the end of the module on a line of its own:
// after a last line without a newline (here a `// comment`, which swallowed
// the function and left its `}` unbalanced: mlir_passes_fuzz), and before a
// module's `}` that follows an op on its line. Both shard-map exports.
TEST(ShardMapExport, TheOutlinedBodyStartsALineOfItsOwn) {
  const std::string func = "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n" + manual("%0", "") +
                           "  return %0 : tensor<8xf32>\n}";
  const std::string topLevel = "sdy.mesh @mesh = <[\"a\"=2]>\n" + func + "\n// the end, no newline";
  const std::string oneLineEnd = "module {\nsdy.mesh @mesh = <[\"a\"=2]>\n" + func + " }\n";
  for (const char* pass : {"xla-sdy-stablehlo-round-trip-shard-map-export", "xla-sdy-round-trip-shard-map-export"}) {
    for (bool top : {true, false}) {
      const std::string& text = top ? topLevel : oneLineEnd;
      auto out = runPasses(text, {*parsePassSpec(pass)});
      ASSERT_TRUE(out.has_value()) << pass << "\n" << text << "\n" << out.error().message;
      auto again = parseOpTree(out->text);
      ASSERT_TRUE(again.has_value()) << pass << "\n" << out->text << "\n" << again.error().message;
      // The last function is the outlined body, alone on its line.
      size_t body = out->text.rfind("func.func");
      ASSERT_NE(body, std::string::npos) << out->text;
      EXPECT_NE(out->text.substr(body).find("@xla.sdy."), std::string::npos) << out->text;
      size_t lineStart = out->text.rfind('\n', body);
      ASSERT_NE(lineStart, std::string::npos) << out->text;
      EXPECT_EQ(out->text.find_first_not_of(' ', lineStart + 1), body) << out->text;
      EXPECT_EQ(out->text.find("// the end, no newline") != std::string::npos, top) << out->text;
    }
  }
}

TEST(ShardMapExportOver, ComposesWhereExportOpsEditsNothingItReads) {
  struct Case {
    const char* what;
    std::string text;
  };
  const std::string constant = "    %c = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} dense<1.0> : tensor<f32>\n";
  const std::vector<Case> cases = {
      {"a reshard feeding the manual computation, a constraint after it",
       kHead + "  %r = sdy.reshard %arg0 <@mesh, [{\"b\"}]> : tensor<8xf32>\n" + manualOver("%0", "%r", "") +
           "  %1 = stablehlo.add %0, %0 : tensor<8xf32>\n  %2 = sdy.sharding_constraint %1 <@mesh, [{\"a\"}]> : "
           "tensor<8xf32>\n  return %2 : tensor<8xf32>\n}\n"},
      {"a constant with a dictionary inside the body (its name edited, its dictionary marked)",
       kHead + manualOver("%0", "%arg0", constant) + "  return %0 : tensor<8xf32>\n}\n"},
      {"a constant in a body without manual axes (nothing marked), as the body's first op",
       kHead + manualOver("%0", "%arg0", "    %c = sdy.constant dense<1.0> : tensor<f32>\n", "{}") +
           "  return %0 : tensor<8xf32>\n}\n"},
      {"a reshard inside a nested computation's body without manual axes",
       kHead + "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] out_shardings=[<@mesh, "
               "[{\"a\"}]>] manual_axes={} (%b: tensor<8xf32>) {\n    %i = sdy.manual_computation(%b) "
               "in_shardings=[<@mesh, [{\"b\"}]>] out_shardings=[<@mesh, [{\"b\"}]>] manual_axes={} (%d: "
               "tensor<8xf32>) {\n      %e = sdy.reshard %d <@mesh, [{\"a\"}]> : tensor<8xf32>\n      sdy.return %e "
               ": tensor<8xf32>\n    } : (tensor<8xf32>) -> tensor<8xf32>\n    sdy.return %i : tensor<8xf32>\n  } : "
               "(tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(composesWithExportOps(c.text), 1) << c.text;
    expectTwoStepsText(c.text);
  }
}

TEST(ShardMapExportOver, LeavesToTwoStepsWhatWouldOverlapItsOwnEdits) {
  struct Case {
    const char* what;
    std::string text;
    int expected;
  };
  const std::string twoResults =
      "  %0:2 = sdy.manual_computation(%arg0, %arg0) in_shardings=[<@mesh, [{\"a\"}]>, <@mesh, [{\"a\"}]>] "
      "out_shardings=[<@mesh, [{\"a\"}]>, <@mesh, [{\"a\"}]>] manual_axes={\"a\"} (%b: tensor<4xf32>, %d: "
      "tensor<4xf32>) {\n    sdy.return %b, %d : tensor<4xf32>, tensor<4xf32>\n  } : (tensor<8xf32>, "
      "tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)\n";
  const std::vector<Case> cases = {
      {"a reshard of a result whose uses the pass renames",
       kHead + twoResults + "  %1 = sdy.reshard %0#1 <@mesh, [{\"b\"}]> : tensor<8xf32>\n  return %1 : tensor<8xf32>\n}\n",
       0},
      {"a reshard in a body with manual axes, which the pass marks",
       kHead + manualOver("%0", "%arg0", "    %e = sdy.reshard %b <@mesh, [{\"b\"}]> : tensor<4xf32>\n") +
           "  return %0 : tensor<8xf32>\n}\n",
       0},
      {"a sharding group erased inside a body",
       kHead + manualOver("%0", "%arg0", "    sdy.sharding_group %b group_id=0 : tensor<4xf32>\n") +
           "  return %0 : tensor<8xf32>\n}\n",
       0},
      {"an sdy.all_reduce forwarded (a value name goes)",
       kHead + "  %r = sdy.all_reduce {\"b\"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>\n" +
           manualOver("%0", "%r", "") + "  return %0 : tensor<8xf32>\n}\n",
       -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(composesWithExportOps(c.text), c.expected) << c.text;
    expectTwoStepsText(c.text);
  }
}

// Edits export-ops never makes, from a pass that might defer its own: in a
// manual computation's header or on its terminator's line, which the pass
// reads from this text, they must be left to two steps.
TEST(ShardMapExportOver, AnEditOfTheHeaderOrTheTerminatorIsLeftToTwoSteps) {
  const std::string text = kHead + manualOver("%0", "%arg0", "    %e = stablehlo.negate %b : tensor<4xf32>\n", "{}") +
                           "  return %0 : tensor<8xf32>\n}\n";
  auto tree = parseOpTree(text);
  ASSERT_TRUE(tree.has_value());
  std::map<std::string, std::string, std::less<>> options = {{"create-hlo-sharding-constraints", "false"}};
  std::vector<ModuleWarning> warnings;
  auto composes = [&](size_t at, std::string_view what, std::string with) {
    Rewriter pending(text);
    pending.replace({static_cast<uint32_t>(at), static_cast<uint32_t>(at + what.size())}, std::move(with));
    Rewriter both(text);
    PassContext ctx{*tree, both, options, warnings};
    auto r = runShardMapExportOver(ctx, pending);
    EXPECT_TRUE(r.has_value());
    return r && *r;
  };
  size_t operand = text.find("sdy.manual_computation(%arg0") + std::string_view("sdy.manual_computation(").size();
  EXPECT_FALSE(composes(operand, "%arg0", "%arg1"));
  size_t terminator = text.find("sdy.return %b");
  EXPECT_FALSE(composes(terminator + std::string_view("sdy.return ").size(), "%b", "%e"));
  // The same kind of edit on the body's op does compose.
  size_t negate = text.find("stablehlo.negate");
  EXPECT_TRUE(composes(negate, "stablehlo.negate", "stablehlo.abs"));
}

}  // namespace
}  // namespace shardbridge::module
