// Fuzz target for the op tree and the export passes (op_tree.h,
// pipeline.h): arbitrary bytes up to 64 KiB are parsed into an op tree and
// run through xla-sdy-stablehlo-export-pipeline (options from the input's
// length, so every corpus entry tries one combination) and, for inputs of odd
// length, through the pipeline's passes one at a time (each on its own parse). Never a crash; an
// error is located inside (or just past) the input and is never kInternal;
// when the export succeeds its output parses again with parseOpTree and with
// the older scanner (scanMlir) when that read the input, and every warning is located in the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/module/mlir_scan.h"
#include "shardbridge/module/op_tree.h"
#include "shardbridge/module/pipeline.h"

namespace {

using namespace shardbridge;
using namespace shardbridge::module;

bool located(const Error& e, size_t size) {
  return e.code != ErrorCode::kInternal && (!e.hasOffset() || e.offset <= size);
}

PassSpec spec(const char* text) {
  auto s = parsePassSpec(text);
  if (!s.has_value()) __builtin_trap();
  return *s;
}

// The export's output, or "" when it failed (with a located error).
std::string check(std::string_view text, const std::vector<PassSpec>& passes) {
  auto out = runPasses(text, passes);
  if (!out.has_value()) {
    if (!located(out.error(), text.size())) __builtin_trap();
    return {};
  }
  for (const ModuleWarning& w : out->warnings)
    if (w.offset > text.size()) __builtin_trap();
  if (!parseOpTree(out->text).has_value()) __builtin_trap();
  // The older scanner is stricter on top-level alias lines than the op tree
  // (an unbalanced `)` there: DISABLED_AliasLineWithAnUnbalancedBracketIsRefused
  // in tests/module/export_pipeline_property_test.cc), so it is asked to
  // re-read only what it read before the export.
  if (scanMlir(text).has_value() && !scanMlir(out->text).has_value()) __builtin_trap();
  return std::move(out->text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  auto tree = parseOpTree(text);
  if (!tree.has_value()) {
    if (!located(tree.error(), size)) __builtin_trap();
  } else {
    for (const OpNode& op : tree->ops)
      if (op.whole.end > size || op.whole.begin > op.whole.end || op.line.end > size) __builtin_trap();
  }

  static const char* kPipelines[] = {
      "xla-sdy-stablehlo-export-pipeline",
      "xla-sdy-stablehlo-export-pipeline{keep-hlo-sharding-constraints=true}",
      "xla-sdy-stablehlo-export-pipeline{enable-hlo-sharding-v3=true}",
      "xla-sdy-stablehlo-export-pipeline{enable-hlo-sharding-v3=true keep-hlo-sharding-constraints=true}",
  };
  size_t which = (size >> 1) % 4;
  std::string whole = check(text, {spec(kPipelines[which])});
  // The pipeline is its passes in order (the registry's list in
  // src/module/pipelines.cc, all six), each here on its own parse (one
  // runPasses a pass, so that no two share a rewrite: docs/module.md "Two
  // passes in one rewrite"): the same text.
  if (size & 1) {
    std::string steps(text);
    for (const char* p : {"xla-sdy-stablehlo-export-manual-reduction-collectives", "xla-sdy-export-ops",
                          "xla-sdy-stablehlo-round-trip-shard-map-export", "symbol-dce",
                          "xla-sdy-stablehlo-export-shardings",
                          "xla-sdy-stablehlo-round-trip-export-callback-custom-calls"}) {
      steps = check(steps, {spec(p)});
      if (steps.empty()) break;
    }
    if (which == 0 && steps != whole) __builtin_trap();
  }
  return 0;
}
