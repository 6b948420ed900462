// Small helpers shared by the subcommands: reading an INPUT argument,
// writing stdout, and reporting errors the same way everywhere. The reading
// and writing themselves are the library's (base/input.h, base/output.h).
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "shardbridge/base/input.h"
#include "shardbridge/base/result.h"

namespace shardbridge::tools {

// What an input holds, which picks its default size limit (README "Limits").
enum class InputKind { kSharding, kModule };

// Adds `--max-input-bytes N` to `cmd`: the size limit of every input the
// command reads, instead of the default of its kind (64 MiB for a sharding
// or mesh, 1 GiB for a module or dump).
void addMaxInputBytesOption(CLI::App* cmd);

// The limit of an input of `kind`: --max-input-bytes when given, else the
// kind's default.
size_t inputLimit(InputKind kind);

// INPUT conventions of every command (base/input.h): `-` reads stdin,
// `@path` reads a file (binary-safe), anything else is the text itself.
// With `isPath`, the argument is a path (`-` still stdin), as convert's and
// list's FILE. On failure the error is reported on stderr (I/O errors as
// `shardbridge: error: cannot read 'p': REASON`, an empty input as
// `NAME: error: empty input`) and nullopt returned: exit code 1.
std::optional<InputText> readArg(const std::string& arg, InputKind kind,
                                 bool allowEmpty = false, bool isPath = false);

// Whether the running command was given --json. Then reportError also
// writes the error to stdout as a JSON document (docs/json.md):
//   {"error": {"code": "parse", "message": "...", "source": "<input>",
//              "line": 1, "column": 32}}
// so a script reading stdout learns why no result came. Usage errors (exit 2)
// stay text on stderr only.
void setJsonOutput(bool enabled);
bool jsonOutput();

// Prints the rendered diagnostic of `error` against `input` to stderr (and,
// under --json, the JSON error document to stdout) and returns 1, the exit
// code of an input or output error.
int reportError(const Error& error, const InputText& input);
int reportError(const Error& error, std::string_view text, std::string_view name);

// Writes `text` to stdout as bytes (binary-safe; no newline added), checked:
// returns 0, or 1 after `shardbridge: error: cannot write <stdout>: REASON`
// on stderr (a full disk, /dev/full, EIO). The command's exit code.
int printOut(std::string_view text);

// Writes `text` to the output file `path` (`-o`, --svg, --html) with the
// semantics of base/output.h; returns 0 or 1 after reporting the error.
// The environment variable SHARDBRIDGE_TEST_HOLD_OUTPUT, when set, makes the
// writer wait for a signal once the temporary file is complete, so that
// tests/cli/io_cli.sh can deliver SIGTERM at that moment. Nothing else reads it.
int writeOutputPath(const std::string& path, std::string_view text);

}  // namespace shardbridge::tools
