#include "module/text_lex.h"

#include <algorithm>
#include <cstring>
#include <functional>  // std::boyer_moore_horspool_searcher

namespace shardbridge::module_lex {

std::string describe(std::string_view t, size_t p) {
  if (p >= t.size()) return "end of input";
  unsigned char c = static_cast<unsigned char>(t[p]);
  if (c < 0x20 || c >= 0x7f) return "byte " + std::to_string(c);
  return std::string("'") + static_cast<char>(c) + "'";
}

size_t skipBlanks(std::string_view t, size_t p) {
  while (p < t.size()) {
    char c = t[p];
    if (isBlank(c)) {
      ++p;
    } else if (c == '/' && p + 1 < t.size() && t[p + 1] == '/') {
      while (p < t.size() && t[p] != '\n') ++p;
    } else {
      break;
    }
  }
  return p;
}

size_t skipValueName(std::string_view t, size_t p) {
  ++p;
  while (p < t.size() && (isIdentChar(t[p]) || t[p] == '#')) {
    if (t[p] == '#') break;
    ++p;
  }
  return p;
}

namespace {

// The first position at or after `p` whose byte is of class `cls`, or `n`;
// four bytes a round, with one bound test per round.
inline size_t skipToClass(const char* s, size_t p, size_t n, uint8_t cls) {
  while (p + 4 <= n) {
    if (char_class::is(s[p], cls)) return p;
    if (char_class::is(s[p + 1], cls)) return p + 1;
    if (char_class::is(s[p + 2], cls)) return p + 2;
    if (char_class::is(s[p + 3], cls)) return p + 3;
    p += 4;
  }
  while (p < n && !char_class::is(s[p], cls)) ++p;
  return p;
}

// At '"': past the closing quote, or npos for an unterminated literal (a
// line break or the end of input before the closing quote).
inline size_t stringEnd(const char* s, size_t p, size_t n) {
  ++p;
  while (true) {
    p = skipToClass(s, p, n, char_class::kString);
    if (p >= n) return std::string_view::npos;
    char c = s[p];
    if (c == '"') return p + 1;
    if (c == '\n') return std::string_view::npos;
    // '\\': the escaped byte, whatever it is.
    p += 2;
    if (p > n) return std::string_view::npos;
  }
}

}  // namespace

Result<size_t> skipString(std::string_view t, size_t p) {
  size_t e = stringEnd(t.data(), p, t.size());
  if (e == std::string_view::npos) return parseError("unterminated string literal", p);
  return e;
}

Result<size_t> skipBalanced(std::string_view t, size_t p) {
  char stack[4096];
  size_t depth = 0;
  size_t start = p;
  const char* s = t.data();
  const size_t n = t.size();
  while (p < n) {
    p = skipToClass(s, p, n, char_class::kBalance);
    if (p >= n) break;
    char c = s[p];
    switch (c) {
      case '"': {
        size_t e = stringEnd(s, p, n);
        if (e == std::string_view::npos) return parseError("unterminated string literal", p);
        p = e;
        continue;
      }
      case '(':
      case '[':
      case '{':
      case '<':
        if (c == '<' && p + 1 < n && s[p + 1] == '=') {
          p += 2;
          continue;
        }
        if (depth == sizeof(stack)) return parseError("nesting deeper than 4096 levels", p);
        stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>';
        ++p;
        continue;
      case ')':
      case ']':
      case '}':
      case '>':
        if (depth == 0 || stack[depth - 1] != c) {
          if (c == '>') {  // a stray '>' (e.g. `>=` in text) inside another bracket
            ++p;
            continue;
          }
          return parseError(std::string("unbalanced '") + c + "'", p);
        }
        --depth;
        ++p;
        if (depth == 0) return p;
        continue;
      case '-':
        p += (p + 1 < n && s[p + 1] == '>') ? 2 : 1;
        continue;
      default:
        ++p;
    }
  }
  return parseError("unexpected end of input: '" + std::string(1, t[start]) + "' opened here is not closed",
                    start);
}

Result<size_t> skipAttrValue(std::string_view t, size_t p) {
  size_t begin = p;
  while (p < t.size()) {
    p = skipToClass(t.data(), p, t.size(), char_class::kValue);
    if (p >= t.size()) break;
    char c = t[p];
    if (c == ',' || c == '}') {
      // Not the blanks before it: a dictionary wrapped over lines puts a
      // line break and indentation after its last value.
      while (p > begin && isBlank(t[p - 1])) --p;
      return p;
    }
    if (c == '"') {
      SB_ASSIGN_OR_RETURN(p, skipString(t, p));
    } else if (c == '(' || c == '[' || c == '{' || (c == '<' && !(p + 1 < t.size() && t[p + 1] == '='))) {
      SB_ASSIGN_OR_RETURN(p, skipBalanced(t, p));
    } else if (c == ')' || c == ']') {
      return parseError(std::string("unbalanced '") + c + "'", p);
    } else if (c == '-' && p + 1 < t.size() && t[p + 1] == '>') {
      p += 2;
    } else {
      ++p;
    }
  }
  return parseError("unexpected end of input in an attribute dictionary", p);
}

bool looksLikeDict(std::string_view t, size_t p) {
  size_t q = skipBlanks(t, p + 1);
  if (q >= t.size()) return false;
  // A dictionary wrapped after its '{' (hand-written lit tests, some dumps)
  // and a region both put a line break there. Wrapped, only `key =` or
  // `key,` is a dictionary: no op starts with a bare name followed by '='
  // or ',' (results are `%x =`, labels `^bb`), while `{\n}` and a lone
  // `name }` are read as a region (an empty region, or one holding just
  // `return` / `sdy.return`).
  bool wrapped = false;
  for (size_t r = p + 1; r < q; ++r)
    if (t[r] == '\n') wrapped = true;
  if (t[q] == '}') return !wrapped;
  if (t[q] == '"') {
    auto e = skipString(t, q);
    if (!e) return false;
    q = *e;
  } else if (isIdentStart(t[q])) {
    while (q < t.size() && isIdentChar(t[q])) ++q;
  } else {
    return false;
  }
  q = skipBlanks(t, q);
  if (q >= t.size()) return false;
  if (t[q] == '=') return q + 1 >= t.size() || t[q + 1] != '=';
  return t[q] == ',' || (t[q] == '}' && !wrapped);
}

module::TextSpan wholeLines(std::string_view t, module::TextSpan s) {
  size_t b = s.begin;
  while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t')) --b;
  if (b > 0 && t[b - 1] != '\n') return s;
  size_t e = s.end;
  while (e < t.size() && (t[e] == ' ' || t[e] == '\t')) ++e;
  if (e + 1 < t.size() && t[e] == '/' && t[e + 1] == '/') return s;  // keep a trailing comment's line
  if (e < t.size() && t[e] == '\r') ++e;
  if (e < t.size() && t[e] != '\n') return s;
  if (e < t.size()) ++e;
  return {b, e};
}

std::string_view indentationAt(std::string_view t, size_t p) {
  size_t b = p;
  while (b > 0 && t[b - 1] != '\n') --b;
  size_t e = b;
  while (e < t.size() && (t[e] == ' ' || t[e] == '\t')) ++e;
  return t.substr(b, e - b);
}

namespace {

// The bytes of MLIR text from the most common to the rarer (counted over
// JAX, PyTorch/XLA and hand-written modules); any byte not listed is rarer
// still. contains() looks for a needle's rarest byte.
constexpr std::string_view kByteFrequencyOrder = " oe1ltsxrc26an04>8,3b<.=()%\"5f_hid7#\np9:mug-[]y{}v@wE/Ck";

size_t rarestByteIndex(std::string_view needle) {
  size_t best = 0, bestRank = 0;
  for (size_t i = 0; i < needle.size(); ++i) {
    size_t at = kByteFrequencyOrder.find(needle[i]);
    size_t rank = at == std::string_view::npos ? kByteFrequencyOrder.size() : at;
    if (i == 0 || rank > bestRank) {
      best = i;
      bestRank = rank;
    }
  }
  return best;
}

size_t horspoolFind(std::string_view hay, std::string_view needle) {
  // Horspool: the byte under the needle's last position says how far the
  // needle may move (up to its length).
  std::boyer_moore_horspool_searcher search(needle.begin(), needle.end());
  auto it = std::search(hay.begin(), hay.end(), search);
  return it == hay.end() ? std::string_view::npos : static_cast<size_t>(it - hay.begin());
}

}  // namespace

size_t find(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return 0;
  if (needle.size() > hay.size()) return std::string_view::npos;
  // memchr (vectorised) for the needle's rarest byte, then a compare at each
  // hit: the prefilters' words (`sdy.manual_computation`, `stablehlo.while`)
  // hold a byte that a module has once in a few hundred, so most of the text
  // goes by at memchr's speed. Where that byte turns out common (more than
  // one hit in 256 bytes), Horspool takes over from there. The anchor's hits
  // come in text order, so the first match is the first occurrence.
  const size_t k = rarestByteIndex(needle);
  const char anchor = needle[k];
  const char* s = hay.data();
  const size_t m = needle.size();
  const size_t last = hay.size() - m + k;  // the last position the anchor can match at
  size_t from = k;
  size_t misses = 0;
  while (from <= last) {
    const void* hit = memchr(s + from, anchor, last - from + 1);
    if (hit == nullptr) return std::string_view::npos;
    const size_t q = static_cast<size_t>(static_cast<const char*>(hit) - s);
    if (memcmp(s + q - k, needle.data(), m) == 0) return q - k;
    from = q + 1;
    if (++misses > 64 && misses * 256 > from) {
      size_t at = horspoolFind(hay.substr(from - k), needle);
      return at == std::string_view::npos ? at : at + from - k;
    }
  }
  return std::string_view::npos;
}

bool contains(std::string_view hay, std::string_view needle) { return find(hay, needle) != std::string_view::npos; }

std::string_view trimBlanks(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

std::string joinComma(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) s += ", ";
    s += items[i];
  }
  return s;
}

std::string symbolRef(std::string_view name) {
  for (char c : name)
    if (!isIdentChar(c)) return "@\"" + std::string(name) + "\"";
  return "@" + std::string(name);
}

std::string reindent(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  size_t p = 0;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(p, e - p);
    if (line.starts_with(from)) line.remove_prefix(from.size());
    if (!line.empty()) out.append(to).append(line);
    if (e < text.size()) out += '\n';
    p = e + 1;
  }
  return out;
}

std::string_view symbolAt(std::string_view t, size_t p) {
  size_t b = p + 1;
  if (b < t.size() && t[b] == '"') {
    size_t e = t.find('"', b + 1);
    return e == std::string_view::npos ? std::string_view() : t.substr(b + 1, e - b - 1);
  }
  size_t e = b;
  while (e < t.size() && isIdentChar(t[e])) ++e;
  return t.substr(b, e - b);
}

std::optional<std::pair<std::string_view, std::string_view>> typeAliasLine(std::string_view line) {
  if (!line.starts_with('!')) return std::nullopt;
  size_t eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view name = line.substr(0, eq), def = line.substr(eq + 1);
  while (!name.empty() && isBlank(name.back())) name.remove_suffix(1);
  while (!def.empty() && isBlank(def.front())) def.remove_prefix(1);
  while (!def.empty() && isBlank(def.back())) def.remove_suffix(1);
  if (name.size() < 2 || def.empty()) return std::nullopt;
  return std::make_pair(name, def);
}

}  // namespace shardbridge::module_lex
