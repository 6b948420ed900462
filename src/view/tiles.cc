#include "shardbridge/view/tiles.h"

#include <algorithm>
#include <optional>
#include <string>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::view {
namespace {


std::string dimsText(std::span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

// XLA's tile bounds: tile `i` of `shards` over `dim` elements.
void tileBounds(int64_t dim, int64_t shards, int64_t i, int64_t& offset, int64_t& size) {
  const int64_t c = dim / shards + (dim % shards != 0 ? 1 : 0);
  // A product that overflows is past `dim` anyway.
  auto bound = [&](int64_t k) {
    std::optional<int64_t> v = checkedMul(c, k);
    return v ? std::min(*v, dim) : dim;
  };
  const int64_t lo = bound(i);
  const int64_t hi = bound(i + 1);
  offset = lo;
  size = hi - lo;
}

}  // namespace

std::string formatDeviceList(std::span<const int64_t> devices) {
  std::string out;
  size_t i = 0;
  while (i < devices.size()) {
    size_t j = i;
    while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1) ++j;
    if (!out.empty()) out += ',';
    if (j - i >= 2) {
      out += std::to_string(devices[i]) + "-" + std::to_string(devices[j]);
      i = j + 1;
    } else {
      out += std::to_string(devices[i]);
      ++i;
    }
  }
  return out;
}

std::string formatTileDevices(const TileLayout& layout, const Tile& tile) {
  const size_t manual = static_cast<size_t>(std::max<int64_t>(layout.manualGroup, 1));
  const size_t unreduced = static_cast<size_t>(std::max<int64_t>(layout.unreducedGroup, 1));
  const std::span<const int64_t> devices(tile.devices);
  if ((manual == 1 && unreduced == 1) || devices.size() % (manual * unreduced) != 0) {
    return formatDeviceList(devices);
  }
  const size_t replicas = devices.size() / (manual * unreduced);
  std::string out;
  for (size_t m = 0; m < manual; ++m) {
    if (m) out += '|';
    for (size_t u = 0; u < unreduced; ++u) {
      if (u) out += '+';
      out += formatDeviceList(devices.subspan((m * unreduced + u) * replicas, replicas));
    }
  }
  return out;
}

std::string tileDevicesLegend(const TileLayout& layout, std::string_view reduction) {
  std::string out;
  if (layout.unreducedGroup > 1) {
    out += "'+' joins devices holding partial values of a tile (unreduced, combined by " +
           std::string(reduction.empty() ? "sum" : reduction) + ")";
  }
  if (layout.manualGroup > 1) {
    if (!out.empty()) out += "; ";
    out += "'|' separates devices each holding its own shard (manual)";
  }
  const int64_t blocks = std::max<int64_t>(layout.manualGroup, 1) *
                         std::max<int64_t>(layout.unreducedGroup, 1);
  if (!out.empty() && layout.replication / blocks > 1) {
    out += "; ',' lists replicas (the same values)";
  }
  return out;
}

Result<TileLayout> computeTiles(const hlo::HloSharding& input, std::span<const int64_t> dims,
                                std::optional<int64_t> replicatedDevices) {
  for (int64_t d : dims) {
    if (d < 0) return invalidError("negative dimension in shape " + dimsText(dims));
  }
  hlo::HloSharding sharding = input;
  if (input.isNamed()) {
    SB_ASSIGN_OR_RETURN(sharding, hlo::toV2Sharding(input));
  }
  TileLayout layout;
  layout.dims.assign(dims.begin(), dims.end());
  layout.tileCounts.assign(dims.size(), 1);
  auto wholeTensor = [&](std::vector<int64_t> devices) {
    Tile t;
    t.index.assign(dims.size(), 0);
    t.offset.assign(dims.size(), 0);
    t.shape.assign(dims.begin(), dims.end());
    t.devices = std::move(devices);
    layout.replication = static_cast<int64_t>(t.devices.size());
    layout.numDevices = layout.replication;
    layout.tiles.push_back(std::move(t));
  };

  switch (sharding.kind()) {
    case hlo::HloSharding::Kind::kReplicated: {
      const int64_t n = replicatedDevices.value_or(0);
      if (n < 0 || n > kMaxViewDevices) {
        return makeError(ErrorCode::kUnsupported,
                         std::to_string(n) + " devices: more than the " +
                             std::to_string(kMaxViewDevices) + " explain/show can list");
      }
      std::vector<int64_t> devices(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) devices[static_cast<size_t>(i)] = i;
      wholeTensor(std::move(devices));
      return layout;
    }
    case hlo::HloSharding::Kind::kSingleDevice:
      wholeTensor({*sharding.uniqueDevice()});
      return layout;
    case hlo::HloSharding::Kind::kTiled:
      break;
    default:
      return makeError(ErrorCode::kUnsupported,
                       "sharding " + input.toString() +
                           " has no tiles (only tiled, replicated and single-device shardings "
                           "have)");
  }

  const int64_t rank = sharding.tiledDataRank();
  if (static_cast<int64_t>(dims.size()) != rank) {
    return invalidError("shape " + dimsText(dims) + " has rank " + std::to_string(dims.size()) +
                   " but sharding " + input.toString() + " tiles " + std::to_string(rank) +
                   " dimensions");
  }
  const hlo::TileAssignment& ta = sharding.tileAssignment();
  const int64_t numDevices = ta.numElements();
  if (numDevices > kMaxViewDevices) {
    return makeError(ErrorCode::kUnsupported,
                     "sharding " + input.toString() + " uses " + std::to_string(numDevices) +
                         " devices, more than the " + std::to_string(kMaxViewDevices) +
                         " explain/show can list");
  }
  std::span<const int64_t> taDims = ta.dimensions();
  std::optional<int64_t> numTiles = checkedProduct(taDims.subspan(0, static_cast<size_t>(rank)));
  if (!numTiles || *numTiles > kMaxViewTiles) {
    return makeError(ErrorCode::kUnsupported,
                     "sharding " + input.toString() + " has more than " +
                         std::to_string(kMaxViewTiles) + " tiles, more than explain/show draw");
  }
  layout.tileCounts.assign(taDims.begin(), taDims.begin() + rank);
  layout.numDevices = numDevices;
  layout.replication = numDevices / *numTiles;
  // The subgroup dims follow the data dims, one per type (a lone
  // last_tile_dim_replicate dim is replicated), in XLA's canonical order;
  // should they not be, the tile's devices are shown as one list.
  const std::vector<hlo::OpShardingType>& types = sharding.subgroupTypes();
  auto order = [](hlo::OpShardingType t) {
    return t == hlo::OpShardingType::kManual ? 0 : t == hlo::OpShardingType::kUnreduced ? 1 : 2;
  };
  bool canonical = true;
  for (size_t i = 0; i < types.size() && static_cast<size_t>(rank) + i < taDims.size(); ++i) {
    const int64_t size = taDims[static_cast<size_t>(rank) + i];
    if (i > 0 && order(types[i - 1]) > order(types[i])) canonical = false;
    if (types[i] == hlo::OpShardingType::kManual) layout.manualGroup *= size;
    if (types[i] == hlo::OpShardingType::kUnreduced) layout.unreducedGroup *= size;
  }
  if (!canonical) layout.manualGroup = layout.unreducedGroup = 1;

  // Tile t (row-major over the data dims) owns the flat tile-assignment
  // entries [t * replication, (t + 1) * replication): the subgroup dims are
  // the minor ones.
  layout.tiles.resize(static_cast<size_t>(*numTiles));
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  std::vector<bool> seen(static_cast<size_t>(numDevices), false);
  for (int64_t t = 0; t < *numTiles; ++t) {
    Tile& tile = layout.tiles[static_cast<size_t>(t)];
    tile.index = index;
    tile.offset.resize(index.size());
    tile.shape.resize(index.size());
    for (size_t d = 0; d < index.size(); ++d) {
      tileBounds(dims[d], layout.tileCounts[d], index[d], tile.offset[d], tile.shape[d]);
    }
    for (int64_t r = 0; r < layout.replication; ++r) {
      const int64_t device = ta.valueAtFlat(t * layout.replication + r);
      if (device < 0 || device >= numDevices) {
        return invalidError("Out of range device id in device_assignment: " + std::to_string(device) +
                       "; valid range: [0, " + std::to_string(numDevices) + ")");
      }
      if (seen[static_cast<size_t>(device)]) {
        return invalidError("device " + std::to_string(device) + " appears twice in sharding " +
                       input.toString());
      }
      seen[static_cast<size_t>(device)] = true;
      tile.devices.push_back(device);
    }
    for (size_t k = index.size(); k-- > 0;) {
      if (++index[k] < layout.tileCounts[k]) break;
      index[k] = 0;
    }
  }
  return layout;
}

}  // namespace shardbridge::view
