// Fuzz target for the sdy text syntax (text.h): parseAttribute on arbitrary
// bytes must return a value or an error; a value must print to text that
// parses back to the same uniqued attribute, in the plain and the escaped
// spelling.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shardbridge/sdy/text.h"

namespace {

using namespace shardbridge::sdy;

bool sameAttr(const AnyAttr& a, const AnyAttr& b) { return a == b; }

void roundTrip(Context& ctx, const AnyAttr& attr, bool escape) {
  PrintOptions options;
  options.escapeQuotes = escape;
  std::string text = printAttribute(attr, options);
  auto again = parseAttribute(ctx, text);
  if (!again.has_value() || !sameAttr(*again, attr)) __builtin_trap();
  // Canonical text is a fixed point of print(parse(.)).
  if (printAttribute(*again, options) != text) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Context ctx;
  SourceMap locations;
  auto parsed = parseAttribute(ctx, text, &locations);
  if (!parsed.has_value()) {
    // Every error is located inside (or just past) the input, and so is its
    // note; a parse error's message is never empty.
    const shardbridge::Error& e = parsed.error();
    if (e.offset > text.size() || e.message.empty()) __builtin_trap();
    if (e.hasNote() && e.noteOffset != shardbridge::Error::kNoOffset && e.noteOffset > text.size()) {
      __builtin_trap();
    }
    return 0;
  }
  roundTrip(ctx, *parsed, /*escape=*/false);
  roundTrip(ctx, *parsed, /*escape=*/true);
  return 0;
}
