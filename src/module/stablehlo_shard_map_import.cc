// xla-stablehlo-round-trip-shard-map-import (upstream xla/service/spmd/shardy/
// stablehlo_round_trip/shard_map_import.cc, in the TensorFlow copies of
// XLA; the pinned commit no longer has it): JAX's GSPMD form of shard_map,
//   %a = stablehlo.custom_call @Sharding(%x) {sdy.sharding = IN}
//   %b = stablehlo.custom_call @SPMDFullToShardShape(%a) {sdy.sharding = LOCAL}
//   %c = call @shmap_body(%b)
//   %d = stablehlo.custom_call @Sharding(%c) {sdy.sharding = LOCAL'}
//   %r = stablehlo.custom_call @SPMDShardToFullShape(%d) {sdy.sharding = OUT}
// (shardings already imported by xla-sdy-import-shardings) becomes
// `%r = sdy.manual_computation(%x) in_shardings=[IN] out_shardings=[OUT]
// manual_axes=... (...) { body }`. Callees are matched as upstream matches
// them (the name contains `shmap_body`); unused results of the call are
// dropped from the manual computation and its return.
//
// Beyond upstream (docs/module.md "Raising the export's own output"): the
// same pass raises what xla-sdy-stablehlo-export-pipeline writes for a
// manual computation — `mhlo.copy` in place of the @Sharding calls and a
// callee named `xla.sdy.inlinable_manual_computation_body[_N]` — so that an
// exported module comes back whole.
//
// Manual axes: the axes of the in and out shardings that the local
// (FullToShard / result-side) shardings do not use, in mesh order. For
// JAX's form, whose local shardings are `{manual}` (imported without axes),
// this is upstream's rule: every axis of the in/out shardings.
// Errors are upstream's, at the call.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "module/import_common.h"
#include "module/manual_inline.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/value_index.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

bool isJaxBody(std::string_view n) { return n.find("shmap_body") != std::string_view::npos; }
bool isExportBody(std::string_view n) {
  return n.find("xla.sdy.inlinable_manual_computation_body") != std::string_view::npos;
}
bool isShardMapBodyName(std::string_view n) { return isJaxBody(n) || isExportBody(n); }

class StablehloMatcher {
 public:
  explicit StablehloMatcher(const OpTree& tree) : tree_(tree), t_(tree.text), symbols_(tree), values_(tree) {}

  Result<std::vector<ManualPlan>> run() {
    std::vector<ManualPlan> plans;
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& op = tree_.ops[i];
      if (!op.isCall() || !isShardMapBodyName(op.symbolName) || tree_.enclosingFunc(i) < 0) continue;
      if (callsBody(tree_.enclosingModule(i), op.symbolName)) continue;  // a later round
      SB_ASSIGN_OR_RETURN(ManualPlan p, plan(i));
      plans.push_back(std::move(p));
    }
    return plans;
  }

 private:
  bool callsBody(int module, std::string_view name) const {
    int f = symbols_.lookup(module, name);
    if (f < 0) return false;
    for (int i : opsInside(tree_, f))
      if (tree_.ops[i].isCall() && isShardMapBodyName(tree_.ops[i].symbolName)) return true;
    return false;
  }

  std::vector<int> users(int func, std::string_view name, int index) const {
    return values_.users(func, name, index);
  }

  // One result, used, one operand, and the right kind: a custom call of
  // `target`, or (the export's form) an `mhlo.copy` where `target` is Sharding.
  bool isPatternOp(int func, int i, std::string_view target, bool exportForm) const {
    if (i < 0) return false;
    const OpNode& op = tree_.ops[i];
    bool kind = customCallTarget(t_, op) == target ||
                (exportForm && target == "Sharding" && op.name == "mhlo.copy");
    // The export's own ShardToFull may be unused (a manual computation whose
    // result nothing reads); upstream's JAX form always has a use.
    bool used = (exportForm && target == "SPMDShardToFullShape") || values_.used(func, op.resultDefs[0].name.in(t_), 0);
    return kind && resultCount(op) == 1 && op.uses.size() == 1 && used;
  }

  Error fail(const OpNode& call, std::string message) const {
    return makeError(ErrorCode::kInvalid, std::move(message), call.whole.begin);
  }

  // The axis names of sdy.mesh op `meshOp`, in order (none if it does not
  // parse), read once per mesh: every pattern on a mesh asks for them.
  const std::vector<std::string>& meshAxes(int meshOp) {
    auto [it, fresh] = meshAxes_.try_emplace(meshOp);
    if (fresh)
      if (auto sym = sdy::parseMeshSymbol(sctx_, meshOpText(t_, tree_.ops[meshOp])))
        for (const sdy::MeshAxisAttr& a : sym->mesh.axes()) it->second.push_back(std::string(a.name()));
    return it->second;
  }

  Result<sdy::TensorShardingAttr> shardingOf(int i) {
    const OpNode& op = tree_.ops[i];
    const AttrEntry* e = op.dict.find("sdy.sharding");
    if (!e)
      return makeError(ErrorCode::kInvalid, "expected an sdy.sharding on this op of a shard_map pattern",
                       op.whole.begin);
    // A module's patterns repeat a few shardings: each text is parsed once
    // (an error is not kept, so it is returned, located, each time).
    std::string_view text = e->value.in(t_);
    if (auto it = firstSharding_.find(text); it != firstSharding_.end()) return it->second;
    auto s = sdy::parseTensorShardingPerValue(sctx_, text);
    if (!s) return s.error().shifted(e->value.begin);
    if (s->shardings().empty())
      return makeError(ErrorCode::kInvalid, "expected one sharding", e->value.begin);
    firstSharding_.emplace(text, s->shardings()[0]);
    return s->shardings()[0];
  }

  Result<ManualPlan> plan(int ci) {
    const OpNode& call = tree_.ops[ci];
    int func = tree_.enclosingFunc(ci);
    bool exportForm = isExportBody(call.symbolName);
    ManualPlan p;
    p.call = ci;
    std::vector<sdy::TensorShardingAttr> in, out, local;
    for (const ValueUse& u : call.uses) {
      int f2s = values_.definingOp(func, u.name, u.index);
      if (f2s < 0 || customCallTarget(t_, tree_.ops[f2s]).empty())
        return fail(call, "expecting CustomCallOp as operand");
      if (!isPatternOp(func, f2s, "SPMDFullToShardShape", exportForm))
        return fail(call, "expecting SPMDFullToShardShape custom call as operand");
      const ValueUse& inner = tree_.ops[f2s].uses[0];
      int sharding = values_.definingOp(func, inner.name, inner.index);
      if (sharding < 0 || (customCallTarget(t_, tree_.ops[sharding]).empty() &&
                           !(exportForm && tree_.ops[sharding].name == "mhlo.copy")))
        return fail(call, "expecting CustomCallOp as operand of SPMDFullToShardShape");
      if (!isPatternOp(func, sharding, "Sharding", exportForm))
        return fail(call, "expecting Sharding CustomCallOp as operand of SPMDFullToShardShape");
      const OpNode& s = tree_.ops[sharding];
      p.operands.push_back(std::string(s.uses[0].span.in(t_)));
      OpTypes types = opTypes(tree_, s);
      std::string_view type = types.known && !types.operands.empty() ? types.operands[0]
                              : types.known && !types.results.empty() ? types.results[0]
                                                                      : std::string_view();
      p.operandTypes.push_back(std::string(type));
      SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr is, shardingOf(sharding));
      in.push_back(is);
      SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr ls, shardingOf(f2s));
      local.push_back(ls);
      p.erased.push_back(sharding);
      p.erased.push_back(f2s);
    }
    int results = resultCount(call);
    std::string_view callName = call.resultDefs.empty() ? std::string_view() : call.resultDefs[0].name.in(t_);
    for (int r = 0; r < results; ++r) {
      std::vector<int> us = users(func, callName, results == 1 ? 0 : r);
      if (us.empty()) {
        p.dropped.push_back(true);
        continue;
      }
      p.dropped.push_back(false);
      if (us.size() != 1) return fail(call, "expecting each result of shmap_body to have one or no uses");
      int sharding = us[0];
      if (customCallTarget(t_, tree_.ops[sharding]).empty() && !(exportForm && tree_.ops[sharding].name == "mhlo.copy"))
        return fail(call, "expecting CustomCallOp as the use of the result of the CallOp");
      if (!isPatternOp(func, sharding, "Sharding", exportForm))
        return fail(call, "expecting Sharding CustomCallOp as the use of the result of the CallOp");
      std::vector<int> next = users(func, tree_.ops[sharding].resultDefs[0].name.in(t_), 0);
      if (next.size() != 1)
        return fail(call, "expecting Sharding CustomCallOp user of the result to have one use");
      int s2f = next[0];
      if (customCallTarget(t_, tree_.ops[s2f]).empty())
        return fail(call, "expecting CustomCallOp as the use of Sharding CustomCallOp");
      if (!isPatternOp(func, s2f, "SPMDShardToFullShape", exportForm))
        return fail(call, "expecting SPMDShardToFullShape CustomCallOp as the use of Sharding CustomCallOp");
      OpTypes types = opTypes(tree_, tree_.ops[s2f]);
      if (!types.known || types.results.size() != 1)
        return makeError(ErrorCode::kParse, "expected a signature '(L) -> G' on this SPMDShardToFullShape",
                         tree_.ops[s2f].whole.begin);
      p.resultTypes.push_back(std::string(types.results[0]));
      p.replaces.push_back({std::string(tree_.ops[s2f].resultDefs[0].name.in(t_)), 0});
      SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr os, shardingOf(s2f));
      out.push_back(os);
      SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr ls, shardingOf(sharding));
      local.push_back(ls);
      p.erased.push_back(sharding);
      p.erased.push_back(s2f);
    }
    if (std::find(p.dropped.begin(), p.dropped.end(), true) == p.dropped.end()) p.dropped.clear();
    // One result keeps its ShardToFull's name; several get a fresh group.
    if (p.replaces.size() == 1) p.replacedGroupSize = 1;
    SB_TRY(shardingsAndAxes(call, in, out, local, p));
    return p;
  }

  // Memoised on the shardings (interned: their identities) and the module,
  // which are all it reads: a module's patterns repeat a few.
  Status shardingsAndAxes(const OpNode& call, const std::vector<sdy::TensorShardingAttr>& in,
                          const std::vector<sdy::TensorShardingAttr>& out,
                          const std::vector<sdy::TensorShardingAttr>& local, ManualPlan& p) {
    std::vector<const void*>& key = axesKey_;
    key.clear();
    key.push_back(reinterpret_cast<const void*>(static_cast<intptr_t>(tree_.enclosingModule(p.call))));
    for (const auto* v : {&in, &out, &local}) {
      key.push_back(nullptr);  // separates the lists
      for (sdy::TensorShardingAttr s : *v) key.push_back(s.opaque());
    }
    if (auto hit = axesMemo_.find(key); hit != axesMemo_.end()) {
      p.inShardings = hit->second.in;
      p.outShardings = hit->second.out;
      p.manualAxes = hit->second.axes;
      return okStatus();
    }
    SB_TRY(shardingsAndAxesUncached(call, in, out, local, p));
    axesMemo_.emplace(key, AxesMemo{p.inShardings, p.outShardings, p.manualAxes});
    return okStatus();
  }

  Status shardingsAndAxesUncached(const OpNode& call, const std::vector<sdy::TensorShardingAttr>& in,
                                  const std::vector<sdy::TensorShardingAttr>& out,
                                  const std::vector<sdy::TensorShardingAttr>& local, ManualPlan& p) {
    sdy::PrintOptions stripped;
    stripped.withPrefix = false;
    auto list = [&](const std::vector<sdy::TensorShardingAttr>& v) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + sdy::printTensorSharding(v[i], stripped);
      return s + "]";
    };
    p.inShardings = list(in);
    p.outShardings = list(out);
    if (in.empty() && out.empty()) return okStatus();
    // One mesh for every in/out sharding.
    std::string mesh;
    for (const auto* v : {&in, &out})
      for (sdy::TensorShardingAttr s : *v) {
        std::string name = s.meshOrRef().isRef() ? std::string(s.meshOrRef().refName()) : "<inline>";
        if (mesh.empty()) mesh = name;
        if (name != mesh) return fail(call, "Multiple meshes in a single manual computation.");
      }
    std::set<std::string> used, localUsed;
    auto collect = [](sdy::TensorShardingAttr s, std::set<std::string>& into) {
      for (sdy::DimensionShardingAttr d : s.dimShardings())
        for (sdy::AxisRefAttr a : d.axes()) into.insert(std::string(a.name()));
      for (sdy::AxisRefAttr a : s.replicatedAxes()) into.insert(std::string(a.name()));
    };
    for (const auto* v : {&in, &out})
      for (sdy::TensorShardingAttr s : *v) collect(s, used);
    for (sdy::TensorShardingAttr s : local) collect(s, localUsed);
    std::vector<std::string> axes;
    // Mesh order, from the module's sdy.mesh op.
    int module = tree_.enclosingModule(p.call);
    int meshOp = symbols_.lookup(module, mesh);
    if (meshOp >= 0)
      for (const std::string& a : meshAxes(meshOp))
        if (used.count(a) && !localUsed.count(a)) axes.push_back(a);
    if (meshOp < 0)
      for (const std::string& a : used)
        if (!localUsed.count(a)) axes.push_back(a);
    std::string m = "{";
    for (size_t i = 0; i < axes.size(); ++i) m += (i ? ", \"" : "\"") + axes[i] + "\"";
    p.manualAxes = m + "}";
    return okStatus();
  }

  const OpTree& tree_;
  std::string_view t_;
  SymbolIndex symbols_;
  // Asked from const members; it only fills itself in.
  mutable FuncValueIndex values_;
  // shardingOf's answers by the sdy.sharding text (views into the tree's text).
  std::unordered_map<std::string_view, sdy::TensorShardingAttr> firstSharding_;
  sdy::Context sctx_;
  std::map<int, std::vector<std::string>> meshAxes_;
  struct AxesMemo {
    std::string in, out, axes;
  };
  std::map<std::vector<const void*>, AxesMemo> axesMemo_;
  std::vector<const void*> axesKey_;
};

}  // namespace

Status runStablehloShardMapImport(PassContext& ctx) {
  return inlineManualComputations(
      ctx, [](const OpTree& tree) { return StablehloMatcher(tree).run(); }, isShardMapBodyName);
}

}  // namespace shardbridge::module
