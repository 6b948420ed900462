// functionLayout (part_layout.h): the scan that finds a module's functions
// for the parts runner.
#include "module/part_layout.h"

#include "module/text_lex.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
std::string_view definedSymbol(std::string_view t, size_t line) {
  size_t p = line + kFuncLine.size();
  for (std::string_view v : {"private ", "public ", "nested "})
    if (t.substr(p, v.size()) == v) p += v.size();
  if (p >= t.size() || t[p] != '@') return {};
  return module_lex::symbolAt(t, p);
}

std::optional<size_t> partFunctionsBegin(std::string_view out, std::string_view suffix) {
  if (!out.ends_with(suffix)) return std::nullopt;
  size_t middleEnd = out.size() - suffix.size();
  size_t first = out.find(kFuncLine);
  size_t begin = first == std::string_view::npos || first + 1 > middleEnd ? middleEnd : first + 1;
  if (begin == 0) return std::nullopt;
  return begin;
}

std::optional<FunctionLayout> functionLayout(std::string_view t) {
  if (t.size() > kMaxTreeText) return std::nullopt;
  size_t first = t.find(kFuncLine);
  if (first == std::string_view::npos) return std::nullopt;
  FunctionLayout l;
  l.begin = first + 1;
  // The module's closing `}`: the last line that starts with one.
  size_t close = t.rfind("\n}");
  if (close == std::string_view::npos || close + 1 < l.begin) return std::nullopt;
  l.end = close + 1;
  std::string_view prefix = t.substr(0, l.begin), region = t.substr(l.begin, l.end - l.begin), suffix = t.substr(l.end);
  // Outside the functions: no function, and after the `}` only `#` alias
  // lines (`#loc1 = loc(...)`) and blank lines.
  if (prefix.find("func.func") != std::string_view::npos || suffix.find("func.func") != std::string_view::npos)
    return std::nullopt;
  for (size_t p = suffix.find('\n'); p != std::string_view::npos && p + 1 < suffix.size(); p = suffix.find('\n', p + 1))
    if (char c = suffix[p + 1]; c != '#' && c != '\n' && c != '\r' && c != ' ') return std::nullopt;
  // The function lines; between them lines indented deeper, blank lines and
  // the functions' closing `  }`.
  l.funcs.push_back(l.begin);
  for (size_t p = region.find('\n'); p != std::string_view::npos && p + 1 < region.size(); p = region.find('\n', p + 1)) {
    char c = region[p + 1];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return std::nullopt;
    if (c != ' ' || p + 3 >= region.size() || region[p + 2] != ' ' || region[p + 3] == ' ') continue;
    if (region.compare(p, kFuncLine.size(), kFuncLine) == 0) {
      l.funcs.push_back(l.begin + p + 1);
      continue;
    }
    std::string_view rest = region.substr(p + 3);
    if (!(rest.starts_with("}\n") || rest.starts_with("}\r") || rest == "}" || rest[0] == '\n' || rest[0] == '\r'))
      return std::nullopt;
  }
  l.index.reserve(l.funcs.size() * 2);
  for (size_t i = 0; i < l.funcs.size(); ++i) {
    std::string_view name = definedSymbol(t, l.funcs[i] - 1);
    if (name.empty() || !l.index.emplace(name, i).second) return std::nullopt;
  }
  // No reference to a function from outside the functions.
  for (std::string_view s : {prefix, suffix})
    for (size_t p = s.find('@'); p != std::string_view::npos; p = s.find('@', p + 1))
      if (l.index.count(module_lex::symbolAt(s, p))) return std::nullopt;
  return l;
}

}  // namespace shardbridge::module
