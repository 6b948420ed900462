// The old single-pass scanner's Scanner class (scanner.h), shared by
// scanner.cc (the statement loop and dictionaries) and scanner_ops.cc (the
// module, func, mesh, constraint and manual-computation constructs).
// Internal to src/module/.
#pragma once

#include <optional>
#include <string>

#include "module/scanner.h"
#include "module/text_lex.h"

namespace shardbridge::module_detail::scan_impl {

using module_lex::isBlank;
using module_lex::isIdentChar;
using module_lex::isIdentStart;
inline bool isValueIdChar(char c) {
  return isIdentChar(c) || c == '#';
}

inline Error parseError(std::string message, size_t offset) {
  return makeError(ErrorCode::kParse, std::move(message), offset);
}

inline std::string describe(std::string_view text, size_t p) {
  if (p >= text.size()) return "end of input";
  char c = text[p];
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
    return "byte " + std::to_string(static_cast<unsigned char>(c));
  return std::string("'") + c + "'";
}

struct Frame {
  char open;       // '(' '[' '{' '<'
  size_t offset;   // where it opened
  bool block;      // a region / module body: its contents are statements
  bool manual;     // the region of an sdy.manual_computation (pops a scope)
};

class Scanner {
 public:
  Scanner(std::string_view text, ScanVisitor& visitor) : t_(text), v_(visitor) {
    scopes_.emplace_back();
  }

  Result<ScanSummary> run();

 private:
  // --- lexing helpers --------------------------------------------------------
  void skipWs() {
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (isBlank(c)) {
        ++p_;
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
        while (p_ < t_.size() && t_[p_] != '\n') ++p_;
      } else {
        break;
      }
    }
  }
  bool at(char c) const { return p_ < t_.size() && t_[p_] == c; }
  bool atArrow() const { return p_ + 1 < t_.size() && t_[p_] == '-' && t_[p_ + 1] == '>'; }
  Status expect(char c, const char* what) {
    skipWs();
    if (!at(c))
      return parseError(std::string("expected ") + what + ", got " + describe(t_, p_), p_);
    ++p_;
    return okStatus();
  }
  // At '"': moves past the closing quote.
  Status skipString() {
    size_t start = p_;
    ++p_;
    while (p_ < t_.size()) {
      while (p_ < t_.size() && !module_lex::char_class::is(t_[p_], module_lex::char_class::kString)) ++p_;
      if (p_ >= t_.size()) break;
      char c = t_[p_];
      if (c == '"') {
        ++p_;
        return okStatus();
      }
      if (c == '\n') break;
      if (c == '\\') {
        ++p_;
        if (p_ >= t_.size()) break;
      }
      ++p_;
    }
    return parseError("unterminated string literal", start);
  }
  Span readIdent() {
    size_t b = p_;
    while (p_ < t_.size() && isIdentChar(t_[p_])) ++p_;
    return {b, p_};
  }
  // `@name` or `@"name"`: returns the name without quotes.
  Result<std::string_view> readSymbol() {
    skipWs();
    if (!at('@')) return parseError("expected '@' symbol name, got " + describe(t_, p_), p_);
    ++p_;
    if (at('"')) {
      size_t b = p_;
      SB_TRY(skipString());
      return t_.substr(b + 1, p_ - b - 2);
    }
    Span s = readIdent();
    if (s.empty()) return parseError("expected symbol name, got " + describe(t_, p_), p_);
    return s.in(t_);
  }
  Span readValueId() {
    size_t b = p_;
    ++p_;  // '%'
    while (p_ < t_.size() && isValueIdChar(t_[p_])) ++p_;
    return {b, p_};
  }
  // At an opening bracket: moves past its match. `<` closes only with `>`
  // (not the `>` of `->`); `<=` opens nothing.
  Status skipBalanced() {
    std::string& stack = balance_;  // reused: no allocation per call
    stack.clear();
    size_t start = p_;
    while (p_ < t_.size()) {
      // Bytes that neither open, close nor start a string, comment or
      // arrow leave the stack as it is (the first byte is the opener).
      while (!stack.empty() && p_ < t_.size() &&
             !module_lex::char_class::is(t_[p_], module_lex::char_class::kBalance) && t_[p_] != '/')
        ++p_;
      if (p_ >= t_.size()) break;
      char c = t_[p_];
      switch (c) {
        case '"':
          SB_TRY(skipString());
          continue;
        case '/':
          if (p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
            while (p_ < t_.size() && t_[p_] != '\n') ++p_;
            continue;
          }
          break;
        case '(':
        case '[':
        case '{':
          stack.push_back(c);
          break;
        case '<':
          if (p_ + 1 < t_.size() && t_[p_ + 1] == '=') {
            ++p_;
            break;
          }
          stack.push_back(c);
          break;
        case '-':
          if (p_ + 1 < t_.size() && t_[p_ + 1] == '>') {
            p_ += 2;
            continue;
          }
          break;
        case '>':
          if (!stack.empty() && stack.back() == '<') stack.pop_back();
          break;
        case ')':
        case ']':
        case '}': {
          char open = c == ')' ? '(' : c == ']' ? '[' : '{';
          while (!stack.empty() && stack.back() == '<') stack.pop_back();  // a stray '<'
          if (stack.empty() || stack.back() != open)
            return parseError(std::string("unbalanced '") + c + "'", p_);
          stack.pop_back();
          break;
        }
        default:
          break;
      }
      if (stack.size() > kMaxNesting)
        return parseError("nesting deeper than " + std::to_string(kMaxNesting) + " levels", p_);
      ++p_;
      if (stack.empty()) return okStatus();
    }
    return parseError("unexpected end of input: '" + std::string(1, t_[start]) +
                          "' opened here is not closed",
                      start);
  }
  // A type as written before `{attrs}`, `,`, `)` or a blank: a keyword or
  // `!dialect.name` with an optional `<...>` body, or a function type.
  Result<Span> readType() {
    skipWs();
    size_t b = p_;
    if (at('(')) {
      SB_TRY(skipBalanced());
      skipWs();
      if (!atArrow()) return Span{b, p_};
      p_ += 2;
      skipWs();
      if (at('(')) {
        SB_TRY(skipBalanced());
        return Span{b, p_};
      }
      SB_ASSIGN_OR_RETURN(Span r, readType());
      return Span{b, r.end};
    }
    if (at('!')) ++p_;
    while (p_ < t_.size() && (isIdentChar(t_[p_]))) ++p_;
    if (p_ == b) return parseError("expected a type, got " + describe(t_, p_), p_);
    if (at('<')) SB_TRY(skipBalanced());
    return Span{b, p_};
  }

  // --- attribute dictionaries -------------------------------------------------
  // At '{': whether it opens an attribute dictionary (`{name = ...`,
  // `{name,`, `{name}`, `{}`) rather than a region.
  bool looksLikeDict() const {
    size_t q = p_ + 1;
    auto ws = [&] {
      while (q < t_.size()) {
        if (isBlank(t_[q])) {
          ++q;
        } else if (t_[q] == '/' && q + 1 < t_.size() && t_[q + 1] == '/') {
          while (q < t_.size() && t_[q] != '\n') ++q;
        } else {
          break;
        }
      }
    };
    ws();
    if (q >= t_.size()) return false;
    if (t_[q] == '}') return true;
    if (t_[q] == '"') {
      ++q;
      while (q < t_.size() && t_[q] != '"' && t_[q] != '\n') q += t_[q] == '\\' ? 2 : 1;
      if (q >= t_.size() || t_[q] != '"') return false;
      ++q;
    } else if (isIdentStart(t_[q])) {
      while (q < t_.size() && isIdentChar(t_[q])) ++q;
    } else {
      return false;
    }
    ws();
    if (q >= t_.size()) return false;
    if (t_[q] == '=') return q + 1 >= t_.size() || t_[q + 1] != '=';
    return t_[q] == ',' || t_[q] == '}';
  }

  // At '{' of a dictionary: reads it; looks into nested dictionaries of
  // `mhlo.frontend_attributes`.
  Status parseDict(AttrDict& dict, int depth) {
    dict.whole.begin = p_;
    ++p_;
    while (true) {
      skipWs();
      if (at('}')) {
        ++p_;
        break;
      }
      DictEntry e;
      e.whole.begin = p_;
      if (at('"')) {
        size_t b = p_;
        SB_TRY(skipString());
        e.key = {b, p_};
        e.name = t_.substr(b + 1, p_ - b - 2);
      } else if (p_ < t_.size() && isIdentStart(t_[p_])) {
        e.key = readIdent();
        e.name = e.key.in(t_);
      } else {
        return parseError("expected attribute name, got " + describe(t_, p_), p_);
      }
      e.whole.end = p_;
      skipWs();
      if (at('=')) {
        ++p_;
        skipWs();
        e.value.begin = p_;
        if (at('{') && e.name == "mhlo.frontend_attributes" && depth < 2) {
          AttrDict child;
          SB_TRY(parseDict(child, depth + 1));
          e.nested = static_cast<int>(dict.children.size());
          dict.children.push_back(std::move(child));
        } else {
          SB_TRY(skipValue());
        }
        e.value.end = p_;
        // Trailing blanks are not part of the value.
        while (e.value.end > e.value.begin && isBlank(t_[e.value.end - 1])) --e.value.end;
        e.whole.end = e.value.end;
        if (e.value.empty()) return parseError("expected attribute value, got " + describe(t_, p_), p_);
      }
      dict.entries.push_back(e);
      skipWs();
      if (at(',')) {
        ++p_;
        continue;
      }
      if (at('}')) {
        ++p_;
        break;
      }
      return parseError("expected ',' or '}' in attribute dictionary, got " + describe(t_, p_), p_);
    }
    dict.whole.end = p_;
    return okStatus();
  }
  // An attribute value: up to the next top-level ',' or '}'.
  Status skipValue() {
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == ',' || c == '}') return okStatus();
      if (c == '"') {
        SB_TRY(skipString());
      } else if (c == '(' || c == '[' || c == '{' || (c == '<' && !(p_ + 1 < t_.size() && t_[p_ + 1] == '='))) {
        SB_TRY(skipBalanced());
      } else if (c == ')' || c == ']') {
        return parseError(std::string("unbalanced '") + c + "'", p_);
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
        skipWs();
      } else if (c == '-' && p_ + 1 < t_.size() && t_[p_ + 1] == '>') {
        p_ += 2;
      } else {
        ++p_;
      }
    }
    return parseError("unexpected end of input in attribute dictionary", p_);
  }
  static void resetDict(AttrDict& d) {
    d.entries.clear();
    d.children.clear();
    d.whole = {};
  }
 public:
  static bool interesting(const AttrDict& d) {
    for (const DictEntry& e : d.entries) {
      if (e.name == "sdy.sharding" || e.name == "mhlo.sharding" || e.name == "xla.sdy.meshes" ||
          e.name == "xla.sdy.manual_axes")
        return true;
      if (e.nested >= 0) {
        for (const DictEntry& f : d.children[e.nested].entries)
          if (f.name == "xla.sdy.sharding" || f.name == "xla.sdy.meshes") return true;
      }
    }
    return false;
  }

 private:
  // --- constructs ----------------------------------------------------------------
  Status parseModule();
  Status parseFunc();
  Status parseMesh(size_t start);
  Status parseConstraint(size_t nameBegin);
  Status parseManualComputation(size_t nameBegin);
  Status opDict();
 public:
  // The result types after an op's dictionary ending at `pos`, as opDict
  // reads them (OpTypeReader, scanner.h).
  Status typesAt(size_t pos, std::string_view opResults, ValueDict& vd) {
    p_ = pos;
    opResults_ = opResults;
    return readOpTypes(vd);
  }
  // Where the last typesAt stopped reading (every byte it looked at is
  // before this one, or this one and the next).
  size_t position() const { return p_; }

 private:
  Status readOpTypes(ValueDict& vd);
  Status statement();

  Status push(char open, bool block, bool manual = false) {
    if (stack_.size() >= kMaxNesting)
      return parseError("nesting deeper than " + std::to_string(kMaxNesting) + " levels", p_);
    stack_.push_back({open, p_, block, manual});
    ++p_;
    return okStatus();
  }
  bool inBlock() const { return stack_.empty() || stack_.back().block; }
  void noteStatement(size_t offset) {
    if (summary_.firstStatement != std::string_view::npos) return;
    // The module body's first op, or the file's first op without a module.
    if ((moduleDepth_ >= 0 && stack_.size() == static_cast<size_t>(moduleDepth_) + 1) ||
        (moduleDepth_ < 0 && stack_.empty() && !sawModule_))
      summary_.firstStatement = offset;
  }

  std::string_view t_;
  ScanVisitor& v_;
  size_t p_ = 0;
  std::string balance_;
  bool complete_ = false;  // the last statement was read to its end
  // Reused for every dictionary and value, so that scanning allocates
  // nothing per op once warmed up.
  AttrDict dict_;
  ValueDict value_;
  std::vector<Frame> stack_;
  std::vector<ManualScope> scopes_;  // scopes_.back() is the current one
  int manualCount_ = 0;
  ScanSummary summary_;
  int moduleDepth_ = -1;  // stack depth of the top-level module's '{' frame
  bool sawModule_ = false;
  // The op being read: set at each statement start.
  std::string_view opResults_;
  std::string_view opName_;
  size_t opOffset_ = 0;
};

}  // namespace shardbridge::module_detail::scan_impl
