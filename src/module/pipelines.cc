// The pass registry and the pipelines, composed in one place (the driver
// that runs them: run_passes.cc) as upstream
// composes them (xla/service/spmd/shardy/stablehlo_round_trip/
// stablehlo_export.cc and stablehlo_import.cc). See docs/module.md.
#include <algorithm>
#include <map>
#include <optional>

#include "module/pass.h"
#include "module/pass_registry.h"
#include "module/pass_prefilters.h"
#include "module/text_lex.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

using namespace prefilters;

PassOptionInfo flagOption(std::string name, std::string help, std::string def = "false",
                          std::string onlyDefault = {}) {
  return {std::move(name), std::move(def), std::move(help), std::move(onlyDefault)};
}

const PassOptionInfo kV3 = flagOption("enable-hlo-sharding-v3", "write V3 (NamedSharding) sharding strings");
const PassOptionInfo kKeepConstraints = flagOption(
    "keep-hlo-sharding-constraints",
    "export sdy.sharding_constraint as the @Sharding custom call instead of mhlo.copy");
const PassOptionInfo kAddMissing = flagOption(
    "add-missing-sharding-to-control-flow",
    "give stablehlo.while / case / if without a sharding a replicated one", "true");
const PassOptionInfo kAddMissingOff = flagOption(
    "add-missing-sharding-to-control-flow",
    "give stablehlo.while / case / if without a sharding a replicated one", "false");
const PassOptionInfo kCreateConstraints = flagOption(
    "create-hlo-sharding-constraints",
    "write the copies around a manual computation as @Sharding custom calls instead of mhlo.copy");
const PassOptionInfo kSimplify = flagOption(
    "simplify-replicated-shardings",
    "with enable-hlo-sharding-v3: a fully replicated, closed sharding without unreduced or manual axes "
    "is written {replicated}");
const PassOptionInfo kClearReverse = flagOption(
    "clear-reverse-op-sharding",
    "drop the sharding of every stablehlo.reverse whose operand has one");
const PassOptionInfo kAllReduceScatter = flagOption(
    "export-all-reduce-scatter", "lower every sdy.reduce_scatter to a manual reduce-scatter", "false");
const PassOptionInfo kEraseManual = flagOption(
    "erase-manual-computations", "an older variant of the manual-computation export", "false",
    "not an option of the pinned upstream pipeline (docs/module.md); the pinned lowering is always used");
const PassOptionInfo kDedupFully = flagOption(
    "dedup-functions-fully", "an older call-graph deduplication option", "false",
    "not an option of the pinned upstream pipeline (it moved to Shardy's sdy-unflatten-call-graph); "
    "functions are never deduplicated");
const PassOptionInfo kUpstreamOrder = flagOption(
    "upstream-device-order",
    "shardbridge's own: fail where upstream aborts on device orders no iota mesh explains");

const PassOptionInfo kKeepMeshesInlined = flagOption(
    "keep-meshes-inlined", "keep inlined meshes in the shardings (sdy-lift-inlined-meshes is not run)");
const PassOptionInfo kReadRoundTrip = flagOption(
    "read-round-trip-attrs",
    "shardbridge's own: also export the round-trip form (xla.sdy.meshes, frontend xla.sdy.sharding)", "true");

const PassOptionInfo kConstantImport =
    flagOption("enable-constant-import", "stablehlo.constant -> sdy.constant (xla-sdy-import-constants)", "true");
const PassOptionInfo kLiftAndDedup = flagOption(
    "lift-and-dedup-meshes", "lift inlined meshes and merge meshes over the same devices after the import");
const PassOptionInfo kV3Import = flagOption(
    "enable-hlo-sharding-v3",
    "the module's shardings are V3 (NamedSharding) mhlo.sharding strings, read on their own meshes (then lifted "
    "and deduplicated)");

const PassOptionInfo kBodiesOnly = flagOption(
    "manual-computation-bodies-only",
    "shardbridge's own: only calls of functions named *xla.sdy.manual_computation_body* are flattened, the "
    "predicate the pinned round-trip import passes (upstream isManualComputation)");

const PassOptionInfo kOpShardings = flagOption(
    "import-op-shardings",
    "shardbridge's own: keep the xla.sdy.sharding of every op whose result types it fits (upstream keeps "
    "only those of @Sharding, callbacks, send, recv and after_all); convert --to sdy sets it");

// stablehlo-ext-canonicalize-from-hlo-import's parts that are done, in its order
// (the entry function's tuples, then the greedy patterns).
const std::vector<std::string> kCanonicalizeFromHloImportSteps = {"stablehlo-ext-flatten-entry-function-tuples",
                                                                  "stablehlo-ext-flatten-custom-call-tuples",
                                                                  "stablehlo-ext-fold-tuples-and-reshapes",
                                                                  "stablehlo-ext-while-op-implicit-capture"};

// The round-trip import's steps (upstream sdy_round_trip/pipelines.cc,
// addSdyRoundTripImportPipeline). `if:OPT|OPT2:` runs a step only when one of
// the pipeline options is true. Not run: stablehlo-ext's prepare-for-HLO-export,
// the erasure of every dead pure op by canonicalize-from-HLO-import's greedy
// driver, and MLIR's canonicalize (docs/module.md "Import").
std::vector<std::string> roundTripImportSteps() {
  std::vector<std::string> steps = {"symbol-dce", "if:enable-constant-import:xla-sdy-import-constants"};
  steps.insert(steps.end(), kCanonicalizeFromHloImportSteps.begin(), kCanonicalizeFromHloImportSteps.end());
  for (const char* s : {"xla-sdy-round-trip-import-shardy-attrs",
          "sdy-flatten-call-graph{manual-computation-bodies-only=true}",
          "symbol-dce",
          "xla-sdy-round-trip-shard-map-import",
          "sdy-unflatten-call-graph",
          "symbol-dce",
          "xla-sdy-import-sdy-custom-calls",
          "xla-sdy-open-while-free-vars-sharding",
          "if:enable-hlo-sharding-v3|lift-and-dedup-meshes:sdy-lift-inlined-meshes",
          "if:enable-hlo-sharding-v3|lift-and-dedup-meshes:xla-sdy-round-trip-dedup-meshes"})
    steps.push_back(s);
  return steps;
}

const std::vector<PassDef>& registry() {
  static const std::vector<PassDef> defs = [] {
    std::vector<PassDef> d;
    d.push_back({{"xla-sdy-stablehlo-export-pipeline",
                  "sdy -> mhlo: Shardy ops lowered, shardings exported, meshes removed",
                  true,
                  {kV3, kKeepConstraints, kAddMissing, kSimplify, kClearReverse, kAllReduceScatter, kEraseManual,
                   kDedupFully}},
                 nullptr,
                 {"xla-sdy-stablehlo-export-manual-reduction-collectives", "xla-sdy-export-ops",
                  "xla-sdy-stablehlo-round-trip-shard-map-export", "symbol-dce",
                  "xla-sdy-stablehlo-export-shardings", "xla-sdy-stablehlo-round-trip-export-callback-custom-calls"}});
    // upstream sdy_round_trip/pipelines.cc; MLIR's canonicalize, its first
    // step, is not run (docs/module.md "Round-trip export"). Upstream runs
    // export-shardings with add-missing-sharding-to-control-flow=false.
    d.push_back({{"xla-sdy-round-trip-export-pipeline",
                  "sdy -> mhlo with the Shardy originals in mhlo.frontend_attributes (the round-trip form)",
                  true,
                  {kKeepMeshesInlined, kV3}},
                 nullptr,
                 {"sdy-lift-inlined-meshes", "xla-sdy-round-trip-dedup-meshes", "xla-sdy-round-trip-export-ops",
                  "xla-sdy-round-trip-shard-map-export", "xla-sdy-round-trip-export-shardy-attrs",
                  "xla-sdy-stablehlo-export-shardings{read-round-trip-attrs=false add-missing-sharding-to-control-flow=false}"}});
    // upstream stablehlo_round_trip/stablehlo_import.cc, addStablehloImportPipeline:
    // import-shardings, then the round-trip import with constants imported.
    {
      // Beyond the pin, the StableHLO shard_map import (older upstream ran it
      // right after import-shardings; it also raises the export's own form).
      std::vector<std::string> steps = {"xla-sdy-import-shardings", "xla-stablehlo-round-trip-shard-map-import"};
      for (std::string& s : roundTripImportSteps()) steps.push_back(std::move(s));
      d.push_back({{"xla-sdy-stablehlo-import-pipeline",
                    "mhlo.sharding -> sdy: shardings on an inferred mesh, constants, @Sharding and the "
                    "round-trip custom calls as sdy ops, manual computations rebuilt",
                    true,
                    {kUpstreamOrder, kConstantImport}},
                   nullptr,
                   steps});
    }
    d.push_back({{"xla-sdy-round-trip-import-pipeline",
                  "the round-trip form (xla.sdy.meshes, xla.sdy.sharding frontend attributes, round-trip "
                  "custom calls) -> sdy",
                  true,
                  {kConstantImport, kLiftAndDedup, kV3Import, kOpShardings}},
                 nullptr,
                 roundTripImportSteps()});
    {
      // The round-trip export's steps (keep-meshes-inlined=false), as above.
      std::vector<std::string> steps = {
          "sdy-lift-inlined-meshes", "xla-sdy-round-trip-dedup-meshes", "xla-sdy-round-trip-export-ops",
          "xla-sdy-round-trip-shard-map-export", "xla-sdy-round-trip-export-shardy-attrs",
          "xla-sdy-stablehlo-export-shardings{read-round-trip-attrs=false add-missing-sharding-to-control-flow=false}"};
      for (std::string& s : roundTripImportSteps()) steps.push_back(std::move(s));
      d.push_back({{"xla-sdy-round-trip-testing-pipeline",
                    "the round-trip export then the round-trip import, in one process (upstream converts to HLO "
                    "and back in between, which needs XLA; here the text goes straight on)",
                    true,
                    {kV3Import, kOpShardings}},
                   nullptr,
                   steps});
    }
    d.push_back({{"stablehlo-ext-canonicalize-from-hlo-import",
                  "its tuple flattening (@main's tuple arguments and results, and a custom call's tuple operands "
                  "and result, become flat values), its tuple and no-op reshape folds, and its loop-invariant "
                  "stablehlo.while operands (no longer carried by the loop)",
                  true,
                  {}},
                 nullptr,
                 kCanonicalizeFromHloImportSteps});
    d.push_back({{"stablehlo-ext-flatten-entry-function-tuples",
                  "shardbridge's name for a part of stablehlo-ext-canonicalize-from-hlo-import: @main's tuple "
                  "arguments and results become one per leaf",
                  false,
                  {}},
                 runFlattenEntryFunctionTuples,
                 {},
                 kNeedsTuple});
    d.push_back({{"stablehlo-ext-flatten-custom-call-tuples",
                  "shardbridge's name for a part of stablehlo-ext-canonicalize-from-hlo-import: a custom call's "
                  "stablehlo.tuple operands and get_tuple_element'd tuple result become flat values",
                  false,
                  {}},
                 runCanonicalizeFromHloImport,
                 {},
                 kNeedsTuple});
    d.push_back({{"stablehlo-ext-fold-tuples-and-reshapes",
                  "shardbridge's name for a part of stablehlo-ext-canonicalize-from-hlo-import: a stablehlo.reshape "
                  "to its own type is its operand (its attributes merged into the operand's op), get_tuple_element "
                  "of a stablehlo.tuple is the tuple's operand, a tuple repacking every element of one tuple is "
                  "that tuple",
                  false,
                  {}},
                 runFoldTuplesAndReshapes,
                 {},
                 kNeedsFoldable});
    d.push_back({{"stablehlo-ext-while-op-implicit-capture",
                  "shardbridge's name for a part of stablehlo-ext-canonicalize-from-hlo-import: a stablehlo.while "
                  "operand its body returns unchanged is no longer carried by the loop; its uses read the operand",
                  false,
                  {}},
                 runWhileOpImplicitCapture,
                 {},
                 kNeedsWhile});
    d.push_back({{"sdy-flatten-call-graph",
                  "a function called from a second call site is cloned (with what it calls), so that each call "
                  "has its own callee",
                  false,
                  {kBodiesOnly}},
                 runFlattenCallGraph,
                 {},
                 kNeedsCall});
    d.back().groupableUnedited = true;
    d.push_back({{"sdy-unflatten-call-graph",
                  "functions of the same sdy.original_func_name, manual axes and shardings merge back into the "
                  "first one called",
                  false,
                  {}},
                 runUnflattenCallGraph,
                 {},
                 kNeedsOriginal});
    d.push_back({{"xla-sdy-import-constants", "stablehlo.constant -> sdy.constant inside functions", false, {}},
                 runImportConstants,
                 {}});
    d.back().groupable = true;
    d.back().defers = importConstantsDefers;
    d.back().runOver = runImportConstantsOver;
    d.back().runsOver = {"xla-stablehlo-round-trip-shard-map-import"};
    d.push_back({{"xla-sdy-import-sdy-custom-calls",
                  "@Sharding -> sdy.sharding_constraint (unspecified dims open), @xla.sdy.ShardingGroup -> "
                  "sdy.sharding_group, @xla.sdy.PropagationBarrier -> sdy.propagation_barrier",
                  false,
                  {}},
                 runImportSdyCustomCalls,
                 {},
                 kNeedsSdyCustomCalls});
    d.push_back({{"xla-sdy-open-while-free-vars-sharding",
                  "a fully open sdy.sharding_constraint for each sharded free variable of a stablehlo.while",
                  false,
                  {}},
                 runOpenWhileFreeVars,
                 {},
                 kNeedsWhile});
    d.push_back({{"xla-sdy-round-trip-import-shardy-attrs",
                  "xla.sdy.meshes, xla.sdy.sharding, xla.sdy.sharding_rule and @xla.sdy.FuncResultSharding -> "
                  "sdy meshes, shardings and sharding rules; mhlo.sharding removed",
                  false,
                  {kV3Import, kOpShardings}},
                 runRoundTripImportShardyAttrs,
                 {},
                 kNeedsShardyAttrs});
    d.back().runOver = runRoundTripImportShardyAttrsOver;
    d.back().runsOver = {"xla-sdy-import-constants"};
    d.push_back({{"xla-sdy-round-trip-shard-map-import",
                  "@xla.sdy.GlobalToLocalShape, a call of @xla.sdy.manual_computation_body, "
                  "@xla.sdy.LocalToGlobalShape -> sdy.manual_computation",
                  false,
                  {}},
                 runRoundTripShardMapImport,
                 {},
                 {},
                 roundTripShardMapImportNeeded,
                 kRoundTripShardMapImportWords});
    d.back().groupable = true;
    d.push_back({{"xla-stablehlo-round-trip-shard-map-import",
                  "@Sharding / mhlo.copy -> @SPMDFullToShardShape -> call @...shmap_body... or "
                  "@xla.sdy.inlinable_manual_computation_body -> @Sharding / mhlo.copy -> @SPMDShardToFullShape "
                  "-> sdy.manual_computation",
                  false,
                  {}},
                 runStablehloShardMapImport,
                 {}});
    d.back().groupable = true;
    // Its edits may wait for import-constants, which checks what it reads.
    d.back().defers = [](const OpTree&) { return true; };
    d.push_back({{"sdy-lift-inlined-meshes",
                  "inlined meshes become sdy.mesh symbols (named mesh, maximal_mesh_<id>, empty_mesh); "
                  "identical mesh symbols merge",
                  false,
                  {kKeepMeshesInlined}},
                 runLiftInlinedMeshes,
                 {}});
    d.push_back({{"xla-sdy-round-trip-dedup-meshes",
                  "meshes over the same devices merge into one, shardings translated onto its axes", false, {}},
                 runRoundTripDedupMeshes,
                 {}});
    d.push_back({{"xla-sdy-round-trip-export-ops",
                  "sdy.constant, sharding constraints, sharding groups and propagation barriers as the "
                  "round-trip custom calls",
                  false,
                  {}},
                 runRoundTripExportOps,
                 {}});
    d.push_back({{"xla-sdy-round-trip-shard-map-export",
                  "sdy.manual_computation -> @xla.sdy.GlobalToLocalShape, a call of its outlined body, "
                  "@xla.sdy.LocalToGlobalShape",
                  false,
                  {kV3}},
                 runRoundTripShardMapExport,
                 {},
                 kNeedsManual});
    d.push_back({{"xla-sdy-round-trip-export-shardy-attrs",
                  "sdy shardings, sharding rules and meshes saved as strings in mhlo.frontend_attributes",
                  false,
                  {kV3}},
                 runRoundTripExportShardyAttrs,
                 {}});
    d.push_back({{"xla-sdy-stablehlo-export-manual-reduction-collectives",
                  "sdy.all_reduce / sdy.reduce_scatter of unreduced values as manual all-reduce / reduce-scatter "
                  "collectives in a fully manual computation",
                  false,
                  {kAllReduceScatter}},
                 runExportManualReductionCollectives,
                 {},
                 kNeedsReduction});
    d.back().partable = true;
    d.push_back({{"xla-sdy-export-ops", "sdy.constant, sharding constraints, reshards and collectives as "
                                        "StableHLO/MHLO ops", false, {kKeepConstraints}},
                 runExportOps,
                 {}});
    d.back().defers = exportOpsKeepsNames;
    d.back().partable = true;
    d.push_back({{"xla-sdy-stablehlo-round-trip-shard-map-export",
                  "sdy.manual_computation -> copies, @SPMDFullToShardShape / @SPMDShardToFullShape "
                  "custom calls and a call of its outlined body", false, {kCreateConstraints}},
                 runShardMapExport,
                 {},
                 kNeedsManual});
    d.back().runOver = runShardMapExportOver;
    d.back().runsOver = {"xla-sdy-export-ops"};
    d.back().partable = true;
    d.push_back({{"xla-sdy-stablehlo-round-trip-export-callback-custom-calls",
                  "used single-result Python callback custom calls return a tuple, read by get_tuple_element",
                  false, {}},
                 runExportCallbackCustomCalls,
                 {},
                 kNeedsCallback});
    d.back().partable = true;
    d.push_back({{"symbol-dce", "private functions nothing refers to are removed", false, {}},
                 runSymbolDce,
                 {},
                 kNeedsPrivate});
    d.back().groupable = true;
    d.back().partable = true;
    d.push_back({{"xla-sdy-import-shardings", "mhlo.sharding -> sdy.sharding on an inferred mesh", false,
                  {kUpstreamOrder}},
                 runImportShardings,
                 {}});
    d.back().groupable = true;
    d.push_back({{"xla-sdy-stablehlo-export-shardings",
                  "sdy.sharding -> mhlo.sharding strings; sdy.mesh ops removed", false,
                  {kV3, kAddMissingOff, kSimplify, kClearReverse, kReadRoundTrip}},
                 runExportShardings,
                 {}});
    d.back().partable = true;
    return d;
  }();
  return defs;
}

bool isFlagValue(std::string_view v) { return v == "true" || v == "false" || v == "1" || v == "0"; }

}  // namespace

const PassDef* findPass(std::string_view name) {
  for (const PassDef& d : registry())
    if (d.info.name == name) return &d;
  return nullptr;
}

std::string knownPassNames() {
  std::string s;
  for (const PassDef& d : registry()) s += (s.empty() ? "" : ", ") + d.info.name;
  return s;
}

const std::vector<std::pair<const char*, const char*>>& passOptionAliases() {
  static const std::vector<std::pair<const char*, const char*>> aliases = {
      {"keep-hlo-sharding-constraints", "create-hlo-sharding-constraints"}};
  return aliases;
}

const std::vector<PassInfo>& knownPasses() {
  static const std::vector<PassInfo> infos = [] {
    std::vector<PassInfo> v;
    for (const PassDef& d : registry()) v.push_back(d.info);
    return v;
  }();
  return infos;
}

std::string importPipelineFor(std::string_view text) {
  for (std::string_view marker : {"xla.sdy.meshes", "@xla.sdy.GlobalToLocalShape",
                                  "@xla.sdy.LocalToGlobalShape", "@xla.sdy.FuncResultSharding"})
    if (module_lex::contains(text, marker)) return "xla-sdy-round-trip-import-pipeline";
  return "xla-sdy-stablehlo-import-pipeline";
}

std::string importPassSpecFor(std::string_view text) {
  std::string name = importPipelineFor(text);
  if (name != "xla-sdy-round-trip-import-pipeline") return name;
  bool v3 = !module_lex::contains(text, "xla.sdy.meshes") && module_lex::contains(text, "\"{mesh[");
  return name + (v3 ? "{import-op-shardings=true enable-hlo-sharding-v3=true}" : "{import-op-shardings=true}");
}

Result<PassSpec> conversionSpec(bool toHlo, bool roundTrip, std::string_view text,
                                const std::vector<std::pair<std::string, std::string>>& options) {
  std::string base = !toHlo     ? importPassSpecFor(text)
                     : roundTrip ? "xla-sdy-round-trip-export-pipeline"
                                 : "xla-sdy-stablehlo-export-pipeline";
  if (options.empty()) return parsePassSpec(base);
  // The caller's options after the chosen ones, checked by parsePassSpec
  // against the pipeline's own (a later value wins).
  std::string spec = base;
  bool open = !spec.empty() && spec.back() == '}';
  if (open) spec.pop_back();
  else spec += "{";
  for (size_t i = 0; i < options.size(); ++i)
    spec += (open || i ? " " : "") + options[i].first + "=" + options[i].second;
  auto parsed = parsePassSpec(spec + "}");
  if (!parsed) {
    Error e = parsed.error();
    e.offset = Error::kNoOffset;  // about the options, not the module's text
    return e;
  }
  return parsed;
}

Result<PassSpec> parsePassSpec(std::string_view text) {
  using namespace module_lex;
  PassSpec spec;
  size_t p = 0;
  while (p < text.size() && isBlank(text[p])) ++p;
  size_t b = p;
  while (p < text.size() && (isIdentChar(text[p]))) ++p;
  spec.name = std::string(text.substr(b, p - b));
  if (spec.name.empty()) return parseError("expected a pass name, got " + describe(text, p), p);
  const PassDef* def = findPass(spec.name);
  if (!def)
    return makeError(ErrorCode::kNotFound, "unknown pass '" + spec.name + "'; known: " + knownPassNames(), b);
  while (p < text.size() && isBlank(text[p])) ++p;
  if (p < text.size() && text[p] == '{') {
    ++p;
    while (true) {
      while (p < text.size() && isBlank(text[p])) ++p;
      if (p < text.size() && text[p] == '}') {
        ++p;
        break;
      }
      size_t kb = p;
      while (p < text.size() && isIdentChar(text[p])) ++p;
      std::string key(text.substr(kb, p - kb));
      if (key.empty()) return parseError("expected an option name or '}', got " + describe(text, p), p);
      std::string value = "true";
      if (p < text.size() && text[p] == '=') {
        size_t vb = ++p;
        while (p < text.size() && !isBlank(text[p]) && text[p] != '}') ++p;
        value = std::string(text.substr(vb, p - vb));
      }
      auto known = std::find_if(def->info.options.begin(), def->info.options.end(),
                                [&](const PassOptionInfo& o) { return o.name == key; });
      if (known == def->info.options.end()) {
        std::string names;
        for (const PassOptionInfo& o : def->info.options) names += (names.empty() ? "" : ", ") + o.name;
        return makeError(ErrorCode::kNotFound,
                         "pass '" + spec.name + "' has no option '" + key + "'; options: " +
                             (names.empty() ? "none" : names),
                         kb);
      }
      if (!isFlagValue(value))
        return makeError(ErrorCode::kInvalid,
                         "option '" + key + "' takes true or false, got '" + value + "'", kb);
      spec.options.push_back({key, value});
    }
  }
  while (p < text.size() && isBlank(text[p])) ++p;
  if (p != text.size()) return parseError("unexpected " + describe(text, p) + " after the pass", p);
  return spec;
}


}  // namespace shardbridge::module
