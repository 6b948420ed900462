// Drawing a Grid (grid.h) as a standalone SVG image, and as an HTML page
// embedding the same SVG: the picture `show` prints, with one rectangle per
// tile (sizes proportional to the tile extents, the tab20b colours of the
// text renderer), the device ids inside, element ranges along the top and
// left edges, and one block per slice.
#pragma once

#include <string>
#include <string_view>

#include "shardbridge/view/grid.h"

namespace shardbridge::view {

// A complete SVG 1.1 document (XML declaration, xmlns, viewBox). `title`
// (e.g. the sharding and shape) is drawn at the top and used as <title>;
// all text is XML-escaped. Cells are labelled by formatTileDevices (so
// unreduced and manual devices are marked apart from replicas); `legend`
// (tileDevicesLegend's words), when not empty, follows the axes line.
std::string renderSvg(const Grid& grid, std::string_view title, std::string_view legend = {});

// An HTML5 page whose body holds `title` as a heading and renderSvg's
// picture inline.
std::string renderHtml(const Grid& grid, std::string_view title, std::string_view legend = {});

// `text` with &, <, >, " and ' escaped as XML entities.
std::string xmlEscape(std::string_view text);

}  // namespace shardbridge::view
