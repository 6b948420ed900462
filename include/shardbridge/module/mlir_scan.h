// Finding the shardings of an MLIR module in its text, without an MLIR
// parser: one pass over the bytes (strings with their escapes, `//`
// comments, bracket nesting) that recognises the places shardings live in
// StableHLO / Shardy modules.
//
//   scanMlir(R"(sdy.mesh @mesh = <["x"=2]>
//   func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) ...)")
//   -> meshes    {name "mesh", text `<["x"=2]>`, line 1, column 1}
//      shardings {place "@main %arg0", attribute "sdy.sharding",
//                 value `#sdy.sharding<@mesh, [{"x"}]>`, line 2, column ...}
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/sdy/mlir_type.h"

namespace shardbridge::module {

// One sharding written in the module.
struct MlirShardingSite {
  // The byte range of the attribute's value in the text: the string literal
  // (quotes included) for mhlo.sharding, xla.sdy.sharding and the module's
  // mhlo.spmd_* strings, the `#sdy.sharding...` attribute for sdy.sharding,
  // the `<...>` of an sdy.sharding_constraint, sdy.reshard, collective
  // `out_sharding` or one in/out sharding of a manual computation.
  size_t offset = 0;
  size_t length = 0;
  int line = 1;    // of `offset`, 1-based
  int column = 1;  // of `offset`, 1-based, in bytes
  // Where it is, for people: "@main %arg0", "@main result 0",
  // "%3 = stablehlo.add", "sdy.sharding_constraint %2", "sdy.reshard %2",
  // "sdy.all_gather %1", "sdy.manual_computation in_shardings[0]",
  // "module", "module parameter 0".
  std::string place;
  // "sdy.sharding", "mhlo.sharding", "xla.sdy.sharding",
  // "sdy.sharding_constraint", "sdy.reshard", "out_sharding",
  // "in_shardings", "out_shardings", "mhlo.spmd_output_sharding" or
  // "mhlo.spmd_parameters_shardings".
  std::string attribute;
  // The sharding text, string escapes decoded (`\22` -> `"`). For an
  // mhlo.sharding holding serialized OpSharding bytes, those bytes.
  std::string value;
  // The module it belongs to (an index into MlirScan::modules).
  size_t module = 0;
  // The types of the values it applies to, where written and readable: the
  // argument or result type, the op's result types (its trailing
  // signature), a manual computation's operand (in_shardings) or result
  // (out_shardings) types; nullopt otherwise.
  std::optional<std::vector<MlirType>> types;
  // In an op's attribute dictionary (one sharding per result: a
  // sharding_per_value, or a tuple mhlo.sharding).
  bool onOp = false;
  // The manual axes of every enclosing sdy.manual_computation, outermost
  // first (what the export exports the sharding with).
  std::vector<std::string> manualAxes;
};

// A mesh defined in the module: an `sdy.mesh @name = <...>` op, or an entry
// of the round-trip `xla.sdy.meshes` module attribute.
struct MlirMeshDef {
  std::string name;  // "mesh" (no '@')
  std::string text;  // `<["x"=2]>` for an op; `#sdy.mesh<["x"=2]>` (decoded) for xla.sdy.meshes
  size_t offset = 0; // of the op, or of the xla.sdy.meshes string literal
  int line = 1;
  int column = 1;
  size_t module = 0;  // an index into MlirScan::modules
};

// One module of the file: each top-level `module` op, or the whole file
// when it has none. Each has its own symbols (meshes).
struct MlirModuleScope {
  std::string name;  // `module @NAME`'s NAME, unquoted; empty when unnamed
  size_t offset = 0;  // of the module op (0 for a file without one)
};

struct MlirScan {
  std::vector<MlirShardingSite> shardings;  // in text order
  std::vector<MlirMeshDef> meshes;          // in text order
  std::vector<MlirModuleScope> modules;     // in text order, at least one
};

// Scans `text` (one or several modules, or top-level ops without `module`)
// on the op tree (module/op_tree.h), so every op form it reads is found.
// Recognised: `sdy.mesh @name = <...>` ops; `func.func` argument and result
// dictionaries; op attribute dictionaries; the sharding of
// `sdy.sharding_constraint` and `sdy.reshard`; the `out_sharding` of the
// sdy collectives (all_gather, all_slice, all_to_all, collective_permute,
// reduce_scatter, all_reduce); a manual computation's in/out shardings; the
// module's `attributes {...}`. Inside dictionaries: sdy.sharding,
// mhlo.sharding, and `mhlo.frontend_attributes = {xla.sdy.sharding = "...",
// xla.sdy.meshes = "..."}` (xla.sdy.meshes directly in the module dictionary
// too); in the module dictionary also `mhlo.spmd_output_sharding = "..."`
// and `mhlo.spmd_parameters_shardings = ["...", ...]` (an array of strings
// for either gives one site per element; a tuple string is listed as one
// sharding per value).
// The sharding texts are not parsed here.
// Errors (kParse, with Error::offset into `text`, never an abort):
// parseOpTree's; a bad escape in a sharding string; a malformed construct
// of the list above (`expected '=' after the mesh name`, `expected a
// sharding '<@mesh, [...]>' in 'sdy.reshard'`).
Result<MlirScan> scanMlir(std::string_view text);

}  // namespace shardbridge::module
