// xla-sdy-round-trip-import-shardy-attrs (upstream xla/service/spmd/shardy/
// sdy_round_trip/import_shardy_attrs.cc): the Shardy originals the
// round-trip export saved as strings in `mhlo.frontend_attributes` come back.
//   module: `xla.sdy.meshes = "{mesh = #sdy.mesh<...>, ...}"` -> one
//     `sdy.mesh @name = <...>` per entry at the top of the module body (a
//     mesh the module already defines identically is not repeated; a
//     different one of the same name is an error);
//     `xla.sdy.tuple_args_shardings` / `xla.sdy.tuple_results_shardings`
//     -> the shardings of @main's arguments / results;
//   function arguments: `xla.sdy.sharding = "#sdy.sharding<...>"` ->
//     `sdy.sharding`; every argument and result loses its `mhlo.sharding`;
//   ops: `mhlo.sharding` is removed (kept on infeed / outfeed);
//     `xla.sdy.sharding_rule` -> `sdy.sharding_rule` (kept verbatim);
//     `xla.sdy.sharding` -> `sdy.sharding` on @Sharding custom calls, Python
//     callbacks, send / recv / after_all, and dropped elsewhere (with
//     shardbridge's own import-op-shardings, which `convert --to sdy` sets,
//     kept on every op whose result types it fits);
//   `%r = @xla.sdy.FuncResultSharding(%x)`: its sharding goes to the
//     function results `%r` is returned as, and `%x` replaces `%r`; when
//     `%r` has other users it becomes an `sdy.sharding_constraint` with the
//     sharding's dims opened;
//   the callees of sparse-offload calls get propagation barriers
//     (sparse_offload_barriers.cc).
// Strings may be singly or doubly escaped. See docs/module.md "Import".
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "module/edit_compose.h"
#include "module/import_common.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/scanner.h"
#include "module/text_lex.h"
#include "module/sharding_sites.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/module/convert_module.h"

namespace shardbridge::module {
namespace {

// For maps keyed by std::string looked up by std::string_view.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

constexpr std::string_view kSharding = "xla.sdy.sharding";
constexpr std::string_view kRule = "xla.sdy.sharding_rule";

Error shifted(Error e, size_t base) {
  // The string as a whole: an offset inside its decoding would not be one of the module.
  e.dropOffsets();
  e.offset = base;
  return e;
}

class Importer {
 public:
  Importer(PassContext& ctx, int module)
      : ctx_(ctx), t_(ctx.text()), tree_(ctx.tree), module_(module), keepOpShardings_(ctx.flag("import-op-shardings")),
        v3_(ctx.flag("enable-hlo-sharding-v3")) {}

  Status run() {
    SB_TRY(moduleAttrs());
    const TreeVec<int>* body = tree_.bodyOps(module_);
    if (!body) return okStatus();
    for (int f : *body)
      if (tree_.ops[f].name == "func.func") SB_TRY(func(f));
    return insertSparseOffloadBarriers(ctx_, module_);
  }

 private:
  // The canonical text of a saved sharding, verified against the module's
  // meshes (errors located at the string).
  // Memoised on the attribute's text as written: a module repeats a few
  // shardings many times, and the meshes do not change once read.
  Result<std::string> canonical(TextSpan value, bool perValue) {
    std::string_view written = value.in(t_);
    auto& memo = perValue ? perValueMemo_ : shardingMemo_;
    if (auto hit = memo.find(written); hit != memo.end()) {
      if (perValue) lastPerValue_ = {hit->second.printed, hit->second.parsed};
      return hit->second.printed;
    }
    Result<std::string> made = canonicalUncached(value, perValue);
    if (made) {
      Canonical& c = memo[std::string(written)];
      c.printed = *made;
      if (perValue) c.parsed = lastPerValue_->second;
    }
    return made;
  }

  Result<std::string> canonicalUncached(TextSpan value, bool perValue) {
    SB_ASSIGN_OR_RETURN(std::string text, roundTripString(t_, value));
    sdy::MeshLookup lookup = [this](std::string_view name) -> sdy::MeshAttr {
      auto it = meshes_.find(name);
      return it == meshes_.end() ? sdy::MeshAttr() : it->second;
    };
    if (perValue) {
      auto s = sdy::parseTensorShardingPerValue(sctx_, text);
      if (!s) return shifted(s.error(), value.begin);
      if (Status ok = sdy::verifyTensorShardingPerValue(*s, lookup); !ok) return shifted(ok.error(), value.begin);
      std::string printed = sdy::printTensorShardingPerValue(*s);
      // fitsResults asks next about this very text: it reuses the parse.
      lastPerValue_ = {printed, *s};
      return printed;
    }
    auto s = sdy::parseTensorSharding(sctx_, text);
    if (!s) return shifted(s.error(), value.begin);
    if (Status ok = sdy::verifyTensorSharding(*s, lookup); !ok) return shifted(ok.error(), value.begin);
    return sdy::printTensorSharding(*s);
  }

  Status moduleAttrs() {
    std::map<std::string, sdy::MeshAttr, std::less<>> existing;
    std::map<std::string, int, std::less<>> existingOp;
    if (const TreeVec<int>* body = tree_.bodyOps(module_))
      for (int i : *body)
        if (tree_.ops[i].name == "sdy.mesh") {
          auto sym = sdy::parseMeshSymbol(sctx_, meshOpText(t_, tree_.ops[i]));
          if (!sym) return shifted(sym.error(), tree_.ops[i].whole.begin);
          existing[sym->name] = sym->mesh;
          existingOp[sym->name] = i;
          meshes_[sym->name] = sym->mesh;
          if (firstMesh_.empty()) firstMesh_ = sym->name;
        }
    if (module_ < 0) return okStatus();
    const OpNode& m = tree_.ops[module_];
    SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t_, m.dict));
    DictEditor ed(t_, m.dict);
    if (const AttrEntry* meshes = f.find("xla.sdy.meshes")) {
      SB_ASSIGN_OR_RETURN(std::string decoded, roundTripString(t_, meshes->value));
      auto entries = module_detail::splitMeshDict(decoded);
      if (!entries) return shifted(entries.error(), meshes->value.begin);
      auto [at, indent] = moduleBodyStart(tree_, module_);
      std::string lines;
      for (auto& [name, mesh] : *entries) {
        auto parsed = sdy::parseMesh(sctx_, mesh.first);
        if (!parsed) return shifted(parsed.error(), meshes->value.begin);
        if (auto it = existing.find(name); it != existing.end()) {
          if (it->second == *parsed) continue;
          return makeError(ErrorCode::kInvalid,
                           "the module already defines a mesh named '" + name +
                               "' that differs from the one its xla.sdy.meshes saves",
                           tree_.ops[existingOp[name]].whole.begin);
        }
        lines += indent + sdy::printMeshSymbol(sdy::MeshSymbol{name, *parsed}) + "\n";
        meshes_[name] = *parsed;
      }
      if (!lines.empty()) ctx_.rw.insert(at, lines);
    }
    // upstream's kInTupleShardings / kOutTupleShardings, for @main.
    for (auto [key, args] : {std::pair<std::string_view, bool>{"xla.sdy.tuple_args_shardings", true},
                             {"xla.sdy.tuple_results_shardings", false}}) {
      const AttrEntry* e = f.find(key);
      int main = tree_.lookupSymbol(module_, "main");
      if (!e || main < 0 || tree_.ops[main].name != "func.func") continue;
      SB_ASSIGN_OR_RETURN(std::string text, roundTripString(t_, e->value));
      auto s = sdy::parseTensorShardingPerValue(sctx_, text);
      if (!s) return shifted(s.error(), e->value.begin);
      size_t expected = args ? tree_.ops[main].funcArgs().size() : tree_.ops[main].funcResults().size();
      if (s->shardings().size() != expected)
        return makeError(ErrorCode::kInvalid,
                         "Number of actual shardings (" + std::to_string(s->shardings().size()) +
                             ") does not match number of expected shardings (" + std::to_string(expected) + "for " +
                             std::string(key) + ") for function.",
                         m.whole.begin);
      auto& out = args ? tupleArgs_ : tupleResults_;
      for (sdy::TensorShardingAttr x : s->shardings()) out.push_back(sdy::printTensorSharding(x));
    }
    removeFrontendKeys(t_, f, ed, {"xla.sdy.meshes", "xla.sdy.tuple_args_shardings", "xla.sdy.tuple_results_shardings"});
    commitModuleDict(ctx_.rw, t_, m, ed);
    return okStatus();
  }

  Status func(int fi) {
    const OpNode& fn = tree_.ops[fi];
    bool isMain = fn.symbolName == "main";
    std::vector<DictEditor> args, results;
    args.reserve(fn.funcArgs().size());
    results.reserve(fn.funcResults().size());
    for (size_t a = 0; a < fn.funcArgs().size(); ++a) {
      const ValueDef& arg = fn.funcArgs()[a];
      args.emplace_back(t_, arg.dict);
      DictEditor& ed = args.back();
      SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t_, arg.dict));
      if (const AttrEntry* s = f.find(kSharding)) {
        SB_ASSIGN_OR_RETURN(std::string c, canonical(s->value, false));
        ed.set("sdy.sharding", c);
        removeFrontendKeys(t_, f, ed, {kSharding});
      }
      if (isMain && a < tupleArgs_.size()) ed.set("sdy.sharding", tupleArgs_[a]);
      if (const AttrEntry* m = arg.dict.find("mhlo.sharding")) {
        if (v3_) {
          SB_ASSIGN_OR_RETURN(std::string c, v3Text(*m, {std::string(arg.type.in(t_))}, false));
          ed.set("sdy.sharding", c);
        }
        ed.remove("mhlo.sharding");
      }
    }
    for (size_t r = 0; r < fn.funcResults().size(); ++r) {
      results.emplace_back(t_, fn.funcResults()[r].dict);
      if (const AttrEntry* m = fn.funcResults()[r].dict.find("mhlo.sharding")) {
        if (v3_) {
          SB_ASSIGN_OR_RETURN(std::string c, v3Text(*m, {std::string(fn.funcResults()[r].type.in(t_))}, false));
          results.back().set("sdy.sharding", c);
        }
        results.back().remove("mhlo.sharding");
      }
      if (isMain && r < tupleResults_.size()) results.back().set("sdy.sharding", tupleResults_[r]);
    }
    std::vector<int> ops = opsInside(tree_, fi);
    std::vector<int> resultShardings;
    // upstream getX64CombineOnFuncResultSharding: an X64Combine reading a
    // FuncResultSharding (directly, or through a tuple and get_tuple_element)
    // takes its sharding and stands for it at the return.
    combine_.clear();
    std::map<int, std::string> combineSharding;
    for (int i : ops) {
      if (customCallTarget(t_, tree_.ops[i]) != "xla.sdy.FuncResultSharding" || tree_.ops[i].resultDefs.empty()) continue;
      int c = x64Combine(ops, tree_.ops[i].resultDefs[0].name.in(t_));
      if (c < 0) continue;
      combine_[i] = c;
      SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t_, tree_.ops[i].dict));
      const AttrEntry* s = f.find(kSharding);
      if (s && !tree_.ops[c].dict.find("sdy.sharding") && !combineSharding.count(c)) {
        SB_ASSIGN_OR_RETURN(std::string text, canonical(s->value, true));
        combineSharding[c] = text;
      }
    }
    for (int i : ops) {
      const OpNode& op = tree_.ops[i];
      std::string_view target = customCallTarget(t_, op);
      if (target == "xla.sdy.FuncResultSharding") {
        resultShardings.push_back(i);
        continue;
      }
      if (!op.dict.present()) continue;
      DictEditor ed(t_, op.dict);
      if (op.dict.find("mhlo.sharding") && op.name != "stablehlo.infeed" && op.name != "stablehlo.outfeed")
        ed.remove("mhlo.sharding");
      SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t_, op.dict));
      if (const AttrEntry* rule = f.find(kRule)) {
        SB_ASSIGN_OR_RETURN(std::string text, roundTripAttribute(t_, rule->value, kRule));
        ed.set("sdy.sharding_rule", text);
      }
      const AttrEntry* s = v3_ ? nullptr : f.find(kSharding);
      bool keeps = op.name == "stablehlo.send" || op.name == "stablehlo.recv" || op.name == "stablehlo.after_all" ||
                   target == "Sharding" || isPythonCallback(target);
      if (v3_ && (keeps || target == "X64Combine" || keepOpShardings_))
        if (const AttrEntry* m = op.dict.find("mhlo.sharding"); m && !op.dict.find("sdy.sharding")) {
          OpTypes types = opTypes(tree_, op);
          std::vector<std::string> rts = typeStrings(types.results);
          if (rts.size() == 1 && resultCount(op) > 1) rts.assign(static_cast<size_t>(resultCount(op)), rts[0]);
          Result<std::string> c = v3Text(*m, rts, true);
          if (keeps || target == "X64Combine") {
            if (!c) return c.error();
            ed.set("sdy.sharding", *c);
          } else if (c && fitsResults(op, *c)) {
            ed.set("sdy.sharding", *c);  // beyond upstream: import-op-shardings
          }
        }
      if (s && !keeps && keepOpShardings_) {
        // Beyond upstream: kept where it fits, else dropped (as upstream
        // drops every such sharding) with a warning.
        Result<std::string> c = canonical(s->value, true);
        if (!c)
          ctx_.warn(s->value.begin, "the xla.sdy.sharding of this op is dropped: " + c.error().message);
        keeps = c && fitsResults(op, *c);
      }
      if (s && keeps) {
        SB_ASSIGN_OR_RETURN(std::string c, canonical(s->value, true));
        ed.set("sdy.sharding", c);
      }
      if (auto it = combineSharding.find(i); it != combineSharding.end()) ed.set("sdy.sharding", it->second);
      removeFrontendKeys(t_, f, ed, {kRule, kSharding});
      ed.commit(ctx_.rw, op.whole.end);
    }
    for (const auto& [c, text] : combineSharding)
      if (!tree_.ops[c].dict.present()) insertDict(ctx_.rw, tree_, tree_.ops[c], "{sdy.sharding = " + text + "}");
    SB_TRY(funcResultShardings(fi, ops, resultShardings, results));
    for (size_t a = 0; a < args.size(); ++a) args[a].commit(ctx_.rw, fn.funcArgs()[a].type.end);
    for (size_t r = 0; r < results.size(); ++r) commitResult(fn, r, results[r]);
    return okStatus();
  }

  // V3 (upstream convertToSdyShardingAttr): a leaf of an `mhlo.sharding`
  // string on its own mesh (the module's first mesh when identical, else
  // inlined, for sdy-lift-inlined-meshes and dedup to name); V2 replicated
  // and unreduced on the first mesh with open dims.
  Result<sdy::TensorShardingAttr> v3Leaf(const hlo::HloSharding& leaf, int64_t rank) {
    sdy::MeshOrRef global = firstMesh_.empty() ? sdy::MeshOrRef::inlineMesh(sdy::MeshAttr::get(sctx_, {}))
                                               : sdy::MeshOrRef::ref(sctx_, firstMesh_);
    if (!leaf.isNamed()) {
      std::vector<sdy::DimensionShardingAttr> dims(static_cast<size_t>(rank),
                                                   sdy::DimensionShardingAttr::get(sctx_, {}, false));
      if (leaf.isReplicated()) return sdy::TensorShardingAttr::get(sctx_, global, dims);
      if (leaf.isUnreduced()) {
        std::vector<sdy::AxisRefAttr> unreduced;
        if (!firstMesh_.empty())
          for (const sdy::MeshAxisAttr& a : meshes_[firstMesh_].axes()) unreduced.push_back(sdy::AxisRefAttr::get(sctx_, a.name()));
        return sdy::TensorShardingAttr::get(sctx_, global, dims, {}, unreduced);
      }
      return makeError(ErrorCode::kInvalid,
                       "Expected HloShardingV3 during Shardy import when 'xla_enable_hlo_sharding_v3' flag is enabled, "
                       "but got non-replicated/unreduced HloShardingV2: " + leaf.toString());
    }
    const hlo::Mesh& m = leaf.namedSharding()->mesh();
    if (m.isMaximal()) {
      int64_t ids[] = {m.deviceAssignment().first()};
      return sdy::TensorShardingAttr::getFullyClosed(sctx_, sdy::MeshOrRef::inlineMesh(sdy::MeshAttr::get(sctx_, {}, ids)), 0);
    }
    std::vector<sdy::MeshAxisAttr> axes;
    for (int64_t i = 0; i < m.numAxes(); ++i)
      axes.push_back(sdy::MeshAxisAttr::get(sctx_, m.axisNames()[static_cast<size_t>(i)], m.axisSize(i)));
    sdy::MeshAttr mesh = sdy::MeshAttr::get(sctx_, axes);
    if (m.hasExplicitDeviceOrder()) {
      SB_ASSIGN_OR_RETURN(auto ids, m.deviceAssignment().devices());
      mesh = sdy::MeshAttr::get(sctx_, axes, ids);
    }
    sdy::MeshOrRef ref = !firstMesh_.empty() && meshes_[firstMesh_] == mesh ? global : sdy::MeshOrRef::inlineMesh(mesh);
    return convert::convertToSdySharding(sctx_, leaf, mesh, ref, {}, rank, /*openDims=*/false);
  }

  // The sdy text of `mhlo.sharding` entry `e` for values of `types`.
  Result<std::string> v3Text(const AttrEntry& e, const std::vector<std::string>& types, bool perValue) {
    SB_ASSIGN_OR_RETURN(std::string decoded, roundTripString(t_, e.value));
    auto s = readMhloSharding(decoded);
    if (!s) return shifted(s.error(), e.value.begin);
    std::vector<const hlo::HloSharding*> leaves = hlo::leavesOf(*s);
    if (!perValue) {
      if (leaves.size() != 1) return makeError(ErrorCode::kInvalid, "expected one sharding", e.value.begin);
      auto r = v3Leaf(*leaves[0], types.empty() ? 0 : typeRank(types[0]));
      if (!r) return shifted(r.error(), e.value.begin);
      return sdy::printTensorSharding(*r);
    }
    std::vector<sdy::TensorShardingAttr> out;
    for (size_t i = 0; i < leaves.size(); ++i) {
      auto r = v3Leaf(*leaves[i], i < types.size() ? typeRank(types[i]) : 0);
      if (!r) return shifted(r.error(), e.value.begin);
      out.push_back(*r);
    }
    return sdy::printTensorShardingPerValue(sdy::TensorShardingPerValueAttr::get(sctx_, out));
  }

  // The X64Combine custom call among `ops` reading `value` directly or
  // through stablehlo.tuple then stablehlo.get_tuple_element, or -1.
  int x64Combine(std::span<const int> ops, std::string_view value) const {
    auto usersOf = [&](std::string_view name) {
      std::vector<int> out;
      for (int i : ops)
        for (const ValueUse& u : tree_.ops[i].uses)
          if (u.name == name) {
            out.push_back(i);
            break;
          }
      return out;
    };
    for (int u : usersOf(value))
      if (customCallTarget(t_, tree_.ops[u]) == "X64Combine" && !tree_.ops[u].resultDefs.empty()) return u;
    for (int u : usersOf(value)) {
      if (tree_.ops[u].name != "stablehlo.tuple" || tree_.ops[u].resultDefs.empty()) continue;
      for (int g : usersOf(tree_.ops[u].resultDefs[0].name.in(t_))) {
        if (tree_.ops[g].name != "stablehlo.get_tuple_element" || tree_.ops[g].resultDefs.empty()) continue;
        for (int x : usersOf(tree_.ops[g].resultDefs[0].name.in(t_)))
          if (customCallTarget(t_, tree_.ops[x]) == "X64Combine" && !tree_.ops[x].resultDefs.empty()) return x;
      }
    }
    return -1;
  }

  // Whether sharding_per_value `text` has one sharding per result of `op`
  // with the rank its written type has (upstream drops op shardings because
  // XLA copies frontend attributes onto new instructions of other shapes).
  bool fitsResults(const OpNode& op, const std::string& text) {
    Result<sdy::TensorShardingPerValueAttr> s = lastPerValue_ && lastPerValue_->first == text
                                                    ? Result<sdy::TensorShardingPerValueAttr>(lastPerValue_->second)
                                                    : sdy::parseTensorShardingPerValue(sctx_, text);
    OpTypes types = opTypes(tree_, op);
    if (!s || !types.known) return false;
    size_t n = static_cast<size_t>(resultCount(op));
    std::vector<std::string_view> results = types.results;
    if (results.size() == 1 && n > 1) results.assign(n, results[0]);
    if (s->shardings().size() != n || results.size() != n) return false;
    for (size_t i = 0; i < n; ++i)
      if (isShapedType(results[i]) && s->shardings()[i].rank() != typeRank(results[i])) return false;
    return true;
  }

  // A result dictionary added to `-> tensor<...>` needs the parentheses.
  void commitResult(const OpNode& fn, size_t r, const DictEditor& ed) {
    const FuncResult& res = fn.funcResults()[r];
    if (!ed.changed()) return;
    if (res.dict.present() || ed.render().empty()) {
      ed.commit(ctx_.rw, res.type.end);
      return;
    }
    size_t p = res.type.begin;
    while (p > 0 && module_lex::isBlank(t_[p - 1])) --p;
    bool parenthesized = p > 0 && (t_[p - 1] == '(' || t_[p - 1] == ',');
    if (!parenthesized) ctx_.rw.insert(res.type.begin, "(");
    ed.commit(ctx_.rw, res.type.end);
    if (!parenthesized) ctx_.rw.insert(res.type.end, ")");
  }

  Status funcResultShardings(int fi, std::span<const int> ops, const std::vector<int>& calls,
                             std::vector<DictEditor>& results) {
    if (calls.empty()) return okStatus();
    // %r -> %x for every call that goes, resolved through chains.
    std::map<std::string, std::string, std::less<>> forward;
    std::vector<bool> erased(tree_.ops.size(), false);
    for (int c : calls) {
      const OpNode& op = tree_.ops[c];
      if (op.uses.size() != 1 || op.resultDefs.size() != 1 || op.resultDefs[0].count != 1)
        return makeError(ErrorCode::kParse, "expected '%r = stablehlo.custom_call @xla.sdy.FuncResultSharding(%x)'",
                         op.whole.begin);
      SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t_, op.dict));
      const AttrEntry* s = f.find(kSharding);
      if (!s)
        return makeError(ErrorCode::kInvalid, "expected xla.sdy.FuncResultSharding with an xla.sdy.sharding",
                         op.whole.begin);
      SB_ASSIGN_OR_RETURN(std::string text, roundTripString(t_, s->value));
      auto perValue = sdy::parseTensorShardingPerValue(sctx_, text);
      if (!perValue) return shifted(perValue.error(), s->value.begin);
      if (perValue->shardings().empty())
        return makeError(ErrorCode::kInvalid, "expected one sharding in xla.sdy.FuncResultSharding", s->value.begin);
      sdy::TensorShardingAttr sharding = perValue->shardings()[0];
      std::string_view result = op.resultDefs[0].name.in(t_);
      std::string_view operand = op.uses[0].span.in(t_);
      bool used = false, otherUses = false;
      auto visitReturns = [&](std::string_view name, bool* other) {
        for (int i : ops) {
          const OpNode& user = tree_.ops[i];
          bool isReturn = (user.name == "return" || user.name == "func.return") && user.parent == fi;
          for (size_t u = 0; u < user.uses.size(); ++u) {
            if (user.uses[u].span.in(t_) != name) continue;
            used = true;
            if (isReturn && u < results.size()) {
              results[u].set("sdy.sharding", sdy::printTensorSharding(sharding));
            } else if (other && customCallTarget(t_, user) != "X64Combine" &&
                       customCallTarget(t_, user) != "xla.sdy.FuncResultSharding") {
              *other = true;
            }
          }
        }
      };
      if (auto it = combine_.find(c); it != combine_.end()) {
        visitReturns(tree_.ops[it->second].resultDefs[0].name.in(t_), &otherUses);
      } else {
        visitReturns(result, &otherUses);
        if (!used) visitReturns(operand, nullptr);
      }
      if (otherUses) {
        std::vector<sdy::DimensionShardingAttr> dims;
        for (sdy::DimensionShardingAttr d : sharding.dimShardings())
          dims.push_back(sdy::DimensionShardingAttr::get(sctx_, d.axes(), false, d.priority()));
        sdy::TensorShardingAttr open =
            sdy::TensorShardingAttr::get(sctx_, sharding.meshOrRef(), dims, sharding.replicatedAxes(),
                                         sharding.unreducedAxes());
        OpTypes types = opTypes(tree_, op);
        std::string type = types.known && types.results.size() == 1 ? std::string(types.results[0]) : std::string();
        if (type.empty())
          return makeError(ErrorCode::kParse, "expected a signature '(T) -> T' on xla.sdy.FuncResultSharding",
                           op.whole.begin);
        sdy::PrintOptions stripped;
        stripped.withPrefix = false;
        std::string text2 = std::string(result) + " = sdy.sharding_constraint " + std::string(operand) + " " +
                            sdy::printTensorSharding(open, stripped) + " : " + type;
        if (!op.loc.empty()) text2 += " " + std::string(op.loc.in(t_));
        ctx_.rw.replace(op.whole, text2);
      } else {
        forward[std::string(result)] = std::string(operand);
        erased[static_cast<size_t>(c)] = true;
        ctx_.rw.erase(op.line);
      }
    }
    auto resolve = [&](std::string name) {
      for (int guard = 0; guard < 4096; ++guard) {
        auto it = forward.find(name);
        if (it == forward.end()) break;
        name = it->second;
      }
      return name;
    };
    for (int i : ops) {
      if (erased[static_cast<size_t>(i)]) continue;
      for (const ValueUse& u : tree_.ops[i].uses)
        if (u.index == 0 && forward.count(u.span.in(t_))) ctx_.rw.replace(u.span, resolve(std::string(u.span.in(t_))));
    }
    return okStatus();
  }

  PassContext& ctx_;
  std::string_view t_;
  const OpTree& tree_;
  int module_;
  bool keepOpShardings_;
  bool v3_;
  std::string firstMesh_;  // the module's first sdy.mesh (upstream's globalMeshOp), "" when none
  sdy::Context sctx_;
  // The last per-value sharding canonical() printed, with its parse.
  std::optional<std::pair<std::string, sdy::TensorShardingPerValueAttr>> lastPerValue_;
  struct Canonical {
    std::string printed;
    sdy::TensorShardingPerValueAttr parsed;  // per-value ones only
  };
  std::unordered_map<std::string, Canonical, StringHash, std::equal_to<>> shardingMemo_, perValueMemo_;
  std::vector<std::string> tupleArgs_, tupleResults_;
  std::map<std::string, sdy::MeshAttr, std::less<>> meshes_;
  std::map<int, int> combine_;  // FuncResultSharding op -> the X64Combine standing for it
};

}  // namespace

Status runRoundTripImportShardyAttrs(PassContext& ctx) {
  std::vector<int> modules = ctx.tree.modules();
  if (modules.empty()) modules.push_back(-1);
  for (int m : modules) SB_TRY(Importer(ctx, m).run());
  return okStatus();
}

// Of the ops import-constants renames, this pass reads nothing but what it
// edits (no rule here looks at a constant's name), and it keeps every name:
// editsCompose's premise.
Result<bool> runRoundTripImportShardyAttrsOver(PassContext& ctx, const Rewriter& pending) {
  SB_TRY(runRoundTripImportShardyAttrs(ctx));
  if (!editsCompose(ctx.tree, pending, ctx.rw, {})) return false;
  for (const Rewriter::Edit& e : pending.edits()) ctx.rw.add(e);
  return true;
}

}  // namespace shardbridge::module
