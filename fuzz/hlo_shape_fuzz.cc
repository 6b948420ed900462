// Fuzz target for the HLO shape parser (hlo::parseShape): any bytes in; when
// they parse, the printed form (ShapeUtil::HumanString, layouts dropped,
// dynamic dims kept as `<=N` / `?`) must parse back to an equal shape that
// prints identically, with the same leaf count and leaves.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/hlo/shape.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  using shardbridge::hlo::parseShape;
  using shardbridge::hlo::Shape;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parseShape(text);
  if (!parsed.has_value()) return 0;
  const std::string printed = parsed->toString();
  auto again = parseShape(printed);
  if (!again.has_value()) __builtin_trap();
  if (!(*again == *parsed)) __builtin_trap();
  if (again->toString() != printed) __builtin_trap();

  // Structure: leafCount agrees with the collected leaves, none a tuple.
  std::vector<const Shape*> leaves;
  parsed->collectLeaves(leaves);
  if (static_cast<int64_t>(leaves.size()) != parsed->leafCount()) __builtin_trap();
  for (const Shape* leaf : leaves) {
    if (leaf->isTuple()) __builtin_trap();
    if (leaf->isToken() && leaf->rank() != 0) __builtin_trap();
    for (int64_t d : leaf->dimensions()) {
      if (d < 0 && d != Shape::kUnboundedSize) __builtin_trap();
    }
  }
  return 0;
}
