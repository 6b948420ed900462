#include "cli_util.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "shardbridge/base/diagnostic.h"

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

int reportError(const Error& error, std::string_view text, std::string_view name) {
  std::string rendered = renderDiagnostic(error, text, name);
  std::fwrite(rendered.data(), 1, rendered.size(), stderr);
  return 1;
}

int reportError(const Error& error, const InputText& input) {
  return reportError(error, input.text, input.name);
}

void writeStdout(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace shardbridge::tools
