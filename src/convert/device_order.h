// Internal to the convert floor: reading a device list as an iota, shared
// by any_order.cc (one sharding on one mesh) and any_order_search.cc (the
// search over device orders for a whole module). See any_order.h.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/hlo/tile_assignment.h"

namespace shardbridge::convert::detail {

using hlo::IotaTileAssignment;

// Whether `devices` holds each of [0, n) exactly once.
bool isPermutation(std::span<const int64_t> devices);

// Whether `devices` is 0, 1, ..., n - 1.
bool isIdentity(std::span<const int64_t> devices);

// Sorts the entries of row-major `list` (tile dims `dims`) along dim `dim`
// (see any_order.cc).
void sortAlongDim(std::vector<int64_t>& list, std::span<const int64_t> dims, int64_t dim);

// A greedy digit reading of the list `get(0), ..., get(n - 1)`: in an iota
// the entry at flat position j*p (p the product of the minor tile digits
// found so far) is j times the stride of the next digit, for j up to that
// digit's size. The digits found must be a reshape (strides 1, s0, s0*s1,
// ...); every entry is then checked against the digits, so a wrong guess
// can only give nullopt, never a wrong iota.
template <class Get>
std::optional<IotaTileAssignment> findIotaFormBy(std::span<const int64_t> dims, int64_t n,
                                                 const Get& get) {
  const std::optional<int64_t> product = checkedProduct(dims);
  if (n < 1 || n > hlo::kMaxDevices || !product || *product != n) return std::nullopt;
  if (get(0) != 0) return std::nullopt;
  struct Digit {
    int64_t size;
    int64_t stride;
  };
  std::vector<Digit> digits;  // minor first
  int64_t position = 1;
  while (position < n) {
    const int64_t stride = get(position);
    if (stride <= 0 || stride >= n) return std::nullopt;
    // n <= 2^31, so run * position <= 2n and run * stride <= (n + 1) * n fit.
    int64_t run = 1;
    while (run * position < n && get(run * position) == run * stride) ++run;
    if ((n / position) % run != 0) return std::nullopt;
    digits.push_back(Digit{run, stride});
    position *= run;
  }
  std::vector<Digit> byStride = digits;
  std::sort(byStride.begin(), byStride.end(),
            [](const Digit& a, const Digit& b) { return a.stride < b.stride; });
  int64_t expected = 1;
  for (const Digit& d : byStride) {
    if (d.stride != expected) return std::nullopt;
    expected *= d.size;
  }
  // Every entry: the value the digits predict at each flat position. The
  // minor digits (one split where a digit is larger than needed, which
  // predicts the same values) make a block of at most kBlock positions
  // whose offsets are tabled once; an odometer over the other digits gives
  // each block's base. A per-entry odometer cost more than the reads it
  // checks on lists of a million devices.
  // On the stack: small lists are imported one at a time by the thousand.
  // Digits have sizes >= 2 and n <= 2^31: at most 31, plus one split.
  constexpr int64_t kBlock = 1024;
  constexpr size_t kMaxDigits = 32;
  std::array<Digit, kMaxDigits> check;
  size_t checkCount = digits.size();
  std::copy(digits.begin(), digits.end(), check.begin());
  int64_t block = 1;
  size_t inner = 0;  // check[0, inner) span a block
  while (inner < checkCount) {
    const Digit d = check[inner];
    if (block * d.size <= kBlock) {
      block *= d.size;
      ++inner;
      continue;
    }
    int64_t part = kBlock / block;
    while (part > 1 && d.size % part != 0) --part;
    if (part > 1) {
      std::copy_backward(check.begin() + static_cast<std::ptrdiff_t>(inner) + 1,
                         check.begin() + static_cast<std::ptrdiff_t>(checkCount),
                         check.begin() + static_cast<std::ptrdiff_t>(checkCount) + 1);
      ++checkCount;
      check[inner] = Digit{part, d.stride};
      check[inner + 1] = Digit{d.size / part, d.stride * part};
      block *= part;
      ++inner;
    }
    break;
  }
  // Digit k repeats the offsets of the digits below it once per step.
  int64_t offsets[kBlock];
  offsets[0] = 0;
  for (size_t k = 0, filled = 1; k < inner; filled *= static_cast<size_t>(check[k].size), ++k) {
    for (size_t c = 1; c < static_cast<size_t>(check[k].size); ++c) {
      for (size_t j = 0; j < filled; ++j) {
        offsets[c * filled + j] = offsets[j] + static_cast<int64_t>(c) * check[k].stride;
      }
    }
  }
  std::array<int64_t, kMaxDigits> counter;  // only [0, checkCount) used
  std::fill_n(counter.begin(), checkCount, 0);
  int64_t base = 0;
  for (int64_t f = 0; f < n; f += block) {
    int64_t mismatch = 0;
    for (int64_t j = 0; j < block; ++j) mismatch |= get(f + j) ^ (base + offsets[static_cast<size_t>(j)]);
    if (mismatch != 0) return std::nullopt;
    for (size_t k = inner; k < checkCount; ++k) {
      if (++counter[k] < check[k].size) {
        base += check[k].stride;
        break;
      }
      base -= (check[k].size - 1) * check[k].stride;
      counter[k] = 0;
    }
  }
  // Reshape dims major to minor, i.e. by descending stride.
  std::vector<int64_t> reshape;
  for (auto it = byStride.rbegin(); it != byStride.rend(); ++it) reshape.push_back(it->size);
  if (reshape.empty()) reshape.push_back(1);
  // Transposed dims major to minor are the digits from the last found; each
  // names the reshape dim with its stride.
  std::vector<int> perm;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    for (size_t r = 0; r < byStride.size(); ++r) {
      if (byStride[byStride.size() - 1 - r].stride == it->stride) perm.push_back(static_cast<int>(r));
    }
  }
  if (perm.empty()) perm.push_back(0);
  auto iota = IotaTileAssignment::create(dims, reshape, perm);
  if (!iota.has_value()) return std::nullopt;
  // The iota lists what the digits predict; checked at each digit's first
  // step and at the last entry.
  position = 1;
  for (const Digit& d : digits) {
    if (iota->valueAtFlat(position) != d.stride) return std::nullopt;
    position *= d.size;
  }
  if (iota->valueAtFlat(n - 1) != get(n - 1)) return std::nullopt;
  return *iota;
}

}  // namespace shardbridge::convert::detail
