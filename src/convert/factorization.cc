#include "shardbridge/convert/factorization.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "shardbridge/base/checked_math.h"

namespace shardbridge::convert {
namespace {

// The running products of `sizes` after each entry other than 1, or nullopt
// when an entry is below 1 or a product overflows. {6, 1, 4} -> {6, 24}.
std::optional<std::vector<int64_t>> cutPoints(std::span<const int64_t> sizes) {
  std::vector<int64_t> cuts;
  int64_t product = 1;
  for (int64_t size : sizes) {
    if (size < 1) return std::nullopt;
    if (size == 1) continue;
    auto next = checkedMul(product, size);
    if (!next) return std::nullopt;
    product = *next;
    cuts.push_back(product);
  }
  return cuts;
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
std::vector<int64_t> extractCommonFactorSequence(std::span<const int64_t> a,
                                                 std::span<const int64_t> b) {
  auto cutsA = cutPoints(a);
  auto cutsB = cutPoints(b);
  if (!cutsA || !cutsB || cutsA->empty() || cutsB->empty()) return {};
  if (cutsA->back() != cutsB->back()) return {};
  std::vector<int64_t> cuts;
  cuts.reserve(cutsA->size() + cutsB->size());
  std::merge(cutsA->begin(), cutsA->end(), cutsB->begin(), cutsB->end(),
             std::back_inserter(cuts));
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<int64_t> factors;
  factors.reserve(cuts.size());
  int64_t previous = 1;
  for (int64_t cut : cuts) {
    if (cut % previous != 0) return {};
    factors.push_back(cut / previous);
    previous = cut;
  }
  return factors;
}

namespace {

// Analysis of an iota `[dims]<=[reshape]T(perm)` (canonical, so its reshape
// dims are all >= 2 unless there is a single one).
Result<TileAssignmentAnalysis> analyzeIota(const hlo::IotaTileAssignment& iota,
                                           const hlo::TileAssignment& tiles) {
  TileAssignmentAnalysis result;
  if (iota.numElements() == 1) return result;
  const auto dims = iota.dims();
  const auto reshape = iota.reshapeDims();
  const auto perm = iota.transposePerm();
  // The physical device axes, major to minor.
  std::vector<int64_t> deviceShape(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) deviceShape[i] = reshape[static_cast<size_t>(perm[i])];

  const std::vector<int64_t> factors = extractCommonFactorSequence(dims, deviceShape);
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
  result.subDims.reserve(factors.size());
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
  result.localMesh.reserve(result.subDims.size());
  for (const SubDimInfo& sub : result.subDims) result.localMesh.push_back(sub.size);
  return result;
}

}  // namespace

Result<TileAssignmentAnalysis> analyzeTileAssignment(const hlo::TileAssignment& tiles) {
  if (tiles.numElements() < 1) {
    return makeError(ErrorCode::kInvalid, "cannot analyse an empty tile assignment");
  }
  if (const auto& iota = tiles.iotaForm()) return analyzeIota(*iota, tiles);
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
  return analyzeIota(iota, tiles);
}

}  // namespace shardbridge::convert
