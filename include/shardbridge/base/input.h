// The one input reader of shardbridge: every command argument, `--mesh`
// value, FILE and stdin goes through here, so that every input gets the
// same rules (README "Limits"):
//
//   readInput("{replicated}", {})        -> "{replicated}" named "<input>"
//   readInput("@s.pb", {})               -> the bytes of s.pb, named "s.pb"
//   readInput("-", {})                   -> all of stdin, named "<stdin>"
//   readInput("", {})                    -> error "empty input"
//   readInput("@/etc", {})               -> error "cannot read '/etc': Is a directory"
//   readInputFile("/dev/zero", {.limit = 64}) -> error after reading 65 bytes
//
// Reads are bounded: at most limit + 1 bytes are ever read, so an endless
// or huge input fails fast in bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shardbridge/base/result.h"

namespace shardbridge {

// The default limits, by what the input holds.
inline constexpr size_t kShardingInputLimit = size_t{64} << 20;  // one sharding or mesh: 64 MiB
inline constexpr size_t kModuleInputLimit = size_t{1} << 30;     // a module or dump: 1 GiB

struct InputOptions {
  // Inputs of more bytes are refused (kIo, "... is larger than N bytes").
  size_t limit = kShardingInputLimit;
  // Zero bytes, or only blanks (space, tab, CR, LF), are an error "empty
  // input" unless this is set (`hlo --from pb`: zero bytes are XLA's
  // {replicated}). No sharding, mesh or module is blank.
  bool allowEmpty = false;
};

// An input resolved to its bytes and the name diagnostics show for it.
struct InputText {
  std::string text;
  std::string name;  // "<input>", "<stdin>" or the file path
};

// An argument as every command reads one: `-` is stdin, `@path` the file at
// path, anything else the text itself. Errors (code kIo) carry the OS
// reason: "cannot open 'p': No such file or directory", "cannot read 'p':
// Is a directory", "cannot read '<stdin>': Bad file descriptor"; a too large
// input gives "'p' is larger than N bytes"; an empty one (kParse) "empty
// input".
Result<InputText> readInput(std::string_view arg, const InputOptions& options);

// A path as `convert` and `list` take one: `-` is stdin, anything else a
// file path (no `@`). Same errors as readInput.
Result<InputText> readInputFile(std::string_view path, const InputOptions& options);

// Reads everything from `fd` (not closed), at most options.limit bytes;
// `name` is used in messages. Does not apply the empty-input rule.
Result<std::string> readAllFrom(int fd, std::string_view name, size_t limit);

// Whether `text` holds only blanks (space, tab, CR, LF) or nothing.
bool isBlank(std::string_view text);

// Text checks for inputs that must be text (MLIR, HLO text, pbtxt, JSON):
// returns the offset of the first NUL, other control byte than tab / CR /
// LF / FF / VT, or byte that is not part of valid UTF-8, with the error
// "text contains a NUL byte" / "text contains the control byte \x01" /
// "text is not valid UTF-8 (byte \xff)" (kParse, located). OK otherwise.
Status checkText(std::string_view text);

// The length of the valid UTF-8 sequence `text` starts with (1 for an
// ASCII byte), or 0 when it starts with a byte that begins none (overlong
// forms, surrogates and code points past U+10FFFF are not valid).
size_t validUtf8Length(std::string_view text);

// The offset of the first byte of `text` that is not part of valid UTF-8,
// or std::string_view::npos when all of it is.
size_t firstInvalidUtf8(std::string_view text);

// `bytes` with every byte that is not printable ASCII or part of valid
// UTF-8 written as \xNN, so raw input bytes never reach a terminal.
std::string escapeBytes(std::string_view bytes);

// How a diagnostic names an input or output: a pseudo-name such as
// "<stdin>" as it is, a path in single quotes with escapeBytes applied.
std::string quotedName(std::string_view name);

// Standard streams that were closed when the process started. Call once at
// startup, before opening anything: a closed fd 0, 1 or 2 is pointed at
// /dev/null so that no file opened later takes its number, and remembered
// as closed, so reading stdin or writing stdout then fails with EBADF's
// reason instead of silently reading or writing nothing.
void guardStandardStreams();
// Whether fd (0, 1 or 2) was closed at startup (see guardStandardStreams).
bool standardStreamClosed(int fd);

}  // namespace shardbridge
