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
// Three walks, as upstream's: unreduced sdy.constant split into a constant
// and an sdy.replicated_to_unreduced (export_manual_reduction_unreduced.cc);
// the backward unreduced sync through transpose / reshape / copy (same
// file); then the lowerings, in op order: an sdy.all_reduce whose input has
// unreduced axes; an sdy.reduce_scatter whose input has unreduced axes, or
// every one with export-all-reduce-scatter (this file); every
// sdy.sharded_to_unreduced and sdy.replicated_to_unreduced (the other
// file). Channel handles continue after the largest one in the module, one
// per collective, in op order.
#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "module/export_manual_reduction.h"
#include "module/manual_computation.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::module::manual_reduction {
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
      // The reduction's axis list is not verified against the mesh before
      // this: a pre-size or size below 1, or a product past the axis, is an
      // error here rather than a division by zero or an overflow below.
      int64_t pre = r.getSubAxisPreSize(), size = r.subAxisInfo().size(), next = 0;
      if (pre < 1 || size < 1 || __builtin_mul_overflow(pre, size, &next) || next > full)
        return makeError(ErrorCode::kInvalid, "sub-axis \"" + std::string(name) + "\":(" + std::to_string(pre) + ")" +
                                                  std::to_string(size) + " does not fit axis \"" + std::string(name) +
                                                  "\" of size " + std::to_string(full));
      cuts.push_back(pre);
      cuts.push_back(next);
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

bool isSync(std::string_view name) {
  return name == "stablehlo.transpose" || name == "stablehlo.reshape" || name == "mhlo.copy";
}

}  // namespace

std::string tensorType(const std::vector<int64_t>& shape, std::string_view element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + std::string(element) + ">";
}

ReductionExport::ReductionExport(PassContext& ctx)
    : ctx_(ctx), t_(ctx.text()), tree_(ctx.tree), names_(ctx.tree), all_(ctx.flag("export-all-reduce-scatter")) {}

Status ReductionExport::run() {
  // One walk of the ops picks out what the steps below visit: the op array
  // is the largest thing in memory, and a walk of it per step cost more than
  // the steps on a module with nothing to lower.
  std::vector<int> constants, syncs, lowered;
  for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
    const OpNode& op = tree_.ops[i];
    std::string_view name = op.name;
    if (name == "sdy.mesh") {
      auto mesh = sdy::parseMeshSymbol(sctx_, meshOpText(t_, op));
      if (mesh) meshes_[{tree_.enclosingModule(i), mesh->name}] = mesh->mesh;
    } else if (name == "sdy.constant") {
      constants.push_back(i);
    } else if (isSync(name)) {
      syncs.push_back(i);
    } else if (name == "sdy.all_reduce" || name == "sdy.reduce_scatter" || name == "sdy.sharded_to_unreduced" ||
               name == "sdy.replicated_to_unreduced") {
      lowered.push_back(i);
    }
  }
  for (int i : constants) {
    at_ = i;
    SB_TRY(splitUnreducedConstant(i));
  }
  // Upstream walks post-order with reversed iterators: the reverse of text
  // order (every op after the ops nested in it), so a chain syncs end to start.
  for (auto it = syncs.rbegin(); it != syncs.rend(); ++it) {
    at_ = *it;
    SB_TRY(syncUnreduced(*it));
  }
  // The lowerings in text order: the collectives and the split constants.
  std::vector<int> split;
  for (int i : constants)
    if (split_.count(i)) split.push_back(i);
  std::vector<int> order;
  std::merge(lowered.begin(), lowered.end(), split.begin(), split.end(), std::back_inserter(order));
  for (int i : order) {
    at_ = i;
    std::string_view name = tree_.ops[i].name;
    if (name == "sdy.all_reduce" || name == "sdy.reduce_scatter") {
      SB_TRY(lowerCollective(i));
    } else if (name == "sdy.sharded_to_unreduced" || name == "sdy.replicated_to_unreduced") {
      SB_TRY(lowerToUnreduced(i));
    } else {
      SB_TRY(lowerConstant(i));
    }
  }
  return flush();
}

void ReductionExport::buildDefs() const {
  defsBuilt_ = true;
  for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
    const OpNode& op = tree_.ops[i];
    if (op.resultDefs.empty()) continue;
    int func = tree_.enclosingFunc(i);
    for (const ResultDef& r : op.resultDefs) defs_[{func, r.name.in(t_)}].push_back(i);
  }
}

ValueRef ReductionExport::resolve(int at, const ValueUse& use) const {
  if (!defsBuilt_) buildDefs();
  ValueRef v;
  v.func = tree_.enclosingFunc(at);
  auto it = defs_.find({v.func, use.name});
  if (it != defs_.end()) {
    // The latest definition before the use (sibling regions may reuse a name).
    auto d = std::lower_bound(it->second.begin(), it->second.end(), at);
    if (d != it->second.begin()) {
      v.op = *std::prev(d);
      v.pos = use.index;
      for (const ResultDef& r : tree_.ops[v.op].resultDefs) {
        if (r.name.in(t_) == use.name) break;
        v.pos += r.count;
      }
      return v;
    }
  }
  if (v.func >= 0) {
    const TreeVec<ValueDef>& args = tree_.ops[v.func].funcArgs();
    for (size_t a = 0; a < args.size(); ++a)
      if (args[a].name.in(t_) == use.name) v.funcArg = static_cast<int>(a);
  }
  return v;
}

Result<sdy::TensorShardingAttr> ReductionExport::sharding(const ValueRef& v) {
  if (v.isResult()) {
    auto it = current_.find({v.op, v.pos});
    if (it != current_.end()) return it->second;
  }
  return writtenSharding(v);
}

// Upstream's sdy::getSharding: a function argument's `sdy.sharding`; the
// sharding of a constraint, reshard or collective; a manual computation's
// out-sharding; else the op's `sdy.sharding` entry for the result. Other
// block arguments (and named computations, which export-ops does not see)
// have none here.
Result<sdy::TensorShardingAttr> ReductionExport::writtenSharding(const ValueRef& v) {
  auto parse = [&](TextSpan span) -> Result<sdy::TensorShardingAttr> {
    auto parsed = sdy::parseTensorSharding(sctx_, span.in(t_));
    if (!parsed) return parsed.error().shifted(span.begin);
    return *parsed;
  };
  if (!v.isResult()) {
    if (v.funcArg < 0) return sdy::TensorShardingAttr();
    const AttrEntry* e = tree_.ops[v.func].funcArgs()[static_cast<size_t>(v.funcArg)].dict.find("sdy.sharding");
    if (!e) return sdy::TensorShardingAttr();
    return parse(e->value);
  }
  const OpNode& def = tree_.ops[v.op];
  if (def.name == "sdy.sharding_constraint" || def.name == "sdy.reshard" || isSdyCollective(def.name)) {
    SB_ASSIGN_OR_RETURN(TextSpan span, opShardingSpan(t_, def));
    return parse(span);
  }
  if (def.name == "sdy.manual_computation") {
    SB_ASSIGN_OR_RETURN(ManualComputationParts parts, readManualComputation(t_, def));
    if (v.pos < 0 || static_cast<size_t>(v.pos) >= parts.out.size()) return sdy::TensorShardingAttr();
    return parse(parts.out[static_cast<size_t>(v.pos)]);
  }
  if (def.name == "sdy.named_computation") return sdy::TensorShardingAttr();
  const AttrEntry* e = def.dict.find("sdy.sharding");
  if (!e) return sdy::TensorShardingAttr();
  auto parsed = sdy::parseTensorShardingPerValue(sctx_, e->value.in(t_));
  if (!parsed) return parsed.error().shifted(e->value.begin);
  if (v.pos < 0 || static_cast<size_t>(v.pos) >= parsed->shardings().size()) return sdy::TensorShardingAttr();
  return parsed->shardings()[static_cast<size_t>(v.pos)];
}

Result<Target> ReductionExport::target(int i) {
  const OpNode& op = tree_.ops[i];
  if (op.uses.empty() || op.resultDefs.size() != 1 || resultCount(op) != 1)
    return makeError(ErrorCode::kParse, "expected one operand and one result in '" + std::string(op.name) + "'",
                     op.nameSpan.begin);
  SB_ASSIGN_OR_RETURN(TextSpan outSpan, opShardingSpan(t_, op));
  Target t;
  ValueRef self;
  self.op = i;
  SB_ASSIGN_OR_RETURN(t.out, sharding(self));
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  t.outText = current_.count({i, 0}) ? sdy::printTensorSharding(t.out, stripped) : std::string(outSpan.in(t_));
  SB_TRY(meshAndType(i, outSpan.begin, t));
  return t;
}

Status ReductionExport::meshAndType(int i, size_t at, Target& t) {
  const OpNode& op = tree_.ops[i];
  t.module = tree_.enclosingModule(i);
  if (t.out.meshOrRef().isInline()) {
    t.mesh = t.out.meshOrRef().inlineMeshAttr();
  } else {
    auto mit = meshes_.find({t.module, std::string(t.out.meshOrRef().refName())});
    if (mit == meshes_.end())
      return makeError(ErrorCode::kNotFound, "unknown mesh: @" + std::string(t.out.meshOrRef().refName()), at);
    t.mesh = mit->second;
  }
  // The meshes are read, not verified, before this: an axis of size 0 would
  // divide by zero in the replica groups (mlir_passes_fuzz, UBSan).
  if (Status valid = sdy::verifyMesh(t.mesh); !valid) {
    Error e = std::move(valid).error();
    e.dropOffsets();
    e.offset = at;
    return e;
  }
  OpTypes types = opTypes(tree_, op);
  std::optional<MlirType> type;
  if (types.known && types.results.size() == 1) {
    auto parsed = parseMlirType(types.results[0]);
    if (parsed && parsed->kind == MlirType::Kind::kRankedTensor) type = *parsed;
  }
  if (!type || std::count(type->shape.begin(), type->shape.end(), MlirType::kDynamic))
    return makeError(ErrorCode::kUnsupported,
                     "'" + std::string(op.name) + "' needs a static tensor type to be lowered", op.nameSpan.begin);
  t.type = *type;
  return okStatus();
}

Result<std::vector<std::vector<sdy::AxisRefAttr>>> ReductionExport::axesOf(const OpNode& op, sdy::ReductionOp& kind) {
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
  bool list = op.name == "sdy.reduce_scatter" || op.name == "sdy.sharded_to_unreduced";
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

Result<std::vector<int64_t>> ReductionExport::localShape(sdy::TensorShardingAttr s, const Target& t, size_t at) {
  if (s.dimShardings().size() != t.type.shape.size())
    return makeError(ErrorCode::kInvalid, "the sharding's rank differs from the type's", at);
  std::vector<int64_t> local = t.type.shape;
  for (size_t d = 0; d < local.size(); ++d) {
    auto size = s.dimShardings()[d].getShardedSize(t.mesh);
    if (!size || *size == 0 || local[d] % *size != 0)
      return makeError(ErrorCode::kInvalid, "dimension " + std::to_string(d) + " does not divide evenly", at);
    local[d] /= *size;
  }
  return local;
}

Result<std::string> ReductionExport::fullyManual(std::string_view results, std::string_view operand,
                                                 sdy::TensorShardingAttr in, const Target& t, size_t at,
                                                 size_t indentAt, const BodyFn& body) {
  SB_ASSIGN_OR_RETURN(std::vector<int64_t> local, localShape(in, t, at));
  std::string indent(module_lex::indentationAt(t_, indentAt));
  std::string arg = fresh("arg");
  std::string manualAxes;
  for (const sdy::MeshAxisAttr& a : t.mesh.axes()) manualAxes += (manualAxes.empty() ? "\"" : ", \"") + std::string(a.name()) + "\"";
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  std::string s = std::string(results) + " = sdy.manual_computation(" + std::string(operand) + ") in_shardings=[" +
                  sdy::printTensorSharding(in, stripped) + "] out_shardings=[" + t.outText + "] manual_axes={" +
                  manualAxes + "} (" + arg + ": " + tensorType(local, t.type.elementType) + ") {\n";
  std::string inner = indent + "  ";
  SB_ASSIGN_OR_RETURN(Body b, body(arg, local, inner));
  std::string global = tensorType(t.type.shape, t.type.elementType);
  return s + b.text + inner + "sdy.return " + b.value + " : " + tensorType(b.shape, t.type.elementType) + "\n" +
         indent + "} : (" + global + ") -> " + global;
}

// The channel handle after the largest one in `module` (1 when none).
int64_t ReductionExport::nextChannel(int module) {
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

std::string ReductionExport::reducer(sdy::ReductionOp kind, std::string_view element, const std::string& indent) {
  std::string scalar = "tensor<" + std::string(element) + ">";
  std::string a = fresh("arg"), b = fresh("arg"), r = fresh("red");
  const char* op = kind == sdy::ReductionOp::kMax ? "stablehlo.maximum"
                   : kind == sdy::ReductionOp::kMin ? "stablehlo.minimum" : "stablehlo.add";
  return indent + "^bb0(" + a + ": " + scalar + ", " + b + ": " + scalar + "):\n" + indent + "  " + r + " = " + op +
         " " + a + ", " + b + " : " + scalar + "\n" + indent + "  stablehlo.return " + r + " : " + scalar + "\n";
}

Status ReductionExport::lowerCollective(int i) {
  const OpNode& op = tree_.ops[i];
  bool scatter = op.name == "sdy.reduce_scatter";
  if (op.uses.empty())
    return makeError(ErrorCode::kParse, "expected one operand and one result in '" + std::string(op.name) + "'",
                     op.nameSpan.begin);
  SB_ASSIGN_OR_RETURN(sdy::TensorShardingAttr in, sharding(resolve(i, op.uses[0])));
  bool unreduced = in && !in.unreducedAxes().empty();
  if (!unreduced && !(scatter && all_)) return okStatus();  // export-ops handles it
  SB_ASSIGN_OR_RETURN(Target t, target(i));
  sdy::ReductionOp kind;
  SB_ASSIGN_OR_RETURN(auto axes, axesOf(op, kind));
  if (!in) in = missingInSharding(t);
  if (scatter) {
    // Upstream replaces the input's unreduced axes by the scattered ones,
    // sorted and merged.
    std::vector<sdy::AxisRefAttr> u;
    for (const auto& d : axes) u.insert(u.end(), d.begin(), d.end());
    sdy::sortAndMergeAxes(sctx_, u, t.mesh);
    std::vector<sdy::DimensionShardingAttr> dims(in.dimShardings().begin(), in.dimShardings().end());
    std::vector<sdy::AxisRefAttr> rep(in.replicatedAxes().begin(), in.replicatedAxes().end());
    in = sdy::TensorShardingAttr::get(sctx_, in.meshOrRef(), dims, rep, u, in.reductionOp());
  }
  auto body = [&](const std::string& arg, const std::vector<int64_t>& local, const std::string& inner) -> Result<Body> {
    Body b{"", arg, local};
    auto collective = [&](std::span<const sdy::AxisRefAttr> reduction, std::optional<size_t> dim) -> Status {
      auto grouped = replicaGroups(t.mesh, reduction);
      if (!grouped) {
        // Located at the op whose axis list it is.
        Error e = std::move(grouped).error();
        if (!e.hasOffset()) e.offset = op.nameSpan.begin;
        return e;
      }
      std::vector<std::vector<int64_t>> groups = std::move(*grouped);
      std::vector<int64_t> after = b.shape;
      if (dim) after[*dim] /= static_cast<int64_t>(groups.empty() ? 1 : groups[0].size());
      std::string r = fresh(dim ? "reduce_scatter" : "all_reduce");
      b.text += inner + r + " = \"stablehlo." + (dim ? "reduce_scatter" : "all_reduce") + "\"(" + b.value +
                ") <{channel_handle = #stablehlo.channel_handle<handle = " + std::to_string(nextChannel(t.module)) +
                ", type = 1>, replica_groups = " + denseGroups(groups) +
                (dim ? ", scatter_dimension = " + std::to_string(*dim) + " : i64" : "") +
                ", use_global_device_ids}> ({\n" + reducer(kind, t.type.elementType, inner) + inner + "}) : (" +
                tensorType(b.shape, t.type.elementType) + ") -> " + tensorType(after, t.type.elementType) + "\n";
      b.value = r;
      b.shape = after;
      return okStatus();
    };
    if (scatter) {
      for (size_t d = 0; d < axes.size() && d < b.shape.size(); ++d)
        if (!axes[d].empty()) SB_TRY(collective(axes[d], d));
    } else {
      SB_TRY(collective(axes.empty() ? std::span<const sdy::AxisRefAttr>()
                                     : std::span<const sdy::AxisRefAttr>(axes[0]),
                        std::nullopt));
    }
    return b;
  };
  SB_ASSIGN_OR_RETURN(std::string s, fullyManual(op.results.in(t_), op.uses[0].span.in(t_), in, t, op.nameSpan.begin,
                                                 op.whole.begin, body));
  ctx_.rw.replace(op.whole, std::move(s));
  replaced_.insert(i);
  return okStatus();
}

// Writes the shardings the walks changed (upstream's sdy::setSharding) on
// the ops not rewritten whole: the `<...>` of a constraint, reshard or
// collective, a manual computation's out-sharding, else the op's
// `sdy.sharding` (added, with open shardings for its other results, when
// it has none).
Status ReductionExport::flush() {
  sdy::PrintOptions stripped;
  stripped.withPrefix = false;
  for (auto it = current_.begin(); it != current_.end();) {
    int i = it->first.first;
    auto end = current_.upper_bound({i, std::numeric_limits<int>::max()});
    const OpNode& op = tree_.ops[i];
    if (replaced_.count(i) || split_.count(i)) {
      it = end;
      continue;
    }
    if (op.name == "sdy.sharding_constraint" || op.name == "sdy.reshard" || isSdyCollective(op.name)) {
      SB_ASSIGN_OR_RETURN(TextSpan span, opShardingSpan(t_, op));
      ctx_.rw.replace(span, sdy::printTensorSharding(it->second, stripped));
    } else if (op.name == "sdy.manual_computation") {
      SB_ASSIGN_OR_RETURN(ManualComputationParts parts, readManualComputation(t_, op));
      for (auto k = it; k != end; ++k)
        if (static_cast<size_t>(k->first.second) < parts.out.size())
          ctx_.rw.replace(parts.out[static_cast<size_t>(k->first.second)],
                          sdy::printTensorSharding(k->second, stripped));
    } else {
      std::vector<sdy::TensorShardingAttr> all;
      const AttrEntry* e = op.dict.find("sdy.sharding");
      if (e) {
        auto parsed = sdy::parseTensorShardingPerValue(sctx_, e->value.in(t_));
        if (!parsed) return parsed.error().shifted(e->value.begin);
        all.assign(parsed->shardings().begin(), parsed->shardings().end());
      }
      OpTypes types = opTypes(tree_, op);
      for (int k = static_cast<int>(all.size()); k < resultCount(op); ++k) {
        std::string_view type = types.results.empty() ? std::string_view()
                                : types.results[std::min(static_cast<size_t>(k), types.results.size() - 1)];
        all.push_back(sdy::TensorShardingAttr::getFullyOpen(sctx_, it->second.meshOrRef(), typeRank(type)));
      }
      for (auto k = it; k != end; ++k)
        if (static_cast<size_t>(k->first.second) < all.size()) all[static_cast<size_t>(k->first.second)] = k->second;
      std::string value = sdy::printTensorShardingPerValue(sdy::TensorShardingPerValueAttr::get(sctx_, all));
      if (e) {
        ctx_.rw.replace(e->value, value);
      } else if (op.dict.present()) {
        DictEditor ed(t_, op.dict);
        ed.set("sdy.sharding", value);
        ed.commit(ctx_.rw, op.dict.whole.begin);
      } else {
        insertDict(ctx_.rw, tree_, op, "{sdy.sharding = " + value + "}");
      }
    }
    it = end;
  }
  return okStatus();
}

}  // namespace shardbridge::module::manual_reduction

namespace shardbridge::module {

Status runExportManualReductionCollectives(PassContext& ctx) { return manual_reduction::ReductionExport(ctx).run(); }

}  // namespace shardbridge::module
