// `shardbridge import`: HloShardings (HLO text, OpSharding text/binary/JSON)
// as sdy shardings, onto a given mesh or onto the mesh inferred from all the
// inputs together, as XLA's ImportShardingsPass does for a module.
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "losses.h"
#include "mesh_args.h"
#include "sharding_args.h"
#include "shardbridge/convert/json_forms.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::tools {
namespace {

using convert::writeHloShardingJson;
using convert::writeMeshJson;
using convert::writeTensorShardingJson;

// Beyond upstream (issue 4 item 4): device orders that upstream aborts on
// are imported onto a mesh with device_ids, or onto --mesh's device order.
constexpr convert::AnyOrderOptions kAnyOrder{true};

// --rank beyond this is a usage error, not an allocation of that many
// dimension shardings. The bound is the MLIR nesting limit (README "Limits").
constexpr int64_t kMaxRank = 4096;

struct ImportOptions {
  std::vector<std::string> meshes;  // at most one
  bool openDims = false;
  bool meshPerGroup = false;
  bool json = false;
  std::optional<int64_t> rank;
  std::vector<std::string> inputs;
};


// One imported input: its sdy form (a sharding, or one per tuple element).
struct Imported {
  std::string text;
  std::vector<sdy::TensorShardingAttr> shardings;
  bool perValue = false;
  std::vector<std::string> warnings;  // what the import lost (losses.h)
};

// The --json document: the meshes printed, then one entry per input.
std::string importJson(const std::vector<sdy::MeshSymbol>& symbols,
                       const std::vector<hlo::HloSharding>& inputs,
                       const std::vector<Imported>& results) {
  JsonWriter w;
  w.beginObject();
  w.key("meshes").beginArray();
  for (const sdy::MeshSymbol& symbol : symbols) {
    w.beginObject();
    w.key("name").value(symbol.name);
    w.key("text").value(sdy::printMeshSymbol(symbol));
    w.key("mesh");
    writeMeshJson(w, symbol.mesh);
    w.endObject();
  }
  w.endArray();
  w.key("shardings").beginArray();
  for (size_t i = 0; i < results.size(); ++i) {
    w.beginObject();
    w.key("input");
    writeHloShardingJson(w, inputs[i]);
    w.key("text").value(results[i].text);
    if (results[i].perValue) {
      w.key("shardings").beginArray();
      for (sdy::TensorShardingAttr s : results[i].shardings) writeTensorShardingJson(w, s);
      w.endArray();
    } else {
      w.key("sharding");
      writeTensorShardingJson(w, results[i].shardings[0]);
    }
    w.key("warnings").beginArray();
    for (const std::string& warning : results[i].warnings) w.value(warning);
    w.endArray();
    w.endObject();
  }
  w.endArray();
  w.endObject();
  return w.finish();
}

int runImport(const ImportOptions& options) {
  setJsonOutput(options.json);
  sdy::Context ctx;
  std::vector<NamedMesh> meshes;
  if (int rc = parseMeshOptions(ctx, options.meshes, "import", meshes)) return rc;
  if (meshes.size() > 1) return usageError("import", "at most one --mesh may be given");
  if (!meshes.empty() && options.meshPerGroup) {
    return usageError("import", "--mesh-per-group infers the meshes; it cannot be used with --mesh");
  }

  std::vector<hlo::HloSharding> shardings;
  for (const std::string& arg : options.inputs) {
    std::optional<hlo::HloSharding> s = readShardingArg(arg, std::nullopt);
    if (!s) return 1;
    if (Status devices = checkImportableDevices(*s); !devices) {
      return reportError(devices.error(), "", inputName(arg));
    }
    shardings.push_back(std::move(*s));
  }

  // The mesh lines to print (none with --mesh), in order.
  std::vector<sdy::MeshSymbol> symbols;
  // The mesh (and its symbol name) of each input.
  std::vector<sdy::MeshAttr> meshOf(shardings.size());
  std::vector<std::string> meshNameOf(shardings.size(), "mesh");
  std::map<int64_t, std::string> singleDevice;
  auto printSingleDevices = [&](const std::vector<std::pair<int64_t, std::string>>& devices) {
    for (const auto& [id, name] : devices) {
      int64_t ids[] = {id};
      symbols.push_back(sdy::MeshSymbol{name, sdy::MeshAttr::get(ctx, {}, ids)});
      singleDevice[id] = name;
    }
  };
  if (!meshes.empty()) {
    for (size_t i = 0; i < shardings.size(); ++i) {
      meshOf[i] = meshes[0].mesh;
      meshNameOf[i] = meshes[0].name;
    }
    // Single devices still refer to `@single_device_<id>`, the names the
    // module import would create; with --mesh those meshes are not printed.
    for (const hlo::HloSharding& s : shardings)
      for (const hlo::HloSharding* leaf : hlo::leavesOf(s))
        if (auto d = leaf->uniqueDevice(); d && leaf->isSingleDevice())
          singleDevice[*d] = "single_device_" + std::to_string(*d);
  } else if (options.meshPerGroup) {
    auto grouped = convert::inferModuleMeshes(ctx, shardings, kAnyOrder);
    if (!grouped) return reportError(grouped.error(), "", "<input>");
    for (const auto& [name, mesh] : grouped->meshes) {
      symbols.push_back(sdy::MeshSymbol{name, mesh});
    }
    printSingleDevices(grouped->singleDevice);
    for (size_t i = 0; i < shardings.size(); ++i) {
      meshOf[i] = grouped->meshes[grouped->meshOf[i]].second;
      meshNameOf[i] = grouped->meshes[grouped->meshOf[i]].first;
    }
  } else {
    auto inferred = convert::inferModuleMesh(ctx, shardings, kAnyOrder);
    if (!inferred) {
      Error error = inferred.error();
      // Shardings that no single mesh serves may still be imported onto
      // several.
      if (error.message.starts_with("no single mesh") ||
          error.message.starts_with("no common mesh")) {
        error.message += "; --mesh-per-group imports them onto one mesh per compatible group";
      }
      return reportError(error, "", "<input>");
    }
    symbols.push_back(sdy::MeshSymbol{"mesh", inferred->mesh});
    printSingleDevices(inferred->singleDevice);
    for (size_t i = 0; i < shardings.size(); ++i) meshOf[i] = inferred->mesh;
  }

  std::vector<Imported> results;
  for (size_t i = 0; i < shardings.size(); ++i) {
    const hlo::HloSharding& s = shardings[i];
    const sdy::MeshAttr mesh = meshOf[i];
    const sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, meshNameOf[i]);
    Error error;
    if (s.isTuple()) {
      std::vector<int64_t> ranks;
      for (const hlo::HloSharding* leaf : hlo::leavesOf(s)) ranks.push_back(options.rank.value_or(convert::ownRank(*leaf)));
      auto imported = convert::convertToSdyShardingPerValue(ctx, s, mesh, ref, singleDevice, ranks,
                                                            options.openDims, kAnyOrder);
      if (imported) {
        std::span<const sdy::TensorShardingAttr> leaves = imported->shardings();
        results.push_back(Imported{sdy::printTensorShardingPerValue(*imported),
                                   {leaves.begin(), leaves.end()}, true, {}});
        continue;
      }
      error = imported.error();
    } else {
      auto imported = convert::convertToSdySharding(ctx, s, mesh, ref, singleDevice,
                                                    options.rank.value_or(convert::ownRank(s)),
                                                    options.openDims, kAnyOrder);
      if (imported) {
        results.push_back(Imported{sdy::printTensorSharding(*imported), {*imported}, false, {}});
        continue;
      }
      error = imported.error();
    }
    error.message = "input " + std::to_string(i + 1) + " (" + s.toString() + "): " + error.message;
    error.dropOffsets();
    return reportError(error, "", "<input>");
  }
  // Said, not dropped in silence: what each import lost.
  for (size_t i = 0; i < results.size(); ++i) {
    results[i].warnings = importLosses(shardings[i], meshOf[i] && !meshOf[i].axes().empty());
    for (const std::string& warning : results[i].warnings) {
      std::fprintf(stderr, "%s: warning: input %zu (%s): %s\n", inputName(options.inputs[i]).c_str(),
                   i + 1, escapeBytes(shardings[i].toString()).c_str(), warning.c_str());
    }
  }
  // Written only when every input imported.
  if (options.json) {
    return printOut(importJson(symbols, shardings, results));
  }
  std::string out;
  for (const sdy::MeshSymbol& symbol : symbols) out += sdy::printMeshSymbol(symbol) + "\n";
  for (const Imported& result : results) out += result.text + "\n";
  return printOut(out);
}

}  // namespace

void registerImportCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<ImportOptions>();
  auto* cmd = app.add_subcommand(
      "import", "Import HloShardings as sdy shardings, onto --mesh or an inferred mesh");
  cmd->add_option("--mesh", options->meshes,
                  "The mesh to import onto: NAME=<[...]>, <[...]>, #sdy.mesh<...> or "
                  "`sdy.mesh @NAME = <...>`, or @FILE holding one (default: infer one from all inputs)");
  cmd->add_flag("--open-dims", options->openDims, "Make every dimension open (`?`)");
  cmd->add_flag("--mesh-per-group", options->meshPerGroup,
                "Without --mesh: when no single mesh serves every input, infer one mesh per "
                "compatible group (@mesh, @mesh_1, ...; greedy in input order)");
  cmd->add_flag("--json", options->json,
                "Print the meshes and the imported shardings as one JSON document "
                "(docs/json.md)");
  auto* rank = cmd->add_option_function<int64_t>(
      "--rank", [options](int64_t r) { options->rank = r; },
      "Tensor rank of every input (default: a tiled input's data rank, else 0)");
  rank->check(CLI::Range(int64_t{0}, kMaxRank));
  addMaxInputBytesOption(cmd);
  cmd->add_option("HLO", options->inputs,
                  "HloShardings: HLO text, text/binary/JSON OpSharding, `-` or @FILE")
      ->required();
  cmd->footer(
      "Without --mesh, prints the inferred `sdy.mesh @mesh = <...>` line (`<[]>` when\n"
      "nothing is tiled), then one `sdy.mesh @single_device_<id>` line per device of a\n"
      "maximal sharding (ascending), then one sharding line per input, in order.\n"
      "With --mesh, only the sharding lines. A tuple input prints one\n"
      "#sdy.sharding_per_value<[...]> line. Device orders upstream aborts on are\n"
      "imported onto a mesh with device_ids (docs/import.md). With --mesh-per-group,\n"
      "one `sdy.mesh @mesh`, `@mesh_1`, ... line per group first, and each sharding\n"
      "line refers to the mesh of its group. What the import drops (a MANUAL\n"
      "subgroup, shard_as / shard_like, {unknown}) is said in a warning on stderr.\n"
      "\n"
      "Examples:\n"
      "  shardbridge import --mesh '<[\"x\"=4, \"y\"=2]>' '{devices=[2,4]<=[8]}'\n"
      "  shardbridge import '{devices=[4,2]0,1,2,3,6,7,4,5}' '{maximal device=3}'\n");
  cmd->callback([&run, options] { run = [options] { return runImport(*options); }; });
}

}  // namespace shardbridge::tools
