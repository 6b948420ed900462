#include "shardbridge/view/render_svg.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "shardbridge/view/render_text.h"

namespace shardbridge::view {
namespace {

constexpr int64_t kMargin = 16;
constexpr int64_t kLeftLabels = 64;   // row ranges
constexpr int64_t kTopLabels = 18;    // column ranges
constexpr int64_t kSliceTitle = 22;
constexpr int64_t kGridWidth = 560;
constexpr int64_t kMaxGridHeight = 420;
constexpr int64_t kLineHeight = 14;
constexpr double kCharWidth = 7.2;  // 12px monospace

std::vector<std::string> wrap(const std::string& label, size_t width) {
  std::vector<std::string> lines;
  std::string current;
  size_t start = 0;
  while (true) {
    size_t comma = label.find_first_of(",+|", start);
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

std::vector<int64_t> proportional(int64_t total, const std::vector<int64_t>& weights,
                                  const std::vector<int64_t>& minimum) {
  int64_t sum = 0;
  for (int64_t w : weights) sum += w;
  std::vector<int64_t> out;
  for (size_t i = 0; i < weights.size(); ++i) {
    long double exact = sum > 0 ? static_cast<long double>(total) * weights[i] / sum
                                : static_cast<long double>(total) / weights.size();
    out.push_back(std::max<int64_t>(static_cast<int64_t>(exact + 0.5L), minimum[i]));
  }
  return out;
}

std::string hex(std::array<uint8_t, 3> rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

bool isDark(std::array<uint8_t, 3> rgb) {
  return (299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2]) / 1000 < 140;
}

}  // namespace

std::string xmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string renderSvg(const Grid& grid, std::string_view title, std::string_view legend) {
  const size_t numRows = grid.rowExtents.size();
  const size_t numCols = grid.colExtents.size();
  // Labels, minimum column widths (the longest device id must fit).
  std::vector<int64_t> minWidth(numCols, 40);
  for (const GridSlice& slice : grid.slices) {
    for (size_t r = 0; r < numRows; ++r) {
      for (size_t c = 0; c < numCols; ++c) {
        std::string label = formatTileDevices(*grid.layout, *slice.cells[r][c].tile);
        size_t longest = 0;
        for (const std::string& l : wrap(label, 1)) longest = std::max(longest, l.size());
        minWidth[c] = std::max<int64_t>(minWidth[c], static_cast<int64_t>(longest * kCharWidth) + 10);
      }
    }
  }
  std::vector<int64_t> colWidth = proportional(kGridWidth, grid.colExtents, minWidth);
  int64_t gridWidth = 0;
  for (int64_t w : colWidth) gridWidth += w;
  int64_t rowSum = 0, colSum = 0;
  for (int64_t e : grid.rowExtents) rowSum += e;
  for (int64_t e : grid.colExtents) colSum += e;
  int64_t gridHeight = 40 * static_cast<int64_t>(numRows);
  if (grid.rowsDim && colSum > 0) {
    // In long double: gridWidth * rowSum overflows int64 for dims near 2^63.
    const int64_t lowest = 28 * static_cast<int64_t>(numRows);
    const int64_t highest = std::max<int64_t>(kMaxGridHeight, lowest);
    long double h = static_cast<long double>(gridWidth) * static_cast<long double>(rowSum) /
                    static_cast<long double>(colSum);
    h = std::clamp<long double>(h, static_cast<long double>(lowest), static_cast<long double>(highest));
    gridHeight = static_cast<int64_t>(h);
  }

  std::string body;
  int64_t y = kMargin + 36;  // below the title and the axes line
  const int64_t x0 = kMargin + kLeftLabels;
  auto text = [&](int64_t x, int64_t ty, const std::string& s, const char* anchor,
                  const char* fill, const char* extra = "") {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(ty) +
            "\" text-anchor=\"" + anchor + "\" fill=\"" + fill + "\"" + extra + ">" +
            xmlEscape(s) + "</text>\n";
  };
  for (const GridSlice& slice : grid.slices) {
    if (!grid.sliceDims.empty()) {
      y += kSliceTitle;
      text(kMargin, y - 6, "slice " + sliceLabel(grid, slice), "start", "#000",
           " font-weight=\"bold\"");
    }
    // Wrapped labels per row; heights proportional, at least the label.
    std::vector<std::vector<std::vector<std::string>>> lines(numRows);
    std::vector<int64_t> minHeight(numRows, 24);
    for (size_t r = 0; r < numRows; ++r) {
      for (size_t c = 0; c < numCols; ++c) {
        size_t chars = static_cast<size_t>(std::max<double>(1.0, (colWidth[c] - 8) / kCharWidth));
        lines[r].push_back(wrap(formatTileDevices(*grid.layout, *slice.cells[r][c].tile), chars));
        minHeight[r] = std::max<int64_t>(
            minHeight[r], static_cast<int64_t>(lines[r][c].size()) * kLineHeight + 10);
      }
    }
    std::vector<int64_t> rowHeight = proportional(gridHeight, grid.rowExtents, minHeight);
    y += kTopLabels;
    if (grid.colsDim) {
      int64_t x = x0;
      for (size_t c = 0; c < numCols; ++c) {
        text(x + colWidth[c] / 2, y - 5,
             std::to_string(grid.colOffsets[c]) + ":" +
                 std::to_string(grid.colOffsets[c] + grid.colExtents[c]),
             "middle", "#555");
        x += colWidth[c];
      }
    }
    for (size_t r = 0; r < numRows; ++r) {
      if (grid.rowsDim) {
        text(x0 - 6, y + rowHeight[r] / 2 + 4,
             std::to_string(grid.rowOffsets[r]) + ":" +
                 std::to_string(grid.rowOffsets[r] + grid.rowExtents[r]),
             "end", "#555");
      }
      int64_t x = x0;
      for (size_t c = 0; c < numCols; ++c) {
        const GridCell& cell = slice.cells[r][c];
        auto rgb = paletteColor(cell.colorIndex);
        body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
                std::to_string(colWidth[c]) + "\" height=\"" + std::to_string(rowHeight[r]) +
                "\" fill=\"" + hex(rgb) + "\" stroke=\"#222\" stroke-width=\"1\"/>\n";
        const auto& cellLines = lines[r][c];
        const int64_t textTop = y + (rowHeight[r] - static_cast<int64_t>(cellLines.size()) * kLineHeight) / 2 + 11;
        for (size_t i = 0; i < cellLines.size(); ++i) {
          text(x + colWidth[c] / 2, textTop + static_cast<int64_t>(i) * kLineHeight, cellLines[i],
               "middle", isDark(rgb) ? "#fff" : "#000");
        }
        x += colWidth[c];
      }
      y += rowHeight[r];
    }
    y += 10;
  }
  std::string axes = "rows: ";
  axes += grid.rowsDim ? "dim " + std::to_string(*grid.rowsDim) : std::string("-");
  axes += ", columns: ";
  axes += grid.colsDim ? "dim " + std::to_string(*grid.colsDim) : std::string("-");
  axes += "; cells list the devices holding each tile";
  if (!legend.empty()) axes += std::string("; ") + std::string(legend);

  const int64_t width = std::max<int64_t>(x0 + gridWidth + kMargin,
                                          kMargin * 2 + static_cast<int64_t>(
                                                            std::max(title.size(), axes.size()) * kCharWidth));
  const int64_t height = y + kMargin;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
         std::to_string(width) + " " + std::to_string(height) +
         "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"12\">\n";
  out += "<title>" + xmlEscape(title) + "</title>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" fill=\"#fff\"/>\n";
  out += "<text x=\"" + std::to_string(kMargin) + "\" y=\"" + std::to_string(kMargin + 6) +
         "\" fill=\"#000\">" + xmlEscape(title) + "</text>\n";
  out += "<text x=\"" + std::to_string(kMargin) + "\" y=\"" + std::to_string(kMargin + 22) +
         "\" fill=\"#555\">" + xmlEscape(axes) + "</text>\n";
  out += body;
  out += "</svg>\n";
  return out;
}

std::string renderHtml(const Grid& grid, std::string_view title, std::string_view legend) {
  std::string svg = renderSvg(grid, title, legend);
  // Inline SVG in HTML takes no XML declaration.
  size_t start = svg.find("<svg");
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
      xmlEscape(title) +
      "</title>\n<style>body{font-family:sans-serif;margin:1em}</style>\n</head>\n<body>\n<h1>" +
      "shardbridge show</h1>\n";
  out += svg.substr(start);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace shardbridge::view
