// xla-sdy-stablehlo-export-manual-reduction-collectives (upstream
// xla/service/spmd/shardy/stablehlo_round_trip/
// export_manual_reduction_collectives.cc, docs/module.md): the reductions
// the partitioner cannot do on its own become explicit collectives inside a
// fully manual sdy.manual_computation, which the shard-map export lowers
// afterwards:
//   %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
//     (%0 sharded <@mesh, [{"y"}, {}], unreduced={"x"}>)
//   -> %1 = sdy.manual_computation(%0) in_shardings=[<%0's sharding>]
//          out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%a: tensor<4x8xf32>) {
//        %r = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
//               replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
//        ^bb0(%l: tensor<f32>, %m: tensor<f32>): ... stablehlo.add ... }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//        sdy.return %r : tensor<4x8xf32>
//      } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// Lowered: an sdy.all_reduce whose input has unreduced axes; an
// sdy.reduce_scatter whose input has unreduced axes, or every one with
// export-all-reduce-scatter. Channel handles continue after the largest one
// in the module, one per collective, in op order. Not done here (left as
// they are, with a warning): sdy.sharded_to_unreduced,
// sdy.replicated_to_unreduced, unreduced sdy.constant, and upstream's
// backward propagation of unreduced axes through transpose/reshape/copy.
#include <algorithm>
#include <map>

#include "module/op_types.h"
#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using module_lex::skipBalanced;
using module_lex::skipBlanks;

// Shardy's replica groups for `reduction` on `mesh`
// (shardy/dialect/sdy/ir/utils.cc getReplicaGroups): the devices laid out
// over the mesh axes, each split into the sub-axes the reduction names;
// transposed so that the other pieces come first, in mesh order, then the
// reduction axes in their listed order; cut into rows of the reduction size.
Result<std::vector<std::vector<int64_t>>> replicaGroups(sdy::MeshAttr mesh,
                                                        std::span<const sdy::AxisRefAttr> reduction) {
  struct Piece {
    size_t axis;
    int64_t pre, size;
    int64_t stride = 1;
  };
  std::vector<Piece> pieces;
  for (size_t a = 0; a < mesh.axes().size(); ++a) {
    std::string_view name = mesh.axes()[a].name();
    int64_t full = mesh.axes()[a].size();
    std::vector<int64_t> cuts{1, full};
    for (sdy::AxisRefAttr r : reduction) {
      if (r.name() != name || !r.isSubAxis()) continue;
      cuts.push_back(r.getSubAxisPreSize());
      cuts.push_back(r.getSubAxisPreSize() * r.subAxisInfo().size());
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
      if (cuts[k + 1] % cuts[k] != 0)
        return makeError(ErrorCode::kInvalid, "sub-axis sizes do not divide axis \"" + std::string(name) + "\"");
      pieces.push_back({a, cuts[k], cuts[k + 1] / cuts[k]});
    }
  }
  // Strides in the mesh's row-major device array (minor pieces last).
  int64_t stride = 1;
  for (size_t k = pieces.size(); k-- > 0;) {
    pieces[k].stride = stride;
    stride *= pieces[k].size;
  }
  int64_t total = stride;
  auto inReduction = [&](const Piece& p, sdy::AxisRefAttr r) {
    if (r.name() != mesh.axes()[p.axis].name()) return false;
    if (!r.isSubAxis()) return true;
    int64_t pre = r.getSubAxisPreSize();
    return p.pre >= pre && p.pre < pre * r.subAxisInfo().size();
  };
  std::vector<const Piece*> order;
  for (const Piece& p : pieces) {
    bool reduced = false;
    for (sdy::AxisRefAttr r : reduction) reduced |= inReduction(p, r);
    if (!reduced) order.push_back(&p);
  }
  int64_t groupSize = 1;
  for (sdy::AxisRefAttr r : reduction) {
    bool found = false;
    for (const Piece& p : pieces) {
      if (!inReduction(p, r)) continue;
      order.push_back(&p);
      groupSize *= p.size;
      found = true;
    }
    if (!found) return makeError(ErrorCode::kInvalid, "unknown axis " + r.toString() + " in the reduction");
  }
  std::vector<int64_t> ids(mesh.deviceIds().begin(), mesh.deviceIds().end());
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> index(order.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t linear = 0;
    for (size_t k = 0; k < order.size(); ++k) linear += index[k] * order[k]->stride;
    if (n % groupSize == 0) groups.emplace_back();
    groups.back().push_back(ids.empty() ? linear : ids[static_cast<size_t>(linear)]);
    for (size_t k = order.size(); k-- > 0;) {
      if (++index[k] < order[k]->size) break;
      index[k] = 0;
    }
  }
  return groups;
}

std::string denseGroups(const std::vector<std::vector<int64_t>>& groups) {
  std::string s = "dense<[";
  for (size_t g = 0; g < groups.size(); ++g) {
    s += g ? ", [" : "[";
    for (size_t k = 0; k < groups[g].size(); ++k) s += (k ? ", " : "") + std::to_string(groups[g][k]);
    s += "]";
  }
  return s + "]> : tensor<" + std::to_string(groups.size()) + "x" +
         std::to_string(groups.empty() ? 0 : groups[0].size()) + "xi64>";
}

std::string tensorType(const std::vector<int64_t>& shape, std::string_view element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + std::string(element) + ">";
}

class ReductionExport {
 public:
  explicit ReductionExport(PassContext& ctx)
      : ctx_(ctx), t_(ctx.text()), tree_(ctx.tree), names_(ctx.tree), all_(ctx.flag("export-all-reduce-scatter")) {}

  Status run() {
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& op = tree_.ops[i];
      if (op.name == "sdy.mesh") {
        auto mesh = sdy::parseMeshSymbol(sctx_, meshOpText(t_, op));
        if (mesh) meshes_[{tree_.enclosingModule(i), mesh->name}] = mesh->mesh;
      } else if (op.name == "sdy.all_reduce" || op.name == "sdy.reduce_scatter") {
        SB_TRY(lower(i));
      } else if (op.name == "sdy.sharded_to_unreduced" || op.name == "sdy.replicated_to_unreduced") {
        ctx_.warn(op.nameSpan.begin, "'" + std::string(op.name) + "' is not lowered by shardbridge yet; left as it is");
      }
      for (const ValueDef& r : op.resultDefs) defs_[r.name.in(t_)] = i;
    }
    return okStatus();
  }

 private:
  // The channel handle after the largest one in `module` (1 when none).
  int64_t nextChannel(int module) {
    auto it = next_.find(module);
    if (it != next_.end()) return it->second++;
    TextSpan span = module < 0 ? TextSpan{0, t_.size()} : tree_.ops[module].whole;
    int64_t max = 0;
    constexpr std::string_view kKey = "#stablehlo.channel_handle<handle = ";
    for (size_t p = t_.find(kKey, span.begin); p != std::string_view::npos && p < span.end; p = t_.find(kKey, p + 1)) {
      int64_t v = 0;
      for (size_t q = p + kKey.size(); q < t_.size() && t_[q] >= '0' && t_[q] <= '9' && v < (int64_t{1} << 50); ++q)
        v = v * 10 + (t_[q] - '0');
      max = std::max(max, v);
    }
    next_[module] = max + 2;
    return max + 1;
  }

  // The sharding of value `use`: its defining op's `sdy.sharding` (the
  // value's entry) or its function argument's; null when it has none.
  Result<sdy::TensorShardingAttr> shardingOf(int at, const ValueUse& use) {
    auto it = defs_.find(use.name);
    if (it != defs_.end()) {
      const OpNode& def = tree_.ops[it->second];
      const AttrEntry* e = def.dict.find("sdy.sharding");
      if (!e) return sdy::TensorShardingAttr();
      auto parsed = sdy::parseTensorShardingPerValue(sctx_, e->value.in(t_));
      if (!parsed) return parsed.error().shifted(e->value.begin);
      int index = use.index;
      for (const ValueDef& r : def.resultDefs) {
        if (r.name.in(t_) == use.name) break;
        index += r.count;
      }
      if (index < 0 || static_cast<size_t>(index) >= parsed->shardings().size()) return sdy::TensorShardingAttr();
      return parsed->shardings()[static_cast<size_t>(index)];
    }
    int func = tree_.enclosingFunc(at);
    if (func < 0) return sdy::TensorShardingAttr();
    for (const ValueDef& a : tree_.ops[func].funcArgs) {
      if (a.name.in(t_) != use.name) continue;
      const AttrEntry* e = a.dict.find("sdy.sharding");
      if (!e) return sdy::TensorShardingAttr();
      auto parsed = sdy::parseTensorSharding(sctx_, e->value.in(t_));
      if (!parsed) return parsed.error().shifted(e->value.begin);
      return *parsed;
    }
    return sdy::TensorShardingAttr();
  }

  // `{"x", "y":(2)3}` (all_reduce) or `[{}, {"x"}]` (reduce_scatter) after
  // the op name and its optional reduction kind, read through the sdy parser.
  Result<std::vector<std::vector<sdy::AxisRefAttr>>> axesOf(const OpNode& op, sdy::ReductionOp& kind) {
    size_t p = skipBlanks(t_, op.nameSpan.end);
    kind = sdy::ReductionOp::kSum;
    for (auto [word, k] : {std::pair{"max", sdy::ReductionOp::kMax}, std::pair{"min", sdy::ReductionOp::kMin},
                           std::pair{"sum", sdy::ReductionOp::kSum}}) {
      std::string_view w(word);
      if (t_.substr(p, w.size()) == w && p + w.size() < t_.size() && module_lex::isBlank(t_[p + w.size()])) {
        kind = k;
        p = skipBlanks(t_, p + w.size());
      }
    }
    bool list = op.name == "sdy.reduce_scatter";
    if (p >= t_.size() || t_[p] != (list ? '[' : '{'))
      return makeError(ErrorCode::kParse, std::string("expected '") + (list ? "[" : "{") + "' in '" +
                                              std::string(op.name) + "'", p);
    SB_ASSIGN_OR_RETURN(size_t e, skipBalanced(t_, p));
    std::string text = "<@m, " + (list ? std::string(t_.substr(p, e - p)) : "[" + std::string(t_.substr(p, e - p)) + "]") + ">";
    auto parsed = sdy::parseTensorSharding(sctx_, text);
    if (!parsed) return makeError(ErrorCode::kParse, "malformed axes: " + parsed.error().message, p);
    std::vector<std::vector<sdy::AxisRefAttr>> dims;
    for (sdy::DimensionShardingAttr d : parsed->dimShardings()) dims.emplace_back(d.axes().begin(), d.axes().end());
    return dims;
  }

  Status lower(int i);

  std::string reducer(sdy::ReductionOp kind, std::string_view element, const std::string& indent) {
    std::string scalar = "tensor<" + std::string(element) + ">";
    std::string a = names_.next("arg"), b = names_.next("arg"), r = names_.next("red");
    const char* op = kind == sdy::ReductionOp::kMax ? "stablehlo.maximum"
                     : kind == sdy::ReductionOp::kMin ? "stablehlo.minimum" : "stablehlo.add";
    return indent + "^bb0(" + a + ": " + scalar + ", " + b + ": " + scalar + "):\n" + indent + "  " + r + " = " + op +
           " " + a + ", " + b + " : " + scalar + "\n" + indent + "  stablehlo.return " + r + " : " + scalar + "\n";
  }

  PassContext& ctx_;
  std::string_view t_;
  const OpTree& tree_;
  FreshNames names_;
  bool all_;
  sdy::Context sctx_;
  std::map<std::pair<int, std::string>, sdy::MeshAttr> meshes_;
  std::map<std::string_view, int> defs_;  // value name -> defining op (seen so far)
  std::map<int, int64_t> next_;
};

Status ReductionExport::lower(int i) {
  const OpNode& op = tree_.ops[i];
  bool scatter = op.name == "sdy.reduce_scatter";
  if (op.uses.empty() || op.resultDefs.size() != 1)
    return makeError(ErrorCode::kParse, "expected one operand and one result in '" + std::string(op.name) + "'",
                     op.nameSpan.begin);
  SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr in, shardingOf(i, op.uses[0]));
  bool unreduced = in && !in.unreducedAxes().empty();
  if (!unreduced && !(scatter && all_)) return okStatus();  // export-ops handles it
  SB_ASSIGN_OR_RETURN(TextSpan outSpan, opShardingSpan(t_, op));
  auto out = sdy::parseTensorSharding(sctx_, outSpan.in(t_));
  if (!out) return out.error().shifted(outSpan.begin);
  if (!out->meshOrRef().isRef())
    return makeError(ErrorCode::kUnsupported, "an inlined mesh in '" + std::string(op.name) + "' is not supported here",
                     outSpan.begin);
  int module = tree_.enclosingModule(i);
  auto mit = meshes_.find({module, std::string(out->meshOrRef().refName())});
  if (mit == meshes_.end())
    return makeError(ErrorCode::kNotFound, "unknown mesh: @" + std::string(out->meshOrRef().refName()), outSpan.begin);
  sdy::MeshAttr mesh = mit->second;
  OpTypes types = opTypes(tree_, op);
  std::optional<MlirType> type;
  if (types.known && types.results.size() == 1) {
    auto parsed = parseMlirType(types.results[0]);
    if (parsed && parsed->kind == MlirType::Kind::kRankedTensor) type = *parsed;
  }
  if (!type || std::count(type->shape.begin(), type->shape.end(), MlirType::kDynamic))
    return makeError(ErrorCode::kUnsupported,
                     "'" + std::string(op.name) + "' needs a static tensor type to be lowered", op.nameSpan.begin);
  sdy::ReductionOp kind;
  SB_ASSIGN_OR_RETURN(auto axes, axesOf(op, kind));
  if (!in) in = sdy::TensorShardingAttr::getFullyClosed(sctx_, out->meshOrRef(), type->rank());
  if (scatter) {
    // The input is unreduced over every axis the reduce-scatter reduces.
    std::vector<sdy::AxisRefAttr> u(in.unreducedAxes().begin(), in.unreducedAxes().end());
    for (const auto& d : axes)
      for (sdy::AxisRefAttr a : d)
        if (std::find(u.begin(), u.end(), a) == u.end()) u.push_back(a);
    sdy::sortAndMergeAxes(sctx_, u, mesh);
    std::vector<sdy::DimensionShardingAttr> dims(in.dimShardings().begin(), in.dimShardings().end());
    std::vector<sdy::AxisRefAttr> rep(in.replicatedAxes().begin(), in.replicatedAxes().end());
    in = sdy::TensorShardingAttr::get(sctx_, in.meshOrRef(), dims, rep, u, in.reductionOp());
  }
  if (in.dimShardings().size() != type->shape.size())
    return makeError(ErrorCode::kInvalid, "the input sharding's rank differs from the type's", op.uses[0].span.begin);
  // The local shape: each dim divided by its sharding's size.
  std::vector<int64_t> local = type->shape;
  for (size_t d = 0; d < local.size(); ++d) {
    auto size = in.dimShardings()[d].getShardedSize(mesh);
    if (!size || *size == 0 || local[d] % *size != 0)
      return makeError(ErrorCode::kInvalid, "dimension " + std::to_string(d) + " does not divide evenly",
                       op.nameSpan.begin);
    local[d] /= *size;
  }
  std::string indent(module_lex::indentationAt(t_, op.whole.begin));
  std::string arg = names_.next("arg");
  std::vector<std::string> manual;
  for (const sdy::MeshAxisAttr& a : mesh.axes()) manual.push_back("\"" + std::string(a.name()) + "\"");
  std::string manualAxes;
  for (size_t k = 0; k < manual.size(); ++k) manualAxes += (k ? ", " : "") + manual[k];
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  std::string s = std::string(op.results.in(t_)) + " = sdy.manual_computation(" +
                  std::string(op.uses[0].span.in(t_)) + ") in_shardings=[" + sdy::printTensorSharding(in, stripped) +
                  "] out_shardings=[" + std::string(outSpan.in(t_)) + "] manual_axes={" + manualAxes + "} (" + arg +
                  ": " + tensorType(local, type->elementType) + ") {\n";
  std::string value = arg;
  std::vector<int64_t> shape = local;
  std::string inner = indent + "  ";
  auto collective = [&](std::span<const sdy::AxisRefAttr> reduction, std::optional<size_t> dim) -> Status {
    SB_ASSIGN_OR_RETURN(auto groups, replicaGroups(mesh, reduction));
    std::vector<int64_t> after = shape;
    if (dim) after[*dim] /= static_cast<int64_t>(groups.empty() ? 1 : groups[0].size());
    std::string r = names_.next(dim ? "reduce_scatter" : "all_reduce");
    s += inner + r + " = \"stablehlo." + (dim ? "reduce_scatter" : "all_reduce") + "\"(" + value +
         ") <{channel_handle = #stablehlo.channel_handle<handle = " + std::to_string(nextChannel(module)) +
         ", type = 1>, replica_groups = " + denseGroups(groups) +
         (dim ? ", scatter_dimension = " + std::to_string(*dim) + " : i64" : "") + ", use_global_device_ids}> ({\n" +
         reducer(kind, type->elementType, inner) + inner + "}) : (" + tensorType(shape, type->elementType) + ") -> " +
         tensorType(after, type->elementType) + "\n";
    value = r;
    shape = after;
    return okStatus();
  };
  if (scatter) {
    for (size_t d = 0; d < axes.size(); ++d)
      if (!axes[d].empty()) SB_TRY(collective(axes[d], d));
  } else {
    SB_TRY(collective(axes.empty() ? std::span<const sdy::AxisRefAttr>() : std::span<const sdy::AxisRefAttr>(axes[0]),
                      std::nullopt));
  }
  std::string global = tensorType(type->shape, type->elementType);
  s += inner + "sdy.return " + value + " : " + tensorType(shape, type->elementType) + "\n" + indent + "} : (" + global +
       ") -> " + global;
  ctx_.rw.replace(op.whole, std::move(s));
  return okStatus();
}

}  // namespace

Status runExportManualReductionCollectives(PassContext& ctx) { return ReductionExport(ctx).run(); }

}  // namespace shardbridge::module
