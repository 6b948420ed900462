// `shardbridge explain`: one sharding in words (issue 5 item 3) — mesh,
// sdy form, JAX PartitionSpec or why there is none, replicated / manual /
// unreduced axes, and with --shape every device's tile and the replication
// groups. See docs/view.md.
#include <memory>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "view_input.h"

namespace shardbridge::tools {
namespace {

struct ExplainOptions {
  ViewInput input;
  bool json = false;
};

int runExplain(const ExplainOptions& options) {
  setJsonOutput(options.json);
  sdy::Context ctx;
  view::Explanation e;
  if (int rc = loadExplanation(ctx, options.input, "explain", e)) return rc;
  return printOut(options.json ? view::explanationJson(e) : view::formatExplanation(e));
}

}  // namespace

void registerExplainCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<ExplainOptions>();
  auto* cmd = app.add_subcommand(
      "explain", "Explain one sharding: mesh, sdy form, PartitionSpec, axes, per-device tiles");
  addMeshOption(cmd, options->input.meshes);
  addManualAxesOption(cmd, options->input.manualAxes);
  cmd->add_option("--shape", options->input.shape,
                  "Tensor shape, e.g. f32[16,32] (or [16,32], 16,32): adds each device's "
                  "tile offsets and local shape");
  cmd->add_flag("--json", options->json, "Print JSON (schema in docs/json.md)");
  addMaxInputBytesOption(cmd);
  cmd->add_option("SHARDING", options->input.sharding,
                  "HLO sharding text, OpSharding (text/binary/JSON), or #sdy.sharding<...> "
                  "(with --mesh); `-` for stdin, @FILE for a file")
      ->required();
  cmd->footer(
      "An HLO sharding is imported onto --mesh, or onto the mesh `import` would infer\n"
      "for it alone. Without --shape, tiles are listed by index only. Input errors\n"
      "exit 1, usage errors 2.\n"
      "\n"
      "Example:\n"
      "  shardbridge explain --mesh '<[\"x\"=8, \"y\"=4]>' --shape f32[16,32] \\\n"
      "      '{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}'\n");
  cmd->callback([&run, options] { run = [options] { return runExplain(*options); }; });
}

}  // namespace shardbridge::tools
