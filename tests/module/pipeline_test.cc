// Tests for pass specs and pass runs (pipeline.h): MLIR's option syntax, the
// contract names, errors that list the known names, located errors through
// several passes.
#include "shardbridge/module/pipeline.h"
#include "shardbridge/module/op_tree.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace shardbridge::module {
namespace {

TEST(PassSpec, NamesAndOptions) {
  auto s = parsePassSpec("xla-sdy-stablehlo-export-pipeline{keep-hlo-sharding-constraints=true enable-hlo-sharding-v3}");
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->name, "xla-sdy-stablehlo-export-pipeline");
  ASSERT_EQ(s->options.size(), 2u);
  EXPECT_EQ(s->options[0].first, "keep-hlo-sharding-constraints");
  EXPECT_EQ(s->options[1].second, "true");
  // The names the CLI contract gives (issue: convert --pass).
  for (const char* name : {"xla-sdy-stablehlo-export-pipeline", "xla-sdy-export-ops",
                           "xla-sdy-stablehlo-round-trip-shard-map-export", "xla-sdy-stablehlo-export-shardings",
                           "symbol-dce", "xla-sdy-import-shardings"})
    EXPECT_TRUE(parsePassSpec(name).has_value()) << name;
}

TEST(PassSpec, Errors) {
  auto unknown = parsePassSpec("xla-sdy-nope");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
  EXPECT_NE(unknown.error().message.find("unknown pass 'xla-sdy-nope'; known: xla-sdy-stablehlo-export-pipeline"),
            std::string::npos);
  auto option = parsePassSpec("xla-sdy-export-ops{nope=true}");
  ASSERT_FALSE(option.has_value());
  EXPECT_EQ(option.error().message,
            "pass 'xla-sdy-export-ops' has no option 'nope'; options: keep-hlo-sharding-constraints");
  auto value = parsePassSpec("xla-sdy-export-ops{keep-hlo-sharding-constraints=maybe}");
  ASSERT_FALSE(value.has_value());
  EXPECT_EQ(value.error().message, "option 'keep-hlo-sharding-constraints' takes true or false, got 'maybe'");
  EXPECT_FALSE(parsePassSpec("xla-sdy-export-ops{").has_value());
  EXPECT_FALSE(parsePassSpec("xla-sdy-export-ops}").has_value());
}

TEST(RunPasses, ErrorsOfALaterPassAreLocatedInTheInput) {
  // export-ops rewrites the constraint first; the unknown mesh is found by
  // export-shardings in its output and reported at the constraint.
  std::string text =
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.sharding_constraint %arg0 <@nope, [{\"x\"}]> : tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n}\n";
  auto spec = parsePassSpec("xla-sdy-stablehlo-export-pipeline");
  ASSERT_TRUE(spec.has_value());
  auto out = runPasses(text, {*spec});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().message, "unknown mesh: @nope");
  EXPECT_EQ(out.error().offset, text.find("%0 = sdy"));
}

TEST(RunPasses, PassesRunInOrder) {
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.reshard %arg0 <@mesh, [{\"x\"}]> : tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n}\n";
  auto ops = parsePassSpec("xla-sdy-export-ops");
  auto shardings = parsePassSpec("xla-sdy-stablehlo-export-shardings");
  auto one = runPasses(text, {*ops});
  ASSERT_TRUE(one.has_value());
  EXPECT_NE(one->text.find("%0 = mhlo.copy %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>} : tensor<8xf32>"),
            std::string::npos);
  auto both = runPasses(text, {*ops, *shardings});
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->text,
            "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = mhlo.copy %arg0 {mhlo.sharding = \"{devices=[2]<=[2]}\"} : tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}\n");
}

// A stray word right after the module's dictionary (the tree lets it
// through): when the import empties and drops the dictionary, the word keeps
// a blank before it instead of joining `module` (`module2`, a name the tree
// refuses when it reads the output back: mlir_import_fuzz).
TEST(RunPasses, ADroppedModuleDictionaryJoinsNoWords) {
  const std::string text =
      "module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "
      "\"{mesh = #sdy.mesh<[\\\"a\\\"=2]>}\"}}2 {\n"
      "  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n    return %arg0 : tensor<8xf32>\n  }\n}\n";
  ASSERT_TRUE(parseOpTree(text).has_value());
  for (const char* pipeline : {"xla-sdy-round-trip-import-pipeline", "xla-sdy-round-trip-import-shardy-attrs"}) {
    auto out = runPasses(text, {*parsePassSpec(pipeline)});
    ASSERT_TRUE(out.has_value()) << pipeline << ": " << out.error().message;
    EXPECT_EQ(out->text.find("module2"), std::string::npos) << out->text;
    EXPECT_NE(out->text.find("module 2 {"), std::string::npos) << out->text;
    EXPECT_TRUE(parseOpTree(out->text).has_value()) << out->text;
  }
}

// The StableHLO shard-map import's edits wait for import-constants, which
// runs over them (docs/module.md "Two passes in one rewrite"); symbol-dce,
// between the two, is passed over only when the functions it would remove
// are gone with those edits. Here one unused private function stays, so
// symbol-dce must still run (and then the two steps are taken); without it,
// the outlined body's `private` goes with the edits and symbol-dce is
// passed over. Either way the output is the steps' one.
// A pass its prefilter skips is skipped whether or not an earlier pass left
// a parsed tree behind: the round-trip import of shardy attributes reads a
// module's frontend dictionary, and refuses a malformed one, but has nothing
// to do (no xla.sdy. word) in this module, which it passed through alone
// and refused after import-constants (mlir_import_fuzz).
TEST(RunPasses, WhetherAPassRunsDoesNotHangOnThePassesBeforeIt) {
  const std::string text =
      "module attributes {mhlo.frontend_attributes = {xla.s*y.tuple_args = \"1\"}} {\n"
      "  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "    return %arg0 : tensor<8xf32>\n"
      "  }\n"
      "}\n";
  auto alone = runPasses(text, {*parsePassSpec("xla-sdy-round-trip-import-shardy-attrs")});
  ASSERT_TRUE(alone.has_value()) << alone.error().message;
  EXPECT_EQ(alone->text, text);
  auto after = runPasses(text, {*parsePassSpec("xla-sdy-import-constants"),
                                *parsePassSpec("xla-sdy-round-trip-import-shardy-attrs")});
  ASSERT_TRUE(after.has_value()) << after.error().message;
  EXPECT_EQ(after->text, text);
}

TEST(RunPasses, TimingsListEveryStepInOrderWithWhatItDid) {
  // `convert --timing` prints these. The export pipeline on a module with a
  // constant and a manual computation: export-ops' edits are taken by the
  // shard-map export (one rewrite for both), symbol-dce parses the new
  // text, export-shardings runs on its tree, the callback step is skipped.
  const std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %c = sdy.constant dense<1.0> : tensor<f32>\n"
      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{\"x\"}]>] "
      "manual_axes={\"x\"} (%arg1: tensor<4xf32>) {\n"
      "    sdy.return %arg1 : tensor<4xf32>\n"
      "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n";
  auto out = runPasses(text, {*parsePassSpec("xla-sdy-stablehlo-export-pipeline")});
  ASSERT_TRUE(out.has_value()) << out.error().message;
  std::vector<std::string> names;
  for (const PassTiming& t : out->timings) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"xla-sdy-stablehlo-export-manual-reduction-collectives",
                                             "xla-sdy-export-ops", "xla-sdy-stablehlo-round-trip-shard-map-export",
                                             "symbol-dce", "xla-sdy-stablehlo-export-shardings",
                                             "xla-sdy-stablehlo-round-trip-export-callback-custom-calls"}));
  ASSERT_EQ(out->timings.size(), 6u);
  const std::vector<PassTiming>& t = out->timings;
  // The first step to run parses the input; export-ops' edits go unapplied.
  size_t first = t[0].skipped ? 1 : 0;
  EXPECT_TRUE(t[first].parsed);
  EXPECT_FALSE(t[1].skipped);
  EXPECT_FALSE(t[1].applied);
  // The shard-map export runs on the same tree and writes both passes' edits.
  EXPECT_FALSE(t[2].skipped);
  EXPECT_FALSE(t[2].parsed);
  EXPECT_TRUE(t[2].applied);
  EXPECT_TRUE(t[3].parsed);
  EXPECT_FALSE(t[4].parsed);
  EXPECT_TRUE(t[4].applied);
  EXPECT_TRUE(t[5].skipped);
  for (const PassTiming& s : t) {
    EXPECT_GE(s.prefilter, 0.0);
    EXPECT_GE(s.parse, 0.0);
    EXPECT_GE(s.run, 0.0);
    EXPECT_GE(s.apply, 0.0);
    if (s.skipped) {
      EXPECT_EQ(s.parse + s.run + s.apply, 0.0) << s.name;
    }
  }
}

TEST(Pipeline, AStepBetweenTwoPassesInOneRewriteRunsWhenItHasWork) {
  const std::string unused = "func.func private @unused(%arg0: tensor<i32>) -> tensor<i32> {\n  return %arg0 : tensor<i32>\n}\n";
  const std::string module =
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "  %0_in0 = mhlo.copy %arg0 {mhlo.sharding = \"{devices=[2]<=[2]}\"} : tensor<8xf32>\n"
      "  %0_local0 = stablehlo.custom_call @SPMDFullToShardShape(%0_in0) {mhlo.sharding = \"{manual}\"} : "
      "(tensor<8xf32>) -> tensor<4xf32>\n"
      "  %0_body = call @xla.sdy.inlinable_manual_computation_body(%0_local0) {mhlo.sharding = \"{manual}\"} : "
      "(tensor<4xf32>) -> tensor<4xf32>\n"
      "  %0_out0 = mhlo.copy %0_body {mhlo.sharding = \"{manual}\"} : tensor<4xf32>\n"
      "  %0 = stablehlo.custom_call @SPMDShardToFullShape(%0_out0) {mhlo.sharding = \"{devices=[2]<=[2]}\"} : "
      "(tensor<4xf32>) -> tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n"
      "func.func private @xla.sdy.inlinable_manual_computation_body(%b: tensor<4xf32> {mhlo.sharding = "
      "\"{manual}\"}) -> (tensor<4xf32> {mhlo.sharding = \"{manual}\"}) {\n"
      "  return %b : tensor<4xf32>\n"
      "}\n";
  std::vector<PassSpec> specs;
  for (const char* p : {"xla-sdy-import-shardings", "xla-stablehlo-round-trip-shard-map-import", "symbol-dce",
                        "xla-sdy-import-constants"})
    specs.push_back(*parsePassSpec(p));
  for (const std::string& text : {unused + module, module}) {
    auto together = runPasses(text, specs);
    ASSERT_TRUE(together.has_value()) << together.error().message;
    std::string stepwise = text;
    for (const PassSpec& spec : specs) {
      auto one = runPasses(stepwise, {spec});
      ASSERT_TRUE(one.has_value()) << one.error().message;
      stepwise = one->text;
    }
    EXPECT_EQ(together->text, stepwise);
    EXPECT_EQ(together->text.find("@unused"), std::string::npos) << together->text;
    EXPECT_NE(together->text.find("sdy.manual_computation"), std::string::npos) << together->text;
    EXPECT_NE(together->text.find("sdy.constant dense<1.0>"), std::string::npos) << together->text;
  }
}

}  // namespace
}  // namespace shardbridge::module
