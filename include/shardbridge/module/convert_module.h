// Whole-module conversion of MLIR text between Shardy shardings and XLA's
// `mhlo.sharding` strings: what OpenXLA's Shardy export pass
// (xla-sdy-stablehlo-export-shardings, with @Sharding custom calls for
// sharding constraints) and import pass (xla-sdy-import-shardings) do to a
// module's shardings, by splicing the text: every byte outside the
// rewritten attributes and ops is copied as it is.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/any_order.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/mlir_type.h"

namespace shardbridge::module {

struct ExportModuleOptions {
  // Write V3 (NamedSharding) strings, as upstream's enable-hlo-sharding-v3.
  bool v3 = false;
  // sdy.mesh ops to keep although every sharding naming them was exported
  // (something else in the module still refers to them).
  std::vector<std::string> keepMeshes;
  // Read the round-trip form (`xla.sdy.meshes`, frontend `xla.sdy.sharding`)
  // as shardings to export. Off: only `sdy.sharding` and `sdy.mesh` count, as
  // upstream's export-shardings at the end of the round-trip export, where
  // the round-trip strings are the pipeline's own output.
  bool readRoundTrip = true;
  // The file's top-level type aliases (`!t = tensor<8x8xf32>`): name with
  // its '!' -> definition. A value typed `!t` is checked and converted as
  // its definition. Aliases defined at the start of a line of `text` itself
  // are read too; these are for a module given without its file's aliases.
  std::vector<std::pair<std::string, std::string>> typeAliases;
};

struct ImportModuleOptions {
  // Import device orders upstream aborts on (any_order.h); off: upstream's
  // behaviour, with an error where upstream aborts.
  convert::AnyOrderOptions anyOrder;
  // Name the meshes of maximal shardings `maximal_mesh_<id>`, as the pinned
  // upstream import pass does (xla-sdy-import-shardings); off:
  // `single_device_<id>`, as `shardbridge import` and `list` name them.
  bool maximalMeshNames = false;
  // A module that already defines a mesh of an inferred mesh's name: the
  // inferred one is used when identical, else named NAME_1, NAME_2, ...
  // (the first free), as `shardbridge list` does; off: an error.
  bool renameOnClash = false;
  // The file's top-level type aliases (`!t = tensor<8x8xf32>`): name with
  // its '!' -> definition. A value typed `!t` is checked and converted as
  // its definition. Aliases defined at the start of a line of `text` itself
  // are read too; these are for a module given without its file's aliases.
  std::vector<std::pair<std::string, std::string>> typeAliases;
};

// Something converted but worth telling: an op left in sdy form.
struct ModuleWarning {
  size_t offset = 0;  // into the input text
  std::string message;
};

// Where one step of runPasses spent its time (wall-clock seconds), for
// `convert --timing`. A step its prefilter skipped has skipped = true and no
// times; a step whose edits the next step took (docs/module.md "Two passes in
// one rewrite") has no apply time, the step that took them has no parse.
struct PassTiming {
  std::string name;     // the pass, as registered (pipelines are expanded)
  bool skipped = false;
  bool parsed = false;   // it parsed the text it read (else the tree was at hand)
  bool applied = false;  // its edits were written as a new text (else none, or the next step took them)
  double prefilter = 0;  // looking in the text for the words it needs (docs/module.md "Performance")
  double parse = 0;      // parsing the op tree of the text it read
  double run = 0;        // the pass itself, recording its edits
  double apply = 0;      // writing the new text from the edits
};

struct ConvertedModule {
  std::string text;
  std::vector<ModuleWarning> warnings;
  std::vector<PassTiming> timings;  // runPasses only: one per step, in order
  // runPasses only: how many parts the module ran in, each on a thread of
  // `partThreads` (docs/module.md "Large modules in parts"); 0 when it ran
  // whole. In parts, each step's times are summed over the parts.
  size_t parts = 0;
  unsigned partThreads = 0;
};

// The export pass on MLIR text. Meshes come from the module's `sdy.mesh` ops
// (and from a round-trip `xla.sdy.meshes` attribute). Rewrites:
//   func argument/result `sdy.sharding = #sdy.sharding<...>`
//     -> `mhlo.sharding = "..."` (convert::convertToHloSharding, MLIR string
//        escapes: `"` as \22);
//   op `sdy.sharding = #sdy.sharding_per_value<[...]>` -> `mhlo.sharding`,
//     one sharding as itself, several as a tuple `{{...}, {...}}`;
//   `%r = sdy.sharding_constraint %x <S> : T`
//     -> `%r = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "..."} : (T) -> T`;
//   a round-trip `mhlo.frontend_attributes = {xla.sdy.sharding = "..."}`:
//     the dictionary's mhlo.sharding is set to its export (added after the
//     frontend attributes when missing); the frontend attributes stay;
//   inside an `sdy.manual_computation` body, shardings are exported with the
//     manual axes of every enclosing manual computation as a MANUAL subgroup.
// The `sdy.mesh` ops are removed (with their line when alone on it), except
// those an op left in sdy form refers to: a manual computation (its own
// lowering is not done here) keeps the meshes of its in/out shardings;
// any other sdy op (sdy.reshard, ...) keeps all meshes. Each such op gives a
// warning.
// Errors (with the byte offset of the offending text): scanMlir's; a
// sharding or mesh that does not parse; a sharding that fails the sdy
// verifier against its mesh and, where the value's type is written there
// (func arguments and results, ops with a trailing `: ... -> results` or
// `: type` signature), its type (`sharding doesn't match tensor rank: 2 != 1`,
// `unknown mesh: @m`, `shardings don't match number of values: ...`);
// convertToHloSharding's.
Result<ConvertedModule> exportModule(std::string_view text, const ExportModuleOptions& options = {});

// The import pass on MLIR text. Every `mhlo.sharding = "..."` string (HLO
// sharding text, or escaped serialized OpSharding bytes) of the module is
// read; the mesh is inferred from all of them (convert::inferModuleMesh)
// and `sdy.mesh @mesh = <...>` plus one `sdy.mesh @single_device_<id>` per
// device of a maximal sharding are inserted before the first op of the
// module body (with its indentation). Rewrites:
//   func argument/result `mhlo.sharding` -> `sdy.sharding = #sdy.sharding<...>`
//     with the rank of the written type (closed dims, as upstream);
//   op `mhlo.sharding` -> `sdy.sharding = #sdy.sharding_per_value<[...]>`, a
//     tuple giving one sharding per element, ranks from the op's trailing
//     type signature when written there, else from each sharding itself;
//     `@Sharding` custom calls included, as upstream's import pass does;
//   the round-trip form: the `xla.sdy.meshes` entries become sdy.mesh ops
//     and the attribute is removed; a dictionary with
//     `mhlo.frontend_attributes = {xla.sdy.sharding = "S"}` gets
//     `sdy.sharding = S` (canonical) in place of its mhlo.sharding, and loses
//     the xla.sdy.sharding entry (the frontend attributes too when empty).
// Nothing is inserted into a module without shardings.
// Errors (located): scanMlir's; a string that is neither HLO sharding text
// nor an OpSharding; the mesh inference's; a sharding that does not fit its
// value (`sharding {devices=[2,2]<=[4]} tiles 2 dimensions but the tensor has
// rank 3`); an inserted mesh whose name the module already defines.
Result<ConvertedModule> importModule(std::string_view text, const ImportModuleOptions& options = {});

// The contents of an `mhlo.sharding` string (escapes decoded), as
// importModule reads it: HLO sharding text when it starts with `{` after
// blanks (hlo::parseSharding, errors located in `value`), else serialized
// OpSharding bytes (errors "mhlo.sharding is neither HLO sharding text nor
// a serialized OpSharding: ...", without offset).
Result<hlo::HloSharding> readMhloSharding(std::string_view value);

}  // namespace shardbridge::module
