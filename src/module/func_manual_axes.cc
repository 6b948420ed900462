// The last step of xla-sdy-round-trip-shard-map-import (upstream
// xla/service/spmd/shardy/sdy_round_trip/shard_map_import.cc, "Set func
// manual axes", with Shardy's iterateFuncs of shardy/dialect/sdy/ir/utils.cc):
// once the manual computations are rebuilt, every function called from inside
// one gets `sdy.func_manual_axes = #sdy<manual_axes{...}>`, the manual axes it
// runs under. sdy-unflatten-call-graph keys functions on that attribute too, so
// a clone called inside a manual computation is not merged with the same
// function called outside one.
//
//   func.func @main(...) {
//     %0 = sdy.manual_computation(%x) ... manual_axes={"a"} (%l: T) {
//       %1 = call @f_0(%l) ...
// gives `func.func private @f_0(...) attributes {sdy.func_manual_axes =
// #sdy<manual_axes{"a"}>, sdy.original_func_name = "f"}`.
//
// As upstream: the functions are visited in reverse post-order of the call
// graph (MLIR's CallGraph: every function of the module a root, in text
// order; each function's callees in the order of their first call), so
// callers come before their callees; in each, a call under manual
// computations (or in a function that has the attribute already) gives its
// callee the function's own axes followed by those of each enclosing manual
// computation, outermost first. A later such call overwrites an earlier
// one's. A callee the module lacks is upstream's fatal "Failed to lookup
// function: NAME", an error at the call here. See docs/module.md "Import".
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/manual_computation.h"
#include "module/manual_inline.h"
#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

using AxisList = std::vector<std::string>;

// The quoted names of the first `{...}` at or after `from` in `t`, up to
// `limit` (the axes of `#sdy<manual_axes{"a", "b"}>` or of a manual
// computation's `manual_axes={...}` / generic `manual_axes = #sdy<...>`),
// escapes kept as written.
Result<AxisList> quotedAxesAfter(std::string_view t, size_t from, size_t limit) {
  size_t open = t.find('{', from);
  if (open == std::string_view::npos || open >= limit)
    return makeError(ErrorCode::kParse, "expected '{' with the manual axes", from);
  AxisList axes;
  for (size_t q = open + 1; q < limit; ++q) {
    if (t[q] == '}') return axes;
    if (t[q] != '"') continue;
    SB_ASSIGN_OR_RETURN(size_t end, module_lex::skipString(t, q));
    axes.emplace_back(t.substr(q + 1, end - q - 2));
    q = end - 1;
  }
  return makeError(ErrorCode::kParse, "expected '}' to close the manual axes", open);
}

// The manual axes of an sdy.manual_computation: in its header (the custom
// form's `manual_axes={...}`, the generic form's properties), else in the
// generic form's dictionary after the region.
Result<AxisList> axesOfManualComputation(std::string_view t, const OpNode& op) {
  constexpr std::string_view kKey = "manual_axes";
  size_t limit = op.regions.empty() ? op.whole.end : op.regions[0].whole.begin;
  size_t k = t.find(kKey, op.nameSpan.end);
  if (k == std::string_view::npos || k >= limit) {
    limit = op.dict.whole.end;
    k = op.dict.present() ? t.find(kKey, op.dict.whole.begin) : std::string_view::npos;
    if (k == std::string_view::npos || k >= limit)
      return makeError(ErrorCode::kParse, "expected 'manual_axes' in sdy.manual_computation", op.nameSpan.begin);
  }
  return quotedAxesAfter(t, k + kKey.size(), limit);
}

class FuncManualAxesSetter {
 public:
  FuncManualAxesSetter(const OpTree& tree, int module) : tree_(tree), t_(tree.text), module_(module) {}

  // Function name -> the axes it gets (only those that change).
  Result<std::map<std::string, AxisList>> run() {
    const TreeVec<int>* top = module_ < 0 ? &tree_.topLevel : tree_.bodyOps(module_);
    std::map<std::string, AxisList> changed;
    if (!top) return changed;
    for (int i : *top) {
      const OpNode& op = tree_.ops[i];
      if (op.name != "func.func") continue;
      funcs_.push_back(i);
      byName_[op.symbolName] = i;
      if (const AttrEntry* e = op.dict.find(kFuncManualAxes)) {
        SB_ASSIGN_OR_RETURN(AxisList axes, quotedAxesAfter(t_, e->value.begin, e->value.end));
        written_[i] = axes;
        current_[i] = std::move(axes);
      }
    }
    for (int f : funcs_)
      for (int c : opsInside(tree_, f))
        if (tree_.ops[c].isCall()) calls_[f].push_back(c);
    std::vector<int> order = postOrder();
    for (auto it = order.rbegin(); it != order.rend(); ++it) SB_TRY(visit(*it));
    for (const auto& [f, axes] : current_) {
      auto w = written_.find(f);
      if (w == written_.end() || w->second != axes) changed[std::string(tree_.ops[f].symbolName)] = axes;
    }
    return changed;
  }

 private:
  // Post-order of the call graph, roots every function in text order, each
  // function's callees in the order of their first call (iterative: the
  // graph may be deep or cyclic).
  std::vector<int> postOrder() const {
    std::vector<int> order;
    std::set<int> seen;
    for (int root : funcs_) {
      if (!seen.insert(root).second) continue;
      std::vector<std::pair<int, size_t>> stack = {{root, 0}};
      while (!stack.empty()) {
        auto& [f, next] = stack.back();
        const std::vector<int>* calls = callsOf(f);
        if (calls && next < calls->size()) {
          auto callee = byName_.find(tree_.ops[(*calls)[next++]].symbolName);
          if (callee != byName_.end() && seen.insert(callee->second).second) stack.push_back({callee->second, 0});
          continue;
        }
        order.push_back(f);
        stack.pop_back();
      }
    }
    return order;
  }

  const std::vector<int>* callsOf(int f) const {
    auto it = calls_.find(f);
    return it == calls_.end() ? nullptr : &it->second;
  }

  Status visit(int f) {
    const std::vector<int>* calls = callsOf(f);
    if (!calls) return okStatus();
    for (int c : *calls) {
      // The manual computations around the call inside `f`, outermost first.
      std::vector<int> around;
      for (int p = tree_.ops[c].parent; p >= 0 && p != f; p = tree_.ops[p].parent)
        if (tree_.ops[p].name == "sdy.manual_computation") around.push_back(p);
      auto own = current_.find(f);
      if (around.empty() && own == current_.end()) continue;
      AxisList axes = own == current_.end() ? AxisList{} : own->second;
      for (auto p = around.rbegin(); p != around.rend(); ++p) {
        SB_ASSIGN_OR_RETURN(const AxisList* mc, manualAxesOf(*p));
        axes.insert(axes.end(), mc->begin(), mc->end());
      }
      const OpNode& call = tree_.ops[c];
      auto callee = byName_.find(call.symbolName);
      if (callee == byName_.end())
        return makeError(ErrorCode::kNotFound, "Failed to lookup function: " + std::string(call.symbolName),
                         call.whole.begin);
      current_[callee->second] = std::move(axes);
    }
    return okStatus();
  }

  Result<const AxisList*> manualAxesOf(int op) {
    auto it = mcAxes_.find(op);
    if (it == mcAxes_.end()) {
      SB_ASSIGN_OR_RETURN(AxisList axes, axesOfManualComputation(t_, tree_.ops[op]));
      it = mcAxes_.emplace(op, std::move(axes)).first;
    }
    return &it->second;
  }

  const OpTree& tree_;
  std::string_view t_;
  int module_;
  std::vector<int> funcs_;
  std::map<std::string_view, int> byName_;
  std::map<int, std::vector<int>> calls_;
  std::map<int, AxisList> written_, current_;
  std::map<int, AxisList> mcAxes_;
};

// Records on `rw` (over `tree`'s text) that function `fn` gets `axes`.
void writeFuncManualAxes(Rewriter& rw, const OpTree& tree, const OpNode& fn, const AxisList& axes) {
  std::string_view t = tree.text;
  std::string value = manualAxesAttr(axes);
  if (fn.dict.present()) {
    DictEditor ed(t, fn.dict);
    ed.set(kFuncManualAxes, value);
    ed.commit(rw, fn.dict.whole.begin);
    return;
  }
  // `func.func @f(...) -> T attributes {...} {`, as MLIR prints it.
  size_t at = fn.funcSignature().empty() ? fn.symbol.end : fn.funcSignature().end;
  while (at > fn.symbol.end && module_lex::isBlank(t[at - 1])) --at;
  rw.insert(at, " attributes {" + std::string(kFuncManualAxes) + " = " + value + "}");
}

// The axes to set per module ordinal (-1: the file's implicit module).
using FuncAxesPlan = std::map<int, std::map<std::string, AxisList>>;

Result<FuncAxesPlan> planFuncManualAxes(const OpTree& tree) {
  std::vector<int> modules = tree.modules();
  FuncAxesPlan plan;
  if (modules.empty()) {
    SB_ASSIGN_OR_RETURN(plan[-1], FuncManualAxesSetter(tree, -1).run());
    return plan;
  }
  for (size_t m = 0; m < modules.size(); ++m) {
    SB_ASSIGN_OR_RETURN(plan[static_cast<int>(m)], FuncManualAxesSetter(tree, modules[m]).run());
  }
  return plan;
}

void writePlan(Rewriter& rw, const OpTree& tree, const FuncAxesPlan& plan) {
  std::vector<int> modules = tree.modules();
  for (const auto& [ordinal, funcs] : plan) {
    int module = ordinal < 0 ? -1 : (static_cast<size_t>(ordinal) < modules.size() ? modules[ordinal] : -2);
    if (module == -2) continue;
    for (const auto& [name, axes] : funcs) {
      int fn = tree.lookupSymbol(module, name);
      if (fn >= 0 && tree.ops[fn].name == "func.func") writeFuncManualAxes(rw, tree, tree.ops[fn], axes);
    }
  }
}

bool planIsEmpty(const FuncAxesPlan& plan) {
  return std::all_of(plan.begin(), plan.end(), [](const auto& m) { return m.second.empty(); });
}

}  // namespace

namespace {
template <class Has>
bool mayNeedWith(std::string_view text, Has has) {
  if (has(kFuncManualAxes)) return true;
  if (!has("sdy.manual_computation")) return false;
  if (has("func.call")) return true;
  if (!has("call @")) return false;
  for (size_t at = text.find("call @"); at != std::string_view::npos; at = text.find("call @", at + 1))
    if (at == 0 || !module_lex::isIdentChar(text[at - 1])) return true;  // not stablehlo.custom_call
  return false;
}
}  // namespace

bool mayNeedFuncManualAxes(std::string_view text) {
  return mayNeedWith(text, [&](std::string_view w) { return module_lex::contains(text, w); });
}

bool mayNeedFuncManualAxes(std::string_view text, WordPresence& words) {
  return mayNeedWith(text, [&](std::string_view w) { return words.contains(text, w); });
}

Status setFuncManualAxes(PassContext& ctx) {
  if (ctx.rw.empty()) {
    SB_ASSIGN_OR_RETURN(FuncAxesPlan plan, planFuncManualAxes(ctx.tree));
    writePlan(ctx.rw, ctx.tree, plan);
    return okStatus();
  }
  // The manual computations exist only in the rewritten text: plan on its
  // tree, then write on the current one (the rewrites leave every surviving
  // function's signature and dictionary as they were), or on the rewritten
  // text when the rewrite replaced the text whole.
  SB_ASSIGN_OR_RETURN(std::string after, ctx.rw.apply());
  // Only a call inside a manual computation gives a function axes, and
  // only an attribute already written can need rewriting: without either,
  // the parse below is saved (the common case once bodies are inlined).
  if (!mayNeedFuncManualAxes(after)) return okStatus();
  SB_ASSIGN_OR_RETURN(OpTree tree, parseOpTree(after));
  SB_ASSIGN_OR_RETURN(FuncAxesPlan plan, planFuncManualAxes(tree));
  if (planIsEmpty(plan)) return okStatus();
  const std::vector<Rewriter::Edit>& edits = ctx.rw.edits();
  bool whole = edits.size() == 1 && edits[0].span.begin == 0 && edits[0].span.end == ctx.text().size();
  if (!whole) {
    writePlan(ctx.rw, ctx.tree, plan);
    return okStatus();
  }
  Rewriter local(after);
  writePlan(local, tree, plan);
  SB_ASSIGN_OR_RETURN(std::string text, local.apply());
  Rewriter fresh(ctx.text());
  ctx.rw = fresh;
  ctx.rw.replace({0, ctx.text().size()}, std::move(text));
  return okStatus();
}

}  // namespace shardbridge::module
