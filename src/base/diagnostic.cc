#include "shardbridge/base/diagnostic.h"

#include <algorithm>

#include "shardbridge/base/input.h"

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

LineCol LineIndex::at(size_t offset) {
  if (starts_.empty()) {
    starts_.push_back(0);
    for (size_t i = text_.find('\n'); i != std::string_view::npos; i = text_.find('\n', i + 1))
      starts_.push_back(i + 1);
  }
  offset = std::min(offset, text_.size());
  // The lines that start at or before `offset`: one more than the newlines before it.
  auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
  LineCol lc;
  lc.line = static_cast<size_t>(after - starts_.begin());
  lc.column = offset - *(after - 1) + 1;
  return lc;
}

std::string escapeMessage(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  size_t from = 0;
  while (true) {
    size_t eol = message.find('\n', from);
    out += escapeBytes(message.substr(from, eol == std::string_view::npos ? eol : eol - from));
    if (eol == std::string_view::npos) return out;
    out += '\n';
    from = eol + 1;
  }
}

namespace {

// "<name>:L:C: " for `offset` in `text`, or "<name>: " for kNoOffset.
std::string header(std::string_view name, std::string_view text, size_t offset) {
  std::string out(name);
  if (offset != Error::kNoOffset) {
    LineCol lc = lineColAt(text, std::min(offset, text.size()));
    out += ':' + std::to_string(lc.line) + ':' + std::to_string(lc.column);
  }
  out += ": ";
  return out;
}

// The error's line (and source line with caret when it has an offset).
std::string renderError(const Error& error, std::string_view text, std::string_view name) {
  // Messages may quote input bytes; they reach a terminal escaped.
  const std::string message = escapeMessage(error.message);
  if (!error.hasOffset()) return header(name, text, Error::kNoOffset) + "error: " + message + '\n';
  size_t offset = std::min(error.offset, text.size());
  LineCol lc = lineColAt(text, offset);
  std::string out = header(name, text, offset) + "error: " + message + '\n';

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
  // Back up to the start of a UTF-8 sequence, so the window cuts none.
  while (from > lineStart && (static_cast<unsigned char>(text[from]) & 0xc0) == 0x80) --from;
  std::string caret;
  for (size_t i = from; i < to;) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      // A valid UTF-8 character is shown as it is and takes one column;
      // any other byte is a '?', so raw bytes never reach the terminal.
      size_t n = validUtf8Length(text.substr(i, std::min<size_t>(4, text.size() - i)));
      out += n ? text.substr(i, n) : std::string_view("?");
      if (i < offset) caret += ' ';
      i += n ? n : 1;
      continue;
    }
    char shown = (c == '\t' || c >= 0x20) && c != 0x7f ? text[i] : '?';
    if (c == '\r') shown = ' ';
    out += shown;
    if (i < offset) caret += (c == '\t') ? '\t' : ' ';
    ++i;
  }
  out += '\n';
  out += caret;
  out += "^\n";
  return out;
}

}  // namespace

std::string renderDiagnostic(const Error& error, std::string_view text,
                             std::string_view name) {
  std::string out = renderError(error, text, name);
  if (error.hasNote()) {
    out += header(name, text, error.hasNoteOffset() ? error.noteOffset : Error::kNoOffset);
    out += "note: ";
    out += escapeMessage(error.note);
    out += '\n';
  }
  return out;
}

}  // namespace shardbridge
