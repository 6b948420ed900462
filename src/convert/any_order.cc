#include "shardbridge/convert/any_order.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
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

// Whether `devices` holds each of [0, n) exactly once.
bool isPermutation(std::span<const int64_t> devices) {
  std::vector<bool> seen(devices.size(), false);
  for (int64_t d : devices) {
    if (d < 0 || d >= static_cast<int64_t>(devices.size())) return false;
    if (seen[static_cast<size_t>(d)]) return false;
    seen[static_cast<size_t>(d)] = true;
  }
  return true;
}

bool isIdentity(std::span<const int64_t> devices) {
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// `inverse[order[i]] = i`; `order` must be a permutation of [0, n).
std::vector<int64_t> inversePermutation(std::span<const int64_t> order) {
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    inverse[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
  }
  return inverse;
}

// What one candidate device order gives for a set of leaves: the mesh axes
// when every leaf is a factorable iota under it, else the first leaf that is
// not.
struct Attempt {
  bool ok = false;
  size_t failedLeaf = 0;
  std::vector<int64_t> axes;
};

// Tries the device order `order` (empty: the iota order) on the leaves
// `indices` of `leaves`, whose device lists are `lists`.
Attempt tryOrder(std::span<const HloSharding* const> leaves,
                 std::span<const std::span<const int64_t>> lists,
                 std::span<const size_t> indices, std::span<const int64_t> order) {
  Attempt attempt;
  const std::vector<int64_t> inverse = inversePermutation(order);
  std::vector<int64_t> linear;
  bool foldFailed = false;
  bool first = true;
  int64_t devices = 1;
  for (size_t index : indices) {
    attempt.failedLeaf = index;
    const TileAssignment& tiles = leaves[index]->tileAssignment();
    devices = tiles.numElements();
    std::optional<IotaTileAssignment> iota;
    if (order.empty()) {
      iota = tiles.iotaForm();
      if (!iota) iota = findIotaForm(tiles.dimensions(), lists[index]);
    } else {
      linear.resize(lists[index].size());
      for (size_t f = 0; f < linear.size(); ++f) {
        linear[f] = inverse[static_cast<size_t>(lists[index][f])];
      }
      iota = findIotaForm(tiles.dimensions(), linear);
    }
    if (!iota) return attempt;
    auto analysis = analyzeTileAssignment(TileAssignment::fromIota(*iota));
    if (!analysis.has_value()) return attempt;
    if (first) {
      attempt.axes = std::move(analysis->localMesh);
      first = false;
    } else if (!foldFailed) {
      std::vector<int64_t> common = extractCommonFactorSequence(analysis->localMesh, attempt.axes);
      if (common.empty()) {
        foldFailed = true;
      } else {
        attempt.axes = std::move(common);
      }
    }
  }
  // Every leaf is a factorable iota over the same devices, so one axis over
  // all of them serves each through sub-axes: the fewest, largest axes.
  if (foldFailed) attempt.axes = {devices};
  attempt.ok = true;
  return attempt;
}

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

}  // namespace

// A greedy digit reading: in an iota the device at flat position j*p (p the
// product of the minor tile digits found so far) is j times the stride of
// the next digit, for j up to that digit's size. The digits found must be a
// reshape (strides 1, s0, s0*s1, ...); the candidate is then checked against
// every entry, so a wrong guess can only give nullopt, never a wrong iota.
std::optional<IotaTileAssignment> findIotaForm(std::span<const int64_t> dims,
                                               std::span<const int64_t> devices) {
  const int64_t n = static_cast<int64_t>(devices.size());
  const std::optional<int64_t> product = checkedProduct(dims);
  if (n < 1 || n > hlo::kMaxDevices || !product || *product != n) return std::nullopt;
  if (devices[0] != 0) return std::nullopt;
  struct Digit {
    int64_t size;
    int64_t stride;
  };
  std::vector<Digit> digits;  // minor first
  int64_t position = 1;
  while (position < n) {
    const int64_t stride = devices[static_cast<size_t>(position)];
    if (stride <= 0 || stride >= n) return std::nullopt;
    // n <= 2^31, so run * position <= 2n and run * stride <= (n + 1) * n fit.
    int64_t run = 1;
    while (run * position < n && devices[static_cast<size_t>(run * position)] == run * stride) {
      ++run;
    }
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
  for (int64_t f = 0; f < n; ++f) {
    if (iota->valueAtFlat(f) != devices[static_cast<size_t>(f)]) return std::nullopt;
  }
  return *iota;
}

Result<TileAssignment> meshLinearTileAssignment(const TileAssignment& tiles, sdy::MeshAttr mesh) {
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
  std::vector<int64_t> linear(devices.begin(), devices.end());
  if (!ids.empty()) {
    if (static_cast<int64_t>(ids.size()) != n || !isPermutation(ids)) {
      return makeError(ErrorCode::kUnsupported, "mesh device_ids are not a permutation of [0, " +
                                                    std::to_string(n) + ")");
    }
    const std::vector<int64_t> inverse = inversePermutation(ids);
    for (int64_t& d : linear) {
      if (d < 0 || d >= n) {
        return makeError(ErrorCode::kUnsupported,
                         "device " + std::to_string(d) + " is not in the mesh");
      }
      d = inverse[static_cast<size_t>(d)];
    }
  }
  std::optional<IotaTileAssignment> iota = findIotaForm(tiles.dimensions(), linear);
  if (!iota) {
    std::string list = "its devices in mesh order";
    if (n <= kMaxListedDevices) {
      auto shown = TileAssignment::fromDevices(tiles.dimensions(), linear);
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
  // The search reads every list; an iota too large to list is refused here
  // rather than by the first devices() call.
  if (n > hlo::kMaxMaterializedDevices) {
    return makeError(ErrorCode::kUnsupported,
                     "no single mesh for the tiled shardings: " + std::to_string(n) +
                         " devices are too many to search device orders (at most " +
                         std::to_string(hlo::kMaxMaterializedDevices) + ")");
  }
  std::vector<std::span<const int64_t>> lists;
  lists.reserve(tiledLeaves.size());
  for (const HloSharding* leaf : tiledLeaves) {
    SB_ASSIGN_OR_RETURN(std::span<const int64_t> devices, leaf->tileAssignment().devices());
    if (!isPermutation(devices)) {
      return makeError(ErrorCode::kUnsupported,
                       "sharding " + leaf->toString() + " does not use each of the devices 0.." +
                           std::to_string(n - 1) + " exactly once");
    }
    lists.push_back(devices);
  }

  // The iota order first (an empty span), then each distinct leaf order.
  std::vector<std::span<const int64_t>> orders(1);
  for (std::span<const int64_t> list : lists) {
    if (isIdentity(list)) continue;
    bool seen = false;
    for (size_t i = 1; i < orders.size() && !seen; ++i) {
      seen = std::equal(list.begin(), list.end(), orders[i].begin(), orders[i].end());
    }
    if (!seen) orders.push_back(list);
  }
  std::vector<size_t> all(tiledLeaves.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  size_t failedUnderIota = 0;
  for (size_t i = 0; i < orders.size(); ++i) {
    Attempt attempt = tryOrder(tiledLeaves, lists, all, orders[i]);
    if (attempt.ok) return buildMesh(ctx, attempt.axes, orders[i]);
    if (i == 0) failedUnderIota = attempt.failedLeaf;
  }

  // Name a pair: the first leaf the iota order fails on, and the first leaf
  // its own order fails on; claim a conflict only if neither of their
  // orders (nor the iota order) serves the two of them.
  const size_t b = failedUnderIota;
  const size_t a = tryOrder(tiledLeaves, lists, all, lists[b]).failedLeaf;
  const size_t pair[] = {std::min(a, b), std::max(a, b)};
  if (a != b && !tryOrder(tiledLeaves, lists, pair, lists[a]).ok) {
    return makeError(ErrorCode::kUnsupported,
                     "no single mesh for shardings " + tiledLeaves[pair[0]]->toString() + " and " +
                         tiledLeaves[pair[1]]->toString() +
                         ": no device order tried (the iota order or the order of either "
                         "sharding) lists both as factorable iotas");
  }
  return makeError(ErrorCode::kUnsupported,
                   "no single mesh for the tiled shardings: no device order tried (the iota "
                   "order or the order of one of the shardings) lists all of them as "
                   "factorable iotas");
}

}  // namespace shardbridge::convert
