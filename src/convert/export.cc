#include "shardbridge/convert/export.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/op_metadata.h"
#include "shardbridge/hlo/tile_assignment.h"
#include "shardbridge/sdy/verifier.h"
#include "export_detail.h"
#include "export_resolved.h"
#include "small_vector.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;
using hlo::OpShardingType;
using sdy::AxisRefAttr;
using sdy::MeshAttr;
using sdy::TensorShardingAttr;
using detail::convertToNamedSharding;
using detail::ResolvedRef;
using detail::ResolvedSharding;
using detail::verifySharding;

std::string quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }

// The op_name upstream writes for each reduction kind.
const char* reductionOpMetadataName(sdy::ReductionOp op) {
  switch (op) {
    case sdy::ReductionOp::kSum: return "SUM";
    case sdy::ReductionOp::kMax: return "MAX";
    case sdy::ReductionOp::kMin: return "MIN";
  }
  return "SUM";
}

std::vector<hlo::OpMetadata> reductionMetadata(sdy::ReductionOp op) {
  hlo::OpMetadata md;
  md.opType = "sdy::reduction_op";
  md.opName = reductionOpMetadataName(op);
  std::vector<hlo::OpMetadata> out;
  out.push_back(std::move(md));
  return out;
}

// One slice of a mesh axis in the order upstream's getOrderedAxisRefs lists
// them (mesh order, major to minor within an axis): the axis `axis` reshaped
// at the boundaries of the sub-axes the sharding uses, piece
// `(preSize)size`. `position` is the piece's slot in the transposed device
// order: tile dims, then manual, then unreduced, then replicated.
//
// The pieces are computed here rather than by sdy::getOrderedAxisRefs: that
// function interns the cut sub-axes in an sdy::Context, which this API does
// not take, and only the numbers are needed. Cuts come from the dimension
// shardings and unreduced axes only, as upstream's getOrderedAxisRefs does
// (docs/upstream.md § Axis refs: order and merging); the older exporter
// ordered replicated and manual refs too (§ The older exporter).
// This follows the newer one: replicated refs never cut (so explicit
// replication cannot change the output, as lit @reshard shows), and manual
// axes are whole axes, which cut nothing.
struct AxisPiece {
  size_t axis = 0;
  int64_t preSize = 1;
  int64_t size = 1;
  int64_t position = -1;
};

class PieceTable {
 public:
  // Cuts every axis of `mesh` at the sub-axis boundaries of the dims' refs
  // and, when `withUnreduced`, the unreduced refs of `sharding`. The
  // sharding has been verified, so the boundaries of one axis divide each
  // other and every sub-axis is one piece. Built in place: the table is not
  // cheap to move (its lists are inline). The refs are read from `sharding`
  // rather than taken as spans: spans passed on the stack were reloaded in
  // halves the store buffer could not forward.
  Status build(MeshAttr mesh, const ResolvedSharding& sharding, bool withUnreduced) {
    std::span<const sdy::MeshAxisAttr> axes = mesh.axes();
    std::span<const ResolvedRef> all = sharding.all();
    const size_t replicatedBegin = sharding.dims().size();
    const size_t unreducedBegin = all.size() - sharding.unreduced().size();
    auto cuts = [&](size_t i) {
      if (!all[i].isSubAxis) return false;
      if (i < replicatedBegin) return true;
      return withUnreduced && i >= unreducedBegin;
    };
    // Which axes some sub-axis cuts (bit a for axis a; all of them on a
    // mesh with more axes than bits). The others are one piece each.
    constexpr size_t kMaskBits = 64;
    uint64_t cutAxes = axes.size() > kMaskBits ? ~uint64_t{0} : 0;
    for (size_t i = 0; i < all.size(); ++i) {
      if (cuts(i) && all[i].axis < kMaskBits) cutAxes |= uint64_t{1} << all[i].axis;
    }
    for (size_t a = 0; a < axes.size(); ++a) {
      const bool uncut = a < kMaskBits && ((cutAxes >> a) & 1) == 0;
      if (uncut && axes[a].size() >= 1) {
        // Cuts {1, size}: the whole axis (or, for a size-1 axis, the piece
        // of size 1 explained below).
        firstPiece_.push_back(pieces_.size());
        addPiece(a, 1, axes[a].size());
        continue;
      }
      // The cuts of axis a, ascending and distinct: its ends and the ends of
      // its sub-axes (the refs are few, so each axis scans them all).
      detail::SmallVector<int64_t, 8> axisCuts;
      auto addCut = [&axisCuts](int64_t cut) {
        size_t at = 0;
        while (at < axisCuts.size() && axisCuts[at] < cut) ++at;
        if (at < axisCuts.size() && axisCuts[at] == cut) return;
        axisCuts.push_back(cut);
        std::rotate(axisCuts.begin() + at, axisCuts.end() - 1, axisCuts.end());
      };
      addCut(1);
      addCut(axes[a].size());
      for (size_t i = 0; i < all.size(); ++i) {
        const ResolvedRef& ref = all[i];
        if (ref.axis != a || !cuts(i)) continue;
        std::optional<int64_t> next = checkedMul(ref.preSize, ref.size);
        if (!next) {
          return makeError(ErrorCode::kInternal, "unverified axis ref: " + ref.attr.toString());
        }
        addCut(ref.preSize);
        addCut(*next);
      }
      firstPiece_.push_back(pieces_.size());
      if (axisCuts.size() < 2) {
        // A size-1 axis: upstream emits no piece for it; one piece of size
        // 1 is equivalent (iota canonicalisation drops it) and keeps every
        // axis addressable.
        addPiece(a, 1, 1);
        continue;
      }
      for (size_t j = 0; j + 1 < axisCuts.size(); ++j) {
        if (axisCuts[j] < 1 || axisCuts[j + 1] % axisCuts[j] != 0) {
          return makeError(ErrorCode::kInternal,
                           "sub-axes of " + quoted(axes[a].name()) + " cannot coexist");
        }
        addPiece(a, axisCuts[j], axisCuts[j + 1] / axisCuts[j]);
      }
    }
    firstPiece_.push_back(pieces_.size());
    return okStatus();
  }

  // Gives the piece `ref` stands for the next position; returns its size.
  Result<int64_t> claim(const ResolvedRef& ref, int64_t& nextPosition) {
    if (auto claimed = claim(ref.axis, ref.preSize, ref.size, nextPosition)) return *claimed;
    // The message is built only on this (unreachable after verification) path.
    return makeError(ErrorCode::kInternal, "axis ref overlaps another: " + ref.attr.toString());
  }

  // The same for the full axis at index `axis` of `mesh`.
  Result<int64_t> claimFullAxis(MeshAttr mesh, size_t axis, int64_t& nextPosition) {
    if (auto claimed = claim(axis, 1, mesh.axes()[axis].size(), nextPosition)) return *claimed;
    return makeError(ErrorCode::kInternal,
                     "axis ref overlaps another: " + quoted(mesh.axes()[axis].name()));
  }

  std::span<AxisPiece> pieces() { return pieces_.span(); }

 private:
  void addPiece(size_t axis, int64_t preSize, int64_t size) {
    AxisPiece& piece = pieces_.emplace_back();
    piece.axis = axis;
    piece.preSize = preSize;
    piece.size = size;
  }

  // The piece's size, or nullopt when no unclaimed piece matches.
  std::optional<int64_t> claim(size_t axis, int64_t pre, int64_t size, int64_t& nextPosition) {
    for (size_t i = firstPiece_[axis]; i < firstPiece_[axis + 1]; ++i) {
      AxisPiece& piece = pieces_[i];
      if (piece.preSize != pre) continue;
      if (piece.size != size || piece.position != -1) break;
      piece.position = nextPosition++;
      return size;
    }
    return std::nullopt;
  }

  detail::SmallVector<AxisPiece, 16> pieces_;
  detail::SmallVector<size_t, 9> firstPiece_;  // per axis, plus one past the end
};

// The manual axes must be distinct mesh axes that the sharding itself does
// not use (inside a manual computation the sharding speaks only of the free
// axes).
Status checkManualAxes(TensorShardingAttr sharding, MeshAttr mesh,
                       std::span<const std::string> manualAxes) {
  if (manualAxes.empty()) return okStatus();
  for (size_t i = 0; i < manualAxes.size(); ++i) {
    if (!mesh.hasAxis(manualAxes[i])) {
      return makeError(ErrorCode::kInvalid, "unknown manual axis: " + quoted(manualAxes[i]));
    }
    for (size_t j = 0; j < i; ++j) {
      if (manualAxes[j] == manualAxes[i]) {
        return makeError(ErrorCode::kInvalid, "duplicate manual axis: " + quoted(manualAxes[i]));
      }
    }
  }
  auto check = [&](std::span<const AxisRefAttr> refs) -> Status {
    for (AxisRefAttr ref : refs) {
      for (const std::string& manual : manualAxes) {
        if (ref.name() == manual) {
          return makeError(ErrorCode::kInvalid,
                           "operates on axis " + quoted(manual) +
                               " which is already bound by a parent sdy.manual_computation op");
        }
      }
    }
    return okStatus();
  };
  for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) SB_TRY(check(dim.axes()));
  SB_TRY(check(sharding.replicatedAxes()));
  // A fully manual value is `{manual}` whatever it is unreduced over: the
  // shard-map export gives the operands of a fully manual computation (as
  // the manual-reduction-collectives lowering creates) their in-sharding's
  // unreduced axes (xla/service/spmd/shardy/stablehlo_round_trip/
  // shard_map_export.cc).
  if (manualAxes.size() != mesh.axes().size()) SB_TRY(check(sharding.unreducedAxes()));
  return okStatus();
}

Result<MeshAttr> resolveMesh(TensorShardingAttr sharding, const sdy::MeshLookup& meshLookup) {
  sdy::MeshOrRef meshOrRef = sharding.meshOrRef();
  if (meshOrRef.isInline()) return meshOrRef.inlineMeshAttr();
  if (!meshOrRef.isRef()) return makeError(ErrorCode::kInvalid, "sharding without a mesh");
  MeshAttr mesh = meshLookup ? meshLookup(meshOrRef.refName()) : MeshAttr();
  if (mesh.isNull()) {
    return makeError(ErrorCode::kNotFound,
                     "unknown mesh: @" + std::string(meshOrRef.refName()));
  }
  return mesh;
}

// The mesh's devices reshaped to `reshapeDims` (one dim per piece),
// transposed by `perm` and reshaped to `tileDims`. On an iota mesh that is
// the iota itself. With device_ids it is the same iota used as indices into
// the id list: one pass over the devices, where reshaping, transposing and
// reshaping the id list would copy it three times.
Result<hlo::TileAssignment> tileAssignmentOnMesh(MeshAttr mesh, std::span<const int64_t> tileDims,
                                                 std::span<const int64_t> reshapeDims,
                                                 std::span<const int> perm) {
  std::span<const int64_t> ids = mesh.deviceIds();
  if (ids.empty()) return hlo::TileAssignment::iota(tileDims, reshapeDims, perm);
  if (static_cast<int64_t>(ids.size()) > hlo::kMaxDevices) {
    // Beyond the tile-assignment limits: let its own path report them.
    SB_ASSIGN_OR_RETURN(hlo::TileAssignment meshOrder,
                        hlo::TileAssignment::fromDevices(
                            reshapeDims, std::vector<int64_t>(ids.begin(), ids.end())));
    SB_ASSIGN_OR_RETURN(hlo::TileAssignment transposed, meshOrder.transpose(perm));
    return transposed.reshape(tileDims);
  }
  SB_ASSIGN_OR_RETURN(hlo::IotaTileAssignment order,
                      hlo::IotaTileAssignment::create(tileDims, reshapeDims, perm));
  if (order.numElements() != static_cast<int64_t>(ids.size())) {
    return makeError(ErrorCode::kInternal, "mesh device_ids do not match its axis sizes");
  }
  std::vector<int64_t> devices;
  order.materialize(devices);
  for (int64_t& device : devices) device = ids[static_cast<size_t>(device)];
  return hlo::TileAssignment::fromDevices(tileDims, std::move(devices));
}

}  // namespace

Result<HloSharding> convertToHloSharding(TensorShardingAttr sharding,
                                         const sdy::MeshLookup& meshLookup,
                                         std::span<const std::string> manualAxes,
                                         const ExportOptions& options) {
  if (sharding.isNull()) return makeError(ErrorCode::kInvalid, "null sharding");
  SB_ASSIGN_OR_RETURN(MeshAttr mesh, resolveMesh(sharding, meshLookup));
  // Upstream looks only at the mesh here and ignores the dimension
  // shardings; so does this, after checking the mesh itself.
  if (mesh.axes().empty()) {
    SB_TRY(sdy::verifyMesh(mesh));
    std::optional<int64_t> device = mesh.getMaximalDeviceId();
    if (device) {
      if (options.v3) return HloSharding::named(hlo::NamedSharding::maximal(*device));
      return HloSharding::singleDevice(*device);
    }
    // verifyMesh rejects several ids without axes; should a lookup hand out
    // such a mesh anyway, say so instead of guessing a device.
    if (!mesh.deviceIds().empty()) {
      return makeError(ErrorCode::kInvalid, "a mesh without axes takes at most one device id");
    }
    // V3: upstream builds NamedSharding(Mesh(), dims), the dims kept:
    // `{mesh[], [{}, {?}]}` (lit @mesh_empty_should_be_converted_to_replicated_sharding).
    if (options.v3) {
      std::vector<hlo::DimSharding> dims;
      for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) dims.push_back(hlo::DimSharding{{}, dim.isClosed()});
      SB_ASSIGN_OR_RETURN(hlo::NamedSharding named, hlo::NamedSharding::create(hlo::Mesh(), std::move(dims), {}, {}, {}));
      return HloSharding::named(std::move(named));
    }
    return HloSharding::replicate();
  }

  ResolvedSharding resolved;
  const bool isResolved = resolved.resolve(sharding, mesh);
  SB_ASSIGN_OR_RETURN(std::optional<int64_t> totalSize,
                      verifySharding(sharding, mesh, isResolved ? &resolved : nullptr, meshLookup));
  // A verified sharding names only mesh axes.
  if (!isResolved) return makeError(ErrorCode::kInternal, "unverified axis ref");
  SB_TRY(checkManualAxes(sharding, mesh, manualAxes));
  if (options.v3) return convertToNamedSharding(sharding, mesh, manualAxes, options);
  if (manualAxes.size() == mesh.axes().size()) return HloSharding::manual();

  // The older exporter (docs/upstream.md § The older exporter) knew no
  // unreduced axes: they fell into
  // the replication group. The current one (§ Export steps, steps 6-7) gives them their own
  // subgroup; dropUnreducedAxes restores the old behaviour. (The older one also
  // sizes the REPLICATED dim by the explicit replicated axes; the current
  // one, step 7, by every unclaimed piece, as shardbridge does.)
  std::span<const ResolvedRef> unreduced =
      options.dropUnreducedAxes ? std::span<const ResolvedRef>() : resolved.unreduced();
  std::vector<hlo::OpMetadata> metadata;
  if (!unreduced.empty()) metadata = reductionMetadata(sharding.reductionOp());

  // Every axis of size 1: nothing is split. Upstream's tile dims are then
  // all 1 with an UNREDUCED subgroup dim when there are unreduced axes, a
  // MANUAL one when there are manual axes. XLA's Subgroup collapses a lone
  // UNREDUCED type before it drops size-1 dims (docs/upstream.md § Export
  // steps, step 10), so unreduced axes alone give `{unreduced}` with the
  // reduction's metadata. Anything else is a one-device tile assignment XLA
  // cannot read back; `{replicated}` is what it means.
  if (totalSize && *totalSize == 1) {
    if (!unreduced.empty() && manualAxes.empty()) return HloSharding::unreduced(std::move(metadata));
    return HloSharding::replicate(std::move(metadata));
  }

  PieceTable table;
  SB_TRY(table.build(mesh, resolved, !options.dropUnreducedAxes));

  int64_t nextPosition = 0;
  detail::SmallVector<int64_t, 8> tileDims;
  detail::SmallVector<OpShardingType, 4> types;
  for (size_t d = 0; d < resolved.rank(); ++d) {
    int64_t tile = 1;
    for (const ResolvedRef& ref : resolved.dim(d)) {
      SB_ASSIGN_OR_RETURN(int64_t size, table.claim(ref, nextPosition));
      std::optional<int64_t> product = checkedMul(tile, size);
      if (!product) return makeError(ErrorCode::kInvalid, "sharded size overflows int64");
      tile = *product;
    }
    tileDims.push_back(tile);
  }
  // Sizes below come from a verified mesh whose total size fits in int64, so
  // products of distinct pieces cannot overflow.
  if (!manualAxes.empty()) {
    int64_t group = 1;
    for (const std::string& name : manualAxes) {
      SB_ASSIGN_OR_RETURN(int64_t size,
                          table.claimFullAxis(mesh, *mesh.getAxisIndex(name), nextPosition));
      group *= size;
    }
    tileDims.push_back(group);
    types.push_back(OpShardingType::kManual);
  }
  if (!unreduced.empty()) {
    int64_t group = 1;
    for (const ResolvedRef& ref : unreduced) {
      SB_ASSIGN_OR_RETURN(int64_t size, table.claim(ref, nextPosition));
      group *= size;
    }
    tileDims.push_back(group);
    types.push_back(OpShardingType::kUnreduced);
  }
  // Every piece nobody claimed (implicitly or explicitly replicated) takes
  // the next slot in mesh order, so the replication group is one dim.
  int64_t replicated = 1;
  for (AxisPiece& piece : table.pieces()) {
    if (piece.position != -1) continue;
    piece.position = nextPosition++;
    replicated *= piece.size;
  }
  if (replicated > 1) {
    tileDims.push_back(replicated);
    types.push_back(OpShardingType::kReplicated);
  }
  // With more than one device some dim exists; this only keeps the
  // tile-assignment call away from an empty shape, which it rejects.
  if (tileDims.empty()) tileDims.push_back(1);

  // reshape[i] is piece i; the transposed order lists the pieces by
  // position.
  std::span<const AxisPiece> pieces = table.pieces();
  detail::SmallVector<int64_t, 16> reshapeDims;
  detail::SmallVector<int, 16> perm(pieces.size(), 0);
  for (size_t i = 0; i < pieces.size(); ++i) {
    reshapeDims.push_back(pieces[i].size);
    perm[static_cast<size_t>(pieces[i].position)] = static_cast<int>(i);
  }

  SB_ASSIGN_OR_RETURN(hlo::TileAssignment tiles,
                      tileAssignmentOnMesh(mesh, tileDims, reshapeDims, perm));
  return HloSharding::subgroup(tiles, types, std::move(metadata));
}

Result<HloSharding> convertToHloSharding(sdy::TensorShardingPerValueAttr shardings,
                                         const sdy::MeshLookup& meshLookup,
                                         std::span<const std::string> manualAxes,
                                         const ExportOptions& options) {
  if (shardings.isNull()) return makeError(ErrorCode::kInvalid, "null sharding");
  std::span<const TensorShardingAttr> values = shardings.shardings();
  if (values.size() == 1) return convertToHloSharding(values[0], meshLookup, manualAxes, options);
  std::vector<HloSharding> elements;
  for (TensorShardingAttr value : values) {
    SB_ASSIGN_OR_RETURN(HloSharding element,
                        convertToHloSharding(value, meshLookup, manualAxes, options));
    elements.push_back(std::move(element));
  }
  return HloSharding::tuple(std::move(elements));
}

}  // namespace shardbridge::convert
