// The `--mesh [NAME=]MESH` option shared by `sdy` and `export`: parsing and
// verifying each value, and resolving the sharding's `@name` references.
//
//   std::vector<NamedMesh> meshes;
//   parseMeshOptions(ctx, {"m=<[\"x\"=2]>"}, "export", meshes)  -> 0
//   makeMeshLookup(meshes)("m")  -> the mesh <["x"=2]>
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/sdy/attrs.h"

namespace shardbridge::tools {

// The mesh of one --mesh option.
struct NamedMesh {
  std::string name;  // "mesh" when the option gave none
  bool named = false;
  sdy::MeshAttr mesh;
};

// Parses and verifies one --mesh value: `NAME=<[...]>`, `NAME=#sdy.mesh<...>`,
// `<[...]>`, `#sdy.mesh<...>` or `sdy.mesh @NAME = <...>`; `@FILE` or `-`
// reads any of these from a file or stdin (base/input.h). On an error,
// renders it on stderr against the option's text under the name `--mesh`
// (or the file's name) and returns nullopt (an input error, exit 1).
std::optional<NamedMesh> parseMeshOption(sdy::Context& ctx, const std::string& option);

// Parses every --mesh value in order into `meshes`. Returns 0, or the
// process exit code of the failure, already reported on stderr: 1 for a
// mesh that does not parse or verify, 2 for two options of the same name
// (`shardbridge COMMAND: error: two --mesh options named 'NAME'`).
int parseMeshOptions(sdy::Context& ctx, const std::vector<std::string>& values,
                     const std::string& command, std::vector<NamedMesh>& meshes);

// `@name` resolves to the --mesh of that name; a lone unnamed --mesh stands
// for whatever name the sharding uses; anything else is the null mesh. The
// lookup refers to `meshes`, which must outlive it.
sdy::MeshLookup makeMeshLookup(const std::vector<NamedMesh>& meshes);

// Prints `shardbridge COMMAND: error: MESSAGE` on stderr and returns 2, the
// exit code of a usage error.
int usageError(const std::string& command, const std::string& message);

// Splits a --manual-axes value `a,b` (each name optionally in double quotes,
// as sdy prints it) into names, in the order given: that order is the device
// order of the MANUAL subgroup. An empty value means none. Returns false on
// an empty name (`a,,b`), a usage error.
bool splitManualAxes(std::string_view value, std::vector<std::string>& names);

// Adds the repeatable `--mesh [NAME=]MESH` option (the help text every
// command shares) to `cmd`, collecting the values into `values`.
CLI::Option* addMeshOption(CLI::App* cmd, std::vector<std::string>& values);

}  // namespace shardbridge::tools
