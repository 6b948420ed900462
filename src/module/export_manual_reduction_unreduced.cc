// The unreduced half of xla-sdy-stablehlo-export-manual-reduction-collectives
// (upstream stablehlo_round_trip/export_manual_reduction_collectives.cc,
// docs/module.md): an unreduced sdy.constant becomes the constant without
// its unreduced axes followed by a replicated-to-unreduced; unreduced axes
// flow back from a transpose, reshape or copy to its operand; and
// sdy.sharded_to_unreduced / sdy.replicated_to_unreduced become fully
// manual computations that compute, from stablehlo.partition_id, the
// device's coordinate along each mesh axis:
//   %1 = sdy.replicated_to_unreduced {"x"} %0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
//   -> %1 = sdy.manual_computation(%0) ... manual_axes={"x"} (%arg: tensor<8xf32>) {
//        ... coordinate of "x" ... stablehlo.compare  EQ, %rem, %c ...
//        %select = stablehlo.select %cmp, %arg, %broadcast : tensor<i1>, tensor<8xf32>
//        sdy.return %select : tensor<8xf32>
//      } : (tensor<8xf32>) -> tensor<8xf32>
// (the value kept on the devices at coordinate 0 of the axes, zero
// elsewhere, so that summing over the axes gives it back).
#include <algorithm>
#include <cctype>
#include <string>

#include "module/export_manual_reduction.h"
#include "module/op_types.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module::manual_reduction {
namespace {

// MLIR's printed zero of a splat `dense<...>` of `element` (upstream's
// Builder::getZeroAttr); nullopt for element types it has none of
// (complex, quantized, ...).
std::optional<std::string> zeroLiteral(std::string_view e) {
  auto digitsFrom = [&](size_t p) {
    return p < e.size() && std::all_of(e.begin() + static_cast<std::ptrdiff_t>(p), e.end(),
                                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  if (e == "i1") return "false";
  if (e == "index" || (e.starts_with("i") && digitsFrom(1)) || (e.starts_with("si") && digitsFrom(2)) ||
      (e.starts_with("ui") && digitsFrom(2)))
    return "0";
  if (e == "bf16" || e == "tf32" || (e.starts_with("f") && e.size() > 1 && std::isdigit(static_cast<unsigned char>(e[1]))))
    return "0.000000e+00";
  return std::nullopt;
}

std::string dims(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

constexpr std::string_view kI32 = "tensor<i32>";

std::string noZero(std::string_view op, const Target& t) {
  return "'" + std::string(op) + "' cannot be lowered: element type '" + t.type.elementType + "' has no zero";
}

}  // namespace

// Walk 1: `%0 = sdy.constant {sdy.sharding = <[<@m, [...], unreduced={"y"}>]>} ...`
// keeps its value as `%0_replicated` without the unreduced axes; `%0` is
// the replicated-to-unreduced after it (lowered by lowerConstant), so every
// use takes it, as upstream's replaceAllUsesExcept does.
Status ReductionExport::splitUnreducedConstant(int i) {
  const OpNode& op = tree_.ops[i];
  const AttrEntry* e = op.dict.find("sdy.sharding");
  if (!e) return okStatus();
  ValueRef self;
  self.op = i;
  SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr old, writtenSharding(self));
  if (!old || old.unreducedAxes().empty()) return okStatus();
  if (op.resultDefs.size() != 1 || resultCount(op) != 1)
    return makeError(ErrorCode::kParse, "expected one result in 'sdy.constant'", op.nameSpan.begin);
  Split split;
  std::vector<sdy::DimensionShardingAttr> dimShardings(old.dimShardings().begin(), old.dimShardings().end());
  std::vector<sdy::AxisRefAttr> rep(old.replicatedAxes().begin(), old.replicatedAxes().end());
  split.replicated = sdy::TensorShardingAttr::get(sctx_, old.meshOrRef(), dimShardings, rep, {}, old.reductionOp());
  split.axes.assign(old.unreducedAxes().begin(), old.unreducedAxes().end());
  split.name = fresh(std::string(op.resultDefs[0].name.in(t_).substr(1)) + "_replicated");
  ctx_.rw.replace(op.resultDefs[0].name, split.name);
  ctx_.rw.replace(e->value, sdy::printTensorShardingPerValue(
                                sdy::TensorShardingPerValueAttr::get(sctx_, std::span(&split.replicated, 1))));
  current_[{i, 0}] = old;  // the replicated-to-unreduced's out-sharding
  split_[i] = std::move(split);
  return okStatus();
}

// Walk 2 (upstream's syncInOutUnreducedAxes): the unreduced axes of a
// transpose's, reshape's or copy's result are given to its operand (a
// value some op defines) when they differ, unless the operand is sharded
// or replicated along one of them (a warning then).
Status ReductionExport::syncUnreduced(int i) {
  const OpNode& op = tree_.ops[i];
  if (op.uses.empty() || op.resultDefs.empty()) return okStatus();
  ValueRef input = resolve(i, op.uses[0]);
  if (!input.isResult()) return okStatus();
  ValueRef self;
  self.op = i;
  SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr out, sharding(self));
  if (!out || out.unreducedAxes().empty()) return okStatus();
  SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr in, sharding(input));
  if (!in) {
    OpTypes types = opTypes(tree_, op);
    std::string type(!types.operands.empty() ? types.operands[0] : types.results.empty() ? std::string_view() : types.results[0]);
    if (type.empty())
      return makeError(ErrorCode::kParse, "expected the operand type of '" + std::string(op.name) + "'",
                       op.nameSpan.begin);
    in = sdy::TensorShardingAttr::getFullyClosed(sctx_, out.meshOrRef(), typeRank(type));
  }
  if (std::equal(in.unreducedAxes().begin(), in.unreducedAxes().end(), out.unreducedAxes().begin(),
                 out.unreducedAxes().end()))
    return okStatus();
  auto overlapping = [&](sdy::AxisRefAttr a) {
    return std::any_of(out.unreducedAxes().begin(), out.unreducedAxes().end(),
                       [&](sdy::AxisRefAttr u) { return sdy::overlaps(a, u); });
  };
  bool overlap = std::any_of(in.replicatedAxes().begin(), in.replicatedAxes().end(), overlapping);
  for (sdy::DimensionShardingAttr d : in.dimShardings())
    overlap = overlap || std::any_of(d.axes().begin(), d.axes().end(), overlapping);
  if (overlap) {
    ctx_.warn(op.nameSpan.begin, "'" + std::string(op.name) +
                                     "' has unreduced axes but its operand is sharded along one of them, which "
                                     "can lead to undefined behavior; the operand's sharding is left as it is");
    return okStatus();
  }
  const OpNode& def = tree_.ops[input.op];
  if (def.name == "sdy.named_computation") {
    ctx_.warn(op.nameSpan.begin, "unreduced axes are not given back to an 'sdy.named_computation' result here");
    return okStatus();
  }
  std::vector<sdy::DimensionShardingAttr> dimShardings(in.dimShardings().begin(), in.dimShardings().end());
  std::vector<sdy::AxisRefAttr> rep(in.replicatedAxes().begin(), in.replicatedAxes().end());
  std::vector<sdy::AxisRefAttr> unreduced(out.unreducedAxes().begin(), out.unreducedAxes().end());
  setSharding(input, sdy::TensorShardingAttr::get(sctx_, in.meshOrRef(), dimShardings, rep, unreduced,
                                                  in.reductionOp()));
  return okStatus();
}

std::map<std::string, std::pair<std::string, std::string>, std::less<>> ReductionExport::coordinates(
    sdy::MeshAttr mesh, const std::string& indent, std::string& body) {
  std::string pid = fresh("pid"), rem = fresh("pid_i32");
  body += indent + pid + " = stablehlo.partition_id : tensor<ui32>\n";
  body += indent + rem + " = stablehlo.convert " + pid + " : (tensor<ui32>) -> tensor<i32>\n";
  std::map<std::string, std::pair<std::string, std::string>, std::less<>> axes;
  for (size_t a = mesh.axes().size(); a-- > 0;) {
    const sdy::MeshAxisAttr& axis = mesh.axes()[a];
    std::string size = fresh("c"), coord = fresh("rem"), next = fresh("div");
    body += indent + size + " = stablehlo.constant dense<" + std::to_string(axis.size()) + "> : tensor<i32>\n";
    body += indent + coord + " = stablehlo.remainder " + rem + ", " + size + " : tensor<i32>\n";
    body += indent + next + " = stablehlo.divide " + rem + ", " + size + " : tensor<i32>\n";
    axes[std::string(axis.name())] = {coord, size};
    rem = next;
  }
  return axes;
}

Result<Body> ReductionExport::replicatedToUnreducedBody(const std::string& arg, const std::vector<int64_t>& local,
                                                         const std::string& indent, const Target& t,
                                                         std::span<const sdy::AxisRefAttr> axes, size_t at) {
  if (axes.empty()) return makeError(ErrorCode::kInvalid, "no axes to make unreduced", at);
  auto zero = zeroLiteral(t.type.elementType);
  if (!zero) return makeError(ErrorCode::kUnsupported, noZero("sdy.replicated_to_unreduced", t), at);
  for (sdy::AxisRefAttr a : axes) {
    if (a.isSubAxis())
      return makeError(ErrorCode::kUnsupported,
                       "sub-axis " + a.toString() + " is not supported in 'sdy.replicated_to_unreduced'", at);
    if (!t.mesh.hasAxis(a.name())) return makeError(ErrorCode::kInvalid, "unknown axis " + a.toString(), at);
  }
  Body b;
  auto coords = coordinates(t.mesh, indent, b.text);
  std::string c0 = fresh("c");
  b.text += indent + c0 + " = stablehlo.constant dense<0> : tensor<i32>\n";
  std::string pred;
  for (sdy::AxisRefAttr a : axes) {
    std::string cmp = fresh("cmp");
    b.text += indent + cmp + " = stablehlo.compare  EQ, " + coords.find(a.name())->second.first + ", " + c0 + " : (" +
              std::string(kI32) + ", " + std::string(kI32) + ") -> tensor<i1>\n";
    if (pred.empty()) {
      pred = cmp;
    } else {
      std::string both = fresh("and");
      b.text += indent + both + " = stablehlo.and " + pred + ", " + cmp + " : tensor<i1>\n";
      pred = both;
    }
  }
  std::string scalar = "tensor<" + t.type.elementType + ">", type = tensorType(local, t.type.elementType);
  std::string cst = fresh("cst"), zeros = fresh("broadcast"), select = fresh("select");
  b.text += indent + cst + " = stablehlo.constant dense<" + *zero + "> : " + scalar + "\n";
  b.text += indent + zeros + " = stablehlo.broadcast " + cst + ", sizes = " + dims(local) + " : (" + scalar + ") -> " +
            type + "\n";
  b.text += indent + select + " = stablehlo.select " + pred + ", " + arg + ", " + zeros + " : tensor<i1>, " + type + "\n";
  b.value = select;
  b.shape = local;
  return b;
}

// Walk 3, for the replicated-to-unreduced walk 1 put after a constant.
Status ReductionExport::lowerConstant(int i) {
  const OpNode& op = tree_.ops[i];
  const Split& split = split_.at(i);
  Target t;
  t.out = current_.at({i, 0});
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  t.outText = sdy::printTensorSharding(t.out, stripped);
  SB_TRY(meshAndType(i, op.nameSpan.begin, t));
  if (t.out.reductionOp() != sdy::ReductionOp::kSum)
    return makeError(ErrorCode::kUnsupported, "an unreduced 'sdy.constant' is lowered only for a sum reduction",
                     op.nameSpan.begin);
  auto body = [&](const std::string& arg, const std::vector<int64_t>& local, const std::string& indent) {
    return replicatedToUnreducedBody(arg, local, indent, t, split.axes, op.nameSpan.begin);
  };
  SB_ASSIGN_OR_RETURN(std::string s, fullyManual(op.results.in(t_), split.name, split.replicated, t,
                                                 op.nameSpan.begin, op.whole.begin, body));
  ctx_.rw.insert(op.whole.end, "\n" + std::string(module_lex::indentationAt(t_, op.whole.begin)) + s);
  return okStatus();
}

Status ReductionExport::lowerToUnreduced(int i) {
  const OpNode& op = tree_.ops[i];
  bool sharded = op.name == "sdy.sharded_to_unreduced";
  size_t at = op.nameSpan.begin;
  SB_ASSIGN_OR_RETURN(Target t, target(i));
  if (t.out.reductionOp() != sdy::ReductionOp::kSum)
    return makeError(ErrorCode::kUnsupported, "'" + std::string(op.name) + "' is lowered only for a sum reduction", at);
  sdy::ReductionOp kind;
  SB_ASSIGN_OR_RETURN(auto axes, axesOf(op, kind));
  SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr in, sharding(resolve(i, op.uses[0])));
  BodyFn body;
  if (!sharded) {
    if (!in) in = missingInSharding(t);
    body = [&](const std::string& arg, const std::vector<int64_t>& local, const std::string& indent) {
      return replicatedToUnreducedBody(arg, local, indent, t, axes.empty() ? std::span<const sdy::AxisRefAttr>()
                                                                        : std::span<const sdy::AxisRefAttr>(axes[0]),
                                       at);
    };
  } else {
    // Upstream maps partition ids to mesh coordinates only for an iota device order.
    if (!t.mesh.deviceIds().empty())
      return makeError(ErrorCode::kUnsupported,
                       "'sdy.sharded_to_unreduced' is lowered only on a mesh without device_ids", at);
    if (!in) return makeError(ErrorCode::kInvalid, "the operand of 'sdy.sharded_to_unreduced' has no sharding", at);
    if (axes.size() != t.type.shape.size())
      return makeError(ErrorCode::kInvalid, "the axes of 'sdy.sharded_to_unreduced' differ in rank from its type", at);
    for (const auto& d : axes)
      for (sdy::AxisRefAttr a : d) {
        if (a.isSubAxis())
          return makeError(ErrorCode::kUnsupported,
                           "sub-axis " + a.toString() + " is not supported in 'sdy.sharded_to_unreduced'", at);
        if (!t.mesh.hasAxis(a.name())) return makeError(ErrorCode::kInvalid, "unknown axis " + a.toString(), at);
      }
    auto zero = zeroLiteral(t.type.elementType);
    if (!zero) return makeError(ErrorCode::kUnsupported, noZero("sdy.sharded_to_unreduced", t), at);
    SB_ASSIGN_OR_RETURN(std::vector<int64_t> outLocal, localShape(t.out, t, at));
    // A zero tensor of the result's local shape, the operand's shard
    // written into it at the offset its coordinates along `axes` give.
    body = [&, outLocal, zero](const std::string& arg, const std::vector<int64_t>& local,
                               const std::string& indent) -> Result<Body> {
      Body b;
      std::string scalar = "tensor<" + t.type.elementType + ">", type = tensorType(outLocal, t.type.elementType);
      std::string cst = fresh("cst"), zeros = fresh("broadcast");
      b.text += indent + cst + " = stablehlo.constant dense<" + *zero + "> : " + scalar + "\n";
      b.text += indent + zeros + " = stablehlo.broadcast " + cst + ", sizes = " + dims(outLocal) + " : (" + scalar +
                ") -> " + type + "\n";
      auto coords = coordinates(t.mesh, indent, b.text);
      std::string c0 = fresh("c");
      b.text += indent + c0 + " = stablehlo.constant dense<0> : tensor<i32>\n";
      std::vector<std::string> offsets;
      for (size_t d = 0; d < axes.size(); ++d) {
        if (axes[d].empty()) {
          offsets.push_back(c0);
          continue;
        }
        std::string offset, prevSize;
        for (sdy::AxisRefAttr a : axes[d]) {
          const auto& [coord, size] = coords.find(a.name())->second;
          if (prevSize.empty()) {
            offset = coord;
          } else {
            std::string mul = fresh("mul"), add = fresh("add");
            b.text += indent + mul + " = stablehlo.multiply " + offset + ", " + prevSize + " : tensor<i32>\n";
            b.text += indent + add + " = stablehlo.add " + mul + ", " + coord + " : tensor<i32>\n";
            offset = add;
          }
          prevSize = size;
        }
        std::string dimSize = fresh("c"), mul = fresh("mul");
        b.text += indent + dimSize + " = stablehlo.constant dense<" + std::to_string(local[d]) + "> : tensor<i32>\n";
        b.text += indent + mul + " = stablehlo.multiply " + offset + ", " + dimSize + " : tensor<i32>\n";
        offsets.push_back(mul);
      }
      std::string dus = fresh("dynamic_update_slice");
      b.text += indent + dus + " = stablehlo.dynamic_update_slice " + zeros + ", " + arg;
      for (const std::string& o : offsets) b.text += ", " + o;
      b.text += " : (" + type + ", " + tensorType(local, t.type.elementType);
      for (size_t d = 0; d < offsets.size(); ++d) b.text += ", " + std::string(kI32);
      b.text += ") -> " + type + "\n";
      b.value = dus;
      b.shape = outLocal;
      return b;
    };
  }
  SB_ASSIGN_OR_RETURN(std::string s, fullyManual(op.results.in(t_), op.uses[0].span.in(t_), in, t, at,
                                                 op.whole.begin, body));
  ctx_.rw.replace(op.whole, std::move(s));
  replaced_.insert(i);
  return okStatus();
}

}  // namespace shardbridge::module::manual_reduction
