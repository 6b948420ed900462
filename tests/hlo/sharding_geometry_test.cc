// Tests for HloSharding::validate and tile geometry. Cases from upstream
// xla/service/hlo_sharding_test.cc (test names cited) and docs/upstream.md
// (section f, Validate and tile geometry).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <tuple>

#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/text.h"
#include "hlo/test_helpers.h"

namespace shardbridge::hlo {
namespace {

using test_helpers::parse;

using I64s = std::vector<int64_t>;

Shape shape(const char* text) { return parseShape(text).value(); }

std::string validateMessage(const char* sharding, const char* shapeText,
                            std::optional<int64_t> numDevices) {
  Status st = parse(sharding).validate(shape(shapeText), numDevices);
  return st.has_value() ? "OK" : st.error().message;
}

TEST(ValidateTest, Messages) {
  const struct {
    const char* sharding;
    const char* shape;
    std::optional<int64_t> numDevices;
    std::string expected;
  } rows[] = {
      // HloShardingRepresentationTest.Replicate / DevicePlacement
      {"{replicated}", "u32[4]", 2, "OK"},
      {"{maximal device=5}", "u32[4]", 6, "OK"},
      {"{maximal device=5}", "u32[4]", 5,
       "device 5 >= num_devices (5) in tile assignment\n\tNote: While validating sharding "
       "{maximal device=5} against shape u32[4]"},
      {"{maximal device=-1}", "u32[4]", std::nullopt,
       "device -1 is negative in tile assignment\n\tNote: While validating sharding "
       "{maximal device=-1} against shape u32[4]"},
      // TileTest.FailsWithDuplicateDeviceInTileAssignment
      {"{devices=[2,2]0,0,2,3}", "f32[4,6]", 4,
       "device 0 is not unique in tile assignment\n\tNote: While validating sharding "
       "{devices=[2,2]0,0,2,3} against shape f32[4,6]"},
      // TileTest.FailsWhenDeviceUsedGreaterThanNumDevices
      {"{devices=[2,2]0,1,2,3}", "u32[4,6]", 2,
       "device 2 >= num_devices (2) in tile assignment\n\tNote: While validating sharding "
       "{devices=[2,2]0,1,2,3} against shape u32[4,6]"},
      // TileTest.FailsWhenNotAllDevicesArePresentInTileAssignment
      {"{devices=[2,2]0,1,2,3}", "u32[4,6]", 5,
       "tile_assignment should have 5 devices but has 4\n\tNote: While validating sharding "
       "{devices=[2,2]0,1,2,3} against shape u32[4,6]"},
      // TileTest.PassesValidationAndMatchesTileInfo
      {"{devices=[2,2]0,3,2,1}", "f32[3,5]", 4, "OK"},
      {"{devices=[2,2]<=[4]}", "f32[3,5]", 5,
       "tile_assignment should have 5 devices but has 4\n\tNote: While validating sharding "
       "{devices=[2,2]<=[4]} against shape f32[3,5]"},
      {"{devices=[2,2]<=[4]}", "f32[3]", std::nullopt,
       "Number of tile assignment dimensions (excluding subgroups) is different than the input "
       "rank. sharding={devices=[2,2]<=[4]}, input_shape=f32[3]\n\tNote: While validating "
       "sharding {devices=[2,2]<=[4]} against shape f32[3]"},
      {"{devices=[2,2]<=[4] last_tile_dim_replicate}", "f32[3]", 4, "OK"},
      {"{devices=[1,1]<=[1]}", "f32[3,3]", std::nullopt,
       "Tile assignment only contains a single device. If a replicated sharding was intended, "
       "use HloSharding::Replicated(). If a device placement was intended, use "
       "HloSharding::SingleDevice()\n\tNote: While validating sharding {devices=[1,1]<=[1]} "
       "against shape f32[3,3]"},
      {"{devices=[2]0,1}", "(f32[4])", std::nullopt,
       "Validation shape is a tuple but sharding is not.\n\tNote: While validating sharding "
       "{devices=[2]0,1} against shape (f32[4])"},
      {"{devices=[2]0,1}", "token[]", 7, "OK"},
      // HloShardingTest.NestedTuple
      {"{{replicated}, {maximal device=0}, {devices=[1,2]0,1}}", "(f32[], (f32[3]), f32[4,6])", 2,
       "OK"},
      {"{{replicated}, {maximal device=0}, {devices=[1,2]0,1}}", "()", 5,
       "Shape () has 0 leaf nodes while this sharding has 3\n\tNote: While validating sharding "
       "{{replicated}, {maximal device=0}, {devices=[1,2]0,1}} against shape ()"},
      {"{{replicated}, {maximal device=0}, {devices=[1,2]0,1}}", "f32[]", 5,
       "Sharding is tuple-shaped but validation shape is not.\n\tNote: While validating sharding "
       "{{replicated}, {maximal device=0}, {devices=[1,2]0,1}} against shape f32[]"},
      {"{{replicated}, {maximal device=7}}", "(f32[], (f32[3]))", 2,
       "device 7 >= num_devices (2) in tile assignment\n\tNote: While validating sharding tuple "
       "element {1,0} which is {maximal device=7}\n\tNote: While validating sharding "
       "{{replicated}, {maximal device=7}} against shape (f32[], (f32[3]))"},
      {"{{maximal device=0}}", "()", 1, "OK"},  // an empty tuple shape takes one element
      {"{}", "()", 1, "OK"},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(validateMessage(row.sharding, row.shape, row.numDevices), row.expected)
        << row.sharding << " vs " << row.shape;
  }
}

TEST(GeometryTest, PassesValidationAndMatchesTileInfo) {
  // TileTest.PassesValidationAndMatchesTileInfo
  const Shape s = shape("u32[4,5]");
  const HloSharding sharding = parse("{devices=[2,2]0,3,2,1}");
  EXPECT_EQ(sharding.tileOffsetForDevice(s, 0).value(), (I64s{0, 0}));
  EXPECT_EQ(sharding.tileOffsetForDevice(s, 3).value(), (I64s{0, 3}));
  EXPECT_EQ(sharding.tileOffsetForDevice(s, 2).value(), (I64s{2, 0}));
  EXPECT_EQ(sharding.tileOffsetForDevice(s, 1).value(), (I64s{2, 3}));
  EXPECT_EQ(sharding.tileLimitForDevice(s, 0).value(), (I64s{2, 3}));
  EXPECT_EQ(sharding.tileLimitForDevice(s, 3).value(), (I64s{2, 5}));
  EXPECT_EQ(sharding.tileLimitForDevice(s, 2).value(), (I64s{4, 3}));
  EXPECT_EQ(sharding.tileLimitForDevice(s, 1).value(), (I64s{4, 5}));
  EXPECT_EQ(sharding.tileShape(s).value().toString(), "u32[2,3]");
  EXPECT_EQ(sharding.tileShape(s, 1).value().toString(), "u32[2,2]");
  std::vector<std::tuple<int64_t, I64s, I64s>> tiles;
  ASSERT_TRUE(sharding
                  .eachTile(s.dimensions(),
                            [&](int64_t d, std::span<const int64_t> o, std::span<const int64_t> l) {
                              tiles.emplace_back(d, I64s(o.begin(), o.end()),
                                                 I64s(l.begin(), l.end()));
                            })
                  .has_value());
  const std::vector<std::tuple<int64_t, I64s, I64s>> expected = {
      {0, {0, 0}, {2, 3}}, {3, {0, 3}, {2, 5}}, {2, {2, 0}, {4, 3}}, {1, {2, 3}, {4, 5}}};
  EXPECT_EQ(tiles, expected);
}

TEST(GeometryTest, PartialReplicationAndEdges) {
  // HloShardingTest.EachTile: 2-way on dim 0, each shard replicated 3 times.
  const HloSharding p = parse("{devices=[2,1,3]<=[6] last_tile_dim_replicate}");
  const Shape s = shape("u32[10,20]");
  EXPECT_EQ(p.tileIndexForDevice(4).value(), (I64s{1, 0}));
  EXPECT_EQ(p.tileOffsetForDevice(s, 4).value(), (I64s{5, 0}));
  EXPECT_EQ(p.tileLimitForDevice(s, 4).value(), (I64s{10, 20}));
  int calls = 0;
  ASSERT_TRUE(p.eachTile(s.dimensions(),
                         [&](int64_t d, std::span<const int64_t> o, std::span<const int64_t> l) {
                           ++calls;
                           EXPECT_EQ(I64s(o.begin(), o.end()), p.tileOffsetForDevice(s, d).value());
                           EXPECT_EQ(I64s(l.begin(), l.end()), p.tileLimitForDevice(s, d).value());
                         })
                  .has_value());
  EXPECT_EQ(calls, 6);
  // Uneven: 11 rows over 6 shards -> tiles of 2, the last one empty.
  const HloSharding six = parse("{devices=[6,1]<=[6]}");
  const Shape odd = shape("u32[11,20]");
  EXPECT_EQ(six.tileOffsetForDevice(odd, 5).value(), (I64s{10, 0}));
  EXPECT_EQ(six.tileLimitForDevice(odd, 5).value(), (I64s{11, 20}));
  EXPECT_EQ(six.tileShape(odd, 5).value().toString(), "u32[1,20]");
  // Single device: the whole shape.
  const HloSharding one = parse("{maximal device=3}");
  EXPECT_EQ(one.tileOffsetForDevice(s, 3).value(), (I64s{0, 0}));
  EXPECT_EQ(one.tileLimitForDevice(s, 3).value(), (I64s{10, 20}));
  // Errors where upstream CHECK-fails.
  EXPECT_EQ(six.tileOffsetForDevice(odd, 9).error().message,
            "device 9 is not in tile assignment devices=[6,1]<=[6]");
  EXPECT_EQ(six.tileOffsetForDevice(shape("f32[3]"), 0).error().message,
            "Shape rank is not same as tile rank: 1 vs 2");
  EXPECT_EQ(parse("{manual}").tileOffsetForDevice(s, 0).error().message,
            "tile bounds are not defined for sharding {manual}");
  EXPECT_EQ(parse("{devices=[2]0,5}").eachTile(I64s{4}, [](int64_t, auto, auto) {}).error().message,
            "Out of range device id in device_assignment: 5; valid range: [0, 2)");
  EXPECT_EQ(six.eachTile(I64s{4}, [](int64_t, auto, auto) {}).error().message,
            "Shape rank is not same as tile rank: 1 vs 2");
}

TEST(GeometryTest, LargeIotaIndexWithoutMaterializing) {
  const HloSharding big = parse("{devices=[1024,1024]<=[1024,1024]T(1,0)}");
  EXPECT_EQ(big.tileIndexForDevice(1).value(), (I64s{1, 0}));
  EXPECT_FALSE(big.tileAssignment().isMaterialized());
  EXPECT_TRUE(big.validate(shape("f32[2048,2048]"), int64_t{1} << 20).has_value());
}

}  // namespace
}  // namespace shardbridge::hlo
