// sdy-flatten-call-graph (upstream openxla/shardy
// shardy/dialect/sdy/transforms/import/flatten_call_graph.cc, with
// cloneFuncRecursively and walkCalls of shardy/dialect/sdy/ir/utils.cc): a
// function called from a second call site is cloned, with everything it calls,
// so that each call has a callee of its own. The pinned round-trip import
// (xla/service/spmd/shardy/sdy_round_trip/pipelines.cc) runs it restricted to
// the calls of manual-computation bodies (upstream isManualComputation: the
// callee's name contains `xla.sdy.manual_computation_body`), our option
// `manual-computation-bodies-only`; there the first call of a body keeps the
// body but the functions it calls are cloned for it, as upstream does.
//
//   func.func @main(%a: T) -> T {
//     %0 = call @f(%a) : (T) -> T
//     %1 = call @f(%0) : (T) -> T
// becomes
//     %0 = call @f(%a) : (T) -> T
//     %1 = call @f_0(%0) : (T) -> T
// with, at the end of the module, a copy of @f named @f_0 carrying
// `attributes {sdy.original_func_name = "f"}` (what sdy-unflatten-call-graph
// merges back on). As upstream:
// - calls are visited callee first: the functions in post-order of the call
//   graph from every function (text order, calls in text order; MLIR's
//   CallGraph roots every function at its external node), each function's
//   calls in text order;
// - a clone is named as MLIR's symbol table names a clash: `NAME_N` with one
//   counter per module, starting at 0; clones are appended at the end of the
//   module, the callees' clones before their caller's;
// - a call of a function the module does not define is upstream's fatal
//   "Failed to lookup function: NAME", an error at the call here.
// Beyond upstream, the clones are bounded (kMinCloneBudget below): an error
// says so rather than exhausting memory.
// See docs/module.md "Import".
#include <algorithm>
#include <span>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// Clones of clones nest no deeper than the call graph; a cycle (recursion,
// which MLIR's func dialect allows) stops here rather than looping.
constexpr int kMaxCloneDepth = 128;
// Clones can grow exponentially (a function calling another twice, nested);
// beyond this many bytes of cloned functions (or 8x the input, if larger)
// the pass stops with an error rather than exhausting memory.
constexpr size_t kMinCloneBudget = size_t{16} << 20;



// A function as the pass sees it: an original one of the tree or a clone,
// both with the current callee of each call inside.
struct Fn {
  int op = -1;                        // the func.func it is (a copy of)
  std::string name;
  std::string original;               // sdy.original_func_name (its own name when unset)
  std::map<int, std::string> callee;  // call op -> current callee
  bool clone = false;
};

class CallGraphFlattener {
 public:
  CallGraphFlattener(PassContext& ctx, int module)
      : ctx_(ctx), tree_(ctx.tree), t_(ctx.text()), module_(module), bodiesOnly_(ctx.flag("manual-computation-bodies-only")) {}

  Status run() {
    const TreeVec<int>* top = module_ < 0 ? &tree_.topLevel : tree_.bodyOps(module_);
    if (!top) return okStatus();
    // With manual-computation-bodies-only, a module that calls no body has
    // nothing to flatten (visit ignores every other call): the common case
    // of the round-trip import, which no longer builds the call graph for it.
    if (bodiesOnly_ && !callsABody(*top)) return okStatus();
    for (int i : *top) {
      const OpNode& op = tree_.ops[i];
      if (!op.symbolName.empty()) used_.insert(std::string(op.symbolName));
      if (op.name != "func.func") continue;
      Fn f;
      f.op = i;
      f.name = std::string(op.symbolName);
      f.original = originalName(op);
      for (int c : opsInside(tree_, i))
        if (tree_.ops[c].isCall()) {
          f.callee[c] = std::string(tree_.ops[c].symbolName);
          calls_[i].push_back(c);
        }
      fns_.push_back(f);
      byName_[f.name] = static_cast<int>(fns_.size()) - 1;
    }
    if (fns_.empty()) return okStatus();
    for (int f : postOrder()) {
      int fn = byName_[std::string(tree_.ops[f].symbolName)];
      for (int c : calls_[f]) SB_TRY(visit(fn, c));
    }
    return write(*top);
  }

 private:
  bool callsABody(std::span<const int> top) const {
    for (int i : top) {
      if (tree_.ops[i].name != "func.func") continue;
      const uint32_t end = tree_.ops[i].whole.end;
      for (size_t c = static_cast<size_t>(i) + 1; c < tree_.ops.size() && tree_.ops[c].whole.begin < end; ++c)
        if (tree_.ops[c].isCall() && tree_.ops[c].symbolName.find(kRoundTripBodyName) != std::string_view::npos)
          return true;
    }
    return false;
  }

  std::string originalName(const OpNode& fn) const {
    if (const AttrEntry* e = fn.dict.find(kOriginalFuncName)) {
      std::string_view v = e->value.in(t_);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return std::string(v.substr(1, v.size() - 2));
    }
    return std::string(fn.symbolName);
  }

  // Functions in post-order of MLIR's call graph, whose external node has an
  // edge to every function in text order (mlir/lib/Analysis/CallGraph.cpp,
  // getOrAddNode): every function is a root, private ones included.
  std::vector<int> postOrder() const {
    std::vector<int> order;
    std::set<int> seen;
    std::function<void(int, int)> dfs = [&](int f, int depth) {
      if (!seen.insert(f).second || depth > kMaxCloneDepth) return;
      auto it = calls_.find(f);
      if (it != calls_.end())
        for (int c : it->second) {
          auto callee = byName_.find(std::string(tree_.ops[c].symbolName));
          if (callee != byName_.end()) dfs(fns_[callee->second].op, depth + 1);
        }
      order.push_back(f);
    };
    for (const Fn& f : fns_) dfs(f.op, 0);
    return order;
  }

  Status visit(int fn, int call) {
    std::string target = fns_[fn].callee[call];
    if (bodiesOnly_ && target.find(kRoundTripBodyName) == std::string::npos) return okStatus();
    auto it = byName_.find(target);
    if (it == byName_.end())
      return makeError(ErrorCode::kNotFound, "Failed to lookup function: " + target, tree_.ops[call].whole.begin);
    int callee = it->second;
    if (seen_.insert(target).second) {
      if (bodiesOnly_) {
        // The first call keeps the body; the functions under it are cloned.
        for (auto& [c, name] : fns_[callee].callee) {
          SB_ASSIGN_OR_RETURN(std::string cloned, cloneByName(name, call, 0));
          fns_[callee].callee[c] = cloned;
        }
      }
      return okStatus();
    }
    SB_ASSIGN_OR_RETURN(std::string cloned, cloneRecursively(callee, call, 0));
    fns_[fn].callee[call] = cloned;
    return okStatus();
  }

  Result<std::string> cloneByName(const std::string& name, int at, int depth) {
    auto it = byName_.find(name);
    if (it == byName_.end())
      return makeError(ErrorCode::kNotFound, "Failed to lookup function: " + name, tree_.ops[at].whole.begin);
    return cloneRecursively(it->second, at, depth);
  }

  Result<std::string> cloneRecursively(int source, int at, int depth) {
    if (depth > kMaxCloneDepth)
      return makeError(ErrorCode::kUnsupported, "the call graph is recursive or nests too deeply to flatten",
                       tree_.ops[at].whole.begin);
    Fn c = fns_[source];
    c.clone = true;
    cloned_ += tree_.ops[c.op].whole.size();
    if (cloned_ > std::max(kMinCloneBudget, 8 * t_.size()))
      return makeError(ErrorCode::kUnsupported,
                       "flattening the call graph would clone more than " +
                           std::to_string(std::max(kMinCloneBudget, 8 * t_.size())) + " bytes of functions",
                       tree_.ops[at].whole.begin);
    for (auto& [call, name] : c.callee) {
      SB_ASSIGN_OR_RETURN(std::string cloned, cloneByName(name, call, depth + 1));
      name = cloned;
    }
    c.name = uniqueName(c.name);
    used_.insert(c.name);
    fns_.push_back(c);
    byName_[c.name] = static_cast<int>(fns_.size()) - 1;
    order_.push_back(static_cast<int>(fns_.size()) - 1);
    return c.name;
  }

  // MLIR's SymbolTable::insert on a clash: NAME_<counter>.
  std::string uniqueName(const std::string& name) {
    if (!used_.count(name)) return name;
    std::string candidate;
    do candidate = name + "_" + std::to_string(counter_++);
    while (used_.count(candidate));
    return candidate;
  }

  // The text of function `f`: its op's text with its name, the callees of its
  // calls and (for a clone) sdy.original_func_name set.
  std::string cloneText(const Fn& f) const {
    const OpNode& op = tree_.ops[f.op];
    std::vector<std::pair<TextSpan, std::string>> edits;
    edits.push_back({op.symbol, module_lex::symbolRef(f.name)});
    for (const auto& [call, name] : f.callee)
      if (name != tree_.ops[call].symbolName) edits.push_back({tree_.ops[call].symbol, module_lex::symbolRef(name)});
    std::string entry = std::string(kOriginalFuncName) + " = \"" + f.original + "\"";
    if (const AttrEntry* e = op.dict.find(kOriginalFuncName)) {
      edits.push_back({e->whole, entry});
    } else if (op.dict.present()) {
      size_t at = op.dict.whole.end - 1;
      std::string text = (op.dict.entries.empty() ? "" : ", ") + entry;
      for (const AttrEntry& e : op.dict.entries)
        if (e.name > kOriginalFuncName) {
          at = e.whole.begin;
          text = entry + ", ";
          break;
        }
      edits.push_back({{at, at}, text});
    } else {
      size_t at = op.funcSignature().empty() ? op.symbol.end : op.funcSignature().end;
      while (at > op.symbol.end && module_lex::isBlank(t_[at - 1])) --at;
      edits.push_back({{at, at}, " attributes {" + entry + "}"});
    }
    std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
    std::string out;
    size_t p = op.whole.begin;
    for (const auto& [span, text] : edits) {
      out.append(t_.substr(p, span.begin - p));
      out += text;
      p = span.end;
    }
    out.append(t_.substr(p, op.whole.end - p));
    return out;
  }

  Status write(std::span<const int> top) {
    // The originals' redirected calls.
    for (const Fn& f : fns_) {
      if (f.clone) continue;
      for (const auto& [call, name] : f.callee)
        if (name != tree_.ops[call].symbolName) ctx_.rw.replace(tree_.ops[call].symbol, module_lex::symbolRef(name));
    }
    if (order_.empty()) return okStatus();
    int last = -1;
    for (int i : top) last = i;
    std::string_view indent = moduleIndent(tree_, module_);
    std::string text;
    for (int c : order_) text += "\n" + std::string(indent) + cloneText(fns_[c]);
    ctx_.rw.insert(tree_.ops[last].whole.end, text);
    return okStatus();
  }

  PassContext& ctx_;
  const OpTree& tree_;
  std::string_view t_;
  int module_;
  bool bodiesOnly_;
  std::deque<Fn> fns_;  // stable references while clones are added
  std::map<std::string, int> byName_;
  std::map<int, std::vector<int>> calls_;  // func op -> its calls, in text order
  std::set<std::string> seen_;
  std::set<std::string> used_;
  std::vector<int> order_;  // clones, in insertion order
  int counter_ = 0;
  size_t cloned_ = 0;  // bytes of function text cloned so far
};

}  // namespace

Status runFlattenCallGraph(PassContext& ctx) {
  std::vector<int> modules = ctx.tree.modules();
  if (modules.empty()) modules.push_back(-1);
  for (int m : modules) SB_TRY(CallGraphFlattener(ctx, m).run());
  return okStatus();
}

}  // namespace shardbridge::module
