// Overflow-checked integer arithmetic for sizes and products read from input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace shardbridge {

// Returns a*b, or nullopt when the product does not fit in int64_t.
// checkedMul(1LL << 62, 4) == nullopt; checkedMul(3, -2) == -6.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Returns a+b, or nullopt on overflow.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Returns the product of `values` (1 for an empty span), or nullopt on
// overflow.
inline std::optional<int64_t> checkedProduct(std::span<const int64_t> values) {
  int64_t r = 1;
  for (int64_t v : values) {
    if (__builtin_mul_overflow(r, v, &r)) return std::nullopt;
  }
  return r;
}

// The product of `values` known not to overflow: dims that validation has
// already bounded (a tile assignment's, a mesh's). Unchecked.
inline int64_t validatedProduct(std::span<const int64_t> values) {
  int64_t r = 1;
  for (int64_t v : values) r *= v;
  return r;
}

}  // namespace shardbridge
