// Issue 10 item 6: properties of the import pipelines over generated sdy
// modules (one mesh; arguments, results and ops with or without shardings;
// sharding constraints; sdy.manual_computation with a body op), written as
// MLIR prints them:
//   (a) the round-trip export (V2 or V3) then the import `convert --to sdy`
//       picks (as `convert --to hlo --round-trip [--v3] | convert --to sdy`
//       runs them) gives the module back byte for byte;
//   (b) `--to hlo`, `--to sdy`, `--to hlo` gives the same bytes the second
//       time as the first (item 4: the export's manual computations are
//       raised back by the StableHLO import);
//   (c) where a pass runs over the one before's edits (run_passes.cc:
//       import-constants and the round-trip import of shardy attributes;
//       the StableHLO shard-map import and import-constants), the output is
//       what the passes write one after the other, over exports of the
//       export properties' modules (tests/module/export_module_gen.h),
//       which hold constants and manual computations.
// Cases: RC_PARAMS from CTest (SB_PROPERTY_CASES), of which the first
// kMaxCases run the pipelines (two per case, ~4 ms in release): the rest
// pass at once, so that each property stays under ~5 s in CI.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "module/export_module_gen.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

int pick(int n) { return *rc::gen::inRange(0, n); }

constexpr int kMaxCases = 1000;
bool budgetLeft(int& used) { return ++used <= kMaxCases; }

struct Gen {
  std::vector<std::string> axes;  // each of size 2
  std::string text;
  int next = 0;
  bool manual = false;

  // Dims of a rank-2 sharding over `free` axes, each used at most once.
  std::string dims(const std::vector<std::string>& free, const std::string& firstDim = {}) {
    std::vector<std::string> d(2);
    if (!firstDim.empty()) d[0] = "\"" + firstDim + "\"";
    for (const std::string& a : free) {
      int where = pick(3);  // 0: dim 0, 1: dim 1, 2: unused
      if (where == 2) continue;
      std::string& s = d[static_cast<size_t>(where)];
      s += (s.empty() ? "" : ", ") + ("\"" + a + "\"");
    }
    return "[{" + d[0] + "}, {" + d[1] + "}]";
  }
  std::string sharding(const std::vector<std::string>& free) { return "<@mesh, " + dims(free) + ">"; }

  std::string module() {
    int n = 2 + pick(2);
    for (int i = 0; i < n; ++i) axes.push_back(std::string(1, static_cast<char>('a' + i)));
    text = "module @m {\n  sdy.mesh @mesh = <[";
    for (size_t i = 0; i < axes.size(); ++i) text += (i ? ", \"" : "\"") + axes[i] + "\"=2";
    text += "]>\n  func.func @main(";
    int args = 1 + pick(3);
    std::vector<std::string> values;
    for (int i = 0; i < args; ++i) {
      std::string name = "%arg" + std::to_string(i);
      text += (i ? ", " : "") + name + ": tensor<8x8xf32>";
      if (pick(2)) text += " {sdy.sharding = #sdy.sharding" + sharding(axes) + "}";
      values.push_back(name);
    }
    bool resultSharded = pick(2);
    std::string resultSharding = resultSharded ? "#sdy.sharding" + sharding(axes) : "";
    text += resultSharded ? ") -> (tensor<8x8xf32> {sdy.sharding = " + resultSharding + "}) {\n"
                          : ") -> tensor<8x8xf32> {\n";
    int ops = pick(5);
    for (int k = 0; k < ops; ++k) {
      std::string a = values[static_cast<size_t>(pick(static_cast<int>(values.size())))];
      std::string b = values[static_cast<size_t>(pick(static_cast<int>(values.size())))];
      std::string r = "%" + std::to_string(next++);
      int kind = pick(4);
      if (kind == 0) {
        text += "    " + r + " = stablehlo.add " + a + ", " + b + " : tensor<8x8xf32>\n";
      } else if (kind == 1) {
        text += "    " + r + " = stablehlo.multiply " + a + ", " + b + " {sdy.sharding = #sdy.sharding_per_value<[" +
                sharding(axes) + "]>} : tensor<8x8xf32>\n";
      } else if (kind == 2) {
        text += "    " + r + " = sdy.sharding_constraint " + a + " " + sharding(axes) + " : tensor<8x8xf32>\n";
      } else {
        manual = true;
        std::string m = axes[static_cast<size_t>(pick(static_cast<int>(axes.size())))];
        std::vector<std::string> free;
        for (const std::string& x : axes)
          if (x != m) free.push_back(x);
        std::string in = "<@mesh, " + dims(free, m) + ">";
        std::string out = "<@mesh, " + dims(free, m) + ">";
        std::string arg = "%arg" + std::to_string(100 + k);
        std::string inner = "%" + std::to_string(next++);
        text += "    " + r + " = sdy.manual_computation(" + a + ") in_shardings=[" + in + "] out_shardings=[" + out +
                "] manual_axes={\"" + m + "\"} (" + arg + ": tensor<4x8xf32>) {\n";
        text += "      " + inner + " = stablehlo.negate " + arg;
        if (pick(2)) text += " {sdy.sharding = #sdy.sharding_per_value<[" + sharding({}) + "]>}";
        text += " : tensor<4x8xf32>\n      sdy.return " + inner + " : tensor<4x8xf32>\n";
        text += "    } : (tensor<8x8xf32>) -> tensor<8x8xf32>\n";
      }
      values.push_back(r);
    }
    text += "    return " + values.back() + " : tensor<8x8xf32>\n  }\n}\n";
    return text;
  }
};

std::string run(const std::string& text, const std::vector<std::string>& passes) {
  std::vector<PassSpec> specs;
  for (const std::string& p : passes) {
    auto s = parsePassSpec(p);
    if (!s) RC_FAIL("bad pass " + p);
    specs.push_back(*s);
  }
  auto out = runPasses(text, specs);
  if (!out) RC_FAIL(passes[0] + " failed: " + out.error().message + " at " + std::to_string(out.error().offset) +
                    "\n" + text);
  return out->text;
}

RC_GTEST_PROP(ImportPipelineProperty, RoundTripExportThenImportGivesTheModuleBack, ()) {
  static int used = 0;
  if (!budgetLeft(used)) return;
  Gen g;
  std::string m = g.module();
  // V2 (strings in mhlo.frontend_attributes) or V3 (NamedSharding strings).
  bool v3 = pick(2) == 1;
  std::string exported =
      run(m, {v3 ? "xla-sdy-round-trip-export-pipeline{enable-hlo-sharding-v3=true}" : "xla-sdy-round-trip-export-pipeline"});
  std::string back = run(exported, {importPassSpecFor(exported)});
  RC_ASSERT(importPipelineFor(exported) == "xla-sdy-round-trip-import-pipeline" || (v3 && !g.manual));
  // V3 keeps no xla.sdy.meshes: a mesh no sharding names is not saved.
  std::string expected = m;
  if (v3 && m.find("<@mesh") == std::string::npos) {
    size_t b = expected.find("  sdy.mesh @mesh");
    expected.erase(b, expected.find('\n', b) + 1 - b);
  }
  if (back != expected) RC_FAIL("round trip differs:\n" + m + "---- exported\n" + exported + "---- imported\n" + back);
}

RC_GTEST_PROP(ImportPipelineProperty, ExportImportExportIsStable, ()) {
  static int used = 0;
  if (!budgetLeft(used)) return;
  Gen g;
  std::string m = g.module();
  std::string hlo1 = run(m, {"xla-sdy-stablehlo-export-pipeline"});
  RC_ASSERT(importPipelineFor(hlo1) == "xla-sdy-stablehlo-import-pipeline");
  std::string sdy = run(hlo1, {"xla-sdy-stablehlo-import-pipeline"});
  if (g.manual && sdy.find("sdy.manual_computation") == std::string::npos)
    RC_FAIL("no manual computation raised:\n" + hlo1 + "----\n" + sdy);
  std::string hlo2 = run(sdy, {"xla-sdy-stablehlo-export-pipeline"});
  if (hlo2 != hlo1) RC_FAIL("second export differs:\n" + m + "---- hlo1\n" + hlo1 + "---- sdy\n" + sdy + "---- hlo2\n" + hlo2);
}

// `passes` in one runPasses (where the driver lets a pass run over the one
// before's edits) against each on its own parse.
void expectStepwise(const std::string& text, const std::vector<const char*>& passes) {
  std::vector<PassSpec> specs;
  for (const char* p : passes) specs.push_back(*parsePassSpec(p));
  auto together = runPasses(text, specs);
  std::string stepwise = text;
  for (const PassSpec& spec : specs) {
    auto one = runPasses(stepwise, {spec});
    if (!one) {
      RC_ASSERT(!together.has_value());
      RC_ASSERT(together.error().message == one.error().message);
      return;
    }
    stepwise = one->text;
  }
  RC_ASSERT(together.has_value());
  if (together->text != stepwise) RC_FAIL("one run:\n" + together->text + "\nsteps:\n" + stepwise);
}

// A module of the export properties' generator (tests/module/
// export_module_gen.h: constants, manual computations), exported by
// `pipeline`; nullopt when that refuses it (the round-trip export refuses a
// manual sub-axis, as upstream does).
std::optional<std::string> exportedModule(const char* pipeline) {
  testgen::ModuleGenerator gen([](int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); });
  auto exported = runPasses(gen.generate().text, {*parsePassSpec(pipeline)});
  RC_CLASSIFY(!exported.has_value(), "export refused");
  if (!exported) return std::nullopt;
  return exported->text;
}

// (c) The passes from import-constants to the round-trip import of shardy
// attributes, as the import pipelines run them (the tuple and while steps
// between them find nothing to do here, and are passed over).
RC_GTEST_PROP(ImportPipelineProperty, ImportConstantsAndShardyAttrsInOneRewriteAreTheSteps, ()) {
  static int used = 0;
  if (!budgetLeft(used)) return;
  auto rt = exportedModule("xla-sdy-round-trip-export-pipeline");
  if (!rt) return;
  RC_CLASSIFY(rt->find("stablehlo.constant") != std::string::npos, "constants");
  expectStepwise(*rt, {"xla-sdy-import-constants", "stablehlo-ext-flatten-entry-function-tuples",
                       "stablehlo-ext-flatten-custom-call-tuples", "stablehlo-ext-fold-tuples-and-reshapes",
                       "stablehlo-ext-while-op-implicit-capture", "xla-sdy-round-trip-import-shardy-attrs"});
}

// (c) The StableHLO import's first steps: the shard-map import, then
// symbol-dce (passed over when the functions it would remove are gone) and
// import-constants over the shard-map import's edits.
RC_GTEST_PROP(ImportPipelineProperty, ShardMapImportAndImportConstantsInOneRewriteAreTheSteps, ()) {
  static int used = 0;
  if (!budgetLeft(used)) return;
  auto hlo = exportedModule("xla-sdy-stablehlo-export-pipeline");
  if (!hlo) return;
  RC_CLASSIFY(hlo->find("stablehlo.constant") != std::string::npos, "constants");
  expectStepwise(*hlo, {"xla-sdy-import-shardings", "xla-stablehlo-round-trip-shard-map-import", "symbol-dce",
                        "xla-sdy-import-constants"});
}

}  // namespace
}  // namespace shardbridge::module
