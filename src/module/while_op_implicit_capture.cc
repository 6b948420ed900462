// stablehlo-ext-while-op-implicit-capture: shardbridge's name for the
// WhileOpImplicitCapture pattern of stablehlo-ext-canonicalize-from-hlo-import
// (upstream xla/mlir_hlo/stablehlo_ext/transforms/
// stablehlo_canonicalize_from_hlo_import.cpp). A `stablehlo.while` operand that
// the body returns unchanged (its own block argument, or the while's operand
// itself) is loop invariant: the loop stops carrying it, and the regions and
// the users of the matching result read the operand directly:
//   %0:2 = stablehlo.while(%iterArg = %a, %iterArg_0 = %b) : tensor<i32>, tensor<f32>
//     cond { ... %iterArg_0 ... }
//     do { ... stablehlo.return %x, %iterArg_0 : tensor<i32>, tensor<f32> }
//   ... %0#0 ... %0#1 ...
// becomes
//   %0 = stablehlo.while(%iterArg = %a) : tensor<i32>
//     cond { ... %b ... }
//     do { ... stablehlo.return %x : tensor<i32> }
//   ... %0 ... %b ...
// As upstream, the while keeps its other attributes as they are (an
// `mhlo.sharding` included) but projects its `mhlo.original_value` onto the
// operands it keeps, and a while with nothing invariant is left alone. Nested and chained loops are rewritten in one run: the operand a
// value is replaced by is itself taken through the replacements of the loops
// before it. See docs/module.md "Import".
#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "module/frontend_attrs.h"
#include "module/pass.h"
#include "module/rewriter.h"
#include "module/scanner.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

struct Edit {
  TextSpan span;
  std::string text;
};

// The top-level comma-separated items of `range` (blanks trimmed): the
// entries of a while header, the types of a signature. `->` and `<=` open
// nothing; strings are skipped whole.
std::vector<TextSpan> items(std::string_view t, TextSpan range) {
  std::vector<TextSpan> out;
  int depth = 0;
  size_t begin = range.begin;
  auto push = [&](size_t b, size_t e) {
    while (b < e && module_lex::isBlank(t[b])) ++b;
    while (e > b && module_lex::isBlank(t[e - 1])) --e;
    if (b < e) out.push_back({b, e});
  };
  for (size_t p = range.begin; p < range.end; ++p) {
    char c = t[p];
    if (c == '"') {
      auto end = module_lex::skipString(t, p);
      if (!end) return {};
      p = *end - 1;
    } else if (c == '(' || c == '[' || c == '{' || (c == '<' && !(p + 1 < range.end && t[p + 1] == '='))) {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && !(c == '>' && p > 0 && t[p - 1] == '-')) {
      --depth;
    } else if (c == ',' && depth == 0) {
      push(begin, p);
      begin = p + 1;
    }
  }
  push(begin, range.end);
  return out;
}

// Erasures that drop the items of `list` marked in `drop`, with the commas
// between them: a run of dropped items goes with the separator after it
// when a kept item follows, else with the one before it.
void dropItems(const std::vector<TextSpan>& list, const std::vector<bool>& drop, std::vector<Edit>& edits) {
  size_t n = list.size();
  for (size_t i = 0; i < n;) {
    if (!drop[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < n && drop[j]) ++j;  // [i, j) dropped
    if (j < n) {
      edits.push_back({{list[i].begin, list[j].begin}, ""});
    } else if (i > 0) {
      edits.push_back({{list[i - 1].end, list[j - 1].end}, ""});
    } else {
      edits.push_back({{list[0].begin, list[n - 1].end}, ""});
    }
    i = j;
  }
}

using ValueKey = std::pair<std::string, int>;  // `%0`, result index

// `open a, b, c close` without the entries marked in `drop`; nullopt when
// `text` is not such a list of exactly drop.size() entries (a sharding that
// is not one per result is left alone).
std::optional<std::string> projectList(std::string_view text, std::string_view open, std::string_view close,
                                       const std::vector<bool>& drop) {
  if (text.size() < open.size() + close.size() || !text.starts_with(open) || !text.ends_with(close))
    return std::nullopt;
  std::vector<TextSpan> list = items(text, {open.size(), text.size() - close.size()});
  if (list.size() != drop.size()) return std::nullopt;
  std::string out(open);
  bool first = true;
  for (size_t i = 0; i < list.size(); ++i) {
    if (drop[i]) continue;
    out += first ? "" : ", ";
    out += list[i].in(text);
    first = false;
  }
  return out + std::string(close);
}

// The integers of `[1, 0]` (empty for `[]`); nullopt when it is not such a list.
std::optional<std::vector<int64_t>> intList(std::string_view t, TextSpan s) {
  if (s.size() < 2 || t[s.begin] != '[' || t[s.end - 1] != ']') return std::nullopt;
  std::vector<int64_t> out;
  for (TextSpan item : items(t, {s.begin + 1, s.end - 1})) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data() + item.begin, t.data() + item.end, v);
    if (ec != std::errc() || end != t.data() + item.end || v < 0) return std::nullopt;
    out.push_back(v);
  }
  return out;
}

// `mhlo.original_value` of a while whose operands marked in `removed` go,
// as upstream's projectOriginalValueAttr writes it: element i (the leaf of
// operand i) is kept when operand i is, and each step of its shape index is
// lowered by the number of earlier siblings whose leaves all went (a tuple
// `(0, 1, ((2, 0), (2, 1)))` without its second leaf is `(0, ((1, 0), (1, 1)))`).
// A synthetic-call value is kept as it is. Errors (kParse, located): a value
// that is not `#mhlo.original_value<BOOL, [<[INDEX...], ARRAY>, ...]>`.
Result<std::string> projectOriginalValue(std::string_view t, TextSpan value, const std::vector<bool>& removed) {
  constexpr std::string_view kPrefix = "#mhlo.original_value<";
  auto malformed = [&] {
    return makeError(ErrorCode::kParse, "expected #mhlo.original_value<false, [<[index], array>, ...]>",
                     value.begin);
  };
  std::string_view v = value.in(t);
  if (!v.starts_with(kPrefix) || !v.ends_with(">")) return malformed();
  std::vector<TextSpan> parts = items(t, {value.begin + kPrefix.size(), value.end - 1});
  if (parts.size() != 2) return malformed();
  std::string_view synthetic = parts[0].in(t);
  if (synthetic == "true") return std::string(v);
  if (synthetic != "false" || t[parts[1].begin] != '[' || t[parts[1].end - 1] != ']') return malformed();
  struct Element {
    std::vector<int64_t> index;
    std::string_view array;
  };
  std::vector<Element> elements;
  for (TextSpan e : items(t, {parts[1].begin + 1, parts[1].end - 1})) {
    if (e.size() < 2 || t[e.begin] != '<' || t[e.end - 1] != '>') return malformed();
    std::vector<TextSpan> fields = items(t, {e.begin + 1, e.end - 1});
    if (fields.size() != 2) return malformed();
    std::optional<std::vector<int64_t>> index = intList(t, fields[0]);
    if (!index) return malformed();
    elements.push_back({std::move(*index), fields[1].in(t)});
  }
  // The projection compares every leaf with every other (as upstream's does).
  constexpr size_t kMaxElements = 4096;
  if (elements.size() > kMaxElements)
    return makeError(ErrorCode::kParse,
                     "mhlo.original_value with more than " + std::to_string(kMaxElements) + " elements",
                     value.begin);
  std::vector<bool> kept(elements.size());
  for (size_t i = 0; i < elements.size(); ++i) kept[i] = i < removed.size() && !removed[i];
  std::string out = "#mhlo.original_value<false, [";
  bool first = true;
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!kept[i]) continue;
    out += first ? "<[" : ", <[";
    first = false;
    std::vector<int64_t> prefix;
    for (size_t k = 0; k < elements[i].index.size(); ++k) {
      // Upstream counts the earlier siblings under which no kept leaf lies
      // (one that holds no leaf at all included): child minus those that
      // hold a kept leaf, counted over the leaves (an index may be large).
      int64_t child = elements[i].index[k];
      std::set<int64_t> holding;
      for (size_t j = 0; j < elements.size(); ++j) {
        const std::vector<int64_t>& leaf = elements[j].index;
        if (kept[j] && leaf.size() > k && std::equal(prefix.begin(), prefix.end(), leaf.begin()) && leaf[k] < child)
          holding.insert(leaf[k]);
      }
      out += (k ? ", " : "") + std::to_string(static_cast<int64_t>(holding.size()));
      prefix.push_back(child);
    }
    out += "], " + std::string(elements[i].array) + ">";
  }
  return out + "]>";
}

std::string useText(std::string_view name, int index) {
  return std::string(name) + (index ? "#" + std::to_string(index) : "");
}

class ImplicitCapture {
 public:
  explicit ImplicitCapture(PassContext& ctx) : ctx_(ctx), tree_(ctx.tree), t_(ctx.text()), uses_(ctx.tree) {}

  Status run() {
    for (int w = 0; w < static_cast<int>(tree_.ops.size()); ++w) {
      const OpNode& loop = tree_.ops[w];
      if (loop.name == "stablehlo.while" && !loop.generic) SB_TRY(rewrite(w));
    }
    // An edit inside another one (a use inside an erased entry) is covered
    // by it: the outer edit wins.
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) {
      return a.span.begin != b.span.begin ? a.span.begin < b.span.begin : a.span.end > b.span.end;
    });
    size_t coveredUntil = 0;
    bool any = false;
    for (const Edit& e : edits_) {
      if (any && e.span.end <= coveredUntil && !e.span.empty()) continue;
      ctx_.rw.replace(e.span, e.text);
      coveredUntil = std::max<size_t>(coveredUntil, e.span.end);
      any = true;
    }
    return okStatus();
  }

 private:
  // What a use of `name#index` reads after the loops rewritten so far.
  std::string resolved(std::string_view name, int index) const {
    auto it = replaced_.find({std::string(name), index});
    return it == replaced_.end() ? useText(name, index) : it->second;
  }

  void replaceAll(int func, std::string_view name, int index, const std::string& with) {
    replaced_[{std::string(name), index}] = with;
    for (const UseIndex::Entry& e : uses_.uses(func, name, index)) edits_.push_back({e.use->span, with});
  }

  Status rewrite(int w) {
    const OpNode& loop = tree_.ops[w];
    int func = tree_.enclosingFunc(w);
    if (func < 0 || loop.regions.size() != 2 || loop.regions[0].blocks.empty() || loop.regions[1].blocks.empty() ||
        loop.signature.empty())
      return okStatus();
    const TreeVec<ValueDef>& args = loop.regions[0].blocks[0].arguments;
    const TreeVec<int>& bodyOps = loop.regions[1].blocks[0].ops;
    size_t n = args.size();
    if (n == 0 || loop.uses.size() != n || bodyOps.empty()) return okStatus();
    const OpNode& ret = tree_.ops[bodyOps.back()];
    if (ret.name != "stablehlo.return" || ret.uses.size() != n || ret.signature.empty()) return okStatus();

    // The header's `(%iterArg = %init, ...)` and the two type lists.
    size_t open = module_lex::skipBlanks(t_, loop.nameSpan.end);
    if (open >= t_.size() || t_[open] != '(') return okStatus();
    SB_ASSIGN_OR_RETURN(size_t close, module_lex::skipBalanced(t_, open));
    std::vector<TextSpan> entries = items(t_, {open + 1, close - 1});
    TextSpan loopTypesRange{loop.signature.begin + 1, loop.signature.end};
    TextSpan retTypesRange{ret.signature.begin + 1, ret.signature.end};
    if (t_[loop.signature.begin] != ':' || t_[ret.signature.begin] != ':') return okStatus();
    std::vector<TextSpan> loopTypes = items(t_, loopTypesRange);
    std::vector<TextSpan> retTypes = items(t_, retTypesRange);
    if (entries.size() != n || loopTypes.size() != n || retTypes.size() != n) return okStatus();

    std::vector<bool> invariant(n, false);
    size_t kept = n;
    for (size_t i = 0; i < n; ++i) {
      const ValueUse& r = ret.uses[i];
      const ValueUse& init = loop.uses[i];
      bool own = r.index == 0 && r.name == args[i].name.in(t_);
      bool same = r.name == init.name && r.index == init.index;
      if (own || same) {
        invariant[i] = true;
        --kept;
      }
    }
    if (kept == n) return okStatus();

    // The regions and the users of result i read the operand instead.
    std::string_view result = loop.resultDefs.empty() ? std::string_view() : loop.resultDefs[0].name.in(t_);
    bool groupOfOne = loop.resultDefs.empty() || loop.resultDefs[0].count == 1;
    size_t next = 0;
    for (size_t i = 0; i < n; ++i) {
      int idx = static_cast<int>(i);
      if (invariant[i]) {
        std::string operand = resolved(loop.uses[i].name, loop.uses[i].index);
        replaceAll(func, args[i].name.in(t_), 0, operand);
        if (!result.empty()) replaceAll(func, result, groupOfOne ? 0 : idx, operand);
        continue;
      }
      // A kept result is renumbered among the kept ones.
      if (!result.empty()) {
        std::string was = groupOfOne ? std::string(result) : std::string(result) + "#" + std::to_string(i);
        std::string now = kept == 1 ? std::string(result) : std::string(result) + "#" + std::to_string(next);
        if (now != was) replaceAll(func, result, groupOfOne ? 0 : idx, now);
      }
      ++next;
    }

    // The result group, the header entries, the while's types and the
    // return's operands and types.
    if (!loop.resultDefs.empty()) {
      if (kept == 0) {
        edits_.push_back({{loop.results.begin, loop.nameSpan.begin}, ""});
      } else if (loop.resultDefs.size() == 1 && loop.resultDefs[0].count != static_cast<int>(kept)) {
        edits_.push_back({loop.results, kept == 1 ? std::string(result) : std::string(result) + ":" +
                                                                             std::to_string(kept)});
      }
    }
    dropItems(entries, invariant, edits_);
    SB_TRY(projectAttributes(loop, invariant, kept));
    if (kept == 0) {
      size_t b = loop.signature.begin;
      while (b > close && module_lex::isBlank(t_[b - 1])) --b;
      edits_.push_back({{b, loop.signature.end}, ""});
      edits_.push_back({{ret.nameSpan.end, ret.signature.end}, ""});
    } else {
      dropItems(loopTypes, invariant, edits_);
      dropItems(retTypes, invariant, edits_);
      std::vector<TextSpan> retOperands;
      for (const ValueUse& u : ret.uses) retOperands.push_back(u.span);
      dropItems(retOperands, invariant, edits_);
    }
    return okStatus();
  }

  // The while's dictionary, onto the operands it keeps: mhlo.original_value
  // as upstream; beyond upstream, which keeps them as they are (one sharding
  // per old result, which no longer fits), the per-result shardings:
  // sdy.sharding, a tuple mhlo.sharding and the round-trip xla.sdy.sharding.
  Status projectAttributes(const OpNode& loop, const std::vector<bool>& drop, size_t kept) {
    if (!loop.dict.present()) return okStatus();
    DictEditor ed(t_, loop.dict);
    if (const AttrEntry* e = loop.dict.find("mhlo.original_value"); e && !e->value.empty()) {
      SB_ASSIGN_OR_RETURN(std::string projected, projectOriginalValue(t_, e->value, drop));
      if (projected != e->value.in(t_)) ed.set("mhlo.original_value", std::move(projected));
    }
    if (const AttrEntry* e = loop.dict.find("sdy.sharding"); e && !e->value.empty()) {
      if (std::optional<std::string> p = projectList(e->value.in(t_), "#sdy.sharding_per_value<[", "]>", drop))
        kept == 0 ? ed.remove("sdy.sharding") : ed.set("sdy.sharding", std::move(*p));
    }
    if (const AttrEntry* e = loop.dict.find("mhlo.sharding"); e && !e->value.empty()) {
      SB_ASSIGN_OR_RETURN(std::string decoded, module_detail::decodeStringLiteral(e->value.in(t_)));
      std::optional<std::string> p;
      if (decoded.starts_with("{{")) p = projectList(decoded, "{", "}", drop);
      if (p) {
        // One sharding left is written bare, as a one-result op's is.
        if (kept == 1 && p->size() >= 2) *p = p->substr(1, p->size() - 2);
        kept == 0 ? ed.remove("mhlo.sharding") : ed.set("mhlo.sharding", module_detail::encodeStringLiteral(*p));
      }
    }
    if (const AttrEntry* e = loop.dict.find(kFrontendAttrs); e && !e->value.empty() && t_[e->value.begin] == '{') {
      SB_ASSIGN_OR_RETURN(AttrDictNode frontend, parseDictAt(t_, e->value.begin));
      if (const AttrEntry* s = frontend.find("xla.sdy.sharding"); s && !s->value.empty()) {
        SB_ASSIGN_OR_RETURN(std::string decoded, module_detail::decodeRoundTripLiteral(s->value.in(t_)));
        if (std::optional<std::string> p = projectList(decoded, "#sdy.sharding_per_value<[", "]>", drop)) {
          DictEditor fe(t_, frontend);
          kept == 0 ? fe.remove("xla.sdy.sharding")
                    : fe.set("xla.sdy.sharding", module_detail::encodeStringLiteral(*p));
          ed.set(kFrontendAttrs, fe.render().empty() ? "{}" : fe.render());
        }
      }
    }
    Rewriter dictEdits(t_);
    ed.commit(dictEdits, loop.dict.whole.end, /*keepEmpty=*/true);  // `attributes {}` stays valid
    for (const Rewriter::Edit& e : dictEdits.edits()) edits_.push_back({e.span, e.text});
    return okStatus();
  }

  PassContext& ctx_;
  const OpTree& tree_;
  std::string_view t_;
  UseIndex uses_;
  std::map<ValueKey, std::string> replaced_;
  std::vector<Edit> edits_;
};

}  // namespace

Status runWhileOpImplicitCapture(PassContext& ctx) { return ImplicitCapture(ctx).run(); }

}  // namespace shardbridge::module
