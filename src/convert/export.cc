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

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;
using hlo::OpShardingType;
using sdy::AxisRefAttr;
using sdy::MeshAttr;
using sdy::TensorShardingAttr;

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
// shardings and unreduced axes only, as the facts (§3) read upstream; the
// design notes (§B.2 item 3) say replicated and manual refs are ordered too.
// Where they differ the facts win: replicated refs never cut (so explicit
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
  // Cuts every axis of `mesh` at the sub-axis boundaries of `cutters`. The
  // sharding has been verified, so the boundaries of one axis divide each
  // other and every sub-axis is one piece.
  static Result<PieceTable> build(MeshAttr mesh,
                                  std::span<const std::span<const AxisRefAttr>> cutters) {
    std::span<const sdy::MeshAxisAttr> axes = mesh.axes();
    std::vector<std::vector<int64_t>> cuts(axes.size());
    for (size_t a = 0; a < axes.size(); ++a) cuts[a] = {1, axes[a].size()};
    for (std::span<const AxisRefAttr> refs : cutters) {
      for (AxisRefAttr ref : refs) {
        if (!ref.isSubAxis()) continue;
        std::optional<size_t> axis = mesh.getAxisIndex(ref.name());
        std::optional<int64_t> next =
            checkedMul(ref.subAxisInfo().preSize(), ref.subAxisInfo().size());
        if (!axis || !next) {
          return makeError(ErrorCode::kInternal, "unverified axis ref: " + ref.toString());
        }
        cuts[*axis].push_back(ref.subAxisInfo().preSize());
        cuts[*axis].push_back(*next);
      }
    }
    PieceTable table;
    for (size_t a = 0; a < axes.size(); ++a) {
      std::vector<int64_t>& c = cuts[a];
      std::sort(c.begin(), c.end());
      c.erase(std::unique(c.begin(), c.end()), c.end());
      table.firstPiece_.push_back(table.pieces_.size());
      if (c.size() < 2) {
        // A size-1 axis: upstream emits no piece for it; one piece of size
        // 1 is equivalent (iota canonicalisation drops it) and keeps every
        // axis addressable.
        table.pieces_.push_back(AxisPiece{a, 1, 1, -1});
        continue;
      }
      for (size_t j = 0; j + 1 < c.size(); ++j) {
        if (c[j] < 1 || c[j + 1] % c[j] != 0) {
          return makeError(ErrorCode::kInternal,
                           "sub-axes of " + quoted(axes[a].name()) + " cannot coexist");
        }
        table.pieces_.push_back(AxisPiece{a, c[j], c[j + 1] / c[j], -1});
      }
    }
    table.firstPiece_.push_back(table.pieces_.size());
    return table;
  }

  // Gives the piece `ref` stands for the next position; returns its size.
  Result<int64_t> claim(MeshAttr mesh, AxisRefAttr ref, int64_t& nextPosition) {
    std::optional<size_t> axis = mesh.getAxisIndex(ref.name());
    if (!axis) return makeError(ErrorCode::kInternal, "unverified axis ref: " + ref.toString());
    int64_t pre = ref.isSubAxis() ? ref.subAxisInfo().preSize() : 1;
    int64_t size = ref.isSubAxis() ? ref.subAxisInfo().size() : mesh.axes()[*axis].size();
    if (auto claimed = claim(*axis, pre, size, nextPosition)) return *claimed;
    // The message is built only on this (unreachable after verification) path.
    return makeError(ErrorCode::kInternal, "axis ref overlaps another: " + ref.toString());
  }

  // The same for the full axis at index `axis` of `mesh`.
  Result<int64_t> claimFullAxis(MeshAttr mesh, size_t axis, int64_t& nextPosition) {
    if (auto claimed = claim(axis, 1, mesh.axes()[axis].size(), nextPosition)) return *claimed;
    return makeError(ErrorCode::kInternal,
                     "axis ref overlaps another: " + quoted(mesh.axes()[axis].name()));
  }

  std::vector<AxisPiece>& pieces() { return pieces_; }

 private:
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

  std::vector<AxisPiece> pieces_;
  std::vector<size_t> firstPiece_;  // per axis, plus one past the end
};

// The manual axes must be distinct mesh axes that the sharding itself does
// not use (inside a manual computation the sharding speaks only of the free
// axes).
Status checkManualAxes(TensorShardingAttr sharding, MeshAttr mesh,
                       std::span<const std::string> manualAxes) {
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
  SB_TRY(check(sharding.unreducedAxes()));
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

// The V3 AxisRef of a verified sdy axis ref: the mesh axis by index,
// keeping the sub-axis.
Result<hlo::AxisRef> toNamedAxisRef(MeshAttr mesh, AxisRefAttr ref) {
  std::optional<size_t> axis = mesh.getAxisIndex(ref.name());
  if (!axis) return makeError(ErrorCode::kInternal, "unverified axis ref: " + ref.toString());
  int64_t index = static_cast<int64_t>(*axis);
  if (!ref.isSubAxis()) return hlo::AxisRef::full(index);
  return hlo::AxisRef::sub(index, ref.subAxisInfo().preSize(), ref.subAxisInfo().size());
}

Result<std::vector<hlo::AxisRef>> toNamedAxisRefs(MeshAttr mesh,
                                                  std::span<const AxisRefAttr> refs) {
  std::vector<hlo::AxisRef> out;
  for (AxisRefAttr ref : refs) {
    SB_ASSIGN_OR_RETURN(hlo::AxisRef axis, toNamedAxisRef(mesh, ref));
    out.push_back(axis);
  }
  return out;
}

// The V3 mesh of an sdy mesh with axes: same names and sizes, and the
// device order when it is explicit. sdy::verifyMesh already rejects an
// explicit identity list, which hlo::Mesh would reject too; it is mapped to
// the iota mesh anyway, so a lookup handing out such a mesh cannot fail here.
Result<hlo::Mesh> toNamedMesh(MeshAttr mesh) {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  for (sdy::MeshAxisAttr axis : mesh.axes()) {
    names.push_back(std::string(axis.name()));
    sizes.push_back(axis.size());
  }
  std::span<const int64_t> ids = mesh.deviceIds();
  bool identity = true;
  for (size_t i = 0; i < ids.size(); ++i) identity = identity && ids[i] == static_cast<int64_t>(i);
  if (identity) return hlo::Mesh::create(std::move(names), sizes);
  return hlo::Mesh::createWithDeviceIds(std::move(names), sizes,
                                        std::vector<int64_t>(ids.begin(), ids.end()));
}

// Upstream's V3 export (convertToNamedSharding, facts §4.4): the sdy
// sharding copied field by field onto a NamedSharding. `sharding` and
// `manualAxes` are verified and `mesh` has axes.
Result<HloSharding> convertToNamedSharding(TensorShardingAttr sharding, MeshAttr mesh,
                                           std::span<const std::string> manualAxes,
                                           const ExportOptions& options) {
  SB_ASSIGN_OR_RETURN(hlo::Mesh namedMesh, toNamedMesh(mesh));
  if (manualAxes.size() == mesh.axes().size()) {
    SB_ASSIGN_OR_RETURN(hlo::NamedSharding manual, hlo::NamedSharding::manual(namedMesh));
    return HloSharding::named(std::move(manual));
  }
  std::vector<hlo::DimSharding> dims;
  for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) {
    SB_ASSIGN_OR_RETURN(std::vector<hlo::AxisRef> axes, toNamedAxisRefs(mesh, dim.axes()));
    dims.push_back(hlo::DimSharding{std::move(axes), dim.isClosed()});
  }
  SB_ASSIGN_OR_RETURN(std::vector<hlo::AxisRef> replicated,
                      toNamedAxisRefs(mesh, sharding.replicatedAxes()));
  std::vector<hlo::AxisRef> unreduced;
  if (!options.dropUnreducedAxes) {
    SB_ASSIGN_OR_RETURN(unreduced, toNamedAxisRefs(mesh, sharding.unreducedAxes()));
  }
  // Upstream lists the manual axes in the caller's order and XLA's
  // NamedSharding verifier then CHECK-fails unless that is mesh order. In
  // V3 the manual axes are a set (V3ToV2 reads them in mesh order), so they
  // are sorted instead of rejected: `manual={'a', 'b'}` for "b,a" too.
  std::vector<hlo::AxisRef> manual;
  for (const std::string& name : manualAxes) {
    manual.push_back(hlo::AxisRef::full(static_cast<int64_t>(*mesh.getAxisIndex(name))));
  }
  std::sort(manual.begin(), manual.end(), [](const hlo::AxisRef& a, const hlo::AxisRef& b) {
    return a.meshAxisIndex < b.meshAxisIndex;
  });
  // Upstream's V3 leaf carries no metadata, so the reduction kind of the
  // unreduced axes is not written (the V2 string carries it).
  SB_ASSIGN_OR_RETURN(hlo::NamedSharding named,
                      hlo::NamedSharding::create(std::move(namedMesh), std::move(dims),
                                                 std::move(replicated), std::move(unreduced),
                                                 std::move(manual)));
  return HloSharding::named(std::move(named));
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
    // V3: upstream builds NamedSharding(Mesh(), dims); with no axis anywhere
    // the dims canonicalise away, which is `{mesh[], replicated}`.
    if (options.v3) return HloSharding::named(hlo::NamedSharding::replicate());
    return HloSharding::replicate();
  }

  SB_TRY(sdy::verifyTensorSharding(sharding, meshLookup));
  SB_TRY(checkManualAxes(sharding, mesh, manualAxes));
  if (options.v3) return convertToNamedSharding(sharding, mesh, manualAxes, options);
  if (manualAxes.size() == mesh.axes().size()) return HloSharding::manual();

  // The design notes' exporter (§B) knew no unreduced axes: they fell into
  // the replication group. The facts (§4.1 steps 6-7) give them their own
  // subgroup; dropUnreducedAxes restores the old behaviour. (The notes also
  // size the REPLICATED dim by the explicit replicated axes; the facts, step
  // 7, by every unclaimed piece. The facts win.)
  std::span<const AxisRefAttr> unreduced =
      options.dropUnreducedAxes ? std::span<const AxisRefAttr>() : sharding.unreducedAxes();
  std::vector<hlo::OpMetadata> metadata;
  if (!unreduced.empty()) metadata = reductionMetadata(sharding.reductionOp());

  // Every axis of size 1: nothing is split. Upstream emits a one-device
  // tile assignment XLA cannot read back; `{replicated}` is what it means.
  std::optional<int64_t> totalSize = mesh.getTotalSize();
  if (totalSize && *totalSize == 1) return HloSharding::replicate(std::move(metadata));

  std::vector<std::span<const AxisRefAttr>> cutters;
  for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) cutters.push_back(dim.axes());
  cutters.push_back(unreduced);
  SB_ASSIGN_OR_RETURN(PieceTable table, PieceTable::build(mesh, cutters));

  int64_t nextPosition = 0;
  std::vector<int64_t> tileDims;
  std::vector<OpShardingType> types;
  for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) {
    int64_t tile = 1;
    for (AxisRefAttr ref : dim.axes()) {
      SB_ASSIGN_OR_RETURN(int64_t size, table.claim(mesh, ref, nextPosition));
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
    for (AxisRefAttr ref : unreduced) {
      SB_ASSIGN_OR_RETURN(int64_t size, table.claim(mesh, ref, nextPosition));
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
  std::vector<AxisPiece>& pieces = table.pieces();
  std::vector<int64_t> reshapeDims;
  std::vector<int> perm(pieces.size(), 0);
  for (size_t i = 0; i < pieces.size(); ++i) {
    reshapeDims.push_back(pieces[i].size);
    perm[static_cast<size_t>(pieces[i].position)] = static_cast<int>(i);
  }

  hlo::TileAssignment tiles;
  if (mesh.deviceIds().empty()) {
    SB_ASSIGN_OR_RETURN(tiles, hlo::TileAssignment::iota(tileDims, reshapeDims, perm));
  } else {
    std::span<const int64_t> ids = mesh.deviceIds();
    SB_ASSIGN_OR_RETURN(hlo::TileAssignment meshOrder,
                        hlo::TileAssignment::fromDevices(
                            reshapeDims, std::vector<int64_t>(ids.begin(), ids.end())));
    SB_ASSIGN_OR_RETURN(hlo::TileAssignment transposed, meshOrder.transpose(perm));
    SB_ASSIGN_OR_RETURN(tiles, transposed.reshape(tileDims));
  }
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
