// xla-sdy-round-trip-shard-map-export (upstream xla/service/spmd/shardy/
// sdy_round_trip/shard_map_export.cc): every `sdy.manual_computation`, inner
// ones first, becomes
//   %l:N = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(operands)
//            {has_side_effect = true, mhlo.frontend_attributes = {
//              xla.sdy.in_shardings = "#sdy.sharding_per_value<[...]>",
//              xla.sdy.manual_axes = "#sdy<manual_axes{...}>"}}      (only with operands)
//   %b:M = call @xla.sdy.manual_computation_body[_K](%l#0, ...)
//            {mhlo.frontend_attributes = {inlineable = "xla_late"}}
//   %r:M = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%b#0, ...)
//            {has_side_effect = true, mhlo.frontend_attributes = {
//              xla.sdy.manual_axes = "...", xla.sdy.out_shardings = "..."}}  (only with results)
// and its body a public `func.func @xla.sdy.manual_computation_body[_K]`
// appended at the end of the module, named as MLIR's symbol table names a
// clash (`_0`, `_1`, ... from one counter per module). The results keep the
// manual computation's names, so no use changes. With enable-hlo-sharding-v3
// the in/out shardings are written with their meshes inlined.
// See docs/module.md "Round-trip export".
#include <map>
#include <set>
#include <string>

#include "module/frontend_attrs.h"
#include "module/manual_computation.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using module_lex::indentationAt;
using module_lex::skipBalanced;
using module_lex::skipBlanks;


struct RoundTripManual {
  int op = -1;
  std::vector<TextSpan> in, out;  // each `<...>`
  std::vector<std::string> manualAxes;  // manual_axes, quotes stripped
};

std::string joinValues(const std::string& name, size_t n) {
  if (n == 1) return name;
  std::string s;
  for (size_t i = 0; i < n; ++i) s += (i ? ", " : "") + name + "#" + std::to_string(i);
  return s;
}

template <typename Type>
std::string typeList(const std::vector<Type>& types, bool parenthesizeOne) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) s += ", ";
    s += types[i];
  }
  return types.size() == 1 && !parenthesizeOne ? s : "(" + s + ")";
}


class RoundTripShardMapExport {
 public:
  explicit RoundTripShardMapExport(PassContext& ctx)
      : ctx_(ctx), t_(ctx.text()), tree_(ctx.tree), names_(ctx.tree), v3_(ctx.flag("enable-hlo-sharding-v3")) {}

  Status run() {
    SB_TRY(collect());
    if (manuals_.empty()) return okStatus();
    size_t end = 0;
    for (const RoundTripManual& m : manuals_) {
      const OpNode& op = tree_.ops[m.op];
      if (op.line.begin < end) continue;  // nested: lowered with its parent
      SB_ASSIGN_OR_RETURN(std::string lowered, lowerInPlace(m));
      ctx_.rw.replace(op.line, std::move(lowered));
      end = op.line.end;
    }
    for (auto& [module, funcs] : outlined_) {
      std::string text;
      for (const std::string& f : funcs) text += f;
      AppendPoint end = moduleAppendPoint(tree_, module);
      if (end.newlineFirst) text.insert(0, "\n");
      ctx_.rw.insert(end.at, std::move(text));
    }
    return okStatus();
  }

 private:
  Status collect() {
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& op = tree_.ops[i];
      if (op.name == "sdy.mesh") {
        auto mesh = sdy::parseMeshSymbol(sctx_, meshOpText(t_, op));
        if (mesh) meshes_[{tree_.enclosingModule(i), mesh->name}] = mesh->mesh;
        continue;
      }
      if (op.name != "sdy.manual_computation") continue;
      if (op.regions.size() != 1 || op.regions[0].blocks.size() != 1 || op.regions[0].blocks[0].ops.empty())
        return makeError(ErrorCode::kParse, "expected one region with one block in sdy.manual_computation",
                         op.nameSpan.begin);
      RoundTripManual m;
      m.op = i;
      SB_ASSIGN_OR_RETURN(ManualComputationParts parts, readManualComputation(t_, op));
      m.in = std::move(parts.in);
      m.out = std::move(parts.out);
      m.manualAxes = std::move(parts.axes);
      manuals_.push_back(std::move(m));
    }
    return okStatus();
  }

  // `#sdy.sharding_per_value<[...]>` of the shardings, printed canonically
  // (with the meshes inlined under V3).
  Result<std::string> perValue(const std::vector<TextSpan>& list, int module) {
    std::vector<sdy::TensorShardingAttr> shardings;
    for (const TextSpan& s : list) {
      auto parsed = sdy::parseTensorSharding(sctx_, s.in(t_));
      if (!parsed) return parsed.error().shifted(s.begin);
      sdy::TensorShardingAttr sh = *parsed;
      if (v3_ && sh.meshOrRef().isRef()) {
        auto it = meshes_.find({module, std::string(sh.meshOrRef().refName())});
        if (it == meshes_.end())
          return makeError(ErrorCode::kNotFound, "unknown mesh: @" + std::string(sh.meshOrRef().refName()), s.begin);
        std::vector<sdy::DimensionShardingAttr> dims(sh.dimShardings().begin(), sh.dimShardings().end());
        std::vector<sdy::AxisRefAttr> rep(sh.replicatedAxes().begin(), sh.replicatedAxes().end());
        std::vector<sdy::AxisRefAttr> unr(sh.unreducedAxes().begin(), sh.unreducedAxes().end());
        sh = sdy::TensorShardingAttr::get(sctx_, sdy::MeshOrRef::inlineMesh(it->second), dims, rep, unr,
                                          sh.reductionOp());
      }
      shardings.push_back(sh);
    }
    return sdy::printTensorShardingPerValue(sdy::TensorShardingPerValueAttr::get(sctx_, shardings));
  }

  Result<std::string> lowerInPlace(const RoundTripManual& m) {
    const OpNode& op = tree_.ops[m.op];
    bool wholeLine = op.line.begin != op.whole.begin;
    SB_ASSIGN_OR_RETURN(std::string lowered, lower(m, wholeLine ? indentationAt(t_, op.whole.begin) : ""));
    if (!wholeLine && !lowered.empty() && lowered.back() == '\n') lowered.pop_back();
    return lowered;
  }

  // `range` with the manual computations in it lowered.
  Result<std::string> renderRange(TextSpan range) {
    std::string out;
    size_t p = range.begin;
    for (const RoundTripManual& m : manuals_) {
      const OpNode& op = tree_.ops[m.op];
      if (op.line.begin < p || op.line.end > range.end) continue;
      out.append(t_.substr(p, op.line.begin - p));
      SB_ASSIGN_OR_RETURN(std::string lowered, lowerInPlace(m));
      out += lowered;
      p = op.line.end;
    }
    out.append(t_.substr(p, range.end - p));
    return out;
  }

  Result<std::string> lower(const RoundTripManual& m, std::string_view indent) {
    const OpNode& op = tree_.ops[m.op];
    const Block& body = op.regions[0].blocks[0];
    const OpNode& ret = tree_.ops[body.ops.back()];
    OpTypes types = opTypes(tree_, op);
    OpTypes retTypes = opTypes(tree_, ret);
    size_t nIn = op.uses.size(), nOut = static_cast<size_t>(resultCount(op));
    if (types.operands.size() != nIn || types.results.size() != nOut || m.in.size() != nIn ||
        body.arguments.size() != nIn || m.out.size() != nOut || retTypes.results.size() != nOut)
      return makeError(ErrorCode::kParse,
                       "sdy.manual_computation: operands, in_shardings, body arguments, out_shardings and "
                       "results do not match in number",
                       op.nameSpan.begin);
    // The body first: nested manual computations are outlined before this one.
    SB_ASSIGN_OR_RETURN(std::string bodyText, renderRange({tree_.ops[body.ops.front()].line.begin, ret.nameSpan.begin}));
    bodyText += "return";
    bodyText.append(t_.substr(ret.nameSpan.end, ret.line.end - ret.nameSpan.end));
    int module = tree_.enclosingModule(m.op);
    std::string name = bodyNames_.next(module);
    std::string manual = manualAxesAttr(m.manualAxes);
    std::string base = op.resultDefs.empty() ? "shmap" : std::string(op.resultDefs[0].name.in(t_)).substr(1);
    std::vector<std::string> localTypes;
    for (const ValueDef& a : body.arguments) localTypes.push_back(std::string(a.type.in(t_)));

    std::vector<std::string> lines;
    std::string callArgs;
    if (nIn > 0) {
      SB_ASSIGN_OR_RETURN(std::string in, perValue(m.in, module));
      std::string local = names_.next(base + "_local", m.op);
      std::string operands;
      for (size_t i = 0; i < nIn; ++i) operands += (i ? ", " : "") + std::string(op.uses[i].span.in(t_));
      std::string attrs = sortedDict(
          {{"has_side_effect", "true"},
           {std::string(kFrontendAttrs), frontendDict({{"xla.sdy.in_shardings", in}, {"xla.sdy.manual_axes", manual}})}});
      lines.push_back(local + (nIn > 1 ? ":" + std::to_string(nIn) : "") +
                      " = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(" + operands + ") " + attrs + " : " +
                      typeList(types.operands, true) + " -> " + typeList(localTypes, false));
      callArgs = joinValues(local, nIn);
    }
    std::string call = nOut == 0 ? "" : names_.next(base + "_body", m.op);
    lines.push_back((call.empty() ? "" : call + (nOut > 1 ? ":" + std::to_string(nOut) : "") + " = ") + "call @" +
                    name + "(" + callArgs + ") {" + std::string(kFrontendAttrs) +
                    " = {inlineable = \"xla_late\"}} : " + typeList(localTypes, true) + " -> " +
                    typeList(retTypes.results, false));
    if (nOut > 0) {
      SB_ASSIGN_OR_RETURN(std::string out, perValue(m.out, module));
      std::string attrs = sortedDict(
          {{"has_side_effect", "true"},
           {std::string(kFrontendAttrs), frontendDict({{"xla.sdy.manual_axes", manual}, {"xla.sdy.out_shardings", out}})}});
      lines.push_back(std::string(op.results.in(t_)) + " = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(" +
                      joinValues(call, nOut) + ") " + attrs + " : " + typeList(retTypes.results, true) + " -> " +
                      typeList(types.results, false));
    }
    // The outlined body, public, at the end of the module.
    std::string_view moduleIndent = module::moduleIndent(tree_, module);
    std::string fn = std::string(moduleIndent) + "func.func @" + name + "(";
    for (size_t i = 0; i < nIn; ++i)
      fn += (i ? ", " : "") + std::string(body.arguments[i].name.in(t_)) + ": " + localTypes[i];
    fn += ")";
    if (nOut > 0) fn += " -> " + typeList(retTypes.results, false);
    fn += " {\n";
    fn += module_lex::reindent(bodyText, indentationAt(t_, tree_.ops[body.ops.front()].whole.begin),
                   std::string(moduleIndent) + "  ");
    if (fn.back() != '\n') fn += "\n";
    fn += std::string(moduleIndent) + "}\n";
    outlined_[module].push_back(std::move(fn));
    std::string text;
    for (const std::string& l : lines) text += std::string(indent) + l + "\n";
    return text;
  }

  PassContext& ctx_;
  std::string_view t_;
  const OpTree& tree_;
  FreshNames names_;
  bool v3_;
  sdy::Context sctx_;
  std::vector<RoundTripManual> manuals_;
  std::map<std::pair<int, std::string>, sdy::MeshAttr> meshes_;
  BodyNames bodyNames_{tree_, kRoundTripBodyName};
  std::map<int, std::vector<std::string>> outlined_;
};

}  // namespace

Status runRoundTripShardMapExport(PassContext& ctx) {
  RoundTripShardMapExport pass(ctx);
  return pass.run();
}

}  // namespace shardbridge::module
