// The layout `shardbridge show` draws: a tensor's tiles as 2-D grids.
//
// One tensor dim runs down the rows, one across the columns; every other
// dim is sliced (one grid per combination of its tile indices, in
// row-major order). Each cell is one tile with all the devices that hold
// it (replicas together, as jax.debug.visualize_sharding shows them); row
// heights and column widths are proportional to the tile extents.
//
//   buildGrid(tiles of {devices=[2,2,2]<=[8]} on f32[4,8,16], {})
//     rows dim 1 (2 tiles), cols dim 2 (2 tiles), 2 slices over dim 0;
//     slice 0: [[0, 1], [2, 3]]; slice 1: [[4, 5], [6, 7]]
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shardbridge/base/json_writer.h"
#include "shardbridge/base/result.h"
#include "shardbridge/view/tiles.h"

namespace shardbridge::view {

struct GridOptions {
  // Tensor dims for rows and columns. Defaults: rank 0 -> neither; rank 1
  // -> columns dim 0 (a single row, as JAX draws a vector); rank >= 2 ->
  // rows rank-2, columns rank-1 (the last two dims, the way numpy prints a
  // 3-D array, so leading dims become slices).
  std::optional<int64_t> rowsDim;
  std::optional<int64_t> colsDim;
};

struct GridCell {
  const Tile* tile = nullptr;  // points into the TileLayout given to buildGrid
  // Index of the cell's device set among all distinct device sets, in order
  // of first appearance: the colour of the cell.
  int64_t colorIndex = 0;
};

struct GridSlice {
  // Tile index and element range of each sliced dim (entries for the row
  // and column dims are 0 / the whole dim).
  std::vector<int64_t> index;
  std::vector<int64_t> offset;
  std::vector<int64_t> limit;
  std::vector<std::vector<GridCell>> cells;  // [row][col]
};

struct Grid {
  const TileLayout* layout = nullptr;
  std::optional<int64_t> rowsDim, colsDim;
  std::vector<int64_t> sliceDims;  // the other dims, ascending
  // Element extent of each row / column of tiles (1 entry when that
  // direction has no dim, of extent 1).
  std::vector<int64_t> rowExtents, colExtents;
  std::vector<int64_t> rowOffsets, colOffsets;
  std::vector<GridSlice> slices;
  int64_t numColors = 0;
};

// Lays out `layout` (which must outlive the Grid). Either dim may be given
// alone (the other keeps its default unless that is the same dim; then it
// takes the lowest free dim). Errors (kInvalid): a dim outside [0, rank),
// rows and columns the same dim; more than kMaxViewTiles cells.
Result<Grid> buildGrid(const TileLayout& layout, const GridOptions& options = {});

// The grid as JSON (schema in docs/view.md); `header` members (sharding,
// shape) are written by the caller before.
void writeGridJson(JsonWriter& w, const Grid& grid);

// "[0:4, :, 8:16]": the slice's ranges, ':' for the row and column dims.
std::string sliceLabel(const Grid& grid, const GridSlice& slice);

}  // namespace shardbridge::view
