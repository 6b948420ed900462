#include "sdy/parser_diagnostics.h"

#include <algorithm>
#include <string>

namespace shardbridge::sdy::diag {
namespace {

using lexer::TokenKind;

// MLIR's findCommentStart (mlir/lib/AsmParser/Parser.cpp): where a `//`
// comment starts in `line`, outside string literals; npos when none.
size_t findCommentStart(std::string_view line) {
  bool inString = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '"') {
      inString = !inString;
    } else if (c == '\\' && inString) {
      ++i;
    } else if (!inString && c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
      return i;
    }
  }
  return std::string_view::npos;
}

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::string expectedToken(TokenKind kind) {
  switch (kind) {
    case TokenKind::kLess: return "expected '<'";
    case TokenKind::kGreater: return "expected '>'";
    case TokenKind::kLSquare: return "expected '['";
    case TokenKind::kRSquare: return "expected ']'";
    case TokenKind::kLBrace: return "expected '{'";
    case TokenKind::kRBrace: return "expected '}'";
    case TokenKind::kLParen: return "expected '('";
    case TokenKind::kRParen: return "expected ')'";
    case TokenKind::kComma: return "expected ','";
    case TokenKind::kEqual: return "expected '='";
    case TokenKind::kColon: return "expected ':'";
    case TokenKind::kQuestion: return "expected '?'";
    case TokenKind::kMinus: return "expected '-'";
    case TokenKind::kString: return "expected string";
    case TokenKind::kInteger: return "expected integer value";
    default: return "expected token";
  }
}

size_t wrongTokenOffset(std::string_view text, size_t tokenBegin, bool atEof) {
  size_t loc = std::min(tokenBegin, text.size());
  if (atEof && loc > 0) --loc;
  size_t end = loc;
  while (true) {
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
    if (end == 0) return loc;
    if (text[end - 1] != '\n' && text[end - 1] != '\r') return end;
    --end;  // the line break: the error goes to the end of the line before
    size_t lineStart = 0;
    if (end > 0) {
      size_t lineBreak = text.find_last_of("\n\r", end - 1);
      if (lineBreak != std::string_view::npos) lineStart = lineBreak + 1;
    }
    size_t comment = findCommentStart(text.substr(lineStart, end - lineStart));
    if (comment != std::string_view::npos) end = lineStart + comment;
  }
}

Status checkPrettyBody(std::string_view text, size_t less, bool& lexFailed) {
  std::string open;  // the open brackets; inline (no heap) up to 15 deep
  size_t at = less;  // MLIR's current token: the '<', then the last string
  auto unbalanced = [&]() {
    return makeError(ErrorCode::kParse,
                     std::string("unbalanced '") + open.back() +
                         "' character in pretty dialect name",
                     at);
  };
  size_t p = less;
  do {
    if (p >= text.size() || text[p] == '\0') return unbalanced();
    char c = text[p++];
    switch (c) {
      case '<':
      case '[':
      case '(':
      case '{':
        open.push_back(c);
        continue;
      case '-':
        // `->` is one token.
        if (p < text.size() && text[p] == '>') ++p;
        continue;
      case '>':
      case ']':
      case ')':
      case '}': {
        char want = c == '>' ? '<' : c == ']' ? '[' : c == ')' ? '(' : '{';
        if (open.back() != want) return unbalanced();
        open.pop_back();
        break;
      }
      default:
        if (c == '"' || lexer::isEscapedQuoteAt(text, p - 1)) {
          // The lexer reads past the string, escapes and all.
          lexer::Lexer lex(text);
          lex.seek(p - 1);
          auto token = lex.next();
          if (!token) {
            lexFailed = true;
            return Unexpected(std::move(token).error());
          }
          at = token->begin;
          p = token->end;
        }
        continue;
    }
  } while (!open.empty());
  return okStatus();
}

bool isOtherAttribute(TokenKind kind, std::string_view spelling) {
  if (kind == TokenKind::kString || kind == TokenKind::kInteger || kind == TokenKind::kFloat) {
    return true;
  }
  if (kind != TokenKind::kBareIdent) return false;
  // Keyword attributes and the builtin types MLIR parses as a TypeAttr.
  for (std::string_view word : {"true", "false", "unit", "index", "none", "bf16", "tf32", "f16",
                                "f32", "f64", "f80", "f128"}) {
    if (spelling == word) return true;
  }
  for (std::string_view prefix : {"i", "si", "ui"}) {
    if (spelling.size() > prefix.size() && spelling.substr(0, prefix.size()) == prefix &&
        allDigits(spelling.substr(prefix.size()))) {
      return true;
    }
  }
  return false;
}

std::string trailingCharacters(std::string_view rest) {
  constexpr size_t kMaxShown = 64;
  std::string out = "found trailing characters: '";
  out += rest.substr(0, kMaxShown);
  if (rest.size() > kMaxShown) out += "...";
  out += "'";
  return out;
}

}  // namespace shardbridge::sdy::diag
