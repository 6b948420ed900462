// stablehlo-ext-fold-tuples-and-reshapes: shardbridge's name for three of
// the patterns stablehlo-ext-canonicalize-from-hlo-import applies (upstream
// xla/mlir_hlo/stablehlo_ext/transforms/stablehlo_canonicalize_from_hlo_import.cpp,
// which adds stablehlo's populateStablehloHloImportCanonicalizationPatterns,
// stablehlo/transforms/optimization/StablehloAggressiveSimplification.cpp and
// StablehloAggressiveSimplificationPatterns.td at the stablehlo commit the
// pinned XLA uses):
// - ReshapeOp_RemoveNoop (ReshapeIsNoop): a `stablehlo.reshape` whose result
//   type is its operand's is replaced by the operand; its attributes are
//   merged into the operand's defining op (mergeDiscardableAttributes: the
//   reshape's win, `mhlo.frontend_attributes` merged key by key, the
//   surviving op keeping its own `xla_metadata_payload`);
// - GetTupleElementOp_UnpackTuple (TupleIsUnpacked): `get_tuple_element` of
//   a `stablehlo.tuple` is the tuple's operand;
// - TupleIsRepacking: `stablehlo.tuple` of `get_tuple_element %x[0]`, ...,
//   `[n-1]` of one `%x` of the tuple's type is `%x`.
//   %t = stablehlo.tuple %a, %b : tuple<A, B>
//   %0 = stablehlo.get_tuple_element %t[1] : (tuple<A, B>) -> B
//   %1 = stablehlo.add %0, %0 : B
// becomes `%1 = stablehlo.add %b, %b : B` (the tuple, read by nothing else,
// goes).
// As upstream's greedy driver (top-down, folding off) applies them: ops are
// visited in text order, each seeing the replacements made before it; an op
// whose results are unused when it is reached is erased upstream without
// being rewritten, so it is left as it is here (the general erasure of dead
// pure ops is not done); a reshape, tuple or get_tuple_element whose last
// reader a rewrite removed goes, as upstream's driver erases it. The
// flattening of custom-call tuples (canonicalize_from_hlo_import.cc), which
// upstream applies in the same driver, runs before this step; the while-loop
// captures after it. See docs/module.md "Import".
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "module/op_types.h"
#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// A value: `%name` and its index in the op's result group.
using FoldValue = std::pair<std::string_view, int>;
// Hashed, not ordered: the maps below are only looked up, never walked, and
// a function has thousands of values (a std::map's compares were most of
// the pass on real dumps).
struct FoldValueHash {
  size_t operator()(const FoldValue& v) const {
    return std::hash<std::string_view>()(v.first) * 31 + static_cast<size_t>(v.second);
  }
};

// `s` without blanks between tokens collapsed to one (types compared as MLIR
// would, whatever their spacing).
std::string typeKey(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : module_lex::trimBlanks(s)) {
    if (module_lex::isBlank(c)) {
      blank = true;
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

class TupleReshapeFolder {
 public:
  TupleReshapeFolder(PassContext& ctx, int func)
      : ctx_(ctx), tree_(ctx.tree), t_(ctx.text()), func_(func), ops_(opsInside(ctx.tree, func)) {}

  Status run() {
    // The value maps below take an entry for every def and use of the
    // function: a function without an op to fold is left before them.
    if (std::none_of(ops_.begin(), ops_.end(), [&](int i) { return isFoldable(tree_.ops[i].name); }))
      return okStatus();
    for (int i : ops_) {
      const OpNode& op = tree_.ops[i];
      int k = 0;
      for (const ResultDef& d : op.resultDefs)
        for (int j = 0; j < d.count; ++j) defs_[{d.name.in(t_), j}] = {i, k++};
      for (const ValueUse& u : op.uses) ++uses_[{u.name, u.index}];
    }
    for (int i : ops_) {
      if (erased_.count(i)) continue;
      const OpNode& op = tree_.ops[i];
      if (op.name == "stablehlo.reshape") {
        foldReshape(i);
      } else if (op.name == "stablehlo.get_tuple_element") {
        foldGetTupleElement(i);
      } else if (op.name == "stablehlo.tuple") {
        foldRepacking(i);
      }
    }
    return write();
  }

 private:
  struct Def {
    int op = -1;
    int result = 0;
  };

  static bool isFoldable(std::string_view name) {
    return name == "stablehlo.reshape" || name == "stablehlo.get_tuple_element" || name == "stablehlo.tuple";
  }

  FoldValue resolve(FoldValue v) const {
    for (auto it = repl_.find(v); it != repl_.end(); it = repl_.find(v)) v = it->second;
    return v;
  }
  std::string textOf(FoldValue v) const {
    auto d = defs_.find(v);
    bool group = d != defs_.end() && resultCount(tree_.ops[d->second.op]) > 1;
    return std::string(v.first) + (group ? "#" + std::to_string(v.second) : std::string());
  }
  // The live op defining `v`, or -1 (a block argument, or erased).
  int liveDef(FoldValue v) const {
    auto d = defs_.find(v);
    if (d == defs_.end() || erased_.count(d->second.op)) return -1;
    return d->second.op;
  }
  bool unused(const OpNode& op) const {
    for (const ResultDef& d : op.resultDefs)
      for (int j = 0; j < d.count; ++j) {
        auto u = uses_.find({d.name.in(t_), j});
        if (u != uses_.end() && u->second > 0) return false;
      }
    return true;
  }
  FoldValue resultOf(const OpNode& op) const { return {op.resultDefs[0].name.in(t_), 0}; }

  // `from` (the single result of op `i`) is `to` from now on; op `i` goes.
  void replaceAndErase(int i, FoldValue to) {
    FoldValue from = resultOf(tree_.ops[i]);
    repl_[from] = to;
    uses_[to] += uses_[from];
    uses_[from] = 0;
    erase(i);
  }

  // Erases op `i`; a reshape, tuple or get_tuple_element left without
  // readers goes too (upstream's driver erases the trivially dead op).
  void erase(int i) {
    std::vector<int> work = {i};
    while (!work.empty()) {
      int o = work.back();
      work.pop_back();
      if (!erased_.insert(o).second) continue;
      for (const ValueUse& u : tree_.ops[o].uses) {
        FoldValue v = resolve({u.name, u.index});
        if (--uses_[v] > 0) continue;
        int d = liveDef(v);
        if (d < 0) continue;
        const OpNode& def = tree_.ops[d];
        if ((def.name == "stablehlo.reshape" || def.name == "stablehlo.tuple" ||
             def.name == "stablehlo.get_tuple_element") &&
            unused(def))
          work.push_back(d);
      }
    }
  }

  void foldReshape(int i) {
    const OpNode& op = tree_.ops[i];
    if (op.uses.size() != 1 || op.resultDefs.size() != 1 || op.resultDefs[0].count != 1 || unused(op)) return;
    OpTypes types = opTypes(tree_, op);
    if (!types.known || types.operands.size() != 1 || types.results.size() != 1 ||
        typeKey(types.operands[0]) != typeKey(types.results[0]))
      return;
    FoldValue src = resolve({op.uses[0].name, op.uses[0].index});
    int dest = liveDef(src);
    if (dest >= 0 && op.dict.present() && !op.dict.entries.empty()) merge(i, dest);
    replaceAndErase(i, src);
  }

  void foldGetTupleElement(int i) {
    const OpNode& op = tree_.ops[i];
    int index = tupleElementIndex(t_, op);
    if (index < 0 || op.resultDefs[0].count != 1 || unused(op)) return;
    int tuple = liveDef(resolve({op.uses[0].name, op.uses[0].index}));
    if (tuple < 0 || tree_.ops[tuple].name != "stablehlo.tuple") return;
    const OpNode& t = tree_.ops[tuple];
    if (static_cast<size_t>(index) >= t.uses.size()) return;
    replaceAndErase(i, resolve({t.uses[index].name, t.uses[index].index}));
  }

  void foldRepacking(int i) {
    const OpNode& op = tree_.ops[i];
    if (op.uses.empty() || op.resultDefs.size() != 1 || op.resultDefs[0].count != 1 || unused(op)) return;
    OpTypes own = opTypes(tree_, op);
    if (!own.known || own.results.size() != 1) return;
    std::optional<FoldValue> source;
    for (size_t k = 0; k < op.uses.size(); ++k) {
      int g = liveDef(resolve({op.uses[k].name, op.uses[k].index}));
      if (g < 0 || tupleElementIndex(t_, tree_.ops[g]) != static_cast<int>(k)) return;
      const OpNode& gte = tree_.ops[g];
      FoldValue from = resolve({gte.uses[0].name, gte.uses[0].index});
      if (source && *source != from) return;
      if (!source) {
        // The type of the tuple read: the get_tuple_element's operand type.
        OpTypes gt = opTypes(tree_, gte);
        if (!gt.known || gt.operands.size() != 1 || typeKey(gt.operands[0]) != typeKey(own.results[0])) return;
        source = from;
      }
    }
    replaceAndErase(i, *source);
  }

  // The attributes of reshape `from` merged into those op `into` has by now.
  void merge(int from, int into) {
    auto it = merged_.find(into);
    if (it == merged_.end()) {
      std::vector<std::pair<std::string, std::string>> own;
      for (const AttrEntry& e : tree_.ops[into].dict.entries)
        own.push_back({std::string(e.name), std::string(e.value.in(t_))});
      it = merged_.emplace(into, std::move(own)).first;
    }
    auto& attrs = it->second;
    for (const AttrEntry& e : tree_.ops[from].dict.entries) {
      std::string value(e.value.in(t_));
      auto dest = std::find_if(attrs.begin(), attrs.end(), [&](const auto& a) { return a.first == e.name; });
      if (e.name == "mhlo.frontend_attributes" && dest != attrs.end()) value = mergedFrontend(dest->second, value);
      if (dest != attrs.end()) {
        dest->second = value;
      } else {
        attrs.push_back({std::string(e.name), value});
      }
    }
  }

  // Two `{...}` frontend dictionaries merged: `src`'s entries win, except
  // `xla_metadata_payload`, which `dest` keeps; sorted, as MLIR prints them.
  static std::string mergedFrontend(const std::string& dest, const std::string& src) {
    Result<AttrDictNode> d = parseAttrDict(dest, 0), s = parseAttrDict(src, 0);
    if (!d || !s) return src;
    std::map<std::string, std::string> entries;
    for (const AttrEntry& e : d->entries) entries[std::string(e.name)] = std::string(e.value.in(dest));
    for (const AttrEntry& e : s->entries) {
      if (e.name == "xla_metadata_payload" && entries.count("xla_metadata_payload")) continue;
      entries[std::string(e.name)] = std::string(e.value.in(src));
    }
    std::string out = "{";
    for (const auto& [k, v] : entries) out += (out.size() > 1 ? ", " : "") + printAttrKey(k) + (v.empty() ? "" : " = " + v);
    return out + "}";
  }

  Status write() {
    for (int i : ops_) {
      if (erased_.count(i)) {
        // An op inside an erased one goes with it.
        if (!erasedParent(i)) ctx_.rw.erase(tree_.ops[i].line);
        continue;
      }
      if (erasedParent(i)) continue;
      for (const ValueUse& u : tree_.ops[i].uses) {
        FoldValue v = resolve({u.name, u.index});
        if (v != FoldValue{u.name, u.index}) ctx_.rw.replace(u.span, textOf(v));
      }
    }
    for (const auto& [op, attrs] : merged_) {
      const OpNode& dest = tree_.ops[op];
      if (!dest.dict.present()) {
        std::string body = "{";
        for (const auto& [k, v] : attrs) body += (body.size() > 1 ? ", " : "") + printAttrKey(k) + (v.empty() ? "" : " = " + v);
        insertDict(ctx_.rw, tree_, dest, body + "}");
        continue;
      }
      DictEditor ed(t_, dest.dict);
      for (const auto& [k, v] : attrs) {
        const AttrEntry* e = dest.dict.find(k);
        if (!e || e->value.in(t_) != v) ed.set(k, v);
      }
      if (ed.changed()) ed.commit(ctx_.rw, dest.dict.whole.begin);
    }
    return okStatus();
  }

  bool erasedParent(int i) const {
    for (int p = tree_.ops[i].parent; p >= 0 && p != func_; p = tree_.ops[p].parent)
      if (erased_.count(p)) return true;
    return false;
  }

  PassContext& ctx_;
  const OpTree& tree_;
  std::string_view t_;
  int func_;
  std::vector<int> ops_;
  std::unordered_map<FoldValue, Def, FoldValueHash> defs_;
  std::unordered_map<FoldValue, int, FoldValueHash> uses_;
  std::unordered_map<FoldValue, FoldValue, FoldValueHash> repl_;
  std::set<int> erased_;
  std::map<int, std::vector<std::pair<std::string, std::string>>> merged_;
};

}  // namespace

Status runFoldTuplesAndReshapes(PassContext& ctx) {
  for (int i = 0; i < static_cast<int>(ctx.tree.ops.size()); ++i)
    if (ctx.tree.ops[i].name == "func.func" && !ctx.tree.ops[i].regions.empty())
      SB_TRY(TupleReshapeFolder(ctx, i).run());
  return okStatus();
}

}  // namespace shardbridge::module
