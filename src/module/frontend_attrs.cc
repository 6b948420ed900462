#include "module/frontend_attrs.h"

#include <algorithm>

#include "module/scanner.h"
#include "module/text_lex.h"

namespace shardbridge::module {

using module_lex::isIdentChar;
using module_lex::isIdentStart;
using module_lex::parseError;
using module_lex::skipBlanks;

Result<AttrDictNode> parseDictAt(std::string_view t, size_t p) {
  AttrDictNode d;
  if (p >= t.size() || t[p] != '{') return parseError("expected '{', got " + module_lex::describe(t, p), p);
  d.whole.begin = p++;
  while (true) {
    p = skipBlanks(t, p);
    if (p < t.size() && t[p] == '}') break;
    AttrEntry e;
    e.whole.begin = e.key.begin = p;
    if (p < t.size() && t[p] == '"') {
      SB_ASSIGN_OR_RETURN(p, module_lex::skipString(t, p));
      e.key.end = p;
      e.name = t.substr(e.key.begin + 1, e.key.size() - 2);
    } else if (p < t.size() && isIdentStart(t[p])) {
      while (p < t.size() && isIdentChar(t[p])) ++p;
      e.key.end = p;
      e.name = e.key.in(t);
    } else {
      return parseError("expected attribute name, got " + module_lex::describe(t, p), p);
    }
    e.whole.end = p;
    p = skipBlanks(t, p);
    if (p < t.size() && t[p] == '=') {
      p = skipBlanks(t, p + 1);
      e.value.begin = p;
      SB_ASSIGN_OR_RETURN(p, module_lex::skipAttrValue(t, p));
      e.value.end = e.whole.end = p;
      p = skipBlanks(t, p);
    }
    d.entries.push_back(e);
    if (p < t.size() && t[p] == ',') {
      ++p;
      continue;
    }
    if (p >= t.size() || t[p] != '}')
      return parseError("expected ',' or '}' in attribute dictionary, got " + module_lex::describe(t, p), p);
    break;
  }
  d.whole.end = p + 1;
  return d;
}

std::string sortedDict(std::vector<std::pair<std::string, std::string>> entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string s = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) s += ", ";
    s += printAttrKey(entries[i].first);
    if (!entries[i].second.empty()) s += " = " + entries[i].second;
  }
  return s + "}";
}

std::string frontendDict(std::vector<std::pair<std::string, std::string>> strings) {
  for (auto& [k, v] : strings) v = module_detail::encodeStringLiteral(v);
  return sortedDict(std::move(strings));
}

Status setFrontendStrings(std::string_view t, const AttrDictNode& dict, DictEditor& ed,
                          const std::vector<std::pair<std::string, std::string>>& strings) {
  const AttrEntry* existing = dict.find(kFrontendAttrs);
  if (!existing || existing->value.empty() || t[existing->value.begin] != '{') {
    if (existing && !existing->value.empty())
      return parseError("expected a dictionary for mhlo.frontend_attributes", existing->value.begin);
    ed.set(kFrontendAttrs, frontendDict(strings));
    return okStatus();
  }
  SB_ASSIGN_OR_RETURN(AttrDictNode inner, parseDictAt(t, existing->value.begin));
  DictEditor in(t, inner);
  for (const auto& [k, v] : strings) in.set(k, module_detail::encodeStringLiteral(v));
  std::string rendered = in.render();
  ed.set(kFrontendAttrs, rendered.empty() ? "{}" : rendered);
  return okStatus();
}

}  // namespace shardbridge::module
