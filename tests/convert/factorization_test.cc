// Tests for extractCommonFactorSequence and analyzeTileAssignment
// (docs/upstream.md § Tile assignment analysis). Rows say where their expectation comes from: "upstream.md § Tile assignment analysis" = the
// doc examples quoted there from XLA, "lit" = the mesh sizes of
// openxla/xla xla/service/spmd/shardy/test/import_shardings.mlir @19e426b0
// (function named), "derived" = worked by hand (reasoning given).
#include "shardbridge/convert/factorization.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "shardbridge/hlo/text.h"

namespace shardbridge::convert {
namespace {

using I64s = std::vector<int64_t>;

struct FactorRow {
  const char* source;
  I64s a;
  I64s b;
  I64s expected;
};

const FactorRow kFactorRows[] = {
    {"docs/upstream.md § Tile assignment analysis doc example", {2, 3}, {3, 2}, {}},
    {"docs/upstream.md § Tile assignment analysis doc example", {4, 8}, {8, 4}, {4, 2, 4}},
    {"docs/upstream.md § Tile assignment analysis doc example", {6, 1, 4}, {2, 6, 2}, {2, 3, 2, 2}},
    {"derived: cuts {8} and {2,8}", {8}, {2, 4}, {2, 4}},
    {"derived: identical lists are their own refinement", {7, 2, 5, 3}, {7, 2, 5, 3}, {7, 2, 5, 3}},
    {"derived: 1s are skipped anywhere", {1, 4, 1, 1}, {1, 2, 2}, {2, 2}},
    {"derived: products 4 and 8 differ", {4}, {8}, {}},
    {"derived: product 1 has no factors", {1, 1}, {1}, {}},
    {"derived: empty lists", {}, {}, {}},
    {"derived: an entry below 1 is rejected", {0, 4}, {4}, {}},
    {"derived: negative entries are rejected", {-2, -2}, {4}, {}},
    {"derived: a product overflowing int64 is rejected",
     {int64_t{1} << 40, int64_t{1} << 40}, {int64_t{1} << 40, int64_t{1} << 40}, {}},
    {"derived: cut 6 vs cut 4 (neither divides the other)", {6, 4}, {4, 6}, {}},
    {"docs/upstream.md import example 1 fold: [8,4] with [2,16]", {8, 4}, {2, 16}, {2, 4, 4}},
    {"docs/upstream.md import example 1 fold: [2,4,4] with [2,4,4]", {2, 4, 4}, {2, 4, 4}, {2, 4, 4}},
};

TEST(ExtractCommonFactorSequence, GoldenRows) {
  for (const FactorRow& row : kFactorRows) {
    EXPECT_EQ(extractCommonFactorSequence(row.a, row.b), row.expected) << row.source;
    EXPECT_EQ(extractCommonFactorSequence(row.b, row.a), row.expected)
        << row.source << " (arguments swapped)";
  }
}

// The result refines both inputs: every prefix product of either (1s
// skipped) is a prefix product of the result, and the products agree.
RC_GTEST_PROP(ExtractCommonFactorSequenceProps, RefinesBothAndIsSymmetric, ()) {
  const auto gen = rc::gen::container<I64s>(*rc::gen::inRange<size_t>(0, 5),
                                            rc::gen::element<int64_t>(1, 2, 3, 4, 6, 8, 9));
  const I64s a = *gen;
  const I64s b = *gen;
  const I64s r = extractCommonFactorSequence(a, b);
  RC_ASSERT(r == extractCommonFactorSequence(b, a));
  if (r.empty()) return;
  std::vector<int64_t> cuts;
  int64_t p = 1;
  for (int64_t f : r) {
    RC_ASSERT(f >= 2);
    p *= f;
    cuts.push_back(p);
  }
  for (const I64s* list : {&a, &b}) {
    int64_t q = 1;
    for (int64_t v : *list) {
      if (v == 1) continue;
      q *= v;
      RC_ASSERT(std::find(cuts.begin(), cuts.end(), q) != cuts.end());
    }
    RC_ASSERT(q == p);
  }
}

struct AnalysisRow {
  const char* source;
  const char* sharding;  // a tiled sharding; its tile assignment is analysed
  I64s localMesh;
  std::vector<SubDimInfo> subDims;  // empty: not checked
};

const AnalysisRow kAnalysisRows[] = {
    {"docs/upstream.md § Tile assignment analysis example (sub-dims as listed there)", "{devices=[6,35]<=[7,10,3]T(2,1,0)}",
     {7, 2, 5, 3},
     {{1, 0, 0, 7}, {0, 0, 1, 2}, {1, 1, 1, 5}, {0, 1, 2, 3}}},
    {"docs/upstream.md import example 1", "{devices=[4,8]<=[8,4]T(1,0)}", {8, 4}, {{1, 0, 0, 8}, {0, 0, 1, 4}}},
    {"docs/upstream.md import example 1", "{devices=[1,2,16]<=[32] last_tile_dim_replicate}", {2, 16},
     {{1, 0, 0, 2}, {2, 0, 0, 16}}},
    {"docs/upstream.md import example 1", "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}", {2, 4, 4},
     {{2, 0, 0, 2}, {0, 0, 1, 4}, {1, 0, 1, 4}}},
    {"docs/upstream.md import example 4 (local [2,2,2]: dim1, replicated, dim0)",
     "{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}", {2, 2, 2},
     {{1, 0, 0, 2}, {2, 0, 0, 2}, {0, 0, 1, 2}}},
    {"derived: the subgroup-fix example of docs/upstream.md § Import steps, step 6; device dims [4,8], tile cuts "
     "{4,8,32} -> [4,2,4] walked minor first, then sorted by reshape dim",
     "{devices=[4,1,2,4]<=[8,4]T(1,0) last_tile_dims={unreduced, replicated}}", {2, 4, 4},
     {{2, 0, 0, 2}, {3, 0, 0, 4}, {0, 0, 1, 4}}},
    {"lit @prime_number_2 (mesh 2,3,5,7,11)", "{devices=[33,10,1,7]<=[2,3,5,7,11]T(1,4,2,0,3)}",
     {2, 3, 5, 7, 11}, {}},
    {"lit @prime_number_2", "{devices=[7,55,6,1]<=[2,3,5,7,11]T(3,2,4,1,0)}", {2, 3, 5, 7, 11},
     {}},
    {"lit @single_axis", "{devices=[16,1]<=[16]}", {16}, {{0, 0, 0, 16}}},
    {"derived: a V1 list in identity order is the plain iota [2,2]<=[4]",
     "{devices=[2,2]0,1,2,3}", {2, 2}, {{0, 0, 0, 2}, {1, 0, 0, 2}}},
};

TEST(AnalyzeTileAssignment, GoldenRows) {
  for (const AnalysisRow& row : kAnalysisRows) {
    auto sharding = hlo::parseSharding(row.sharding);
    ASSERT_TRUE(sharding.has_value()) << row.sharding << ": " << sharding.error().message;
    auto analysis = analyzeTileAssignment(sharding->tileAssignment());
    ASSERT_TRUE(analysis.has_value()) << row.source << ": " << analysis.error().message;
    EXPECT_EQ(analysis->localMesh, row.localMesh) << row.source;
    if (!row.subDims.empty()) {
      EXPECT_EQ(analysis->subDims, row.subDims) << row.source;
    }
  }
}

TEST(AnalyzeTileAssignment, OneDevice) {
  // derived: one device has nothing to factor.
  auto tiles = hlo::TileAssignment::iota(I64s{1, 1});
  ASSERT_TRUE(tiles.has_value());
  auto analysis = analyzeTileAssignment(*tiles);
  ASSERT_TRUE(analysis.has_value());
  EXPECT_TRUE(analysis->localMesh.empty());
  EXPECT_TRUE(analysis->subDims.empty());
}

struct FactorErrorRow {
  const char* source;
  const char* sharding;
  const char* message;
};

const FactorErrorRow kFactorErrorRows[] = {
    {"docs/upstream.md § Tile assignment analysis: upstream aborts on this one", "{devices=[2,3]<=[2,3]T(1,0)}",
     "tile assignment devices=[2,3]<=[2,3]T(1,0) has no common factorisation of its tile dims "
     "[2,3] and device dims [3,2]"},
    {"issue 4 item 4a: a transposed iota as a V1 list (item 4, not yet)",
     "{devices=[2,2]0,2,1,3}",
     "tile assignment devices=[2,2]0,2,1,3 is an explicit device list that is not iota; only "
     "iota device orders can be imported"},
    {"issue 4 item 4b: a TPU ring order", "{devices=[4,2]0,1,2,3,6,7,4,5}",
     "tile assignment devices=[4,2]0,1,2,3,6,7,4,5 is an explicit device list that is not "
     "iota; only iota device orders can be imported"},
};

TEST(AnalyzeTileAssignment, Errors) {
  for (const FactorErrorRow& row : kFactorErrorRows) {
    auto sharding = hlo::parseSharding(row.sharding);
    ASSERT_TRUE(sharding.has_value()) << row.sharding << ": " << sharding.error().message;
    auto analysis = analyzeTileAssignment(sharding->tileAssignment());
    ASSERT_FALSE(analysis.has_value()) << row.source;
    EXPECT_EQ(analysis.error().code, ErrorCode::kUnsupported) << row.source;
    EXPECT_EQ(analysis.error().message, row.message) << row.source;
  }
  EXPECT_FALSE(analyzeTileAssignment(hlo::TileAssignment()).has_value());
}

}  // namespace
}  // namespace shardbridge::convert
