#include "sdy/lexer.h"

namespace shardbridge::sdy::lexer {
namespace {

bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The byte `c` as it can appear inside quotes in a message.
std::string printableByte(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string(1, c);
  static const char kHex[] = "0123456789ABCDEF";
  std::string out = "\\";
  out += kHex[u >> 4];
  out += kHex[u & 0xf];
  return out;
}

Error errorAt(size_t offset, std::string message) {
  return makeError(ErrorCode::kParse, std::move(message), offset);
}

}  // namespace

bool isEscapedQuoteAt(std::string_view text, size_t pos) {
  return text.substr(pos, 3) == "\\22";
}

bool isIdentifierChar(char c) {
  return isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.';
}

std::string describeToken(std::string_view text, const Token& token) {
  if (token.kind == TokenKind::kEof) return "end of input";
  constexpr size_t kMaxShown = 24;
  std::string_view spelling = text.substr(token.begin, token.end - token.begin);
  bool cut = spelling.size() > kMaxShown;
  if (cut) spelling = spelling.substr(0, kMaxShown);
  std::string out = "'";
  for (char c : spelling) out += printableByte(c);
  if (cut) out += "...";
  out += "'";
  return out;
}

void Lexer::skipTrivia() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      // MLIR treats `// ...` up to the end of the line as whitespace.
      size_t eol = text_.find('\n', pos_);
      pos_ = eol == std::string_view::npos ? text_.size() : eol + 1;
    } else {
      return;
    }
  }
}

// In the escaped form the string body is itself MLIR-escaped once more, so a
// unit is one decoded byte of that outer layer: `\\` is a backslash, `\XX` a
// byte, and `\22` (or `\"`) the closing quote. In the plain form a unit is a
// byte and `"` closes the string.
Result<Lexer::Unit> Lexer::readUnit(size_t pos, bool escaped) const {
  if (pos >= text_.size()) return errorAt(text_.size(), "expected '\"' in string literal");
  char c = text_[pos];
  Unit unit{c, pos, pos + 1, false};
  if (c == '\n' || c == '\v' || c == '\f') return errorAt(pos, "expected '\"' in string literal");
  if (!escaped) {
    unit.isEnd = c == '"';
    return unit;
  }
  if (c == '"') {
    return errorAt(pos, "expected '\\22' to close the escaped string literal, got '\"'");
  }
  if (c != '\\') return unit;
  if (pos + 1 >= text_.size()) return errorAt(pos, "unknown escape in string literal");
  char e = text_[pos + 1];
  unit.next = pos + 2;
  switch (e) {
    case '\\': unit.c = '\\'; return unit;
    case '"': unit.c = '"'; unit.isEnd = true; return unit;
    case 'n': unit.c = '\n'; return unit;
    case 't': unit.c = '\t'; return unit;
    default: break;
  }
  if (pos + 2 < text_.size() && hexValue(e) >= 0 && hexValue(text_[pos + 2]) >= 0) {
    unit.c = static_cast<char>(hexValue(e) * 16 + hexValue(text_[pos + 2]));
    unit.next = pos + 3;
    unit.isEnd = unit.c == '"';
    return unit;
  }
  return errorAt(pos, "unknown escape in string literal");
}

// Decodes a string body (MLIR escapes: \" \\ \n \t \XX) up to and including
// its closing quote; `pos` starts after the opening quote and ends after the
// closing one.
Result<std::string> Lexer::lexStringBody(size_t& pos, bool escaped) const {
  std::string out;
  while (true) {
    SB_ASSIGN_OR_RETURN(Unit unit, readUnit(pos, escaped));
    pos = unit.next;
    if (unit.isEnd) return out;
    if (unit.c == '\n' || unit.c == '\v' || unit.c == '\f') {
      return errorAt(unit.offset, "expected '\"' in string literal");
    }
    if (unit.c != '\\') {
      out += unit.c;
      continue;
    }
    SB_ASSIGN_OR_RETURN(Unit e, readUnit(pos, escaped));
    if (e.isEnd) {
      // `\"`: an escaped quote, not the end of the string.
      out += '"';
      pos = e.next;
      continue;
    }
    if (e.c == '\\' || e.c == 'n' || e.c == 't') {
      out += e.c == 'n' ? '\n' : e.c == 't' ? '\t' : '\\';
      pos = e.next;
      continue;
    }
    if (hexValue(e.c) >= 0) {
      SB_ASSIGN_OR_RETURN(Unit e2, readUnit(e.next, escaped));
      if (!e2.isEnd && hexValue(e2.c) >= 0) {
        out += static_cast<char>(hexValue(e.c) * 16 + hexValue(e2.c));
        pos = e2.next;
        continue;
      }
    }
    return errorAt(unit.offset, "unknown escape in string literal");
  }
}

Result<Token> Lexer::lexString(size_t begin, size_t bodyStart, bool escaped) {
  size_t pos = bodyStart;
  SB_ASSIGN_OR_RETURN(std::string value, lexStringBody(pos, escaped));
  pos_ = pos;
  return Token{TokenKind::kString, begin, pos, std::move(value)};
}

Result<Token> Lexer::lexAtIdent(size_t begin) {
  size_t p = begin + 1;
  if (p < text_.size() && (text_[p] == '"' || isEscapedQuoteAt(text_, p))) {
    bool escaped = text_[p] != '"';
    SB_ASSIGN_OR_RETURN(Token str, lexString(begin, p + (escaped ? 3 : 1), escaped));
    str.kind = TokenKind::kAtIdent;
    return str;
  }
  if (p >= text_.size() || !(isAlpha(text_[p]) || text_[p] == '_')) {
    return errorAt(p, "@ identifier expected to start with letter or '_'");
  }
  while (p < text_.size() && isIdentifierChar(text_[p])) ++p;
  pos_ = p;
  return Token{TokenKind::kAtIdent, begin, p, std::string(text_.substr(begin + 1, p - begin - 1))};
}

Result<Token> Lexer::lexNumber(size_t begin) {
  size_t p = begin;
  // `0x` counts as a hex prefix only when a hex digit follows, as in MLIR.
  if (text_[p] == '0' && p + 2 < text_.size() && text_[p + 1] == 'x' &&
      hexValue(text_[p + 2]) >= 0) {
    p += 2;
    while (p < text_.size() && hexValue(text_[p]) >= 0) ++p;
    pos_ = p;
    return Token{TokenKind::kInteger, begin, p, {}};
  }
  while (p < text_.size() && isDigit(text_[p])) ++p;
  // A '.' after the digits makes an MLIR float literal: 1.5, 2.e3, 1.5E-2.
  if (p >= text_.size() || text_[p] != '.') {
    pos_ = p;
    return Token{TokenKind::kInteger, begin, p, {}};
  }
  ++p;
  while (p < text_.size() && isDigit(text_[p])) ++p;
  if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
    size_t q = p + 1;
    if (q < text_.size() && (text_[q] == '+' || text_[q] == '-')) ++q;
    if (q < text_.size() && isDigit(text_[q])) {
      p = q;
      while (p < text_.size() && isDigit(text_[p])) ++p;
    }
  }
  pos_ = p;
  return Token{TokenKind::kFloat, begin, p, {}};
}

Result<size_t> skipAttrDict(std::string_view text, size_t open, int maxDepth) {
  size_t p = open;
  int depth = 0;
  while (p < text.size()) {
    char c = text[p];
    if (c == '"') {
      ++p;
      while (p < text.size() && text[p] != '"') p += text[p] == '\\' ? 2 : 1;
      if (p >= text.size()) break;
    } else if (c == '{') {
      if (++depth > maxDepth) {
        return errorAt(p, "attribute dictionary nested too deeply");
      }
    } else if (c == '}') {
      if (--depth == 0) return p + 1;
    }
    ++p;
  }
  return errorAt(open, "expected '}' to close the attribute dictionary");
}

Result<Token> Lexer::next() {
  skipTrivia();
  size_t begin = pos_;
  if (begin >= text_.size()) return Token{TokenKind::kEof, text_.size(), text_.size(), {}};
  char c = text_[begin];
  auto punct = [&](TokenKind kind) {
    pos_ = begin + 1;
    return Token{kind, begin, begin + 1, {}};
  };
  switch (c) {
    case '<': return punct(TokenKind::kLess);
    case '>': return punct(TokenKind::kGreater);
    case '[': return punct(TokenKind::kLSquare);
    case ']': return punct(TokenKind::kRSquare);
    case '{': return punct(TokenKind::kLBrace);
    case '}': return punct(TokenKind::kRBrace);
    case '(': return punct(TokenKind::kLParen);
    case ')': return punct(TokenKind::kRParen);
    case ',': return punct(TokenKind::kComma);
    case '=': return punct(TokenKind::kEqual);
    case ':': return punct(TokenKind::kColon);
    case '?': return punct(TokenKind::kQuestion);
    case '-': return punct(TokenKind::kMinus);
    case '"': return lexString(begin, begin + 1, /*escaped=*/false);
    case '@': return lexAtIdent(begin);
    default: break;
  }
  if (isEscapedQuoteAt(text_, begin)) return lexString(begin, begin + 3, /*escaped=*/true);
  if (c == '#') {
    size_t p = begin + 1;
    if (p >= text_.size() || !(isAlpha(text_[p]) || text_[p] == '_')) {
      return errorAt(begin, "expected an attribute name after '#'");
    }
    while (p < text_.size() && isIdentifierChar(text_[p])) ++p;
    pos_ = p;
    return Token{TokenKind::kHashIdent, begin, p, {}};
  }
  if (isAlpha(c) || c == '_') {
    size_t p = begin + 1;
    while (p < text_.size() && isIdentifierChar(text_[p])) ++p;
    pos_ = p;
    return Token{TokenKind::kBareIdent, begin, p, {}};
  }
  if (isDigit(c)) return lexNumber(begin);
  return errorAt(begin, "unexpected character '" + printableByte(c) + "'");
}

}  // namespace shardbridge::sdy::lexer
