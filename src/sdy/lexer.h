// The tokens of the sdy attribute syntax, lexed the way MLIR's lexer does.
//
// Private to src/sdy: the parser (parser.cc) is the only client. Two spellings
// of a string literal are accepted: the plain `"name"` and the escaped form
// `\22name\22` that appears when an attribute is stored inside an MLIR string
// attribute (mhlo.frontend_attributes). Both decode to the same bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <forward_list>
#include <string>
#include <string_view>
#include <utility>

#include "shardbridge/base/result.h"

namespace shardbridge::sdy::lexer {

enum class TokenKind : uint8_t {
  kEof,
  kString,     // "abc" or \22abc\22; value() holds the decoded bytes
  kInteger,    // 123 or 0x1F; never signed (a '-' is its own token)
  kFloat,      // 1.5, 2e3: lexed whole only so errors can name it
  kBareIdent,  // [a-zA-Z_][a-zA-Z0-9_$.]*: mesh, sdy.mesh, p1, device_ids
  kHashIdent,  // #sdy.sharding
  kAtIdent,    // @mesh or @"quoted name"; value() holds the name without '@'
  kLess,       // <
  kGreater,    // >
  kLSquare,    // [
  kRSquare,    // ]
  kLBrace,     // {
  kRBrace,     // }
  kLParen,     // (
  kRParen,     // )
  kComma,      // ,
  kEqual,      // =
  kColon,      // :
  kQuestion,   // ?
  kMinus,      // -
};

// The one-byte tokens; kEof for every other byte.
inline constexpr std::array<TokenKind, 256> kPunctuation = [] {
  std::array<TokenKind, 256> t{};
  t['<'] = TokenKind::kLess;
  t['>'] = TokenKind::kGreater;
  t['['] = TokenKind::kLSquare;
  t[']'] = TokenKind::kRSquare;
  t['{'] = TokenKind::kLBrace;
  t['}'] = TokenKind::kRBrace;
  t['('] = TokenKind::kLParen;
  t[')'] = TokenKind::kRParen;
  t[','] = TokenKind::kComma;
  t['='] = TokenKind::kEqual;
  t[':'] = TokenKind::kColon;
  t['?'] = TokenKind::kQuestion;
  t['-'] = TokenKind::kMinus;
  return t;
}();

struct Token {
  TokenKind kind = TokenKind::kEof;
  size_t begin = 0;        // byte offset of the first byte of the token
  size_t end = 0;          // one past its last byte
  // Decoded contents of kString / kAtIdent: a view of the text itself when
  // the body has no escapes (nearly always), else of a decoded copy the
  // Lexer keeps. Valid as long as both the text and the Lexer live.
  std::string_view value;
};

// Splits a text into tokens on demand. Whitespace (space, tab, CR, LF) and
// `//` line comments separate tokens.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // Returns the next token, or a kParse error located at the offending byte:
  // an unterminated string (`expected '"' in string literal`), a bad escape
  // (`unknown escape in string literal`), a byte no token starts with
  // (`unexpected character '$'`). At the end it keeps returning kEof.
  Result<Token> next() {
    Token token;
    if (!lex(token)) return Unexpected(std::move(error_));
    return token;
  }
  // The same without a Result, for the parser's hot loop: reads the next
  // token into `token` and returns true, or returns false with the error
  // left for takeError().
  bool lex(Token& token) {
    // Inline fast path for the commonest case, a one-byte token after
    // spaces; anything else (other trivia, longer tokens, the end, errors)
    // goes through lexSlow from the same position.
    size_t p = pos_;
    while (p < text_.size() && text_[p] == ' ') ++p;
    if (p < text_.size()) {
      TokenKind punct = kPunctuation[static_cast<unsigned char>(text_[p])];
      if (punct != TokenKind::kEof) {
        pos_ = p + 1;
        token = Token{punct, p, p + 1, {}};
        return true;
      }
    }
    return lexSlow(token);
  }
  Error takeError() { return std::move(error_); }

  // Byte offset just past the last token returned.
  size_t position() const { return pos_; }
  // Moves the read position (used to skip an attribute dictionary).
  void seek(size_t pos) { pos_ = pos; }
  std::string_view text() const { return text_; }

 private:
  // One byte of a string body after the outer (escaped-form) decoding.
  struct Unit {
    char c = 0;
    size_t offset = 0;  // where it starts in text_
    size_t next = 0;    // where the following unit starts
    bool isEnd = false; // the closing quote of the string
  };

  bool lexSlow(Token& token);
  bool fail(Error error) {
    error_ = std::move(error);
    return false;
  }
  Result<Unit> readUnit(size_t pos, bool escaped) const;
  Result<std::string> lexStringBody(size_t& pos, bool escaped) const;
  bool lexString(Token& token, size_t begin, size_t bodyStart, bool escaped);
  bool lexAtIdent(Token& token, size_t begin);
  void lexNumber(Token& token, size_t begin);

  std::string_view text_;
  size_t pos_ = 0;
  Error error_;  // of the last failed lex()
  // Bodies that had escapes, decoded; a list so that views stay put.
  std::forward_list<std::string> decoded_;
};

// Skips the MLIR attribute dictionary whose '{' is at `open`, which sdy does
// not interpret: it is scanned by bytes, since it may hold any MLIR syntax.
// Braces nest, at most `maxDepth` deep; strings are skipped whole. Returns
// the offset just past the matching '}', or a kParse error (unclosed: at
// `open`; too deep: at the brace).
Result<size_t> skipAttrDict(std::string_view text, size_t open, int maxDepth);

// True when `text` starts with the escaped quote `\22` at `pos`.
bool isEscapedQuoteAt(std::string_view text, size_t pos);

// The characters MLIR allows after the first one of a bare identifier.
bool isIdentifierChar(char c);

// A short, printable rendering of a token for error messages: `','`, `'"x"'`,
// `end of input`. Long tokens are cut; control bytes show as \XX.
std::string describeToken(std::string_view text, const Token& token);

}  // namespace shardbridge::sdy::lexer
