#include "module/manual_inline.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "module/import_common.h"
#include "module/manual_computation.h"
#include "module/op_types.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {



class Inliner {
 public:
  Inliner(const OpTree& tree, Rewriter& rw) : tree_(tree), t_(tree.text), rw_(rw), names_(tree), symbols_(tree) {}

  Status emit(const ManualPlan& plan, std::set<int>& inlinedBodies) {
    if (plan.eraseOnly) {
      if (plan.call >= 0) rw_.erase(tree_.ops[plan.call].line);
      for (int e : plan.erased) rw_.erase(tree_.ops[e].line);
      return okStatus();
    }
    const OpNode& call = tree_.ops[plan.call];
    int module = tree_.enclosingModule(plan.call);
    int callee = symbols_.lookup(module, call.symbolName);
    if (callee < 0 || tree_.ops[callee].name != "func.func" || tree_.ops[callee].regions.empty())
      return makeError(ErrorCode::kNotFound, "'" + std::string(call.symbolName) + "' does not name a function of the module",
                       call.whole.begin);
    inlinedBodies.insert(callee);
    int caller = tree_.enclosingFunc(plan.call);
    Taken& taken = takenIn(caller);
    const OpNode& fn = tree_.ops[callee];
    // Renames of the callee's values that the caller already defines.
    std::map<std::string_view, std::string> rename;
    for (std::string_view n : namesDefinedIn(tree_, callee)) {
      if (rename.count(n)) continue;
      std::string chosen(n);
      if (taken.has(chosen)) {
        chosen = names_.next(n.substr(1), plan.call);
      } else {
        // Kept as the callee names it: no fresh name of the caller may take it.
        names_.reserve(chosen, plan.call);
      }
      taken.added.insert(chosenNames_.emplace_back(chosen));
      rename[n] = chosen;
    }
    // A view of the map's string or of `n` itself: no copy per use.
    auto renamed = [&](std::string_view n) -> std::string_view {
      auto it = rename.find(n);
      return it == rename.end() ? n : std::string_view(it->second);
    };
    std::vector<std::string> args;
    for (const ValueDef& a : fn.funcArgs())
      args.push_back(std::string(renamed(a.name.in(t_))) + ": " + std::string(a.type.in(t_)));
    // The body's text with the renames and `return` -> `sdy.return`.
    const Block& block = fn.regions[0].blocks.front();
    std::string body;
    if (!block.ops.empty()) {
      size_t from = tree_.ops[block.ops.front()].whole.begin;
      std::string_view fromIndent = module_lex::indentationAt(t_, from);
      from -= fromIndent.size();
      size_t to = tree_.ops[block.ops.back()].whole.end;
      std::vector<std::pair<TextSpan, std::string>> edits;
      for (int i = callee + 1; i < static_cast<int>(tree_.ops.size()) && tree_.ops[i].whole.begin < fn.whole.end; ++i) {
        const OpNode& op = tree_.ops[i];
        for (const ResultDef& d : op.resultDefs)
          if (std::string_view n = renamed(d.name.in(t_)); n != d.name.in(t_)) edits.push_back({d.name, std::string(n)});
        for (const ValueUse& u : op.uses) {
          std::string_view n = renamed(u.name);
          if (n != u.name) edits.push_back({{u.span.begin, u.span.begin + u.name.size()}, std::string(n)});
        }
        for (const Region& r : op.regions)
          for (const Block& b : r.blocks)
            for (const ValueDef& a : b.arguments)
              if (std::string_view n = renamed(a.name.in(t_)); !a.name.empty() && n != a.name.in(t_))
                edits.push_back({a.name, std::string(n)});
        if ((op.name == "return" || op.name == "func.return") && op.parent == callee) {
          if (std::find(plan.dropped.begin(), plan.dropped.end(), true) == plan.dropped.end()) {
            edits.push_back({op.nameSpan, "sdy.return"});
            continue;
          }
          // Only the results the manual computation keeps are returned.
          std::vector<std::string> kept, keptTypes;
          std::vector<std::string> types = splitTypeList(op.signature.empty() ? std::string_view()
                                                                              : op.signature.in(t_).substr(1));
          for (size_t u = 0; u < op.uses.size(); ++u) {
            if (u < plan.dropped.size() && plan.dropped[u]) continue;
            kept.push_back(std::string(renamed(op.uses[u].name)) +
                           (op.uses[u].index ? "#" + std::to_string(op.uses[u].index) : std::string()));
            if (u < types.size()) keptTypes.push_back(types[u]);
          }
          std::string ret = "sdy.return";
          if (!kept.empty()) ret += " " + module_lex::joinComma(kept) + " : " + module_lex::joinComma(keptTypes);
          if (!op.loc.empty()) ret += " " + std::string(op.loc.in(t_));
          // Drop the edits already recorded inside this op.
          edits.erase(std::remove_if(edits.begin(), edits.end(),
                                     [&](const auto& e) { return e.first.begin >= op.whole.begin && e.first.end <= op.whole.end; }),
                      edits.end());
          edits.push_back({op.whole, ret});
        }
      }
      std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
      size_t p = from;
      for (const auto& [span, with] : edits) {
        if (span.begin < p) continue;  // a span seen twice (an entry argument listed by its owner)
        body.append(t_.substr(p, span.begin - p));
        body += with;
        p = span.end;
      }
      body.append(t_.substr(p, to - p));
      std::string_view callIndent = module_lex::indentationAt(t_, call.whole.begin);
      body = module_lex::reindent(body, fromIndent, std::string(callIndent) + "  ");
    }
    // The results: one value keeps the name it replaces; several from one
    // op in order keep that op's `%r:N`; otherwise a fresh group.
    std::string results;
    std::vector<std::string> uses;  // how each result is named after
    size_t n = plan.replaces.size();
    if (n == 1 && plan.replaces[0].second == 0 && plan.replacedGroupSize == 1) {
      results = plan.replaces[0].first;
    } else if (n > 0 && sameGroupInOrder(plan.replaces, plan.replacedGroupSize)) {
      results = plan.replaces[0].first + ":" + std::to_string(n);
    } else if (n > 0) {
      std::string fresh = names_.next(call.resultDefs.empty() ? "manual" : call.resultDefs[0].name.in(t_).substr(1), plan.call);
      results = n == 1 ? fresh : fresh + ":" + std::to_string(n);
      for (size_t i = 0; i < n; ++i) {
        std::string to = n == 1 ? fresh : fresh + "#" + std::to_string(i);
        replaceUses(tree_, rw_, usersIn(caller, plan), plan.replaces[i].first, plan.replaces[i].second, to);
      }
    }
    std::string_view indent = module_lex::indentationAt(t_, call.whole.begin);
    std::string text = (results.empty() ? "" : results + " = ") + "sdy.manual_computation(" + module_lex::joinComma(plan.operands) +
                       ") in_shardings=" + plan.inShardings + " out_shardings=" + plan.outShardings +
                       " manual_axes=" + plan.manualAxes + " (" + module_lex::joinComma(args) + ") {\n" + body + "\n" +
                       std::string(indent) + "} : (" + module_lex::joinComma(plan.operandTypes) + ") -> " +
                       (plan.resultTypes.size() == 1 ? plan.resultTypes[0] : "(" + module_lex::joinComma(plan.resultTypes) + ")");
    if (!call.loc.empty()) text += " " + std::string(call.loc.in(t_));
    rw_.replace(call.whole, text);
    for (int e : plan.erased) rw_.erase(tree_.ops[e].line);
    return okStatus();
  }

 private:
  // The value names a caller defines: its own, sorted (views of the text),
  // and those the inlining adds to it (views of chosenNames_). A set of
  // strings of all of them spent two allocations on each name of each
  // caller, 14,000 instructions a caller of the bench's size.
  struct Taken {
    std::vector<std::string_view> own;
    std::unordered_set<std::string_view> added;
    bool has(std::string_view n) const {
      return std::binary_search(own.begin(), own.end(), n) || added.count(n) != 0;
    }
  };
  Taken& takenIn(int func) {
    auto it = taken_.find(func);
    if (it != taken_.end()) return it->second;
    Taken& t = taken_[func];
    if (func >= 0) {
      t.own = namesDefinedIn(tree_, func);
      std::sort(t.own.begin(), t.own.end());
    }
    return t;
  }

  static bool sameGroupInOrder(const std::vector<std::pair<std::string, int>>& r, int groupSize) {
    if (groupSize != static_cast<int>(r.size())) return false;
    for (size_t i = 0; i < r.size(); ++i)
      if (r[i].first != r[0].first || r[i].second != static_cast<int>(i)) return false;
    return true;
  }

  std::vector<int> usersIn(int func, const ManualPlan& plan) const {
    std::vector<int> out = func >= 0 ? opsInside(tree_, func) : std::vector<int>{};
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](int i) {
                               return i == plan.call ||
                                      std::find(plan.erased.begin(), plan.erased.end(), i) != plan.erased.end();
                             }),
              out.end());
    return out;
  }

  const OpTree& tree_;
  std::string_view t_;
  Rewriter& rw_;
  FreshNames names_;
  SymbolIndex symbols_;
  std::map<int, Taken> taken_;
  std::deque<std::string> chosenNames_;  // stay where they are as it grows
};

}  // namespace

Status inlineManualComputations(PassContext& ctx, const ManualMatcher& match, const BodyNamePredicate& isBody) {
  std::string current;
  bool first = true;
  bool wholeText = false;
  for (int round = 0; round < static_cast<int>(kMaxOpNesting) + 1; ++round) {
    std::optional<OpTree> owned;
    if (!first) {
      Result<OpTree> parsed = parseOpTree(current);
      if (!parsed) return parsed.error();
      owned = std::move(*parsed);
    }
    const OpTree& tree = first ? ctx.tree : *owned;
    SB_ASSIGN_OR_RETURN(std::vector<ManualPlan> plans, match(tree));
    Rewriter local(tree.text);
    Rewriter& rw = first ? ctx.rw : local;
    std::set<int> bodies;
    if (!plans.empty()) {
      Inliner inliner(tree, rw);
      for (const ManualPlan& p : plans) SB_TRY(inliner.emit(p, bodies));
    }
    // Bodies no remaining call names go (upstream erases them all once
    // every call is rewritten).
    std::set<std::string_view> stillCalled, referenced;
    std::set<int> erasedCalls;
    bool rewrites = false;
    for (const ManualPlan& p : plans) {
      erasedCalls.insert(p.call);
      rewrites |= p.call >= 0;
    }
    for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
      const OpNode& op = tree.ops[i];
      if ((op.name == "call" || op.name == "func.call") && !erasedCalls.count(i) && !bodies.count(tree.enclosingFunc(i)))
        stillCalled.insert(op.symbolName);
      // A custom call's `called_computations = [@f, ...]` (the older single
      // manual-computation custom call names its body so) keeps `@f`.
      if (const AttrEntry* cc = op.dict.find("called_computations")) {
        std::string_view v = cc->value.in(tree.text);
        for (size_t at = v.find('@'); at != std::string_view::npos; at = v.find('@', at + 1))
          referenced.insert(module_lex::symbolAt(v, at));
      }
    }
    bool nested = false;
    for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
      const OpNode& op = tree.ops[i];
      if (op.name != "func.func" || !isBody(op.symbolName)) continue;
      if (stillCalled.count(op.symbolName)) {
        nested = true;
        continue;
      }
      if (referenced.count(op.symbolName)) continue;
      rw.erase(op.line);
    }
    if (rw.empty()) break;
    if (!nested || !rewrites) {
      if (!first) {
        SB_ASSIGN_OR_RETURN(current, local.apply());
        wholeText = true;
      }
      break;
    }
    if (first) {
      SB_ASSIGN_OR_RETURN(current, ctx.rw.apply());
      first = false;
      wholeText = true;
      // ctx.rw's edits are superseded by the whole text below.
      continue;
    }
    SB_ASSIGN_OR_RETURN(current, local.apply());
  }
  if (wholeText) {
    Rewriter fresh(ctx.text());
    ctx.rw = fresh;
    ctx.rw.replace({0, ctx.text().size()}, current);
  }
  return okStatus();
}

Result<std::string> perValueList(sdy::Context& ctx, std::string_view text) {
  auto s = sdy::parseTensorShardingPerValue(ctx, text);
  if (!s) return s.error();
  std::string printed = sdy::printTensorShardingPerValue(*s);
  constexpr std::string_view kPrefix = "#sdy.sharding_per_value<";
  if (!printed.starts_with(kPrefix)) return makeError(ErrorCode::kInternal, "unexpected sharding_per_value text");
  return printed.substr(kPrefix.size(), printed.size() - kPrefix.size() - 1);
}

Result<std::string> manualAxesList(std::string_view text) {
  std::string_view s = module_lex::trimBlanks(text);
  constexpr std::string_view kPrefix = "#sdy<manual_axes";
  if (!s.starts_with(kPrefix) || !s.ends_with(">"))
    return makeError(ErrorCode::kParse, "expected '#sdy<manual_axes{...}>', got '" + std::string(text) + "'");
  s = s.substr(kPrefix.size(), s.size() - kPrefix.size() - 1);
  size_t open = module_lex::skipBlanks(s, 0);
  Result<AxisList> list = readAxisList(s, open);
  if (!list || module_lex::skipBlanks(s, list->end) != s.size()) {
    std::string why = list ? "text after the manual axes" : list.error().message;
    return makeError(ErrorCode::kParse,
                     "expected '#sdy<manual_axes{...}>' (" + why + "), got '" + std::string(text) + "'");
  }
  return std::string(s.substr(open, list->end - open));
}

}  // namespace shardbridge::module
