#include "shardbridge/convert/factorization.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "factorization_detail.h"

namespace shardbridge::convert {
namespace {

using detail::Factors;

// The running products of `sizes` after each entry other than 1, into
// `cuts`; false when an entry is below 1 or a product overflows.
// {6, 1, 4} -> {6, 24}.
bool cutPoints(std::span<const int64_t> sizes, Factors& cuts) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (size < 1) return false;
    if (size == 1) continue;
    auto next = checkedMul(product, size);
    if (!next) return false;
    product = *next;
    cuts.push_back(product);
  }
  return true;
}

std::string joinSizes(std::span<const int64_t> sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(sizes[i]);
  }
  return out + "]";
}

}  // namespace

// Written as the union of the two lists' cut points rather than upstream's
// two-cursor walk: a common refinement exists exactly when the union is a
// divisibility chain ending at the common product, and then its ratios are
// the coarsest refinement. Both formulations give the same answer.
void detail::commonFactorSequence(std::span<const int64_t> a, std::span<const int64_t> b,
                                  Factors& out) {
  out.clear();
  Factors cutsA;
  Factors cutsB;
  if (!cutPoints(a, cutsA) || !cutPoints(b, cutsB) || cutsA.empty() || cutsB.empty()) return;
  if (cutsA.back() != cutsB.back()) return;
  // Merge the two ascending chains, dropping repeats, and take the ratios.
  int64_t previous = 1;
  size_t i = 0;
  size_t j = 0;
  while (i < cutsA.size() || j < cutsB.size()) {
    int64_t cut = 0;
    if (j == cutsB.size() || (i < cutsA.size() && cutsA[i] <= cutsB[j])) {
      cut = cutsA[i++];
    } else {
      cut = cutsB[j++];
    }
    if (cut == previous) continue;
    if (cut % previous != 0) {
      out.clear();
      return;
    }
    out.push_back(cut / previous);
    previous = cut;
  }
}

std::vector<int64_t> extractCommonFactorSequence(std::span<const int64_t> a,
                                                 std::span<const int64_t> b) {
  Factors factors;
  detail::commonFactorSequence(a, b, factors);
  return std::vector<int64_t>(factors.begin(), factors.end());
}

namespace {

// Analysis of an iota `[dims]<=[reshape]T(perm)` (canonical, so its reshape
// dims are all >= 2 unless there is a single one).
Status analyzeIota(const hlo::IotaTileAssignment& iota, const hlo::TileAssignment& tiles,
                   detail::TileAnalysis& result) {
  if (iota.numElements() == 1) return okStatus();
  const auto dims = iota.dims();
  const auto reshape = iota.reshapeDims();
  const auto perm = iota.transposePerm();
  // The physical device axes, major to minor (a canonical reshape has at
  // most IotaTileAssignment::kMaxReshapeRank dims).
  detail::SmallVector<int64_t, hlo::IotaTileAssignment::kMaxReshapeRank> deviceShape;
  for (size_t i = 0; i < perm.size(); ++i) {
    deviceShape.push_back(reshape[static_cast<size_t>(perm[i])]);
  }

  Factors factors;
  detail::commonFactorSequence(dims, deviceShape, factors);
  if (factors.empty()) {
    return makeError(ErrorCode::kUnsupported,
                     "tile assignment " + tiles.toString() +
                         " has no common factorisation of its tile dims " + joinSizes(dims) +
                         " and device dims " + joinSizes(deviceShape));
  }

  // Walk the factors minor to major, tracking which tile dim and which device
  // dim each one falls in; a dim is left once the factors seen in it multiply
  // to its size. Tile dims of size 1 own no factor and are stepped over.
  int64_t tileDim = static_cast<int64_t>(dims.size()) - 1;
  int64_t deviceDim = static_cast<int64_t>(deviceShape.size()) - 1;
  int64_t tileAcc = 1;
  int64_t deviceAcc = 1;
  int64_t subIndex = 0;
  for (size_t k = factors.size(); k-- > 0;) {
    while (tileDim >= 0 && dims[static_cast<size_t>(tileDim)] == 1) --tileDim;
    if (tileDim < 0 || deviceDim < 0) {
      // The factors multiply to the device count, so this cannot happen.
      return makeError(ErrorCode::kInternal,
                       "factor walk ran past the dims of " + tiles.toString());
    }
    const int64_t size = factors[k];
    result.subDims.push_back(SubDimInfo{tileDim, subIndex++,
                                        static_cast<int64_t>(perm[static_cast<size_t>(deviceDim)]),
                                        size});
    tileAcc *= size;
    deviceAcc *= size;
    if (tileAcc == dims[static_cast<size_t>(tileDim)]) {
      --tileDim;
      tileAcc = 1;
      subIndex = 0;
    }
    if (deviceAcc == deviceShape[static_cast<size_t>(deviceDim)]) {
      --deviceDim;
      deviceAcc = 1;
    }
  }
  // The key is unique: two factors sharing a tile dim and a device dim would
  // be one factor in the coarsest refinement.
  std::sort(result.subDims.begin(), result.subDims.end(),
            [](const SubDimInfo& x, const SubDimInfo& y) {
              return std::tie(x.reshapeDimIndex, x.tileDimIndex) <
                     std::tie(y.reshapeDimIndex, y.tileDimIndex);
            });
  for (const SubDimInfo& sub : result.subDims) result.localMesh.push_back(sub.size);
  return okStatus();
}

}  // namespace

Status detail::analyzeTiles(const hlo::TileAssignment& tiles, TileAnalysis& out) {
  if (tiles.numElements() < 1) {
    return makeError(ErrorCode::kInvalid, "cannot analyse an empty tile assignment");
  }
  if (const auto& iota = tiles.iotaForm()) return analyzeIota(*iota, tiles, out);
  // An explicit list is only accepted when it is the identity order, which
  // is the plain iota over the same dims; checking it needs no iota list.
  SB_ASSIGN_OR_RETURN(auto devices, tiles.devices());
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i] != static_cast<int64_t>(i)) {
      return makeError(ErrorCode::kUnsupported,
                       "tile assignment " + tiles.toString() +
                           " is an explicit device list that is not iota; only iota device "
                           "orders can be imported");
    }
  }
  SB_ASSIGN_OR_RETURN(auto iota, hlo::IotaTileAssignment::create(tiles.dimensions()));
  return analyzeIota(iota, tiles, out);
}

Result<TileAssignmentAnalysis> analyzeTileAssignment(const hlo::TileAssignment& tiles) {
  detail::TileAnalysis analysis;
  SB_TRY(detail::analyzeTiles(tiles, analysis));
  TileAssignmentAnalysis result;
  result.subDims.assign(analysis.subDims.begin(), analysis.subDims.end());
  result.localMesh.assign(analysis.localMesh.begin(), analysis.localMesh.end());
  return result;
}

}  // namespace shardbridge::convert
