// Rendering an Error against the text it is about, MLIR style:
//
//   <input>:1:32: error: unknown axis name: "c"
//   #sdy.sharding<@mesh, [{}, {"c"}]>
//                              ^
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge {

// A 1-based line and column (columns count bytes) for a byte offset.
struct LineCol {
  size_t line = 1;
  size_t column = 1;
};

// Returns the line and column of byte `offset` in `text`. An offset past the
// end maps to the position just after the last byte.
LineCol lineColAt(std::string_view text, size_t offset);

// lineColAt for many offsets of one text (a module's warnings): the line
// starts are found once, on the first call, and each offset then costs a
// binary search instead of a scan from the start (which made 8,000
// warnings take seconds). Answers exactly as lineColAt; `text` must
// outlive it.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : text_(text) {}
  LineCol at(size_t offset);

 private:
  std::string_view text_;
  std::vector<size_t> starts_;  // the first byte of each line; empty until the first call
};

// Returns `error` rendered for people. With an offset:
// "<name>:LINE:COL: error: MESSAGE\n<source line>\n<spaces>^\n"; tabs in the
// source line are kept in the caret line so the caret lines up; control
// bytes (NUL included) print as '?' so the output stays one line. Without an
// offset: "<name>: error: MESSAGE\n". An error with a note gets one more
// line, "<name>:LINE:COL: note: NOTE\n" (or "<name>: note: NOTE\n" when the
// note has no offset), with no source line of its own. Message and note are
// written with escapeMessage.
std::string renderDiagnostic(const Error& error, std::string_view text,
                             std::string_view name = "<input>");

// `message` as escapeBytes writes it, except that a newline stays a newline:
// XLA's messages continue on a new line ("...\n\tNote: While validating ...").
std::string escapeMessage(std::string_view message);

}  // namespace shardbridge
