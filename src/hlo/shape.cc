// The HLO shape model and its recursive-descent parser.
#include "shardbridge/hlo/shape.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "shardbridge/base/checked_math.h"

namespace shardbridge::hlo {

namespace {

constexpr int kMaxShapeDepth = 64;

// XLA's lower-case primitive type names (primitive_util).
constexpr std::array<std::string_view, 30> kElementTypes = {
    "pred",        "s1",          "s2",           "s4",         "s8",          "s16",
    "s32",         "s64",         "u1",           "u2",         "u4",          "u8",
    "u16",         "u32",         "u64",          "f16",        "bf16",        "f32",
    "f64",         "c64",         "c128",         "f8e5m2",     "f8e4m3fn",    "f8e4m3b11fnuz",
    "f8e5m2fnuz",  "f8e4m3fnuz",  "f8e4m3",       "f8e3m4",     "f4e2m1fn",    "f8e8m0fnu"};

class ShapeParser {
 public:
  explicit ShapeParser(std::string_view text) : text_(text) {}

  Result<Shape> run() {
    SB_ASSIGN_OR_RETURN(Shape shape, parseShape(0));
    skipSpace();
    if (pos_ != text_.size()) return error("unexpected text after shape");
    return shape;
  }

 private:
  Error error(std::string message) const {
    return makeError(ErrorCode::kParse, std::move(message), pos_);
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool eat(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // shape ::= tuple | array
  Result<Shape> parseShape(int depth) {
    if (depth > kMaxShapeDepth) return error("shape nesting deeper than 64");
    skipSpace();
    if (eat('(')) return parseTupleRest(depth);
    return parseArray();
  }

  // tuple ::= '(' [shape (',' shape)*] ')'     ('(' already consumed)
  Result<Shape> parseTupleRest(int depth) {
    std::vector<Shape> elements;
    if (eat(')')) return Shape::tuple(std::move(elements));
    do {
      SB_ASSIGN_OR_RETURN(Shape element, parseShape(depth + 1));
      elements.push_back(std::move(element));
    } while (eat(','));
    if (!eat(')')) return error("expected ')' at the end of tuple shape");
    return Shape::tuple(std::move(elements));
  }

  // array ::= TYPE '[' [dim (',' dim)*] ']' layout?
  Result<Shape> parseArray() {
    skipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    const std::string_view type = text_.substr(start, pos_ - start);
    if (type.empty()) {
      pos_ = start;
      return error("expected primitive type or '('");
    }
    const bool isToken = type == "token";
    if (!isToken && type != "opaque" &&
        std::find(kElementTypes.begin(), kElementTypes.end(), type) == kElementTypes.end()) {
      pos_ = start;
      return error("unknown primitive type '" + std::string(type) + "'");
    }
    if (!eat('[')) return error("expected '[' after primitive type");
    std::vector<int64_t> dims;
    std::vector<bool> dynamic;
    if (!eat(']')) {
      do {
        SB_TRY(parseDim(dims, dynamic));
      } while (eat(','));
      if (!eat(']')) return error("expected ']' to close shape dimensions");
    }
    SB_TRY(skipLayout());
    if (isToken) {
      if (!dims.empty()) return error("token shapes have no dimensions");
      return Shape::token();
    }
    return Shape::array(std::string(type), std::move(dims), std::move(dynamic));
  }

  // dim ::= INT | '<=' INT | '?'
  Status parseDim(std::vector<int64_t>& dims, std::vector<bool>& dynamic) {
    if (eat('?')) {
      dims.push_back(Shape::kUnboundedSize);
      dynamic.push_back(true);
      return okStatus();
    }
    skipSpace();
    bool bounded = false;
    if (text_.substr(pos_, 2) == "<=") {
      pos_ += 2;
      bounded = true;
      skipSpace();
    }
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      auto v = checkedMul(value, 10);
      if (v) v = checkedAdd(*v, text_[pos_] - '0');
      if (!v) {
        pos_ = start;
        return error("dimension size out of range");
      }
      value = *v;
      ++pos_;
    }
    if (pos_ == start) return error("expected dimension size");
    dims.push_back(value);
    dynamic.push_back(bounded);
    return okStatus();
  }

  // layout ::= '{' anything-with-balanced-braces '}'   (ignored)
  Status skipLayout() {
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '{') return okStatus();
    int depth = 0;
    do {
      if (text_[pos_] == '{') ++depth;
      if (text_[pos_] == '}') --depth;
      ++pos_;
    } while (depth > 0 && pos_ < text_.size());
    if (depth != 0) return error("expected '}' to close layout");
    return okStatus();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Shape Shape::array(std::string elementType, std::vector<int64_t> dims, std::vector<bool> dynamic) {
  Shape s;
  s.kind_ = Kind::kArray;
  s.elementType_ = std::move(elementType);
  if (dynamic.size() != dims.size()) dynamic.assign(dims.size(), false);
  s.dims_ = std::move(dims);
  s.dynamic_ = std::move(dynamic);
  return s;
}

Shape Shape::token() {
  Shape s;
  s.kind_ = Kind::kToken;
  s.elementType_ = "token";
  return s;
}

Shape Shape::tuple(std::vector<Shape> elements) {
  Shape s;
  s.kind_ = Kind::kTuple;
  s.elements_ = std::move(elements);
  return s;
}

int64_t Shape::leafCount() const {
  if (!isTuple()) return 1;
  int64_t n = 0;
  for (const Shape& e : elements_) n += e.leafCount();
  return n;
}

void Shape::collectLeaves(std::vector<const Shape*>& out) const {
  if (!isTuple()) {
    out.push_back(this);
    return;
  }
  for (const Shape& e : elements_) e.collectLeaves(out);
}

std::string Shape::toString() const {
  if (isTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < elements_.size(); ++i) {
      if (i) out += ", ";
      out += elements_[i].toString();
    }
    return out + ")";
  }
  std::string out = elementType_ + "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) out += ',';
    if (dims_[i] == kUnboundedSize) {
      out += '?';
      continue;
    }
    if (dynamic_[i]) out += "<=";
    out += std::to_string(dims_[i]);
  }
  return out + "]";
}

Result<Shape> parseShape(std::string_view text) { return ShapeParser(text).run(); }

}  // namespace shardbridge::hlo
