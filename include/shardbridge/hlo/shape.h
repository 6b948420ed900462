// A small model of XLA's Shape, enough to validate shardings against: an
// array (element type + dimensions), a token, or a tuple of shapes.
//
//   auto s = parseShape("(f32[4,6]{1,0}, s32[])").value();
//   s.isTuple()        -> true
//   s.leafCount()      -> 2
//   s.toString()       -> "(f32[4,6], s32[])"     (ShapeUtil::HumanString)
//
// Layouts (`{1,0}`, `{1,0:T(8,128)}`) are accepted and ignored. Dynamic
// dimensions `<=4` and `?` are kept (they print back the same way).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge::hlo {

class Shape {
 public:
  // Size recorded for an unbounded dynamic dimension (`?`), as XLA's
  // Shape::kUnboundedSize.
  static constexpr int64_t kUnboundedSize = INT64_MIN;

  // An array `elementType[dims]`; `dynamic` (empty, or one flag per dim)
  // marks bounded-dynamic `<=N` dims. Not checked: parseShape checks.
  static Shape array(std::string elementType, std::vector<int64_t> dims,
                     std::vector<bool> dynamic = {});
  static Shape token();
  static Shape tuple(std::vector<Shape> elements);

  bool isTuple() const { return kind_ == Kind::kTuple; }
  bool isToken() const { return kind_ == Kind::kToken; }
  bool isArray() const { return kind_ == Kind::kArray; }

  const std::string& elementType() const { return elementType_; }
  const std::vector<int64_t>& dimensions() const { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  const std::vector<Shape>& tupleShapes() const { return elements_; }

  // ShapeUtil::GetLeafCount: 1 for a non-tuple, the sum over elements for a
  // tuple (so 0 for `()`).
  int64_t leafCount() const;
  // The non-tuple leaves in pre-order (ShapeTree leaf order).
  void collectLeaves(std::vector<const Shape*>& out) const;

  // ShapeUtil::HumanString: "f32[4,6]", "(f32[4], s32[2,3])", "f32[]",
  // "token[]", "f32[<=4,?]".
  std::string toString() const;

  friend bool operator==(const Shape&, const Shape&) = default;

 private:
  enum class Kind : uint8_t { kArray, kToken, kTuple };
  Kind kind_ = Kind::kArray;
  std::string elementType_;
  std::vector<int64_t> dims_;
  std::vector<bool> dynamic_;
  std::vector<Shape> elements_;
};

// Parses one HLO shape:
//   shape  ::= '(' [shape (',' shape)*] ')' | TYPE '[' [dim (',' dim)*] ']' layout?
//   dim    ::= INT | '<=' INT | '?'
//   layout ::= '{' ... '}'            (skipped)
// TYPE is an XLA primitive type name (pred, s8..s64, u8..u64, f16, bf16, f32,
// f64, c64, c128, the f8/f4 types, token, opaque). Whitespace is free.
// Rejects unknown types, negative sizes, nesting deeper than 64, and
// trailing text. Errors carry the byte offset.
Result<Shape> parseShape(std::string_view text);

}  // namespace shardbridge::hlo
