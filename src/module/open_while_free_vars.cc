// xla-sdy-open-while-free-vars-sharding (upstream xla/service/spmd/shardy/
// round_trip_common/open_while_free_vars_sharding.cc): a value defined
// outside a `stablehlo.while` and used inside it (a free variable) that has
// a sharding of rank > 0 which is not already fully open gets a fully open
// `sdy.sharding_constraint` just before the while, and the uses inside the
// while read it:
//   %1:2 = stablehlo.while(...) ... %5 = stablehlo.add %iterArg, %arg1 ...
//   -> %arg1_open = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<32x96xf32>
//      %1:2 = stablehlo.while(...) ... %5 = stablehlo.add %iterArg, %arg1_open ...
// See docs/module.md "Import".
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/text_lex.h"
#include "module/value_index.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

// The written type of value `name#index` in function `func`.
std::string valueType(const OpTree& tree, FuncValueIndex& values, int func, std::string_view name, int index) {
  std::string_view t = tree.text;
  for (const ValueDef& a : tree.ops[func].funcArgs())
    if (a.name.in(t) == name) return std::string(a.type.in(t));
  int resultIndex = 0;
  int def = values.definingOp(func, name, index, &resultIndex);
  if (def < 0) return {};
  OpTypes types = opTypes(tree, tree.ops[def]);
  if (!types.known) return {};
  if (types.results.size() == 1) return std::string(types.results[0]);
  if (resultIndex < static_cast<int>(types.results.size()))
    return std::string(types.results[static_cast<size_t>(resultIndex)]);
  return {};
}

}  // namespace

Status runOpenWhileFreeVars(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  sdy::Context sctx;
  FreshNames names(tree);
  FuncValueIndex values(tree);
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  for (int w = 0; w < static_cast<int>(tree.ops.size()); ++w) {
    const OpNode& loop = tree.ops[w];
    if (loop.name != "stablehlo.while") continue;
    int func = tree.enclosingFunc(w);
    if (func < 0) continue;
    std::vector<int> inside;
    std::set<std::string_view> local;
    for (int i = w + 1; i < static_cast<int>(tree.ops.size()) && tree.ops[i].whole.begin < loop.whole.end; ++i) {
      inside.push_back(i);
      for (const ResultDef& d : tree.ops[i].resultDefs) local.insert(d.name.in(t));
      for (const Region& r : tree.ops[i].regions)
        for (const Block& b : r.blocks)
          for (const ValueDef& a : b.arguments) local.insert(a.name.in(t));
    }
    for (const Region& r : loop.regions)
      for (const Block& b : r.blocks)
        for (const ValueDef& a : b.arguments) local.insert(a.name.in(t));
    // Free variables in the order of their first use.
    std::vector<std::pair<std::string_view, int>> free;
    for (int i : inside)
      for (const ValueUse& u : tree.ops[i].uses) {
        if (local.count(u.name)) continue;
        std::pair<std::string_view, int> v{u.name, u.index};
        if (std::find(free.begin(), free.end(), v) == free.end()) free.push_back(v);
      }
    std::string_view indent = module_lex::indentationAt(t, loop.whole.begin);
    size_t lineStart = loop.whole.begin;
    while (lineStart > 0 && (t[lineStart - 1] == ' ' || t[lineStart - 1] == '\t')) --lineStart;
    bool ownLine = lineStart == 0 || t[lineStart - 1] == '\n';
    for (const auto& [name, index] : free) {
      std::optional<sdy::TensorShardingAttr> s = valueSharding(sctx, tree, values, func, name, index);
      if (!s || s->rank() == 0) continue;
      sdy::TensorShardingAttr open = sdy::TensorShardingAttr::getFullyOpen(sctx, s->meshOrRef(), s->rank());
      if (open == *s) continue;
      std::string type = valueType(tree, values, func, name, index);
      if (type.empty())
        return makeError(ErrorCode::kParse,
                         "the type of " + std::string(name) + ", a free variable of this stablehlo.while, is not written",
                         loop.whole.begin);
      std::string operand = std::string(name) + (index ? "#" + std::to_string(index) : "");
      std::string fresh = names.next(std::string(name.substr(1)) + "_open", w);
      std::string line = fresh + " = sdy.sharding_constraint " + operand + " " + sdy::printTensorSharding(open, stripped) +
                         " : " + type;
      if (ownLine) {
        ctx.rw.insert(lineStart, std::string(indent) + line + "\n");
      } else {
        ctx.rw.insert(loop.whole.begin, line + " ");
      }
      replaceUses(tree, ctx.rw, inside, name, index, fresh);
    }
  }
  return okStatus();
}

}  // namespace shardbridge::module
