// Fuzz target for the explain/show pipeline (shardbridge/view): the input is
//   SHARDING '\n' SHAPE ['\n' OPTION-BYTES]
// — an HLO sharding text, a --shape text (empty: no shape) and optional bytes
// choosing the grid's rows/cols dims and the text width. When both parse, it
// explains the sharding (mesh inferred, as `explain` without --mesh), formats
// the report and JSON, and when there are tiles builds grids for the default
// and two input-chosen dims and renders them as text, SVG and HTML. Checks:
// the grid's shape is consistent with its layout, the text ends with a
// newline, and the SVG/HTML are balanced-tag markup with no raw '<' or '&'
// (other than entities) in text or attribute values.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/hlo/shape.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/view/explain.h"
#include "shardbridge/view/grid.h"
#include "shardbridge/view/render_svg.h"
#include "shardbridge/view/render_text.h"

namespace {

namespace view = shardbridge::view;

[[noreturn]] void fail() { __builtin_trap(); }

bool nameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '_' || c == ':' || c == '.';
}

// `&` must start an entity `&name;` or `&#NN;`.
bool entitiesOk(std::string_view text) {
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '<' || text[k] == '>') return false;
    if (text[k] != '&') continue;
    size_t end = text.find(';', k);
    if (end == std::string_view::npos || end == k + 1 || end - k > 8) return false;
    for (size_t j = k + 1; j < end; ++j) {
      if (!nameChar(text[j]) && text[j] != '#') return false;
    }
    k = end;
  }
  return true;
}

// Balanced start/end tags with matching names, quoted attribute values
// without '<', text without raw '<'/'>' and with well-formed entities; the
// `<?xml ...?>` declaration, `<!DOCTYPE ...>` and `<!-- -->` are skipped.
// Void HTML elements (`<meta ...>`) are accepted when `html`.
bool balancedMarkup(std::string_view s, bool html) {
  std::vector<std::string_view> open;
  size_t i = 0;
  bool sawRoot = false;
  while (i < s.size()) {
    size_t lt = s.find('<', i);
    std::string_view text = s.substr(i, lt == std::string_view::npos ? s.npos : lt - i);
    if (!entitiesOk(text)) return false;
    if (lt == std::string_view::npos) break;
    if (s.substr(lt, 4) == "<!--") {
      size_t end = s.find("-->", lt);
      if (end == std::string_view::npos) return false;
      i = end + 3;
      continue;
    }
    if (s.substr(lt, 2) == "<?" || s.substr(lt, 2) == "<!") {
      size_t end = s.find('>', lt);
      if (end == std::string_view::npos) return false;
      i = end + 1;
      continue;
    }
    size_t j = lt + 1;
    const bool closing = j < s.size() && s[j] == '/';
    if (closing) ++j;
    const size_t nameStart = j;
    while (j < s.size() && nameChar(s[j])) ++j;
    if (j == nameStart) return false;
    std::string_view name = s.substr(nameStart, j - nameStart);
    // Attributes: name="value" pairs up to '>' or '/>'.
    bool selfClosing = false;
    for (;;) {
      while (j < s.size() && (s[j] == ' ' || s[j] == '\n' || s[j] == '\t')) ++j;
      if (j >= s.size()) return false;
      if (s[j] == '>') {
        ++j;
        break;
      }
      if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '>') {
        selfClosing = true;
        j += 2;
        break;
      }
      if (closing) return false;
      const size_t attrStart = j;
      while (j < s.size() && nameChar(s[j])) ++j;
      if (j == attrStart) return false;
      if (j >= s.size() || s[j] != '=') {
        if (!html) return false;  // HTML boolean attribute
        continue;
      }
      ++j;
      if (j >= s.size() || (s[j] != '"' && s[j] != '\'')) return false;
      const char quote = s[j++];
      size_t end = s.find(quote, j);
      if (end == std::string_view::npos) return false;
      if (!entitiesOk(s.substr(j, end - j))) return false;
      j = end + 1;
    }
    i = j;
    if (closing) {
      if (open.empty() || open.back() != name) return false;
      open.pop_back();
    } else if (!selfClosing) {
      if (html && (name == "meta" || name == "link" || name == "br" || name == "img")) continue;
      if (open.empty()) {
        if (sawRoot && !html) return false;  // one root element
        sawRoot = true;
      }
      open.push_back(name);
    } else if (open.empty()) {
      if (sawRoot && !html) return false;
      sawRoot = true;
    }
  }
  return open.empty() && sawRoot;
}

void checkGrid(const view::Grid& grid, const view::TileLayout& layout) {
  if (grid.layout != &layout) fail();
  const size_t rank = layout.dims.size();
  if (grid.rowsDim && (*grid.rowsDim < 0 || static_cast<size_t>(*grid.rowsDim) >= rank)) fail();
  if (grid.colsDim && (*grid.colsDim < 0 || static_cast<size_t>(*grid.colsDim) >= rank)) fail();
  if (grid.rowsDim && grid.colsDim && *grid.rowsDim == *grid.colsDim) fail();
  if (grid.rowExtents.size() != grid.rowOffsets.size()) fail();
  if (grid.colExtents.size() != grid.colOffsets.size()) fail();
  if (grid.rowExtents.empty() || grid.colExtents.empty()) fail();
  if (grid.slices.empty()) fail();
  size_t cells = 0;
  for (const view::GridSlice& slice : grid.slices) {
    if (slice.cells.size() != grid.rowExtents.size()) fail();
    for (const auto& row : slice.cells) {
      if (row.size() != grid.colExtents.size()) fail();
      for (const view::GridCell& cell : row) {
        if (cell.tile == nullptr) fail();
        if (cell.colorIndex < 0 || cell.colorIndex >= grid.numColors) fail();
        ++cells;
      }
    }
  }
  if (cells > static_cast<size_t>(view::kMaxViewTiles)) fail();
}

void renderAll(const view::Grid& grid, const std::string& title, int64_t width, bool color) {
  view::TextOptions textOptions;
  textOptions.width = width;
  textOptions.color = color;
  const std::string text = view::renderText(grid, textOptions);
  if (text.empty() || text.back() != '\n') fail();
  const std::string svg = view::renderSvg(grid, title);
  if (svg.compare(0, 5, "<?xml") != 0) fail();
  if (!balancedMarkup(svg, /*html=*/false)) fail();
  const std::string html = view::renderHtml(grid, title);
  if (!balancedMarkup(html, /*html=*/true)) fail();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string_view shardingText = input.substr(0, nl);
  std::string_view shapeText, optionBytes;
  if (nl != std::string_view::npos) {
    std::string_view rest = input.substr(nl + 1);
    const size_t nl2 = rest.find('\n');
    shapeText = rest.substr(0, nl2);
    if (nl2 != std::string_view::npos) optionBytes = rest.substr(nl2 + 1);
  }

  auto sharding = shardbridge::hlo::parseSharding(shardingText);
  if (!sharding) return 0;
  std::optional<shardbridge::hlo::Shape> shape;
  if (!shapeText.empty()) {
    auto parsed = view::parseViewShape(shapeText);
    if (!parsed) return 0;
    shape = std::move(*parsed);
  }

  shardbridge::sdy::Context ctx;
  auto e = view::explainHloSharding(ctx, *sharding, shardbridge::sdy::MeshAttr(), "mesh", shape);
  if (!e) return 0;
  if (view::formatExplanation(*e).empty()) fail();
  const std::string json = view::explanationJson(*e);
  if (json.empty() || json.front() != '{') fail();
  if (!e->tiles) {
    if (e->tilesNote.empty()) fail();
    return 0;
  }
  const view::TileLayout& layout = *e->tiles;
  if (shape && layout.dims != shape->dimensions()) fail();
  if (layout.tiles.empty() || layout.tiles.size() > static_cast<size_t>(view::kMaxViewTiles)) {
    fail();
  }

  const std::string title =
      e->hlo.toString() + " on " + (shape ? shape->toString() : std::string("one element per tile"));
  auto byteAt = [&](size_t k) -> uint8_t {
    return k < optionBytes.size() ? static_cast<uint8_t>(optionBytes[k]) : 0;
  };
  const int64_t rank = static_cast<int64_t>(layout.dims.size());

  // Default dims, then two input-chosen (possibly invalid) row/col choices.
  for (int choice = 0; choice < 3; ++choice) {
    view::GridOptions options;
    int64_t width = 80;
    bool color = false;
    if (choice > 0) {
      const size_t base = static_cast<size_t>(choice - 1) * 4;
      // -1 .. rank: unset, or a dim, or one past the end (an error).
      const int64_t r = static_cast<int64_t>(byteAt(base) % (rank + 2)) - 1;
      const int64_t c = static_cast<int64_t>(byteAt(base + 1) % (rank + 2)) - 1;
      if (r >= 0) options.rowsDim = r;
      if (c >= 0) options.colsDim = c;
      width = static_cast<int64_t>(byteAt(base + 2)) + static_cast<int64_t>(byteAt(base + 3) % 4) * 64 - 8;
      color = (byteAt(base + 3) & 4) != 0;
    }
    auto grid = view::buildGrid(layout, options);
    if (!grid) continue;
    checkGrid(*grid, layout);
    for (const view::GridSlice& slice : grid->slices) {
      if (view::sliceLabel(*grid, slice).empty()) fail();
    }
    renderAll(*grid, title, width, color);
    if (optionBytes.empty()) break;
  }
  return 0;
}
