#include "module/op_types.h"

#include "module/text_lex.h"
#include "shardbridge/sdy/mlir_type.h"

namespace shardbridge::module {
namespace {


// The offset of the top-level `->` in `s`, or npos.
size_t topLevelArrow(std::string_view s) {
  int depth = 0;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}' || (c == '>' && depth > 0 && s[i - 1] != '-')) --depth;
    else if (c == '-' && s[i + 1] == '>' && depth == 0) return i;
  }
  return std::string_view::npos;
}

// Whether every bracket of a signature closes the last one opened (a `>`
// after `-` is an arrow's, and strings are skipped). A stray `>` (a type
// like `tensoprivatxf32>`) would move the top-level arrow, and the types
// read would not be the op's.
bool bracketsMatch(std::string_view s) {
  std::string open;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\') ++i;
      if (i >= s.size()) return false;
    } else if (c == '(' || c == '<' || c == '[' || c == '{') {
      open.push_back(c == '(' ? ')' : c == '<' ? '>' : c == '[' ? ']' : '}');
    } else if (c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && s[i - 1] == '-'))) {
      if (open.empty() || open.back() != c) return false;
      open.pop_back();
    }
  }
  return open.empty();
}

// splitTypeList's parts, as views of `text`.
template <typename Part>
std::vector<Part> splitTypes(std::string_view text) {
  std::vector<Part> out;
  int depth = 0;
  size_t b = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '(' || c == '<' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || (c == '>' && depth > 0 && !(i > 0 && text[i - 1] == '-'))) {
      --depth;
    } else if (c == ',' && depth == 0) {
      std::string_view part = module_lex::trimBlanks(text.substr(b, i - b));
      if (!part.empty()) out.emplace_back(part);
      b = i + 1;
    }
  }
  return out;
}

// `(a, b)` -> [a, b]; `a` -> [a].
std::vector<std::string_view> typeGroup(std::string_view s) {
  s = module_lex::trimBlanks(s);
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')' && topLevelArrow(s) == std::string_view::npos)
    return splitTypes<std::string_view>(s.substr(1, s.size() - 2));
  return splitTypes<std::string_view>(s);
}

}  // namespace

std::vector<std::string> splitTypeList(std::string_view text) { return splitTypes<std::string>(text); }

OpTypes opTypes(const OpTree& tree, const OpNode& op) {
  OpTypes t;
  std::string_view s = op.signature.in(tree.text);
  if (s.empty() || s.front() != ':') return t;
  s = module_lex::trimBlanks(s.substr(1));
  if (!bracketsMatch(s)) return t;
  t.known = true;
  size_t arrow = topLevelArrow(s);
  if (arrow == std::string_view::npos) {
    t.results = splitTypes<std::string_view>(s);
    return t;
  }
  t.operands = typeGroup(s.substr(0, arrow));
  t.results = typeGroup(s.substr(arrow + 2));
  return t;
}

std::vector<std::string> typeStrings(const std::vector<std::string_view>& types) {
  return std::vector<std::string>(types.begin(), types.end());
}

int resultCount(const OpNode& op) {
  int n = 0;
  for (const ResultDef& r : op.resultDefs) n += r.count;
  return n;
}

namespace {
// The rank of a plain ranked tensor of a common element type,
// `tensor<16x64xf32>` (2), `tensor<f32>` (0), else -1: exactly what
// parseMlirType reads as a ranked tensor when spelled without blanks,
// leading zeros aside (sizes of at most 18 digits cannot overflow). The
// passes ask isShapedType and typeRank of every operand and result;
// parseMlirType builds the whole type to answer (docs/performance.md, "The
// module pipelines' hot spots").
int64_t plainRankedTensorRank(std::string_view t) {
  constexpr std::string_view kOpen = "tensor<";
  if (!t.starts_with(kOpen) || !t.ends_with('>')) return -1;
  std::string_view body = t.substr(kOpen.size(), t.size() - kOpen.size() - 1);
  int64_t rank = 0;
  // Dimensions: (digits|?) 'x', repeated.
  while (!body.empty() && (body[0] == '?' || (body[0] >= '0' && body[0] <= '9'))) {
    size_t n = 1;
    if (body[0] != '?')
      while (n < body.size() && body[n] >= '0' && body[n] <= '9') ++n;
    if (n > 18 || n >= body.size() || body[n] != 'x') return -1;
    body.remove_prefix(n + 1);
    ++rank;
  }
  static constexpr std::string_view kElements[] = {"f32",  "bf16", "f16",  "f64",  "i1",   "i8",
                                                   "i16",  "i32",  "i64",  "ui8",  "ui16", "ui32",
                                                   "ui64", "si8",  "si16", "si32", "si64"};
  for (std::string_view e : kElements)
    if (body == e) return rank;
  return -1;
}
}  // namespace

int64_t typeRank(std::string_view type) {
  if (int64_t rank = plainRankedTensorRank(type); rank >= 0) return rank;
  auto t = parseMlirType(type);
  if (!t || t->kind != MlirType::Kind::kRankedTensor) return 0;
  return t->rank();
}

bool isShapedType(std::string_view type) {
  if (plainRankedTensorRank(type) >= 0) return true;
  auto t = parseMlirType(type);
  return t && t->isShaped();
}

// The `[i]` of a get_tuple_element (`{index = i : i32}` in the generic form), or -1.
int tupleElementIndex(std::string_view t, const OpNode& op) {
  if (op.name != "stablehlo.get_tuple_element" || op.uses.size() != 1 || op.resultDefs.size() != 1) return -1;
  std::string_view n;
  if (op.generic) {
    const AttrEntry* e = op.dict.find("index");
    if (!e) return -1;
    n = e->value.in(t);
    n = n.substr(0, n.find(':'));
    while (!n.empty() && module_lex::isBlank(n.back())) n.remove_suffix(1);
  } else {
    size_t p = op.uses[0].span.end;
    if (p >= t.size() || t[p] != '[') return -1;
    size_t e = t.find(']', p);
    if (e == std::string_view::npos) return -1;
    n = t.substr(p + 1, e - p - 1);
  }
  if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string_view::npos) return -1;
  return std::stoi(std::string(n));
}

}  // namespace shardbridge::module
