// Small helpers shared by the subcommands: reading an INPUT argument and
// reporting errors the same way everywhere.
#pragma once

#include <string>
#include <string_view>

#include "shardbridge/base/result.h"

namespace shardbridge::tools {

// An input argument resolved to its text and a display name for diagnostics.
struct InputText {
  std::string text;
  std::string name;  // "<input>", "<stdin>" or the file path
};

// INPUT conventions of every command: `-` reads stdin, `@path` reads a file
// (binary-safe), anything else is the text itself.
Result<InputText> readInput(const std::string& arg);

// Reads a whole file; an Error of code kIo when it cannot.
Result<std::string> readFile(const std::string& path);

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
// code of an input error.
int reportError(const Error& error, const InputText& input);

// Writes `text` to stdout as bytes (binary-safe; no newline added).
void writeStdout(std::string_view text);
int reportError(const Error& error, std::string_view text, std::string_view name);

}  // namespace shardbridge::tools
