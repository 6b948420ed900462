#include "shardbridge/view/grid.h"

#include <algorithm>
#include <map>

namespace shardbridge::view {
namespace {


}  // namespace

Result<Grid> buildGrid(const TileLayout& layout, const GridOptions& options) {
  const int64_t rank = static_cast<int64_t>(layout.dims.size());
  auto check = [&](const char* what, std::optional<int64_t> d) -> Status {
    if (d && (*d < 0 || *d >= rank)) {
      return invalidError(std::string("--") + what + " " + std::to_string(*d) +
                     " is not a dimension of a rank-" + std::to_string(rank) + " tensor" +
                     (rank ? " (0.." + std::to_string(rank - 1) + ")" : ""));
    }
    return okStatus();
  };
  SB_TRY(check("rows", options.rowsDim));
  SB_TRY(check("cols", options.colsDim));
  if (options.rowsDim && options.colsDim && *options.rowsDim == *options.colsDim) {
    return invalidError("--rows and --cols are both dimension " + std::to_string(*options.rowsDim));
  }
  if (layout.tiles.size() > static_cast<size_t>(kMaxViewTiles)) {
    return invalidError(std::to_string(layout.tiles.size()) + " tiles: more than the " +
                   std::to_string(kMaxViewTiles) + " cells show draws");
  }

  Grid grid;
  grid.layout = &layout;
  // Defaults, then resolve a collision with an explicitly given dim.
  std::optional<int64_t> rows = options.rowsDim, cols = options.colsDim;
  auto lowestFree = [&](std::optional<int64_t> taken) -> std::optional<int64_t> {
    for (int64_t d = 0; d < rank; ++d)
      if (!taken || d != *taken) return d;
    return std::nullopt;
  };
  if (!rows && !cols) {
    if (rank == 1) cols = 0;
    if (rank >= 2) {
      rows = rank - 2;
      cols = rank - 1;
    }
  } else if (!cols) {
    if (rank >= 2) cols = *rows == rank - 1 ? lowestFree(rows) : std::optional<int64_t>(rank - 1);
  } else if (!rows) {
    if (rank >= 2) rows = *cols == rank - 2 ? lowestFree(cols) : std::optional<int64_t>(rank - 2);
    if (rows && *rows == *cols) rows = lowestFree(cols);
  }
  if (rows && cols && *rows == *cols) cols = lowestFree(rows);
  grid.rowsDim = rows;
  grid.colsDim = cols;
  for (int64_t d = 0; d < rank; ++d) {
    if ((!rows || d != *rows) && (!cols || d != *cols)) grid.sliceDims.push_back(d);
  }

  // Extents from the tiles along each axis (the first tile of each row/col).
  auto tileAt = [&](const std::vector<int64_t>& index) -> const Tile& {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d) flat = flat * layout.tileCounts[d] + index[d];
    return layout.tiles[static_cast<size_t>(flat)];
  };
  const int64_t numRows = rows ? layout.tileCounts[*rows] : 1;
  const int64_t numCols = cols ? layout.tileCounts[*cols] : 1;
  std::vector<int64_t> zero(static_cast<size_t>(rank), 0);
  for (int64_t r = 0; r < numRows; ++r) {
    std::vector<int64_t> idx = zero;
    if (rows) idx[*rows] = r;
    const Tile& t = tileAt(idx);
    grid.rowExtents.push_back(rows ? t.shape[*rows] : 1);
    grid.rowOffsets.push_back(rows ? t.offset[*rows] : 0);
  }
  for (int64_t c = 0; c < numCols; ++c) {
    std::vector<int64_t> idx = zero;
    if (cols) idx[*cols] = c;
    const Tile& t = tileAt(idx);
    grid.colExtents.push_back(cols ? t.shape[*cols] : 1);
    grid.colOffsets.push_back(cols ? t.offset[*cols] : 0);
  }

  std::map<std::vector<int64_t>, int64_t> colors;
  std::vector<int64_t> sliceIndex = zero;
  while (true) {
    GridSlice slice;
    slice.index = sliceIndex;
    slice.offset.assign(static_cast<size_t>(rank), 0);
    slice.limit = layout.dims;
    {
      const Tile& t = tileAt(sliceIndex);
      for (int64_t d : grid.sliceDims) {
        slice.offset[d] = t.offset[d];
        slice.limit[d] = t.offset[d] + t.shape[d];
      }
    }
    slice.cells.assign(static_cast<size_t>(numRows), std::vector<GridCell>(static_cast<size_t>(numCols)));
    for (int64_t r = 0; r < numRows; ++r) {
      for (int64_t c = 0; c < numCols; ++c) {
        std::vector<int64_t> idx = sliceIndex;
        if (rows) idx[*rows] = r;
        if (cols) idx[*cols] = c;
        GridCell& cell = slice.cells[r][c];
        cell.tile = &tileAt(idx);
        auto [it, inserted] = colors.emplace(cell.tile->devices, grid.numColors);
        if (inserted) ++grid.numColors;
        cell.colorIndex = it->second;
      }
    }
    grid.slices.push_back(std::move(slice));
    // Next combination of the sliced dims' tile indices.
    bool wrapped = true;
    for (size_t k = grid.sliceDims.size(); k-- > 0;) {
      int64_t d = grid.sliceDims[k];
      if (++sliceIndex[d] < layout.tileCounts[d]) {
        wrapped = false;
        break;
      }
      sliceIndex[d] = 0;
    }
    if (wrapped) break;
  }
  return grid;
}

std::string sliceLabel(const Grid& grid, const GridSlice& slice) {
  std::string s = "[";
  for (size_t d = 0; d < slice.offset.size(); ++d) {
    if (d) s += ", ";
    const bool drawn = (grid.rowsDim && *grid.rowsDim == static_cast<int64_t>(d)) ||
                       (grid.colsDim && *grid.colsDim == static_cast<int64_t>(d));
    if (drawn) {
      s += ":";
    } else {
      s += std::to_string(slice.offset[d]) + ":" + std::to_string(slice.limit[d]);
    }
  }
  return s + "]";
}

namespace {

void writeOptional(JsonWriter& w, std::optional<int64_t> v) {
  if (v) w.value(*v); else w.null();
}

}  // namespace

void writeGridJson(JsonWriter& w, const Grid& grid) {
  w.key("dims");
  w.values(grid.layout->dims);
  w.key("tile_counts");
  w.values(grid.layout->tileCounts);
  w.key("rows_dim");
  writeOptional(w, grid.rowsDim);
  w.key("cols_dim");
  writeOptional(w, grid.colsDim);
  w.key("slice_dims");
  w.values(grid.sliceDims);
  w.key("row_offsets");
  w.values(grid.rowOffsets);
  w.key("row_extents");
  w.values(grid.rowExtents);
  w.key("col_offsets");
  w.values(grid.colOffsets);
  w.key("col_extents");
  w.values(grid.colExtents);
  w.key("slices").beginArray();
  for (const GridSlice& slice : grid.slices) {
    w.beginObject();
    w.key("label").value(sliceLabel(grid, slice));
    w.key("index");
    w.values(slice.index);
    w.key("offset");
    w.values(slice.offset);
    w.key("limit");
    w.values(slice.limit);
    w.key("rows").beginArray();
    for (const auto& row : slice.cells) {
      w.beginArray();
      for (const GridCell& cell : row) {
        w.beginObject();
        w.key("index");
        w.values(cell.tile->index);
        w.key("offset");
        w.values(cell.tile->offset);
        w.key("shape");
        w.values(cell.tile->shape);
        w.key("devices");
        w.values(cell.tile->devices);
        w.key("color").value(cell.colorIndex);
        w.endObject();
      }
      w.endArray();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
}

}  // namespace shardbridge::view
