// Tile geometry for `explain` and `show`: which part of a tensor each device
// holds under an HloSharding, grouped by tile.
//
//   computeTiles({devices=[2,1,2]<=[4] last_tile_dim_replicate}, {5, 3})
//     tileCounts {2, 1}; tiles (row-major):
//       index {0,0}  offset {0,0}  shape {3,3}  devices {0,1}
//       index {1,0}  offset {3,0}  shape {2,3}  devices {2,3}
//
// Offsets follow XLA's TileOffsetForDevice: per dim, with n shards and the
// tile size c = ceil(dim / n), tile i covers [min(i*c, dim), min((i+1)*c,
// dim)), so the last tiles may be smaller or empty (dim 5 over 4 shards:
// 2, 2, 1, 0).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::view {

// Limits that keep explain/show output bounded.
inline constexpr int64_t kMaxViewDevices = 65536;
inline constexpr int64_t kMaxViewTiles = 4096;

// One data tile and every device that holds it.
struct Tile {
  std::vector<int64_t> index;   // tile coordinate per tensor dim
  std::vector<int64_t> offset;  // first element per tensor dim
  std::vector<int64_t> shape;   // local shape (limit - offset); may hold 0
  // The devices holding this tile, in tile-assignment (row-major) order.
  // Devices in the same subgroup dims (replicated, manual or unreduced)
  // share a tile position.
  std::vector<int64_t> devices;
};

struct TileLayout {
  std::vector<int64_t> dims;        // the tensor dims
  std::vector<int64_t> tileCounts;  // shards per tensor dim
  std::vector<Tile> tiles;          // row-major over tileCounts
  // Devices per tile (1 for a single device). 0 for a replicated sharding
  // whose device count is unknown: then `tiles` has one tile and no devices.
  int64_t replication = 1;
  int64_t numDevices = 0;  // devices in the layout (0 if unknown)
  // What the devices of one tile are to each other. They run row-major over
  // the subgroup dims in XLA's order — manual, unreduced, replicated — so a
  // tile's `replication` devices are manualGroup blocks (each holds its own
  // shard), each of unreducedGroup blocks (each holds a partial value of
  // the tile), each of replicas (they hold the same values).
  int64_t manualGroup = 1;
  int64_t unreducedGroup = 1;
};

// Returns the tiles of `sharding` for a tensor of `dims`:
//   * tiled leaves (V2, or V3 through its V2 form): one Tile per data tile;
//   * replicated: one tile of the whole tensor held by devices
//     0..replicatedDevices-1 (none when replicatedDevices is nullopt or 0);
//   * single device N: one tile held by N.
// Rejects (kInvalid/kUnsupported): a tuple, manual, unknown and unreduced
// shardings (no tiles), a negative dim, a rank other than the sharding's
// data rank, device ids outside [0, devices), more than kMaxViewDevices
// devices or kMaxViewTiles tiles.
Result<TileLayout> computeTiles(const hlo::HloSharding& sharding, std::span<const int64_t> dims,
                                std::optional<int64_t> replicatedDevices = std::nullopt);

// The device ids as short text: runs of three or more consecutive ids as
// "a-b", others comma-separated: {0,1,2,3,8,10} -> "0-3,8,10".
std::string formatDeviceList(std::span<const int64_t> devices);

// A tile's devices as the pictures label them: replicas as formatDeviceList
// writes them, joined by '+' across unreduced blocks (partial values of the
// tile) and by '|' across manual blocks (each its own shard). Only replicas:
// formatDeviceList's text.
//   manualGroup 2, unreducedGroup 2, devices {0,1,2,3,4,5,6,7} -> "0,1+2,3|4,5+6,7"
std::string formatTileDevices(const TileLayout& layout, const Tile& tile);

// The words for formatTileDevices' marks, for the legend under a picture:
// empty when a tile holds only replicas, else e.g. "'+' joins devices
// holding partial values of a tile (unreduced, combined by sum)", plus what
// ',' means when the blocks hold several replicas. `reduction` names the
// reduction ("sum" when empty).
std::string tileDevicesLegend(const TileLayout& layout, std::string_view reduction);

}  // namespace shardbridge::view
