// `shardbridge list FILE`: every sharding of a file — an HLO module text
// dump (`sharding={...}` of each instruction), a StableHLO / sdy MLIR module
// (every sharding attribute), or one OpSharding (binary, text format, JSON)
// or HLO sharding string — with its place, its HLO string and its named
// (sdy) form.
#include <memory>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "shardbridge/dump/listing.h"

namespace shardbridge::tools {
namespace {

struct ListOptions {
  bool json = false;
  bool metadata = false;
  bool inlineText = false;
  std::vector<std::string> meshes;  // at most one
  std::string file;
};

int runList(const ListOptions& options) {
  setJsonOutput(options.json);
  sdy::Context ctx;
  std::vector<NamedMesh> meshes;
  if (int rc = parseMeshOptions(ctx, options.meshes, "list", meshes)) return rc;
  if (meshes.size() > 1) return usageError("list", "at most one --mesh may be given");

  InputText input;
  if (options.inlineText) {
    input = InputText{options.file, "<input>"};
  } else {
    // FILE is a path; `@path` is accepted too, as every command's INPUT.
    std::string arg = options.file;
    bool isPath = arg.empty() || arg[0] != '@';
    auto read = readArg(arg, InputKind::kModule, /*allowEmpty=*/false, isPath);
    if (!read) return 1;
    input = std::move(*read);
  }

  dump::ListOptions listOptions;
  listOptions.includeMetadata = options.metadata;
  if (!meshes.empty()) {
    listOptions.mesh = meshes[0].mesh;
    listOptions.meshName = meshes[0].name;
  }
  auto listing = dump::listShardings(ctx, input.text, listOptions);
  if (!listing) return reportError(listing.error(), input);
  return printOut(options.json ? dump::printListingJson(*listing, input.name)
                                : dump::printListingText(*listing));
}

}  // namespace

void registerListCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<ListOptions>();
  auto* cmd = app.add_subcommand(
      "list",
      "List every sharding of an HLO dump, MLIR module or OpSharding file, with place and forms");
  cmd->add_flag("--json", options->json, "Write one JSON document instead of text lines");
  cmd->add_flag("--metadata", options->metadata, "Include metadata in the HLO strings");
  cmd->add_flag("--inline", options->inlineText, "FILE is the file's text itself, not a path");
  addMaxInputBytesOption(cmd);
  cmd->add_option("--mesh", options->meshes,
                  "Import onto this mesh instead of the inferred one: NAME=<[...]>, <[...]>, "
                  "#sdy.mesh<...> or `sdy.mesh @NAME = <...>`, or @FILE holding one")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  cmd->add_option("FILE", options->file,
                  "An HLO module text dump, a StableHLO/sdy MLIR module, or a binary/text/JSON "
                  "OpSharding or HLO sharding string: a path, @path, or `-` for stdin")
      ->required();
  cmd->footer(
      "Text output: the mesh lines (`sdy.mesh @mesh = <...>`, then one\n"
      "`sdy.mesh @single_device_<id> = <...>` per device of a maximal sharding),\n"
      "then one line per sharding, in file order, four tab-separated fields:\n"
      "  LINE:COL  PLACE  HLO  NAMED\n"
      "LINE:COL is where the sharding's text starts (`-` for binary input); PLACE\n"
      "is `%inst in %comp`, `ROOT %inst in %comp`, `parameter N (%inst) in %comp`,\n"
      "`OpSharding` or `sharding`; HLO is the sharding as XLA prints it; NAMED its\n"
      "sdy form on the mesh inferred from all shardings of the file (or --mesh),\n"
      "a #sdy.sharding_per_value<[...]> for a tuple, or `error: MESSAGE` when it\n"
      "cannot be imported. `cut -s -f3` gives the HLO strings.\n"
      "MLIR modules: the module's own sdy.mesh lines first; PLACE is `@func %arg0`,\n"
      "`@func result 0`, `%1 = op.name`, `sdy.sharding_constraint %x`, ...; an sdy\n"
      "sharding's HLO is its export (as written into mhlo.sharding, metadata\n"
      "included), NAMED the sdy text itself (canonical); an mhlo.sharding's NAMED\n"
      "is its import onto the mesh inferred from all mhlo.sharding strings of the\n"
      "module (`@mesh`, or `@mesh_1`, ... when the module has another @mesh), a\n"
      "#sdy.sharding_per_value<[...]> on an op, as `convert --to sdy` writes it.\n"
      "A sharding that does not parse, verify or convert gives `error: MESSAGE`.\n"
      "A file that does not parse is an error at FILE:LINE:COL (exit 1).\n"
      "\n"
      "Examples:\n"
      "  shardbridge list examples/jax_module.hlo.txt | cut -s -f3\n"
      "  shardbridge list --json --mesh '<[\"x\"=2, \"y\"=4]>' examples/jax_module.mlir\n");
  cmd->callback([&run, options] { run = [options] { return runList(*options); }; });
}

}  // namespace shardbridge::tools
