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
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge::module {

// One sharding written in the module.
struct MlirShardingSite {
  // The byte range of the attribute's value in the text: the string literal
  // (quotes included) for mhlo.sharding and xla.sdy.sharding, the
  // `#sdy.sharding...` attribute for sdy.sharding, the `<...>` of an
  // sdy.sharding_constraint or of one in/out sharding of a manual computation.
  size_t offset = 0;
  size_t length = 0;
  int line = 1;    // of `offset`, 1-based
  int column = 1;  // of `offset`, 1-based, in bytes
  // Where it is, for people: "@main %arg0", "@main result 0",
  // "%3 = stablehlo.add", "sdy.sharding_constraint %2",
  // "sdy.manual_computation in_shardings[0]".
  std::string place;
  // "sdy.sharding", "mhlo.sharding", "xla.sdy.sharding",
  // "sdy.sharding_constraint", "in_shardings" or "out_shardings".
  std::string attribute;
  // The sharding text, string escapes decoded (`\22` -> `"`). For an
  // mhlo.sharding holding serialized OpSharding bytes, those bytes.
  std::string value;
};

// A mesh defined in the module: an `sdy.mesh @name = <...>` op, or an entry
// of the round-trip `xla.sdy.meshes` module attribute.
struct MlirMeshDef {
  std::string name;  // "mesh" (no '@')
  std::string text;  // `<["x"=2]>` for an op; `#sdy.mesh<["x"=2]>` (decoded) for xla.sdy.meshes
  size_t offset = 0; // of the op, or of the xla.sdy.meshes string literal
  int line = 1;
  int column = 1;
};

struct MlirScan {
  std::vector<MlirShardingSite> shardings;  // in text order
  std::vector<MlirMeshDef> meshes;          // in text order
};

// Scans `text` (a whole module, or top-level ops without `module`).
// Recognised: `sdy.mesh @name = <...>` ops; `func.func` arguments
// `%argN: type {attrs}` and results `-> (type {attrs}, ...)`; op attribute
// dictionaries `{...}`; `sdy.sharding_constraint %x <...> : type`;
// `sdy.manual_computation(...) in_shardings=[...] out_shardings=[...]
// manual_axes={...} (...) {...}`; the module's `attributes {...}`. Inside
// dictionaries: sdy.sharding, mhlo.sharding, and
// `mhlo.frontend_attributes = {xla.sdy.sharding = "...", xla.sdy.meshes = "..."}`
// (xla.sdy.meshes directly in the module dictionary too).
// The sharding texts are not parsed here.
// Errors (kParse, with Error::offset into `text`, never an abort): an
// unterminated string or a bad escape in a sharding string, unbalanced or
// unclosed brackets (a truncated module), a malformed construct of the list
// above (`expected '=' after the mesh name, got ...`), nesting deeper than
// 4096 brackets.
Result<MlirScan> scanMlir(std::string_view text);

}  // namespace shardbridge::module
