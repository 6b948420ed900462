// xla-sdy-round-trip-export-ops (upstream xla/service/spmd/shardy/
// sdy_round_trip/export_ops.cc): the Shardy ops the round-trip form keeps
// as custom calls, so that the round-trip import can rebuild them.
//   sdy.constant                    -> stablehlo.constant (attributes kept)
//   %r = sdy.sharding_constraint %x <S> : T
//     -> %r = stablehlo.custom_call @Sharding(%x) {sdy.sharding = #sdy.sharding_per_value<[S]>} : (T) -> T
//        (has_side_effect = true only when S has unreduced axes; the
//         constraint's own attributes are copied)
//   sdy.sharding_group %x group_id=N : T
//     -> stablehlo.custom_call @xla.sdy.ShardingGroup(%x) {has_side_effect = true,
//          mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "N : i64"}} : (T) -> ()
//   %r = sdy.propagation_barrier %x allowed_direction=D : T
//     -> %r = stablehlo.custom_call @xla.sdy.PropagationBarrier(%x) {has_side_effect = true,
//          mhlo.frontend_attributes = {xla.sdy.allowed_direction = "K : i32"}} : (T) -> T
// Reshards and collectives are left alone: upstream's round trip runs after
// propagation, where they do not occur. See docs/module.md "Round-trip export".
#include <string>

#include "module/frontend_attrs.h"
#include "module/pass.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using module_lex::skipBalanced;
using module_lex::skipBlanks;

std::string typeOf(std::string_view t, const OpNode& op) {
  std::string_view s = op.signature.in(t);
  if (!s.empty() && s[0] == ':') s.remove_prefix(1);
  while (!s.empty() && module_lex::isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && module_lex::isBlank(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// The value written after `key=` (blanks allowed around '=') between the
// operand and the signature of `op`.
Result<std::string_view> keywordValue(std::string_view t, const OpNode& op, std::string_view key) {
  size_t from = op.uses.empty() ? op.nameSpan.end : op.uses[0].span.end;
  size_t limit = op.signature.empty() ? op.whole.end : op.signature.begin;
  size_t k = t.find(key, from);
  if (k == std::string_view::npos || k >= limit)
    return makeError(ErrorCode::kParse, "expected '" + std::string(key) + "' in '" + std::string(op.name) + "'",
                     op.nameSpan.begin);
  size_t p = skipBlanks(t, k + key.size());
  if (p >= limit || t[p] != '=')
    return makeError(ErrorCode::kParse, "expected '=' after '" + std::string(key) + "'", p);
  p = skipBlanks(t, p + 1);
  size_t e = p;
  while (e < limit && (module_lex::isIdentChar(t[e]))) ++e;
  if (e == p) return makeError(ErrorCode::kParse, "expected a value after '" + std::string(key) + "='", p);
  return t.substr(p, e - p);
}

Status checkOperand(const OpNode& op, bool result) {
  if (op.uses.empty() || op.signature.empty() || (result && op.resultDefs.empty()))
    return makeError(ErrorCode::kParse,
                     std::string("expected '") + (result ? "%result = " : "") + std::string(op.name) +
                         " %operand ... : type'",
                     op.whole.begin);
  return okStatus();
}

std::string withLoc(std::string_view t, const OpNode& op, std::string text) {
  if (!op.loc.empty()) text += " " + std::string(op.loc.in(t));
  return text;
}

Status exportConstraint(PassContext& ctx, sdy::Context& sctx, const OpNode& op) {
  std::string_view t = ctx.text();
  SB_TRY(checkOperand(op, true));
  size_t b = t.find('<', op.uses[0].span.end);
  if (b == std::string_view::npos || b >= op.signature.begin)
    return makeError(ErrorCode::kParse, "expected a sharding '<@mesh, [...]>' in 'sdy.sharding_constraint'",
                     op.nameSpan.begin);
  SB_ASSIGN_OR_RETURN(size_t e, skipBalanced(t, b));
  auto sharding = sdy::parseTensorSharding(sctx, t.substr(b, e - b));
  if (!sharding) return sharding.error().shifted(b);
  std::vector<std::pair<std::string, std::string>> attrs;
  // The constraint's discardable attributes move to the custom call.
  for (const AttrEntry& entry : op.dict.entries)
    if (entry.name != "sdy.sharding") attrs.push_back({std::string(entry.name), std::string(entry.value.in(t))});
  if (!sharding->unreducedAxes().empty()) attrs.push_back({"has_side_effect", "true"});
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  attrs.push_back({"sdy.sharding", "#sdy.sharding_per_value<[" + sdy::printTensorSharding(*sharding, stripped) + "]>"});
  std::string type = typeOf(t, op);
  ctx.rw.replace(op.whole, withLoc(t, op,
                                   std::string(op.results.in(t)) + " = stablehlo.custom_call @Sharding(" +
                                       std::string(op.uses[0].span.in(t)) + ") " + sortedDict(attrs) + " : (" +
                                       type + ") -> " + type));
  return okStatus();
}

// PropagationDirection's integer values (Shardy's sdy enums: NONE, FORWARD,
// BACKWARD, BOTH), which upstream writes as the frontend attribute.
Result<int> directionValue(std::string_view name, size_t at) {
  static constexpr std::string_view kNames[] = {"NONE", "FORWARD", "BACKWARD", "BOTH"};
  for (int i = 0; i < 4; ++i)
    if (kNames[i] == name) return i;
  return makeError(ErrorCode::kParse,
                   "expected NONE, FORWARD, BACKWARD or BOTH for allowed_direction, got '" + std::string(name) + "'",
                   at);
}

}  // namespace

Status runRoundTripExportOps(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  sdy::Context sctx;
  for (const OpNode& op : tree.ops) {
    if (!op.name.starts_with("sdy.")) continue;
    if (op.name == "sdy.constant") {
      ctx.rw.replace(op.nameSpan, op.generic ? "\"stablehlo.constant\"" : "stablehlo.constant");
    } else if (op.name == "sdy.sharding_constraint") {
      SB_TRY(exportConstraint(ctx, sctx, op));
    } else if (op.name == "sdy.sharding_group") {
      SB_TRY(checkOperand(op, false));
      SB_ASSIGN_OR_RETURN(std::string_view id, keywordValue(t, op, "group_id"));
      std::string type = typeOf(t, op);
      std::string attrs = sortedDict({{"has_side_effect", "true"},
                                      {std::string(kFrontendAttrs),
                                       frontendDict({{"xla.sdy.sharding_group_id", std::string(id) + " : i64"}})}});
      ctx.rw.replace(op.whole, withLoc(t, op,
                                       "stablehlo.custom_call @xla.sdy.ShardingGroup(" +
                                           std::string(op.uses[0].span.in(t)) + ") " + attrs + " : (" + type +
                                           ") -> ()"));
    } else if (op.name == "sdy.propagation_barrier") {
      SB_TRY(checkOperand(op, true));
      SB_ASSIGN_OR_RETURN(std::string_view dir, keywordValue(t, op, "allowed_direction"));
      SB_ASSIGN_OR_RETURN(int value, directionValue(dir, static_cast<size_t>(dir.data() - t.data())));
      std::string type = typeOf(t, op);
      std::string attrs =
          sortedDict({{"has_side_effect", "true"},
                      {std::string(kFrontendAttrs),
                       frontendDict({{"xla.sdy.allowed_direction", std::to_string(value) + " : i32"}})}});
      ctx.rw.replace(op.whole, withLoc(t, op,
                                       std::string(op.results.in(t)) +
                                           " = stablehlo.custom_call @xla.sdy.PropagationBarrier(" +
                                           std::string(op.uses[0].span.in(t)) + ") " + attrs + " : (" + type +
                                           ") -> " + type));
    }
  }
  return okStatus();
}

}  // namespace shardbridge::module
