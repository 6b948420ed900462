#include "shardbridge/base/diagnostic.h"

#include <algorithm>

namespace shardbridge {

LineCol lineColAt(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  LineCol lc;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lineStart = i + 1;
    }
  }
  lc.column = offset - lineStart + 1;
  return lc;
}

std::string renderDiagnostic(const Error& error, std::string_view text,
                             std::string_view name) {
  std::string out(name);
  if (!error.hasOffset()) {
    out += ": error: ";
    out += error.message;
    out += '\n';
    return out;
  }
  size_t offset = std::min(error.offset, text.size());
  LineCol lc = lineColAt(text, offset);
  out += ':' + std::to_string(lc.line) + ':' + std::to_string(lc.column) +
         ": error: " + error.message + '\n';

  size_t lineStart = offset - (lc.column - 1);
  size_t lineEnd = text.find('\n', lineStart);
  if (lineEnd == std::string_view::npos) lineEnd = text.size();
  // Very long lines (a 1 MB one-line module) are cut to a window around the
  // caret so the diagnostic stays readable.
  constexpr size_t kWindow = 120;
  size_t from = lineStart;
  size_t to = lineEnd;
  if (to - from > 2 * kWindow) {
    from = offset > lineStart + kWindow ? offset - kWindow : lineStart;
    to = std::min(lineEnd, offset + kWindow);
  }
  std::string caret;
  for (size_t i = from; i < to; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    char shown = (c == '\t' || c >= 0x20) && c != 0x7f ? text[i] : '?';
    if (c == '\r') shown = ' ';
    out += shown;
    if (i < offset) caret += (c == '\t') ? '\t' : ' ';
  }
  out += '\n';
  out += caret;
  out += "^\n";
  return out;
}

}  // namespace shardbridge
