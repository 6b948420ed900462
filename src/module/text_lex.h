// Byte-level lexing of MLIR text shared by the op tree parser and the passes:
// identifiers, value names, string literals, balanced brackets, attribute
// values, blanks and `//` comments. Every function takes the text and a
// position and returns a position; nothing allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include <utility>
#include <optional>

#include "shardbridge/base/result.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module_lex {

// Character classes as one table lookup each: the lexing loops below run
// once per byte of every parse, and a chain of comparisons per byte was a
// measurable part of a module pipeline's time (docs/performance.md, "Module
// throughput").
namespace char_class {
inline constexpr uint8_t kIdentStart = 1;  // a-z A-Z _
inline constexpr uint8_t kIdentChar = 2;   // the above, 0-9 $ . -
inline constexpr uint8_t kBlank = 4;       // space \t \n \r
inline constexpr uint8_t kBalance = 8;     // what skipBalanced stops at: " ( [ { < ) ] } > -
inline constexpr uint8_t kString = 16;     // what skipString stops at: " \\ \n
inline constexpr uint8_t kValue = 32;      // what skipAttrValue stops at: , } " ( [ { < ) ] -
struct Table {
  uint8_t v[256] = {};
  constexpr Table() {
    for (int c = 0; c < 256; ++c) {
      bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      if (start) v[c] |= kIdentStart | kIdentChar;
      if ((c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-') v[c] |= kIdentChar;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') v[c] |= kBlank;
    }
    for (char c : {'"', '(', '[', '{', '<', ')', ']', '}', '>', '-'}) v[static_cast<unsigned char>(c)] |= kBalance;
    for (char c : {'"', '\\', '\n'}) v[static_cast<unsigned char>(c)] |= kString;
    for (char c : {',', '}', '"', '(', '[', '{', '<', ')', ']', '-'}) v[static_cast<unsigned char>(c)] |= kValue;
  }
};
inline constexpr Table kTable{};
inline bool is(char c, uint8_t cls) { return (kTable.v[static_cast<unsigned char>(c)] & cls) != 0; }
}  // namespace char_class

inline bool isIdentStart(char c) { return char_class::is(c, char_class::kIdentStart); }
inline bool isIdentChar(char c) { return char_class::is(c, char_class::kIdentChar); }
inline bool isBlank(char c) { return char_class::is(c, char_class::kBlank); }

inline Error parseError(std::string message, size_t offset) {
  return makeError(ErrorCode::kParse, std::move(message), offset);
}

// `'c'`, "byte N" for a control or non-ASCII byte, or "end of input".
std::string describe(std::string_view t, size_t p);

// Past blanks and `//` comments.
size_t skipBlanks(std::string_view t, size_t p);

// At '%': past the value name (`%0`, `%arg0`, `%iterArg_1`), `#i` excluded.
size_t skipValueName(std::string_view t, size_t p);

// At '@': the symbol name after it, quotes stripped (`@mesh`, `@"a b"`);
// empty when none follows.
std::string_view symbolAt(std::string_view t, size_t p);

// At '"': past the closing quote. Errors: an unterminated string literal.
Result<size_t> skipString(std::string_view t, size_t p);

// At an opening bracket ( [ { <: past its match. `->` and `<=` open nothing.
// Errors: unbalanced or unclosed brackets, nesting deeper than 4096.
Result<size_t> skipBalanced(std::string_view t, size_t p);

// At an attribute value inside a dictionary: past it (up to the `,` or `}`
// that ends it at depth 0, the blanks before that excluded).
Result<size_t> skipAttrValue(std::string_view t, size_t p);

// At '{': whether it opens an attribute dictionary (`{}`, `{key = ...`,
// `{unit, ...`, `{"key" = ...`, `{unit}`) rather than a region. With a line
// break after the '{' only `key = ...` and `unit, ...` are dictionaries.
bool looksLikeDict(std::string_view t, size_t p);

// `s` widened to whole lines (leading blanks and the line break after it)
// when only blanks precede it on its first line and only blanks or a
// comment follow it on its last; otherwise `s`.
module::TextSpan wholeLines(std::string_view t, module::TextSpan s);

// The indentation (blanks) of the line holding offset `p`.
std::string_view indentationAt(std::string_view t, size_t p);

// `s` without its leading and trailing blanks.
std::string_view trimBlanks(std::string_view s);

// Whether `needle` occurs in `hay`. The passes' prefilters ask this of the
// whole module, so it skips ahead as far as the needle allows
// (docs/performance.md, "The module pipelines' hot spots").
bool contains(std::string_view hay, std::string_view needle);
// The offset of the first occurrence of `needle` in `hay` (npos when there
// is none; 0 for an empty needle), found as contains() finds it.
size_t find(std::string_view hay, std::string_view needle);
// What replaces a span removed just before `t[at]`: a blank when a word
// starts there (so that it does not join the word before the span), else
// nothing. For removals after a word, such as a module's ` attributes {...}`.
inline std::string_view gapBefore(std::string_view t, size_t at) {
  return at < t.size() && isIdentChar(t[at]) ? " " : "";
}

// Where the word `word` starts when it is the last thing before `t[at]`
// (blanks between), else npos: a module's `attributes` keyword before its
// dictionary, which the op tree and the scanner both look back for.
inline size_t wordBefore(std::string_view t, size_t at, std::string_view word) {
  while (at > 0 && isBlank(t[at - 1])) --at;
  if (at < word.size() || t.substr(at - word.size(), word.size()) != word) return std::string_view::npos;
  return at - word.size();
}

// The strings joined by ", " (an operand or type list as MLIR prints it).
std::string joinComma(const std::vector<std::string>& items);

// `@name`, quoted (`@"a.b"`) when the name is not a bare identifier.
std::string symbolRef(std::string_view name);

// `text` with the prefix `from` taken off each line that starts with it and
// `to` put before each non-empty line: a region's ops moved to another depth.
std::string reindent(std::string_view text, std::string_view from, std::string_view to);

// A type alias definition line `!name = definition` (blanks trimmed): the
// name with its '!' and the definition; nullopt for any other line.
std::optional<std::pair<std::string_view, std::string_view>> typeAliasLine(std::string_view line);

}  // namespace shardbridge::module_lex
