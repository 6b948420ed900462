// `shardbridge export`: one sdy sharding as the HloSharding string OpenXLA's
// Shardy exporter writes into `mhlo.sharding` (issue 4 item 6).
//
//   shardbridge export --mesh [NAME=]MESH... [--manual-axes a,b] [--v3] SHARDING
//
// Prints hlo::printSharding(result, /*includeMetadata=*/true) and exits 0;
// an input error (parse, verification, conversion) is rendered on stderr
// with exit code 1; a usage error exits 2.
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "shardbridge/convert/json_forms.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::tools {
namespace {

using convert::writeHloShardingJson;

struct ExportCliOptions {
  std::vector<std::string> meshes;
  std::string manualAxes;
  bool v3 = false;
  bool json = false;
  std::string text;
};

constexpr const char* kCommand = "export";


int runExport(const ExportCliOptions& options) {
  setJsonOutput(options.json);
  std::vector<std::string> manualAxes;
  if (!splitManualAxes(options.manualAxes, manualAxes)) {
    return usageError(kCommand, "empty axis name in --manual-axes '" + options.manualAxes + "'");
  }

  sdy::Context ctx;
  std::vector<NamedMesh> meshes;
  if (int failed = parseMeshOptions(ctx, options.meshes, kCommand, meshes)) return failed;
  sdy::MeshLookup lookup = makeMeshLookup(meshes);

  std::optional<InputText> input = readArg(options.text, InputKind::kSharding);
  if (!input) return 1;
  sdy::SourceMap locations;
  auto attr = sdy::parseAttribute(ctx, input->text, &locations);
  if (!attr) return reportError(attr.error(), *input);

  // Verified here, with the source map, so that errors point into the
  // input; convertToHloSharding verifies again without locations.
  sdy::VerifyOptions verifyOptions;
  verifyOptions.locations = &locations;
  convert::ExportOptions exportOptions;
  exportOptions.v3 = options.v3;
  Result<hlo::HloSharding> result = makeError(ErrorCode::kInternal, "no sharding");
  if (const auto* sharding = std::get_if<sdy::TensorShardingAttr>(&*attr)) {
    Status verified = sdy::verifyTensorSharding(*sharding, lookup, std::nullopt, verifyOptions);
    if (!verified) return reportError(verified.error(), *input);
    result = convert::convertToHloSharding(*sharding, lookup, manualAxes, exportOptions);
  } else if (const auto* perValue = std::get_if<sdy::TensorShardingPerValueAttr>(&*attr)) {
    Status verified =
        sdy::verifyTensorShardingPerValue(*perValue, lookup, std::nullopt, verifyOptions);
    if (!verified) return reportError(verified.error(), *input);
    result = convert::convertToHloSharding(*perValue, lookup, manualAxes, exportOptions);
  } else {
    const char* message = "expected '#sdy.sharding' or '#sdy.sharding_per_value', got a mesh";
    return reportError(makeError(ErrorCode::kInvalid, message, 0), *input);
  }
  // The sharding verified, so what fails now is mostly the --manual-axes
  // value (every such message of convertToHloSharding names "manual"), shown
  // against that option; anything else (a mesh beyond the device limits, a
  // name V3 cannot print) is the input's.
  if (!result) {
    if (result.error().message.find("manual") != std::string::npos) {
      return reportError(result.error(), options.manualAxes, "--manual-axes");
    }
    return reportError(result.error(), *input);
  }

  std::string hloText = hlo::printSharding(*result, /*includeMetadata=*/true);
  if (!options.json) return printOut(hloText + "\n");
  JsonWriter w;
  w.beginObject();
  w.key("input").value(sdy::printAttribute(*attr));
  w.key("mhlo_sharding").value(hloText);
  w.key("sharding");
  writeHloShardingJson(w, *result);
  w.endObject();
  return printOut(w.finish());
}

}  // namespace

void registerExportCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<ExportCliOptions>();
  auto* cmd = app.add_subcommand(
      "export", "Print an sdy sharding as the HloSharding XLA would write into mhlo.sharding");
  cmd->footer(
      "SHARDING is #sdy.sharding<...> or #sdy.sharding_per_value<[...]> (a tuple);\n"
      "`-` reads it from stdin, `@FILE` from a file. It is verified against the\n"
      "--mesh options, then converted as OpenXLA's Shardy export does and printed\n"
      "with its metadata (the reduction op of unreduced axes as op_name=\"SUM\",\n"
      "\"MAX\" or \"MIN\"). Input errors exit 1, usage errors 2.\n"
      "\n"
      "Examples:\n"
      "  shardbridge export --mesh '<[\"x\"=2, \"y\"=4]>' \\\n"
      "      '#sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>'\n"
      "      {devices=[4,2]<=[2,4]T(1,0)}\n"
      "  shardbridge export --mesh '<[\"i\"=2, \"j\"=2]>' --manual-axes j --v3 \\\n"
      "      '#sdy.sharding<@mesh, [{\"i\", ?}, {?}]>'\n"
      "      {mesh['i'=2,'j'=2], [{'i', ?}, {?}], manual={'j'}}\n");
  addMeshOption(cmd, options->meshes);
  cmd->add_option("--manual-axes", options->manualAxes,
                  "Comma-separated mesh axes that are manual at this value (the "
                  "xla.sdy.manual_axes attribute), in order: the device order of the "
                  "MANUAL subgroup.")
      ->expected(1)
      ->allow_extra_args(false);
  cmd->add_flag("--v3", options->v3,
                "Print a V3 NamedSharding ({mesh[...], [...]}) as upstream's "
                "enable-hlo-sharding-v3 export does.");
  cmd->add_flag("--json", options->json,
                "Print {\"input\", \"mhlo_sharding\", \"sharding\"} as JSON (docs/json.md)");
  cmd->add_option("SHARDING", options->text, "The sharding, `-` for stdin or @FILE")->required();
  addMaxInputBytesOption(cmd);
  cmd->callback([&run, options] { run = [options] { return runExport(*options); }; });
}

}  // namespace shardbridge::tools
