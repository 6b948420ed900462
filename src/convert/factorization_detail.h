// The allocation-free core of factorization.h, for the import's hot path
// (private to the convert floor). The public functions wrap these.
#pragma once

#include <cstdint>
#include <span>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/factorization.h"
#include "shardbridge/hlo/tile_assignment.h"
#include "small_vector.h"

namespace shardbridge::convert::detail {

// Every entry other than 1 is at least 2 and products stay within int64, so
// a size list has at most 63 cut points and a common factor sequence at most
// 63 factors: they fit inline.
inline constexpr size_t kMaxFactors = 64;
using Factors = SmallVector<int64_t, kMaxFactors>;

// extractCommonFactorSequence into `out` (cleared first; left empty where
// that returns an empty vector).
void commonFactorSequence(std::span<const int64_t> a, std::span<const int64_t> b, Factors& out);

// analyzeTileAssignment's result, held inline.
struct TileAnalysis {
  SmallVector<SubDimInfo, 16> subDims;
  SmallVector<int64_t, 16> localMesh;
};

// analyzeTileAssignment into `out` (empty on entry); same results and errors.
Status analyzeTiles(const hlo::TileAssignment& tiles, TileAnalysis& out);

}  // namespace shardbridge::convert::detail
