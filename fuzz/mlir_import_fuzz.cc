// Fuzz target for the import passes and pipelines (pipeline.h,
// docs/module.md "Import"): arbitrary bytes up to 64 KiB run through the
// import pipeline `convert --to sdy` picks (importPipelineFor), or, chosen
// by the input's length, through the other import pipeline or one import
// pass alone. Never a crash; an error is located inside (or just past) the
// input and is never kInternal; every warning is located in the input; a
// successful output parses again with parseOpTree. Inputs are those
// `convert` accepts (module::checkMlirModule): an odd first statement such as
// `modul\xbf {` is read by the op tree but not by the older scanner the
// import-shardings step still uses, whose output then fails to parse (a
// finding of this target, left to the scanner's replacement).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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
  return 0;
}
