// Fuzz target for parseMlirType (mlir_type.h): arbitrary bytes must give a
// type or an error located inside (or just past) the input; a type's
// normalised text must parse back to the same type and be a fixed point.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shardbridge/sdy/mlir_type.h"

namespace {

using shardbridge::MlirType;

bool sameType(const MlirType& a, const MlirType& b) {
  if (a.kind != b.kind || a.shape != b.shape || a.elementType != b.elementType ||
      a.text != b.text || a.elements.size() != b.elements.size())
    return false;
  for (size_t i = 0; i < a.elements.size(); ++i)
    if (!sameType(a.elements[i], b.elements[i])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = shardbridge::parseMlirType(text);
  if (!parsed.has_value()) {
    if (!parsed.error().hasOffset() || parsed.error().offset > text.size()) __builtin_trap();
    return 0;
  }
  // Only tensors carry a shape; only tuples carry elements.
  if (!parsed->shape.empty() && parsed->kind != MlirType::Kind::kRankedTensor) __builtin_trap();
  if (!parsed->elements.empty() && parsed->kind != MlirType::Kind::kTuple) __builtin_trap();
  auto again = shardbridge::parseMlirType(parsed->text);
  if (!again.has_value() || !sameType(*parsed, *again)) __builtin_trap();
  return 0;
}
