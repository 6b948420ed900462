#include "shardbridge/view/render_text.h"

#include <algorithm>

namespace shardbridge::view {
namespace {

// matplotlib tab20b: the palette jax.debug.visualize_sharding colours with.
constexpr std::array<std::array<uint8_t, 3>, 20> kTab20b = {{
    {0x39, 0x3b, 0x79}, {0x52, 0x54, 0xa3}, {0x6b, 0x6e, 0xcf}, {0x9c, 0x9e, 0xde},
    {0x63, 0x79, 0x39}, {0x8c, 0xa2, 0x52}, {0xb5, 0xcf, 0x6b}, {0xce, 0xdb, 0x9c},
    {0x8c, 0x6d, 0x31}, {0xbd, 0x9e, 0x39}, {0xe7, 0xba, 0x52}, {0xe7, 0xcb, 0x94},
    {0x84, 0x3c, 0x39}, {0xad, 0x49, 0x4a}, {0xd6, 0x61, 0x6b}, {0xe7, 0x96, 0x9c},
    {0x7b, 0x41, 0x73}, {0xa5, 0x51, 0x94}, {0xce, 0x6d, 0xbd}, {0xde, 0x9e, 0xd6},
}};

// Where a label may break: after each of formatTileDevices' separators.
constexpr char kBreaks[] = ",+|";

// Splits "0,1,2-5" at commas (and '+', '|') into lines of at most `width`
// characters (a single token longer than that stays whole).
std::vector<std::string> wrapLabel(const std::string& label, size_t width) {
  std::vector<std::string> lines;
  std::string current;
  size_t start = 0;
  while (start <= label.size()) {
    size_t comma = label.find_first_of(kBreaks, start);
    std::string token = label.substr(start, comma == std::string::npos ? std::string::npos
                                                                        : comma - start + 1);
    if (!current.empty() && current.size() + token.size() > width) {
      lines.push_back(current);
      current.clear();
    }
    current += token;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  lines.push_back(current);
  return lines;
}

size_t longestToken(const std::string& label) {
  size_t best = 0, start = 0;
  while (true) {
    size_t comma = label.find_first_of(kBreaks, start);
    size_t end = comma == std::string::npos ? label.size() : comma + 1;
    best = std::max(best, end - start);
    if (comma == std::string::npos) return best;
    start = comma + 1;
  }
}

// Splits `total` into parts proportional to `weights`, each rounded on its
// own (so equal extents get equal sizes) — down when `floor`, so the sum
// never passes `total` unless a minimum forces it — and at least
// `minimum[i]`.
std::vector<int64_t> distribute(int64_t total, const std::vector<int64_t>& weights,
                                const std::vector<int64_t>& minimum, bool floor) {
  const size_t n = weights.size();
  long double sum = 0;
  for (int64_t w : weights) sum += static_cast<long double>(w);
  std::vector<int64_t> parts(n, 0);
  for (size_t i = 0; i < n; ++i) {
    long double exact = sum > 0 ? total * static_cast<long double>(weights[i]) / sum
                                : static_cast<long double>(total) / static_cast<long double>(n);
    parts[i] = std::max(static_cast<int64_t>(exact + (floor ? 0.0L : 0.5L)), minimum[i]);
  }
  return parts;
}

std::string repeat(const char* s, int64_t n) {
  std::string out;
  for (int64_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string ansiColor(int64_t index) {
  auto [r, g, b] = paletteColor(index);
  auto cube = [](uint8_t v) { return (v * 5 + 127) / 255; };
  const int bg = 16 + 36 * cube(r) + 6 * cube(g) + cube(b);
  // Dark backgrounds get white text, light ones black.
  const int luminance = (299 * r + 587 * g + 114 * b) / 1000;
  const int fg = luminance < 140 ? 15 : 16;
  return "\x1b[48;5;" + std::to_string(bg) + "m\x1b[38;5;" + std::to_string(fg) + "m";
}

}  // namespace

std::array<uint8_t, 3> paletteColor(int64_t i) {
  const int64_t n = static_cast<int64_t>(kTab20b.size());
  return kTab20b[static_cast<size_t>(((i % n) + n) % n)];
}

std::string renderText(const Grid& grid, const TextOptions& options) {
  const int64_t width = std::max<int64_t>(options.width, 8);
  const size_t numCols = grid.colExtents.size();
  const size_t numRows = grid.rowExtents.size();

  // Labels of every cell of every slice, and the narrowest each column may be.
  std::vector<int64_t> minWidth(numCols, 5);
  std::vector<std::vector<std::vector<std::string>>> labels(grid.slices.size());
  for (size_t s = 0; s < grid.slices.size(); ++s) {
    labels[s].assign(numRows, std::vector<std::string>(numCols));
    for (size_t r = 0; r < numRows; ++r) {
      for (size_t c = 0; c < numCols; ++c) {
        std::string label = formatTileDevices(*grid.layout, *grid.slices[s].cells[r][c].tile);
        if (label.empty()) label = "all";
        minWidth[c] = std::max<int64_t>(minWidth[c], static_cast<int64_t>(longestToken(label)) + 2);
        labels[s][r][c] = std::move(label);
      }
    }
  }
  const int64_t inner = std::max<int64_t>(width - static_cast<int64_t>(numCols) - 1,
                                          static_cast<int64_t>(numCols));
  std::vector<int64_t> colWidth = distribute(inner, grid.colExtents, minWidth, /*floor=*/true);
  int64_t innerTotal = 0;
  for (int64_t w : colWidth) innerTotal += w;

  // Total height: the tensor's aspect ratio, a terminal cell being about
  // 2.5 times as tall as it is wide, within [rows, max(rows, min(3 * rows,
  // 24))] so that a slice stays on a screen.
  int64_t rowSum = 0, colSum = 0;
  for (int64_t e : grid.rowExtents) rowSum += e;
  for (int64_t e : grid.colExtents) colSum += e;
  int64_t height = static_cast<int64_t>(numRows);
  if (grid.rowsDim && colSum > 0) {
    // Clamped as a long double: with dims near 2^63 the ratio itself is far
    // beyond int64, and converting it first would be undefined behaviour.
    const int64_t lowest = static_cast<int64_t>(numRows);
    const int64_t highest =
        std::max<int64_t>(lowest, std::min<int64_t>(3 * static_cast<int64_t>(numRows), 24));
    long double h = static_cast<long double>(innerTotal) * static_cast<long double>(rowSum) /
                        static_cast<long double>(colSum) / 2.5L + 0.5L;
    h = std::clamp<long double>(h, static_cast<long double>(lowest), static_cast<long double>(highest));
    height = static_cast<int64_t>(h);
  }

  std::string out;
  for (size_t s = 0; s < grid.slices.size(); ++s) {
    if (!grid.sliceDims.empty()) {
      if (s) out += "\n";
      out += sliceLabel(grid, grid.slices[s]) + "\n";
    }
    // Wrapped labels, and each row's height (at least its longest label).
    std::vector<std::vector<std::vector<std::string>>> lines(numRows);
    std::vector<int64_t> minHeight(numRows, 1);
    for (size_t r = 0; r < numRows; ++r) {
      for (size_t c = 0; c < numCols; ++c) {
        lines[r].push_back(wrapLabel(labels[s][r][c], static_cast<size_t>(colWidth[c] - 2)));
        minHeight[r] = std::max<int64_t>(minHeight[r], static_cast<int64_t>(lines[r][c].size()));
      }
    }
    std::vector<int64_t> rowHeight = distribute(height, grid.rowExtents, minHeight, /*floor=*/false);

    auto border = [&](const char* left, const char* mid, const char* right) {
      out += left;
      for (size_t c = 0; c < numCols; ++c) {
        out += repeat("─", colWidth[c]);
        out += c + 1 < numCols ? mid : right;
      }
      out += "\n";
    };
    border("┌", "┬", "┐");
    for (size_t r = 0; r < numRows; ++r) {
      for (int64_t y = 0; y < rowHeight[r]; ++y) {
        out += "│";
        for (size_t c = 0; c < numCols; ++c) {
          const auto& cellLines = lines[r][c];
          const int64_t top = (rowHeight[r] - static_cast<int64_t>(cellLines.size())) / 2;
          std::string text;
          if (y >= top && y - top < static_cast<int64_t>(cellLines.size())) {
            text = cellLines[static_cast<size_t>(y - top)];
          }
          const int64_t pad = colWidth[c] - static_cast<int64_t>(text.size());
          const int64_t left = pad / 2;
          std::string content = std::string(static_cast<size_t>(std::max<int64_t>(left, 0)), ' ') +
                                text +
                                std::string(static_cast<size_t>(std::max<int64_t>(pad - left, 0)), ' ');
          if (options.color) {
            out += ansiColor(grid.slices[s].cells[r][c].colorIndex) + content + "\x1b[0m";
          } else {
            out += content;
          }
          out += "│";
        }
        out += "\n";
      }
      if (r + 1 < numRows) border("├", "┼", "┤");
    }
    border("└", "┴", "┘");
  }
  return out;
}

}  // namespace shardbridge::view
