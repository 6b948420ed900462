// The search over candidate device orders behind inferAnyOrderMesh
// (any_order.h; the tiers are documented in docs/import.md).
#include "shardbridge/convert/any_order.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/convert/factorization.h"
#include "device_order.h"

namespace shardbridge::convert {
namespace {

using namespace detail;
using hlo::HloSharding;
using hlo::IotaTileAssignment;
using hlo::TileAssignment;

// The search's cost bound, in device entries read or written (each leaf
// check and each candidate order built charges the device count).
constexpr int64_t kSearchBudget = int64_t{1} << 30;
// Orders of a leaf's tile dims tried per leaf in the third tier (the
// identity order, which is the second tier, included).
constexpr size_t kMaxDimOrders = 24;

// A distinct tiled leaf (dims and device list) of the search.
struct Leaf {
  const HloSharding* sharding;  // its first occurrence, to name it
  const TileAssignment* tiles;
  std::span<const int64_t> list;  // empty for an iota (listed on demand)
  // Its replication dim (last_tile_dim_replicate, or the REPLICATED
  // subgroup), else -1. XLA keeps each replication group sorted by device
  // id, so in another device order a group is read sorted by mesh-linear
  // index.
  int64_t replicationDim = -1;
  // Its local mesh in the iota order (nullopt: not a factorable iota).
  std::optional<std::vector<int64_t>> iotaLocalMesh;
};

std::optional<std::vector<int64_t>> localMeshOf(const std::optional<IotaTileAssignment>& iota) {
  if (!iota) return std::nullopt;
  auto analysis = analyzeTileAssignment(TileAssignment::fromIota(*iota));
  if (!analysis.has_value()) return std::nullopt;
  return std::move(analysis->localMesh);
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// Only buckets orders (equal orders are always compared in full). Four
// independent multiply lanes: one chain of mix() steps, a few cycles of
// latency per entry, was most of the module inference's time.
uint64_t hashOrder(std::span<const int64_t> order) {
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
  uint64_t lanes[4] = {order.size(), 1, 2, 3};
  const size_t n = order.size();
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (size_t j = 0; j < 4; ++j) lanes[j] = (lanes[j] ^ static_cast<uint64_t>(order[i + j])) * kMul;
  }
  for (; i < n; ++i) lanes[0] = (lanes[0] ^ static_cast<uint64_t>(order[i])) * kMul;
  uint64_t h = 0;
  for (uint64_t lane : lanes) h = mix(h, lane ^ (lane >> 29));
  return h;
}

// The search over candidate device orders for a set of leaves (see
// inferAnyOrderMesh). Scratch buffers are sized by the device count n.
sdy::MeshAttr buildMesh(sdy::Context& ctx, std::span<const int64_t> axes,
                        std::span<const int64_t> order) {
  std::vector<sdy::MeshAxisAttr> meshAxes;
  meshAxes.reserve(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    meshAxes.push_back(sdy::MeshAxisAttr::get(ctx, "_axis_" + std::to_string(i), axes[i]));
  }
  // MeshAttr::get drops an iota device order.
  return sdy::MeshAttr::get(ctx, meshAxes, order);
}

class OrderSearch {
 public:
  OrderSearch(std::span<const Leaf> leaves, int64_t n) : leaves_(leaves), n_(n) {}

  bool exhausted() const { return exhausted_; }

  struct Found {
    std::vector<int64_t> axes;
    std::vector<int64_t> order;  // empty: the iota order
  };

  // Searches the leaves `subset` (indices into the leaves, input order).
  // Returns nullopt when no candidate serves all of them, or when the
  // budget ran out (exhausted()).
  std::optional<Found> run(std::span<const size_t> subset) {
    checkOrder_.assign(subset.begin(), subset.end());
    // Tier 1: the iota order.
    {
      std::vector<int64_t> axes;
      bool ok = true;
      for (size_t i : subset) {
        if (!leaves_[i].iotaLocalMesh) {
          ok = false;
          break;
        }
      }
      if (ok) {
        for (size_t i : subset) fold(axes, *leaves_[i].iotaLocalMesh);
        return Found{finish(axes), {}};
      }
    }
    seen_.clear();
    // Tier 2: each leaf's own order; tier 3: its devices read along its
    // tile dims in another order.
    for (int tier = 2; tier <= 3; ++tier) {
      std::optional<Found> best;
      for (size_t i : subset) {
        if (!forEachOrder(i, tier, best)) return std::nullopt;
      }
      if (best) return best;
    }
    return std::nullopt;
  }

 private:
  // Folds one local mesh into `axes`; a failed fold is marked by axes = {0}.
  void fold(std::vector<int64_t>& axes, const std::vector<int64_t>& localMesh) {
    if (!axes.empty() && axes[0] == 0) return;
    if (localMesh.empty()) return;
    if (axes.empty()) {
      axes = localMesh;
      return;
    }
    std::vector<int64_t> common = extractCommonFactorSequence(localMesh, axes);
    axes = common.empty() ? std::vector<int64_t>{0} : std::move(common);
  }

  // No common factorisation: one axis over all the devices serves every
  // leaf through sub-axes.
  std::vector<int64_t> finish(std::vector<int64_t> axes) const {
    if (axes.empty() || axes[0] == 0) return {n_};
    return axes;
  }

  bool charge() {
    if (budget_ < n_) {
      exhausted_ = true;
      return false;
    }
    budget_ -= n_;
    return true;
  }

  // The device list of leaf i (an iota is listed into `buffer`).
  std::span<const int64_t> listOf(size_t i, std::vector<int64_t>& buffer) {
    const Leaf& leaf = leaves_[i];
    if (!leaf.list.empty()) return leaf.list;
    leaf.tiles->iotaForm()->materialize(buffer);
    return buffer;
  }

  // Builds the candidate orders of leaf i for `tier` and tries each; keeps
  // the best in `best`. False when the budget ran out.
  bool forEachOrder(size_t i, int tier, std::optional<Found>& best) {
    const Leaf& leaf = leaves_[i];
    const std::span<const int64_t> dims = leaf.tiles->dimensions();
    std::vector<int64_t> nonOne;
    for (int64_t d : dims) {
      if (d > 1) nonOne.push_back(d);
    }
    std::vector<int> sigma(nonOne.size());
    for (size_t k = 0; k < sigma.size(); ++k) sigma[k] = static_cast<int>(k);
    for (size_t count = 0; count < kMaxDimOrders; ++count) {
      if (count > 0 && !std::next_permutation(sigma.begin(), sigma.end())) break;
      const bool identity = count == 0;
      if (tier == 2 && !identity) break;
      if (tier == 3 && identity) continue;
      if (!charge()) return false;
      const std::span<const int64_t> list = listOf(i, listBuffer_);
      candidate_.resize(static_cast<size_t>(n_));
      if (identity) {
        std::copy(list.begin(), list.end(), candidate_.begin());
      } else {
        // The leaf reads, in the candidate order, as the iota whose reshape
        // is its tile dims in order sigma: reshape[j] = nonOne[sigma[j]],
        // and tile dim k is reshape dim sigma^-1(k).
        std::vector<int64_t> reshape(nonOne.size());
        std::vector<int> perm(nonOne.size());
        for (size_t j = 0; j < sigma.size(); ++j) {
          reshape[j] = nonOne[static_cast<size_t>(sigma[j])];
          perm[static_cast<size_t>(sigma[j])] = static_cast<int>(j);
        }
        auto iota = IotaTileAssignment::create(dims, reshape, perm);
        if (!iota.has_value()) continue;
        iota->materialize(readBuffer_);
        for (size_t f = 0; f < readBuffer_.size(); ++f) {
          candidate_[static_cast<size_t>(readBuffer_[f])] = list[f];
        }
      }
      if (isIdentity(candidate_)) continue;  // the iota order: tier 1
      // Each distinct order once.
      // Each distinct order once (orders are remembered while they fit in
      // kMaxRemembered entries; a repeat beyond that is only tried again).
      const uint64_t h = hashOrder(candidate_);
      bool repeat = false;
      for (const auto& [hash, order] : seen_) {
        if (hash == h && order == candidate_) repeat = true;
      }
      if (repeat) continue;
      if (!tryCandidate(best)) return false;
      if ((seen_.size() + 1) * candidate_.size() <= kMaxRemembered) {
        seen_.emplace_back(h, candidate_);
      }
    }
    return true;
  }

  // Tries candidate_ on the subset; false when the budget ran out.
  bool tryCandidate(std::optional<Found>& best) {
    inverse_.resize(candidate_.size());
    for (size_t k = 0; k < candidate_.size(); ++k) {
      inverse_[static_cast<size_t>(candidate_[k])] = static_cast<int64_t>(k);
    }
    std::vector<int64_t> axes;
    for (size_t pos = 0; pos < checkOrder_.size(); ++pos) {
      const size_t i = checkOrder_[pos];
      if (!charge()) return false;
      const std::span<const int64_t> list = listOf(i, listBuffer_);
      std::optional<IotaTileAssignment> iota;
      if (leaves_[i].replicationDim >= 0) {
        readBuffer_.resize(list.size());
        for (size_t f = 0; f < list.size(); ++f) {
          readBuffer_[f] = inverse_[static_cast<size_t>(list[f])];
        }
        sortAlongDim(readBuffer_, leaves_[i].tiles->dimensions(), leaves_[i].replicationDim);
        iota = findIotaForm(leaves_[i].tiles->dimensions(), readBuffer_);
      } else {
        iota = findIotaFormBy(leaves_[i].tiles->dimensions(), n_, [&](int64_t f) {
          return inverse_[static_cast<size_t>(list[static_cast<size_t>(f)])];
        });
      }
      auto localMesh = localMeshOf(iota);
      if (!localMesh) {
        // The leaf that failed is checked first next time.
        std::rotate(checkOrder_.begin(), checkOrder_.begin() + static_cast<std::ptrdiff_t>(pos),
                    checkOrder_.begin() + static_cast<std::ptrdiff_t>(pos) + 1);
        return true;
      }
      fold(axes, *localMesh);
    }
    axes = finish(std::move(axes));
    if (!best || better(axes, best->axes)) best = Found{std::move(axes), candidate_};
    return true;
  }

  // Fewer axes, then larger ones (sizes sorted descending, compared
  // lexicographically); ties keep the earlier candidate.
  static bool better(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    if (a.size() != b.size()) return a.size() < b.size();
    std::vector<int64_t> sa = a, sb = b;
    std::sort(sa.rbegin(), sa.rend());
    std::sort(sb.rbegin(), sb.rend());
    return sa > sb;
  }

  static constexpr size_t kMaxRemembered = size_t{1} << 22;

  std::span<const Leaf> leaves_;
  int64_t n_;
  int64_t budget_ = kSearchBudget;
  bool exhausted_ = false;
  std::vector<size_t> checkOrder_;
  std::vector<int64_t> candidate_, inverse_, listBuffer_, readBuffer_;
  std::vector<std::pair<uint64_t, std::vector<int64_t>>> seen_;
};
}  // namespace

Result<sdy::MeshAttr> inferAnyOrderMesh(sdy::Context& ctx,
                                        std::span<const HloSharding* const> tiledLeaves) {
  if (tiledLeaves.empty()) return sdy::MeshAttr::get(ctx, {});
  const int64_t n = tiledLeaves.front()->tileAssignment().numElements();
  for (const HloSharding* leaf : tiledLeaves) {
    const int64_t count = leaf->tileAssignment().numElements();
    if (count != n) {
      return makeError(ErrorCode::kUnsupported,
                       "no single mesh for shardings " + tiledLeaves.front()->toString() +
                           " and " + leaf->toString() + ": they use " + std::to_string(n) +
                           " and " + std::to_string(count) + " devices");
    }
  }
  // The search lists device orders; more devices than can be listed are
  // refused up front.
  if (n > hlo::kMaxMaterializedDevices) {
    return makeError(ErrorCode::kUnsupported,
                     "no single mesh for the tiled shardings: " + std::to_string(n) +
                         " devices are too many to search device orders (at most " +
                         std::to_string(hlo::kMaxMaterializedDevices) + ")");
  }

  // The distinct tile assignments, in input order of first occurrence. An
  // iota is never listed here (its identity-order analysis needs no list).
  std::vector<Leaf> leaves;
  std::unordered_map<uint64_t, std::vector<size_t>> byHash;
  for (const HloSharding* leaf : tiledLeaves) {
    const TileAssignment& tiles = leaf->tileAssignment();
    const int64_t replicationDim = leaf->subgroupReplicationDim();
    uint64_t h = static_cast<uint64_t>(replicationDim + 1);
    for (int64_t d : tiles.dimensions()) h = mix(h, static_cast<uint64_t>(d));
    std::span<const int64_t> list;
    if (const auto& iota = tiles.iotaForm()) {
      h = mix(h, 1);
      for (int64_t d : iota->reshapeDims()) h = mix(h, static_cast<uint64_t>(d));
      for (int p : iota->transposePerm()) h = mix(h, static_cast<uint64_t>(p));
    } else {
      SB_ASSIGN_OR_RETURN(list, tiles.devices());
      h = mix(h, 2);
      h = mix(h, hashOrder(list));
    }
    std::vector<size_t>& same = byHash[h];
    bool repeat = false;
    for (size_t k : same) {
      if (*leaves[k].tiles == tiles && leaves[k].replicationDim == replicationDim) {
        repeat = true;
        break;
      }
    }
    // A repeat lists what an earlier leaf lists, which passed the check
    // below, so only distinct lists are checked (most of a module's
    // shardings are repeats).
    if (repeat) continue;
    if (!list.empty() && !isPermutation(list)) {
      return makeError(ErrorCode::kUnsupported,
                       "sharding " + leaf->toString() + " does not use each of the devices 0.." +
                           std::to_string(n - 1) + " exactly once");
    }
    same.push_back(leaves.size());
    Leaf entry{leaf, &tiles, list, replicationDim, std::nullopt};
    entry.iotaLocalMesh = tiles.isIota() ? localMeshOf(tiles.iotaForm())
                                         : localMeshOf(findIotaForm(tiles.dimensions(), list));
    leaves.push_back(std::move(entry));
  }

  OrderSearch search(leaves, n);
  std::vector<size_t> all(leaves.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (auto found = search.run(all)) return buildMesh(ctx, found->axes, found->order);
  const std::string budgetError =
      "no single mesh found for the tiled shardings within the search budget of " +
      std::to_string(kSearchBudget) + " device reads";
  if (search.exhausted()) return makeError(ErrorCode::kUnsupported, budgetError);

  // Name a pair: the first leaf that is no factorable iota in the iota
  // order (there is one, or the iota order would have served), and the
  // first other leaf that no order searched for the two of them serves.
  size_t b = 0;
  while (b < leaves.size() && leaves[b].iotaLocalMesh) ++b;
  for (size_t j = 0; j < leaves.size() && b < leaves.size(); ++j) {
    if (j == b) continue;
    const size_t pair[] = {std::min(b, j), std::max(b, j)};
    if (search.run(pair)) continue;
    if (search.exhausted()) return makeError(ErrorCode::kUnsupported, budgetError);
    return makeError(ErrorCode::kUnsupported,
                     "no single mesh for shardings " + leaves[pair[0]].sharding->toString() +
                         " and " + leaves[pair[1]].sharding->toString() +
                         ": no device order tried (the iota order or the order of either sharding) "
                         "lists both as factorable iotas, nor does either one's device list "
                         "read along its tile dims in another order");
  }
  return makeError(ErrorCode::kUnsupported,
                   "no single mesh for the tiled shardings: no device order searched lists all "
                   "of them as factorable iotas, although " +
                       leaves[std::min(b, leaves.size() - 1)].sharding->toString() +
                       " fits each of the others alone");
}

}  // namespace shardbridge::convert
