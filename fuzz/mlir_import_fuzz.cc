// Fuzz target for the import passes and pipelines (pipeline.h,
// docs/module.md "Import"): arbitrary bytes up to 64 KiB run through the
// import pipeline `convert --to sdy` picks (importPipelineFor), or, chosen
// by the input's length, through the other import pipeline or one import
// pass alone. Never a crash; an error is located inside (or just past) the
// input and is never kInternal; every warning is located in the input; a
// successful output parses again with parseOpTree. By the input's length
// too, the passes that take another's unapplied edits, with the steps
// between them, give in one run what they give one at a time. Inputs are those
// `convert` accepts (module::checkMlirModule): an odd first statement such as
// `modul\xbf {` is read by the op tree but not by the older scanner the
// import-shardings step still uses, whose output then fails to parse (a
// finding of this target, left to the scanner's replacement).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/module/mlir_input.h"
#include "shardbridge/module/op_tree.h"
#include "shardbridge/module/pipeline.h"

namespace {

using namespace shardbridge;
using namespace shardbridge::module;

bool located(const Error& e, size_t size) {
  return e.code != ErrorCode::kInternal && (!e.hasOffset() || e.offset <= size);
}

void check(std::string_view text, const std::string& pass) {
  auto spec = parsePassSpec(pass);
  if (!spec.has_value()) __builtin_trap();
  auto out = runPasses(text, {*spec});
  if (!out.has_value()) {
    if (!located(out.error(), text.size())) __builtin_trap();
    return;
  }
  for (const ModuleWarning& w : out->warnings)
    if (w.offset > text.size()) __builtin_trap();
  if (!parseOpTree(out->text).has_value()) __builtin_trap();
}

// The output of `passes` in one runPasses, where a pass may run over the
// one before's edits (docs/module.md "Two passes in one rewrite"), is that
// of the passes one at a time, each on its own parse; so is failing.
void checkStepwise(std::string_view text, const std::vector<const char*>& passes) {
  std::vector<PassSpec> specs;
  for (const char* p : passes) {
    auto spec = parsePassSpec(p);
    if (!spec.has_value()) __builtin_trap();
    specs.push_back(*spec);
  }
  auto together = runPasses(text, specs);
  std::string steps(text);
  for (const PassSpec& spec : specs) {
    auto one = runPasses(steps, {spec});
    if (!one.has_value()) {
      if (together.has_value()) __builtin_trap();
      return;
    }
    steps = std::move(one->text);
  }
  if (!together.has_value() || together->text != steps) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!checkMlirModule(text)) return 0;
  static const char* kPasses[] = {
      "xla-sdy-import-shardings",
      "xla-sdy-import-constants",
      "xla-sdy-import-sdy-custom-calls",
      "xla-sdy-open-while-free-vars-sharding",
      "stablehlo-ext-while-op-implicit-capture",
      "xla-sdy-round-trip-import-shardy-attrs{import-op-shardings=true}",
      "xla-sdy-round-trip-shard-map-import",
      "xla-stablehlo-round-trip-shard-map-import",
      "xla-sdy-round-trip-import-pipeline{lift-and-dedup-meshes=true}",
      "xla-sdy-stablehlo-import-pipeline",
      "xla-sdy-round-trip-testing-pipeline",
  };
  check(text, importPipelineFor(text));
  if (size & 1) check(text, kPasses[(size >> 1) % (sizeof(kPasses) / sizeof(kPasses[0]))]);
  // The passes that take another's edits, with the steps between them.
  if ((size & 3) == 2)
    checkStepwise(text, {"xla-sdy-import-shardings", "xla-stablehlo-round-trip-shard-map-import", "symbol-dce",
                         "xla-sdy-import-constants"});
  if ((size & 7) == 4)
    checkStepwise(text, {"xla-sdy-import-constants", "stablehlo-ext-flatten-entry-function-tuples",
                         "stablehlo-ext-flatten-custom-call-tuples", "stablehlo-ext-fold-tuples-and-reshapes",
                         "stablehlo-ext-while-op-implicit-capture", "xla-sdy-round-trip-import-shardy-attrs"});
  return 0;
}
