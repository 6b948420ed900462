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

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;
using hlo::IotaTileAssignment;
using hlo::TileAssignment;

// Lists above this size are left out of error messages.
constexpr int64_t kMaxListedDevices = 64;

// Whether `devices` holds each of [0, n) exactly once. A bit per entry in
// words (not std::vector<bool>, whose proxy accesses made this the larger
// part of the module inference); on the stack for up to 4096 devices.
bool isPermutation(std::span<const int64_t> devices) {
  const size_t n = devices.size();
  constexpr size_t kStackWords = 64;
  uint64_t stackWords[kStackWords] = {};
  std::vector<uint64_t> heapWords;
  uint64_t* seen = stackWords;
  if (n > kStackWords * 64) {
    heapWords.assign((n + 63) / 64, 0);
    seen = heapWords.data();
  }
  for (int64_t d : devices) {
    if (static_cast<uint64_t>(d) >= n) return false;
    const uint64_t bit = uint64_t{1} << (static_cast<uint64_t>(d) % 64);
    uint64_t& word = seen[static_cast<uint64_t>(d) / 64];
    if (word & bit) return false;
    word |= bit;
  }
  return true;
}

// `inverse[order[i]] = i` when `order` holds each of [0, n) exactly once,
// else null; one pass that both checks and inverts. 32-bit entries (n <=
// kMaxDevices = 2^31) halve the memory the caller's random reads touch.
// Allocated per call and never zero-filled: a scratch buffer kept alive
// would pin 4 MB a thread per million devices, and the fill with the
// "unset" marker is the only initialisation needed.
std::unique_ptr<uint32_t[]> inverseIfPermutation(std::span<const int64_t> order) {
  const size_t n = order.size();
  constexpr uint32_t kUnset = ~uint32_t{0};  // > every index, as n <= 2^31
  std::unique_ptr<uint32_t[]> inverse(new uint32_t[n]);
  std::fill_n(inverse.get(), n, kUnset);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t d = static_cast<uint64_t>(order[i]);
    if (d >= n || inverse[d] != kUnset) return nullptr;
    inverse[d] = static_cast<uint32_t>(i);
  }
  return inverse;
}

bool isIdentity(std::span<const int64_t> devices) {
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// A greedy digit reading of the list `get(0), ..., get(n - 1)`: in an iota
// the entry at flat position j*p (p the product of the minor tile digits
// found so far) is j times the stride of the next digit, for j up to that
// digit's size. The digits found must be a reshape (strides 1, s0, s0*s1,
// ...); every entry is then checked against the digits, so a wrong guess
// can only give nullopt, never a wrong iota.
template <class Get>
std::optional<IotaTileAssignment> findIotaFormBy(std::span<const int64_t> dims, int64_t n,
                                                 const Get& get) {
  const std::optional<int64_t> product = checkedProduct(dims);
  if (n < 1 || n > hlo::kMaxDevices || !product || *product != n) return std::nullopt;
  if (get(0) != 0) return std::nullopt;
  struct Digit {
    int64_t size;
    int64_t stride;
  };
  std::vector<Digit> digits;  // minor first
  int64_t position = 1;
  while (position < n) {
    const int64_t stride = get(position);
    if (stride <= 0 || stride >= n) return std::nullopt;
    // n <= 2^31, so run * position <= 2n and run * stride <= (n + 1) * n fit.
    int64_t run = 1;
    while (run * position < n && get(run * position) == run * stride) ++run;
    if ((n / position) % run != 0) return std::nullopt;
    digits.push_back(Digit{run, stride});
    position *= run;
  }
  std::vector<Digit> byStride = digits;
  std::sort(byStride.begin(), byStride.end(),
            [](const Digit& a, const Digit& b) { return a.stride < b.stride; });
  int64_t expected = 1;
  for (const Digit& d : byStride) {
    if (d.stride != expected) return std::nullopt;
    expected *= d.size;
  }
  // Every entry: the value the digits predict at each flat position. The
  // minor digits (one split where a digit is larger than needed, which
  // predicts the same values) make a block of at most kBlock positions
  // whose offsets are tabled once; an odometer over the other digits gives
  // each block's base. A per-entry odometer cost more than the reads it
  // checks on lists of a million devices.
  // On the stack: small lists are imported one at a time by the thousand.
  // Digits have sizes >= 2 and n <= 2^31: at most 31, plus one split.
  constexpr int64_t kBlock = 1024;
  constexpr size_t kMaxDigits = 32;
  std::array<Digit, kMaxDigits> check;
  size_t checkCount = digits.size();
  std::copy(digits.begin(), digits.end(), check.begin());
  int64_t block = 1;
  size_t inner = 0;  // check[0, inner) span a block
  while (inner < checkCount) {
    const Digit d = check[inner];
    if (block * d.size <= kBlock) {
      block *= d.size;
      ++inner;
      continue;
    }
    int64_t part = kBlock / block;
    while (part > 1 && d.size % part != 0) --part;
    if (part > 1) {
      std::copy_backward(check.begin() + static_cast<std::ptrdiff_t>(inner) + 1,
                         check.begin() + static_cast<std::ptrdiff_t>(checkCount),
                         check.begin() + static_cast<std::ptrdiff_t>(checkCount) + 1);
      ++checkCount;
      check[inner] = Digit{part, d.stride};
      check[inner + 1] = Digit{d.size / part, d.stride * part};
      block *= part;
      ++inner;
    }
    break;
  }
  // Digit k repeats the offsets of the digits below it once per step.
  int64_t offsets[kBlock];
  offsets[0] = 0;
  for (size_t k = 0, filled = 1; k < inner; filled *= static_cast<size_t>(check[k].size), ++k) {
    for (size_t c = 1; c < static_cast<size_t>(check[k].size); ++c) {
      for (size_t j = 0; j < filled; ++j) {
        offsets[c * filled + j] = offsets[j] + static_cast<int64_t>(c) * check[k].stride;
      }
    }
  }
  std::array<int64_t, kMaxDigits> counter;  // only [0, checkCount) used
  std::fill_n(counter.begin(), checkCount, 0);
  int64_t base = 0;
  for (int64_t f = 0; f < n; f += block) {
    int64_t mismatch = 0;
    for (int64_t j = 0; j < block; ++j) mismatch |= get(f + j) ^ (base + offsets[static_cast<size_t>(j)]);
    if (mismatch != 0) return std::nullopt;
    for (size_t k = inner; k < checkCount; ++k) {
      if (++counter[k] < check[k].size) {
        base += check[k].stride;
        break;
      }
      base -= (check[k].size - 1) * check[k].stride;
      counter[k] = 0;
    }
  }
  // Reshape dims major to minor, i.e. by descending stride.
  std::vector<int64_t> reshape;
  for (auto it = byStride.rbegin(); it != byStride.rend(); ++it) reshape.push_back(it->size);
  if (reshape.empty()) reshape.push_back(1);
  // Transposed dims major to minor are the digits from the last found; each
  // names the reshape dim with its stride.
  std::vector<int> perm;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    for (size_t r = 0; r < byStride.size(); ++r) {
      if (byStride[byStride.size() - 1 - r].stride == it->stride) perm.push_back(static_cast<int>(r));
    }
  }
  if (perm.empty()) perm.push_back(0);
  auto iota = IotaTileAssignment::create(dims, reshape, perm);
  if (!iota.has_value()) return std::nullopt;
  // The iota lists what the digits predict; checked at each digit's first
  // step and at the last entry.
  position = 1;
  for (const Digit& d : digits) {
    if (iota->valueAtFlat(position) != d.stride) return std::nullopt;
    position *= d.size;
  }
  if (iota->valueAtFlat(n - 1) != get(n - 1)) return std::nullopt;
  return *iota;
}

// Sorts the entries of row-major `list` (tile dims `dims`) along dim
// `dim`: each replication group, whose members XLA keeps sorted by device
// id. A dim out of range or of size 1 leaves the list as it is.
void sortAlongDim(std::vector<int64_t>& list, std::span<const int64_t> dims, int64_t dim) {
  if (dim < 0 || dim >= static_cast<int64_t>(dims.size())) return;
  const int64_t size = dims[static_cast<size_t>(dim)];
  if (size <= 1) return;
  int64_t inner = 1;  // the stride of `dim`
  for (size_t k = static_cast<size_t>(dim) + 1; k < dims.size(); ++k) inner *= dims[k];
  const int64_t block = inner * size;
  const int64_t n = static_cast<int64_t>(list.size());
  std::vector<int64_t> group(static_cast<size_t>(size));
  for (int64_t outer = 0; outer + block <= n; outer += block) {
    for (int64_t in = 0; in < inner; ++in) {
      for (int64_t k = 0; k < size; ++k) group[static_cast<size_t>(k)] = list[static_cast<size_t>(outer + in + k * inner)];
      std::sort(group.begin(), group.end());
      for (int64_t k = 0; k < size; ++k) list[static_cast<size_t>(outer + in + k * inner)] = group[static_cast<size_t>(k)];
    }
  }
}

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

std::optional<IotaTileAssignment> findIotaForm(std::span<const int64_t> dims,
                                               std::span<const int64_t> devices) {
  return findIotaFormBy(dims, static_cast<int64_t>(devices.size()),
                        [&](int64_t f) { return devices[static_cast<size_t>(f)]; });
}

Result<TileAssignment> meshLinearTileAssignment(const TileAssignment& tiles, sdy::MeshAttr mesh,
                                                int64_t replicationDim) {
  const int64_t n = tiles.numElements();
  const std::optional<int64_t> meshSize = mesh.getTotalSize();
  if (!meshSize || *meshSize != n) {
    return makeError(ErrorCode::kUnsupported,
                     "the mesh has " + (meshSize ? std::to_string(*meshSize) : "too many") +
                         " devices but the sharding uses " + std::to_string(n));
  }
  const std::span<const int64_t> ids = mesh.deviceIds();
  if (ids.empty() && tiles.isIota()) return tiles;
  SB_ASSIGN_OR_RETURN(std::span<const int64_t> devices, tiles.devices());
  const std::span<const int64_t> dims = tiles.dimensions();
  // This runs once per imported sharding on lists of up to millions of
  // devices (issue 4: <= 10 ns a device), so it reads the list in place:
  // the mesh-linear list is only built when a replication group must be
  // sorted or an error shows it.
  std::unique_ptr<uint32_t[]> inverse;
  if (!ids.empty()) {
    if (static_cast<int64_t>(ids.size()) == n) inverse = inverseIfPermutation(ids);
    if (!inverse) {
      return makeError(ErrorCode::kUnsupported, "mesh device_ids are not a permutation of [0, " +
                                                    std::to_string(n) + ")");
    }
  }
  // -1 for a device not in the mesh: no iota lists it, so a list holding
  // one is never taken for an iota, and the error below names it.
  auto linearAt = [&](int64_t f) -> int64_t {
    const int64_t d = devices[static_cast<size_t>(f)];
    if (!inverse) return d;
    return static_cast<uint64_t>(d) < static_cast<uint64_t>(n) ? inverse[static_cast<size_t>(d)]
                                                               : int64_t{-1};
  };
  auto notInMesh = [&]() -> std::optional<Error> {
    if (!inverse) return std::nullopt;
    for (int64_t d : devices) {
      if (d < 0 || d >= n) {
        return makeError(ErrorCode::kUnsupported,
                         "device " + std::to_string(d) + " is not in the mesh");
      }
    }
    return std::nullopt;
  };
  auto buildLinear = [&]() {
    std::vector<int64_t> linear(static_cast<size_t>(n));
    for (int64_t f = 0; f < n; ++f) linear[static_cast<size_t>(f)] = linearAt(f);
    sortAlongDim(linear, dims, replicationDim);
    return linear;
  };
  const bool sorts = replicationDim >= 0 && replicationDim < static_cast<int64_t>(dims.size()) &&
                     dims[static_cast<size_t>(replicationDim)] > 1;
  std::optional<IotaTileAssignment> iota;
  if (sorts) {
    // Sorting first would move a device not in the mesh (-1) elsewhere; the
    // error names the first one in list order, as the reading does.
    if (auto error = notInMesh()) return *std::move(error);
    iota = findIotaForm(dims, buildLinear());
  } else {
    iota = findIotaFormBy(dims, n, linearAt);
  }
  if (!iota) {
    if (auto error = notInMesh()) return *std::move(error);
    std::string list = "its devices in mesh order";
    if (n <= kMaxListedDevices) {
      auto shown = TileAssignment::fromDevices(dims, buildLinear());
      if (shown.has_value()) list += ", " + shown->toString() + ",";
    }
    return makeError(ErrorCode::kUnsupported, list + " are not an iota");
  }
  return TileAssignment::fromIota(*iota);
}

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
