#include "module/manual_computation.h"

#include <set>

#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

using module_lex::skipBalanced;
using module_lex::skipBlanks;

// Where the op's own syntax ends: its region (the body holds other ops'
// keywords).
size_t headerEnd(const OpNode& op) { return op.regions.empty() ? op.whole.end : op.regions[0].whole.begin; }

// Past `key` and its `=`, at the value; errors name the key.
Result<size_t> valueOf(std::string_view t, const OpNode& op, std::string_view key) {
  size_t k = t.find(key, op.nameSpan.end);
  if (k == std::string_view::npos || k >= headerEnd(op))
    return makeError(ErrorCode::kParse, "expected '" + std::string(key) + "' in sdy.manual_computation",
                     op.nameSpan.begin);
  size_t p = skipBlanks(t, k + key.size());
  if (p >= t.size() || t[p] != '=') return makeError(ErrorCode::kParse, "expected '='", p);
  return skipBlanks(t, p + 1);
}

Result<std::vector<TextSpan>> shardingList(std::string_view t, const OpNode& op, std::string_view key) {
  SB_ASSIGN_OR_RETURN(size_t p, valueOf(t, op, key));
  if (p >= t.size() || t[p] != '[') return makeError(ErrorCode::kParse, "expected '['", p);
  p = skipBlanks(t, p + 1);
  std::vector<TextSpan> out;
  while (p < t.size() && t[p] == '<') {
    SB_ASSIGN_OR_RETURN(size_t e, skipBalanced(t, p));
    out.push_back({p, e});
    p = skipBlanks(t, e);
    if (p < t.size() && t[p] == ',') p = skipBlanks(t, p + 1);
  }
  if (p >= t.size() || t[p] != ']')
    return makeError(ErrorCode::kParse, "expected ']' to close " + std::string(key), p);
  return out;
}

}  // namespace

Result<AxisList> readAxisList(std::string_view t, size_t open) {
  if (open >= t.size() || t[open] != '{') return makeError(ErrorCode::kParse, "expected '{'", open);
  AxisList list;
  size_t p = skipBlanks(t, open + 1);
  if (p < t.size() && t[p] == '}') {
    list.end = p + 1;
    return list;
  }
  while (true) {
    if (p >= t.size() || t[p] != '"') return makeError(ErrorCode::kParse, "expected a quoted axis name", p);
    SB_ASSIGN_OR_RETURN(size_t end, module_lex::skipString(t, p));
    list.axes.emplace_back(t.substr(p + 1, end - p - 2));
    p = skipBlanks(t, end);
    if (p < t.size() && t[p] == ',') {
      p = skipBlanks(t, p + 1);
      continue;
    }
    if (p < t.size() && t[p] == '}') break;
    return makeError(ErrorCode::kParse, "expected ',' or '}' in the manual axes", p);
  }
  list.end = p + 1;
  return list;
}

Result<ManualComputationParts> readManualComputation(std::string_view t, const OpNode& op) {
  ManualComputationParts parts;
  SB_ASSIGN_OR_RETURN(parts.in, shardingList(t, op, "in_shardings"));
  SB_ASSIGN_OR_RETURN(parts.out, shardingList(t, op, "out_shardings"));
  SB_ASSIGN_OR_RETURN(size_t p, valueOf(t, op, "manual_axes"));
  if (p >= t.size() || t[p] != '{') return makeError(ErrorCode::kParse, "expected '{' after manual_axes", p);
  SB_ASSIGN_OR_RETURN(AxisList list, readAxisList(t, p));
  parts.axesSpan = {p, list.end};
  parts.axes = std::move(list.axes);
  return parts;
}

std::string manualAxesAttr(const std::vector<std::string>& axes) {
  std::string s = "#sdy<manual_axes{";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", \"" : "\"") + axes[i] + "\"";
  return s + "}>";
}

std::string_view shardingMesh(std::string_view sharding) {
  size_t p = sharding.find('<');
  if (p == std::string_view::npos) return {};
  p = module_lex::skipBlanks(sharding, p + 1);
  size_t e = p;
  if (sharding.substr(p).starts_with("mesh<")) {
    auto end = module_lex::skipBalanced(sharding, p + 4);
    if (!end) return {};
    e = *end;
  } else if (p < sharding.size() && sharding[p] == '@') {
    e = p + 1;
    if (e < sharding.size() && sharding[e] == '"') {
      auto end = module_lex::skipString(sharding, e);
      if (!end) return {};
      e = *end;
    } else {
      while (e < sharding.size() && sharding[e] != ',' && sharding[e] != '>' &&
             !module_lex::isBlank(sharding[e]))
        ++e;
    }
  }
  return sharding.substr(p, e - p);
}

std::string BodyNames::next(int module) {
  Module& m = modules_[module];
  if (!m.filled) {
    m.filled = true;
    if (const TreeVec<int>* body = tree_.bodyOps(module))
      for (int i : *body)
        if (tree_.ops[i].symbolName.starts_with(base_)) m.taken.insert(std::string(tree_.ops[i].symbolName));
  }
  if (!m.plainGiven && !m.taken.count(base_)) {
    m.plainGiven = true;
    return base_;
  }
  std::string name;
  do name = base_ + "_" + std::to_string(m.counter++);
  while (m.taken.count(name));
  return name;
}

Status checkManualResultNames(std::string_view t, const OpTree& tree) {
  auto resultName = [&](const OpNode& op) {
    return op.name == "sdy.manual_computation" && !op.resultDefs.empty() ? op.resultDefs[0].name.in(t)
                                                                          : std::string_view();
  };
  std::set<std::pair<int, std::string_view>> seen;  // (parent op, name)
  for (const OpNode& op : tree.ops) {
    std::string_view name = resultName(op);
    if (name.empty()) continue;
    bool again = !seen.insert({op.parent, name}).second;
    for (int a = op.parent; a >= 0 && !again; a = tree.ops[static_cast<size_t>(a)].parent)
      again = resultName(tree.ops[static_cast<size_t>(a)]) == name;
    if (again)
      return makeError(ErrorCode::kParse, "redefinition of SSA value '" + std::string(name) + "'",
                       op.resultDefs[0].name.begin);
  }
  return okStatus();
}

}  // namespace shardbridge::module
