// The module run in groups of functions (src/module/module_groups.cc,
// module_parts.h runInGroups; the import pipelines): how functions are
// grouped, that a run in groups gives one run's output, and what it refuses.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "module/export_module_gen.h"
#include "module/import_seed.h"
#include "module/module_parts.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
// Named: a unity build puts this file with module_parts_test.cc, whose helpers share these names.
namespace groups_test {
namespace {

std::string func(const std::string& name, const std::string& body = "", const std::string& visibility = "",
                 const std::string& sharding = "{devices=[4]<=[4]}") {
  return "  func.func " + visibility + "@" + name + "(%arg0: tensor<8xf32> {mhlo.sharding = \"" + sharding +
         "\"}) -> tensor<8xf32> {\n" + body + "    return %arg0 : tensor<8xf32>\n  }\n";
}

std::string module(const std::string& funcs, const std::string& attrs = "") {
  return "module @m" + attrs + " {\n" + funcs + "}\n";
}

std::string callOf(const std::string& callee) {
  return "    %0 = call @" + callee + "(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n";
}

TEST(PartGroups, FunctionsThatNameEachOtherGoTogether) {
  // a calls d (at the end), c calls e: {a, d}, {b}, {c, e}.
  std::string t = module(func("a", callOf("d")) + func("b") + func("c", callOf("e")) + func("d", "", "private ") +
                         func("e", "", "private "));
  std::vector<std::vector<size_t>> parts = partGroups(t, 1);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], (std::vector<size_t>{0, 3}));
  EXPECT_EQ(parts[1], (std::vector<size_t>{1}));
  EXPECT_EQ(parts[2], (std::vector<size_t>{2, 4}));
  // One group of everything is no parts.
  EXPECT_TRUE(partGroups(module(func("a", callOf("b")) + func("b", callOf("a"))), 1).empty());
  // An op between functions, which only one part would see.
  EXPECT_TRUE(partGroups(module(func("a") + "  sdy.mesh @m2 = <[\"x\"=2]>\n" + func("b")), 1).empty());
}

Result<ConvertedModule> runPipeline(const std::string& pipeline, const std::string& text,
                                    std::optional<PartOptions> parts, size_t* partsRun = nullptr) {
  SB_ASSIGN_OR_RETURN(PassSpec spec, parsePassSpec(pipeline));
  SB_ASSIGN_OR_RETURN(std::vector<Step> steps, expandSteps({spec}));
  if (parts)
    if (auto out = runInParts(text, steps, *parts)) {
      if (partsRun) *partsRun = out->parts;
      return std::move(*out);
    }
  if (partsRun) *partsRun = 0;
  return runSteps(text, steps);
}

std::string manualFunc(int i, const std::string& inSharding) {
  std::string n = std::to_string(i);
  return "  func.func @f" + n +
         "(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<16xf32> {\n"
         "    %c = sdy.constant dense<1.0> : tensor<16xf32>\n"
         "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{" + inSharding + "}]>] "
         "out_shardings=[<@mesh, [{\"x\"}]>] manual_axes={\"x\"} (%a: tensor<8xf32>) {\n"
         "      %1 = stablehlo.negate %a : tensor<8xf32>\n"
         "      sdy.return %1 : tensor<8xf32>\n"
         "    } : (tensor<16xf32>) -> tensor<16xf32>\n"
         "    %2 = stablehlo.add %0, %c : tensor<16xf32>\n"
         "    return %2 : tensor<16xf32>\n  }\n";
}

TEST(RunInGroups, ImportIsOneRun) {
  // An exported module: the outlined bodies follow every function, each
  // named from one function near the top; private helpers, one called and
  // one not; shardings over different axes in different functions, so that
  // a part alone would infer another mesh.
  std::string funcs;
  for (int i = 0; i < 30; ++i) {
    funcs += manualFunc(i, i % 3 == 0 ? "\"x\"" : "\"x\", \"y\"");
    if (i == 7) funcs += "  func.func private @dead(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n    return %arg0 : tensor<8xf32>\n  }\n";
  }
  std::string sdy = "module @m {\n  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n" + funcs + "}\n";
  auto exported = runPipeline("xla-sdy-stablehlo-export-pipeline", sdy, std::nullopt);
  ASSERT_TRUE(exported.has_value()) << exported.error().message;
  const std::string& hlo = exported->text;
  ASSERT_NE(hlo.find("func.func private @xla.sdy.inlinable_manual_computation_body_28("), std::string::npos);
  auto whole = runPipeline("xla-sdy-stablehlo-import-pipeline", hlo, PartOptions{0, 0, 1});
  ASSERT_TRUE(whole.has_value()) << whole.error().message;
  EXPECT_NE(whole->text.find("sdy.manual_computation"), std::string::npos);
  EXPECT_EQ(whole->text.find("inlinable_manual_computation_body"), std::string::npos);
  for (unsigned threads : {1u, 2u, 3u})
    for (size_t bytes : {size_t{1}, size_t{900}, size_t{4000}}) {
      size_t parts = 0;
      auto grouped = runPipeline("xla-sdy-stablehlo-import-pipeline", hlo, PartOptions{bytes, 0, threads}, &parts);
      ASSERT_TRUE(grouped.has_value()) << grouped.error().message;
      EXPECT_GT(parts, 1u) << bytes;
      EXPECT_EQ(grouped->text, whole->text) << bytes << " bytes, " << threads << " threads";
    }
}

TEST(RunInGroups, ModulesWithoutShardings) {
  // A call (sdy-flatten-call-graph runs and finds no manual computation
  // body to clone) and a private function nothing calls (symbol-dce).
  std::string t = module(func("a", callOf("c")) + func("b") + func("c", "", "private ") + func("d") +
                         func("e", "", "private "));
  for (size_t at = t.find(" {mhlo.sharding"); at != std::string::npos; at = t.find(" {mhlo.sharding"))
    t.erase(at, t.find("\"}", at) + 2 - at);
  size_t parts = 0;
  auto grouped = runPipeline("xla-sdy-stablehlo-import-pipeline", t, PartOptions{1, 0, 2}, &parts);
  auto whole = runPipeline("xla-sdy-stablehlo-import-pipeline", t, std::nullopt);
  ASSERT_TRUE(grouped.has_value() && whole.has_value());
  EXPECT_EQ(parts, 4u);  // {a, c}, b, d, e
  EXPECT_EQ(grouped->text, whole->text);
  EXPECT_EQ(whole->text.find("sdy.mesh"), std::string::npos);
  EXPECT_EQ(whole->text.find("@e"), std::string::npos);
}

TEST(RunInGroups, Refused) {
  std::string three = func("a") + func("b", "", "", "{devices=[2,2]<=[4] last_tile_dim_replicate}") + func("c");
  size_t parts = 0;
  ASSERT_TRUE(runPipeline("xla-sdy-stablehlo-import-pipeline", module(three), PartOptions{1, 0, 1}, &parts));
  EXPECT_EQ(parts, 3u);
  auto refused = [&](const std::string& text, const std::string& pipeline = "xla-sdy-stablehlo-import-pipeline") {
    (void)runPipeline(pipeline, text, PartOptions{1, 0, 1}, &parts);
    return parts == 0;
  };
  // Shardings outside the functions, the round-trip form, a V3 sharding
  // (its mesh is the first one's), device orders only the any-order import
  // reads (order-dependent), a while loop (its free-variable pass is not
  // groupable), a pass without a prefilter that does not run in groups.
  EXPECT_TRUE(refused(module(three, " attributes {mhlo.sharding = \"{replicated}\"}")));
  EXPECT_TRUE(refused(module(three, " attributes {mhlo.frontend_attributes = {xla.sdy.meshes = \"{}\"}}")));
  EXPECT_TRUE(refused(module(func("a") + func("b", "", "", "{mesh['x'=4], [{'x'}]}") + func("c"))));
  EXPECT_TRUE(refused(module(func("a") + func("b", "", "", "{devices=[4]0,2,1,3}") + func("c"))));
  std::string loop =
      "    %1 = stablehlo.while(%i = %arg0) : tensor<8xf32>\n     cond {\n"
      "      %p = stablehlo.constant dense<true> : tensor<i1>\n      stablehlo.return %p : tensor<i1>\n"
      "    } do {\n      stablehlo.return %i : tensor<8xf32>\n    }\n";
  EXPECT_TRUE(refused(module(func("a", loop) + func("b") + func("c"))));
  EXPECT_TRUE(refused(module(three), "sdy-lift-inlined-meshes"));
  // The seed holds each distinct sharding once, in text order.
  std::optional<ImportSeed> seed = importSeedOf(module(three + func("d", "", "", "{devices=[4]<=[4]}")));
  ASSERT_TRUE(seed.has_value());
  EXPECT_EQ(seed->shardings.size(), 2u);
  EXPECT_EQ(seed->index.at("{devices=[2,2]<=[4] last_tile_dim_replicate}"), 1u);
}

// Over generated modules (tests/module/export_module_gen.h), exported: the
// import in groups, one group a part on one to three threads, is the one
// run's text, or gives up (nullopt) where that run has an error or a
// warning.
RC_GTEST_PROP(RunInGroupsProperty, GroupsAreOneRun, ()) {
  testgen::GenOptions options;
  options.maxModules = 1;
  options.maxFunctions = 6;
  testgen::ModuleGenerator gen([](int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }, options);
  testgen::GeneratedModule m = gen.generate();
  unsigned threads = static_cast<unsigned>(*rc::gen::inRange(1, 4));
  auto exported = runPipeline("xla-sdy-stablehlo-export-pipeline", m.text, std::nullopt);
  if (!exported || !exported->warnings.empty()) return;
  size_t parts = 0;
  auto grouped = runPipeline("xla-sdy-stablehlo-import-pipeline", exported->text, PartOptions{1, 0, threads}, &parts);
  RC_CLASSIFY(parts > 0, "in parts");
  RC_CLASSIFY(m.manualComputations > 0, "with manual computations");
  if (parts == 0) return;
  auto whole = runPipeline("xla-sdy-stablehlo-import-pipeline", exported->text, std::nullopt);
  RC_ASSERT(whole.has_value());
  RC_ASSERT(grouped.has_value());
  RC_ASSERT(whole->warnings.empty());
  if (grouped->text != whole->text)
    RC_FAIL("groups:\n" + grouped->text + "\nwhole:\n" + whole->text + "\ninput:\n" + exported->text);
}

}  // namespace
}  // namespace groups_test
}  // namespace shardbridge::module
