// sdy-unflatten-call-graph (upstream openxla/shardy
// shardy/dialect/sdy/transforms/export/unflatten_call_graph.cc, default
// options), which the pinned round-trip import runs after the shard-map import
// (xla/service/spmd/shardy/sdy_round_trip/pipelines.cc) to merge back what
// sdy-flatten-call-graph cloned: functions with the same origin
// (`sdy.original_func_name`, else their own name), the same
// `sdy.func_manual_axes` and the same argument and result shardings are one.
// Every call names the callee of the first call (in text order) to a
// function of its kind; then every function loses `sdy.original_func_name`
// and `sdy.func_manual_axes`. The functions no call names any more are left to
// the symbol-dce after it.
//   %0 = call @f(%a)     (@f and @f_0 {sdy.original_func_name = "f"} alike)
//   %1 = call @f_0(%0)
// becomes
//   %0 = call @f(%a)
//   %1 = call @f(%0)
// `dedup-functions-fully` (merging functions of the same origin whatever their
// shardings) is not offered. See docs/module.md "Import".
#include <map>
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// What makes two functions one: origin, manual axes, argument and result
// shardings (as written; the import writes them canonically).
std::string keyOf(std::string_view t, const OpNode& fn) {
  std::string key;
  if (const AttrEntry* e = fn.dict.find(kOriginalFuncName)) {
    std::string_view v = e->value.in(t);
    key += v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : v;
  } else {
    key += fn.symbolName;
  }
  key += '\x1f';
  if (const AttrEntry* e = fn.dict.find(kFuncManualAxes)) key += e->value.in(t);
  for (const ValueDef& a : fn.funcArgs()) {
    key += '\x1f';
    if (const AttrEntry* e = a.dict.find("sdy.sharding")) key += e->value.in(t);
  }
  key += '\x1e';
  for (const FuncResult& r : fn.funcResults()) {
    key += '\x1f';
    if (const AttrEntry* e = r.dict.find("sdy.sharding")) key += e->value.in(t);
  }
  return key;
}

Status unflatten(PassContext& ctx, int module) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  const TreeVec<int>* top = tree.bodyOps(module);
  if (!top) return okStatus();
  std::map<std::string_view, std::string> keyByName;
  std::vector<int> funcs;
  for (int i : *top)
    if (tree.ops[i].name == "func.func") {
      keyByName[tree.ops[i].symbolName] = keyOf(t, tree.ops[i]);
      funcs.push_back(i);
    }
  if (funcs.empty()) return okStatus();
  // The callee of the first call of each kind, then every call redirected.
  std::map<std::string, std::string_view> chosen;
  std::vector<int> calls;
  TextSpan scope = module < 0 ? TextSpan{0, t.size()} : tree.ops[module].whole;
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (!op.isCall() || op.whole.begin < scope.begin || op.whole.end > scope.end) continue;
    if (tree.enclosingModule(i) != module) continue;
    auto k = keyByName.find(op.symbolName);
    if (k == keyByName.end()) continue;
    chosen.emplace(k->second, op.symbolName);
    calls.push_back(i);
  }
  for (int i : calls) {
    const OpNode& op = tree.ops[i];
    std::string_view to = chosen[keyByName[op.symbolName]];
    if (to != op.symbolName) ctx.rw.replace(op.symbol, module_lex::symbolRef(to));
  }
  for (int f : funcs) {
    const OpNode& fn = tree.ops[f];
    if (!fn.dict.find(kOriginalFuncName) && !fn.dict.find(kFuncManualAxes)) continue;
    DictEditor ed(t, fn.dict);
    ed.remove(kOriginalFuncName);
    ed.remove(kFuncManualAxes);
    commitModuleDict(ctx.rw, t, fn, ed);
  }
  return okStatus();
}

}  // namespace

Status runUnflattenCallGraph(PassContext& ctx) {
  std::vector<int> modules = ctx.tree.modules();
  if (modules.empty()) modules.push_back(-1);
  for (int m : modules) SB_TRY(unflatten(ctx, m));
  return okStatus();
}

}  // namespace shardbridge::module
