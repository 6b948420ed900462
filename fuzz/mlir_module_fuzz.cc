// Fuzz target for the MLIR module scanner and conversions (mlir_scan.h,
// convert_module.h): arbitrary bytes must give a result or an error located
// inside (or just past) the input, never a crash; every reported sharding
// range lies inside the input; a module that exports without warnings
// exports again to itself (nothing sdy is left to convert).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/mlir_scan.h"

namespace {

bool located(const shardbridge::Error& e, size_t size) {
  return e.code == shardbridge::ErrorCode::kInternal ? false
                                                      : (!e.hasOffset() || e.offset <= size);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace shardbridge::module;

  auto scan = scanMlir(text);
  if (!scan.has_value()) {
    if (!scan.error().hasOffset() || scan.error().offset > size) __builtin_trap();
  } else {
    for (const MlirShardingSite& s : scan->shardings)
      if (s.offset + s.length > size || s.line < 1 || s.column < 1) __builtin_trap();
  }

  auto exported = exportModule(text);
  if (!exported.has_value()) {
    if (!located(exported.error(), size)) __builtin_trap();
  } else if (exported->warnings.empty()) {
    auto again = exportModule(exported->text);
    if (!again.has_value() || again->text != exported->text) __builtin_trap();
  }

  ImportModuleOptions options;
  options.anyOrder.enabled = (size & 1) != 0;
  auto imported = importModule(text, options);
  if (!imported.has_value() && !located(imported.error(), size)) __builtin_trap();
  return 0;
}
