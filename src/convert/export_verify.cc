// The quick verification of export.cc: proving, for the common case, that
// sdy's verifier would accept a sharding, so that export can skip it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "export_detail.h"
#include "export_resolved.h"
#include "shardbridge/base/checked_math.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::convert::detail {
namespace {

using sdy::MeshAttr;
using sdy::TensorShardingAttr;

// The quick checks below redo sdy::verifyMesh and sdy::verifyTensorSharding
// (no type, no divisibility) for a mesh with axes, answering only "valid"
// or "not sure": "valid" only where the verifier accepts. Exporting
// re-verifies every sharding (it may come from anywhere), and the
// verifier's general bookkeeping (hash sets, per-axis vectors, name lookups
// per rule, sorting the device ids) cost a quarter of an export; when not
// sure, the caller runs the verifier, so errors stay the verifier's.

// The device count of a valid mesh with axes, nullopt when not sure.
std::optional<int64_t> quicklyValidMesh(MeshAttr mesh) {
  std::span<const sdy::MeshAxisAttr> axes = mesh.axes();
  // The verifier's name check is quadratic up to here too.
  constexpr size_t kMaxAxes = 16;
  if (axes.empty() || axes.size() > kMaxAxes) return std::nullopt;
  int64_t total = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].size() < 1) return std::nullopt;
    for (size_t j = 0; j < i; ++j) {
      if (sameName(axes[j].name(), axes[i].name())) return std::nullopt;
    }
    std::optional<int64_t> next = checkedMul(total, axes[i].size());
    if (!next) return std::nullopt;
    total = *next;
  }
  std::span<const int64_t> ids = mesh.deviceIds();
  if (ids.empty()) return total;
  if (static_cast<uint64_t>(total) != ids.size()) return std::nullopt;
  // A permutation of [0, total), checked in linear time (the verifier
  // sorts), and not the identity order.
  std::vector<bool> seen(ids.size(), false);
  for (int64_t id : ids) {
    if (id < 0 || id >= total || seen[static_cast<size_t>(id)]) return std::nullopt;
    seen[static_cast<size_t>(id)] = true;
  }
  if (std::is_sorted(ids.begin(), ids.end())) return std::nullopt;
  return total;
}

// Within one list of refs: no two neighbours that could merge into one
// sub-axis (sdy::canMerge).
bool noMergeableNeighbours(std::span<const ResolvedRef> list) {
  for (size_t i = 1; i < list.size(); ++i) {
    const ResolvedRef& prev = list[i - 1];
    const ResolvedRef& ref = list[i];
    if (prev.axis != ref.axis || !prev.isSubAxis || !ref.isSubAxis) continue;
    std::optional<int64_t> prevNext = checkedMul(prev.preSize, prev.size);
    if (prevNext && *prevNext == ref.preSize) return false;
  }
  return true;
}

// Strictly ascending by the mesh comparator (axis index, then pre-size and
// size); refs of one axis that are not both sub-axes are left to the
// verifier.
bool strictlySortedInMesh(std::span<const ResolvedRef> list) {
  for (size_t i = 1; i < list.size(); ++i) {
    const ResolvedRef& prev = list[i - 1];
    const ResolvedRef& ref = list[i];
    if (prev.axis < ref.axis) continue;
    if (prev.axis > ref.axis || !prev.isSubAxis || !ref.isSubAxis) return false;
    if (std::pair(prev.preSize, prev.size) >= std::pair(ref.preSize, ref.size)) return false;
  }
  return true;
}

// Whether `sharding`, resolved on the valid `mesh`, is valid (false: not
// sure).
bool quicklyValidSharding(TensorShardingAttr sharding, MeshAttr mesh,
                          const ResolvedSharding& resolved) {
  std::span<const sdy::MeshAxisAttr> axes = mesh.axes();
  std::span<const sdy::DimensionShardingAttr> dims = sharding.dimShardings();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (std::optional<int64_t> priority = dims[d].priority()) {
      if (*priority < 0 || (dims[d].isClosed() && dims[d].emptyAxes())) return false;
    }
    if (!noMergeableNeighbours(resolved.dim(d))) return false;
  }
  if (!noMergeableNeighbours(resolved.replicated()) ||
      !noMergeableNeighbours(resolved.unreduced()) ||
      !strictlySortedInMesh(resolved.replicated()) ||
      !strictlySortedInMesh(resolved.unreduced())) {
    return false;
  }
  // Each sub-axis is well formed (the mesh is valid, so axis sizes are >= 1).
  for (const ResolvedRef& ref : resolved.all()) {
    if (!ref.isSubAxis) continue;
    if (ref.preSize < 1 || ref.size <= 1) return false;
    std::optional<int64_t> next = checkedMul(ref.preSize, ref.size);
    const int64_t axisSize = axes[ref.axis].size();
    if (!next || axisSize % *next != 0 || ref.size == axisSize) return false;
  }
  // The refs of one axis are either one full axis alone or sub-axes that do
  // not overlap: that excludes duplicates, a full axis beside its sub-axes,
  // and overlapping sub-axes. Pairwise, as there are few refs.
  std::span<const ResolvedRef> all = resolved.all();
  constexpr size_t kMaxPairwise = 32;
  if (all.size() > kMaxPairwise) return false;
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      const ResolvedRef& x = all[i];
      const ResolvedRef& y = all[j];
      if (x.axis != y.axis) continue;
      if (!x.isSubAxis || !y.isSubAxis) return false;
      // [pre, pre*size) ranges, in the multiplicative sense; the products
      // were checked above.
      if (x.preSize < y.preSize * y.size && y.preSize < x.preSize * x.size) return false;
    }
  }
  return true;
}

}  // namespace

// Declared in export_detail.h.
Result<std::optional<int64_t>> verifySharding(TensorShardingAttr sharding, MeshAttr mesh,
                                              const ResolvedSharding* resolved,
                                              const sdy::MeshLookup& meshLookup) {
  std::optional<int64_t> total = quicklyValidMesh(mesh);
  if (total && resolved && quicklyValidSharding(sharding, mesh, *resolved)) return total;
  SB_TRY(sdy::verifyTensorSharding(sharding, meshLookup));
  return mesh.getTotalSize();
}

}  // namespace shardbridge::convert::detail
