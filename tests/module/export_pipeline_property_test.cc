// Issue 9 item 7: properties of the export pipeline
// (xla-sdy-stablehlo-export-pipeline, `convert --to hlo`) over generated
// modules (tests/module/export_module_gen.h: several modules and meshes,
// functions, nested sdy.manual_computation, sharding constraints,
// sdy.reshard, the collectives, sdy.constant, two-result ops, comments and
// loc markers):
//   (a) no sdy op, no sdy attribute and no sdy.mesh is left, and every
//       `@name` reference resolves in its module's symbol table;
//   (b) every mhlo.sharding written is convert::convertToHloSharding's
//       result for that value's sdy sharding, with the manual axes in force
//       there (the generator knows both), and nothing else gets one;
//   (c) bytes the export does not rewrite survive unchanged: comments,
//       loc(...) markers, unsharded ops outside manual computations;
//   (d) parseOpTree reads every generated module and finds every op, in
//       text order;
//   (e) export-ops and the shard-map export in one rewrite write what the
//       two passes write one after the other.
// Cases: RC_PARAMS from CTest (10,000 optimised, 300 under the sanitizers).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "module/export_module_gen.h"
#include "shardbridge/module/mlir_scan.h"
#include "shardbridge/module/op_tree.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

using testgen::GeneratedModule;

GeneratedModule generated() {
  // Uniform choices (RapidCheck's inRange leans on the size parameter, which
  // would make the small cases all alike); the generator's bounds keep
  // every module small.
  testgen::ModuleGenerator gen([](int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); });
  return gen.generate();
}

std::string exportPipeline(const GeneratedModule& m) {
  auto spec = parsePassSpec("xla-sdy-stablehlo-export-pipeline");
  RC_ASSERT(spec.has_value());
  auto out = runPasses(m.text, {*spec});
  if (!out) RC_FAIL("export failed: " + out.error().message + " at " + std::to_string(out.error().offset) +
                    "\n" + m.text);
  for (const ModuleWarning& w : out->warnings)
    RC_FAIL("warning at " + std::to_string(w.offset) + ": " + w.message + "\n" + m.text);
  return out->text;
}

std::string shardingOf(const AttrDictNode& dict, std::string_view text) {
  const AttrEntry* e = dict.find("mhlo.sharding");
  return e ? std::string(e->value.in(text)) : std::string();
}

// The `@name` references written in op `i` outside its regions and string
// literals, except its own symbol and a custom call's target.
std::vector<std::pair<std::string, size_t>> referencesOf(const OpTree& tree, int i) {
  const OpNode& op = tree.ops[static_cast<size_t>(i)];
  std::string_view t = tree.text;
  std::vector<std::pair<std::string, size_t>> refs;
  bool skippedTarget = op.name != "stablehlo.custom_call";
  for (size_t p = op.whole.begin; p < op.whole.end; ++p) {
    bool inRegion = false;
    for (const Region& r : op.regions)
      if (p >= r.whole.begin && p < r.whole.end) {
        p = r.whole.end - 1;
        inRegion = true;
      }
    if (inRegion) continue;
    if (t[p] == '"') {
      for (++p; p < op.whole.end && t[p] != '"'; ++p)
        if (t[p] == '\\') ++p;
      continue;
    }
    if (t[p] != '@' || (p >= op.symbol.begin && p < op.symbol.end && !op.symbol.empty())) continue;
    size_t e = p + 1;
    while (e < op.whole.end && (isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_' || t[e] == '.' ||
                                t[e] == '$' || t[e] == '-'))
      ++e;
    std::string name(t.substr(p + 1, e - p - 1));
    if (!skippedTarget) {
      skippedTarget = true;
      continue;
    }
    refs.push_back({name, p});
    p = e - 1;
  }
  return refs;
}

bool hasSdyAttr(const AttrDictNode& dict, std::string_view text) {
  for (const AttrEntry& e : dict.entries)
    if (e.name.starts_with("sdy.") || e.name.starts_with("xla.sdy.") ||
        e.value.in(text).find("#sdy") != std::string_view::npos)
      return true;
  return false;
}

// (a)
void checkNoSdyLeft(const GeneratedModule& m, const std::string& out) {
  (void)m;
  auto tree = parseOpTree(out);
  if (!tree) RC_FAIL("output does not parse: " + tree.error().message + "\n" + out);
  RC_ASSERT(scanMlir(out).has_value());
  for (int i = 0; i < static_cast<int>(tree->ops.size()); ++i) {
    const OpNode& op = tree->ops[static_cast<size_t>(i)];
    if (op.name.starts_with("sdy.")) RC_FAIL("sdy op left: " + std::string(op.whole.in(out)) + "\n" + out);
    RC_ASSERT(!hasSdyAttr(op.dict, out));
    for (const ValueDef& a : op.funcArgs()) RC_ASSERT(!hasSdyAttr(a.dict, out));
    for (const FuncResult& r : op.funcResults()) RC_ASSERT(!hasSdyAttr(r.dict, out));
    int module = tree->enclosingModule(i);
    for (const auto& [name, at] : referencesOf(*tree, i))
      if (tree->lookupSymbol(module, name) < 0)
        RC_FAIL("dangling @" + name + " at " + std::to_string(at) + "\n" + out);
  }
}

// (b)
void checkShardings(const GeneratedModule& m, const std::string& out) {
  auto tree = parseOpTree(out);
  RC_ASSERT(tree.has_value());
  std::map<std::string, int> seen;
  int bodies = 0;
  for (const OpNode& op : tree->ops) {
    if (op.name == "func.func") {
      std::string key = "@" + std::string(op.symbolName);
      if (op.symbolName.starts_with("xla.sdy.inlinable_manual_computation_body")) {
        ++bodies;
        RC_ASSERT(!op.funcArgs().empty());
        key = std::string(op.funcArgs()[0].name.in(out));
      }
      auto it = m.funcs.find(key);
      if (it == m.funcs.end()) RC_FAIL("unexpected function " + key + "\n" + out);
      RC_ASSERT(op.funcArgs().size() == it->second.args.size());
      RC_ASSERT(op.funcResults().size() == it->second.results.size());
      for (size_t a = 0; a < op.funcArgs().size(); ++a)
        if (shardingOf(op.funcArgs()[a].dict, out) != it->second.args[a])
          RC_FAIL(key + " argument " + std::to_string(a) + ": " + shardingOf(op.funcArgs()[a].dict, out) +
                  " != " + it->second.args[a] + "\n" + m.text + "\n" + out);
      for (size_t r = 0; r < op.funcResults().size(); ++r)
        RC_ASSERT(shardingOf(op.funcResults()[r].dict, out) == it->second.results[r]);
      ++seen[key];
      continue;
    }
    if (op.resultDefs.empty()) {
      RC_ASSERT(shardingOf(op.dict, out).empty() || op.name == "return");
      continue;
    }
    std::string name(op.resultDefs[0].name.in(out));
    RC_ASSERT(!m.removed.count(name));
    auto it = m.opSharding.find(name);
    if (it == m.opSharding.end()) RC_FAIL("unexpected value " + name + "\n" + out);
    if (shardingOf(op.dict, out) != it->second)
      RC_FAIL(name + " (" + std::string(op.name) + "): " + shardingOf(op.dict, out) + " != " + it->second +
              "\n" + m.text + "\n" + out);
    ++seen[name];
  }
  RC_ASSERT(bodies == m.manualComputations);
  for (const auto& [name, expected] : m.opSharding)
    if (seen[name] != 1) RC_FAIL(name + " defined " + std::to_string(seen[name]) + " times\n" + out);
  for (const auto& [name, f] : m.funcs) RC_ASSERT(seen[name] == 1);
}

// (c)
void checkUntouchedBytes(const GeneratedModule& m, const std::string& out) {
  for (const std::string& v : m.verbatim) {
    size_t at = out.find(v);
    if (at == std::string::npos || out.find(v, at + 1) != std::string::npos)
      RC_FAIL("not kept exactly once: " + v + "\n" + m.text + "\n" + out);
  }
}

// (a), (b) and (c) on one export of each module: the export dominates a
// case's cost (about 1-4 ms), and 10,000 cases per property run in CTest.
RC_GTEST_PROP(ExportPipelineProperty, NoSdyLeftShardingsAreTheConvertersUntouchedBytesKept, ()) {
  GeneratedModule m = generated();
  std::string out = exportPipeline(m);
  checkNoSdyLeft(m, out);
  checkShardings(m, out);
  checkUntouchedBytes(m, out);
}

// (d)
RC_GTEST_PROP(ExportPipelineProperty, OpTreeFindsEveryGeneratedOp, ()) {
  GeneratedModule m = generated();
  auto tree = parseOpTree(m.text);
  if (!tree) RC_FAIL(tree.error().message + " at " + std::to_string(tree.error().offset) + "\n" + m.text);
  RC_ASSERT(tree->ops.size() == m.opNames.size());
  for (size_t i = 0; i < m.opNames.size(); ++i) RC_ASSERT(tree->ops[i].name == m.opNames[i]);
  RC_ASSERT(tree->modules().size() == static_cast<size_t>(m.implicitModule ? 0 : m.modules));
}

// (e) export-ops and the shard-map export in one rewrite: when the pipeline
// lets the shard-map export run over export-ops' unapplied edits
// (pipelines.cc, runShardMapExportOver), the text is what the two passes
// write one after the other, each on its own parse; so are the errors.
RC_GTEST_PROP(ExportPipelineProperty, ExportOpsAndShardMapExportInOneRewriteAreTheTwoSteps, ()) {
  GeneratedModule m = generated();
  PassSpec exportOps = *parsePassSpec("xla-sdy-export-ops");
  PassSpec shardMap = *parsePassSpec("xla-sdy-stablehlo-round-trip-shard-map-export");
  auto together = runPasses(m.text, {exportOps, shardMap});
  auto first = runPasses(m.text, {exportOps});
  RC_ASSERT(first.has_value());
  auto second = runPasses(first->text, {shardMap});
  RC_ASSERT(together.has_value() == second.has_value());
  if (!together) {
    RC_ASSERT(together.error().message == second.error().message);
    return;
  }
  if (together->text != second->text) RC_FAIL("one rewrite:\n" + together->text + "\ntwo:\n" + second->text);
  RC_ASSERT(together->warnings.size() == first->warnings.size() + second->warnings.size());
}

// --- findings, kept failing until src/ is fixed ---------------------------

Result<ConvertedModule> runExport(std::string_view text) {
  auto spec = parsePassSpec("xla-sdy-stablehlo-export-pipeline");
  if (!spec) return spec.error();
  return runPasses(text, {*spec});
}

// Found by the property (a) and (c) checks with `@mesh` in a comment:
// export_shardings.cc's search for meshes still named after the export
// skips string literals but not `//` comments, so a comment naming the mesh
// keeps the sdy.mesh op (and warns "sdy.mesh @mesh kept: it is still
// referred to here" at the comment). A comment is not a reference.
TEST(ExportPipelineFinding, CommentNamingAMeshDoesNotKeepIt) {
  constexpr std::string_view kIn =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<8xf32> {\n"
      "  // was @mesh\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  auto out = runExport(kIn);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text,
            "func.func @f(%arg0: tensor<8xf32> {mhlo.sharding = \"{devices=[2]<=[2]}\"}) -> tensor<8xf32> {\n"
            "  // was @mesh\n"
            "  return %arg0 : tensor<8xf32>\n"
            "}\n");
  EXPECT_TRUE(out->warnings.empty());
}

// Found by the property's (c) check: when shard_map_export.cc outlines a manual
// computation body, it copies the bytes from the first op's line to the
// terminator's line, so a comment before the first op of the body (and
// anything between the terminator and the closing `}`) is dropped, while a
// comment between two ops survives.
TEST(ExportPipelineFinding, CommentBeforeTheFirstOpOfABodyIsKept) {
  constexpr std::string_view kIn =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}]>] out_shardings=[<@mesh, "
      "[{\"x\"}]>] manual_axes={\"x\"} (%arg1: tensor<4xf32>) {\n"
      "    // first\n"
      "    %1 = stablehlo.negate %arg1 : tensor<4xf32>\n"
      "    // second\n"
      "    sdy.return %1 : tensor<4xf32>\n"
      "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n";
  auto out = runExport(kIn);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_NE(out->text.find("// second\n"), std::string::npos) << out->text;
  EXPECT_NE(out->text.find("// first\n"), std::string::npos) << out->text;
}

// Found while seeding fuzz/corpus/mlir_passes: a function argument whose
// type is a type alias (`!t = tensor<8x8xf32>`, which op_tree.h reads) is
// checked as a non-shaped type, so a rank-2 sharding on it is refused
// ("non-shaped tensors can only have a sharding with rank 0 ..."), where
// MLIR resolves the alias and exports it.
TEST(ExportPipelineFinding, TypeAliasArgumentIsATensor) {
  constexpr std::string_view kIn =
      "!t = tensor<8x8xf32>\n"
      "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
      "func.func @f(%arg0: !t {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}) -> !t {\n"
      "  return %arg0 : !t\n"
      "}\n";
  auto out = runExport(kIn);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text,
            "!t = tensor<8x8xf32>\n"
            "func.func @f(%arg0: !t {mhlo.sharding = \"{devices=[2,2]<=[4]}\"}) -> !t {\n"
            "  return %arg0 : !t\n"
            "}\n");
}

// The same with the alias outside an explicit module: export-shardings
// converts the module's text, and the file's aliases are passed along
// (module/pass.h typeAliasesOf). A chain of aliases resolves too.
TEST(ExportPipelineFinding, TypeAliasOutsideTheModuleIsATensor) {
  constexpr std::string_view kIn =
      "!u = tensor<8x8xf32>\n"
      "!t = !u\n"
      "module {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
      "  func.func @f(%arg0: !t {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}) -> !t {\n"
      "    return %arg0 : !t\n"
      "  }\n"
      "}\n";
  auto out = runExport(kIn);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text,
            "!u = tensor<8x8xf32>\n"
            "!t = !u\n"
            "module {\n"
            "  func.func @f(%arg0: !t {mhlo.sharding = \"{devices=[2,1,2]<=[4] last_tile_dim_replicate}\"}) -> !t {\n"
            "    return %arg0 : !t\n"
            "  }\n"
            "}\n");
}

// Found by fuzz/mlir_passes_fuzz (corpus entry crash_alias_unbalanced.mlir):
// parseOpTree accepts a top-level alias line with an unbalanced closing
// bracket, which op_tree.h says is an error and scanMlir refuses, so the
// export passes a malformed module through.
TEST(ExportPipelineFinding, AliasLineWithAnUnbalancedBracketIsRefused) {
  constexpr std::string_view kIn = "#loc1 = loc(\"f.py\":3:4))\nmodule {\n}\n";
  auto tree = parseOpTree(kIn);
  ASSERT_FALSE(tree.has_value());
  EXPECT_EQ(tree.error().message, "unbalanced ')'");
  EXPECT_EQ(tree.error().offset, 23u);
  auto scan = scanMlir(kIn);
  ASSERT_FALSE(scan.has_value());
  EXPECT_EQ(scan.error().message, "unbalanced ')'");
}

// Found by fuzz/mlir_passes_fuzz (its 60 s runs, within 300 inputs): bytes
// after an sdy.mesh op's `<...>` on its line (a stray `@`, a word such as
// `junk`, a byte >= 0x80) are accepted by parseOpTree, and the mesh removal
// (export-shardings, through exportModule) erases the op but leaves those
// bytes, so the output starts with a line parseOpTree refuses ("expected an
// operation name, got '@'" / "got byte 163" at offset 0). Because
// export_shardings.cc checks for meshes still named only `if (tree)`, the
// failed re-parse also skips that check: the fuzzer's input had
// `{dy.sharding = #sdy.sharding_per_value<[<@mesh, ...]>]>}` (a foreign key
// naming @mesh), and the output removed the mesh and kept the reference, a
// dangling @mesh. Either the input is refused with a located error, or the
// output parses.
TEST(ExportPipelineFinding, StrayAtAfterAMeshLeavesAParsableOutput) {
  constexpr std::string_view kIn =
      "sdy.mesh @mesh = <[\"x\"=2]>@\n"
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  auto out = runExport(kIn);
  if (out.has_value()) {
    auto tree = parseOpTree(out->text);
    EXPECT_TRUE(tree.has_value()) << tree.error().message << "\n" << out->text;
  }
  EXPECT_FALSE(parseOpTree(kIn).has_value());
}

}  // namespace
}  // namespace shardbridge::module
