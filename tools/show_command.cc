// `shardbridge show`: a sharding's tile -> device grid drawn in the terminal,
// like jax.debug.visualize_sharding but for any rank (issue 5 item 4), and
// as SVG / HTML files. See docs/view.md.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "shardbridge/base/json_writer.h"
#include "shardbridge/view/grid.h"
#include "shardbridge/view/render_svg.h"
#include "shardbridge/view/render_text.h"
#include "view_input.h"

namespace shardbridge::tools {
namespace {

constexpr const char* kCommand = "show";

struct ShowOptions {
  ViewInput input;
  std::optional<int64_t> rows, cols;
  std::string color = "auto";
  int64_t width = 80;
  std::string svg, html;
  bool json = false;
};

// --color auto: stdout is a terminal, TERM is set and not "dumb", and
// NO_COLOR (no-color.org) is unset.
bool autoColor() {
  if (!isatty(STDOUT_FILENO)) return false;
  const char* term = std::getenv("TERM");
  if (term == nullptr || std::strcmp(term, "dumb") == 0) return false;
  const char* noColor = std::getenv("NO_COLOR");
  return noColor == nullptr || noColor[0] == '\0';
}

std::string axesLine(const view::Grid& grid) {
  auto dim = [&](std::optional<int64_t> d) {
    if (!d) return std::string("-");
    const int64_t n = grid.layout->tileCounts[*d];
    return "dim " + std::to_string(*d) + " (" + std::to_string(n) + (n == 1 ? " tile)" : " tiles)");
  };
  std::string line = "rows: " + dim(grid.rowsDim) + ", columns: " + dim(grid.colsDim);
  if (!grid.sliceDims.empty()) {
    line += ", slices over dim";
    line += grid.sliceDims.size() > 1 ? "s " : " ";
    for (size_t i = 0; i < grid.sliceDims.size(); ++i) {
      line += (i ? "," : "") + std::to_string(grid.sliceDims[i]);
    }
  }
  return line;
}

int runShow(const ShowOptions& options) {
  setJsonOutput(options.json);
  bool color = false;
  if (options.color == "always") {
    color = true;
  } else if (options.color == "auto") {
    color = autoColor();
  }
  sdy::Context ctx;
  view::Explanation e;
  if (int rc = loadExplanation(ctx, options.input, kCommand, e)) return rc;
  if (!e.tiles) {
    return reportError(makeError(ErrorCode::kUnsupported, e.tilesNote), "",
                       "<input>");
  }
  view::GridOptions gridOptions;
  gridOptions.rowsDim = options.rows;
  gridOptions.colsDim = options.cols;
  auto grid = view::buildGrid(*e.tiles, gridOptions);
  if (!grid) return usageError(kCommand, grid.error().message);

  std::string shapeText = e.shape ? e.shape->toString()
                                  : "one element per tile (no --shape)";
  std::string title = e.hlo.toString() + " on " + shapeText;
  // Unreduced and manual devices of a tile are marked apart from replicas.
  const std::string legend = view::tileDevicesLegend(
      *e.tiles, e.reductionOp ? sdy::reductionOpName(*e.reductionOp) : "sum");
  if (!options.svg.empty()) {
    if (int rc = writeOutputPath(options.svg, view::renderSvg(*grid, title, legend))) return rc;
  }
  if (!options.html.empty()) {
    if (int rc = writeOutputPath(options.html, view::renderHtml(*grid, title, legend))) return rc;
  }
  if (options.json) {
    JsonWriter w;
    w.beginObject();
    w.key("hlo").value(e.hlo.toString(/*includeMetadata=*/true));
    w.key("shape");
    if (e.shape) w.value(e.shape->toString()); else w.null();
    w.key("replication").value(e.tiles->replication);
    w.key("num_devices").value(e.tiles->numDevices);
    w.key("manual_group").value(e.tiles->manualGroup);
    w.key("unreduced_group").value(e.tiles->unreducedGroup);
    view::writeGridJson(w, *grid);
    w.endObject();
    return printOut(w.finish());
  }
  view::TextOptions textOptions;
  textOptions.width = options.width;
  textOptions.color = color;
  std::string out = title + "\n" + axesLine(*grid) + "\n";
  if (!legend.empty()) out += "cells: " + legend + "\n";
  if (e.tiles->numDevices == 0) out += "every device holds the whole tensor (give --mesh to list them)\n";
  out += view::renderText(*grid, textOptions);
  return printOut(out);
}

}  // namespace

void registerShowCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<ShowOptions>();
  auto* cmd = app.add_subcommand(
      "show", "Draw a sharding's tiles and the devices holding them (terminal, SVG, HTML)");
  addMeshOption(cmd, options->input.meshes);
  addManualAxesOption(cmd, options->input.manualAxes);
  cmd->add_option("--shape", options->input.shape,
                  "Tensor shape, e.g. f32[16,32] (or [16,32], 16,32); default: one element "
                  "per tile");
  cmd->add_option_function<int64_t>(
         "--rows", [options](int64_t d) { options->rows = d; },
         "Tensor dim drawn down the rows (default: rank-2; none for rank < 2)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option_function<int64_t>(
         "--cols", [options](int64_t d) { options->cols = d; },
         "Tensor dim drawn across the columns (default: rank-1)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--color", options->color, "auto (default), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_option("--width", options->width, "Target width in columns (default 80)")
      ->check(CLI::Range(int64_t{8}, int64_t{10000}));
  cmd->add_option("--svg", options->svg, "Also write the picture as an SVG file");
  cmd->add_option("--html", options->html, "Also write an HTML page with the SVG");
  cmd->add_flag("--json", options->json, "Print the grid as JSON instead (docs/json.md)");
  addMaxInputBytesOption(cmd);
  cmd->add_option("SHARDING", options->input.sharding,
                  "HLO sharding text, OpSharding (text/binary/JSON), or #sdy.sharding<...> "
                  "(with --mesh); `-` for stdin, @FILE for a file")
      ->required();
  cmd->footer(
      "Each box is one tile, labelled with the devices that hold it (runs as a-b);\n"
      "dims other than --rows/--cols become slices, one grid each. At most 4096\n"
      "tiles and 65536 devices. Input errors exit 1, usage errors 2.\n"
      "\n"
      "Example:\n"
      "  shardbridge show --shape f32[4,8,16] '{devices=[2,2,2]<=[8]}'\n");
  cmd->callback([&run, options] { run = [options] { return runShow(*options); }; });
}

}  // namespace shardbridge::tools
