#include "mesh_args.h"

#include <cstdio>
#include <string_view>

#include "cli_util.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::tools {
namespace {

// The characters of an MLIR bare identifier (and `-`, which mesh names in
// the wild use), so that `NAME=` is told apart from a mesh text with `=`.
bool isIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

int usageError(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "shardbridge %s: error: %s\n", command.c_str(), message.c_str());
  return 2;
}

std::optional<NamedMesh> parseMeshOption(sdy::Context& ctx, const std::string& option) {
  // `--mesh @FILE` (or `-`) reads the mesh from a file, so that one with a
  // million device_ids need not be a command-line argument.
  std::string name = "--mesh";
  std::string fromFile;
  if (option == "-" || (!option.empty() && option[0] == '@')) {
    std::optional<InputText> read = readArg(option, InputKind::kSharding);
    if (!read) return std::nullopt;
    fromFile = std::move(read->text);
    name = read->name;
  }
  const std::string& value = fromFile.empty() ? option : fromFile;
  sdy::SourceMap locations;
  std::string_view body = value;
  size_t base = 0;
  NamedMesh result{"mesh", false, {}};

  size_t first = value.find_first_not_of(" \t\n\r");
  if (first != std::string::npos && value.compare(first, 8, "sdy.mesh") == 0) {
    auto symbol = sdy::parseMeshSymbol(ctx, value, &locations);
    if (!symbol) {
      reportError(symbol.error(), value, name);
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
      reportError(mesh.error().shifted(base), value, name);
      return std::nullopt;
    }
    result.mesh = *mesh;
  }
  Status verified = sdy::verifyMesh(result.mesh, &locations);
  if (!verified) {
    reportError(verified.error().shifted(base), value, name);
    return std::nullopt;
  }
  return result;
}

int parseMeshOptions(sdy::Context& ctx, const std::vector<std::string>& values,
                     const std::string& command, std::vector<NamedMesh>& meshes) {
  for (const std::string& value : values) {
    auto mesh = parseMeshOption(ctx, value);
    if (!mesh) return 1;
    for (const NamedMesh& other : meshes) {
      if (other.name == mesh->name) {
        return usageError(command, "two --mesh options named '" + other.name + "'");
      }
    }
    meshes.push_back(*mesh);
  }
  return 0;
}

sdy::MeshLookup makeMeshLookup(const std::vector<NamedMesh>& meshes) {
  return [&meshes](std::string_view name) -> sdy::MeshAttr {
    for (const NamedMesh& m : meshes) {
      if (m.name == name) return m.mesh;
    }
    if (meshes.size() == 1 && !meshes[0].named) return meshes[0].mesh;
    return sdy::MeshAttr();
  };
}

CLI::Option* addMeshOption(CLI::App* cmd, std::vector<std::string>& values) {
  return cmd
      ->add_option("--mesh", values,
                   "A mesh the sharding may name: NAME=<[...]>, NAME=#sdy.mesh<...>, "
                   "a bare <[...]> or #sdy.mesh<...> (named `mesh`), or a whole "
                   "`sdy.mesh @NAME = <...>` line; @FILE reads one from a file. "
                   "Repeatable. A single unnamed --mesh serves any mesh name.")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
}

bool splitManualAxes(std::string_view value, std::vector<std::string>& names) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  if (trim(value).empty()) return true;
  size_t start = 0;
  while (true) {
    size_t comma = value.find(',', start);
    std::string_view name =
        trim(value.substr(start, comma == std::string_view::npos ? value.npos : comma - start));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    if (name.empty()) return false;
    names.push_back(std::string(name));
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

}  // namespace shardbridge::tools
