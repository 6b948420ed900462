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

// Every event and every field a visitor sees, written out, so that the
// scan's and the walk's can be compared whole (spans as offsets, scopes by
// their axes and computation).
class RecordingVisitor : public module_detail::ScanVisitor {
 public:
  RecordingVisitor(std::string_view text, bool values) : t_(text), values_(values) {}
  bool wantsValueDicts() const override { return values_; }
  Status onModule(const module_detail::ModuleInfo& m) override {
    log += "module " + std::to_string(m.explicitModule) + " " + std::to_string(m.bodyStart) + "\n";
    return okStatus();
  }
  Status onMesh(const module_detail::MeshOp& m) override {
    log += "mesh " + std::string(m.name) + span(m.statement) + span(m.body) + "\n";
    return okStatus();
  }
  Status onDict(const module_detail::ValueDict& vd) override {
    // The fields of the dictionary's kind (the scanner leaves the others as
    // the previous dictionary set them; no consumer reads them).
    log += "dict " + std::to_string(static_cast<int>(vd.kind)) + span(vd.dict->whole);
    if (vd.kind == module_detail::SiteKind::kArg || vd.kind == module_detail::SiteKind::kResult)
      log += " " + std::string(vd.funcName) + " " + std::to_string(vd.index) + " " + std::string(vd.argName);
    if (vd.kind == module_detail::SiteKind::kOp)
      log += " [" + std::string(vd.opResults) + "] " + std::string(vd.opName) + " " + std::to_string(vd.opOffset);
    if (vd.kind == module_detail::SiteKind::kModule) log += " kw=" + std::to_string(vd.attributesKeyword);
    if (vd.kind != module_detail::SiteKind::kModule) {
      log += " known=" + std::to_string(vd.typesKnown);
      for (const module_detail::Span& ty : vd.types) log += span(ty);
    }
    log += scope(vd.manual) + "\n";
    for (const module_detail::DictEntry& e : vd.dict->entries)
      log += "  entry" + span(e.whole) + span(e.key) + span(e.value) + " " + std::to_string(e.nested) + "\n";
    return okStatus();
  }
  Status onConstraint(const module_detail::ConstraintOp& c) override {
    log += "constraint" + span(c.op) + " [" + std::string(c.results) + "]" + span(c.operand) + span(c.sharding) +
           span(c.type) + scope(c.manual) + "\n";
    return okStatus();
  }
  Status onManualComputation(const module_detail::ManualComputationOp& m) override {
    log += "manual " + std::to_string(m.offset) + " [" + std::string(m.results) + "] in";
    for (const module_detail::Span& x : m.inShardings) log += span(x);
    log += " out";
    for (const module_detail::Span& x : m.outShardings) log += span(x);
    log += " axes";
    for (const std::string& a : m.manualAxes) log += " " + a;
    log += span(m.manualAxesSpan) + "\n";
    return okStatus();
  }
  Status onOtherSdyOp(std::string_view name, size_t offset) override {
    log += "other " + std::string(name) + " " + std::to_string(offset) + "\n";
    return okStatus();
  }
  std::string log;

 private:
  std::string span(module_detail::Span s) const {
    return " " + std::to_string(s.begin) + ":" + std::to_string(s.end) + "'" + std::string(s.in(t_)) + "'";
  }
  static std::string scope(const module_detail::ManualScope* m) {
    if (!m) return " scope=null";
    std::string s = " scope=" + std::to_string(m->computation) + "{";
    for (const std::string& a : m->axes) s += a + ",";
    return s + "}";
  }
  std::string_view t_;
  bool values_;
};

struct EventComparison {
  int walked = 0;
  std::string mismatch;
};

// scanText's and scanTree's events (both with and without value
// dictionaries) and summaries on every module span of `text`; and a plan
// replayed against a fresh walk.
EventComparison compareEvents(const std::string& text) {
  EventComparison c;
  auto tree = parseOpTree(text);
  if (!tree) {
    c.mismatch = "no op tree: " + tree.error().message;
    return c;
  }
  for (TextSpan span : moduleSpans(*tree)) {
    std::string_view sub = span.in(tree->text);
    for (bool values : {true, false}) {
      RecordingVisitor scanned(sub, values), walked(sub, values);
      auto s = module_detail::scanText(sub, scanned);
      module_detail::ScanSummary summary;
      auto w = module_detail::scanTree(*tree, span, walked, &summary);
      if (!w) {
        // The walk's errors are the scanner's too (a malformed type or mesh).
        if (s && c.mismatch.empty()) c.mismatch = "walk failed where the scan did not: " + w.error().message;
        continue;
      }
      if (!*w) {
        if (!walked.log.empty() && c.mismatch.empty()) c.mismatch = "fell back after reporting:\n" + walked.log;
        continue;
      }
      if (values) ++c.walked;
      std::string a = scanned.log, b = walked.log;
      if (s) {
        a += "summary " + std::to_string(s->firstStatement) + " " + std::to_string(s->explicitModule) + " " +
             std::to_string(s->moduleBodyStart);
        b += "summary " + std::to_string(summary.firstStatement) + " " + std::to_string(summary.explicitModule) +
             " " + std::to_string(summary.moduleBodyStart);
      } else {
        // The walk stops at no error the scan meets later; what it reported up
        // to there must agree.
        b = b.substr(0, a.size());
      }
      if (a != b && c.mismatch.empty())
        c.mismatch = "--- scan\n" + a + "\n--- tree\n" + b + "\n--- input\n" + std::string(sub);
    }
  }
  // One plan (TreeScanPlan), replayed for a collect (no value dictionaries)
  // and then twice for a rewrite (with keepOpTypes, the second time with the
  // op types the first read), and carried from span to span (rebuilt for
  // each): the events and outcome of a fresh walk every time.
  for (bool keepTypes : {false, true}) {
    module_detail::TreeScanPlan plan(keepTypes);
    for (TextSpan span : moduleSpans(*tree)) {
      std::string_view sub = span.in(tree->text);
      for (bool values : {false, true, true}) {
        RecordingVisitor fresh(sub, values), replayed(sub, values);
        auto f = module_detail::scanTree(*tree, span, fresh);
        auto r = module_detail::scanTree(*tree, span, replayed, nullptr, &plan);
        std::string a = fresh.log + (f ? (*f ? "walked" : "fell back") : "error: " + f.error().message);
        std::string b = replayed.log + (r ? (*r ? "walked" : "fell back") : "error: " + r.error().message);
        if (a != b && c.mismatch.empty())
          c.mismatch = "--- fresh walk\n" + a + "\n--- replayed plan\n" + b + "\n--- input\n" + std::string(sub);
      }
    }
  }
  return c;
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
  // The generated module itself has constraints and (nested) manual
  // computations: the walk gives the scan's events and results.
  RC_ASSERT(compareExports(m.text).mismatch == "");
  EventComparison e = compareEvents(m.text);
  RC_ASSERT(e.mismatch == "");
  RC_CLASSIFY(e.walked == 0, "the walk left the generated module to the scan");
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
  RC_ASSERT(compareEvents(m.text).mismatch == "");
}

// A custom-form constraint is read off the tree, with the scanner's spans.
TEST(TreeScan, WalksConstraints) {
  const std::string constraint =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = sdy.sharding_constraint %a <@mesh, [{\"x\"}]> : tensor<4xf32> loc(\"c\")\n"
      "  return %0 : tensor<4xf32>\n}\n";
  EventComparison e = compareEvents(constraint);
  EXPECT_EQ(e.mismatch, "");
  EXPECT_EQ(e.walked, 1);
  Comparison c = compareExports(constraint);
  EXPECT_EQ(c.mismatch, "");
  EXPECT_EQ(c.walked, 1);
  auto tree = parseOpTree(constraint);
  auto viaTree = exportModuleOnTree(*tree, {0, constraint.size()}, {});
  ASSERT_TRUE(viaTree.has_value());
  EXPECT_NE(viaTree->text.find("@Sharding"), std::string::npos);
}

// An sdy collective's axis lists (`[{"x"}, {}]`) are dictionaries in
// brackets to the op tree; with none of the interesting keys in the op the
// walk reads past them as the scanner does. A collective whose text names
// such a key still goes to the scan.
TEST(TreeScan, WalksPastCollectiveAxisLists) {
  const std::string collectives =
      "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
      "func.func @f(%a: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}) -> tensor<4x4xf32> {\n"
      "  %0 = sdy.all_gather [{}, {\"y\"}] %a out_sharding=<@mesh, [{\"x\"}, {}]> : tensor<4x4xf32>\n"
      "  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>} : tensor<4x4xf32>\n"
      "  %2 = sdy.all_slice [{\"y\"}, {}] %1 out_sharding=<@mesh, [{\"x\", \"y\"}, {}]> : tensor<4x4xf32>\n"
      "  return %2 : tensor<4x4xf32>\n}\n";
  EventComparison e = compareEvents(collectives);
  EXPECT_EQ(e.mismatch, "");
  EXPECT_EQ(e.walked, 1);
  Comparison c = compareImports(collectives);
  EXPECT_EQ(c.mismatch, "");
  std::string named = collectives;
  named.replace(named.find("[{}, {\"y\"}]"), std::string("[{}, {\"y\"}]").size(), "[{mhlo.sharding}, {\"y\"}]");
  EventComparison n = compareEvents(named);
  EXPECT_EQ(n.mismatch, "");
  EXPECT_EQ(n.walked, 0);
}

// Nested manual computations with constraints and sharded ops inside and
// outside, sharded block arguments of a body, empty manual axes, `%0:2`
// results, a module with attributes and several modules per file.
TEST(TreeScan, WalksNestedManualComputations) {
  const std::string text =
      "module @m attributes {mhlo.num_partitions = 8 : i32} {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n"
      "  func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}, %b: tensor<8x8xf32>)"
      " -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
      "    %c = sdy.sharding_constraint %a <@mesh, [{\"x\", \"y\"}, {}]> : tensor<8x8xf32>\n"
      "    %0:2 = sdy.manual_computation(%c, %b) in_shardings=[<@mesh, [{\"x\"}, {}]>, <@mesh, [{}, {}]>] "
      "out_shardings=[<@mesh, [{\"x\"}, {}]>, <@mesh, [{}, {\"y\"}]>] manual_axes={\"x\"} "
      "(%arg1: tensor<4x8xf32>, %arg2: tensor<8x8xf32>) {\n"
      "      %1 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}]>]>} : "
      "tensor<4x8xf32>\n"
      "      %2 = sdy.sharding_constraint %1 <@mesh, [{}, {\"z\"}]> : tensor<4x8xf32>\n"
      "      %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{}, {\"y\"}]>] "
      "out_shardings=[<@mesh, [{}, {\"y\"}]>] manual_axes={\"y\", \"z\"} (%arg3: tensor<4x4xf32>) {\n"
      "        %4 = sdy.sharding_constraint %arg3 <@mesh, [{}, {}]> : tensor<4x4xf32>\n"
      "        %5 = stablehlo.negate %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : "
      "tensor<4x4xf32>\n"
      "        sdy.return %5 : tensor<4x4xf32>\n"
      "      } : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
      "      %6 = stablehlo.reduce(%3 init: %arg2) applies stablehlo.add across dimensions = [1] : "
      "(tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4xf32>\n"
      "      %7 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] "
      "manual_axes={} (%arg4: tensor<8x8xf32>) {\n"
      "        %8 = stablehlo.abs %arg4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"z\"}, {}]>]>} : "
      "tensor<8x8xf32>\n"
      "        sdy.return %8 : tensor<8x8xf32>\n"
      "      } : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "      %9 = \"stablehlo.case\"(%arg2) ({\n"
      "      ^bb0(%q: tensor<8x8xf32>):\n"
      "        stablehlo.return %q : tensor<8x8xf32>\n"
      "      }) : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "      sdy.return %3, %7 : tensor<4x8xf32>, tensor<8x8xf32>\n"
      "    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)\n"
      "    %10 = stablehlo.add %0#0, %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>} : "
      "tensor<8x8xf32>\n"
      "    %11 = sdy.sharding_constraint %10 <@mesh, [{}, {\"x\"}]> : tensor<8x8xf32>\n"
      "    return %11, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>\n"
      "  }\n"
      "}\n"
      "module @n {\n"
      "  sdy.mesh @mesh = <[\"x\"=2]>\n"
      "  func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{\"x\"}]>] "
      "manual_axes={\"x\"} (%arg1: tensor<2xf32>) {\n"
      "      func.func private @inner(%p: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<2xf32>\n"
      "      sdy.return %arg1 : tensor<2xf32>\n"
      "    } : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<4xf32>\n"
      "  }\n"
      "}\n";
  EventComparison e = compareEvents(text);
  EXPECT_EQ(e.mismatch, "");
  EXPECT_EQ(e.walked, 2);
  Comparison c = compareExports(text);
  EXPECT_EQ(c.mismatch, "");
  EXPECT_EQ(c.walked, 2);
  EXPECT_EQ(compareImports(text).mismatch, "");
  // The scopes the events carry: checked against the scanner above, and
  // here that they are not all empty (the comparison could not fail else).
  auto tree = parseOpTree(text);
  RecordingVisitor walked(tree->text, true);
  ASSERT_TRUE(*module_detail::scanTree(*tree, tree->ops[0].whole, walked));
  EXPECT_NE(walked.log.find("scope=1{x,y,z,}"), std::string::npos) << walked.log;
  EXPECT_NE(walked.log.find("scope=2{x,}"), std::string::npos) << walked.log;
  std::string first = "manual " + std::to_string(text.find("sdy.manual_computation")) + " [%0:2]";
  EXPECT_NE(walked.log.find(first), std::string::npos) << walked.log;
}

// Sharded block arguments of a manual computation's body (the scanner
// skips its argument list; the op tree rejects a dictionary in a `^bb`
// label), a block label inside the body, and a body argument's `loc`
// naming a file path: the same events and conversions either way.
TEST(TreeScan, SameEventsWithShardedBodyArguments) {
  const std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{\"x\"}]>] "
      "manual_axes={\"x\"} (%b: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {\n"
      "    %1 = \"stablehlo.case\"(%b) ({\n"
      "    ^bb0(%q: tensor<2xf32>):\n"
      "      stablehlo.return %q : tensor<2xf32>\n"
      "    }) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    sdy.return %1 : tensor<2xf32>\n"
      "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, [{\"x\"}]>] "
      "manual_axes={\"x\"} (%c: tensor<2xf32> loc(\"/tmp/a.py\":1:2)) {\n"
      "    %3 = sdy.sharding_constraint %c <@mesh, [{}]> : tensor<2xf32>\n"
      "    sdy.return %3 : tensor<2xf32>\n"
      "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %2 : tensor<4xf32>\n}\n";
  EXPECT_EQ(compareEvents(text).mismatch, "");
  EXPECT_EQ(compareExports(text).mismatch, "");
  EXPECT_EQ(compareImports(text).mismatch, "");
}

// Spellings the walk leaves to the scanner: it gives up before reporting
// anything, and the conversion is the scan's (errors included).
TEST(TreeScan, LeavesOddConstraintsAndManualComputationsToTheScan) {
  const std::string head = "sdy.mesh @mesh = <[\"x\"=2]>\nfunc.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n";
  const std::string tail = "  return %a : tensor<4xf32>\n}\n";
  const std::vector<std::string> bodies = {
      // a dictionary, a function type, a comment inside the sharding
      "  %0 = sdy.sharding_constraint %a <@mesh, [{\"x\"}]> {a = 1} : tensor<4xf32>\n",
      "  %0 = sdy.sharding_constraint %a <@mesh, [{\"x\"}]> : (tensor<4xf32>) -> tensor<4xf32>\n",
      "  %0 = sdy.sharding_constraint %a <@mesh, [{\"x\"} // c\n]> : tensor<4xf32>\n",
      // malformed: the scanner's errors
      "  %0 = sdy.sharding_constraint %a : tensor<4xf32>\n",
      "  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[] "
      "manual_axes={x} (%b: tensor<2xf32>) {\n    sdy.return %b : tensor<2xf32>\n  } : (tensor<4xf32>) -> ()\n",
      "  %0 = sdy.manual_computation(%a) out_shardings=[] in_shardings=[] "
      "manual_axes={} (%b: tensor<2xf32>) {\n    sdy.return %b : tensor<2xf32>\n  } : (tensor<4xf32>) -> ()\n",
      // a dictionary after the body
      "  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[] "
      "manual_axes={\"x\"} (%b: tensor<2xf32>) {\n    sdy.return %b : tensor<2xf32>\n  } {sdy.sharding = "
      "#sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xf32>) -> ()\n",
  };
  for (const std::string& body : bodies) {
    std::string text = head + body + tail;
    auto tree = parseOpTree(text);
    if (!tree) continue;  // the tree rejects it too: nothing to walk
    EventComparison e = compareEvents(text);
    EXPECT_EQ(e.mismatch, "") << text;
    EXPECT_EQ(e.walked, 0) << text;
    EXPECT_EQ(compareExports(text).mismatch, "") << text;
    EXPECT_EQ(compareImports(text).mismatch, "") << text;
  }
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

// A bare block after a mesh: MLIR reads the brace as the mesh's attribute
// dictionary and fails; to the tree it is a region holding a constraint.
// The tree refuses it at the brace, and the scanner alike; so does every
// pipeline: never an internal error (a fuzz crash of mlir_passes_fuzz: the
// mesh's removal with its "dictionary" overlapped the constraint's
// rewrite), never the block removed with the mesh.
TEST(TreeScan, ABlockAfterAMeshIsRefused) {
  const std::string text =
      "module {\n  sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n  {\n"
      "    %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"a\"}, {?}]> : tensor<8x8xf32>\n"
      "    return %0 : tensor<8x8xf32>\n  }\n}\n";
  const size_t brace = text.find("  {\n") + 2;
  auto tree = parseOpTree(text);
  ASSERT_FALSE(tree.has_value());
  EXPECT_EQ(tree.error().offset, brace);
  auto scanned = exportModule(text, {});
  ASSERT_FALSE(scanned.has_value());
  EXPECT_EQ(scanned.error().offset, brace);
  for (const char* pipeline : {"xla-sdy-stablehlo-export-pipeline",
                               "xla-sdy-stablehlo-export-pipeline{keep-hlo-sharding-constraints=true}",
                               "xla-sdy-stablehlo-import-pipeline"}) {
    auto out = runPasses(text, {*parsePassSpec(pipeline)});
    ASSERT_FALSE(out.has_value()) << pipeline;
    EXPECT_EQ(out.error().code, ErrorCode::kParse) << pipeline << ": " << out.error().message;
    EXPECT_EQ(out.error().offset, brace) << pipeline;
    EXPECT_NE(out.error().message.find("got a block"), std::string::npos) << out.error().message;
  }
}

}  // namespace
}  // namespace shardbridge::module
