// HloSharding: factories with XLA's normalisation, and equality. The
// predicates and queries are in hlo_sharding_queries.cc, the printer in
// hlo_sharding_print.cc, validation and tile geometry in
// sharding_geometry.cc.
#include "shardbridge/hlo/hlo_sharding.h"

#include "shardbridge/base/checked_math.h"

#include "shardbridge/hlo/named_sharding.h"
#include "tile_assignment_detail.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <utility>

namespace shardbridge::hlo {

namespace {



// XLA's GroupMinorIotaDimsSorted: makes the minor `groupSize` devices of an
// iota (the replication group) appear in ascending order while staying an
// iota. Walking the perm from its minor end, whole reshape dims are consumed
// while they divide the group; a larger dim is split in two, its minor part
// joining the group. Sorting the perm entries of the group then orders its
// members. Returns false when sizes do not divide (the caller falls back to
// an explicit array).
bool groupMinorIotaDimsSorted(std::span<const int64_t> dims, std::span<const int> perm,
                              int64_t groupSize, std::vector<int64_t>& newDims,
                              std::vector<int>& newPerm) {
  size_t grouped = 0;
  std::optional<std::pair<int, int64_t>> split;  // (reshape dim, major part)
  for (size_t i = perm.size(); i-- > 0;) {
    const int dim = perm[i];
    const int64_t size = dims[static_cast<size_t>(dim)];
    if (size <= groupSize) {
      if (groupSize % size != 0) return false;
      groupSize /= size;
      ++grouped;
    } else {
      if (size % groupSize != 0) return false;
      split.emplace(dim, size / groupSize);
      ++grouped;
      groupSize = 1;
      break;
    }
  }
  newDims.clear();
  newPerm.clear();
  if (!split) {
    newDims.assign(dims.begin(), dims.end());
    newPerm.assign(perm.begin(), perm.end());
  } else {
    // Reshape dim s becomes (major, minor); later reshape dims shift by one.
    const int s = split->first;
    for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
      if (i == s) {
        newDims.push_back(split->second);
        newDims.push_back(dims[static_cast<size_t>(i)] / split->second);
      } else {
        newDims.push_back(dims[static_cast<size_t>(i)]);
      }
    }
    for (int p : perm) {
      if (p == s) {
        newPerm.push_back(s);
        newPerm.push_back(s + 1);
      } else {
        newPerm.push_back(p < s ? p : p + 1);
      }
    }
  }
  // Perm entries are distinct, so a plain sort is as good as a stable one.
  std::sort(newPerm.end() - static_cast<std::ptrdiff_t>(grouped), newPerm.end());
  return true;
}

// Whether groupMinorIotaDimsSorted would give back the canonical iota
// (`dims`, `perm`) unchanged, decided without building anything. It takes
// the same steps: whole reshape dims from the perm's minor end while they
// divide the group, then, if the group is not yet covered, the minor part of
// the next dim. Its sort leaves the perm as it is exactly when the perm
// entries of those dims ascend; the split dim's two halves are then
// neighbours in the perm, which canonicalisation fuses back (as it drops a
// minor half of size 1), and the input was canonical.
bool groupIsSortedMinorDims(std::span<const int64_t> dims, std::span<const int> perm,
                            int64_t groupSize) {
  size_t i = perm.size();
  while (i > 0) {
    const int64_t size = dims[static_cast<size_t>(perm[i - 1])];
    if (size > groupSize) break;
    if (groupSize % size != 0) return false;
    groupSize /= size;
    --i;
  }
  if (groupSize > 1) {
    if (i == 0 || dims[static_cast<size_t>(perm[i - 1])] % groupSize != 0) return false;
    --i;
  }
  for (size_t j = i + 1; j < perm.size(); ++j) {
    if (perm[j - 1] > perm[j]) return false;
  }
  return true;
}

// Position of each type in XLA's subgroup order (MAXIMAL, TUPLE, OTHER,
// MANUAL, UNREDUCED, REPLICATED, UNKNOWN).
constexpr std::array<OpShardingType, 7> kOrderedTypes = {
    OpShardingType::kMaximal,   OpShardingType::kTuple,      OpShardingType::kOther,
    OpShardingType::kManual,    OpShardingType::kUnreduced,  OpShardingType::kReplicated,
    OpShardingType::kUnknown};

}  // namespace

bool isValidOpShardingType(int64_t value) { return value >= 0 && value <= 6; }

std::vector<const HloSharding*> leavesOf(const HloSharding& sharding) {
  std::vector<const HloSharding*> leaves;
  if (sharding.isTuple()) {
    for (const HloSharding& element : sharding.tupleElements()) leaves.push_back(&element);
  } else {
    leaves.push_back(&sharding);
  }
  return leaves;
}

// ---------------------------------------------------------------------------
// Construction

HloSharding::HloSharding() = default;

HloSharding::HloSharding(Kind kind, std::vector<OpMetadata> metadata)
    : kind_(kind), metadata_(std::move(metadata)) {}

HloSharding HloSharding::replicate(std::vector<OpMetadata> md) {
  return HloSharding(Kind::kReplicated, std::move(md));
}
HloSharding HloSharding::manual(std::vector<OpMetadata> md) {
  return HloSharding(Kind::kManual, std::move(md));
}
HloSharding HloSharding::unknown(std::vector<OpMetadata> md) {
  return HloSharding(Kind::kUnknown, std::move(md));
}
HloSharding HloSharding::unreduced(std::vector<OpMetadata> md) {
  return HloSharding(Kind::kUnreduced, std::move(md));
}

HloSharding HloSharding::singleDevice(int64_t device, std::vector<OpMetadata> md) {
  HloSharding s(Kind::kSingleDevice, std::move(md));
  s.tileAssignment_ = TileAssignment::singleDevice(device);
  return s;
}

HloSharding HloSharding::tiled(TileAssignment tiles, bool replicateOnLastTileDim,
                               std::vector<OpShardingType> types, std::vector<OpMetadata> md) {
  HloSharding s(Kind::kTiled, std::move(md));
  s.tileAssignment_ = std::move(tiles);
  s.replicateOnLastTileDim_ = replicateOnLastTileDim;
  s.subgroupTypes_ = std::move(types);
  return s;
}

Result<HloSharding> HloSharding::tile(TileAssignment tiles, std::vector<OpMetadata> md) {
  // Built in the Result and returned by name on every path, so that the
  // compiler elides the return: fromProto's plain iota comes here, and a
  // moved HloSharding was a fifth of its cost.
  Result<HloSharding> result(std::in_place);
  if (tiles.numElements() == 0) {
    result = invalidError("a tiled sharding needs a non-empty tile assignment");
    return result;
  }
  result->kind_ = Kind::kTiled;
  result->tileAssignment_ = std::move(tiles);
  result->metadata_ = std::move(md);
  return result;
}

Result<HloSharding> HloSharding::iotaTile(std::span<const int64_t> dims) {
  // fromProto's plain iota comes here: built in the Result and returned by
  // name on every path (no moved HloSharding, no metadata vector to pass
  // and destroy), the tile assignment straight into the sharding
  // (docs/performance.md, fifth pass).
  Result<HloSharding> result(std::in_place);
  const int64_t n = detail::validDimsProduct(dims);
  if (n < 0) {
    Result<TileAssignment> refused = TileAssignment::iota(dims);
    if (!refused) {
      result = std::move(refused).error();
      return result;
    }
    result->tileAssignment_ = std::move(*refused);  // not reached: the checks agree
  } else {
    result->tileAssignment_ = TileAssignment::plainIota(dims, n);
  }
  result->kind_ = Kind::kTiled;
  return result;
}

Result<HloSharding> HloSharding::iotaTile(std::span<const int64_t> dims,
                                          std::vector<OpMetadata> md) {
  SB_ASSIGN_OR_RETURN(auto tiles, TileAssignment::iota(dims));
  return tiled(std::move(tiles), false, {}, std::move(md));
}

Result<HloSharding> HloSharding::iotaTile(std::span<const int64_t> dims,
                                          std::span<const int64_t> reshapeDims,
                                          std::span<const int> transposePerm,
                                          std::vector<OpMetadata> md) {
  SB_ASSIGN_OR_RETURN(auto tiles, TileAssignment::iota(dims, reshapeDims, transposePerm));
  return tiled(std::move(tiles), false, {}, std::move(md));
}

Result<HloSharding> HloSharding::partialTile(const TileAssignment& tiles,
                                             std::vector<OpMetadata> md) {
  if (tiles.numElements() == 0) return invalidError("a tiled sharding needs a non-empty tile assignment");
  const auto dims = tiles.dimensions();
  const int64_t group = dims.back();
  if (dims.size() == 1 || group == tiles.numElements()) return replicate(std::move(md));
  if (group == 1) {
    SB_ASSIGN_OR_RETURN(auto reshaped, tiles.reshape(dims.first(dims.size() - 1)));
    return tiled(std::move(reshaped), false, {}, std::move(md));
  }
  if (const auto& iota = tiles.iotaForm()) {
    // The two common outcomes keep `tiles` as it is; they are built in the
    // Result (returned by name, no move of the sharding on the way out).
    auto keepTiles = [&]() -> Result<HloSharding> {
      Result<HloSharding> result(std::in_place);
      result->kind_ = Kind::kTiled;
      result->tileAssignment_ = tiles;
      result->replicateOnLastTileDim_ = true;
      result->metadata_ = std::move(md);
      return result;
    };
    // The replication groups are already sorted when they are whole minor
    // dims of the transposed reshape with ascending perm entries (one dim
    // included): regrouping below would give back this very iota, so it is
    // not built (its canonicalisation and comparison were half the V2 row
    // of BM_FromProto, docs/performance.md).
    const auto reshape = iota->reshapeDims();
    const auto perm = iota->transposePerm();
    if (groupIsSortedMinorDims(reshape, perm, group)) return keepTiles();
    thread_local std::vector<int64_t> newReshape;  // reused: no allocation per call
    thread_local std::vector<int> newPerm;
    if (groupMinorIotaDimsSorted(reshape, perm, group, newReshape, newPerm)) {
      // Same devices, regrouped: valid by construction, only re-canonicalised.
      // Usually the groups were sorted already and the canonical form is the
      // input's: then the input's shared state is reused (no allocation).
      IotaTileAssignment regrouped = IotaTileAssignment::makeCanonical(dims, newReshape, newPerm);
      if (regrouped == *iota) return keepTiles();
      return tiled(TileAssignment::fromIota(std::move(regrouped)), true, {}, std::move(md));
    }
  }
  // Sort the members of every replication group (runs of `group` devices).
  SB_ASSIGN_OR_RETURN(auto devices, tiles.devices());
  std::vector<int64_t> sorted(devices.begin(), devices.end());
  for (size_t i = 0; i < sorted.size(); i += static_cast<size_t>(group)) {
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(i),
              sorted.begin() + static_cast<std::ptrdiff_t>(i + static_cast<size_t>(group)));
  }
  SB_ASSIGN_OR_RETURN(auto result, TileAssignment::fromDevices(dims, std::move(sorted)));
  return tiled(std::move(result), true, {}, std::move(md));
}

Result<HloSharding> HloSharding::subgroup(const TileAssignment& tiles,
                                          std::span<const OpShardingType> types,
                                          std::vector<OpMetadata> md) {
  if (tiles.numElements() == 0) return invalidError("a tiled sharding needs a non-empty tile assignment");
  const auto dims = tiles.dimensions();
  if (types.size() > dims.size()) {
    return invalidError(std::to_string(types.size()) + " subgroup types for a tile assignment of rank " +
                   std::to_string(dims.size()));
  }
  for (OpShardingType t : types) {
    if (!isValidOpShardingType(static_cast<int64_t>(t))) {
      return invalidError("invalid subgroup type " + std::to_string(static_cast<int32_t>(t)));
    }
  }
  if (types.empty()) return tiled(tiles, false, {}, std::move(md));
  const size_t dataDims = dims.size() - types.size();
  // One type and no data tiling: the sharding is that type as a whole.
  const bool allSame =
      std::all_of(types.begin(), types.end(), [&](OpShardingType t) { return t == types[0]; });
  if (allSame && validatedProduct(dims.first(dataDims)) == 1) {
    if (types[0] == OpShardingType::kManual) return manual(std::move(md));
    if (types[0] == OpShardingType::kReplicated) return replicate(std::move(md));
    if (types[0] == OpShardingType::kUnreduced) return unreduced(std::move(md));
  }

  // Final shape of a normalised (or already normal) subgroup sharding.
  auto finish = [&md](const TileAssignment& t,
                      std::span<const OpShardingType> ts) -> Result<HloSharding> {
    if (ts.size() == 1 && ts.back() == OpShardingType::kReplicated) {
      return partialTile(t, std::move(md));
    }
    if (ts.size() == 1 && ts.back() == OpShardingType::kManual &&
        t.numElements() == t.dimensions().back()) {
      return manual(std::move(md));
    }
    std::vector<OpShardingType> owned(ts.begin(), ts.end());
    if (!ts.empty() && ts.back() == OpShardingType::kReplicated) {
      // Sort the replication groups through partialTile, then relabel.
      SB_ASSIGN_OR_RETURN(HloSharding s, partialTile(t, std::move(md)));
      if (s.kind_ == Kind::kTiled) {
        s.replicateOnLastTileDim_ = false;
        s.subgroupTypes_ = std::move(owned);
      }
      return s;
    }
    return tiled(t, false, std::move(owned), std::move(md));
  };

  // Merging is needed when a subgroup dim has size 1, a type repeats, or
  // several types are present (checked without allocating: the common
  // single-type case goes straight to finish()).
  bool needsMerging = false;
  uint32_t seen = 0;
  int distinct = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    if (dims[dataDims + i] == 1) {
      needsMerging = true;
      continue;
    }
    const uint32_t bit = uint32_t{1} << static_cast<int>(types[i]);
    if (seen & bit) {
      needsMerging = true;
    } else {
      seen |= bit;
      ++distinct;
    }
  }
  // Several distinct types need merging only when they are out of upstream's
  // order: in order (and without size-1 dims or repeats, checked above), the
  // merge's transpose is the identity and its reshape keeps the dims, so the
  // input is already the normal form.
  if (distinct > 1 && !needsMerging) {
    auto rank = [](OpShardingType t) {
      return std::find(kOrderedTypes.begin(), kOrderedTypes.end(), t) - kOrderedTypes.begin();
    };
    for (size_t i = 1; i < types.size(); ++i) {
      if (rank(types[i - 1]) >= rank(types[i])) needsMerging = true;
    }
  }
  if (!needsMerging) return finish(tiles, types);

  std::array<std::vector<int>, 7> typeToDims;
  std::vector<int> removed;
  for (size_t i = 0; i < types.size(); ++i) {
    const int d = static_cast<int>(dataDims + i);
    if (dims[static_cast<size_t>(d)] == 1) {
      removed.push_back(d);
    } else {
      typeToDims[static_cast<size_t>(types[i])].push_back(d);
    }
  }

  std::vector<int> perm(dataDims);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int64_t> mergedShape(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(dataDims));
  std::vector<OpShardingType> mergedTypes;
  for (OpShardingType type : kOrderedTypes) {
    const auto& list = typeToDims[static_cast<size_t>(type)];
    if (list.empty()) continue;
    int64_t size = 1;
    for (int d : list) {
      perm.push_back(d);
      size *= dims[static_cast<size_t>(d)];
    }
    mergedShape.push_back(size);
    mergedTypes.push_back(type);
  }
  if (mergedShape.empty()) {
    // Upstream would build a rank-0 tile assignment here (no data dims and
    // only size-1 subgroup dims), which has no text or proto form.
    return invalidError("subgroup sharding of a single device leaves no tile dimensions");
  }
  // Size-1 dims go last: moving them does not change the flat order.
  perm.insert(perm.end(), removed.begin(), removed.end());
  SB_ASSIGN_OR_RETURN(TileAssignment transposed, tiles.transpose(perm));
  SB_ASSIGN_OR_RETURN(TileAssignment merged, transposed.reshape(mergedShape));
  return finish(merged, mergedTypes);
}

HloSharding HloSharding::tuple(std::vector<HloSharding> elements) {
  HloSharding s(Kind::kTuple, {});
  for (auto& e : elements) {
    if (e.isTuple()) {
      for (auto& leaf : e.tupleElements_) s.tupleElements_.push_back(std::move(leaf));
    } else {
      s.tupleElements_.push_back(std::move(e));
    }
  }
  return s;
}

HloSharding HloSharding::named(NamedSharding named) {
  HloSharding s(Kind::kNamed, {});
  s.named_ = std::make_shared<const NamedSharding>(std::move(named));
  return s;
}

const std::vector<OpMetadata>& HloSharding::metadata() const {
  return named_ ? named_->metadata() : metadata_;
}

HloSharding HloSharding::withShardGroup(ShardGroup group) const& {
  HloSharding s = *this;
  s.shardGroup_ = group;
  return s;
}

HloSharding HloSharding::withShardGroup(ShardGroup group) && {
  shardGroup_ = group;
  return std::move(*this);
}

HloSharding HloSharding::withMetadata(const std::vector<OpMetadata>& md, bool overwrite) const {
  // A V3 leaf keeps its metadata inside its (immutable) NamedSharding.
  auto assign = [&](HloSharding& leaf) {
    if (!overwrite && !leaf.metadata().empty()) return;
    if (leaf.named_) {
      leaf.named_ = std::make_shared<const NamedSharding>(leaf.named_->withMetadata(md));
    } else {
      leaf.metadata_ = md;
    }
  };
  HloSharding s = *this;
  if (s.isTuple()) {
    for (auto& e : s.tupleElements_) assign(e);
  } else {
    assign(s);
  }
  return s;
}

HloSharding HloSharding::withoutMetadata() const {
  auto clear = [](HloSharding& leaf) {
    leaf.metadata_.clear();
    if (leaf.named_ && !leaf.named_->metadata().empty()) {
      leaf.named_ = std::make_shared<const NamedSharding>(leaf.named_->withMetadata({}));
    }
  };
  HloSharding s = *this;
  clear(s);
  for (auto& e : s.tupleElements_) clear(e);
  return s;
}

bool operator==(const HloSharding& a, const HloSharding& b) {
  using Kind = HloSharding::Kind;
  // docs/upstream.md § HloSharding semantics: V3 vs V3 is NamedSharding's equality; V3 vs V2 compares the
  // V3 side's V2 conversion.
  if (a.kind_ == Kind::kNamed && b.kind_ == Kind::kNamed) {
    return *a.named_ == *b.named_ && a.shardGroup_ == b.shardGroup_;
  }
  if (a.kind_ == Kind::kNamed || b.kind_ == Kind::kNamed) {
    const HloSharding& named = a.kind_ == Kind::kNamed ? a : b;
    const HloSharding& other = a.kind_ == Kind::kNamed ? b : a;
    if (other.isTuple()) return false;
    Result<HloSharding> v2 = toV2Sharding(named);
    return v2.has_value() && v2->withShardGroup(named.shardGroup_) == other;
  }
  return a.kind_ == b.kind_ && a.replicateOnLastTileDim_ == b.replicateOnLastTileDim_ &&
         a.subgroupTypes_ == b.subgroupTypes_ && a.shardGroup_ == b.shardGroup_ &&
         a.tupleElements_ == b.tupleElements_ && a.tileAssignment_ == b.tileAssignment_;
}

}  // namespace shardbridge::hlo
