// Drawing a Grid (grid.h) in a terminal: Unicode box-drawing characters,
// one box per tile labelled with the device ids that hold it, column widths
// and row heights proportional to the tile extents, ANSI background colours
// (xterm 256-colour codes) only when asked for.
//
//   ┌───────┬───────┐
//   │  0,1  │  2,3  │
//   └───────┴───────┘
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "shardbridge/view/grid.h"

namespace shardbridge::view {

struct TextOptions {
  // Target width of each grid in terminal columns, borders included. Cells
  // never get narrower than their longest device id plus padding, so a
  // grid of many tiles may be wider.
  int64_t width = 80;
  bool color = false;
};

// The grid of every slice, each preceded by its slice label (`[0:2, :, :]`)
// when there are sliced dims. Device lists are written by
// formatTileDevices (replicas by commas, unreduced blocks joined by '+',
// manual blocks by '|') and wrapped after those marks inside their cell. Output ends
// with a newline. Widths below 8 are treated as 8.
std::string renderText(const Grid& grid, const TextOptions& options = {});

// The colour of cell colour index `i` (matplotlib's tab20b, repeating), as
// RGB; shared by the text and SVG renderers.
std::array<uint8_t, 3> paletteColor(int64_t i);

}  // namespace shardbridge::view
