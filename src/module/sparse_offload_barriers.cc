// Part of xla-sdy-round-trip-import-shardy-attrs (upstream xla/service/spmd/
// shardy/sdy_round_trip/import_shardy_attrs.cc, insertPropagationBarriers):
// the callee of a call marked `_xla_compute_type = "sparseoffload"` (as an
// attribute or a frontend attribute) gets, for each argument whose first
// user among @Sharding calls has a sharding without unreduced axes, a
//   %argN_barrier = sdy.propagation_barrier %argN allowed_direction=FORWARD : T
// at the top of its body, read by every other use of the argument. No
// barrier when some call site's operand would be sliced there (a dim
// unsharded at the caller, or a caller without a sharding, against a sharded
// dim of the callee): the callee's sharding may then propagate backwards.
// See docs/module.md "Import".
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/pass.h"
#include "module/text_lex.h"
#include "module/value_index.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {


bool sparseOffload(std::string_view t, const OpNode& call) {
  auto isOffload = [&](const AttrDictNode& d) {
    const AttrEntry* e = d.find("_xla_compute_type");
    return e && e->value.in(t) == "\"sparseoffload\"";
  };
  if (isOffload(call.dict)) return true;
  Result<Frontend> f = frontendOf(t, call.dict);
  return f && f->entry && isOffload(f->dict);
}

// The sharding an op or argument dictionary holds: `sdy.sharding` or the
// saved `xla.sdy.sharding` string (element `index` of a per-value one).
std::optional<sdy::TensorShardingAttr> shardingIn(sdy::Context& ctx, std::string_view t, const AttrDictNode& d,
                                                  bool perValue, int index) {
  std::string text;
  if (const AttrEntry* e = d.find("sdy.sharding")) {
    text = std::string(e->value.in(t));
  } else {
    Result<Frontend> f = frontendOf(t, d);
    const AttrEntry* s = f ? f->find("xla.sdy.sharding") : nullptr;
    if (!s) return std::nullopt;
    Result<std::string> decoded = roundTripString(t, s->value);
    if (!decoded) return std::nullopt;
    text = std::move(*decoded);
  }
  if (!perValue) {
    auto s = sdy::parseTensorSharding(ctx, text);
    return s ? std::optional<sdy::TensorShardingAttr>(*s) : std::nullopt;
  }
  auto s = sdy::parseTensorShardingPerValue(ctx, text);
  if (!s || index >= static_cast<int>(s->shardings().size())) return std::nullopt;
  return s->shardings()[static_cast<size_t>(index)];
}

// The sharding of value `name#index` in function `func`, before or after the import.
std::optional<sdy::TensorShardingAttr> shardingOf(sdy::Context& ctx, const OpTree& tree, FuncValueIndex& values,
                                                  int func, std::string_view name, int index) {
  std::string_view t = tree.text;
  for (const ValueDef& a : tree.ops[func].funcArgs())
    if (a.name.in(t) == name) return shardingIn(ctx, t, a.dict, false, 0);
  int resultIndex = 0;
  int def = values.definingOp(func, name, index, &resultIndex);
  if (def < 0) return std::nullopt;
  return shardingIn(ctx, t, tree.ops[def].dict, true, resultIndex);
}

bool isSlicing(const std::optional<sdy::TensorShardingAttr>& caller, sdy::TensorShardingAttr callee) {
  if (!caller) {
    for (sdy::DimensionShardingAttr d : callee.dimShardings())
      if (!d.emptyAxes()) return true;
    return false;
  }
  if (caller->rank() != callee.rank()) return false;
  for (size_t i = 0; i < callee.dimShardings().size(); ++i)
    if (caller->dimShardings()[i].emptyAxes() && !callee.dimShardings()[i].emptyAxes()) return true;
  return false;
}

}  // namespace

Status insertSparseOffloadBarriers(PassContext& ctx, int module) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  sdy::Context sctx;
  FreshNames names(tree);
  FuncValueIndex values(tree);
  std::set<int> done;
  for (int c = 0; c < static_cast<int>(tree.ops.size()); ++c) {
    const OpNode& call = tree.ops[c];
    if (!call.isCall() || tree.enclosingModule(c) != module || !sparseOffload(t, call)) continue;
    int callee = tree.lookupSymbol(module, call.symbolName);
    if (callee < 0 || tree.ops[callee].name != "func.func" || tree.ops[callee].regions.empty() || !done.insert(callee).second)
      continue;
    const OpNode& fn = tree.ops[callee];
    const TreeVec<int>& body = fn.regions[0].blocks.front().ops;
    if (body.empty()) continue;
    std::vector<int> inside = opsInside(tree, callee);
    size_t at = tree.ops[body.front()].whole.begin;
    std::string_view indent = module_lex::indentationAt(t, at);
    for (size_t argNum = 0; argNum < fn.funcArgs().size(); ++argNum) {
      std::string_view arg = fn.funcArgs()[argNum].name.in(t);
      int user = -1;
      for (int i : inside) {
        if (customCallTarget(t, tree.ops[i]) != "Sharding") continue;
        for (const ValueUse& u : tree.ops[i].uses)
          if (u.name == arg) user = i;
        if (user >= 0) break;
      }
      if (user < 0) continue;
      std::optional<sdy::TensorShardingAttr> calleeSharding = shardingIn(sctx, t, tree.ops[user].dict, true, 0);
      bool insert = true;
      if (calleeSharding) {
        for (int s = 0; s < static_cast<int>(tree.ops.size()) && insert; ++s) {
          const OpNode& site = tree.ops[s];
          if (!site.isCall() || site.symbolName != fn.symbolName || argNum >= site.uses.size()) continue;
          int caller = tree.enclosingFunc(s);
          if (caller < 0) continue;
          if (isSlicing(shardingOf(sctx, tree, values, caller, site.uses[argNum].name, site.uses[argNum].index), *calleeSharding))
            insert = false;
        }
        if (!calleeSharding->unreducedAxes().empty()) insert = false;
      }
      if (!insert) continue;
      std::string barrier = names.next(std::string(arg.substr(1)) + "_barrier", callee);
      ctx.rw.insert(at - indent.size(), std::string(indent) + barrier + " = sdy.propagation_barrier " +
                                            std::string(arg) + " allowed_direction=FORWARD : " +
                                            std::string(fn.funcArgs()[argNum].type.in(t)) + "\n");
      replaceUses(tree, ctx.rw, inside, arg, 0, barrier);
    }
  }
  return okStatus();
}

}  // namespace shardbridge::module
