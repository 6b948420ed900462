// stablehlo-ext-canonicalize-from-hlo-import, the part the pinned import
// pipelines rely on: tuples around custom calls are flattened, nested tuples
// included (upstream xla/mlir_hlo/stablehlo_ext/transforms/
// stablehlo_canonicalize_from_hlo_import.cpp FlattenCustomCallOp, with the
// tuple folds of stablehlo's HLO-import canonicalization patterns applied to
// what it creates; lit tests stablehlo_canonicalize_from_hlo_import.mlir and
// xla/service/spmd/shardy/test/
// sdy_round_trip_import_pipeline_sharding_in_frontend_attr.mlir
// @manual_computation_nested_tuples).
//   %0 = stablehlo.tuple %a, %b : tuple<A, B>
//   %1 = stablehlo.custom_call @foo(%0, %c) : (tuple<A, B>, C) -> tuple<tuple<A, B>, C>
//   %2 = stablehlo.get_tuple_element %1[0] : (...) -> tuple<A, B>
//   %3 = stablehlo.get_tuple_element %2[1] : (tuple<A, B>) -> B
// becomes
//   %1:3 = stablehlo.custom_call @foo(%a, %b, %c) : (A, B, C) -> (A, B, C)
// with the uses of %3 reading %1#1. Every tuple-typed operand of a custom call
// is replaced by its leaves: through the `stablehlo.tuple` ops that build it
// (erased once nothing else reads them), through an already flattened custom
// call's results, else by `stablehlo.get_tuple_element` ops inserted before
// the call. A single tuple-typed result becomes one result per leaf; its
// get_tuple_element chains read the leaves and go, and any other use reads a
// `stablehlo.tuple` rebuilt after the call. The call keeps its attributes; one
// whose `sdy.sharding` does not list one sharding per flat result is left as
// it is. Not done here: the pass's while-loop and reshape canonicalisations.
// See docs/module.md "Import".
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "module/import_common.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// Tuples nest far less deeply in real modules; deeper ones are left alone.
constexpr int kMaxTupleDepth = 64;


// `s` with each run of blanks holding a line break made one blank, so that a
// type wrapped over lines can be written into one new line.
std::string oneLine(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (!module_lex::isBlank(s[i])) {
      out += s[i++];
      continue;
    }
    size_t j = i;
    bool nl = false;
    while (j < s.size() && module_lex::isBlank(s[j])) nl |= s[j++] == '\n';
    out += nl ? std::string(" ") : std::string(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// `type` with a top-level `!alias` resolved through the file's aliases.
std::string resolve(const OpTree& tree, const std::string& type) {
  if (type.empty() || type[0] != '!') return type;
  for (TextSpan a : tree.aliases) {
    std::string_view s = a.in(tree.text);
    size_t eq = s.find('=');
    if (eq == std::string_view::npos || std::string(module_lex::trimBlanks(s.substr(0, eq))) != type) continue;
    return std::string(module_lex::trimBlanks(s.substr(eq + 1)));
  }
  return type;
}

// A type as a tree of tuples; `text` as written (an alias stays an alias).
struct TypeTree {
  std::string text;
  bool tuple = false;
  std::vector<TypeTree> elems;
  size_t leaves = 1;  // leaf count (0 for `tuple<>`)
};

std::optional<TypeTree> typeTree(const OpTree& tree, std::string_view type, int depth = 0) {
  TypeTree n;
  n.text = oneLine(type);
  std::string t = resolve(tree, n.text);
  if (!t.starts_with("tuple<")) return n;
  if (t.back() != '>' || depth >= kMaxTupleDepth) return std::nullopt;
  n.tuple = true;
  n.leaves = 0;
  for (const std::string& e : splitTypeList(std::string_view(t).substr(6, t.size() - 7))) {
    auto c = typeTree(tree, e, depth + 1);
    if (!c) return std::nullopt;
    n.leaves += c->leaves;
    n.elems.push_back(std::move(*c));
  }
  return n;
}


// The number of shardings in `#sdy.sharding_per_value<[<...>, ...]>`, or -1.
long perValueCount(std::string_view v) {
  size_t open = v.find("<[");
  if (!v.starts_with("#sdy.sharding_per_value") || open == std::string_view::npos) return -1;
  long n = 0;
  int depth = 0;
  bool quoted = false;
  for (size_t i = open + 2; i < v.size(); ++i) {
    char ch = v[i];
    if (quoted) {
      if (ch == '\\') ++i;
      else if (ch == '"') quoted = false;
      continue;
    }
    if (ch == '"') quoted = true;
    else if (ch == '<' || ch == '[' || ch == '{' || ch == '(') {
      if (depth++ == 0 && ch == '<') ++n;
    } else if (ch == '>' || ch == ']' || ch == '}' || ch == ')') {
      if (depth-- == 0) return ch == ']' ? n : -1;
    }
  }
  return -1;
}

// One function's ops and who reads each value name.
struct FuncScope {
  std::vector<int> ops;
  std::unordered_map<std::string_view, std::vector<int>> users;
};

// A value whose leaves the flattening knows: a flattened custom call's tuple
// result, or a get_tuple_element of one (which goes).
struct Known {
  const TypeTree* type = nullptr;
  std::vector<std::string> leaves;
};

// A custom call to rewrite.
struct Call {
  int op = -1;
  int func = -1;
  std::vector<std::optional<TypeTree>> operands;  // per operand; tuple or leaf
  std::optional<TypeTree> result;                 // set when the single result is a tuple
  std::string resultName;
};

class Flattener {
 public:
  explicit Flattener(PassContext& ctx) : ctx_(ctx), tree_(ctx.tree), t_(ctx.text()), values_(ctx.tree) {}

  Status run() {
    collect();
    if (calls_.empty()) return okStatus();
    for (Call& c : calls_) planResult(c);
    for (Call& c : calls_) rewriteOperands(c);
    findDeadTuples();
    for (Call& c : calls_) rewriteResultUses(c);
    for (int d : deadTuples_) ctx_.rw.erase(tree_.ops[d].line);
    return okStatus();
  }

 private:
  const FuncScope& scope(int func) {
    auto it = scopes_.find(func);
    if (it != scopes_.end()) return it->second;
    FuncScope& s = scopes_[func];
    s.ops = opsInside(tree_, func);
    for (int i : s.ops)
      for (const ValueUse& u : tree_.ops[i].uses) {
        std::vector<int>& v = s.users[u.name];
        if (v.empty() || v.back() != i) v.push_back(i);
      }
    return s;
  }

  // Value names are per function.
  static std::string key(int func, std::string_view name) { return std::to_string(func) + ":" + std::string(name); }

  FreshNames& names() {
    if (!names_) names_.emplace(tree_);
    return *names_;
  }

  // The custom calls with a tuple-typed operand or a single tuple-typed
  // result whose types all read; others are left as they are.
  void collect() {
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& op = tree_.ops[i];
      if (op.name != "stablehlo.custom_call") continue;
      std::string_view sig = op.signature.in(t_);
      if (sig.find("tuple<") == std::string_view::npos && sig.find('!') == std::string_view::npos) continue;
      int func = tree_.enclosingFunc(i);
      OpTypes types = opTypes(tree_, op);
      if (func < 0 || !types.known || types.operands.size() != op.uses.size()) continue;
      Call c;
      c.op = i;
      c.func = func;
      bool ok = true, any = false;
      for (std::string_view ty : types.operands) {
        c.operands.push_back(typeTree(tree_, ty));
        ok = ok && c.operands.back().has_value();
        any = any || (ok && c.operands.back()->tuple);
      }
      if (types.results.size() == 1) {
        auto r = typeTree(tree_, types.results[0]);
        if (!r) ok = false;
        else if (r->tuple && op.resultDefs.size() == 1 && op.resultDefs[0].count == 1) {
          c.result = std::move(*r);
          c.resultName = std::string(op.resultDefs[0].name.in(t_));
          any = true;
        }
      }
      if (!ok || !any) continue;
      // The call keeps its attributes, as upstream's FlattenCustomCallOp
      // does; a sharding must then fit the flat results (one per leaf, as
      // xla-sdy-import-shardings writes it for a tuple result).
      if (const AttrEntry* sh = op.dict.find("sdy.sharding")) {
        size_t results = c.result ? c.result->leaves : types.results.size();
        if (perValueCount(sh->value.in(t_)) != static_cast<long>(results)) continue;
      }
      rewritten_.insert(i);
      calls_.push_back(std::move(c));
    }
  }

  // The leaves of a flattened result and of the get_tuple_element chains on it.
  void planResult(Call& c) {
    if (!c.result) return;
    size_t n = c.result->leaves;
    Known k;
    k.type = &*c.result;
    for (size_t i = 0; i < n; ++i) k.leaves.push_back(n == 1 ? c.resultName : c.resultName + "#" + std::to_string(i));
    known_[key(c.func, c.resultName)] = k;
    planGtes(c.func, c.resultName, k);
  }

  void planGtes(int func, const std::string& name, const Known& k) {
    auto it = scope(func).users.find(name);
    if (it == scope(func).users.end()) return;
    for (int u : it->second) {
      const OpNode& g = tree_.ops[u];
      int idx = tupleElementIndex(t_, g);
      if (idx < 0 || idx >= static_cast<int>(k.type->elems.size()) || g.uses[0].name != name) continue;
      size_t off = 0;
      for (int e = 0; e < idx; ++e) off += k.type->elems[e].leaves;
      Known sub;
      sub.type = &k.type->elems[idx];
      sub.leaves.assign(k.leaves.begin() + off, k.leaves.begin() + off + sub.type->leaves);
      std::string gname(g.resultDefs[0].name.in(t_));
      erasedGtes_.insert(u);
      known_[key(func, gname)] = sub;
      if (sub.type->tuple) planGtes(func, gname, sub);
    }
  }

  // Appends the leaves of operand `text` (value `name#index`) of type `type`.
  void leavesOf(Call& c, const std::string& text, std::string_view name, int index, const TypeTree& type,
                bool inTree, std::vector<std::string>& out, std::vector<std::string>& out_types,
                std::string& before) {
    if (inTree) {
      auto k = known_.find(key(c.func, name));
      if (k != known_.end() && index == 0 && k->second.leaves.size() == type.leaves) {
        out.insert(out.end(), k->second.leaves.begin(), k->second.leaves.end());
        appendLeafTypes(type, out_types);
        return;
      }
    }
    if (!type.tuple) {
      out.push_back(text);
      out_types.push_back(type.text);
      return;
    }
    int def = inTree ? values_.definingOp(c.func, name, index) : -1;
    if (def >= 0 && tree_.ops[def].name == "stablehlo.tuple" && tree_.ops[def].uses.size() == type.elems.size()) {
      consumedBy_[def].insert(c.op);
      const OpNode& d = tree_.ops[def];
      for (size_t e = 0; e < type.elems.size(); ++e)
        leavesOf(c, std::string(d.uses[e].span.in(t_)), d.uses[e].name, d.uses[e].index, type.elems[e], true, out,
                 out_types, before);
      return;
    }
    std::string stem = text.substr(1);
    std::replace(stem.begin(), stem.end(), '#', '_');
    for (size_t e = 0; e < type.elems.size(); ++e) {
      std::string g = names().next(stem + "_" + std::to_string(e), c.op);
      before += g + " = stablehlo.get_tuple_element " + text + "[" + std::to_string(e) + "] : (" + type.text +
                ") -> " + type.elems[e].text;
      before += lineBreak(tree_.ops[c.op]);
      leavesOf(c, g, g, 0, type.elems[e], false, out, out_types, before);
    }
  }

  static void appendLeafTypes(const TypeTree& type, std::vector<std::string>& out) {
    if (!type.tuple) {
      out.push_back(type.text);
      return;
    }
    for (const TypeTree& e : type.elems) appendLeafTypes(e, out);
  }

  // What separates two lines at `op`'s indentation.
  std::string lineBreak(const OpNode& op) const { return "\n" + std::string(module_lex::indentationAt(t_, op.whole.begin)); }

  void rewriteOperands(Call& c) {
    const OpNode& op = tree_.ops[c.op];
    std::vector<std::string> operands, operandTypes;
    std::string before;
    for (size_t k = 0; k < op.uses.size(); ++k) {
      const ValueUse& u = op.uses[k];
      leavesOf(c, std::string(u.span.in(t_)), u.name, u.index, *c.operands[k], true, operands, operandTypes, before);
    }
    // The get_tuple_elements go before the call, each line ending in the
    // call's indentation.
    if (!before.empty()) ctx_.rw.insert(op.whole.begin, before);
    if (!op.uses.empty()) ctx_.rw.replace({op.uses.front().span.begin, op.uses.back().span.end}, module_lex::joinComma(operands));
    OpTypes types = opTypes(tree_, op);
    std::vector<std::string> resultTypes;
    if (c.result) {
      appendLeafTypes(*c.result, resultTypes);
      size_t n = c.result->leaves;
      if (n == 0) ctx_.rw.erase({op.results.begin, op.nameSpan.begin});
      else if (n > 1) ctx_.rw.replace(op.results, c.resultName + ":" + std::to_string(n));
    } else {
      for (std::string_view r : types.results) resultTypes.push_back(oneLine(r));
    }
    std::string sig = ": (" + module_lex::joinComma(operandTypes) + ") -> " +
                      (resultTypes.size() == 1 ? resultTypes[0] : "(" + module_lex::joinComma(resultTypes) + ")");
    ctx_.rw.replace(op.signature, sig);
  }

  // A stablehlo.tuple goes when every reader is a call that took its leaves
  // or another tuple that goes.
  void findDeadTuples() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (const auto& [def, by] : consumedBy_) {
        if (deadTuples_.count(def)) continue;
        const OpNode& d = tree_.ops[def];
        if (d.resultDefs.size() != 1) continue;
        int func = tree_.enclosingFunc(def);
        auto it = scope(func).users.find(d.resultDefs[0].name.in(t_));
        bool dead = true;
        if (it != scope(func).users.end())
          for (int u : it->second) dead = dead && (by.count(u) || deadTuples_.count(u));
        if (dead) {
          deadTuples_.insert(def);
          changed = true;
        }
      }
    }
  }

  // The uses of a flattened result (and of its erased get_tuple_elements).
  void rewriteResultUses(Call& c) {
    if (!c.result) return;
    resolveUses(c, c.resultName);
  }

  void resolveUses(Call& c, const std::string& name) {
    auto kit = known_.find(key(c.func, name));
    if (kit == known_.end()) return;
    const Known& k = kit->second;
    const FuncScope& s = scope(c.func);
    auto it = s.users.find(name);
    if (it == s.users.end()) return;
    std::string tuple;  // the rebuilt tuple, made on first need
    for (int u : it->second) {
      if (u == c.op || rewritten_.count(u) || deadTuples_.count(u)) continue;
      if (erasedGtes_.count(u) && tree_.ops[u].uses[0].name == name) {
        const OpNode& g = tree_.ops[u];
        ctx_.rw.erase(g.line);
        std::string gname(g.resultDefs[0].name.in(t_));
        auto sit = known_.find(key(c.func, gname));
        if (sit == known_.end()) continue;
        const Known& sub = sit->second;
        if (sub.type->tuple) {
          resolveUses(c, gname);
        } else {
          auto gu = s.users.find(gname);
          if (gu == s.users.end()) continue;
          for (int v : gu->second)
            if (!rewritten_.count(v) && !erasedGtes_.count(v) && !deadTuples_.count(v))
              replaceUses(tree_, ctx_.rw, std::span<const int>(&v, 1), gname, 0, sub.leaves[0]);
        }
        continue;
      }
      if (tuple.empty()) tuple = rebuild(c, *k.type, k.leaves, name);
      replaceUses(tree_, ctx_.rw, std::span<const int>(&u, 1), name, 0, tuple);
    }
  }

  // Inserts after the call the stablehlo.tuple ops that rebuild `type` from
  // `leaves`; returns the outer one's name.
  std::string rebuild(Call& c, const TypeTree& type, const std::vector<std::string>& leaves, const std::string& stem) {
    std::vector<std::string> parts;
    size_t off = 0;
    for (const TypeTree& e : type.elems) {
      std::vector<std::string> sub(leaves.begin() + off, leaves.begin() + off + e.leaves);
      off += e.leaves;
      parts.push_back(e.tuple ? rebuild(c, e, sub, stem) : sub[0]);
    }
    const OpNode& op = tree_.ops[c.op];
    std::string name = names().next(stem.substr(1) + "_tuple", c.op);
    std::string def = parts.empty() ? name + " = \"stablehlo.tuple\"() : () -> " + type.text
                                    : name + " = stablehlo.tuple " + module_lex::joinComma(parts) + " : " + type.text;
    ctx_.rw.insert(op.whole.end, lineBreak(op) + def);
    return name;
  }

  PassContext& ctx_;
  const OpTree& tree_;
  std::string_view t_;
  mutable FuncValueIndex values_;  // fills itself in on a question
  std::vector<Call> calls_;
  std::set<int> rewritten_;
  std::map<int, FuncScope> scopes_;
  std::optional<FreshNames> names_;
  std::unordered_map<std::string, Known> known_;
  std::set<int> erasedGtes_;
  std::map<int, std::set<int>> consumedBy_;
  std::set<int> deadTuples_;
};

}  // namespace

Status runCanonicalizeFromHloImport(PassContext& ctx) { return Flattener(ctx).run(); }

}  // namespace shardbridge::module
