// typeAliasesOf (module/pass.h): the file's `!name = type` definitions for
// the conversions of one module (exportModule / importModule), which are
// given the module's text without the top-level lines that define them.
#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {

std::vector<std::pair<std::string, std::string>> typeAliasesOf(const OpTree& tree) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const TextSpan& span : tree.aliases)
    if (auto alias = module_lex::typeAliasLine(span.in(tree.text)))  // not `#loc = ...`, attribute aliases
      out.emplace_back(std::string(alias->first), std::string(alias->second));
  return out;
}

}  // namespace shardbridge::module
