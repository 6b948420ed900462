#include "cli_util.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/base/json_writer.h"
#include "shardbridge/base/output.h"

namespace shardbridge::tools {
namespace {

bool gJsonOutput = false;
std::optional<size_t> gMaxInputBytes;

void writeStderr(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); }

}  // namespace

void addMaxInputBytesOption(CLI::App* cmd) {
  cmd->add_option_function<int64_t>(
         "--max-input-bytes", [](int64_t n) { gMaxInputBytes = static_cast<size_t>(n); },
         "Refuse inputs larger than N bytes (default: 64 MiB for a sharding or "
         "mesh, 1 GiB for a module or dump)")
      ->type_name("N")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            int64_t n = 0;
            if (!CLI::detail::lexical_cast(value, n) || n < 1) {
              return "--max-input-bytes must be a positive number of bytes, got '" + value + "'";
            }
            return "";
          },
          "", "positive"));
}

size_t inputLimit(InputKind kind) {
  if (gMaxInputBytes) return *gMaxInputBytes;
  return kind == InputKind::kModule ? kModuleInputLimit : kShardingInputLimit;
}

std::optional<InputText> readArg(const std::string& arg, InputKind kind, bool allowEmpty,
                                 bool isPath) {
  InputOptions options;
  options.limit = inputLimit(kind);
  options.allowEmpty = allowEmpty;
  Result<InputText> input = isPath ? readInputFile(arg, options) : readInput(arg, options);
  if (input) return std::move(*input);
  Error error = input.error();
  if (error.code == ErrorCode::kIo) {
    if (error.message.find(" is larger than ") != std::string::npos) {
      error.message += " (--max-input-bytes raises it)";
    }
    reportError(error, "", "shardbridge");
  } else {
    std::string name = arg == "-" ? "<stdin>"
                       : isPath   ? arg
                       : !arg.empty() && arg[0] == '@' ? arg.substr(1)
                                                       : "<input>";
    reportError(error, "", escapeBytes(name));
  }
  return std::nullopt;
}

void setJsonOutput(bool enabled) { gJsonOutput = enabled; }
bool jsonOutput() { return gJsonOutput; }

int reportError(const Error& error, std::string_view text, std::string_view name) {
  writeStderr(renderDiagnostic(error, text, name));
  if (gJsonOutput) {
    JsonWriter w;
    w.beginObject().key("error").beginObject();
    w.key("code").value(errorCodeName(error.code));
    w.key("message").value(escapeMessage(error.message));
    w.key("source").value(escapeBytes(name));
    if (error.hasOffset()) {
      LineCol at = lineColAt(text, error.offset);
      w.key("line").value(static_cast<int64_t>(at.line));
      w.key("column").value(static_cast<int64_t>(at.column));
    }
    if (error.hasNote()) {
      w.key("note").beginObject();
      w.key("message").value(escapeMessage(error.note));
      if (error.hasNoteOffset()) {
        LineCol at = lineColAt(text, error.noteOffset);
        w.key("line").value(static_cast<int64_t>(at.line));
        w.key("column").value(static_cast<int64_t>(at.column));
      }
      w.endObject();
    }
    w.endObject().endObject();
    // The error is already on stderr; a failing stdout adds nothing.
    (void)writeStdout(w.finish());
  }
  return 1;
}

int reportError(const Error& error, const InputText& input) {
  return reportError(error, input.text, input.name);
}

int printOut(std::string_view text) {
  Status written = writeStdout(text);
  if (written) return 0;
  writeStderr(renderDiagnostic(written.error(), "", "shardbridge"));
  return 1;
}

int writeOutputPath(const std::string& path, std::string_view text) {
  OutputFileOptions options;
  if (std::getenv("SHARDBRIDGE_TEST_HOLD_OUTPUT") != nullptr) {
    options.beforeRename = [](const std::string&) {
      for (;;) ::pause();  // until the test's signal ends the process
    };
  }
  Status written = writeOutputFile(path, text, options);
  if (written) return 0;
  writeStderr(renderDiagnostic(written.error(), "", "shardbridge"));
  return 1;
}

}  // namespace shardbridge::tools
