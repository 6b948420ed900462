// Tests for scanTree, exportModuleOnTree and importModuleOnTree
// (src/module/tree_scan.h): the conversion of a module's shardings read off
// a pass's op tree gives exactly what the scan of the text gives (text,
// warnings, errors), on the modules export-shardings meets in both export
// pipelines and on what import-shardings meets, and the walk is taken on
// them (it does not silently fall back to the scan).
#include "module/tree_scan.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "module/export_module_gen.h"
#include "shardbridge/module/op_tree.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

// Cases: of the RC_PARAMS cases CTest asks for (10,000 optimised, 300 under
// the sanitizers), the first kTreeScanCases run the conversions (eight
// exports or imports and the pipelines before them, ~4 ms a case optimised,
// ~150 ms under ASan); the rest pass at once, so that each property stays
// within seconds in CI.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kTreeScanCases = 40;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kTreeScanCases = 40;
#else
constexpr int kTreeScanCases = 1000;
#endif
#else
constexpr int kTreeScanCases = 1000;
#endif
bool treeScanBudget(int& used) { return ++used <= kTreeScanCases; }

// The module spans export-shardings converts one at a time (pass
// export_shardings.cc): each top-level module, or the whole implicit one.
std::vector<TextSpan> moduleSpans(const OpTree& tree) {
  std::vector<TextSpan> spans;
  for (int m : tree.modules()) spans.push_back(tree.ops[static_cast<size_t>(m)].whole);
  if (spans.empty()) spans.push_back({0, tree.text.size()});
  return spans;
}

std::string describeResult(const Result<ConvertedModule>& r) {
  if (!r) return "error at " + std::to_string(r.error().offset) + ": " + r.error().message;
  std::string s = r->text;
  for (const ModuleWarning& w : r->warnings) s += "\nwarning at " + std::to_string(w.offset) + ": " + w.message;
  return s;
}

struct Comparison {
  int walked = 0;        // module spans the tree walk took
  std::string mismatch;  // the first difference, empty when none
};

// `scan(text, variant)` and `walk(tree, span, variant)` on every module
// span of `text`, for each of four option variants.
template <typename Scan, typename Walk>
Comparison compareBothWays(const std::string& text, Scan&& scan, Walk&& walk) {
  Comparison c;
  auto tree = parseOpTree(text);
  if (!tree) {
    c.mismatch = "no op tree: " + tree.error().message;
    return c;
  }
  for (TextSpan span : moduleSpans(*tree)) {
    for (int variant = 0; variant < 4; ++variant) {
      std::string scanned = describeResult(scan(span.in(tree->text), variant));
      std::string walked = describeResult(walk(*tree, span, variant));
      if (c.mismatch.empty() && scanned != walked)
        c.mismatch = "variant " + std::to_string(variant) + ":\n--- scan\n" + scanned + "\n--- tree\n" + walked +
                     "\n--- input\n" + text;
    }
    module_detail::ScanVisitor none;
    auto took = module_detail::scanTree(*tree, span, none);
    if (took && *took) ++c.walked;
  }
  return c;
}

ExportModuleOptions exportVariant(int variant) {
  ExportModuleOptions options;
  options.v3 = (variant & 1) != 0;
  options.readRoundTrip = (variant & 2) != 0;
  return options;
}

// exportModule and exportModuleOnTree, with each option combination the
// pipelines use.
Comparison compareExports(const std::string& text) {
  return compareBothWays(
      text, [](std::string_view t, int v) { return exportModule(t, exportVariant(v)); },
      [](const OpTree& tree, TextSpan span, int v) { return exportModuleOnTree(tree, span, exportVariant(v)); });
}

// The text export-shardings reads in a pipeline: the pipeline's `steps`
// before it (empty when they reject the module).
std::string beforeExportShardings(const std::string& text, const std::vector<std::string>& steps) {
  std::vector<PassSpec> specs;
  for (const std::string& s : steps) specs.push_back(*parsePassSpec(s));
  auto out = runPasses(text, specs);
  return out ? out->text : std::string();
}

const std::vector<std::string> kStablehloSteps = {
    "xla-sdy-stablehlo-export-manual-reduction-collectives", "xla-sdy-export-ops",
    "xla-sdy-stablehlo-round-trip-shard-map-export", "symbol-dce"};
const std::vector<std::string> kRoundTripSteps = {
    "sdy-lift-inlined-meshes", "xla-sdy-round-trip-dedup-meshes", "xla-sdy-round-trip-export-ops",
    "xla-sdy-round-trip-shard-map-export", "xla-sdy-round-trip-export-shardy-attrs"};

ImportModuleOptions importVariant(int variant) {
  ImportModuleOptions options;
  options.maximalMeshNames = (variant & 1) != 0;
  options.renameOnClash = (variant & 2) != 0;
  return options;
}

// importModule and importModuleOnTree.
Comparison compareImports(const std::string& text) {
  return compareBothWays(
      text, [](std::string_view t, int v) { return importModule(t, importVariant(v)); },
      [](const OpTree& tree, TextSpan span, int v) { return importModuleOnTree(tree, span, importVariant(v)); });
}

testgen::GeneratedModule treeScanModule() {
  testgen::ModuleGenerator gen([](int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); });
  return gen.generate();
}

RC_GTEST_PROP(TreeScanProperty, ExportOnTreeEqualsTheScanInBothPipelines, ()) {
  static int used = 0;
  if (!treeScanBudget(used)) return;
  testgen::GeneratedModule m = treeScanModule();
  std::string stablehlo = beforeExportShardings(m.text, kStablehloSteps);
  RC_ASSERT(!stablehlo.empty());
  // What export-shardings meets in the StableHLO pipeline holds no
  // constraint or manual computation any more: the walk is taken.
  Comparison c = compareExports(stablehlo);
  RC_ASSERT(c.mismatch == "");
  RC_ASSERT(c.walked == static_cast<int>(moduleSpans(*parseOpTree(stablehlo)).size()));
  // The round-trip steps reject some generated modules, as upstream does
  // (a manual axis that became a sub-axis when meshes were deduplicated).
  std::string roundTrip = beforeExportShardings(m.text, kRoundTripSteps);
  RC_CLASSIFY(roundTrip.empty(), "round-trip steps rejected the module");
  if (!roundTrip.empty()) RC_ASSERT(compareExports(roundTrip).mismatch == "");
  // The generated module itself has constraints and manual computations:
  // the scan is used, with the same results.
  RC_ASSERT(compareExports(m.text).mismatch == "");
}

// The import side: what `--to hlo` and `--to hlo --round-trip` write, and
// the generated sdy module itself (a module that already holds meshes).
RC_GTEST_PROP(TreeScanProperty, ImportOnTreeEqualsTheScan, ()) {
  static int used = 0;
  if (!treeScanBudget(used)) return;
  testgen::GeneratedModule m = treeScanModule();
  for (const char* pipeline : {"xla-sdy-stablehlo-export-pipeline", "xla-sdy-round-trip-export-pipeline"}) {
    auto exported = runPasses(m.text, {*parsePassSpec(pipeline)});
    if (!exported) continue;  // the round-trip export rejects some modules, as upstream does
    Comparison c = compareImports(exported->text);
    RC_ASSERT(c.mismatch == "");
    // The StableHLO export leaves no sdy op: the walk is taken.
    if (std::string_view(pipeline) == "xla-sdy-stablehlo-export-pipeline")
      RC_ASSERT(c.walked == static_cast<int>(moduleSpans(*parseOpTree(exported->text)).size()));
  }
  RC_ASSERT(compareImports(m.text).mismatch == "");
}

TEST(TreeScan, FallsBackOnConstraintsAndManualComputations) {
  const std::string constraint =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = sdy.sharding_constraint %a <@mesh, [{\"x\"}]> : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n";
  auto tree = parseOpTree(constraint);
  ASSERT_TRUE(tree.has_value());
  module_detail::ScanVisitor none;
  auto took = module_detail::scanTree(*tree, {0, constraint.size()}, none);
  ASSERT_TRUE(took.has_value());
  EXPECT_FALSE(*took);
  auto viaTree = exportModuleOnTree(*tree, {0, constraint.size()}, {});
  ASSERT_TRUE(viaTree.has_value());
  EXPECT_EQ(viaTree->text, exportModule(constraint, {})->text);
  EXPECT_NE(viaTree->text.find("@Sharding"), std::string::npos);
}

// Constructs the walk reproduces: a generic op, a frontend dictionary, a
// sharded declaration, a mesh with a trailing dictionary and loc, a
// `: T1, T2` select, and a module with attributes; errors located alike.
TEST(TreeScan, SameExportOnMixedConstructs) {
  const std::string text =
      "module @m attributes {mhlo.num_partitions = 4 : i32} {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]> loc(\"m\")\n"
      "  func.func private @decl(tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>})\n"
      "  func.func @f(%a: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}, %p: tensor<i1>)\n"
      "      -> (tensor<4x4xf32> {jax.result_info = \"r\", sdy.sharding = #sdy.sharding<@mesh, [{}, {\"y\"}]>}) {\n"
      "    %0 = \"stablehlo.abs\"(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"y\"}, {}]>]>} : "
      "(tensor<4x4xf32>) -> tensor<4x4xf32>\n"
      "    %1 = stablehlo.select %p, %0, %a {mhlo.frontend_attributes = {a = \"b\"}, "
      "sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"x\"}]>]>} : tensor<i1>, tensor<4x4xf32>\n"
      "    return %1 : tensor<4x4xf32>\n  }\n}\n";
  Comparison c = compareExports(text);
  EXPECT_EQ(c.mismatch, "");
  EXPECT_EQ(c.walked, 1);
  const std::string bad =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"z\"}]>}) -> tensor<4xf32> {\n"
      "  return %a : tensor<4xf32>\n}\n";
  Comparison b = compareExports(bad);
  EXPECT_EQ(b.mismatch, "");
  EXPECT_EQ(b.walked, 1);
  auto tree = parseOpTree(bad);
  auto out = exportModuleOnTree(*tree, {0, bad.size()}, {});
  ASSERT_FALSE(out.has_value());
  EXPECT_NE(out.error().message.find("z"), std::string::npos);
}

}  // namespace
}  // namespace shardbridge::module
