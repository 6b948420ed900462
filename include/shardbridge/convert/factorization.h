// Factor algebra behind the import of V2 tile assignments (docs/upstream.md § Tile assignment analysis): the
// common factor sequence of two size lists, and the split of an iota tile
// assignment into the "local mesh" its devices are laid out on.
//
//   extractCommonFactorSequence({4, 8}, {8, 4})            -> {4, 2, 4}
//   analyzeTileAssignment({devices=[6,35]<=[7,10,3]T(2,1,0)})->localMesh
//                                                          -> {7, 2, 5, 3}
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/tile_assignment.h"

namespace shardbridge::convert {

// Returns the coarsest sequence of factors that refines both `a` and `b`
// (XLA's ExtractCommonFactorSequence): entries of 1 are ignored, and every
// prefix product of `a` and of `b` must be a prefix product of the result.
// Returns an empty vector when there is none: the products differ, a prefix
// product of one list does not divide (or is not a multiple of) one of the
// other, an entry is below 1, or a product overflows int64. The empty
// vector also stands for two lists of only 1s (product 1: nothing to
// factor).
//   f({2, 3}, {3, 2})       -> {}           (2 and 3 do not divide each other)
//   f({4, 8}, {8, 4})       -> {4, 2, 4}    (cuts {4, 32} and {8, 32})
//   f({6, 1, 4}, {2, 6, 2}) -> {2, 3, 2, 2} (cuts {6, 24} and {2, 12, 24})
// The result does not depend on the argument order, so folding a list of
// size lists with it gives the same result in any order.
std::vector<int64_t> extractCommonFactorSequence(std::span<const int64_t> a,
                                                 std::span<const int64_t> b);

// One factor of the local mesh of a tile assignment: which tile dim it
// belongs to, its place inside that tile dim (0 = minor-most), the reshape
// dim of the iota it comes from, and its size (upstream's SubDimInfo).
struct SubDimInfo {
  int64_t tileDimIndex = 0;
  int64_t tileSubDimIndex = 0;
  int64_t reshapeDimIndex = 0;
  int64_t size = 1;
  friend bool operator==(const SubDimInfo&, const SubDimInfo&) = default;
};

// The result of analyzeTileAssignment: the factors sorted by
// (reshapeDimIndex, tileDimIndex), i.e. device-major, and their sizes (the
// local mesh). Both are empty for a one-device assignment.
struct TileAssignmentAnalysis {
  std::vector<SubDimInfo> subDims;
  std::vector<int64_t> localMesh;
};

// Splits an iota tile assignment `[dims]<=[reshape]T(perm)` into the common
// factors of its tile dims and its device dims (reshape permuted by perm),
// as XLA's AnalyzeTileAssignment does (docs/upstream.md § Tile assignment analysis).
//   {devices=[6,35]<=[7,10,3]T(2,1,0)} -> localMesh {7, 2, 5, 3}, subDims
//     {1,0,0,7}, {0,0,1,2}, {1,1,1,5}, {0,1,2,3}
//   {devices=[4,8]<=[8,4]T(1,0)}       -> localMesh {8, 4}
// An explicit (V1) device list is accepted when it is exactly iota(N) in
// row-major order (`{devices=[2,2]0,1,2,3}` is `{devices=[2,2]<=[4]}`).
// Errors (never an abort), kUnsupported:
//   * an iota whose tile dims and device dims have no common factorisation
//     (upstream aborts): `tile assignment devices=[2,3]<=[2,3]T(1,0) has no
//     common factorisation of its tile dims [2,3] and device dims [3,2]`;
//   * any other explicit device list (to be handled by the any-order import):
//     `tile assignment devices=[2,2]0,2,1,3 is an explicit device list that
//     is not iota; only iota device orders can be imported`.
Result<TileAssignmentAnalysis> analyzeTileAssignment(const hlo::TileAssignment& tiles);

}  // namespace shardbridge::convert
