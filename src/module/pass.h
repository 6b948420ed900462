// The pass interface behind pipeline.h: each pass reads one op tree of the
// current text and records its rewrites; the driver splices them and parses
// again for the next pass.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "module/rewriter.h"
#include "shardbridge/base/result.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/op_tree.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {

struct ImportSeed;

struct PassContext {
  const OpTree& tree;
  Rewriter& rw;
  const std::map<std::string, std::string, std::less<>>& options;  // every option of the pass, defaults filled
  std::vector<ModuleWarning>& warnings;
  // The whole module's shardings when this text is a part of it
  // (import_seed.h); read by xla-sdy-import-shardings.
  const ImportSeed* importSeed = nullptr;

  std::string_view text() const { return tree.text; }
  bool flag(std::string_view name) const {
    auto it = options.find(name);
    return it != options.end() && (it->second == "true" || it->second == "1");
  }
  void warn(size_t offset, std::string message) { warnings.push_back({offset, std::move(message)}); }
};

using PassFn = Status (*)(PassContext&);

// The passes, one file each (named after the upstream pass).
Status runExportManualReductionCollectives(PassContext&);  // xla-sdy-stablehlo-export-manual-reduction-collectives
Status runExportOps(PassContext&);            // xla-sdy-export-ops (export_ops.cc)
// Whether export-ops keeps every value name and symbol of `tree` (it forwards
// none: no sdy.all_reduce or sdy.propagation_barrier), so that its edits can
// be left for runShardMapExportOver.
bool exportOpsKeepsNames(const OpTree& tree);
Status runExportShardings(PassContext&);      // xla-sdy-stablehlo-export-shardings (export_shardings.cc)
Status runShardMapExport(PassContext&);       // xla-sdy-stablehlo-round-trip-shard-map-export (shard_map_export.cc)
// The shard-map export over `pending`: edits an earlier pass recorded on
// this same text (ctx.text()) and did not apply. When the two compose
// (edit_compose.h: no pending edit overlaps one of this pass's, and those inside
// a manual computation replace text of its body before its terminator), ctx.rw gets
// both, whose one rewrite is what applying `pending` and then running the
// pass on the result would write, and it returns true. Otherwise it returns
// false (or an error) with ctx.rw to be discarded, and the caller takes the
// two steps.
Result<bool> runShardMapExportOver(PassContext&, const Rewriter& pending);
Status runImportShardings(PassContext&);      // xla-sdy-import-shardings (import_shardings.cc)
Status runSymbolDce(PassContext&);            // symbol-dce (symbol_dce.cc)
Status runExportCallbackCustomCalls(PassContext&);  // xla-sdy-stablehlo-round-trip-export-callback-custom-calls
// The round-trip export (upstream sdy_round_trip/), one file each.
Status runLiftInlinedMeshes(PassContext&);           // sdy-lift-inlined-meshes (lift_inlined_meshes.cc)
Status runRoundTripDedupMeshes(PassContext&);        // xla-sdy-round-trip-dedup-meshes (round_trip_dedup_meshes.cc)
Status runRoundTripExportOps(PassContext&);          // xla-sdy-round-trip-export-ops (round_trip_export_ops.cc)
Status runRoundTripShardMapExport(PassContext&);     // xla-sdy-round-trip-shard-map-export
Status runRoundTripExportShardyAttrs(PassContext&);  // xla-sdy-round-trip-export-shardy-attrs

// The import side (upstream round_trip_common/, sdy_round_trip/ import passes), one file each.
Status runImportConstants(PassContext&);              // xla-sdy-import-constants (import_constants.cc)
// Its edits rename constants only (no value name or symbol changes), so they
// may always be left for a pass that runs over them.
bool importConstantsDefers(const OpTree&);
// import-constants over `pending` (as runShardMapExportOver, no op moved):
// the StableHLO shard-map import's edits, unless they write a constant.
Result<bool> runImportConstantsOver(PassContext&, const Rewriter& pending);
Status runImportSdyCustomCalls(PassContext&);         // xla-sdy-import-sdy-custom-calls (import_sdy_custom_calls.cc)
Status runOpenWhileFreeVars(PassContext&);            // xla-sdy-open-while-free-vars-sharding (open_while_free_vars.cc)
Status runRoundTripImportShardyAttrs(PassContext&);   // xla-sdy-round-trip-import-shardy-attrs
// The same over `pending` (as runShardMapExportOver; import-constants'
// renames, which this pass does not read), with no op moved.
Result<bool> runRoundTripImportShardyAttrsOver(PassContext&, const Rewriter& pending);
Status runRoundTripShardMapImport(PassContext&);      // xla-sdy-round-trip-shard-map-import
Status runStablehloShardMapImport(PassContext&);      // xla-stablehlo-round-trip-shard-map-import
// stablehlo-ext-canonicalize-from-hlo-import is a pipeline of its parts:
Status runFlattenEntryFunctionTuples(PassContext&);   // stablehlo-ext-flatten-entry-function-tuples
Status runCanonicalizeFromHloImport(PassContext&);    // stablehlo-ext-flatten-custom-call-tuples
Status runWhileOpImplicitCapture(PassContext&);      // stablehlo-ext-while-op-implicit-capture
Status runFoldTuplesAndReshapes(PassContext&);       // stablehlo-ext-fold-tuples-and-reshapes (hlo_import_folds.cc)
Status runFlattenCallGraph(PassContext&);             // sdy-flatten-call-graph (flatten_call_graph.cc)
Status runUnflattenCallGraph(PassContext&);           // sdy-unflatten-call-graph (unflatten_call_graph.cc)

// The name (a part of the name, once numbered or prefixed) of the outlined
// body of a manual computation in the round-trip form (upstream
// sdy_round_trip/shard_map_export.cc).
inline constexpr std::string_view kRoundTripBodyName = "xla.sdy.manual_computation_body";

// The attribute sdy-flatten-call-graph records a clone's source function in.
inline constexpr std::string_view kOriginalFuncName = "sdy.original_func_name";
// The attribute the round-trip shard-map import gives each function called
// inside a manual computation (its manual axes; Shardy's kFuncManualAxes),
// which sdy-unflatten-call-graph keys on.
inline constexpr std::string_view kFuncManualAxes = "sdy.func_manual_axes";

// The indentation of the ops of module `module` (-1: the implicit top-level
// module): that of its first op, else two blanks (none at top level).
std::string_view moduleIndent(const OpTree& tree, int module);

// Where ops appended to module `module` (-1: the implicit top-level module)
// go: the start of the line of its closing `}` (the text's end at top
// level), and whether a line break must come first because that point
// follows other text on its line (a last line without a newline, possibly
// a `// comment`, or an op before the `}`), which would otherwise swallow
// what is appended.
struct AppendPoint {
  size_t at = 0;
  bool newlineFirst = false;
};
AppendPoint moduleAppendPoint(const OpTree& tree, int module);

// The file's top-level type aliases (`!t = tensor<8xf32>`) as name -> definition,
// for ExportModuleOptions / ImportModuleOptions::typeAliases.
std::vector<std::pair<std::string, std::string>> typeAliasesOf(const OpTree& tree);

// The ops of `tree` inside function `func` (any depth), in text order.
std::vector<int> opsInside(const OpTree& tree, int func);

// The value uses of a tree's functions, indexed on first use (one sort of
// every use), for passes that redirect the uses of many values.
class UseIndex {
 public:
  struct Entry {
    int func;
    std::string_view name;  // `%0`
    int index;              // the `#i`
    const ValueUse* use;
  };
  explicit UseIndex(const OpTree& tree);
  // The uses of `name#index` by the ops of function `func` (any depth), in
  // text order; empty for func < 0.
  std::span<const Entry> uses(int func, std::string_view name, int index) const;
  // Replaces each of those uses by `to` (as replaceUses does over the ops of `func`).
  void replace(Rewriter& rw, int func, std::string_view name, int index, std::string_view to) const;

 private:
  void build() const;
  const OpTree& tree_;
  mutable bool built_ = false;
  mutable std::vector<Entry> entries_;
};

// Replaces every use of value `from` (`%0`, or `%0#1`) by `to` among `ops`.
void replaceUses(const OpTree& tree, Rewriter& rw, std::span<const int> ops, std::string_view fromName,
                 int fromIndex, std::string_view to);

}  // namespace shardbridge::module
