// Passes and pipelines over MLIR modules, named and configured as upstream
// OpenXLA names them (xla/service/spmd/shardy/): `convert --pass NAME{opt=v}`.
//
//   auto specs = parsePassSpec("xla-sdy-stablehlo-export-pipeline{keep-hlo-sharding-constraints=true}");
//   auto out = runPasses(moduleText, *specs);   // out->text: the exported module
//
// Each pass parses the text into an op tree (op_tree.h), records edits and
// splices them; every byte it does not rewrite is kept. A pipeline is a list
// of passes with options, composed in one place (src/module/pipelines.cc).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/module/convert_module.h"

namespace shardbridge::module {

// One `NAME{opt=value opt2=value}` as given to --pass.
struct PassSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> options;  // in the order written
};

// Parses one --pass argument: a pass or pipeline name, optionally followed
// by `{opt=value ...}` (blank-separated, MLIR's syntax; `opt` alone means
// `opt=true`). Errors (kParse, offset into `text`): a malformed spec; (kNotFound)
// an unknown pass name or an option the pass does not have, with the known
// names in the message.
Result<PassSpec> parsePassSpec(std::string_view text);

struct PassOptionInfo {
  std::string name;
  std::string defaultValue;  // "false", "true", ...
  std::string help;
  // Non-empty: only the default is supported, and this says why (runPasses
  // rejects another value with kUnsupported).
  std::string onlyDefault = {};
};

struct PassInfo {
  std::string name;
  std::string summary;
  bool pipeline = false;
  std::vector<PassOptionInfo> options;
};

// Every pass and pipeline --pass accepts, pipelines first, then by name.
const std::vector<PassInfo>& knownPasses();

// The import pipeline `convert --to sdy` runs on `text` (docs/module.md
// "Which import"): "xla-sdy-round-trip-import-pipeline" when the text holds
// the round-trip form — an `xla.sdy.meshes` attribute, or a call of
// `@xla.sdy.GlobalToLocalShape`,
// `@xla.sdy.LocalToGlobalShape` or `@xla.sdy.FuncResultSharding` — else
// "xla-sdy-stablehlo-import-pipeline".
std::string importPipelineFor(std::string_view text);

// The --pass spec `convert --to sdy` runs: importPipelineFor(text), the
// round-trip one with import-op-shardings=true, and enable-hlo-sharding-v3=true
// when the module has no xla.sdy.meshes but V3 strings (`"{mesh[`).
std::string importPassSpecFor(std::string_view text);

// The pass `convert --to hlo|sdy` runs, shared by the CLI, the C API and
// the Python module: toHlo, xla-sdy-stablehlo-export-pipeline (with
// roundTrip, xla-sdy-round-trip-export-pipeline); else importPassSpecFor(text).
// `options` (name, value) are added, a later value winning. Errors
// (parsePassSpec's, without an offset): an option the pipeline does not have,
// with the known names.
Result<PassSpec> conversionSpec(bool toHlo, bool roundTrip, std::string_view text,
                                const std::vector<std::pair<std::string, std::string>>& options = {});

// Runs the passes in order on `text`. Boolean options take true/false/1/0.
// Errors: the first failing pass's (located in the text that pass read:
// for the first pass, `text`), or (kInvalid) a bad option value.
Result<ConvertedModule> runPasses(std::string_view text, const std::vector<PassSpec>& passes);

}  // namespace shardbridge::module
