// Fuzz target for the HLO sharding text parser: any bytes in; when they parse,
// the printed forms (with and without metadata) must parse back to an equal
// sharding that prints identically.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shardbridge/hlo/text.h"

namespace {

using shardbridge::hlo::HloSharding;

// Upstream prints scheduling_name without escaping, so a name holding '"' or
// '\' yields metadata text that no parser (XLA's included) reads back; the
// metadata round trip is only required when every name is free of those.
bool schedulingNamesPrintable(const HloSharding& s) {
  auto ok = [](const HloSharding& leaf) {
    for (const auto& md : leaf.metadata()) {
      if (md.schedulingName.find_first_of("\"\\") != std::string::npos) return false;
    }
    return true;
  };
  if (!s.isTuple()) return ok(s);
  for (const auto& e : s.tupleElements()) {
    if (!ok(e)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  using shardbridge::hlo::parseSharding;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parseSharding(text);
  if (!parsed.has_value()) return 0;
  // Upstream's parser re-normalises a few shapes its own Subgroup leaves
  // behind (`{devices=[1,3]<=[3] last_tile_dims={maximal, unreduced}}` parses
  // to `{devices=[3]<=[3] last_tile_dims={unreduced}}`, which parses to
  // `{unreduced}`), so the identity is required from the first re-parse on.
  const bool metadataPrintable = schedulingNamesPrintable(*parsed);
  auto canonical = parseSharding(parsed->toString(metadataPrintable));
  if (!canonical.has_value()) __builtin_trap();
  for (bool withMetadata : {false, true}) {
    if (withMetadata && !metadataPrintable) continue;
    const std::string printed = canonical->toString(withMetadata);
    auto again = parseSharding(printed);
    if (!again.has_value()) __builtin_trap();
    if (!(*again == *canonical)) __builtin_trap();
    if (again->toString(withMetadata) != printed) __builtin_trap();
  }
  return 0;
}
