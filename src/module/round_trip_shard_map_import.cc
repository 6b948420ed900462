// xla-sdy-round-trip-shard-map-import (upstream xla/service/spmd/shardy/
// sdy_round_trip/shard_map_import.cc): the round-trip form of a manual
// computation,
//   %l = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%x) {... xla.sdy.in_shardings = "...",
//          xla.sdy.manual_axes = "..."} : (G) -> L
//   %b = call @xla.sdy.manual_computation_body(%l) ... : (L) -> L'
//   %r = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%b) {... xla.sdy.out_shardings = "..."} : (L') -> R
// becomes `%r = sdy.manual_computation(%x) in_shardings=... out_shardings=...
// manual_axes=... (%arg: L) { body } : (G) -> R` (module/manual_inline.h).
// Spellings accepted: the pinned one above; the older one with the three
// strings on the call and no attributes on the custom calls; callees named
// with any prefix or suffix around `xla.sdy.manual_computation_body` (as
// upstream matches them: by `contains`, so `local_xla.sdy.manual_computation_body_3`
// too). A call without the custom calls (no operands / no results) has
// none of them. Stray GlobalToLocalShape / LocalToGlobalShape calls without
// uses go. Errors are upstream's, at the call. Then, as upstream, every
// function called inside a manual computation gets `sdy.func_manual_axes`
// (func_manual_axes.cc). See docs/module.md "Import".
#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "module/import_common.h"
#include "module/manual_inline.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/pass_prefilters.h"
#include "module/text_lex.h"
#include "module/value_index.h"

namespace shardbridge::module {
namespace {

constexpr std::string_view kG2L = "xla.sdy.GlobalToLocalShape";
constexpr std::string_view kL2G = "xla.sdy.LocalToGlobalShape";

bool isRoundTripBodyName(std::string_view n) { return n.find(kRoundTripBodyName) != std::string_view::npos; }


// Whether the function `name` of `module` calls another body.
bool callsBody(const OpTree& tree, const SymbolIndex& symbols, int module, std::string_view name) {
  int f = symbols.lookup(module, name);
  if (f < 0) return false;
  for (int i : opsInside(tree, f))
    if (tree.ops[i].isCall() && isRoundTripBodyName(tree.ops[i].symbolName)) return true;
  return false;
}

// The ops of `func` using value `name` (any index), in text order.
std::vector<int> usersOf(FuncValueIndex& values, int func, std::string_view name) {
  std::vector<int> out = values.users(func, name, -1);
  out.erase(std::unique(out.begin(), out.end()), out.end());  // an op once, however many uses
  return out;
}

Error opError(const OpNode& call, std::string message) {
  return makeError(ErrorCode::kInvalid, "'func.call' op " + message, call.whole.begin);
}

class RoundTripMatcher {
 public:
  explicit RoundTripMatcher(const OpTree& tree) : tree_(tree), t_(tree.text), symbols_(tree), values_(tree) {}

  Result<std::vector<ManualPlan>> run() {
    std::vector<ManualPlan> plans;
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& op = tree_.ops[i];
      if (!op.isCall() || !isRoundTripBodyName(op.symbolName)) continue;
      if (callsBody(tree_, symbols_, tree_.enclosingModule(i), op.symbolName)) continue;  // a later round
      SB_ASSIGN_OR_RETURN(std::optional<ManualPlan> p, plan(i));
      if (p) plans.push_back(std::move(*p));
    }
    // Stray custom calls whose call went (0-element values replaced by constants upstream).
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      std::string_view target = customCallTarget(t_, tree_.ops[i]);
      if ((target == kG2L || target == kL2G) && !claimed(i) && !hasUsers(i)) stray_.push_back(i);
    }
    if (!stray_.empty()) {
      ManualPlan strays;
      strays.eraseOnly = true;
      strays.erased = stray_;
      plans.push_back(std::move(strays));
    }
    return plans;
  }

 private:
  bool claimed(int i) const { return claimed_.count(i) != 0; }
  bool hasUsers(int i) const {
    const OpNode& op = tree_.ops[i];
    int f = tree_.enclosingFunc(i);
    if (f < 0) return false;
    for (const ResultDef& d : op.resultDefs)
      if (!usersOf(values_, f, d.name.in(t_)).empty()) return true;
    return false;
  }

  Result<std::optional<ManualPlan>> plan(int ci) {
    const OpNode& call = tree_.ops[ci];
    int func = tree_.enclosingFunc(ci);
    if (func < 0) return std::optional<ManualPlan>();
    ManualPlan p;
    p.call = ci;
    std::string callee = "@" + std::string(call.symbolName);
    SB_ASSIGN_OR_RETURN(Frontend callAttrs, frontendOf(t_, call.dict));
    // A call with results none of which is used goes (upstream: its results
    // had 0 elements and were replaced by constants).
    if (!call.resultDefs.empty() && usersOf(values_, func, call.resultDefs[0].name.in(t_)).empty()) {
      p.eraseOnly = true;
      return std::optional<ManualPlan>(std::move(p));
    }
    // Operands: those of the GlobalToLocalShape calls producing the call's.
    std::vector<int> g2l;
    for (const ValueUse& u : call.uses) {
      int def = values_.definingOp(func, u.name, u.index);
      if (def >= 0 && customCallTarget(t_, tree_.ops[def]) == kG2L &&
          std::find(g2l.begin(), g2l.end(), def) == g2l.end())
        g2l.push_back(def);
    }
    if (!call.uses.empty() && g2l.empty())
      return opError(call, "expected at least one operand of " + callee + " to be produced by a " + std::string(kG2L) +
                               " CustomCallOp");
    for (int g : g2l) {
      const OpNode& op = tree_.ops[g];
      OpTypes types = opTypes(tree_, op);
      if (!types.known || types.operands.size() != op.uses.size())
        return makeError(ErrorCode::kParse, "expected a signature '(G) -> L' on the " + std::string(kG2L) + " call",
                         op.whole.begin);
      for (size_t k = 0; k < op.uses.size(); ++k) {
        p.operands.push_back(std::string(op.uses[k].span.in(t_)));
        p.operandTypes.push_back(std::string(types.operands[k]));
      }
      p.erased.push_back(g);
      claimed_.insert(g);
    }
    // Results: those of the LocalToGlobalShape call reading the call's.
    int l2g = -1;
    if (!call.resultDefs.empty()) {
      std::vector<int> users = usersOf(values_, func, call.resultDefs[0].name.in(t_));
      if (customCallTarget(t_, tree_.ops[users[0]]) != kL2G)
        return opError(call, "expected the first use of " + callee + " to be a " + std::string(kL2G) + " CustomCallOp");
      l2g = users[0];
      const OpNode& op = tree_.ops[l2g];
      OpTypes types = opTypes(tree_, op);
      if (!types.known)
        return makeError(ErrorCode::kParse, "expected a signature '(L) -> G' on the " + std::string(kL2G) + " call",
                         op.whole.begin);
      p.resultTypes = typeStrings(types.results);
      int index = 0;
      if (op.resultDefs.size() == 1) p.replacedGroupSize = op.resultDefs[0].count;
      for (const ResultDef& d : op.resultDefs)
        for (int k = 0; k < d.count; ++k) p.replaces.push_back({std::string(d.name.in(t_)), k}), ++index;
      if (static_cast<size_t>(index) != p.resultTypes.size() && p.resultTypes.size() == 1 && index > 1)
        p.resultTypes.assign(static_cast<size_t>(index), p.resultTypes[0]);
      p.erased.push_back(l2g);
      claimed_.insert(l2g);
    }
    // Shardings and manual axes: on the custom calls (pinned form), else on the call.
    SB_TRY(read(g2l.empty() ? -1 : g2l[0], "xla.sdy.in_shardings", callAttrs, &p.inShardings, false));
    SB_TRY(read(l2g, "xla.sdy.out_shardings", callAttrs, &p.outShardings, false));
    std::string axes;
    SB_TRY(read(g2l.empty() ? -1 : g2l[0], "xla.sdy.manual_axes", callAttrs, &axes, true));
    if (axes.empty()) SB_TRY(read(l2g, "xla.sdy.manual_axes", callAttrs, &axes, true));
    if (!axes.empty()) p.manualAxes = axes;
    return std::optional<ManualPlan>(std::move(p));
  }

  // `key` from the frontend attributes of op `owner` (-1: none), else of the call.
  Status read(int owner, std::string_view key, const Frontend& callAttrs, std::string* out, bool axes) {
    const AttrEntry* e = nullptr;
    Frontend f;
    if (owner >= 0) {
      SB_ASSIGN_OR_RETURN(f, frontendOf(t_, tree_.ops[owner].dict));
      e = f.find(key);
    }
    if (!e) e = callAttrs.find(key);
    if (!e) return okStatus();
    // Memoised on the literal as written: a module's manual computations
    // repeat a few shardings and axes.
    std::string_view literal = e->value.in(t_);
    auto& memo = axes ? axesMemo_ : shardingsMemo_;
    if (auto hit = memo.find(literal); hit != memo.end()) {
      *out = hit->second;
      return okStatus();
    }
    SB_ASSIGN_OR_RETURN(std::string text, roundTripString(t_, e->value));
    Result<std::string> r = axes ? manualAxesList(text) : perValueList(sctx_, text);
    if (!r) {
      Error err = r.error();
      err.dropOffsets();
      err.offset = e->value.begin;
      return err;
    }
    memo.emplace(literal, *r);
    *out = std::move(*r);
    return okStatus();
  }

  const OpTree& tree_;
  std::string_view t_;
  SymbolIndex symbols_;
  // Asked from const members; it only fills itself in.
  mutable FuncValueIndex values_;
  sdy::Context sctx_;
  std::set<int> claimed_;
  std::vector<int> stray_;
  // read()'s answers by the literal (views into the tree's text).
  std::unordered_map<std::string_view, std::string> shardingsMemo_, axesMemo_;
};

}  // namespace

Status runRoundTripShardMapImport(PassContext& ctx) {
  SB_TRY(inlineManualComputations(
      ctx, [](const OpTree& tree) { return RoundTripMatcher(tree).run(); }, isRoundTripBodyName));
  // Upstream's last step: the functions called inside manual computations
  // get sdy.func_manual_axes (for sdy-unflatten-call-graph).
  return setFuncManualAxes(ctx);
}

namespace prefilters {
bool roundTripShardMapImportNeeded(std::string_view text, WordPresence& words) {
  return words.contains(text, "xla.sdy.") || mayNeedFuncManualAxes(text, words);
}
}  // namespace prefilters

}  // namespace shardbridge::module
