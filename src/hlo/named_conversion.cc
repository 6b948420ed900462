// The V2 <-> V3 conversions of named_sharding.h: XLA's V3ToV2Sharding
// (xla/hlo/utils/hlo_sharding_util.cc) and HloSharding::ToNamedSharding
// (xla/hlo/ir/hlo_sharding.cc). The V3 model itself is named_sharding.cc.
#include <algorithm>
#include <numeric>
#include <utility>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::hlo {

namespace {

Error unsupported(std::string message) {
  return makeError(ErrorCode::kUnsupported, std::move(message));
}

}  // namespace

// ---------------------------------------------------------------------------
// V3 -> V2 (XLA's V3ToV2Sharding)

namespace {

// XLA's GetOrderedAxisRefs: every mesh axis cut at every sub-axis boundary
// the sharding uses, major to minor; an uncut axis stays whole.
Result<std::vector<AxisRef>> orderedAxisPieces(const NamedSharding& ns) {
  const Mesh& mesh = ns.mesh();
  std::vector<std::vector<int64_t>> cuts(static_cast<size_t>(mesh.numAxes()));
  for (int64_t i = 0; i < mesh.numAxes(); ++i) {
    cuts[static_cast<size_t>(i)] = {1, mesh.axisSize(i)};
  }
  auto collect = [&](const AxisRef& a) {
    if (!a.subAxis) return;
    auto& c = cuts[static_cast<size_t>(a.meshAxisIndex)];
    c.push_back(a.subAxis->preSize);
    c.push_back(a.subAxis->preSize * a.subAxis->size);
  };
  for (const DimSharding& d : ns.dimShardings()) {
    for (const AxisRef& a : d.axes) collect(a);
  }
  for (const AxisRef& a : ns.replicatedAxes()) collect(a);
  for (const AxisRef& a : ns.unreducedAxes()) collect(a);
  for (const AxisRef& a : ns.manualAxes()) collect(a);
  std::vector<AxisRef> pieces;
  for (int64_t i = 0; i < mesh.numAxes(); ++i) {
    auto& c = cuts[static_cast<size_t>(i)];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    if (c.size() <= 2) {
      pieces.push_back(AxisRef::full(i));
      continue;
    }
    for (size_t j = 0; j + 1 < c.size(); ++j) {
      // Verified sub-axes cut an axis into a divisibility chain.
      if (c[j + 1] % c[j] != 0) return makeError(ErrorCode::kInternal, "sub-axes do not nest");
      pieces.push_back(AxisRef::sub(i, c[j], c[j + 1] / c[j]));
    }
  }
  return pieces;
}

}  // namespace

Result<HloSharding> toV2Sharding(const NamedSharding& ns) {
  const Mesh& mesh = ns.mesh();
  if (ns.isReplicated()) return HloSharding::replicate(ns.metadata());
  if (ns.isMaximal()) return HloSharding::singleDevice(mesh.deviceAssignment().first(), ns.metadata());

  std::vector<int64_t> tileDims;
  std::vector<std::pair<AxisRef, int>> position;  // ref -> transposed position
  int next = 0;
  // XLA's CanonicalizedDimShardings: dims that hold no axis at all give no
  // tile dims (hlo_sharding_util_test.cc TileShapeWithMixedUnreducedSubgroupSharding).
  const bool noDimAxes = std::all_of(ns.dimShardings().begin(), ns.dimShardings().end(),
                                     [](const DimSharding& d) { return d.axes.empty(); });
  const size_t dimCount = noDimAxes ? 0 : ns.dimShardings().size();
  for (size_t i = 0; i < dimCount; ++i) {
    tileDims.push_back(ns.shardedSize(i));
    for (const AxisRef& a : ns.dimShardings()[i].axes) position.push_back({a, next++});
  }
  std::vector<OpShardingType> types;
  auto addSubgroup = [&](const std::vector<AxisRef>& axes, OpShardingType type) {
    if (axes.empty()) return;
    types.push_back(type);
    int64_t size = 1;
    for (const AxisRef& a : axes) {
      size *= ns.axisSize(a);
      position.push_back({a, next++});
    }
    tileDims.push_back(size);
  };
  addSubgroup(ns.manualAxes(), OpShardingType::kManual);
  addSubgroup(ns.unreducedAxes(), OpShardingType::kUnreduced);

  SB_ASSIGN_OR_RETURN(std::vector<AxisRef> pieces, orderedAxisPieces(ns));
  std::vector<int64_t> reshape;
  std::vector<int> perm(pieces.size(), 0);
  int64_t replicatedSize = 1;
  int replicatedPos = next;
  for (size_t i = 0; i < pieces.size(); ++i) {
    reshape.push_back(ns.axisSize(pieces[i]));
    auto it = std::find_if(position.begin(), position.end(),
                           [&](const auto& p) { return p.first == pieces[i]; });
    if (it == position.end()) {
      // Explicitly or implicitly replicated: after every used axis, in mesh order.
      perm[static_cast<size_t>(replicatedPos++)] = static_cast<int>(i);
      replicatedSize *= reshape.back();
    } else {
      perm[static_cast<size_t>(it->second)] = static_cast<int>(i);
    }
  }
  if (replicatedSize > 1) {
    tileDims.push_back(replicatedSize);
    types.push_back(OpShardingType::kReplicated);
  }
  if (tileDims.empty()) tileDims.push_back(1);  // only size-1 axes: one device

  Result<TileAssignment> tiles = TileAssignment();
  if (!mesh.hasExplicitDeviceOrder()) {
    tiles = TileAssignment::iota(tileDims, reshape, perm);
  } else {
    SB_ASSIGN_OR_RETURN(TileAssignment r, mesh.deviceAssignment().reshape(reshape));
    SB_ASSIGN_OR_RETURN(TileAssignment t, r.transpose(perm));
    tiles = t.reshape(tileDims);
  }
  if (!tiles) return std::move(tiles).error();
  return HloSharding::subgroup(*tiles, types, ns.metadata());
}

Result<HloSharding> toV2Sharding(const HloSharding& sharding) {
  if (sharding.isTuple()) {
    std::vector<HloSharding> leaves;
    for (const HloSharding& e : sharding.tupleElements()) {
      SB_ASSIGN_OR_RETURN(HloSharding leaf, toV2Sharding(e));
      leaves.push_back(std::move(leaf));
    }
    return HloSharding::tuple(std::move(leaves));
  }
  if (!sharding.isNamed()) return sharding;
  return toV2Sharding(*sharding.namedSharding());
}

// ---------------------------------------------------------------------------
// V2 -> V3 (XLA's ToNamedSharding)

namespace {

std::vector<std::string> axisNames(size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back("axis_" + std::to_string(i));
  return names;
}

// One factor of the common factorisation of the tile dims and the
// transposed reshape dims.
struct Factor {
  int64_t size;
  size_t tileDim;
  int reshapeDim;
};

// ExtractCommonFactorSequence over (tile dims, transposed reshape dims),
// skipping 1s; nullopt when one side is not a multiple of the other.
std::optional<std::vector<Factor>> commonFactors(std::span<const int64_t> dims,
                                                 std::span<const int64_t> reshape,
                                                 std::span<const int> perm) {
  std::vector<Factor> out;
  size_t i = 0, j = 0;
  int64_t a = 1, b = 1;
  while (true) {
    while (a == 1 && i < dims.size()) a = dims[i++];
    while (b == 1 && j < perm.size()) b = reshape[static_cast<size_t>(perm[j++])];
    if (a == 1 || b == 1) break;
    const int64_t f = std::min(a, b);
    if (std::max(a, b) % f != 0) return std::nullopt;
    out.push_back(Factor{f, i - 1, perm[j - 1]});
    a /= f;
    b /= f;
  }
  if (a != 1 || b != 1) return std::nullopt;
  return out;
}

struct SubgroupKinds {
  size_t dataRank;
  std::vector<OpShardingType> types;  // one per trailing dim
};

Result<SubgroupKinds> subgroupKinds(const HloSharding& s) {
  SubgroupKinds k;
  std::vector<OpShardingType> types = s.subgroupTypes();
  if (s.replicateOnLastTileDim()) types.push_back(OpShardingType::kReplicated);
  for (OpShardingType t : types) {
    if (t != OpShardingType::kManual && t != OpShardingType::kUnreduced &&
        t != OpShardingType::kReplicated) {
      return unsupported(s.toString() + " has a " + subgroupTypeName(t) +
                         " subgroup, which has no V3 form");
    }
  }
  k.dataRank = static_cast<size_t>(s.tileAssignment().numDimensions()) - types.size();
  k.types = std::move(types);
  return k;
}

Result<HloSharding> finish(Mesh mesh, std::vector<DimSharding> dims, std::vector<AxisRef> unreduced,
                           std::vector<AxisRef> manual, const HloSharding& s) {
  SB_ASSIGN_OR_RETURN(NamedSharding ns,
                      NamedSharding::create(std::move(mesh), std::move(dims), {},
                                            std::move(unreduced), std::move(manual), s.metadata()));
  return HloSharding::named(std::move(ns));
}

// The iota path; nullopt when the factorisation fails or would list
// manual/unreduced factors out of mesh order (V3 requires them sorted).
Result<std::optional<HloSharding>> namedFromIota(const HloSharding& s, const SubgroupKinds& k,
                                                 std::span<const int64_t> reshape,
                                                 std::span<const int> perm) {
  const auto dims = s.tileAssignment().dimensions();
  std::optional<std::vector<Factor>> factors = commonFactors(dims, reshape, perm);
  if (!factors) return std::optional<HloSharding>();
  // Mesh axes: the factors in device-major order (by reshape dim, then as
  // they come, which is major to minor within a reshape dim).
  std::vector<size_t> order(factors->size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return (*factors)[x].reshapeDim < (*factors)[y].reshapeDim;
  });
  std::vector<int64_t> meshIndex(factors->size()), sizes;
  for (size_t m = 0; m < order.size(); ++m) {
    meshIndex[order[m]] = static_cast<int64_t>(m);
    sizes.push_back((*factors)[order[m]].size);
  }
  std::vector<DimSharding> dimShardings(k.dataRank);
  std::vector<AxisRef> manual, unreduced;
  for (size_t f = 0; f < factors->size(); ++f) {
    const size_t d = (*factors)[f].tileDim;
    const AxisRef ref = AxisRef::full(meshIndex[f]);
    if (d < k.dataRank) {
      dimShardings[d].axes.push_back(ref);
      continue;
    }
    const OpShardingType t = k.types[d - k.dataRank];
    std::vector<AxisRef>* list = t == OpShardingType::kManual      ? &manual
                                 : t == OpShardingType::kUnreduced ? &unreduced
                                                                   : nullptr;
    if (!list) continue;  // replication stays implicit
    if (!list->empty() && list->back().meshAxisIndex >= ref.meshAxisIndex) {
      return std::optional<HloSharding>();
    }
    list->push_back(ref);
  }
  Result<Mesh> mesh = sizes.empty() ? Result<Mesh>(Mesh()) : Mesh::create(axisNames(sizes.size()), sizes);
  if (!mesh) return std::move(mesh).error();
  SB_ASSIGN_OR_RETURN(HloSharding out, finish(std::move(*mesh), std::move(dimShardings),
                                               std::move(unreduced), std::move(manual), s));
  return std::optional<HloSharding>(std::move(out));
}

// The explicit path: one mesh axis per tile dim, the device list as ids.
Result<HloSharding> namedFromDevices(const HloSharding& s, const SubgroupKinds& k) {
  const TileAssignment& tiles = s.tileAssignment();
  const auto dims = tiles.dimensions();
  std::vector<int64_t> sizes(dims.begin(), dims.end());
  Result<Mesh> mesh = Mesh();
  if (const auto& iota = tiles.iotaForm()) {
    // An iota is always a permutation; keep it compact (device_ids=([..]T(..))).
    mesh = Mesh::create(axisNames(sizes.size()), sizes, iota->reshapeDims(), iota->transposePerm());
  } else {
    Result<std::span<const int64_t>> devices = tiles.devices();
    if (!devices) {
      return unsupported(s.toString() + " has no V3 form here: " + devices.error().message);
    }
    mesh = Mesh::createWithDeviceIds(axisNames(sizes.size()), sizes,
                                     std::vector<int64_t>(devices->begin(), devices->end()));
  }
  if (!mesh) {
    return unsupported(s.toString() + " has no V3 form: its devices cannot be a mesh (" +
                       mesh.error().message + ")");
  }
  std::vector<DimSharding> dimShardings(k.dataRank);
  for (size_t d = 0; d < k.dataRank; ++d) {
    dimShardings[d].axes.push_back(AxisRef::full(static_cast<int64_t>(d)));
  }
  std::vector<AxisRef> manual, unreduced;
  for (size_t t = 0; t < k.types.size(); ++t) {
    const AxisRef ref = AxisRef::full(static_cast<int64_t>(k.dataRank + t));
    if (k.types[t] == OpShardingType::kManual) manual.push_back(ref);
    if (k.types[t] == OpShardingType::kUnreduced) unreduced.push_back(ref);
  }
  return finish(std::move(*mesh), std::move(dimShardings), std::move(unreduced),
                std::move(manual), s);
}

bool isIdentityList(const TileAssignment& tiles) {
  Result<std::span<const int64_t>> devices = tiles.devices();
  if (!devices) return false;
  for (size_t i = 0; i < devices->size(); ++i) {
    if ((*devices)[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace

Result<HloSharding> toNamedSharding(const HloSharding& s) {
  using Kind = HloSharding::Kind;
  switch (s.kind()) {
    case Kind::kTuple: {
      std::vector<HloSharding> leaves;
      for (size_t i = 0; i < s.tupleElements().size(); ++i) {
        Result<HloSharding> leaf = toNamedSharding(s.tupleElements()[i]);
        if (!leaf) {
          Error e = std::move(leaf).error();
          e.message = "tuple element " + std::to_string(i) + ": " + e.message;
          return e;
        }
        leaves.push_back(std::move(*leaf));
      }
      return HloSharding::tuple(std::move(leaves));
    }
    case Kind::kNamed: return s;
    case Kind::kReplicated: return HloSharding::named(NamedSharding::replicate(s.metadata()));
    case Kind::kSingleDevice:
      return HloSharding::named(NamedSharding::maximal(s.tileAssignment().first(), s.metadata()));
    case Kind::kManual:
    case Kind::kUnknown:
    case Kind::kUnreduced:
      return unsupported(s.toString() + " has no V3 form (no mesh to name; XLA's "
                                        "ToNamedSharding aborts on it)");
    case Kind::kTiled: break;
  }
  SB_ASSIGN_OR_RETURN(SubgroupKinds k, subgroupKinds(s));
  const TileAssignment& tiles = s.tileAssignment();
  const auto& iota = tiles.iotaForm();
  if (iota || isIdentityList(tiles)) {
    const int64_t n = tiles.numElements();
    const int zero = 0;
    std::span<const int64_t> reshape = iota ? iota->reshapeDims() : std::span<const int64_t>(&n, 1);
    std::span<const int> perm = iota ? iota->transposePerm() : std::span<const int>(&zero, 1);
    SB_ASSIGN_OR_RETURN(std::optional<HloSharding> named, namedFromIota(s, k, reshape, perm));
    if (named) return std::move(*named);
  }
  return namedFromDevices(s, k);
}

Result<std::string> printAsV3(const HloSharding& sharding, bool includeMetadata) {
  SB_ASSIGN_OR_RETURN(HloSharding named, toNamedSharding(sharding));
  return named.toString(includeMetadata);
}

}  // namespace shardbridge::hlo
