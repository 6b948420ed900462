// `shardbridge sdy`: parse, verify and print one sdy attribute or sdy.mesh line.
//
//   shardbridge sdy [--mesh [NAME=]MESH]... [--type TYPE]... TEXT
//
// Prints the canonical form of TEXT and exits 0; an input error (parse or
// verification) is rendered on stderr with exit code 1; a usage error exits 2.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "shardbridge/convert/json_forms.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::tools {
namespace {

using convert::writeMeshJson;
using convert::writeTensorShardingJson;

struct SdyOptions {
  std::vector<std::string> meshes;
  std::vector<std::string> types;
  bool json = false;
  std::string text;
};

// The --json document: the canonical text plus the attribute's structure.
std::string sdyJson(const sdy::AnyAttr& attr) {
  JsonWriter w;
  w.beginObject();
  if (const auto* mesh = std::get_if<sdy::MeshAttr>(&attr)) {
    w.key("kind").value("mesh");
    w.key("text").value(sdy::printAttribute(attr));
    w.key("mesh");
    writeMeshJson(w, *mesh);
  } else if (const auto* symbol = std::get_if<sdy::MeshSymbol>(&attr)) {
    w.key("kind").value("mesh_symbol");
    w.key("text").value(sdy::printAttribute(attr));
    w.key("name").value(symbol->name);
    w.key("mesh");
    writeMeshJson(w, symbol->mesh);
  } else if (const auto* sharding = std::get_if<sdy::TensorShardingAttr>(&attr)) {
    w.key("kind").value("sharding");
    w.key("text").value(sdy::printAttribute(attr));
    w.key("sharding");
    writeTensorShardingJson(w, *sharding);
  } else {
    const auto& perValue = std::get<sdy::TensorShardingPerValueAttr>(attr);
    w.key("kind").value("sharding_per_value");
    w.key("text").value(sdy::printAttribute(attr));
    w.key("shardings").beginArray();
    for (sdy::TensorShardingAttr s : perValue.shardings()) writeTensorShardingJson(w, s);
    w.endArray();
  }
  w.endObject();
  return w.finish();
}

int sdyUsageError(const std::string& message) { return tools::usageError("sdy", message); }

int runSdy(const SdyOptions& options) {
  setJsonOutput(options.json);
  sdy::Context ctx;
  std::vector<NamedMesh> meshes;
  if (int failed = parseMeshOptions(ctx, options.meshes, "sdy", meshes)) return failed;
  sdy::MeshLookup lookup = makeMeshLookup(meshes);

  std::vector<MlirType> types;
  for (const std::string& text : options.types) {
    auto type = parseMlirType(text);
    if (!type) return reportError(type.error(), text, "--type");
    types.push_back(std::move(*type));
  }

  std::optional<InputText> input = readArg(options.text, InputKind::kSharding);
  if (!input) return 1;
  sdy::SourceMap locations;
  auto attr = sdy::parseAttribute(ctx, input->text, &locations);
  if (!attr) return reportError(attr.error(), *input);

  sdy::VerifyOptions verifyOptions;
  verifyOptions.locations = &locations;
  Status verified;
  if (const auto* mesh = std::get_if<sdy::MeshAttr>(&*attr)) {
    if (!types.empty()) return sdyUsageError("--type applies to shardings, not to a mesh");
    verified = sdy::verifyMesh(*mesh, &locations);
  } else if (const auto* symbol = std::get_if<sdy::MeshSymbol>(&*attr)) {
    if (!types.empty()) return sdyUsageError("--type applies to shardings, not to a mesh");
    verified = sdy::verifyMesh(symbol->mesh, &locations);
  } else if (const auto* sharding = std::get_if<sdy::TensorShardingAttr>(&*attr)) {
    if (types.size() > 1) return sdyUsageError("a sharding takes at most one --type");
    std::optional<MlirType> type;
    if (!types.empty()) type = types[0];
    verified = sdy::verifyTensorSharding(*sharding, lookup, type, verifyOptions);
  } else {
    const auto& perValue = std::get<sdy::TensorShardingPerValueAttr>(*attr);
    std::optional<std::vector<MlirType>> resultTypes;
    if (!types.empty()) resultTypes = types;
    verified = sdy::verifyTensorShardingPerValue(perValue, lookup, resultTypes, verifyOptions);
  }
  if (!verified) return reportError(verified.error(), *input);

  return printOut(options.json ? sdyJson(*attr) : sdy::printAttribute(*attr) + "\n");
}

}  // namespace

void registerSdyCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<SdyOptions>();
  auto* cmd = app.add_subcommand(
      "sdy", "Parse, verify and print one sdy attribute or sdy.mesh line");
  cmd->footer(
      "TEXT is one of #sdy.mesh<...>, <[...]>, sdy.mesh @NAME = <...>, #sdy.sharding<...>\n"
      "or #sdy.sharding_per_value<[...]>; `-` reads it from stdin, `@FILE` from a file.\n"
      "The escaped form of frontend attributes (\\22 for \") is accepted.\n"
      "Prints the canonical text on success (exit 0); input errors exit 1, usage errors 2.\n"
      "\n"
      "Examples:\n"
      "  shardbridge sdy --mesh '<[\"a\"=2, \"b\"=2]>' '#sdy.sharding<@mesh, [{\"a\"}, {}]>'\n"
      "  shardbridge sdy --mesh 'm=<[\"x\"=4]>' --type 'tensor<8x8xf32>' \\\n"
      "      '#sdy.sharding<@m, [{\"x\"}, {}]>'\n"
      "  shardbridge sdy --type 'tensor<8xf32>' --type 'tensor<4xf32>' \\\n"
      "      '#sdy.sharding_per_value<[<mesh<[\"x\"=2]>, [{\"x\"}]>,\n"
      "                                 <mesh<[\"x\"=2]>, [{}]>]>'\n");
  addMeshOption(cmd, options->meshes);
  cmd->add_option("--type", options->types,
                  "The MLIR type of the value a sharding is attached to, e.g. "
                  "tensor<8x16xf32>; checks rank and shape rules. For a "
                  "sharding_per_value give one --type per value, in order.")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  cmd->add_flag("--json", options->json,
                "Print a JSON document (the canonical text and the attribute's "
                "structure; docs/json.md) instead of the text");
  cmd->add_option("TEXT", options->text, "The attribute, `-` for stdin or @FILE")->required();
  addMaxInputBytesOption(cmd);
  cmd->callback([&run, options] { run = [options] { return runSdy(*options); }; });
}

}  // namespace shardbridge::tools
