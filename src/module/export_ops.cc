// xla-sdy-export-ops (upstream xla/service/spmd/shardy/stablehlo_round_trip/
// export_ops.cc): the Shardy ops no HLO consumer reads become StableHLO/MHLO
// ops; their shardings stay `sdy.sharding` for the export-shardings pass.
//   sdy.constant                       -> stablehlo.constant
//   sdy.sharding_constraint %x <S> : T -> mhlo.copy %x {sdy.sharding = per_value<[S]>} : T
//                                         (or the @Sharding custom call under
//                                          keep-hlo-sharding-constraints)
//   sdy.reshard %x <S>, the collectives -> mhlo.copy with the result sharding
//   sdy.all_reduce, sdy.propagation_barrier -> their operand (uses forwarded)
//   sdy.sharding_group                 -> erased
// See docs/module.md "export-ops".
#include <algorithm>
#include <string>
#include <span>

#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

using module_lex::skipBalanced;

bool isCollective(std::string_view n) {
  return n == "sdy.all_gather" || n == "sdy.all_slice" || n == "sdy.all_to_all" ||
         n == "sdy.collective_permute" || n == "sdy.reduce_scatter";
}

// The `<@mesh, [...]>` sharding of a reshard / constraint (after its operand)
// or the `out_sharding=<...>` of a collective.
Result<TextSpan> shardingOf(const OpTree& tree, const OpNode& op) {
  std::string_view t = tree.text;
  size_t from = op.uses.empty() ? op.nameSpan.end : op.uses[0].span.end;
  if (isCollective(op.name) || op.name == "sdy.all_reduce") {
    size_t k = t.substr(0, op.whole.end).find("out_sharding", op.nameSpan.end);  // within the op
    if (k == std::string_view::npos || k >= op.whole.end)
      return makeError(ErrorCode::kParse, "expected 'out_sharding' in '" + std::string(op.name) + "'",
                       op.nameSpan.begin);
    from = k;
  }
  size_t b = t.find('<', from);
  if (b == std::string_view::npos || b >= op.whole.end)
    return makeError(ErrorCode::kParse, "expected a sharding '<@mesh, [...]>' in '" + std::string(op.name) + "'",
                     op.nameSpan.begin);
  SB_ASSIGN_OR_RETURN(size_t e, skipBalanced(t, b));
  return TextSpan{b, e};
}

std::string signatureType(std::string_view t, const OpNode& op) {
  std::string_view s = op.signature.in(t);
  if (!s.empty() && s[0] == ':') s.remove_prefix(1);
  while (!s.empty() && module_lex::isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && module_lex::isBlank(s.back())) s.remove_suffix(1);
  return std::string(s);
}

Status toCopy(PassContext& ctx, const OpNode& op, bool customCall) {
  std::string_view t = ctx.text();
  if (op.uses.empty() || op.resultDefs.empty() || op.signature.empty())
    return makeError(ErrorCode::kParse,
                     "expected '%result = " + std::string(op.name) + " %operand ... : type'", op.whole.begin);
  SB_ASSIGN_OR_RETURN(TextSpan sharding, shardingOf(ctx.tree, op));
  std::string type = signatureType(t, op);
  std::string dict = "{sdy.sharding = #sdy.sharding_per_value<[" + std::string(sharding.in(t)) + "]>}";
  std::string operand(op.uses[0].span.in(t));
  std::string out(op.results.in(t));
  if (customCall)
    out += " = stablehlo.custom_call @Sharding(" + operand + ") " + dict + " : (" + type + ") -> " + type;
  else
    out += " = mhlo.copy " + operand + " " + dict + " : " + type;
  if (!op.loc.empty()) out += " " + std::string(op.loc.in(t));
  ctx.rw.replace(op.whole, std::move(out));
  return okStatus();
}

}  // namespace

std::string_view moduleIndent(const OpTree& tree, int module) {
  const TreeVec<int>* body = tree.bodyOps(module);
  if (body && !body->empty()) return module_lex::indentationAt(tree.text, tree.ops[body->front()].whole.begin);
  return module < 0 ? "" : "  ";
}

AppendPoint moduleAppendPoint(const OpTree& tree, int module) {
  std::string_view t = tree.text;
  AppendPoint p;
  if (module < 0) {
    p.at = t.size();
  } else {
    p.at = tree.ops[static_cast<size_t>(module)].regions.at(0).whole.end - 1;
    while (p.at > 0 && (t[p.at - 1] == ' ' || t[p.at - 1] == '\t')) --p.at;
  }
  p.newlineFirst = p.at > 0 && t[p.at - 1] != '\n';
  return p;
}

std::vector<int> opsInside(const OpTree& tree, int func) {
  std::vector<int> out;
  for (int i = func + 1; i < static_cast<int>(tree.ops.size()); ++i) {
    if (tree.ops[i].whole.begin >= tree.ops[func].whole.end) break;
    out.push_back(i);
  }
  return out;
}

void replaceUses(const OpTree& tree, Rewriter& rw, std::span<const int> ops, std::string_view fromName,
                 int fromIndex, std::string_view to) {
  for (int i : ops)
    for (const ValueUse& u : tree.ops[i].uses)
      if (u.name == fromName && u.index == fromIndex) rw.replace(u.span, std::string(to));
}

bool exportOpsKeepsNames(const OpTree& tree) {
  return std::none_of(tree.ops.begin(), tree.ops.end(), [](const OpNode& op) {
    return op.name == "sdy.all_reduce" || op.name == "sdy.propagation_barrier";
  });
}

Status runExportOps(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  bool keepConstraints = ctx.flag("keep-hlo-sharding-constraints");
  UseIndex uses(tree);
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (!op.name.starts_with("sdy.")) continue;
    if (op.name == "sdy.constant") {
      ctx.rw.replace(op.nameSpan, op.generic ? "\"stablehlo.constant\"" : "stablehlo.constant");
    } else if (op.name == "sdy.sharding_constraint") {
      SB_TRY(toCopy(ctx, op, keepConstraints));
    } else if (op.name == "sdy.reshard" || isCollective(op.name)) {
      SB_TRY(toCopy(ctx, op, false));
    } else if (op.name == "sdy.all_reduce" || op.name == "sdy.propagation_barrier") {
      if (op.uses.empty() || op.resultDefs.size() != 1)
        return makeError(ErrorCode::kParse, "expected '%result = " + std::string(op.name) + " ... %operand'",
                         op.whole.begin);
      // The operand is the last value use before the sharding / signature.
      const ValueUse& operand = op.uses.back();
      uses.replace(ctx.rw, tree.enclosingFunc(i), op.resultDefs[0].name.in(t), 0, operand.span.in(t));
      ctx.rw.erase(op.line);
    } else if (op.name == "sdy.sharding_group") {
      ctx.rw.erase(op.line);
    }
  }
  return okStatus();
}

}  // namespace shardbridge::module
