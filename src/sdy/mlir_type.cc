// A recursive-descent reader for the handful of MLIR type spellings the
// verifier needs to tell apart (mlir_type.h). It does not try to validate
// every builtin type: it recognises the shaped types, tuples and tokens
// exactly, and accepts other builtin and dialect types by their outline so
// that a sharding on, say, `!foo.bar<...>` still meets the non-shaped rule.
#include "shardbridge/sdy/mlir_type.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"

namespace shardbridge {
namespace {

// Nesting of types (tuple<tuple<...>>, tensor<4xcomplex<f32>>) and of the
// brackets inside opaque bodies; deep enough for any real program, small
// enough that recursion cannot exhaust the stack.
constexpr int kMaxDepth = 64;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isIdentChar(char c) { return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.'; }

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!isDigit(c)) return false;
  return true;
}

// The builtin scalar types MLIR spells as one keyword. Integer types
// (i8, si32, ui64) are recognised separately.
bool isBuiltinScalarKeyword(std::string_view s) {
  static constexpr std::string_view kKeywords[] = {"bf16", "f16",  "f32",   "f64", "f80",
                                                   "f128", "tf32", "index", "none"};
  for (std::string_view k : kKeywords)
    if (s == k) return true;
  if (s.size() > 1 && s[0] == 'i') return allDigits(s.substr(1));
  if (s.size() > 2 && (s.substr(0, 2) == "si" || s.substr(0, 2) == "ui"))
    return allDigits(s.substr(2));
  // The small float formats: f4E2M1FN, f6E3M2FN, f8E4M3FNUZ, f8E8M0FNU, ...
  if (s.size() > 3 && s[0] == 'f' && isDigit(s[1]) && s[2] == 'E') return true;
  return false;
}

// Describes the byte at `pos` for "got ..." in messages.
std::string describeAt(std::string_view text, size_t pos) {
  if (pos >= text.size()) return "end of input";
  char c = text[pos];
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
    return "byte " + std::to_string(static_cast<unsigned char>(c));
  return std::string("'") + c + "'";
}

class TypeParser {
 public:
  explicit TypeParser(std::string_view text) : text_(text) {}

  // The whole input: one type, surrounded by optional whitespace.
  Result<MlirType> parseAll() {
    SB_ASSIGN_OR_RETURN(MlirType type, parseType(0));
    skipSpace();
    if (pos_ != text_.size()) return error("unexpected " + describeAt(text_, pos_) + " after type");
    return type;
  }

 private:
  Error error(std::string message) const { return errorAt(pos_, std::move(message)); }
  Error errorAt(size_t at, std::string message) const {
    return makeError(ErrorCode::kParse, std::move(message), at);
  }

  void skipSpace() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
  }
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }

  // Skips whitespace and consumes `c` if it comes next.
  bool consume(char c) {
    skipSpace();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

  // Skips whitespace and requires `c`; `what` completes "expected 'c' ...".
  Status expect(char c, std::string_view what) {
    if (consume(c)) return okStatus();
    return error(std::string("expected '") + c + "' " + std::string(what) + ", got " +
                 describeAt(text_, pos_));
  }

  std::string_view readIdentifier() {
    size_t start = pos_;
    while (!atEnd() && isIdentChar(peek())) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // type ::= tensor-type | memref-type | vector-type | tuple-type
  //        | complex-type | builtin-keyword | '!' dialect-type
  Result<MlirType> parseType(int depth) {
    skipSpace();
    if (depth >= kMaxDepth)
      return error("type nesting exceeds " + std::to_string(kMaxDepth) + " levels");
    size_t start = pos_;
    if (peek() == '!') return parseDialectType(depth);
    if (!isLetter(peek()) && peek() != '_')
      return error("expected type, got " + describeAt(text_, pos_));
    std::string_view keyword = readIdentifier();
    if (keyword == "tensor" || keyword == "memref" || keyword == "vector")
      return parseShaped(keyword, depth);
    if (keyword == "tuple") return parseTuple(depth);
    if (keyword == "complex") {
      SB_TRY(expect('<', "after 'complex'"));
      SB_ASSIGN_OR_RETURN(MlirType element, parseType(depth + 1));
      SB_TRY(expect('>', "to close complex type"));
      MlirType type;
      type.text = "complex<" + element.text + ">";
      return type;
    }
    if (isBuiltinScalarKeyword(keyword)) {
      MlirType type;
      type.text = std::string(keyword);
      return type;
    }
    return errorAt(start, "unknown type '" + std::string(keyword) + "'");
  }

  // shaped ::= ('tensor' | 'memref' | 'vector') '<' shape element [',' attr]* '>'
  // shape  ::= '*' 'x' | (dim 'x')*        dim ::= integer | '?' | '[' integer ']'
  // `*` (unranked) is not allowed in vectors; `[N]` (scalable) only there.
  Result<MlirType> parseShaped(std::string_view keyword, int depth) {
    std::string what = "after '" + std::string(keyword) + "'";
    SB_TRY(expect('<', what));
    bool isVector = keyword == "vector";
    MlirType type;
    type.kind = MlirType::Kind::kRankedTensor;
    std::string text = std::string(keyword) + "<";
    skipSpace();
    if (peek() == '*' && !isVector) {
      ++pos_;
      SB_TRY(expect('x', "after '*' in an unranked shape"));
      type.kind = MlirType::Kind::kUnrankedTensor;
      text += "*x";
    } else {
      // A dimension list: each entry is followed by 'x'; the element type
      // starts with something that is not a dimension.
      while (true) {
        skipSpace();
        char c = peek();
        if (isDigit(c)) {
          size_t at = pos_;
          int64_t value = 0;
          while (isDigit(peek())) {
            auto next = checkedMul(value, 10);
            if (next) next = checkedAdd(*next, peek() - '0');
            if (!next) return errorAt(at, "dimension size overflows int64");
            value = *next;
            ++pos_;
          }
          type.shape.push_back(value);
          text += std::to_string(value);
        } else if (c == '?' && !isVector) {
          ++pos_;
          type.shape.push_back(MlirType::kDynamic);
          text += "?";
        } else if (c == '[' && isVector) {
          ++pos_;
          skipSpace();
          size_t at = pos_;
          int64_t value = 0;
          if (!isDigit(peek()))
            return error("expected scalable dimension size, got " + describeAt(text_, pos_));
          while (isDigit(peek())) {
            auto next = checkedMul(value, 10);
            if (next) next = checkedAdd(*next, peek() - '0');
            if (!next) return errorAt(at, "dimension size overflows int64");
            value = *next;
            ++pos_;
          }
          SB_TRY(expect(']', "to close scalable dimension"));
          type.shape.push_back(value);
          // Appended piecewise: GCC 12 -O3 warns (-Wrestrict, a false positive)
          // about "literal" + std::string.
          text += '[';
          text += std::to_string(value);
          text += ']';
        } else {
          break;
        }
        SB_TRY(expect('x', "after dimension size"));
        text += "x";
      }
    }
    skipSpace();
    size_t elementStart = pos_;
    SB_ASSIGN_OR_RETURN(MlirType element, parseType(depth + 1));
    if (element.kind != MlirType::Kind::kOther)
      return errorAt(elementStart, "element type of " + std::string(keyword) + " cannot be '" +
                                       element.text + "'");
    type.elementType = element.text;
    text += element.text;
    // Encoding (tensor), layout and memory space (memref): kept as text.
    while (consume(',')) {
      SB_ASSIGN_OR_RETURN(std::string extra, parseOpaque(depth + 1));
      text += ", " + extra;
    }
    SB_TRY(expect('>', "to close " + std::string(keyword) + " type"));
    text += ">";
    type.text = std::move(text);
    return type;
  }

  // tuple ::= 'tuple' '<' [type (',' type)*] '>'
  Result<MlirType> parseTuple(int depth) {
    SB_TRY(expect('<', "after 'tuple'"));
    MlirType type;
    type.kind = MlirType::Kind::kTuple;
    std::string text = "tuple<";
    if (!consume('>')) {
      while (true) {
        SB_ASSIGN_OR_RETURN(MlirType element, parseType(depth + 1));
        if (!type.elements.empty()) text += ", ";
        text += element.text;
        type.elements.push_back(std::move(element));
        if (consume(',')) continue;
        SB_TRY(expect('>', "to close tuple type"));
        break;
      }
    }
    text += ">";
    type.text = std::move(text);
    return type;
  }

  // dialect-type ::= '!' identifier [body]     body ::= '<' ... '>'
  // `!stablehlo.token` and `!mhlo.token` are the token types.
  Result<MlirType> parseDialectType(int depth) {
    ++pos_;  // '!'
    std::string_view name = readIdentifier();
    if (name.empty())
      return error("expected dialect type name after '!', got " + describeAt(text_, pos_));
    MlirType type;
    type.text = "!";
    type.text += name;
    if (peek() == '<') {
      SB_ASSIGN_OR_RETURN(std::string body, parseOpaque(depth + 1));
      type.text += body;
    } else if (name == "stablehlo.token" || name == "mhlo.token") {
      type.kind = MlirType::Kind::kToken;
    }
    return type;
  }

  // Reads an attribute or type body MLIR would hand to a dialect: anything up
  // to the first top-level ',' or '>' (or the end of a '<...>' group when it
  // starts with '<'), with brackets balanced and string literals kept intact.
  // Returns it whitespace-normalised: runs of blanks become one space, and no
  // space is kept just inside brackets or before a comma.
  Result<std::string> parseOpaque(int depth) {
    skipSpace();
    size_t start = pos_;
    std::string out;
    std::vector<char> closers;
    bool pendingSpace = false;
    // `tight` marks a closer or comma, which takes no blank before it.
    auto emit = [&](char c, bool tight) {
      bool suppress = out.empty() || out.back() == '<' || out.back() == '(' || out.back() == '[' ||
                      out.back() == '{' || tight;
      // Dropping the blank must not fuse two bytes into an operator
      // (`- >` into `->`, `< =` into `<=`), or the text would read back
      // differently.
      if (!out.empty() && ((out.back() == '-' && c == '>') ||
                           ((out.back() == '<' || out.back() == '>') && c == '=')))
        suppress = false;
      if (pendingSpace && !suppress) out += ' ';
      pendingSpace = false;
      out += c;
    };
    // A '<'-led body is one group: its first byte always opens it.
    bool groupOnly = peek() == '<';
    if (groupOnly) {
      closers.push_back('>');
      out += '<';
      ++pos_;
    }
    while (true) {
      if (atEnd()) {
        if (!closers.empty())
          return error(std::string("expected '") + closers.back() + "', got end of input");
        break;
      }
      char c = peek();
      if (isSpace(c)) {
        pendingSpace = true;
        ++pos_;
        continue;
      }
      if (closers.empty() && (c == ',' || c == '>')) break;
      if (c == '"') {
        size_t at = pos_;
        emit('"', false);
        ++pos_;
        while (true) {
          if (atEnd()) return errorAt(at, "unterminated string in type");
          char s = text_[pos_++];
          out += s;
          if (s == '\\' && !atEnd()) {
            out += text_[pos_++];
          } else if (s == '"') {
            break;
          }
        }
      } else if ((c == '-' || c == '>' || c == '<') && pos_ + 1 < text_.size() &&
                 ((c == '-' && text_[pos_ + 1] == '>') || text_[pos_ + 1] == '=')) {
        // `->`, `>=` and `<=` are operators (affine maps and sets), not brackets.
        emit(c, false);
        out += text_[pos_ + 1];
        pos_ += 2;
      } else if (c == '<' || c == '(' || c == '[' || c == '{') {
        if (depth + static_cast<int>(closers.size()) >= kMaxDepth)
          return error("type nesting exceeds " + std::to_string(kMaxDepth) + " levels");
        closers.push_back(c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}');
        emit(c, false);
        ++pos_;
      } else if (c == '>' || c == ')' || c == ']' || c == '}') {
        if (closers.empty()) return error(std::string("unexpected '") + c + "'");
        if (closers.back() != c) {
          if (c == '>') {  // a comparison inside (...) or [...]
            emit(c, false);
            ++pos_;
            continue;
          }
          return error(std::string("expected '") + closers.back() + "', got '" + c + "'");
        }
        closers.pop_back();
        emit(c, true);
        ++pos_;
        if (closers.empty() && groupOnly) break;
      } else {
        emit(c, c == ',');
        ++pos_;
      }
    }
    if (out.empty()) return errorAt(start, "expected attribute, got " + describeAt(text_, pos_));
    // The '>' that follows must not read as part of an arrow.
    if (out.back() == '-') out += ' ';
    return out;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<MlirType> parseMlirType(std::string_view text) { return TypeParser(text).parseAll(); }

}  // namespace shardbridge
