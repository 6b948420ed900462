// typeAliasesOf (module/pass.h): the file's `!name = type` definitions for
// the conversions of one module (exportModule / importModule), which are
// given the module's text without the top-level lines that define them.
#include "module/pass.h"

namespace shardbridge::module {

std::vector<std::pair<std::string, std::string>> typeAliasesOf(const OpTree& tree) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const TextSpan& span : tree.aliases) {
    std::string_view line = span.in(tree.text);
    if (!line.starts_with('!')) continue;  // `#loc = ...` and attribute aliases
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = line.substr(0, eq), def = line.substr(eq + 1);
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!name.empty() && blank(name.back())) name.remove_suffix(1);
    while (!def.empty() && blank(def.front())) def.remove_prefix(1);
    while (!def.empty() && blank(def.back())) def.remove_suffix(1);
    if (name.size() > 1 && !def.empty()) out.emplace_back(std::string(name), std::string(def));
  }
  return out;
}

}  // namespace shardbridge::module
