#include "module/sharding_sites.h"

#include "module/manual_computation.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using module_lex::skipBalanced;
using module_lex::skipBlanks;

// The `<...>` at the first '<' at or after `from` (before `limit`).
Result<TextSpan> bracketAfter(std::string_view t, size_t from, size_t limit, const OpNode& op) {
  size_t b = t.find('<', from);
  if (b == std::string_view::npos || b >= limit)
    return makeError(ErrorCode::kParse, "expected a sharding '<@mesh, [...]>' in '" + std::string(op.name) + "'",
                     op.nameSpan.begin);
  SB_ASSIGN_OR_RETURN(size_t e, skipBalanced(t, b));
  return TextSpan{b, e};
}

}  // namespace

bool isSdyCollective(std::string_view n) {
  return n == "sdy.all_gather" || n == "sdy.all_slice" || n == "sdy.all_to_all" ||
         n == "sdy.collective_permute" || n == "sdy.reduce_scatter" || n == "sdy.all_reduce" ||
         n == "sdy.sharded_to_unreduced" || n == "sdy.replicated_to_unreduced";
}

Result<TextSpan> opShardingSpan(std::string_view t, const OpNode& op) {
  size_t limit = op.signature.empty() ? op.whole.end : op.signature.begin;
  if (isSdyCollective(op.name)) {
    size_t k = t.find("out_sharding", op.nameSpan.end);
    if (k == std::string_view::npos || k >= limit)
      return makeError(ErrorCode::kParse, "expected 'out_sharding' in '" + std::string(op.name) + "'",
                       op.nameSpan.begin);
    return bracketAfter(t, k, limit, op);
  }
  if (op.uses.empty())
    return makeError(ErrorCode::kParse, "expected an operand of '" + std::string(op.name) + "'", op.whole.begin);
  return bracketAfter(t, op.uses[0].span.end, limit, op);
}

std::string_view meshOpText(std::string_view t, const OpNode& op) {
  size_t end = op.loc.empty() ? op.whole.end : op.loc.begin;
  while (end > op.whole.begin && module_lex::isBlank(t[end - 1])) --end;
  return t.substr(op.whole.begin, end - op.whole.begin);
}

Result<std::vector<ShardingSite>> shardingSites(const OpTree& tree, int module) {
  std::string_view t = tree.text;
  std::vector<ShardingSite> out;
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (tree.enclosingModule(i) != module) continue;
    if (op.name == "func.func") {
      for (const ValueDef& a : op.funcArgs())
        if (const AttrEntry* e = a.dict.find("sdy.sharding")) out.push_back({ShardingSite::kSharding, e->value, i});
      for (const FuncResult& r : op.funcResults())
        if (const AttrEntry* e = r.dict.find("sdy.sharding")) out.push_back({ShardingSite::kSharding, e->value, i});
      continue;
    }
    if (op.name == "sdy.manual_computation") {
      SB_ASSIGN_OR_RETURN(ManualComputationParts parts, readManualComputation(t, op));
      for (const TextSpan& s : parts.in) out.push_back({ShardingSite::kStripped, s, i});
      for (const TextSpan& s : parts.out) out.push_back({ShardingSite::kStripped, s, i});
      continue;
    }
    if (op.name == "sdy.sharding_constraint" || op.name == "sdy.reshard" || isSdyCollective(op.name)) {
      SB_ASSIGN_OR_RETURN(TextSpan s, opShardingSpan(t, op));
      out.push_back({ShardingSite::kStripped, s, i});
      continue;
    }
    if (const AttrEntry* e = op.dict.find("sdy.sharding")) out.push_back({ShardingSite::kPerValue, e->value, i});
  }
  return out;
}

Status transformShardings(sdy::Context& ctx, std::string_view t, const std::vector<ShardingSite>& sites,
                          Rewriter& rw, const ShardingFn& fn) {
  for (const ShardingSite& site : sites) {
    std::string_view text = site.span.in(t);
    if (site.form == ShardingSite::kPerValue) {
      auto parsed = sdy::parseTensorShardingPerValue(ctx, text);
      if (!parsed) return parsed.error().shifted(site.span.begin);
      std::vector<sdy::TensorShardingAttr> shardings;
      bool changed = false;
      for (sdy::TensorShardingAttr s : parsed->shardings()) {
        SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr n, fn(s));
        changed |= n != s;
        shardings.push_back(n);
      }
      if (changed)
        rw.replace(site.span, sdy::printTensorShardingPerValue(sdy::TensorShardingPerValueAttr::get(ctx, shardings)));
      continue;
    }
    auto parsed = sdy::parseTensorSharding(ctx, text);
    if (!parsed) return parsed.error().shifted(site.span.begin);
    SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr n, fn(*parsed));
    if (n == *parsed) continue;
    sdy::PrintOptions po;
    po.withPrefix = site.form == ShardingSite::kSharding;
    rw.replace(site.span, sdy::printTensorSharding(n, po));
  }
  return okStatus();
}

}  // namespace shardbridge::module
