// stablehlo-ext-canonicalize-from-hlo-import, the part the pinned import
// pipelines rely on (upstream xla/service/spmd/shardy/test/
// stablehlo_import_pipeline.mlir @custom_call_with_tuple_operand_result; the
// pass itself is stablehlo-ext's): tuples around a custom call are
// flattened.
//   %0 = stablehlo.tuple %a, %b : !tuple
//   %1 = stablehlo.custom_call @foo(%0) : (!tuple) -> !tuple
//   %2 = stablehlo.get_tuple_element %1[0] : (!tuple) -> A
// becomes
//   %1:2 = stablehlo.custom_call @foo(%a, %b) : (A, B) -> (A, B)
// with the uses of %2 reading %1#0. A tuple operand is flattened when a
// `stablehlo.tuple` defines it and only this call uses it; a tuple result
// when every use is a get_tuple_element. Nested tuples and the pass's other
// canonicalisations are not done. See docs/module.md "Import".
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/op_types.h"
#include "module/pass.h"

namespace shardbridge::module {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.remove_suffix(1);
  return std::string(s);
}

// `type` with a top-level `!alias` resolved through the file's aliases.
std::string resolve(const OpTree& tree, const std::string& type) {
  if (type.empty() || type[0] != '!') return type;
  for (TextSpan a : tree.aliases) {
    std::string_view s = a.in(tree.text);
    size_t eq = s.find('=');
    if (eq == std::string_view::npos || trim(s.substr(0, eq)) != type) continue;
    return trim(s.substr(eq + 1));
  }
  return type;
}

// The element types of `tuple<A, B>`, or nothing when `type` is not a flat tuple.
std::optional<std::vector<std::string>> tupleElements(const OpTree& tree, const std::string& type) {
  std::string t = resolve(tree, type);
  if (!t.starts_with("tuple<") || t.back() != '>') return std::nullopt;
  std::vector<std::string> elems = splitTypeList(std::string_view(t).substr(6, t.size() - 7));
  for (const std::string& e : elems)
    if (resolve(tree, e).starts_with("tuple<")) return std::nullopt;
  return elems;
}

std::vector<int> users(const OpTree& tree, int func, std::string_view name) {
  std::vector<int> out;
  for (int i : opsInside(tree, func))
    for (const ValueUse& u : tree.ops[i].uses)
      if (u.name == name) {
        out.push_back(i);
        break;
      }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

// The `[i]` of a get_tuple_element, or -1.
int gteIndex(std::string_view t, const OpNode& op) {
  if (op.uses.empty()) return -1;
  size_t p = op.uses[0].span.end;
  if (p >= t.size() || t[p] != '[') return -1;
  size_t e = t.find(']', p);
  if (e == std::string_view::npos || e - p > 6) return -1;
  std::string n(t.substr(p + 1, e - p - 1));
  if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoi(n);
}

}  // namespace

Status runCanonicalizeFromHloImport(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (op.name != "stablehlo.custom_call" || op.generic || op.dict.find("mhlo.sharding") ||
        op.dict.find("sdy.sharding"))
      continue;
    int func = tree.enclosingFunc(i);
    OpTypes types = opTypes(tree, op);
    if (func < 0 || !types.known || types.operands.size() != op.uses.size() || types.results.size() > 1) continue;
    bool changed = false;
    std::vector<std::string> operands, operandTypes;
    std::vector<int> erased;
    for (size_t k = 0; k < op.uses.size(); ++k) {
      const ValueUse& u = op.uses[k];
      int def = definingOp(tree, func, u.name, u.index);
      auto elems = tupleElements(tree, types.operands[k]);
      if (elems && def >= 0 && tree.ops[def].name == "stablehlo.tuple" && tree.ops[def].uses.size() == elems->size() &&
          users(tree, func, u.name).size() == 1) {
        for (size_t e = 0; e < elems->size(); ++e) {
          operands.push_back(std::string(tree.ops[def].uses[e].span.in(t)));
          operandTypes.push_back((*elems)[e]);
        }
        erased.push_back(def);
        changed = true;
      } else {
        operands.push_back(std::string(u.span.in(t)));
        operandTypes.push_back(types.operands[k]);
      }
    }
    std::vector<std::string> resultTypes = types.results;
    std::string results(op.results.in(t));
    std::vector<int> gtes;
    if (types.results.size() == 1 && !op.resultDefs.empty()) {
      std::string_view name = op.resultDefs[0].name.in(t);
      auto elems = tupleElements(tree, types.results[0]);
      std::vector<int> us = users(tree, func, name);
      bool allGte = elems && !us.empty();
      for (int u : us)
        if (tree.ops[u].name != "stablehlo.get_tuple_element" || gteIndex(t, tree.ops[u]) < 0 ||
            gteIndex(t, tree.ops[u]) >= static_cast<int>(elems->size()) || tree.ops[u].resultDefs.size() != 1)
          allGte = false;
      if (allGte) {
        resultTypes = *elems;
        results = std::string(name) + ":" + std::to_string(elems->size());
        gtes = us;
        changed = true;
      }
    }
    if (!changed) continue;
    std::string text = (results.empty() ? "" : results + " = ") + "stablehlo.custom_call @" +
                       std::string(customCallTarget(t, op)) + "(" + join(operands) + ")";
    if (op.dict.present()) text += " " + std::string(op.dict.whole.in(t));
    text += " : (" + join(operandTypes) + ") -> " +
            (resultTypes.size() == 1 ? resultTypes[0] : "(" + join(resultTypes) + ")");
    if (!op.loc.empty()) text += " " + std::string(op.loc.in(t));
    ctx.rw.replace(op.whole, text);
    for (int e : erased) ctx.rw.erase(tree.ops[e].line);
    std::string_view name = op.resultDefs.empty() ? std::string_view() : op.resultDefs[0].name.in(t);
    std::vector<int> scope = opsInside(tree, func);
    for (int g : gtes) {
      ctx.rw.erase(tree.ops[g].line);
      std::string to = std::string(name) + "#" + std::to_string(gteIndex(t, tree.ops[g]));
      std::vector<int> rest;
      for (int s : scope)
        if (s != i && std::find(gtes.begin(), gtes.end(), s) == gtes.end()) rest.push_back(s);
      replaceUses(tree, ctx.rw, rest, tree.ops[g].resultDefs[0].name.in(t), 0, to);
    }
  }
  return okStatus();
}

}  // namespace shardbridge::module
