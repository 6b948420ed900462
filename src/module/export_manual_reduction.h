// The state of xla-sdy-stablehlo-export-manual-reduction-collectives
// (docs/module.md), shared by its two files:
// export_manual_reduction_collectives.cc (the driver, the value shardings
// and the fully manual computation every lowering writes, sdy.all_reduce
// and sdy.reduce_scatter) and export_manual_reduction_unreduced.cc
// (unreduced sdy.constant, the backward unreduced sync,
// sdy.sharded_to_unreduced and sdy.replicated_to_unreduced).
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "module/pass.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/mlir_type.h"

namespace shardbridge::module::manual_reduction {

// `tensor<4x8xf32>`.
std::string tensorType(const std::vector<int64_t>& shape, std::string_view element);

// A value as the pass sees it: result `pos` of op `op` (op >= 0), argument
// `funcArg` of function `func`, or another block argument (neither).
struct ValueRef {
  int op = -1;
  int pos = 0;
  int func = -1;
  int funcArg = -1;
  bool isResult() const { return op >= 0; }
};

// What every lowering needs of the op it replaces: its mesh, its result's
// (current) sharding and its static tensor type.
struct Target {
  sdy::MeshAttr mesh;
  sdy::TensorShardingAttr out;
  std::string outText;  // `<...>` as written, or printed when the sync changed it
  MlirType type;
  int module = -1;
};

// The body of a fully manual computation: ops (one per line, already
// indented) and the returned value.
struct Body {
  std::string text;
  std::string value;
  std::vector<int64_t> shape;  // the returned value's local shape
};
using BodyFn = std::function<Result<Body>(const std::string& arg, const std::vector<int64_t>& local,
                                          const std::string& indent)>;

class ReductionExport {
 public:
  explicit ReductionExport(PassContext& ctx);
  Status run();

 private:
  // --- export_manual_reduction_collectives.cc ---------------------------------
  ValueRef resolve(int at, const ValueUse& use) const;
  // The current sharding of `v` (as the walks so far left it), null when it
  // has none; upstream's sdy::getSharding.
  Result<sdy::TensorShardingAttr> sharding(const ValueRef& v);
  Result<sdy::TensorShardingAttr> writtenSharding(const ValueRef& v);
  // Records upstream's sdy::setSharding on an op result (written by flush).
  void setSharding(const ValueRef& v, sdy::TensorShardingAttr s) { current_[{v.op, v.pos}] = s; }
  Result<Target> target(int i);
  // Fills t.mesh (from t.out), t.module and t.type (op i's one static
  // tensor result type).
  Status meshAndType(int i, size_t at, Target& t);
  // `{axes}` (all_reduce, replicated_to_unreduced) or `[{..}, ..]`
  // (reduce_scatter, sharded_to_unreduced) after the name and reduction kind.
  Result<std::vector<std::vector<sdy::AxisRefAttr>>> axesOf(const OpNode& op, sdy::ReductionOp& kind);
  // The in-sharding of an operand without one: upstream's
  // getOrCreateSharding(input, mesh), fully open; upstream names the mesh
  // inlined, we keep the out-sharding's reference to the same mesh (our
  // shard-map export names a body's mesh by the in-sharding's reference:
  // an inlined one gives `<, []>` there).
  sdy::TensorShardingAttr missingInSharding(const Target& t) {
    return sdy::TensorShardingAttr::getFullyOpen(sctx_, t.out.meshOrRef(), t.type.rank());
  }
  Result<std::vector<int64_t>> localShape(sdy::TensorShardingAttr s, const Target& t, size_t at);
  // `results = sdy.manual_computation(operand) ... {body} : (T) -> T`, every
  // mesh axis manual, as upstream's createFullyManualComputation builds it.
  Result<std::string> fullyManual(std::string_view results, std::string_view operand, sdy::TensorShardingAttr in,
                                  const Target& t, size_t at, size_t indentAt, const BodyFn& body);
  int64_t nextChannel(int module);
  std::string reducer(sdy::ReductionOp kind, std::string_view element, const std::string& indent);
  Status lowerCollective(int i);
  Status flush();

  // --- export_manual_reduction_unreduced.cc -----------------------------------
  Status splitUnreducedConstant(int i);
  Status syncUnreduced(int i);
  Status lowerToUnreduced(int i);
  Status lowerConstant(int i);
  Result<Body> replicatedToUnreducedBody(const std::string& arg, const std::vector<int64_t>& local,
                                         const std::string& indent, const Target& t,
                                         std::span<const sdy::AxisRefAttr> axes, size_t at);
  // partition_id -> per-axis coordinate and size values (upstream's
  // getAxesCoordinateAndSize), appended to `body`.
  std::map<std::string, std::pair<std::string, std::string>, std::less<>> coordinates(sdy::MeshAttr mesh,
                                                                                       const std::string& indent,
                                                                                       std::string& body);

  PassContext& ctx_;
  std::string_view t_;
  const OpTree& tree_;
  FreshNames names_;
  // The op being lowered: new values are named fresh in its function.
  int at_ = -1;
  std::string fresh(std::string_view stem) { return names_.next(stem, at_); }
  bool all_;
  sdy::Context sctx_;
  std::map<std::pair<int, std::string>, sdy::MeshAttr, std::less<>> meshes_;
  // (function, name) -> defining ops, in order; built on the first resolve(),
  // since most modules have nothing for this pass to resolve.
  mutable std::map<std::pair<int, std::string_view>, std::vector<int>> defs_;
  mutable bool defsBuilt_ = false;
  void buildDefs() const;
  std::map<std::pair<int, int>, sdy::TensorShardingAttr> current_;  // shardings the walks changed
  std::map<int, int64_t> next_;
  std::set<int> replaced_;  // ops rewritten whole (their sharding edits go with them)
  // Constants whose unreduced axes moved to a replicated-to-unreduced after
  // them: op -> its new name, its sharding without them, those axes.
  struct Split {
    std::string name;
    sdy::TensorShardingAttr replicated;
    std::vector<sdy::AxisRefAttr> axes;
  };
  std::map<int, Split> split_;
};

}  // namespace shardbridge::module::manual_reduction
