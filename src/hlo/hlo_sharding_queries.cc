// HloSharding's predicates and queries (XLA's IsReplicated, IsTiled,
// NumTiles, SubgroupReplicationDim, UniqueDevice, UsesDevice, ...): a V3
// leaf answers through its V2 conversion.
#include "shardbridge/hlo/hlo_sharding.h"

#include "shardbridge/base/checked_math.h"

#include "shardbridge/hlo/named_sharding.h"

#include <algorithm>

namespace shardbridge::hlo {

namespace {


}  // namespace

// ---------------------------------------------------------------------------
// Predicates

namespace {
// Applies `pred` to every leaf; a V3 leaf is judged by its V2 conversion
// (false when that cannot be built).
template <typename Pred>
bool allLeaves(const HloSharding& s, Pred pred) {
  auto test = [&](const HloSharding& leaf) {
    if (!leaf.isNamed()) return pred(leaf);
    Result<HloSharding> v2 = toV2Sharding(leaf);
    return v2.has_value() && pred(*v2);
  };
  if (!s.isTuple()) return test(s);
  const auto& leaves = s.tupleElements();
  return std::all_of(leaves.begin(), leaves.end(), test);
}
}  // namespace

bool HloSharding::isReplicated() const {
  return allLeaves(*this, [](const HloSharding& s) { return s.kind_ == Kind::kReplicated; });
}
bool HloSharding::isManual() const {
  return allLeaves(*this, [](const HloSharding& s) { return s.kind_ == Kind::kManual; });
}
bool HloSharding::isUnknown() const {
  return allLeaves(*this, [](const HloSharding& s) { return s.kind_ == Kind::kUnknown; });
}
bool HloSharding::isUnreduced() const {
  return allLeaves(*this, [](const HloSharding& s) { return s.kind_ == Kind::kUnreduced; });
}
bool HloSharding::isSingleDevice() const {
  return allLeaves(*this, [](const HloSharding& s) { return s.kind_ == Kind::kSingleDevice; });
}
bool HloSharding::isTileMaximal() const {
  return allLeaves(*this, [](const HloSharding& s) {
    return s.kind_ == Kind::kReplicated || s.kind_ == Kind::kSingleDevice;
  });
}
bool HloSharding::isTiled() const {
  return !isTileMaximal() && !isManual() && !isUnknown() && !isUnreduced();
}

bool HloSharding::isManualSubgroup() const {
  return allLeaves(*this, [](const HloSharding& s) {
    const auto& t = s.subgroupTypes_;
    return std::find(t.begin(), t.end(), OpShardingType::kManual) != t.end();
  });
}
bool HloSharding::isUnreducedSubgroup() const {
  return allLeaves(*this, [](const HloSharding& s) {
    const auto& t = s.subgroupTypes_;
    return std::find(t.begin(), t.end(), OpShardingType::kUnreduced) != t.end();
  });
}
bool HloSharding::hasPartialReplication() const {
  return allLeaves(*this, [](const HloSharding& s) {
    const auto& t = s.subgroupTypes_;
    return s.replicateOnLastTileDim_ ||
           std::find(t.begin(), t.end(), OpShardingType::kReplicated) != t.end();
  });
}

bool HloSharding::isShardGroup() const {
  if (!isTuple()) return shardGroup_.isShardGroup();
  return !tupleElements_.empty() &&
         allLeaves(*this, [](const HloSharding& s) { return s.shardGroup_.isShardGroup(); });
}
bool HloSharding::isShardAs() const {
  if (!isTuple()) return shardGroup_.isShardGroup() && shardGroup_.shardAs;
  return !tupleElements_.empty() && allLeaves(*this, [](const HloSharding& s) {
           return s.shardGroup_.isShardGroup() && s.shardGroup_.shardAs;
         });
}
bool HloSharding::isShardLike() const {
  if (!isTuple()) return shardGroup_.isShardGroup() && shardGroup_.shardLike;
  return !tupleElements_.empty() && allLeaves(*this, [](const HloSharding& s) {
           return s.shardGroup_.isShardGroup() && s.shardGroup_.shardLike;
         });
}

int64_t HloSharding::tiledDataRank() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->tiledDataRank() : 0;
  }
  if (kind_ != Kind::kTiled) return 0;
  return tileAssignment_.numDimensions() - (replicateOnLastTileDim_ ? 1 : 0) -
         static_cast<int64_t>(subgroupTypes_.size());
}

std::optional<int64_t> HloSharding::numTiles() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->numTiles() : std::nullopt;
  }
  if (kind_ == Kind::kReplicated || kind_ == Kind::kSingleDevice) return 1;
  if (kind_ != Kind::kTiled) return std::nullopt;
  return validatedProduct(tileAssignment_.dimensions().first(static_cast<size_t>(tiledDataRank())));
}

int64_t HloSharding::totalNumTiles() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->totalNumTiles() : 0;
  } return tileAssignment_.numElements(); }

int64_t HloSharding::subgroupReplicationDim() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->subgroupReplicationDim() : -1;
  }
  if (kind_ != Kind::kTiled) return -1;
  if (replicateOnLastTileDim_) return tileAssignment_.numDimensions() - 1;
  const auto& t = subgroupTypes_;
  auto it = std::find(t.begin(), t.end(), OpShardingType::kReplicated);
  if (it == t.end()) return -1;
  return tileAssignment_.numDimensions() - static_cast<int64_t>(t.size()) + (it - t.begin());
}

int64_t HloSharding::subgroupManualDim() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->subgroupManualDim() : -1;
  }
  const auto& t = subgroupTypes_;
  auto it = std::find(t.begin(), t.end(), OpShardingType::kManual);
  if (kind_ != Kind::kTiled || it == t.end()) return -1;
  return tileAssignment_.numDimensions() - static_cast<int64_t>(t.size()) + (it - t.begin());
}

int64_t HloSharding::subgroupUnreducedDim() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->subgroupUnreducedDim() : -1;
  }
  const auto& t = subgroupTypes_;
  auto it = std::find(t.begin(), t.end(), OpShardingType::kUnreduced);
  if (kind_ != Kind::kTiled || it == t.end()) return -1;
  return tileAssignment_.numDimensions() - static_cast<int64_t>(t.size()) + (it - t.begin());
}

int64_t HloSharding::replicationFactor() const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->replicationFactor() : 1;
  }
  const int64_t dim = subgroupReplicationDim();
  return dim < 0 ? 1 : tileAssignment_.dim(dim);
}

int64_t HloSharding::dimension(int64_t i) const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->dimension(i) : 1;
  }
  if (kind_ != Kind::kTiled || i < 0 || i >= tileAssignment_.numDimensions()) return 1;
  return tileAssignment_.dim(i);
}

std::optional<int64_t> HloSharding::uniqueDevice() const {
  if (isTuple()) {
    if (tupleElements_.empty()) return std::nullopt;
    std::optional<int64_t> unique;
    for (const auto& e : tupleElements_) {
      auto d = e.uniqueDevice();
      if (!d || (unique && *d != *unique)) return std::nullopt;
      unique = d;
    }
    return unique;
  }
  if (kind_ == Kind::kNamed) {
    return named_->isMaximal() ? std::optional<int64_t>(named_->mesh().deviceAssignment().first())
                               : std::nullopt;
  }
  if (kind_ == Kind::kSingleDevice) return tileAssignment_.first();
  return std::nullopt;
}

bool HloSharding::usesDevice(int64_t device) const {
  if (kind_ == Kind::kNamed) {
    Result<HloSharding> v2 = toV2Sharding(*this);
    return v2 ? v2->usesDevice(device) : false;
  }
  if (isTuple()) {
    return std::any_of(tupleElements_.begin(), tupleElements_.end(),
                       [&](const HloSharding& e) { return e.usesDevice(device); });
  }
  if (kind_ == Kind::kReplicated || kind_ == Kind::kManual) return true;
  return tileAssignment_.usesDevice(device);
}

}  // namespace shardbridge::hlo
