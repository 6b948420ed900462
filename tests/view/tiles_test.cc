// Tile geometry of explain/show (src/view/tiles.cc) checked against an
// independent computation: XLA's formula written out per element here, and
// hlo::HloSharding::tileOffsetForDevice / tileLimitForDevice.
#include "shardbridge/view/tiles.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "shardbridge/hlo/text.h"
#include "shardbridge/view/grid.h"

namespace shardbridge::view {
namespace {

using I64s = std::vector<int64_t>;

hlo::HloSharding parse(const std::string& text) { return hlo::parseSharding(text).value(); }

TEST(Tiles, DoneWhenCase) {
  // issue 5 "Done when": 8 tiles [4,2], each on 4 devices.
  auto s = parse("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  auto t = computeTiles(s, I64s{16, 32}).value();
  EXPECT_EQ(t.tileCounts, (I64s{4, 2}));
  EXPECT_EQ(t.replication, 4);
  EXPECT_EQ(t.numDevices, 32);
  ASSERT_EQ(t.tiles.size(), 8u);
  // Device d = 4*x + y on <["x"=8, "y"=4]>; dim 0 is y, dim 1 is x:(2)2.
  EXPECT_EQ(t.tiles[0].devices, (I64s{0, 4, 16, 20}));
  EXPECT_EQ(t.tiles[1].devices, (I64s{8, 12, 24, 28}));
  EXPECT_EQ(t.tiles[1].offset, (I64s{0, 16}));
  EXPECT_EQ(t.tiles[7].offset, (I64s{12, 16}));
  EXPECT_EQ(t.tiles[7].shape, (I64s{4, 16}));
}

TEST(Tiles, UnevenLastTilesAsXla) {
  // dim 5 over 4 shards: ceil 2 -> 2, 2, 1, 0 (the last tile is empty).
  auto t = computeTiles(parse("{devices=[4]<=[4]}"), I64s{5}).value();
  I64s sizes, offsets;
  for (const Tile& tile : t.tiles) {
    sizes.push_back(tile.shape[0]);
    offsets.push_back(tile.offset[0]);
  }
  EXPECT_EQ(sizes, (I64s{2, 2, 1, 0}));
  EXPECT_EQ(offsets, (I64s{0, 2, 4, 5}));
  // dim 0 over 3 shards: all empty.
  auto z = computeTiles(parse("{devices=[3]<=[3]}"), I64s{0}).value();
  for (const Tile& tile : z.tiles) EXPECT_EQ(tile.shape[0], 0);
}

TEST(Tiles, ExplicitListAndSubgroups) {
  auto t = computeTiles(parse("{devices=[2,2]3,2,1,0}"), I64s{4, 4}).value();
  EXPECT_EQ(t.tiles[0].devices, (I64s{3}));
  EXPECT_EQ(t.tiles[3].devices, (I64s{0}));
  // A manual subgroup: its devices share a tile position.
  auto m = computeTiles(parse("{devices=[2,1,2]<=[4] last_tile_dims={manual}}"), I64s{4, 6}).value();
  EXPECT_EQ(m.replication, 2);
  EXPECT_EQ(m.tiles[1].devices, (I64s{2, 3}));
  EXPECT_EQ(m.tiles[1].shape, (I64s{2, 6}));
}

TEST(Tiles, ReplicatedAndSingleDevice) {
  auto r = computeTiles(parse("{replicated}"), I64s{3, 3}, 4).value();
  ASSERT_EQ(r.tiles.size(), 1u);
  EXPECT_EQ(r.tiles[0].devices, (I64s{0, 1, 2, 3}));
  EXPECT_EQ(r.tiles[0].shape, (I64s{3, 3}));
  auto unknownCount = computeTiles(parse("{replicated}"), I64s{3}).value();
  EXPECT_EQ(unknownCount.numDevices, 0);
  auto one = computeTiles(parse("{maximal device=5}"), I64s{2}).value();
  EXPECT_EQ(one.tiles[0].devices, (I64s{5}));
}

TEST(Tiles, Rejections) {
  EXPECT_FALSE(computeTiles(parse("{manual}"), I64s{2}));
  EXPECT_FALSE(computeTiles(parse("{unknown}"), I64s{2}));
  EXPECT_FALSE(computeTiles(parse("{{replicated}, {replicated}}"), I64s{2}));
  auto rank = computeTiles(parse("{devices=[2,2]<=[4]}"), I64s{4});
  ASSERT_FALSE(rank);
  EXPECT_EQ(rank.error().message,
            "shape [4] has rank 1 but sharding {devices=[2,2]<=[4]} tiles 2 dimensions");
  EXPECT_FALSE(computeTiles(parse("{devices=[2]<=[2]}"), I64s{-1}));
  // Over the limits: refused, not listed.
  auto many = computeTiles(parse("{devices=[131072]<=[131072]}"), I64s{131072});
  ASSERT_FALSE(many);
  EXPECT_NE(many.error().message.find("more than the 65536"), std::string::npos);
  auto tiles = computeTiles(parse("{devices=[8192]<=[8192]}"), I64s{8192});
  ASSERT_FALSE(tiles);
  EXPECT_NE(tiles.error().message.find("more than 4096 tiles"), std::string::npos);
  // Huge dims do not overflow.
  auto big = computeTiles(parse("{devices=[3]<=[3]}"), I64s{INT64_MAX}).value();
  EXPECT_EQ(big.tiles[2].offset[0] + big.tiles[2].shape[0], INT64_MAX);
}

// Issue 13 item 5: a tile's devices say what they are to each other.
// Devices run row-major over the subgroup dims in XLA's order (manual,
// unreduced, replicated), so the blocks below follow from the iota.
TEST(Tiles, GroupsAreMarkedApartFromReplicas) {
  auto replicas = computeTiles(parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}"), I64s{2, 1}).value();
  EXPECT_EQ(replicas.manualGroup, 1);
  EXPECT_EQ(replicas.unreducedGroup, 1);
  EXPECT_EQ(formatTileDevices(replicas, replicas.tiles[0]), "0,1");
  EXPECT_EQ(tileDevicesLegend(replicas, "sum"), "");

  auto unreduced = computeTiles(parse("{devices=[2,1,2]<=[4] last_tile_dims={unreduced}}"), I64s{2, 1}).value();
  EXPECT_EQ(unreduced.unreducedGroup, 2);
  EXPECT_EQ(formatTileDevices(unreduced, unreduced.tiles[1]), "2+3");
  EXPECT_EQ(tileDevicesLegend(unreduced, "max"),
            "'+' joins devices holding partial values of a tile (unreduced, combined by max)");

  auto manual = computeTiles(parse("{devices=[1,2,4,2]<=[16] last_tile_dims={manual, unreduced, replicated}}"),
                             I64s{1}).value();
  EXPECT_EQ(manual.manualGroup, 2);
  EXPECT_EQ(manual.unreducedGroup, 4);
  EXPECT_EQ(manual.replication, 16);
  EXPECT_EQ(formatTileDevices(manual, manual.tiles[0]),
            "0,1+2,3+4,5+6,7|8,9+10,11+12,13+14,15");
  EXPECT_EQ(tileDevicesLegend(manual, ""),
            "'+' joins devices holding partial values of a tile (unreduced, combined by sum); "
            "'|' separates devices each holding its own shard (manual); "
            "',' lists replicas (the same values)");

  // An explicit list keeps its order inside the blocks.
  auto list = computeTiles(parse("{devices=[1,2,2]3,1,0,2 last_tile_dims={manual, replicated}}"), I64s{1}).value();
  EXPECT_EQ(formatTileDevices(list, list.tiles[0]), "1,3|0,2");
}

TEST(Tiles, FormatDeviceList) {
  EXPECT_EQ(formatDeviceList(I64s{0, 1, 2, 3, 8, 10}), "0-3,8,10");
  EXPECT_EQ(formatDeviceList(I64s{0, 1}), "0,1");
  EXPECT_EQ(formatDeviceList(I64s{}), "");
  EXPECT_EQ(formatDeviceList(I64s{5, 4, 3}), "5,4,3");
}

// --- properties --------------------------------------------------------------

struct Case {
  hlo::HloSharding sharding;
  I64s dims;
};

// A tiled sharding of data rank 1..3 over a random permutation of devices,
// with or without a replication dim, and a small shape (often uneven).
rc::Gen<Case> genCase() {
  return rc::gen::exec([] {
    const size_t rank = *rc::gen::inRange<size_t>(1, 4);
    I64s tileDims;
    for (size_t i = 0; i < rank; ++i) tileDims.push_back(*rc::gen::inRange<int64_t>(1, 5));
    const bool replicate = *rc::gen::arbitrary<bool>();
    if (replicate) tileDims.push_back(*rc::gen::inRange<int64_t>(2, 4));
    int64_t n = 1;
    for (int64_t d : tileDims) n *= d;
    I64s devices(static_cast<size_t>(n));
    std::iota(devices.begin(), devices.end(), 0);
    const auto seed = *rc::gen::arbitrary<uint32_t>();
    for (size_t i = devices.size(); i > 1; --i) {
      std::swap(devices[i - 1], devices[(seed * 2654435761u + i * 40503u) % i]);
    }
    auto ta = hlo::TileAssignment::fromDevices(tileDims, devices).value();
    Case c{replicate ? hlo::HloSharding::partialTile(ta).value() : hlo::HloSharding::tile(ta).value(),
           {}};
    for (size_t i = 0; i < rank; ++i) c.dims.push_back(*rc::gen::inRange<int64_t>(0, 10));
    return c;
  });
}

RC_GTEST_PROP(TilesProps, TilesCoverShapeReplicationTimes, ()) {
  const Case c = *genCase();
  if (c.sharding.kind() != hlo::HloSharding::Kind::kTiled) return;  // partialTile collapsed
  auto t = computeTiles(c.sharding, c.dims).value();
  // Every element is covered exactly `replication` times.
  std::map<I64s, int64_t> count;
  std::map<int64_t, int> seen;
  hlo::Shape shape = hlo::Shape::array("f32", c.dims);
  for (const Tile& tile : t.tiles) {
    RC_ASSERT(static_cast<int64_t>(tile.devices.size()) == t.replication);
    for (int64_t device : tile.devices) {
      ++seen[device];
      // Independent: XLA's TileOffsetForDevice / TileLimitForDevice.
      RC_ASSERT(c.sharding.tileOffsetForDevice(shape, device).value() == tile.offset);
      I64s limit = c.sharding.tileLimitForDevice(shape, device).value();
      for (size_t d = 0; d < limit.size(); ++d) RC_ASSERT(limit[d] - tile.offset[d] == tile.shape[d]);
    }
    I64s e = tile.offset;
    bool empty = std::any_of(tile.shape.begin(), tile.shape.end(), [](int64_t s) { return s == 0; });
    while (!empty) {
      count[e] += t.replication;
      size_t k = e.size();
      while (k-- > 0) {
        if (++e[k] < tile.offset[k] + tile.shape[k]) break;
        e[k] = tile.offset[k];
      }
      if (k == static_cast<size_t>(-1)) break;
    }
  }
  int64_t elements = 1;
  for (int64_t d : c.dims) elements *= d;
  RC_ASSERT(static_cast<int64_t>(count.size()) == elements);
  for (const auto& [element, n] : count) RC_ASSERT(n == t.replication);
  // Every device holds exactly one tile.
  RC_ASSERT(static_cast<int64_t>(seen.size()) == t.numDevices);
  for (const auto& [device, n] : seen) RC_ASSERT(n == 1);

  // The show grid, with random rows/cols: every tile is drawn once, so every
  // device appears exactly once over all the slices' cells.
  GridOptions options;
  const int64_t rank = static_cast<int64_t>(c.dims.size());
  if (*rc::gen::arbitrary<bool>()) options.rowsDim = *rc::gen::inRange<int64_t>(0, rank);
  if (*rc::gen::arbitrary<bool>()) options.colsDim = *rc::gen::inRange<int64_t>(0, rank);
  auto grid = buildGrid(t, options);
  if (options.rowsDim && options.colsDim && *options.rowsDim == *options.colsDim) {
    RC_ASSERT(!grid);
    return;
  }
  RC_ASSERT(grid.has_value());
  std::map<int64_t, int> drawn;
  int64_t cells = 0;
  for (const GridSlice& slice : grid->slices) {
    for (const auto& row : slice.cells) {
      for (const GridCell& cell : row) {
        ++cells;
        for (int64_t d : cell.tile->devices) ++drawn[d];
      }
    }
  }
  RC_ASSERT(cells == static_cast<int64_t>(t.tiles.size()));
  RC_ASSERT(drawn == seen);
}

}  // namespace
}  // namespace shardbridge::view
