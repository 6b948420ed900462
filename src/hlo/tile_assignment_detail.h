// The helpers tile_assignment.cc and iota_tile_assignment.cc share: dims
// checks with their messages, permutation and transpose tests, integer
// lists (hlo_sharding.cc's iotaTile uses the dims test too). Internal to the
// hlo floor.
#pragma once

#include <charconv>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/base/result.h"
#include "shardbridge/hlo/tile_assignment.h"

namespace shardbridge::hlo::detail {


// Appends `values` joined by ',' (to_chars: no temporaries).
inline void appendInts(std::string& out, std::span<const int64_t> values) {
  char buf[24];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, values[i]);
    (void)ec;
    out.append(buf, end);
  }
}

inline std::string joinInts(std::span<const int64_t> values) {
  std::string out;
  appendInts(out, values);
  return out;
}

// The product of a valid dims list (non-empty, every entry >= 1, product <=
// kMaxDevices), or -1: the allocation-free test in front of the checks
// below, which build the messages.
inline int64_t validDimsProduct(std::span<const int64_t> dims) {
  if (dims.empty()) return -1;
  int64_t product = 1;
  for (int64_t d : dims) {
    // Both factors are <= 2^31, so the product cannot overflow.
    if (d < 1 || d > kMaxDevices) return -1;
    product *= d;
    if (product > kMaxDevices) return -1;
  }
  return product;
}

// Checks a dims list: non-empty, every entry >= 1, product <= kMaxDevices.
// Returns the product. `what` names the list in the message.
inline Result<int64_t> checkedDimsProduct(std::span<const int64_t> dims, const char* what) {
  if (const int64_t n = validDimsProduct(dims); n >= 0) return n;
  if (dims.empty()) return invalidError(std::string(what) + " must not be empty");
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d < 1) {
      return invalidError(std::string(what) + " must be positive, got " + std::to_string(d));
    }
    auto p = checkedMul(product, d);
    if (!p || *p > kMaxDevices) {
      return invalidError(std::string(what) + " [" + joinInts(dims) +
                     "] describe more than 2^31 devices");
    }
    product = *p;
  }
  return product;
}

// Whether `perm` is a permutation of [0, n).
inline bool isPermutation(std::span<const int> perm, size_t n) {
  if (perm.size() != n) return false;
  if (n <= 64) {
    uint64_t seen = 0;
    for (int p : perm) {
      if (p < 0 || static_cast<size_t>(p) >= n || (seen >> p & 1)) return false;
      seen |= uint64_t{1} << p;
    }
    return true;
  }
  std::vector<bool> seen(n, false);
  for (int p : perm) {
    if (p < 0 || static_cast<size_t>(p) >= n || seen[static_cast<size_t>(p)]) return false;
    seen[static_cast<size_t>(p)] = true;
  }
  return true;
}

enum class TransposeKind { kNoop, kReshape, kTranspose };

// Classifies a transpose of an array with `dims` by `perm`: nothing moves,
// only size-1 dims move (the flat order is unchanged), or a real transpose.
inline TransposeKind transposeKind(std::span<const int64_t> dims, std::span<const int> perm) {
  TransposeKind kind = TransposeKind::kNoop;
  int prevNonOne = -1;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int d = perm[i];
    if (dims[static_cast<size_t>(d)] == 1) {
      if (static_cast<size_t>(d) != i && dims[i] != 1) kind = TransposeKind::kReshape;
      continue;
    }
    if (d <= prevNonOne) return TransposeKind::kTranspose;
    prevNonOne = d;
  }
  return kind;
}

}  // namespace shardbridge::hlo::detail
