// Fuzz target for the HLO module dump scanner and the listing built on it:
// any bytes in; never an abort. When the scan succeeds, every reported
// sharding must lie inside the input, start with `{`, re-parse on its own to
// an equal sharding, and carry the line/column of its offset; listing the
// same bytes must succeed with one row per sharding (failing imports are
// rows with an error, not failures).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/dump/listing.h"
#include "shardbridge/hlo/dump.h"
#include "shardbridge/hlo/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  using namespace shardbridge;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto dump = hlo::scanHloDump(text);
  if (!dump.has_value()) {
    if (dump.error().hasOffset() && dump.error().offset > text.size()) __builtin_trap();
    return 0;
  }
  for (const hlo::DumpSharding& s : dump->shardings) {
    if (s.offset >= text.size() || s.length > text.size() - s.offset) __builtin_trap();
    if (text[s.offset] != '{') __builtin_trap();
    auto again = hlo::parseSharding(text.substr(s.offset, s.length));
    if (!again.has_value() || !(*again == s.sharding)) __builtin_trap();
    LineCol lc = lineColAt(text, s.offset);
    if (lc.line != s.line || lc.column != s.column) __builtin_trap();
  }
  if (dump::detectInputFormat(text) == dump::InputFormat::kHloModule) {
    sdy::Context ctx;
    auto listing = dump::listShardings(ctx, text);
    if (!listing.has_value()) __builtin_trap();
    if (listing->shardings.size() != dump->shardings.size()) __builtin_trap();
    (void)dump::printListingText(*listing);
    (void)dump::printListingJson(*listing, "fuzz");
  }
  return 0;
}
