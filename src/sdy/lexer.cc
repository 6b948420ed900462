#include "sdy/lexer.h"

#include <array>

namespace shardbridge::sdy::lexer {
namespace {

constexpr bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

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

// Byte classes for the lexer's hot loop, one table lookup per byte.
constexpr uint8_t kBlank = 1;       // space, tab, LF, CR
constexpr uint8_t kIdentStart = 2;  // [a-zA-Z_]
constexpr uint8_t kIdentChar = 4;   // [a-zA-Z0-9_$.]

constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c : {' ', '\t', '\n', '\r'}) t[c] = kBlank;
  for (int c = 0; c < 256; ++c) {
    char ch = static_cast<char>(c);
    if (isAlpha(ch) || ch == '_') t[c] |= kIdentStart | kIdentChar;
    if (isDigit(ch) || ch == '$' || ch == '.') t[c] |= kIdentChar;
  }
  return t;
}();


}  // namespace

bool isEscapedQuoteAt(std::string_view text, size_t pos) {
  return text.substr(pos, 3) == "\\22";
}

bool isIdentifierChar(char c) {
  return kByteClass[static_cast<unsigned char>(c)] & kIdentChar;
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

// Most bodies hold no escape: they are scanned for the closing quote and
// viewed in place. A body that holds one (or a byte that ends it badly) is
// decoded from its start by lexStringBody, which also words the errors.
bool Lexer::lexString(Token& token, size_t begin, size_t bodyStart, bool escaped) {
  const char* d = text_.data();
  const size_t n = text_.size();
  for (size_t p = bodyStart; p < n; ++p) {
    char c = d[p];
    size_t close = 0;  // length of the closing quote found at p
    if (c == '"') {
      if (escaped) break;  // an error, worded by lexStringBody
      close = 1;
    } else if (c == '\\') {
      // `\22` closes an escaped body (readUnit's hex escape of '"').
      if (!escaped || p + 2 >= n || d[p + 1] != '2' || d[p + 2] != '2') break;
      close = 3;
    } else if (c == '\n' || c == '\v' || c == '\f') {
      break;
    } else {
      continue;
    }
    pos_ = p + close;
    token = Token{TokenKind::kString, begin, pos_, text_.substr(bodyStart, p - bodyStart)};
    return true;
  }
  size_t pos = bodyStart;
  auto value = lexStringBody(pos, escaped);
  if (!value) return fail(std::move(value).error());
  pos_ = pos;
  decoded_.push_front(std::move(*value));
  token = Token{TokenKind::kString, begin, pos, decoded_.front()};
  return true;
}

bool Lexer::lexAtIdent(Token& token, size_t begin) {
  size_t p = begin + 1;
  if (p < text_.size() && (text_[p] == '"' || isEscapedQuoteAt(text_, p))) {
    bool escaped = text_[p] != '"';
    if (!lexString(token, begin, p + (escaped ? 3 : 1), escaped)) return false;
    token.kind = TokenKind::kAtIdent;
    return true;
  }
  if (p >= text_.size() || !(isAlpha(text_[p]) || text_[p] == '_')) {
    return fail(errorAt(p, "@ identifier expected to start with letter or '_'"));
  }
  while (p < text_.size() && (kByteClass[static_cast<unsigned char>(text_[p])] & kIdentChar)) ++p;
  pos_ = p;
  token = Token{TokenKind::kAtIdent, begin, p, text_.substr(begin + 1, p - begin - 1)};
  return true;
}

void Lexer::lexNumber(Token& token, size_t begin) {
  size_t p = begin;
  // `0x` counts as a hex prefix only when a hex digit follows, as in MLIR.
  if (text_[p] == '0' && p + 2 < text_.size() && text_[p + 1] == 'x' &&
      hexValue(text_[p + 2]) >= 0) {
    p += 2;
    while (p < text_.size() && hexValue(text_[p]) >= 0) ++p;
    pos_ = p;
    token = Token{TokenKind::kInteger, begin, p, {}};
    return;
  }
  while (p < text_.size() && isDigit(text_[p])) ++p;
  // A '.' after the digits makes an MLIR float literal: 1.5, 2.e3, 1.5E-2.
  if (p >= text_.size() || text_[p] != '.') {
    pos_ = p;
    token = Token{TokenKind::kInteger, begin, p, {}};
    return;
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
  token = Token{TokenKind::kFloat, begin, p, {}};
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

bool Lexer::lexSlow(Token& token) {
  const char* d = text_.data();
  const size_t n = text_.size();
  size_t begin = pos_;
  // Trivia: blanks, and `// ...` up to the end of the line, which MLIR
  // treats as whitespace.
  while (begin < n) {
    unsigned char c = static_cast<unsigned char>(d[begin]);
    if (kByteClass[c] & kBlank) {
      ++begin;
    } else if (c == '/' && begin + 1 < n && d[begin + 1] == '/') {
      size_t eol = text_.find('\n', begin);
      begin = eol == std::string_view::npos ? n : eol + 1;
    } else {
      break;
    }
  }
  pos_ = begin;
  if (begin >= n) {
    token = Token{TokenKind::kEof, n, n, {}};
    return true;
  }
  unsigned char c = static_cast<unsigned char>(d[begin]);
  if (TokenKind punct = kPunctuation[c]; punct != TokenKind::kEof) {
    pos_ = begin + 1;
    token = Token{punct, begin, begin + 1, {}};
    return true;
  }
  if (kByteClass[c] & kIdentStart) {
    size_t p = begin + 1;
    while (p < n && (kByteClass[static_cast<unsigned char>(d[p])] & kIdentChar)) ++p;
    pos_ = p;
    token = Token{TokenKind::kBareIdent, begin, p, {}};
    return true;
  }
  switch (c) {
    case '"': return lexString(token, begin, begin + 1, /*escaped=*/false);
    case '@': return lexAtIdent(token, begin);
    default: break;
  }
  if (isEscapedQuoteAt(text_, begin)) return lexString(token, begin, begin + 3, /*escaped=*/true);
  if (c == '#') {
    size_t p = begin + 1;
    if (p >= n || !(isAlpha(d[p]) || d[p] == '_')) {
      return fail(errorAt(begin, "expected an attribute name after '#'"));
    }
    while (p < n && (kByteClass[static_cast<unsigned char>(d[p])] & kIdentChar)) ++p;
    pos_ = p;
    token = Token{TokenKind::kHashIdent, begin, p, {}};
    return true;
  }
  if (isDigit(static_cast<char>(c))) {
    lexNumber(token, begin);
    return true;
  }
  return fail(errorAt(begin, "unexpected character '" + printableByte(static_cast<char>(c)) + "'"));
}

}  // namespace shardbridge::sdy::lexer
