// xla-sdy-import-shardings (upstream xla/service/spmd/shardy/
// stablehlo_round_trip/stablehlo_import.cc, ImportShardingsPass): every
// `mhlo.sharding` string becomes an `sdy.sharding` on a mesh inferred from
// all of a module's shardings. Each top-level module of the file is imported
// on its own (importModule, module/convert_module.h, converts one module).
// What the sdy form cannot say is warned at the string (beyond upstream):
// `{manual}` (or a MANUAL subgroup) outside a shard_map pattern the
// pipeline raises, `{unknown}`, and shard_as / shard_like groups.
// See docs/module.md "Import".
#include <map>
#include <set>
#include <string>
#include <vector>

#include "module/tree_scan.h"
#include "module/import_common.h"
#include "module/pass.h"
#include "module/text_lex.h"
#include "module/scanner.h"
#include "module/value_index.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::module {
namespace {

bool isManualBodyName(std::string_view n) {
  return n.find("shmap_body") != std::string_view::npos ||
         n.find("manual_computation_body") != std::string_view::npos;
}

// The functions of `tree` a body calls, transitively (their ops run inside
// the manual computation too).
std::set<std::string_view> calledFromBodies(const OpTree& tree) {
  std::map<std::string_view, std::vector<std::string_view>> callees;
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (op.name != "call" && op.name != "func.call") continue;
    int f = tree.enclosingFunc(i);
    if (f >= 0) callees[tree.ops[f].symbolName].push_back(op.symbolName);
  }
  std::set<std::string_view> inside;
  std::vector<std::string_view> work;
  for (const OpNode& op : tree.ops)
    if (op.name == "func.func" && isManualBodyName(op.symbolName) && inside.insert(op.symbolName).second)
      work.push_back(op.symbolName);
  while (!work.empty()) {
    std::string_view name = work.back();
    work.pop_back();
    auto it = callees.find(name);
    if (it == callees.end()) continue;
    for (std::string_view c : it->second)
      if (inside.insert(c).second) work.push_back(c);
  }
  return inside;
}

// Whether op `i` is part of a shard_map pattern the import raises to an
// sdy.manual_computation (stablehlo_shard_map_import.cc), so that its
// `{manual}` sharding goes with the pattern.
bool inShardMapPattern(const OpTree& tree, FuncValueIndex& values, int i, const std::set<std::string_view>& inside) {
  std::string_view t = tree.text;
  int func = tree.enclosingFunc(i);
  if (func >= 0 && inside.count(tree.ops[func].symbolName)) return true;
  const OpNode& op = tree.ops[i];
  std::string_view target = customCallTarget(t, op);
  if (target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape") return true;
  if ((op.name == "call" || op.name == "func.call") && isManualBodyName(op.symbolName)) return true;
  if ((target == "Sharding" || op.name == "mhlo.copy") && func >= 0) {
    if (op.uses.size() == 1) {
      int def = values.definingOp(func, op.uses[0].name, op.uses[0].index);
      if (def >= 0 && (tree.ops[def].name == "call" || tree.ops[def].name == "func.call") &&
          isManualBodyName(tree.ops[def].symbolName))
        return true;
    }
    if (!op.resultDefs.empty())
      for (int u : values.users(func, op.resultDefs[0].name.in(t), -1))
        if (customCallTarget(t, tree.ops[u]) == "SPMDFullToShardShape") return true;
  }
  return false;
}

// `allowManual()` says whether a `{manual}` is kept here (it is asked only of
// a sharding that names one: inShardMapPattern walks the function). Only an
// `{unknown}`, a shard group, or a manual sharding that is not kept is
// warned about, so a sharding that can hold none of them is not parsed.
template <typename AllowManual>
void warnLosses(PassContext& ctx, const AttrEntry& e, AllowManual&& allowManualFn) {
  std::string_view v = e.value.in(ctx.text());
  bool lossless = v.find("unknown") == std::string_view::npos && v.find("shard_") == std::string_view::npos;
  bool mentionsManual = v.find("manual") != std::string_view::npos;
  if (lossless && !mentionsManual) return;
  bool allowManual = mentionsManual && allowManualFn();
  if (lossless && allowManual) return;
  auto decoded = module_detail::decodeStringLiteral(v);
  if (!decoded) return;
  auto s = readMhloSharding(*decoded);
  if (!s) return;
  for (const hlo::HloSharding* leaf : hlo::leavesOf(*s)) {
    if (leaf->isUnknown())
      ctx.warn(e.value.begin, "{unknown} is imported as an open replicated sharding: sdy has no unknown sharding");
    if (!allowManual && leaf->isManual())
      ctx.warn(e.value.begin,
               "{manual} outside any manual computation is imported as replicated: sdy makes values manual with an "
               "enclosing sdy.manual_computation");
    if (!allowManual && leaf->isManualSubgroup())
      ctx.warn(e.value.begin,
               "the MANUAL subgroup outside any manual computation is dropped: sdy gives manual axes to an "
               "enclosing sdy.manual_computation");
    if (leaf->isShardGroup())
      ctx.warn(e.value.begin, std::string(leaf->shardGroup().shardAs ? "shard_as " : "shard_like ") +
                                  std::to_string(leaf->shardGroup().id) +
                                  " is dropped: an sdy sharding has no shard groups");
  }
}

}  // namespace

Status runImportShardings(PassContext& ctx) {
  ImportModuleOptions options;
  options.anyOrder.enabled = !ctx.flag("upstream-device-order");
  // The pinned upstream pass names maximal meshes `maximal_mesh_<id>`; an
  // existing mesh of the same name is worked around (docs/module.md "Import").
  options.maximalMeshNames = true;
  options.renameOnClash = true;
  options.typeAliases = typeAliasesOf(ctx.tree);
  const OpTree& tree = ctx.tree;
  std::set<std::string_view> inside;
  if (module_lex::contains(ctx.text(), "manual")) inside = calledFromBodies(tree);
  FuncValueIndex values(tree);
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (const AttrEntry* e = op.dict.find("mhlo.sharding"))
      warnLosses(ctx, *e, [&] { return inShardMapPattern(tree, values, i, inside); });
    bool body = op.name == "func.func" && inside.count(op.symbolName);
    auto inBody = [body] { return body; };
    for (const ValueDef& a : op.funcArgs())
      if (const AttrEntry* e = a.dict.find("mhlo.sharding")) warnLosses(ctx, *e, inBody);
    for (const FuncResult& r : op.funcResults())
      if (const AttrEntry* e = r.dict.find("mhlo.sharding")) warnLosses(ctx, *e, inBody);
  }
  std::vector<int> modules = tree.modules();
  std::vector<TextSpan> spans;
  if (modules.empty()) spans.push_back({0, ctx.text().size()});
  for (int m : modules) spans.push_back(tree.ops[m].whole);
  for (TextSpan span : spans) {
    Result<ConvertedModule> out = importModuleOnTree(ctx.tree, span, options, ctx.importSeed);
    if (!out) {
      Error e = out.error();
      e = e.shifted(span.begin);
      return e;
    }
    for (ModuleWarning& w : out->warnings) ctx.warn(w.offset + span.begin, std::move(w.message));
    if (out->text != span.in(ctx.text())) ctx.rw.replace(span, std::move(out->text));
  }
  return okStatus();
}

}  // namespace shardbridge::module
