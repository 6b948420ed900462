// stablehlo-ext-flatten-entry-function-tuples: the first step of
// stablehlo-ext-canonicalize-from-hlo-import (upstream
// xla/mlir_hlo/stablehlo_ext/transforms/stablehlo_canonicalize_from_hlo_import.cpp,
// expandTupledTensorInReturnOp, run on the function named `main` until its
// signature holds no tuple). Per module, `@main`'s tuple-typed arguments and
// results become one per leaf:
//   func.func @main(%arg0: tuple<A, tuple<B, C>>, %arg1: D) -> tuple<A, D> {
//     ...
//     %5 = stablehlo.tuple %2, %arg1 : tuple<A, D>
//     return %5 : tuple<A, D>
// becomes
//   func.func @main(%arg0_0: A, %arg0_1: B, %arg0_2: C, %arg1: D) -> (A, D) {
//     %arg0_tuple = stablehlo.tuple %arg0_1, %arg0_2 : tuple<B, C>
//     %arg0 = stablehlo.tuple %arg0_0, %arg0_tuple : tuple<A, tuple<B, C>>
//     ...
//     return %2, %arg1 : A, D
// As upstream:
// - the new arguments have no attributes: a tuple argument's dictionary goes
//   (its sharding too, which is warned about here); they and the tuples
//   rebuilding the old argument are at the function's location, written
//   `loc(...)` when the old argument had one;
// - the old argument's uses read a `stablehlo.tuple` of the new ones, built at
//   the top of the body (inner tuples first) unless nothing else reads it;
// - a returned tuple is replaced by the operands of the `stablehlo.tuple` that
//   builds it (which goes when the return was its only reader), else by
//   `stablehlo.get_tuple_element`s inserted before the return;
// - only the result types change: when `@main` has result attributes and a
//   tuple result, the result attribute array no longer matches, which MLIR's
//   verifier rejects after upstream's pass; that is the error here, at the
//   signature.
// Names: the old names are kept, the leaves are fresh (`%arg0_0`), so no other
// byte of the body changes. See docs/module.md "Import".
#include <algorithm>
#include <span>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// Tuples nest far less deeply in real modules; deeper ones are an error.
constexpr int kMaxDepth = 64;


// `s` on one line (a type wrapped over lines is written into new lines).
std::string collapsedBlanks(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char ch : s) {
    if (module_lex::isBlank(ch)) {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += ch;
  }
  return out;
}


class EntryFlattener {
 public:
  explicit EntryFlattener(PassContext& ctx)
      : ctx_(ctx), tree_(ctx.tree), t_(ctx.text()), values_(ctx.tree), aliases_(typeAliasesOf(ctx.tree)) {}

  Status run() {
    std::vector<int> modules = tree_.modules();
    if (modules.empty()) modules.push_back(-1);
    for (int m : modules) {
      int f = tree_.lookupSymbol(m, "main");
      if (f < 0 || tree_.ops[f].name != "func.func" || tree_.ops[f].regions.empty()) continue;
      SB_TRY(flatten(f));
    }
    return okStatus();
  }

 private:
  // `type` with top-level aliases resolved (a chain of at most 16).
  std::string resolved(std::string type) const {
    for (int step = 0; step < 16 && !type.empty() && type[0] == '!'; ++step) {
      bool found = false;
      for (const auto& [name, def] : aliases_)
        if (name == type) {
          type = std::string(module_lex::trimBlanks(def));
          found = true;
          break;
        }
      if (!found) break;
    }
    return type;
  }

  // The element types of a tuple type, or nullopt for any other type.
  std::optional<std::vector<std::string>> elements(const std::string& type) const {
    std::string r = resolved(collapsedBlanks(type));
    if (!r.starts_with("tuple<") || r.back() != '>') return std::nullopt;
    std::vector<std::string> out;
    for (const std::string& e : splitTypeList(std::string_view(r).substr(6, r.size() - 7))) out.push_back(collapsedBlanks(e));
    return out;
  }

  FreshNames& names() {
    if (!names_) names_.emplace(tree_);
    return *names_;
  }

  std::string lineBreakAt(size_t p) const { return "\n" + std::string(module_lex::indentationAt(t_, p)); }

  // New argument leaves for `type` (a tuple), appended to `args`; the tuple
  // ops that rebuild it are prepended to `defs` (inner first). Returns the
  // element values.
  Status argLeaves(const std::string& stem, const std::string& type, const std::string& name, int depth,
                   std::vector<std::string>& args, std::vector<std::string>& defs, std::vector<std::string>& leaves) {
    if (depth > kMaxDepth) return makeError(ErrorCode::kUnsupported, "tuples nest too deeply", pos_);
    auto elems = elements(type);
    std::vector<std::string> parts;
    for (const std::string& e : *elems) {
      if (elements(e)) {
        std::string inner = names().next(stem + "_tuple", func_);
        SB_TRY(argLeaves(stem, e, inner, depth + 1, args, defs, leaves));
        parts.push_back(inner);
        continue;
      }
      std::string leaf = names().next(stem + "_" + std::to_string(args.size()), func_);
      args.push_back(leaf + ": " + e + newLoc_);
      leaves.push_back(leaf);
      parts.push_back(leaf);
    }
    argTuples_[name].elements = parts;
    defs.push_back((parts.empty() ? name + " = \"stablehlo.tuple\"() : () -> " + collapsedBlanks(type)
                                  : name + " = stablehlo.tuple " + module_lex::joinComma(parts) + " : " + collapsedBlanks(type)) +
                   newLoc_);
    return okStatus();
  }

  // A value the return reads, with its type.
  struct Returned {
    std::string value;  // as written (`%0#1`)
    std::string name;   // `%0`
    int index = 0;
    std::string type;
    bool inTree = true;  // a value of the tree (not a new get_tuple_element)
  };

  // The flat values the returned `items` stand for, one tuple level per
  // round as upstream's loop expands them (so its get_tuple_elements come
  // level by level); those go to `before`.
  Status returnLeaves(int func, std::vector<Returned> items, std::vector<std::string>& out,
                      std::vector<std::string>& types, std::string& before, size_t at) {
    for (int round = 0;; ++round) {
      if (round > kMaxDepth) return makeError(ErrorCode::kUnsupported, "tuples nest too deeply", at);
      bool any = false;
      std::vector<Returned> next;
      for (const Returned& r : items) {
        auto elems = elements(r.type);
        if (!elems) {
          next.push_back(r);
          continue;
        }
        any = true;
        // A flattened tuple argument: its elements.
        auto a = r.inTree && r.index == 0 ? argTuples_.find(r.name) : argTuples_.end();
        if (a != argTuples_.end() && a->second.elements.size() == elems->size()) {
          for (size_t e = 0; e < elems->size(); ++e)
            next.push_back({a->second.elements[e], a->second.elements[e], 0, (*elems)[e], true});
          continue;
        }
        int def = r.inTree ? values_.definingOp(func, r.name, r.index) : -1;
        if (def >= 0 && tree_.ops[def].name == "stablehlo.tuple" && tree_.ops[def].uses.size() == elems->size()) {
          consumed_.insert(def);
          const OpNode& d = tree_.ops[def];
          for (size_t e = 0; e < elems->size(); ++e)
            next.push_back({std::string(d.uses[e].span.in(t_)), std::string(d.uses[e].name), d.uses[e].index,
                            (*elems)[e], true});
          continue;
        }
        std::string stem = r.value.substr(1);
        for (char& ch : stem)
          if (ch == '#') ch = '_';
        for (size_t e = 0; e < elems->size(); ++e) {
          std::string g = names().next(stem + "_" + std::to_string(e), func_);
          before += g + " = stablehlo.get_tuple_element " + r.value + "[" + std::to_string(e) + "] : (" +
                    collapsedBlanks(r.type) + ") -> " + (*elems)[e] + lineBreakAt(at);
          next.push_back({g, g, 0, (*elems)[e], false});
        }
      }
      items = std::move(next);
      if (!any) break;
    }
    for (const Returned& r : items) {
      out.push_back(r.value);
      types.push_back(collapsedBlanks(r.type));
    }
    return okStatus();
  }

  Status flatten(int f) {
    const OpNode& fn = tree_.ops[f];
    pos_ = fn.whole.begin;
    func_ = f;
    bool anyArg = false, anyResult = false, resultAttrs = false;
    for (const ValueDef& a : fn.funcArgs()) anyArg = anyArg || elements(std::string(a.type.in(t_))).has_value();
    for (const FuncResult& r : fn.funcResults()) {
      anyResult = anyResult || elements(std::string(r.type.in(t_))).has_value();
      resultAttrs = resultAttrs || r.dict.present();
    }
    if (!anyArg && !anyResult) return okStatus();
    const Region& body = fn.regions[0];
    if (body.blocks.empty() || body.blocks.back().ops.empty()) return okStatus();
    int ret = body.blocks.back().ops.back();
    const OpNode& retOp = tree_.ops[ret];
    if (retOp.name != "return" && retOp.name != "func.return") return okStatus();
    // The operands are rewritten as one span and the types as another: a
    // value among the types (`return %1 : %t`) would make them overlap.
    for (const ValueUse& u : retOp.uses)
      if (!retOp.signature.empty() && u.span.end > retOp.signature.begin)
        return makeError(ErrorCode::kParse, "expected a type in the return of @main, got '" +
                                                std::string(u.span.in(t_)) + "'",
                         u.span.begin);

    // Results first: the expected count is the flat one.
    std::vector<std::string> resultTypes, returned, returnedTypes;
    for (const FuncResult& r : fn.funcResults()) {
      std::string type(r.type.in(t_));
      SB_TRY(leafTypes(type, 0, resultTypes));
    }
    if (anyResult && resultAttrs)
      return makeError(ErrorCode::kInvalid,
                       "'func.func' op expects result attribute array to have the same number of elements as the "
                       "number of function results, got " +
                           std::to_string(fn.funcResults().size()) + ", but expected " +
                           std::to_string(resultTypes.size()),
                       fn.funcSignature().empty() ? fn.whole.begin : fn.funcSignature().begin);

    // Arguments.
    std::string defs;
    std::vector<std::string> argTexts;
    std::set<std::string> unusedArgs;
    std::vector<int> ops = opsInside(tree_, f);
    for (size_t a = 0; a < fn.funcArgs().size(); ++a) {
      const ValueDef& arg = fn.funcArgs()[a];
      std::string type(arg.type.in(t_));
      size_t end = argEnd(arg);
      if (!elements(type)) {
        argTexts.push_back(std::string(t_.substr(arg.name.begin, end - arg.name.begin)));
        continue;
      }
      std::string name(arg.name.in(t_));
      if (arg.dict.find("sdy.sharding") || arg.dict.find("mhlo.sharding"))
        ctx_.warn(arg.dict.whole.begin, "the sharding of tuple argument " + name +
                                            " of @main is dropped: its leaves become arguments without "
                                            "attributes, as upstream's canonicalize-from-HLO-import makes them");
      // Upstream creates the new arguments and the tuples rebuilding the old
      // one at the function's location (func.getBody().getLoc()): written so
      // when the old argument had a location (the text was printed with
      // them), the function's when it has one written, else the argument's.
      newLoc_.clear();
      if (!arg.loc.empty()) newLoc_ = " " + std::string((fn.loc.empty() ? arg.loc : fn.loc).in(t_));
      std::vector<std::string> args, lines, leaves;
      SB_TRY(argLeaves(name.substr(1), type, name, 0, args, lines, leaves));
      argTexts.insert(argTexts.end(), args.begin(), args.end());
      ArgTuple& at = argTuples_[name];
      std::string def = lines.back();
      lines.pop_back();
      at.lines = std::move(lines);
      at.self = def;
      at.usedElsewhere = false;
      for (int o : ops)
        if (o != ret)
          for (const ValueUse& u : tree_.ops[o].uses)
            if (u.name == name) at.usedElsewhere = true;
    }

    // The return.
    std::string before;
    std::vector<Returned> items;
    for (size_t k = 0; k < retOp.uses.size(); ++k) {
      const ValueUse& u = retOp.uses[k];
      std::string type = k < fn.funcResults().size() ? std::string(fn.funcResults()[k].type.in(t_)) : std::string();
      items.push_back({std::string(u.span.in(t_)), std::string(u.name), u.index, type, true});
    }
    SB_TRY(returnLeaves(f, std::move(items), returned, returnedTypes, before, retOp.whole.begin));

    // The tuples that rebuild the arguments, at the top of the body.
    // They go before the first op's line (which may be erased below, when it
    // is a tuple only the return read), each on a line of its own.
    int first = body.blocks.front().ops.empty() ? ret : body.blocks.front().ops.front();
    const OpNode& firstOp = tree_.ops[first];
    bool ownLine = firstOp.line.begin < firstOp.whole.begin;
    std::string indent(module_lex::indentationAt(t_, firstOp.whole.begin));
    for (const ValueDef& arg : fn.funcArgs()) {
      auto it = argTuples_.find(std::string(arg.name.in(t_)));
      if (it == argTuples_.end() || !it->second.usedElsewhere) continue;
      std::vector<std::string> lines = it->second.lines;
      lines.push_back(it->second.self);
      for (const std::string& l : lines) defs += ownLine ? indent + l + "\n" : l + lineBreakAt(firstOp.whole.begin);
    }
    if (!defs.empty()) ctx_.rw.insert(ownLine ? firstOp.line.begin : firstOp.whole.begin, defs);

    // The signature: arguments, then results.
    if (anyArg) {
      size_t b = fn.funcArgs().front().name.begin;
      ctx_.rw.replace({b, argEnd(fn.funcArgs().back())}, module_lex::joinComma(argTexts));
    }
    if (anyResult) {
      TextSpan sig = fn.funcSignature();
      std::string_view head = t_.substr(sig.begin, fn.funcResults().front().type.begin - sig.begin);
      size_t rel = head.rfind("->");
      if (rel == std::string_view::npos)
        return makeError(ErrorCode::kParse, "expected '->' before the results of @main", sig.begin);
      size_t arrowAt = sig.begin + rel;
      size_t from = arrowAt;
      while (from > sig.begin && module_lex::isBlank(t_[from - 1])) --from;
      std::string results = resultTypes.empty()     ? std::string()
                            : resultTypes.size() == 1 ? " -> " + resultTypes[0]
                                                      : " -> (" + module_lex::joinComma(resultTypes) + ")";
      size_t end = sig.end;
      while (end > arrowAt && module_lex::isBlank(t_[end - 1])) --end;
      ctx_.rw.replace({from, end}, results);
    }

    // The return, and the tuples it alone read.
    if (!before.empty()) ctx_.rw.insert(retOp.whole.begin, before);
    if (!retOp.uses.empty()) {
      if (returned.empty()) {
        ctx_.rw.replace({retOp.nameSpan.end, retOp.signature.empty() ? retOp.uses.back().span.end : retOp.signature.end},
                        "");
      } else {
        ctx_.rw.replace({retOp.uses.front().span.begin, retOp.uses.back().span.end}, module_lex::joinComma(returned));
        if (!retOp.signature.empty()) ctx_.rw.replace(retOp.signature, ": " + module_lex::joinComma(returnedTypes));
      }
    }
    eraseDeadTuples(ret, ops);
    return okStatus();
  }

  // The end of a function argument's text: its type, dictionary or location.
  static size_t argEnd(const ValueDef& a) {
    size_t end = std::max(a.type.end, a.dict.present() ? a.dict.whole.end : a.type.end);
    return std::max(end, a.loc.empty() ? end : a.loc.end);
  }

  Status leafTypes(const std::string& type, int depth, std::vector<std::string>& out) const {
    if (depth > kMaxDepth) return makeError(ErrorCode::kUnsupported, "tuples nest too deeply", pos_);
    auto e = elements(type);
    if (!e) {
      out.push_back(collapsedBlanks(type));
      return okStatus();
    }
    for (const std::string& x : *e) SB_TRY(leafTypes(x, depth + 1, out));
    return okStatus();
  }

  // A stablehlo.tuple the return read through goes when every reader is the
  // return or another such tuple that goes (upstream's rewriter erases the
  // dead op).
  void eraseDeadTuples(int ret, std::span<const int> ops) {
    std::set<int> dead;
    bool changed = true;
    while (changed) {
      changed = false;
      for (int d : consumed_) {
        if (dead.count(d) || tree_.ops[d].resultDefs.size() != 1) continue;
        std::string_view name = tree_.ops[d].resultDefs[0].name.in(t_);
        bool onlyReturn = true;
        for (int o : ops)
          for (const ValueUse& u : tree_.ops[o].uses)
            if (u.name == name && o != ret && !dead.count(o)) onlyReturn = false;
        if (onlyReturn) {
          dead.insert(d);
          changed = true;
        }
      }
    }
    for (int d : dead) ctx_.rw.erase(tree_.ops[d].line);
  }

  struct ArgTuple {
    std::vector<std::string> lines;     // inner tuples, inner first
    std::string self;                   // the outer tuple's definition
    std::vector<std::string> elements;  // its element values
    bool usedElsewhere = false;
  };

  PassContext& ctx_;
  const OpTree& tree_;
  std::string_view t_;
  mutable FuncValueIndex values_;  // fills itself in on a question
  std::vector<std::pair<std::string, std::string>> aliases_;
  std::optional<FreshNames> names_;
  std::map<std::string, ArgTuple> argTuples_;
  std::set<int> consumed_;
  size_t pos_ = 0;
  int func_ = -1;  // the function being flattened: new values are named fresh in it
  std::string newLoc_;  // ` loc(...)` for the new arguments and tuples of the argument being flattened
};

}  // namespace

Status runFlattenEntryFunctionTuples(PassContext& ctx) {
  if (!module_lex::contains(ctx.text(), "tuple<")) return okStatus();
  return EntryFlattener(ctx).run();
}

}  // namespace shardbridge::module
