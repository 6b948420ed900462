#include "cli_util.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/base/json_writer.h"

namespace shardbridge::tools {

Result<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(ErrorCode::kIo, "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return makeError(ErrorCode::kIo, "cannot read '" + path + "'");
  return ss.str();
}

Result<InputText> readInput(const std::string& arg) {
  if (arg == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return InputText{ss.str(), "<stdin>"};
  }
  if (!arg.empty() && arg[0] == '@') {
    std::string path = arg.substr(1);
    SB_ASSIGN_OR_RETURN(std::string text, readFile(path));
    return InputText{std::move(text), path};
  }
  return InputText{arg, "<input>"};
}

namespace {
bool gJsonOutput = false;
}  // namespace

void setJsonOutput(bool enabled) { gJsonOutput = enabled; }
bool jsonOutput() { return gJsonOutput; }

int reportError(const Error& error, std::string_view text, std::string_view name) {
  std::string rendered = renderDiagnostic(error, text, name);
  std::fwrite(rendered.data(), 1, rendered.size(), stderr);
  if (gJsonOutput) {
    JsonWriter w;
    w.beginObject().key("error").beginObject();
    w.key("code").value(errorCodeName(error.code));
    w.key("message").value(error.message);
    w.key("source").value(name);
    if (error.hasOffset()) {
      LineCol at = lineColAt(text, error.offset);
      w.key("line").value(static_cast<int64_t>(at.line));
      w.key("column").value(static_cast<int64_t>(at.column));
    }
    w.endObject().endObject();
    writeStdout(w.finish());
  }
  return 1;
}

int reportError(const Error& error, const InputText& input) {
  return reportError(error, input.text, input.name);
}

void writeStdout(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace shardbridge::tools
