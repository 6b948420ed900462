// Reading one sharding's devices in a mesh's device order (any_order.h):
// findIotaForm and meshLinearTileAssignment. The search over device orders
// for a whole module, inferAnyOrderMesh, is any_order_search.cc.
#include "shardbridge/convert/any_order.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "device_order.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;
using hlo::IotaTileAssignment;
using hlo::TileAssignment;

// Lists above this size are left out of error messages.
constexpr int64_t kMaxListedDevices = 64;

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

}  // namespace

namespace detail {

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

bool isIdentity(std::span<const int64_t> devices) {
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
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

}  // namespace detail

using namespace detail;

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

}  // namespace shardbridge::convert
