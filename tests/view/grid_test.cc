// The layout of `show` for ranks 0-4 (src/view/grid.cc).
#include "shardbridge/view/grid.h"

#include <gtest/gtest.h>

#include "shardbridge/hlo/text.h"

namespace shardbridge::view {
namespace {

using I64s = std::vector<int64_t>;

TileLayout tiles(const char* hlo, I64s dims) {
  return computeTiles(hlo::parseSharding(hlo).value(), dims, 4).value();
}

I64s devicesOfRow(const GridSlice& s, size_t r) {
  I64s out;
  for (const GridCell& c : s.cells[r])
    for (int64_t d : c.tile->devices) out.push_back(d);
  return out;
}

TEST(Grid, Rank0And1) {
  TileLayout r = tiles("{replicated}", {});
  Grid g0 = buildGrid(r).value();
  EXPECT_FALSE(g0.rowsDim);
  EXPECT_FALSE(g0.colsDim);
  ASSERT_EQ(g0.slices.size(), 1u);
  EXPECT_EQ(g0.slices[0].cells[0][0].tile->devices, (I64s{0, 1, 2, 3}));

  TileLayout v = tiles("{devices=[4]<=[4]}", {10});
  Grid g1 = buildGrid(v).value();
  EXPECT_FALSE(g1.rowsDim);
  EXPECT_EQ(g1.colsDim, 0);
  EXPECT_EQ(g1.colExtents, (I64s{3, 3, 3, 1}));
  EXPECT_EQ(devicesOfRow(g1.slices[0], 0), (I64s{0, 1, 2, 3}));
  // As a column instead.
  GridOptions o;
  o.rowsDim = 0;
  Grid col = buildGrid(v, o).value();
  EXPECT_EQ(col.rowExtents, (I64s{3, 3, 3, 1}));
  EXPECT_EQ(col.slices[0].cells.size(), 4u);
}

TEST(Grid, Rank2) {
  TileLayout t = tiles("{devices=[2,2]<=[2,2]T(1,0)}", {4, 6});
  Grid g = buildGrid(t).value();
  EXPECT_EQ(g.rowsDim, 0);
  EXPECT_EQ(g.colsDim, 1);
  EXPECT_EQ(devicesOfRow(g.slices[0], 0), (I64s{0, 2}));
  EXPECT_EQ(devicesOfRow(g.slices[0], 1), (I64s{1, 3}));
  EXPECT_EQ(g.colExtents, (I64s{3, 3}));
  // Transposed view.
  GridOptions o;
  o.rowsDim = 1;
  o.colsDim = 0;
  Grid tr = buildGrid(t, o).value();
  EXPECT_EQ(devicesOfRow(tr.slices[0], 0), (I64s{0, 1}));
}

TEST(Grid, Rank3SlicesTheLeadingDim) {
  TileLayout t = tiles("{devices=[2,2,2]<=[8]}", {4, 8, 16});
  Grid g = buildGrid(t).value();
  EXPECT_EQ(g.rowsDim, 1);
  EXPECT_EQ(g.colsDim, 2);
  EXPECT_EQ(g.sliceDims, (I64s{0}));
  ASSERT_EQ(g.slices.size(), 2u);
  EXPECT_EQ(sliceLabel(g, g.slices[1]), "[2:4, :, :]");
  EXPECT_EQ(devicesOfRow(g.slices[1], 1), (I64s{6, 7}));
  // Colours: each distinct device set once.
  EXPECT_EQ(g.numColors, 8);
}

TEST(Grid, Rank4WithChosenDims) {
  TileLayout t = tiles("{devices=[2,1,3,2]<=[12]}", {2, 5, 6, 4});
  GridOptions o;
  o.rowsDim = 0;
  o.colsDim = 2;
  Grid g = buildGrid(t, o).value();
  EXPECT_EQ(g.sliceDims, (I64s{1, 3}));
  ASSERT_EQ(g.slices.size(), 2u);  // dim 1 has 1 tile, dim 3 has 2
  EXPECT_EQ(sliceLabel(g, g.slices[1]), "[:, 0:5, :, 2:4]");
  // Row 1 (dim 0 tile 1), slice dim 3 tile 1: devices 6 + 2*c + 1.
  EXPECT_EQ(devicesOfRow(g.slices[1], 1), (I64s{7, 9, 11}));
}

TEST(Grid, Errors) {
  TileLayout t = tiles("{devices=[2,2]<=[4]}", {4, 4});
  GridOptions same;
  same.rowsDim = 1;
  same.colsDim = 1;
  EXPECT_FALSE(buildGrid(t, same));
  GridOptions out;
  out.rowsDim = 2;
  auto e = buildGrid(t, out);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "--rows 2 is not a dimension of a rank-2 tensor (0..1)");
  // Only --cols 0 given: rows takes the free dim.
  GridOptions cols;
  cols.colsDim = 0;
  Grid g = buildGrid(t, cols).value();
  EXPECT_EQ(g.rowsDim, 1);
}

}  // namespace
}  // namespace shardbridge::view
