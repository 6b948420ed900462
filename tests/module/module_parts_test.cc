// The module cut into parts (src/module/module_parts.h): where it may be
// cut, and that a run in parts gives one run's output.
#include "module/module_parts.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "module/export_module_gen.h"

#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

std::string func(const std::string& name, const std::string& body = "", const std::string& visibility = "") {
  return "  func.func " + visibility + "@" + name +
         "(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<8xf32> {\n" + body +
         "    return %arg0 : tensor<8xf32>\n  }\n";
}

std::string module(const std::string& funcs) {
  return "module @m {\n  sdy.mesh @mesh = <[\"x\"=2]>\n" + funcs + "}\n";
}

TEST(PartCuts, BetweenFunctions) {
  std::string t = module(func("a") + func("b") + func("c"));
  std::vector<size_t> cuts = partCuts(t, 1);
  ASSERT_EQ(cuts.size(), 4u);
  EXPECT_EQ(t.substr(cuts[0], 13), "  func.func @");
  EXPECT_EQ(t.substr(cuts[1], 14), "  func.func @b");
  EXPECT_EQ(t.substr(cuts[2], 14), "  func.func @c");
  EXPECT_EQ(t.substr(cuts[3]), "}\n");
}

TEST(PartCuts, ReferencesKeepFunctionsTogether) {
  std::string call = "    %0 = call @c(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n";
  std::string t = module(func("a", call) + func("b") + func("c", "", "private ") + func("d"));
  std::vector<size_t> cuts = partCuts(t, 1);
  ASSERT_EQ(cuts.size(), 3u);  // a..c in one part, d in the other
  EXPECT_EQ(t.substr(cuts[1], 14), "  func.func @d");
  // Quoted and bare names are one symbol.
  std::string quoted = "    %0 = call @\"d\"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n";
  EXPECT_TRUE(partCuts(module(func("a", quoted) + func("d")), 1).empty());
}

TEST(PartCuts, Refused) {
  std::string two = func("a") + func("b");
  EXPECT_FALSE(partCuts(module(two), 1).empty());
  EXPECT_TRUE(partCuts(module(two), 0).empty());
  EXPECT_TRUE(partCuts(module(func("a")), 1).empty());  // one function
  // A second module, a function named from the module's attributes, the
  // numbered ops, existing body names, a duplicate name.
  EXPECT_TRUE(partCuts(module(two) + module(func("c") + func("d")), 1).empty());
  EXPECT_TRUE(partCuts("module @m attributes {x = @a} {\n" + two + "}\n", 1).empty());
  std::string allReduce = "    %1 = sdy.all_reduce {\"x\"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>\n";
  EXPECT_FALSE(partCuts(module(func("a", allReduce) + func("b")), 1).empty());  // forwarded: no handle
  EXPECT_TRUE(partCuts(module(func("a", allReduce) + func("b", "    // unreduced\n")), 1).empty());
  EXPECT_TRUE(partCuts(module(func("a", "    // sdy.reduce_scatter\n") + func("b")), 1).empty());
  EXPECT_TRUE(partCuts(module(two + func("xla.sdy.inlinable_manual_computation_body", "", "private ")), 1).empty());
  EXPECT_TRUE(partCuts(module(func("a") + func("a")), 1).empty());
  // After the module only #loc lines.
  EXPECT_FALSE(partCuts(module(two) + "#loc1 = loc(\"x.py\":1:2)\n", 1).empty());
  EXPECT_TRUE(partCuts(module(two) + "func.func @z() {\n  return\n}\n", 1).empty());
}

std::string manualFunc(int i) {
  std::string n = std::to_string(i);
  return "  func.func @f" + n +
         "(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<16xf32> {\n"
         "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{\"x\"}]>] "
         "manual_axes={\"x\"} (%a: tensor<8xf32>) {\n"
         "      %1 = stablehlo.negate %a : tensor<8xf32>\n"
         "      sdy.return %1 : tensor<8xf32>\n"
         "    } : (tensor<16xf32>) -> tensor<16xf32>\n"
         "    %2 = sdy.reshard %0 <@mesh, [{}]> : tensor<16xf32>\n"
         "    return %2 : tensor<16xf32>\n  }\n";
}

Result<ConvertedModule> run(const std::string& text, const PartOptions& parts) {
  SB_ASSIGN_OR_RETURN(PassSpec spec, parsePassSpec("xla-sdy-stablehlo-export-pipeline"));
  SB_ASSIGN_OR_RETURN(std::vector<Step> steps, expandSteps({spec}));
  if (auto out = runInParts(text, steps, parts)) return std::move(*out);
  return runSteps(text, steps);
}

TEST(RunInParts, SameAsOneRun) {
  std::string funcs;
  for (int i = 0; i < 40; ++i) {
    funcs += manualFunc(i);
    // A private function nothing calls (symbol-dce removes it in its part
    // as in the whole), and one that @f20 calls (kept, in @f20's part).
    if (i == 7) funcs += func("dead", "", "private ");
    if (i == 20) funcs += func("called", "", "private ");
  }
  size_t f20 = funcs.find("    return %2", funcs.find("@f20("));
  funcs.insert(f20, "    %3 = call @called(%2) : (tensor<16xf32>) -> tensor<16xf32>\n");
  std::string t = module(funcs) + "#loc1 = loc(\"x.py\":1:2)\n";
  auto whole = run(t, PartOptions{0, 0, 1});
  ASSERT_TRUE(whole.has_value()) << whole.error().message;
  EXPECT_EQ(whole->parts, 0u);
  for (unsigned threads : {1u, 2u, 3u})
    for (size_t bytes : {size_t{1}, size_t{700}, size_t{3000}}) {
      auto parts = run(t, PartOptions{bytes, 0, threads});
      ASSERT_TRUE(parts.has_value()) << parts.error().message;
      EXPECT_GT(parts->parts, 1u) << bytes;
      EXPECT_EQ(parts->text, whole->text) << bytes << " bytes, " << threads << " threads";
    }
  // The bodies are numbered in one sequence and follow every function.
  EXPECT_NE(whole->text.find("@xla.sdy.inlinable_manual_computation_body_38("), std::string::npos);
  EXPECT_LT(whole->text.find("func.func @f39"), whole->text.find("func.func private @xla.sdy.inlinable"));
  EXPECT_EQ(whole->text.find("@dead"), std::string::npos);
  EXPECT_NE(whole->text.find("func.func private @called"), std::string::npos);
}

TEST(RunInParts, ErrorsAndWarningsComeFromOneRun) {
  std::string funcs;
  for (int i = 0; i < 6; ++i) funcs += manualFunc(i);
  // An unknown mesh in the fifth function: the parts give up, and the one
  // run reports the error where it is in the input.
  std::string bad = funcs;
  size_t at = bad.find("@mesh", bad.find("@f4"));
  bad.replace(at, 5, "@nomesh");
  auto parts = run(module(bad), PartOptions{1, 0, 2});
  auto whole = run(module(bad), PartOptions{0, 0, 1});
  ASSERT_FALSE(parts.has_value());
  ASSERT_FALSE(whole.has_value());
  EXPECT_EQ(parts.error().message, whole.error().message);
  EXPECT_EQ(parts.error().offset, whole.error().offset);
}

// Over generated modules (tests/module/export_module_gen.h: one module, up
// to six functions with nested manual computations, constraints, reshards,
// collectives, constants, comments and locations): a run in parts, one
// function a part on one to three threads, is the one run's text, or gives
// up (nullopt) where that run has an error or a warning.
RC_GTEST_PROP(RunInPartsProperty, PartsAreOneRun, ()) {
  testgen::GenOptions options;
  options.maxModules = 1;
  options.maxFunctions = 6;
  testgen::ModuleGenerator gen([](int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }, options);
  testgen::GeneratedModule m = gen.generate();
  unsigned threads = static_cast<unsigned>(*rc::gen::inRange(1, 4));
  auto spec = parsePassSpec("xla-sdy-stablehlo-export-pipeline");
  RC_ASSERT(spec.has_value());
  auto steps = expandSteps({*spec});
  RC_ASSERT(steps.has_value());
  auto whole = runSteps(m.text, *steps);
  std::optional<ConvertedModule> parts = runInParts(m.text, *steps, PartOptions{1, 0, threads});
  RC_CLASSIFY(parts.has_value(), "in parts");
  RC_CLASSIFY(m.manualComputations > 0, "with manual computations");
  if (!parts) return;
  RC_ASSERT(whole.has_value());
  RC_ASSERT(whole->warnings.empty());
  if (parts->text != whole->text) RC_FAIL("parts:\n" + parts->text + "\nwhole:\n" + whole->text + "\ninput:\n" + m.text);
}

}  // namespace
}  // namespace shardbridge::module
