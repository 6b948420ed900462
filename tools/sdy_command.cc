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
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::tools {
namespace {

struct SdyOptions {
  std::vector<std::string> meshes;
  std::vector<std::string> types;
  std::string text;
};

// The mesh of one --mesh option.
struct NamedMesh {
  std::string name;  // "mesh" when the option gave none
  bool named = false;
  sdy::MeshAttr mesh;
};

int usageError(const std::string& message) {
  std::fprintf(stderr, "shardbridge sdy: error: %s\n", message.c_str());
  return 2;
}

bool isIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// Parses and verifies one --mesh value: `NAME=<[...]>`, `NAME=#sdy.mesh<...>`,
// `<[...]>`, `#sdy.mesh<...>` or `sdy.mesh @NAME = <...>`. Errors are
// rendered against the option's text under the name `--mesh`.
std::optional<NamedMesh> parseMeshOption(sdy::Context& ctx, const std::string& value) {
  sdy::SourceMap locations;
  std::string_view body = value;
  size_t base = 0;
  NamedMesh result{"mesh", false, {}};

  size_t first = value.find_first_not_of(" \t\n\r");
  if (first != std::string::npos && value.compare(first, 8, "sdy.mesh") == 0) {
    auto symbol = sdy::parseMeshSymbol(ctx, value, &locations);
    if (!symbol) {
      reportError(symbol.error(), value, "--mesh");
      return std::nullopt;
    }
    result = NamedMesh{symbol->name, true, symbol->mesh};
  } else {
    size_t eq = value.find('=');
    if (eq != std::string::npos) {
      std::string_view name = std::string_view(value).substr(0, eq);
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
      if (!name.empty() && name.front() == '@') name.remove_prefix(1);
      if (isIdentifier(name)) {
        result.name = std::string(name);
        result.named = true;
        base = eq + 1;
        body = std::string_view(value).substr(base);
      }
    }
    auto mesh = sdy::parseMesh(ctx, body, &locations);
    if (!mesh) {
      reportError(mesh.error().shifted(base), value, "--mesh");
      return std::nullopt;
    }
    result.mesh = *mesh;
  }
  Status verified = sdy::verifyMesh(result.mesh, &locations);
  if (!verified) {
    reportError(verified.error().shifted(base), value, "--mesh");
    return std::nullopt;
  }
  return result;
}

int runSdy(const SdyOptions& options) {
  sdy::Context ctx;
  std::vector<NamedMesh> meshes;
  for (const std::string& value : options.meshes) {
    auto mesh = parseMeshOption(ctx, value);
    if (!mesh) return 1;
    for (const NamedMesh& other : meshes) {
      if (other.name == mesh->name) return usageError("two --mesh options named '" + other.name + "'");
    }
    meshes.push_back(*mesh);
  }
  // `@name` resolves to the --mesh of that name; a lone unnamed --mesh
  // stands for whatever name the sharding uses.
  sdy::MeshLookup lookup = [&meshes](std::string_view name) -> sdy::MeshAttr {
    for (const NamedMesh& m : meshes) {
      if (m.name == name) return m.mesh;
    }
    if (meshes.size() == 1 && !meshes[0].named) return meshes[0].mesh;
    return sdy::MeshAttr();
  };

  std::vector<MlirType> types;
  for (const std::string& text : options.types) {
    auto type = parseMlirType(text);
    if (!type) return reportError(type.error(), text, "--type");
    types.push_back(std::move(*type));
  }

  auto input = readInput(options.text);
  if (!input) return reportError(input.error(), options.text, "<input>");
  sdy::SourceMap locations;
  auto attr = sdy::parseAttribute(ctx, input->text, &locations);
  if (!attr) return reportError(attr.error(), *input);

  sdy::VerifyOptions verifyOptions;
  verifyOptions.locations = &locations;
  Status verified;
  if (const auto* mesh = std::get_if<sdy::MeshAttr>(&*attr)) {
    if (!types.empty()) return usageError("--type applies to shardings, not to a mesh");
    verified = sdy::verifyMesh(*mesh, &locations);
  } else if (const auto* symbol = std::get_if<sdy::MeshSymbol>(&*attr)) {
    if (!types.empty()) return usageError("--type applies to shardings, not to a mesh");
    verified = sdy::verifyMesh(symbol->mesh, &locations);
  } else if (const auto* sharding = std::get_if<sdy::TensorShardingAttr>(&*attr)) {
    if (types.size() > 1) return usageError("a sharding takes at most one --type");
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

  std::string out = sdy::printAttribute(*attr) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
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
      "  shardbridge sdy --mesh 'm=<[\"x\"=4]>' --type 'tensor<8x8xf32>' "
      "'#sdy.sharding<@m, [{\"x\"}, {}]>'\n"
      "  shardbridge sdy --type 'tensor<8xf32>' --type 'tensor<4xf32>' \\\n"
      "      '#sdy.sharding_per_value<[<mesh<[\"x\"=2]>, [{\"x\"}]>, <mesh<[\"x\"=2]>, [{}]>]>'\n");
  cmd->add_option("--mesh", options->meshes,
                  "A mesh the sharding may name: NAME=<[...]>, NAME=#sdy.mesh<...>,\n"
                  "a bare <[...]> or #sdy.mesh<...> (named `mesh`), or a whole\n"
                  "`sdy.mesh @NAME = <...>` line. Repeatable. A single unnamed --mesh\n"
                  "serves any mesh name.")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  cmd->add_option("--type", options->types,
                  "The MLIR type of the value a sharding is attached to, e.g.\n"
                  "tensor<8x16xf32>; checks rank and shape rules. For a\n"
                  "sharding_per_value give one --type per value, in order.")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  cmd->add_option("TEXT", options->text, "The attribute, `-` for stdin or @FILE")->required();
  cmd->callback([&run, options] { run = [options] { return runSdy(*options); }; });
}

}  // namespace shardbridge::tools
