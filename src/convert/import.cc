#include "shardbridge/convert/import.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/convert/any_order.h"
#include "shardbridge/convert/factorization.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"
#include "factorization_detail.h"
#include "small_vector.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;
using hlo::OpShardingType;
using sdy::AxisRefAttr;
using sdy::DimensionShardingAttr;
using sdy::MeshAttr;
using sdy::TensorShardingAttr;

// `rank` empty dims, closed or open.
std::vector<DimensionShardingAttr> emptyDims(sdy::Context& ctx, int64_t rank, bool isClosed) {
  return std::vector<DimensionShardingAttr>(static_cast<size_t>(rank),
                                            DimensionShardingAttr::get(ctx, {}, isClosed));
}

// Refs in upstream's order are not necessarily sorted (replicated and
// unreduced lists follow the local mesh), and adjacent sub-axes may merge;
// the verifier wants both lists sorted and unmergeable.
std::vector<AxisRefAttr> canonicalAxisList(sdy::Context& ctx, std::vector<AxisRefAttr> axes,
                                           MeshAttr mesh) {
  sdy::sortAndMergeAxes(ctx, axes, mesh);
  return axes;
}

// The same in place on a short list: one ref is already sorted and has
// nothing to merge with, so only longer lists go through sortAndMergeAxes.
template <size_t N>
void canonicalizeAxisList(sdy::Context& ctx, detail::SmallVector<AxisRefAttr, N>& axes,
                          MeshAttr mesh) {
  if (axes.size() < 2) return;
  std::vector<AxisRefAttr> canonical =
      canonicalAxisList(ctx, std::vector<AxisRefAttr>(axes.begin(), axes.end()), mesh);
  axes.clear();
  axes.append(canonical.begin(), canonical.end());
}

// One V3 axis reference named after the global mesh axis with its index.
Result<AxisRefAttr> namedAxisRef(sdy::Context& ctx, const hlo::AxisRef& axis, MeshAttr mesh) {
  const auto axes = mesh.axes();
  if (axis.meshAxisIndex < 0 || axis.meshAxisIndex >= static_cast<int64_t>(axes.size())) {
    return makeError(ErrorCode::kInvalid,
                     "axis index " + std::to_string(axis.meshAxisIndex) +
                         " is out of range for a mesh with " + std::to_string(axes.size()) +
                         " axes");
  }
  const std::string_view name = axes[static_cast<size_t>(axis.meshAxisIndex)].name();
  if (axis.subAxis) return AxisRefAttr::get(ctx, name, axis.subAxis->preSize, axis.subAxis->size);
  return AxisRefAttr::get(ctx, name);
}

Result<std::vector<AxisRefAttr>> namedAxisRefs(sdy::Context& ctx,
                                               const std::vector<hlo::AxisRef>& axes,
                                               MeshAttr mesh) {
  std::vector<AxisRefAttr> out;
  out.reserve(axes.size());
  for (const hlo::AxisRef& axis : axes) {
    SB_ASSIGN_OR_RETURN(AxisRefAttr ref, namedAxisRef(ctx, axis, mesh));
    out.push_back(ref);
  }
  return out;
}

// Copying axes by index is only meaningful when the V3 mesh is the global
// mesh up to names: same sizes in the same order and the same device order.
// Upstream copies without looking; a mismatch here would name other devices.
Status checkSameDevices(const HloSharding& sharding, const hlo::Mesh& mesh, MeshAttr globalMesh) {
  const auto globalAxes = globalMesh.axes();
  bool same = static_cast<size_t>(mesh.numAxes()) == globalAxes.size();
  for (size_t i = 0; same && i < globalAxes.size(); ++i) {
    same = mesh.axisSize(static_cast<int64_t>(i)) == globalAxes[i].size();
  }
  if (same && (mesh.hasExplicitDeviceOrder() || !globalMesh.deviceIds().empty())) {
    SB_ASSIGN_OR_RETURN(auto ids, mesh.deviceAssignment().devices());
    const auto globalIds = globalMesh.deviceIds();
    if (globalIds.empty()) {
      for (size_t i = 0; same && i < ids.size(); ++i) same = ids[i] == static_cast<int64_t>(i);
    } else {
      same = std::equal(ids.begin(), ids.end(), globalIds.begin(), globalIds.end());
    }
  }
  if (!same) {
    return makeError(ErrorCode::kInvalid, "sharding " + sharding.toString() +
                                              " is on a mesh with other axis sizes or another "
                                              "device order than the global mesh");
  }
  return okStatus();
}

// docs/upstream.md § Import steps, step 1: a V3 leaf copied by axis index.
Result<TensorShardingAttr> importNamed(sdy::Context& ctx, const HloSharding& sharding,
                                       MeshAttr globalMesh, sdy::MeshOrRef meshRef,
                                       int64_t rank, bool openDims) {
  const hlo::NamedSharding& named = *sharding.namedSharding();
  if (named.mesh().numAxes() > 0) SB_TRY(checkSameDevices(sharding, named.mesh(), globalMesh));
  std::vector<DimensionShardingAttr> dims;
  if (named.dimShardings().empty()) {
    // The V3 model drops all-empty dims, so "no dims" says nothing about the
    // tensor's rank.
    dims = emptyDims(ctx, rank, !openDims);
  } else {
    if (static_cast<int64_t>(named.dimShardings().size()) != rank) {
      return makeError(ErrorCode::kInvalid,
                       "sharding " + sharding.toString() + " shards " +
                           std::to_string(named.dimShardings().size()) +
                           " dimensions but the tensor has rank " + std::to_string(rank));
    }
    for (const hlo::DimSharding& dim : named.dimShardings()) {
      SB_ASSIGN_OR_RETURN(auto axes, namedAxisRefs(ctx, dim.axes, globalMesh));
      dims.push_back(DimensionShardingAttr::get(ctx, axes, dim.isClosed || !openDims));
    }
  }
  SB_ASSIGN_OR_RETURN(auto replicated, namedAxisRefs(ctx, named.replicatedAxes(), globalMesh));
  SB_ASSIGN_OR_RETURN(auto unreduced, namedAxisRefs(ctx, named.unreducedAxes(), globalMesh));
  SB_ASSIGN_OR_RETURN(sdy::ReductionOp op, reductionOpFromMetadata(sharding.metadata()));
  return TensorShardingAttr::get(ctx, meshRef, dims, replicated, unreduced, op);
}

// The global refs of every local mesh factor, in one list: factor i's refs
// are refs[factorEnds[i-1], factorEnds[i]) (from 0 for the first).
struct LocalToGlobal {
  detail::SmallVector<AxisRefAttr, 16> refs;
  detail::SmallVector<size_t, 16> factorEnds;

  std::span<const AxisRefAttr> of(size_t factor) const {
    const size_t begin = factor == 0 ? 0 : factorEnds[factor - 1];
    return refs.span().subspan(begin, factorEnds[factor] - begin);
  }
};

// docs/upstream.md § Import steps, step 4: the global refs each local mesh factor stands for, by
// walking the global axes major to minor with gcd steps.
Status mapLocalMeshOntoGlobal(sdy::Context& ctx, std::span<const int64_t> localMesh,
                              MeshAttr globalMesh, const HloSharding& sharding,
                              LocalToGlobal& result) {
  const auto axes = globalMesh.axes();
  size_t axis = 0;
  int64_t preSize = 1;  // how much of axes[axis] earlier factors consumed
  for (size_t i = 0; i < localMesh.size(); ++i) {
    int64_t localLeft = localMesh[i];
    while (localLeft > 1) {
      if (axis >= axes.size()) {
        return makeError(ErrorCode::kInternal,
                         "ran out of mesh axes importing " + sharding.toString());
      }
      const int64_t axisLeft = axes[axis].size() / preSize;
      if (axisLeft <= 1) {
        ++axis;
        preSize = 1;
        continue;
      }
      const int64_t g = std::gcd(localLeft, axisLeft);
      if (g == 1) {
        return makeError(ErrorCode::kInvalid,
                         "cannot import " + sharding.toString() + ": a local mesh factor of " +
                             std::to_string(localLeft) + " devices shares no factor with the " +
                             std::to_string(axisLeft) + " devices left of mesh axis \"" +
                             std::string(axes[axis].name()) + "\"");
      }
      if (g == axisLeft && preSize == 1) {
        result.refs.push_back(AxisRefAttr::get(ctx, axes[axis].name()));
      } else {
        result.refs.push_back(AxisRefAttr::get(ctx, axes[axis].name(), preSize, g));
      }
      preSize *= g;
      localLeft /= g;
    }
    result.factorEnds.push_back(result.refs.size());
  }
  return okStatus();
}

// The analysis of `sharding`'s devices read as mesh-linear indices of
// `globalMesh` (any_order.h): the sharding's own analysis when that is an
// iota on an iota mesh, so upstream's results and errors stay as they are.
// Anything the mesh cannot express is reported against the mesh.
Status analyzeInMeshOrder(const HloSharding& sharding, MeshAttr globalMesh,
                          detail::TileAnalysis& analysis) {
  const hlo::TileAssignment& tiles = sharding.tileAssignment();
  const int64_t devices = tiles.numElements();
  const std::optional<int64_t> meshSize = globalMesh.getTotalSize();
  // Left to the caller's device-count check, which has upstream's wording.
  if (!meshSize || *meshSize != devices) return detail::analyzeTiles(tiles, analysis);
  if (tiles.isIota() && globalMesh.deviceIds().empty()) {
    return detail::analyzeTiles(tiles, analysis);
  }
  auto expressError = [&](const std::string& reason) {
    return makeError(ErrorCode::kUnsupported, "sharding " + sharding.toString() +
                                                  " cannot be expressed on mesh " +
                                                  sdy::printMesh(globalMesh) + ": " + reason);
  };
  auto linear = meshLinearTileAssignment(tiles, globalMesh, sharding.subgroupReplicationDim());
  if (!linear.has_value()) return expressError(linear.error().message);
  Status analyzed = detail::analyzeTiles(*linear, analysis);
  if (!analyzed.has_value()) {
    return expressError("in mesh order, " + analyzed.error().message);
  }
  return okStatus();
}

Result<TensorShardingAttr> importTiled(sdy::Context& ctx, const HloSharding& sharding,
                                       MeshAttr globalMesh, sdy::MeshOrRef meshRef,
                                       int64_t rank, bool openDims,
                                       const AnyOrderOptions& anyOrder) {
  const int64_t dataRank = sharding.tiledDataRank();
  if (dataRank != rank) {
    return makeError(ErrorCode::kInvalid, "sharding " + sharding.toString() + " tiles " +
                                              std::to_string(dataRank) +
                                              " dimensions but the tensor has rank " +
                                              std::to_string(rank));
  }
  for (const sdy::MeshAxisAttr& axis : globalMesh.axes()) {
    if (axis.size() < 1) {
      return makeError(ErrorCode::kInvalid, "mesh axis \"" + std::string(axis.name()) +
                                                "\" has size " + std::to_string(axis.size()));
    }
  }
  detail::TileAnalysis analysis;
  if (anyOrder.enabled) {
    SB_TRY(analyzeInMeshOrder(sharding, globalMesh, analysis));
  } else {
    SB_TRY(detail::analyzeTiles(sharding.tileAssignment(), analysis));
  }
  const int64_t devices = sharding.tileAssignment().numElements();
  const std::optional<int64_t> meshSize = globalMesh.getTotalSize();
  if (!meshSize || *meshSize != devices) {
    return makeError(ErrorCode::kInvalid,
                     "sharding " + sharding.toString() + " uses " + std::to_string(devices) +
                         " devices but the mesh has " +
                         (meshSize ? std::to_string(*meshSize) : std::string("too many")));
  }
  if (!anyOrder.enabled && !globalMesh.deviceIds().empty() && !globalMesh.axes().empty()) {
    return makeError(ErrorCode::kUnsupported,
                     "cannot import " + sharding.toString() +
                         " onto a mesh with explicit device_ids: the axes are matched by size "
                         "only, which assumes the iota device order");
  }
  LocalToGlobal localToGlobal;
  SB_TRY(mapLocalMeshOntoGlobal(ctx, analysis.localMesh, globalMesh, sharding, localToGlobal));

  // The factors of the tensor dims, by dim and then major first (highest
  // place inside the dim first); subgroup factors go to their lists.
  struct DimFactor {
    int64_t dim;
    int64_t place;
    size_t factor;
  };
  detail::SmallVector<DimFactor, 16> dimFactors;
  detail::SmallVector<AxisRefAttr, 8> replicated;
  detail::SmallVector<AxisRefAttr, 8> unreduced;
  const auto& types = sharding.subgroupTypes();
  for (size_t i = 0; i < analysis.subDims.size(); ++i) {
    const SubDimInfo& sub = analysis.subDims[i];
    if (sub.tileDimIndex < dataRank) {
      dimFactors.push_back(DimFactor{sub.tileDimIndex, sub.tileSubDimIndex, i});
      continue;
    }
    // A subgroup dim. `last_tile_dim_replicate` keeps replication implicit;
    // typed subgroups are indexed by their own position after the data dims
    // (upstream indexes by the factor's place in the dim: docs/upstream.md § Import steps, step 6).
    if (sharding.replicateOnLastTileDim()) continue;
    const size_t typeIndex = static_cast<size_t>(sub.tileDimIndex - dataRank);
    if (typeIndex >= types.size()) continue;
    std::span<const AxisRefAttr> refs = localToGlobal.of(i);
    if (types[typeIndex] == OpShardingType::kReplicated) replicated.append(refs.begin(), refs.end());
    if (types[typeIndex] == OpShardingType::kUnreduced) unreduced.append(refs.begin(), refs.end());
  }
  std::sort(dimFactors.begin(), dimFactors.end(), [](const DimFactor& x, const DimFactor& y) {
    return x.dim != y.dim ? x.dim < y.dim : x.place > y.place;
  });

  detail::SmallVector<DimensionShardingAttr, 8> dims;
  detail::SmallVector<AxisRefAttr, 8> axes;
  const DimFactor* next = dimFactors.begin();
  for (int64_t d = 0; d < rank; ++d) {
    axes.clear();
    for (; next != dimFactors.end() && next->dim == d; ++next) {
      std::span<const AxisRefAttr> refs = localToGlobal.of(next->factor);
      axes.append(refs.begin(), refs.end());
    }
    dims.push_back(DimensionShardingAttr::get(ctx, axes, !openDims));
  }
  canonicalizeAxisList(ctx, replicated, globalMesh);
  canonicalizeAxisList(ctx, unreduced, globalMesh);
  sdy::ReductionOp op = sdy::ReductionOp::kSum;
  if (!unreduced.empty()) {
    SB_ASSIGN_OR_RETURN(op, reductionOpFromMetadata(sharding.metadata()));
  }
  return TensorShardingAttr::get(ctx, meshRef, dims, replicated, unreduced, op);
}

}  // namespace

Result<sdy::ReductionOp> reductionOpFromMetadata(const std::vector<hlo::OpMetadata>& metadata) {
  for (const hlo::OpMetadata& md : metadata) {
    if (md.opType != "sdy::reduction_op") continue;
    if (md.opName == "SUM") return sdy::ReductionOp::kSum;
    if (md.opName == "MAX") return sdy::ReductionOp::kMax;
    if (md.opName == "MIN") return sdy::ReductionOp::kMin;
    return makeError(ErrorCode::kInvalid, "unknown reduction op \"" + hlo::cEscape(md.opName) +
                                              "\" in sdy::reduction_op metadata");
  }
  return sdy::ReductionOp::kSum;
}

Result<TensorShardingAttr> convertToSdySharding(
    sdy::Context& ctx, const HloSharding& sharding, MeshAttr globalMesh, sdy::MeshOrRef meshRef,
    const std::map<int64_t, std::string>& singleDeviceMeshNames, int64_t rank, bool openDims,
    const AnyOrderOptions& anyOrder) {
  if (sharding.isTuple()) {
    return makeError(ErrorCode::kInvalid,
                     "a tuple sharding has one sharding per value; import its leaves with "
                     "convertToSdyShardingPerValue");
  }
  if (rank < 0) {
    return makeError(ErrorCode::kInvalid, "tensor rank must be >= 0, got " + std::to_string(rank));
  }
  if (globalMesh.isNull()) return makeError(ErrorCode::kInvalid, "no global mesh given");
  // Checked before the V3 branch so that a V3 maximal mesh is a single
  // device too (upstream would give it `<@mesh, []>`).
  if (sharding.isSingleDevice()) {
    const std::optional<int64_t> device = sharding.uniqueDevice();
    auto it = device ? singleDeviceMeshNames.find(*device) : singleDeviceMeshNames.end();
    if (it == singleDeviceMeshNames.end()) {
      return makeError(ErrorCode::kNotFound,
                       "no single-device mesh for " + sharding.toString());
    }
    return TensorShardingAttr::getFullyClosed(ctx, sdy::MeshOrRef::ref(ctx, it->second), 0);
  }
  if (sharding.isNamed()) return importNamed(ctx, sharding, globalMesh, meshRef, rank, openDims);
  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
    case HloSharding::Kind::kManual:
    case HloSharding::Kind::kUnknown: {
      SB_ASSIGN_OR_RETURN(sdy::ReductionOp op, reductionOpFromMetadata(sharding.metadata()));
      const bool closed = !openDims && sharding.kind() != HloSharding::Kind::kUnknown;
      return TensorShardingAttr::get(ctx, meshRef, emptyDims(ctx, rank, closed), {}, {}, op);
    }
    case HloSharding::Kind::kUnreduced: {
      std::vector<AxisRefAttr> unreduced;
      for (const sdy::MeshAxisAttr& axis : globalMesh.axes()) {
        if (axis.size() > 1) unreduced.push_back(AxisRefAttr::get(ctx, axis.name()));
      }
      sdy::ReductionOp op = sdy::ReductionOp::kSum;
      if (!unreduced.empty()) {
        SB_ASSIGN_OR_RETURN(op, reductionOpFromMetadata(sharding.metadata()));
      }
      return TensorShardingAttr::get(ctx, meshRef, emptyDims(ctx, rank, !openDims), {},
                                     unreduced, op);
    }
    case HloSharding::Kind::kTiled:
      return importTiled(ctx, sharding, globalMesh, meshRef, rank, openDims, anyOrder);
    default:
      break;
  }
  return makeError(ErrorCode::kInternal, "unexpected sharding kind in " + sharding.toString());
}

int64_t ownRank(const HloSharding& leaf) {
  if (leaf.kind() == HloSharding::Kind::kTiled) return leaf.tiledDataRank();
  if (leaf.isNamed()) return static_cast<int64_t>(leaf.namedSharding()->dimShardings().size());
  return 0;
}

Result<sdy::TensorShardingPerValueAttr> convertToSdyShardingPerValue(
    sdy::Context& ctx, const HloSharding& sharding, MeshAttr globalMesh, sdy::MeshOrRef meshRef,
    const std::map<int64_t, std::string>& singleDeviceMeshNames, std::span<const int64_t> ranks,
    bool openDims, const AnyOrderOptions& anyOrder) {
  std::vector<HloSharding> single;
  const std::vector<HloSharding>* leaves = &sharding.tupleElements();
  if (!sharding.isTuple()) {
    single.push_back(sharding);
    leaves = &single;
  }
  if (leaves->size() != ranks.size()) {
    return makeError(ErrorCode::kInvalid, "sharding has " + std::to_string(leaves->size()) +
                                              " leaves but " + std::to_string(ranks.size()) +
                                              " ranks were given");
  }
  std::vector<TensorShardingAttr> out;
  out.reserve(leaves->size());
  for (size_t i = 0; i < leaves->size(); ++i) {
    auto leaf = convertToSdySharding(ctx, (*leaves)[i], globalMesh, meshRef,
                                     singleDeviceMeshNames, ranks[i], openDims, anyOrder);
    if (!leaf.has_value()) {
      Error e = std::move(leaf).error();
      e.message = "value " + std::to_string(i) + ": " + e.message;
      return e;
    }
    out.push_back(*leaf);
  }
  return sdy::TensorShardingPerValueAttr::get(ctx, out);
}

}  // namespace shardbridge::convert
