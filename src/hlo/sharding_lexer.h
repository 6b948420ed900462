// The token rules of XLA's HloLexer, as far as sharding text needs them:
// punctuation `{ } [ ] ( ) , <=`, integers, identifiers (an identifier
// directly followed by '=' is an attribute name), C-escaped strings;
// whitespace and `/* */` / `//` comments are skipped. Internal to text.cc.
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/base/result.h"

namespace shardbridge::hlo::sharding_text {

enum class Tok {
  kEof,
  kLBrace,
  kRBrace,
  kLSquare,
  kRSquare,
  kLParen,
  kRParen,
  kComma,
  kLeq,       // <=
  kInt,
  kIdent,     // identifiers and keywords
  kAttrName,  // identifier immediately followed by '=' (the '=' is consumed)
  kString,
  kError,  // a lexical error; Lexer::error() says which
};

struct Token {
  Tok kind = Tok::kEof;
  size_t offset = 0;
  std::string_view text;  // identifier / attribute name (without '=')
  int64_t intValue = 0;
  std::string stringValue;  // unescaped kString contents
};

// ASCII classes (the <cctype> ones consult the locale and are slow).
inline constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline constexpr bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline constexpr bool isSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
inline constexpr bool isHexDigit(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline constexpr bool isIdentStart(char c) { return isAlpha(c) || c == '_'; }
inline constexpr bool isIdentChar(char c) {
  return isAlpha(c) || isDigit(c) || c == '_' || c == '.' || c == '-';
}

// Splits the input into tokens on demand; skips whitespace and comments.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // Lexes the next token into `tok`; on failure returns false and error()
  // says why (a bool keeps the per-token cost low).
  bool next(Token& tok) {
    if (!skipTrivia()) return false;
    tok.offset = pos_;
    tok.text = {};
    if (pos_ >= text_.size()) {
      tok.kind = Tok::kEof;
      return true;
    }
    const char c = text_[pos_];
    switch (c) {
      case '{': return single(tok, Tok::kLBrace);
      case '}': return single(tok, Tok::kRBrace);
      case '[': return single(tok, Tok::kLSquare);
      case ']': return single(tok, Tok::kRSquare);
      case '(': return single(tok, Tok::kLParen);
      case ')': return single(tok, Tok::kRParen);
      case ',': return single(tok, Tok::kComma);
      case '<':
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') {
          pos_ += 2;
          tok.kind = Tok::kLeq;
          return true;
        }
        return error("unexpected character '<'");
      case '"': return lexString(tok);
      default: break;
    }
    if (c == '-' || isDigit(c)) return lexInt(tok);
    if (isIdentStart(c)) {
      const size_t start = pos_;
      while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
      tok.text = text_.substr(start, pos_ - start);
      if (pos_ < text_.size() && text_[pos_] == '=') {
        ++pos_;
        tok.kind = Tok::kAttrName;
      } else {
        tok.kind = Tok::kIdent;
      }
      return true;
    }
    return error(std::string("unexpected character '") + c + "'");
  }

  const Error& error() const { return error_; }

  // Fast path for long device lists: right after an INT token, consumes
  // every following `',' INT` pair straight into `out` (same token rules as
  // next()). Stops before a ',' that is not followed by an integer, so the
  // parser reports that one. Returns false on a lexical error.
  bool scanIntList(std::vector<int64_t>& out) {
    while (true) {
      const size_t before = pos_;
      if (!skipTrivia()) return false;
      if (pos_ >= text_.size() || text_[pos_] != ',') {
        pos_ = before;
        return true;
      }
      const size_t comma = pos_++;
      if (!skipTrivia()) return false;
      const bool startsInt =
          pos_ < text_.size() &&
          (isDigit(text_[pos_]) ||
           (text_[pos_] == '-' && pos_ + 1 < text_.size() && isDigit(text_[pos_ + 1])));
      if (!startsInt) {
        pos_ = comma;
        return true;
      }
      Token tok;
      if (!lexInt(tok)) return false;
      out.push_back(tok.intValue);
    }
  }

 private:
  bool error(std::string message) {
    error_ = makeError(ErrorCode::kParse, std::move(message), pos_);
    return false;
  }

  bool single(Token& tok, Tok kind) {
    tok.kind = kind;
    ++pos_;
    return true;
  }

  // Whitespace, `/* ... */` and `// ...` (to end of line).
  bool skipTrivia() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (isSpace(c)) {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        const size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) return error("unterminated comment");
        pos_ = end + 2;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        const size_t end = text_.find('\n', pos_);
        pos_ = end == std::string_view::npos ? text_.size() : end + 1;
      } else {
        break;
      }
    }
    return true;
  }

  // INT ::= '-'? [0-9]+   (must fit in int64)
  bool lexInt(Token& tok) {
    const size_t start = pos_;
    const bool negative = text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ >= text_.size() || !isDigit(text_[pos_])) {
      pos_ = start;
      return error("expects integer after '-'");
    }
    int64_t value = 0;
    while (pos_ < text_.size() && isDigit(text_[pos_])) {
      const int digit = text_[pos_] - '0';
      auto v = checkedMul(value, 10);
      if (v) v = checkedAdd(*v, negative ? -digit : digit);
      if (!v) {
        pos_ = start;
        return error("integer is out of range of int64");
      }
      value = *v;
      ++pos_;
    }
    tok.kind = Tok::kInt;
    tok.intValue = value;
    return true;
  }

  // STRING ::= '"' (char | escape)* '"'   with C escapes (absl::CUnescape).
  bool lexString(Token& tok) {
    const size_t start = pos_++;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) {
        pos_ = start;
        return error("unterminated string");
      }
      const char c = text_[pos_++];
      if (c == '"') break;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) continue;  // reported as unterminated above
      const char e = text_[pos_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case '?': out += '?'; break;
        case 'x': {
          int value = 0, digits = 0;
          while (pos_ < text_.size() && isHexDigit(text_[pos_])) {
            const char h = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
            value = value * 16 + (h <= '9' ? h - '0' : h - 'a' + 10);
            ++pos_;
            if (++digits > 2 || value > 0xff) {
              pos_ -= static_cast<size_t>(digits) + 2;
              return error("hex escape out of range in string");
            }
          }
          if (digits == 0) {
            pos_ -= 2;
            return error("\\x with no hex digits in string");
          }
          out += static_cast<char>(value);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int value = e - '0';
            for (int k = 0; k < 2 && pos_ < text_.size() && text_[pos_] >= '0' &&
                            text_[pos_] <= '7';
                 ++k) {
              value = value * 8 + (text_[pos_++] - '0');
            }
            if (value > 0xff) return error("octal escape out of range in string");
            out += static_cast<char>(value);
            break;
          }
          pos_ -= 2;
          return error(std::string("invalid escape sequence '\\") + e + "' in string");
      }
    }
    tok.kind = Tok::kString;
    tok.stringValue = std::move(out);
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  Error error_;
};

}  // namespace shardbridge::hlo::sharding_text
