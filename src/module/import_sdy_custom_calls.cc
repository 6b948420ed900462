// xla-sdy-import-sdy-custom-calls (upstream xla/service/spmd/shardy/
// round_trip_common/import_sdy_custom_calls.cc): the custom calls the
// export writes for Shardy ops become those ops again.
//   %r = stablehlo.custom_call @Sharding(%x) {backend_config = "unspecified_dims=[1]",
//          sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (T) -> T
//     -> %r = sdy.sharding_constraint %x <@mesh, [{"a"}, {?}]> : T
//        (the unspecified dims become open dims; other attributes are dropped)
//   stablehlo.custom_call @xla.sdy.ShardingGroup(%x) {... xla.sdy.sharding_group_id = "N : i64"}
//     -> sdy.sharding_group %x group_id=N : T
//   %r = stablehlo.custom_call @xla.sdy.PropagationBarrier(%x) {... xla.sdy.allowed_direction = "K : i32"}
//     -> %r = sdy.propagation_barrier %x allowed_direction=D : T
// Errors are upstream's messages, at the custom call. See docs/module.md "Import".
#include <string>
#include <vector>

#include "module/import_common.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/value_index.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

Error at(const OpNode& op, std::string message) {
  return makeError(ErrorCode::kInvalid, std::move(message), op.whole.begin);
}

std::string withLoc(std::string_view t, const OpNode& op, std::string text) {
  if (!op.loc.empty()) text += " " + std::string(op.loc.in(t));
  return text;
}

// `unspecified_dims=[0,2]` of the backend config (xla's sharding_op_util
// attribute syntax). Errors: anything else in the string.
Result<std::vector<int64_t>> unspecifiedDims(std::string_view t, const OpNode& op) {
  std::vector<int64_t> dims;
  const AttrEntry* e = op.dict.find("backend_config");
  if (!e) return dims;
  SB_ASSIGN_OR_RETURN(std::string config, roundTripString(t, e->value));
  std::string_view s = config;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  if (s.empty()) return dims;
  auto bad = [&] {
    return makeError(ErrorCode::kParse, "expected 'unspecified_dims=[...]' in the backend_config of @Sharding, got '" +
                                            config + "'",
                     e->value.begin);
  };
  constexpr std::string_view kKey = "unspecified_dims=[";
  if (!s.starts_with(kKey) || s.back() != ']') return bad();
  s = s.substr(kKey.size(), s.size() - kKey.size() - 1);
  while (!s.empty()) {
    size_t comma = s.find(',');
    std::string_view n = s.substr(0, comma);
    while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
    while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string_view::npos) return bad();
    dims.push_back(std::stoll(std::string(n)));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return dims;
}

std::string singleType(const OpTree& tree, const OpNode& op) {
  OpTypes types = opTypes(tree, op);
  if (types.known && types.results.size() == 1) return std::string(types.results[0]);
  if (types.known && types.operands.size() == 1) return std::string(types.operands[0]);
  return {};
}

Status importSharding(PassContext& ctx, sdy::Context& sctx, const OpNode& op) {
  std::string_view t = ctx.text();
  if (op.uses.size() != 1) return at(op, "expected CustomCallOp with exactly one operand");
  if (resultCount(op) != 1) return at(op, "expected CustomCallOp with exactly one result");
  const AttrEntry* e = op.dict.find("sdy.sharding");
  if (!e)
    return at(op,
              "expected CustomCallOp with a sharding attribute. If you are a JAX user hitting this, please file a "
              "bug against the OpenXLA Shardy team. This shouldn't happen to you. One of the possible bugs is the "
              "model has been lowered targeting GSPMD, but Shardy was then enabled in XLA.");
  auto perValue = sdy::parseTensorShardingPerValue(sctx, e->value.in(t));
  if (!perValue) return perValue.error().shifted(e->value.begin);
  if (perValue->shardings().size() != 1)
    return makeError(ErrorCode::kInvalid, "expected one sharding for the @Sharding custom call", e->value.begin);
  sdy::TensorShardingAttr s = perValue->shardings()[0];
  SB_ASSIGN_OR_RETURN(std::vector<int64_t> open, unspecifiedDims(t, op));
  if (!open.empty()) {
    std::vector<sdy::DimensionShardingAttr> dims(s.dimShardings().begin(), s.dimShardings().end());
    for (int64_t d : open) {
      if (d < 0 || d >= static_cast<int64_t>(dims.size()))
        return makeError(ErrorCode::kInvalid,
                         "unspecified dim " + std::to_string(d) + " is out of range for a sharding of rank " +
                             std::to_string(dims.size()),
                         op.dict.find("backend_config")->value.begin);
      dims[static_cast<size_t>(d)] =
          sdy::DimensionShardingAttr::get(sctx, dims[static_cast<size_t>(d)].axes(), false,
                                          dims[static_cast<size_t>(d)].priority());
    }
    s = sdy::TensorShardingAttr::get(sctx, s.meshOrRef(), dims, s.replicatedAxes(), s.unreducedAxes(),
                                     s.reductionOp());
  }
  std::string type = singleType(ctx.tree, op);
  if (type.empty()) return at(op, "expected a signature '(T) -> T' on the @Sharding custom call");
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  ctx.rw.replace(op.whole, withLoc(t, op,
                                   std::string(op.results.in(t)) + " = sdy.sharding_constraint " +
                                       std::string(op.uses[0].span.in(t)) + " " +
                                       sdy::printTensorSharding(s, stripped) + " : " + type));
  return okStatus();
}

// The integer of a frontend string `"N : i64"` (or `"N"`).
std::optional<int64_t> frontendInt(std::string_view s) {
  size_t colon = s.find(':');
  std::string_view n = s.substr(0, colon);
  while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
  while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
  bool neg = !n.empty() && n.front() == '-';
  if (neg) n.remove_prefix(1);
  if (n.empty() || n.size() > 18 || n.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  int64_t v = std::stoll(std::string(n));
  return neg ? -v : v;
}

bool hasUses(const OpTree& tree, FuncValueIndex& values, int opIndex) {
  const OpNode& op = tree.ops[opIndex];
  if (op.resultDefs.empty()) return false;
  std::string_view name = op.resultDefs[0].name.in(tree.text);
  int func = tree.enclosingFunc(opIndex);
  return func >= 0 && !values.users(func, name, -1).empty();
}

Status importShardingGroup(PassContext& ctx, FuncValueIndex& values, int i) {
  const OpNode& op = ctx.tree.ops[i];
  std::string_view t = ctx.text();
  if (op.uses.size() != 1) return at(op, "expected CustomCallOp with exactly one operand");
  SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t, op.dict));
  const AttrEntry* id = f.find("xla.sdy.sharding_group_id");
  if (!id) return at(op, "expected CustomCallOp with a sharding group id.");
  SB_ASSIGN_OR_RETURN(std::string idText, roundTripString(t, id->value));
  std::optional<int64_t> value = frontendInt(idText);
  if (!value) return at(op, "expected CustomCallOp with a sharding group id.");
  if (hasUses(ctx.tree, values, i)) return at(op, "xla.sdy.ShardingGroup CustomCallOp should have no uses.");
  OpTypes types = opTypes(ctx.tree, op);
  if (!types.known || types.operands.size() != 1)
    return at(op, "expected a signature '(T) -> ...' on the xla.sdy.ShardingGroup custom call");
  ctx.rw.replace(op.whole, withLoc(t, op,
                                   "sdy.sharding_group " + std::string(op.uses[0].span.in(t)) +
                                       " group_id=" + std::to_string(*value) + " : " + std::string(types.operands[0])));
  return okStatus();
}

Status importBarrier(PassContext& ctx, const OpNode& op) {
  std::string_view t = ctx.text();
  if (op.uses.size() != 1 || resultCount(op) != 1)
    return at(op, "expected PropagationBarrier CustomCall Op with one operand and one result.");
  SB_ASSIGN_OR_RETURN(Frontend f, frontendOf(t, op.dict));
  const AttrEntry* dir = f.find("xla.sdy.allowed_direction");
  if (!dir) return at(op, "expected PropagationBarrier CustomCall Op with a propagation direction.");
  SB_ASSIGN_OR_RETURN(std::string text, roundTripString(t, dir->value));
  static const char* const kNames[] = {"NONE", "FORWARD", "BACKWARD", "BOTH"};
  std::string name;
  if (std::optional<int64_t> v = frontendInt(text); v && *v >= 0 && *v < 4) name = kNames[*v];
  for (const char* n : kNames)
    if (name.empty() && text.find(n) != std::string::npos) name = n;
  if (name.empty()) return at(op, "expected PropagationBarrier CustomCall Op with a propagation direction.");
  std::string type = singleType(ctx.tree, op);
  if (type.empty()) return at(op, "expected a signature '(T) -> T' on the xla.sdy.PropagationBarrier custom call");
  ctx.rw.replace(op.whole, withLoc(t, op,
                                   std::string(op.results.in(t)) + " = sdy.propagation_barrier " +
                                       std::string(op.uses[0].span.in(t)) + " allowed_direction=" + name + " : " +
                                       type));
  return okStatus();
}

}  // namespace

Status runImportSdyCustomCalls(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  sdy::Context sctx;
  FuncValueIndex values(tree);
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    std::string_view target = customCallTarget(ctx.text(), op);
    if (target == "Sharding") {
      SB_TRY(importSharding(ctx, sctx, op));
    } else if (target == "xla.sdy.ShardingGroup") {
      SB_TRY(importShardingGroup(ctx, values, i));
    } else if (target == "xla.sdy.PropagationBarrier") {
      SB_TRY(importBarrier(ctx, op));
    }
  }
  return okStatus();
}

}  // namespace shardbridge::module
