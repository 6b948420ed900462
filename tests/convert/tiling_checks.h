// Helpers shared by the convert floor's round-trip properties
// (import_test.cc, roundtrip_property_test.cc).
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "shardbridge/convert/factorization.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::convert::test_util {

// The prime factors of `n` >= 1, ascending, with repeats ({} for 1).
inline std::vector<int64_t> primeFactors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      out.push_back(p);
      n /= p;
    }
  }
  if (n > 1) out.push_back(n);
  return out;
}

// Whether the factors of tile dim `unreducedDim` (an UNREDUCED subgroup) of
// `tiles` run in the order of the analysis' local mesh. Only then can sdy,
// which keeps unreduced axes sorted in mesh order, give the same device order
// inside the subgroup back (docs/import.md, "What does not come back").
// True when there is no such dim or no analysis.
inline bool unreducedFactorsInOrder(const hlo::TileAssignment& tiles, int64_t unreducedDim) {
  if (unreducedDim < 0) return true;
  auto analysis = analyzeTileAssignment(tiles);
  if (!analysis.has_value()) return true;
  std::vector<std::pair<int64_t, size_t>> factors;  // (sub index, local index)
  for (size_t i = 0; i < analysis->subDims.size(); ++i) {
    if (analysis->subDims[i].tileDimIndex == unreducedDim) {
      factors.emplace_back(analysis->subDims[i].tileSubDimIndex, i);
    }
  }
  std::sort(factors.begin(), factors.end());
  // Minor first by sub index, so local indices must decrease.
  for (size_t i = 1; i < factors.size(); ++i) {
    if (factors[i].second > factors[i - 1].second) return false;
  }
  return true;
}

// For each data tile (by index), the devices holding it, sorted: equal maps
// mean the same tiling, whatever the order inside the subgroups. Linear in
// the devices (one pass over the materialised list).
inline std::map<std::vector<int64_t>, std::vector<int64_t>> devicesPerTile(
    const hlo::HloSharding& sharding) {
  std::map<std::vector<int64_t>, std::vector<int64_t>> out;
  const hlo::TileAssignment& tiles = sharding.tileAssignment();
  auto devices = tiles.devices();
  RC_ASSERT(devices.has_value());
  const std::span<const int64_t> dims = tiles.dimensions();
  const size_t dataRank = static_cast<size_t>(sharding.tiledDataRank());
  std::vector<int64_t> index(dims.size());
  for (size_t flat = 0; flat < devices->size(); ++flat) {
    int64_t rest = static_cast<int64_t>(flat);
    for (size_t k = dims.size(); k-- > 0;) {
      index[k] = rest % dims[k];
      rest /= dims[k];
    }
    out[std::vector<int64_t>(index.begin(), index.begin() + static_cast<std::ptrdiff_t>(dataRank))]
        .push_back((*devices)[flat]);
  }
  for (auto& [tile, list] : out) std::sort(list.begin(), list.end());
  return out;
}

}  // namespace shardbridge::convert::test_util
