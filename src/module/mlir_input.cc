#include "shardbridge/module/mlir_input.h"

#include <cctype>
#include <string>

#include "shardbridge/base/input.h"

namespace shardbridge::module {
namespace {

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '.';
}

// The byte offset of the first token: past blanks and `//` line comments.
size_t firstToken(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end + 1;
    } else {
      break;
    }
  }
  return i;
}

}  // namespace

Status checkMlirModule(std::string_view text) {
  SB_TRY(checkText(text));
  size_t at = firstToken(text);
  if (at == text.size()) return makeError(ErrorCode::kParse, "empty input");
  char c = text[at];
  // `#alias = ...` and `!alias = ...` name their alias at once; `# text` is
  // a pbtxt or shell comment.
  const bool alias = (c == '#' || c == '!') && at + 1 < text.size() &&
                     (std::isalpha(static_cast<unsigned char>(text[at + 1])) || text[at + 1] == '_');
  if (alias || c == '"' || c == '%' || text.substr(at, 3) == "{-#") return okStatus();
  size_t end = at;
  while (end < text.size() && isIdentChar(text[end])) ++end;
  std::string_view word = text.substr(at, end - at);
  if (word == "module" || (!word.empty() && word.find('.') != std::string_view::npos &&
                           word.front() != '.' && !(word.front() >= '0' && word.front() <= '9'))) {
    return okStatus();
  }
  std::string shown = word.empty() ? std::string(1, c) : std::string(word.substr(0, 40));
  std::string hint;
  if (word == "HloModule") {
    hint = " (an HLO text dump: `shardbridge list` reads those)";
  } else if (c == '{' || (end < text.size() && text[end] == ':')) {
    hint = " (one sharding or OpSharding: `shardbridge hlo` reads those)";
  }
  return makeError(ErrorCode::kParse,
                   "not an MLIR module: it starts with '" + escapeBytes(shown) +
                       "', where 'module', an op such as 'func.func' or an alias definition "
                       "was expected" +
                       hint,
                   at);
}

}  // namespace shardbridge::module
