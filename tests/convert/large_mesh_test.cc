// Directed tests at 65,536 and 1,048,576 devices (issue 4 item 7): export
// and import on iota meshes and on explicit device orders (a seeded shuffle,
// a transposed iota, a ring order). Expectations are either worked by hand
// ("derived", reasoning given) or computed by the small reference model
// below, which never builds a tile assignment: it reads each device's
// coordinate on every mesh axis and the tile index it must sit at.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/convert/any_order.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/hlo/tile_assignment.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;

constexpr AnyOrderOptions kLargeAnyOrder{true};
constexpr int64_t k64K = int64_t{1} << 16;
constexpr int64_t k1M = int64_t{1} << 20;

// --- the reference model ------------------------------------------------------

// A slice `(pre)size` of mesh axis `axis`.
struct AxisChunk {
  size_t axis;
  int64_t pre;
  int64_t size;
};

struct Model {
  std::vector<int64_t> axisSizes;
  std::vector<int64_t> ids;                 // device at mesh position p; empty: iota
  std::vector<std::vector<AxisChunk>> dims;     // per tensor dim, major to minor

  int64_t total() const {
    int64_t n = 1;
    for (int64_t s : axisSizes) n *= s;
    return n;
  }
  int64_t deviceAt(int64_t position) const {
    return ids.empty() ? position : ids[static_cast<size_t>(position)];
  }
  // The tile index of mesh position `position` along tensor dim `d`.
  int64_t tileIndex(int64_t position, size_t d) const {
    std::vector<int64_t> coordinate(axisSizes.size());
    for (size_t a = axisSizes.size(); a-- > 0;) {
      coordinate[a] = position % axisSizes[a];
      position /= axisSizes[a];
    }
    int64_t index = 0;
    for (const AxisChunk& c : dims[d]) {
      const int64_t minor = axisSizes[c.axis] / (c.pre * c.size);
      index = index * c.size + (coordinate[c.axis] / minor) % c.size;
    }
    return index;
  }
};

// Checks that every mesh position in `positions` sits, in `hlo`'s tile
// assignment, at the data tile the model gives it: its device's place
// (found through an inverse of the device list) has the model's index in
// each data dim. `places` maps a device to its flat place.
void expectPlacedAsModel(const Model& model, const HloSharding& hlo,
                         std::span<const int64_t> positions) {
  ASSERT_TRUE(hlo.isTiled()) << hlo.toString();
  const hlo::TileAssignment& tiles = hlo.tileAssignment();
  ASSERT_EQ(tiles.numElements(), model.total());
  ASSERT_EQ(hlo.tiledDataRank(), static_cast<int64_t>(model.dims.size()));
  // Inverse of the tile assignment: device -> flat place.
  std::vector<int64_t> place(static_cast<size_t>(model.total()), -1);
  for (int64_t flat = 0; flat < tiles.numElements(); ++flat) {
    const int64_t device = tiles.valueAtFlat(flat);
    ASSERT_TRUE(device >= 0 && device < model.total()) << device;
    ASSERT_EQ(place[static_cast<size_t>(device)], -1) << "device " << device << " twice";
    place[static_cast<size_t>(device)] = flat;
  }
  const std::span<const int64_t> shape = tiles.dimensions();
  int failures = 0;
  for (int64_t position : positions) {
    int64_t rest = place[static_cast<size_t>(model.deviceAt(position))];
    std::vector<int64_t> index(shape.size());
    for (size_t k = shape.size(); k-- > 0;) {
      index[k] = rest % shape[k];
      rest /= shape[k];
    }
    for (size_t d = 0; d < model.dims.size(); ++d) {
      if (index[d] != model.tileIndex(position, d) && ++failures <= 5) {
        ADD_FAILURE() << "mesh position " << position << " (device " << model.deviceAt(position)
                      << ") dim " << d << ": at " << index[d] << ", model "
                      << model.tileIndex(position, d);
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

std::vector<int64_t> allPositions(int64_t n) {
  std::vector<int64_t> out(static_cast<size_t>(n));
  std::iota(out.begin(), out.end(), 0);
  return out;
}

// A fixed sample of positions: the corners and 4,096 seeded random ones.
std::vector<int64_t> samplePositions(int64_t n) {
  std::vector<int64_t> out = {0, 1, n / 2, n - 2, n - 1};
  std::mt19937_64 engine(20261129);
  std::uniform_int_distribution<int64_t> dist(0, n - 1);
  for (int i = 0; i < 4096; ++i) out.push_back(dist(engine));
  return out;
}

std::vector<int64_t> seededShuffle(std::vector<int64_t> v, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::shuffle(v.begin(), v.end(), engine);
  return v;
}

std::vector<int64_t> iotaList(int64_t n) { return allPositions(n); }

// Row-major [rows, cols] -> the list of its transpose: position p = (i, j)
// of the [cols, rows] view holds i + j * cols... spelled out: the device at
// position (r, c) of a [rows, cols] mesh is c * rows + r.
std::vector<int64_t> transposedIota(int64_t rows, int64_t cols) {
  std::vector<int64_t> out(static_cast<size_t>(rows * cols));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) out[static_cast<size_t>(r * cols + c)] = c * rows + r;
  }
  return out;
}

// A ring (boustrophedon) order over [rows, cols]: odd rows reversed.
std::vector<int64_t> ringOrder(int64_t rows, int64_t cols) {
  std::vector<int64_t> out = iotaList(rows * cols);
  for (int64_t r = 1; r < rows; r += 2) {
    std::reverse(out.begin() + r * cols, out.begin() + (r + 1) * cols);
  }
  return out;
}

class LargeMeshTest : public ::testing::Test {
 protected:
  sdy::MeshAttr mesh(std::vector<std::pair<std::string, int64_t>> axes,
                     std::span<const int64_t> ids = {}) {
    std::vector<sdy::MeshAxisAttr> attrs;
    for (const auto& [name, size] : axes) attrs.push_back(sdy::MeshAxisAttr::get(ctx_, name, size));
    return sdy::MeshAttr::get(ctx_, attrs, ids);
  }
  sdy::TensorShardingAttr sharding(const std::string& text) {
    auto parsed = sdy::parseTensorSharding(ctx_, text);
    EXPECT_TRUE(parsed.has_value()) << text;
    return parsed.has_value() ? *parsed : sdy::TensorShardingAttr();
  }
  Result<HloSharding> exportOn(sdy::MeshAttr m, const std::string& text,
                               std::span<const std::string> manual = {}) {
    return convertToHloSharding(
        sharding(text), [m](std::string_view name) { return name == "mesh" ? m : sdy::MeshAttr(); },
        manual);
  }
  Result<sdy::TensorShardingAttr> importOn(sdy::MeshAttr m, const HloSharding& hlo,
                                           bool anyOrder) {
    return convertToSdySharding(ctx_, hlo, m, sdy::MeshOrRef::ref(ctx_, "mesh"), {},
                                hlo.isTiled() ? hlo.tiledDataRank() : 0, false,
                                AnyOrderOptions{anyOrder});
  }
  sdy::Context ctx_;
};

// --- 65,536 devices -------------------------------------------------------------

TEST_F(LargeMeshTest, ExportOnAnIotaMeshOf65536) {
  // Derived: dim 0 = z (64) then x:(1)4 -> 256; dim 1 = y:(2)32 -> 32; the
  // rest, x:(4)4 and y:(1)2, is one replication group of 8. On an iota mesh
  // the result stays an iota (never materialised by the export).
  const sdy::MeshAttr m = mesh({{"x", 16}, {"y", 64}, {"z", 64}});
  auto hlo = exportOn(m, R"(<@mesh, [{"z", "x":(1)4}, {"y":(2)32}]>)");
  ASSERT_TRUE(hlo.has_value()) << hlo.error().message;
  EXPECT_TRUE(hlo->replicateOnLastTileDim());
  EXPECT_TRUE(hlo->tileAssignment().isIota()) << hlo->toString();
  EXPECT_EQ(std::vector<int64_t>(hlo->tileAssignment().dimensions().begin(),
                                 hlo->tileAssignment().dimensions().end()),
            (std::vector<int64_t>{256, 32, 8}));
  Model model{{16, 64, 64}, {}, {{{2, 1, 64}, {0, 1, 4}}, {{1, 2, 32}}}};
  expectPlacedAsModel(model, *hlo, allPositions(k64K));
}

TEST_F(LargeMeshTest, ExportOnAShuffledMeshOf65536) {
  // device_ids: a seeded shuffle of a transposed iota; a non-power-of-two
  // cut is impossible at 2^16, so the sub-axes carry the structure.
  const std::vector<int64_t> ids = seededShuffle(transposedIota(256, 256), 7);
  const sdy::MeshAttr m = mesh({{"a", 256}, {"b", 256}}, ids);
  auto hlo = exportOn(m, R"(<@mesh, [{"b":(4)64}, {"a", "b":(1)2}]>)");
  ASSERT_TRUE(hlo.has_value()) << hlo.error().message;
  EXPECT_EQ(hlo->tiledDataRank(), 2);
  Model model{{256, 256}, ids, {{{1, 4, 64}}, {{0, 1, 256}, {1, 1, 2}}}};
  expectPlacedAsModel(model, *hlo, allPositions(k64K));
}

TEST_F(LargeMeshTest, ExportWithManualAxesOnATransposedMeshOf65536) {
  // Manual axis "m" (caller's order first, as the MANUAL subgroup dim) on a
  // mesh numbered by a transposed iota: every tile of the data dims holds
  // the devices the model puts there.
  const std::vector<int64_t> ids = transposedIota(16, 4096);
  const sdy::MeshAttr m = mesh({{"m", 16}, {"a", 64}, {"b", 64}}, ids);
  const std::string manual[] = {"m"};
  auto hlo = exportOn(m, R"(<@mesh, [{"b"}, {}, {"a":(2)32}]>)", manual);
  ASSERT_TRUE(hlo.has_value()) << hlo.error().message;
  EXPECT_TRUE(hlo->isManualSubgroup()) << hlo->toString();
  EXPECT_EQ(hlo->dimension(hlo->subgroupManualDim()), 16);
  Model model{{16, 64, 64}, ids, {{{2, 1, 64}}, {}, {{1, 2, 32}}}};
  expectPlacedAsModel(model, *hlo, allPositions(k64K));
}

TEST_F(LargeMeshTest, ImportAnIotaOf65536) {
  // Derived: devices=[16,4096]<=[64,1024]T(1,0) lists d = x * 1024 + y at
  // flat f = y * 64 + x on mesh x=64, y=1024. Tile 0 = f / 4096 = y / 64:
  // y:(1)16; tile 1 = f % 4096 = (y % 64) * 64 + x: y:(16)64 then x.
  const sdy::MeshAttr m = mesh({{"x", 64}, {"y", 1024}});
  auto input = hlo::parseSharding("{devices=[16,4096]<=[64,1024]T(1,0)}");
  ASSERT_TRUE(input.has_value());
  for (bool anyOrder : {false, true}) {
    auto imported = importOn(m, *input, anyOrder);
    ASSERT_TRUE(imported.has_value()) << imported.error().message;
    EXPECT_EQ(sdy::printTensorSharding(*imported),
              R"(#sdy.sharding<@mesh, [{"y":(1)16}, {"y":(16)64, "x"}]>)");
  }
  auto back = exportOn(m, R"(<@mesh, [{"y":(1)16}, {"y":(16)64, "x"}]>)");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_TRUE(*back == *input) << back->toString();
}

TEST_F(LargeMeshTest, ImportAV1RingOrderOf65536) {
  // any_order.h: the ring order is no iota, so the module mesh takes the
  // leaf's tile dims as axes and its device list as device_ids; the import
  // is then the tile dims' axes in order (derived).
  const std::vector<int64_t> ring = ringOrder(256, 256);
  const int64_t dims[] = {256, 64, 4};
  auto tiles = hlo::TileAssignment::fromDevices(dims, ring);
  ASSERT_TRUE(tiles.has_value());
  auto input = HloSharding::tile(*tiles);
  ASSERT_TRUE(input.has_value());
  auto inferred = inferModuleMesh(ctx_, std::span<const HloSharding>(&*input, 1), kLargeAnyOrder);
  ASSERT_TRUE(inferred.has_value()) << inferred.error().message;
  const sdy::MeshAttr m = inferred->mesh;
  ASSERT_EQ(m.axes().size(), 3u);
  EXPECT_EQ(m.axes()[0].size(), 256);
  EXPECT_EQ(m.axes()[1].size(), 64);
  EXPECT_EQ(m.axes()[2].size(), 4);
  EXPECT_TRUE(std::equal(m.deviceIds().begin(), m.deviceIds().end(), ring.begin(), ring.end()));
  auto imported = importOn(m, *input, true);
  ASSERT_TRUE(imported.has_value()) << imported.error().message;
  EXPECT_EQ(sdy::printTensorSharding(*imported),
            R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}, {"_axis_2"}]>)");
  auto back = convertToHloSharding(
      *imported, [m](std::string_view name) { return name == "mesh" ? m : sdy::MeshAttr(); });
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_TRUE(*back == *input);

  // The same list onto a given mesh with that order: a transposed view.
  // Derived: tile dim 0 of devices=[64,1024] over the list read as
  // [r=256, c=256] is r:(1)64 and tile dim 1 is r:(64)4 then c.
  const sdy::MeshAttr given = mesh({{"r", 256}, {"c", 256}}, ring);
  const int64_t dims2[] = {64, 1024};
  auto tiles2 = hlo::TileAssignment::fromDevices(dims2, ring);
  ASSERT_TRUE(tiles2.has_value());
  auto input2 = HloSharding::tile(*tiles2);
  ASSERT_TRUE(input2.has_value());
  auto imported2 = importOn(given, *input2, true);
  ASSERT_TRUE(imported2.has_value()) << imported2.error().message;
  EXPECT_EQ(sdy::printTensorSharding(*imported2),
            R"(#sdy.sharding<@mesh, [{"r":(1)64}, {"r":(64)4, "c"}]>)");
  // Without the option a mesh with device_ids is refused (import.h).
  auto refused = importOn(given, *input2, false);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
}

// --- 1,048,576 devices -------------------------------------------------------

TEST_F(LargeMeshTest, ExportOnAnIotaMeshOf1M) {
  // Derived: dim 0 = b, dim 1 = a: device a * 1024 + b sits at (b, a), the
  // transposed iota. Never materialised.
  const sdy::MeshAttr m = mesh({{"a", 1024}, {"b", 1024}});
  auto hlo = exportOn(m, R"(<@mesh, [{"b"}, {"a"}]>)");
  ASSERT_TRUE(hlo.has_value()) << hlo.error().message;
  EXPECT_EQ(hlo->toString(), "{devices=[1024,1024]<=[1024,1024]T(1,0)}");
  EXPECT_TRUE(hlo->tileAssignment().isIota());
  EXPECT_FALSE(hlo->tileAssignment().isMaterialized());
  Model model{{1024, 1024}, {}, {{{1, 1, 1024}}, {{0, 1, 1024}}}};
  // Sampled positions, read through valueAt (no inverse of 2^20 entries).
  for (int64_t position : samplePositions(k1M)) {
    const int64_t index[] = {model.tileIndex(position, 0), model.tileIndex(position, 1)};
    EXPECT_EQ(hlo->tileAssignment().valueAt(index), model.deviceAt(position)) << position;
  }
}

TEST_F(LargeMeshTest, ExportOnAShuffledMeshOf1M) {
  // With device_ids P, `[{"a"}, {"b"}]` lists P itself as [1024, 1024], and
  // `[{"b"}, {"a"}]` its transpose: (i, j) holds P[j * 1024 + i] (derived).
  const std::vector<int64_t> ids = seededShuffle(iotaList(k1M), 11);
  const sdy::MeshAttr m = mesh({{"a", 1024}, {"b", 1024}}, ids);
  auto straight = exportOn(m, R"(<@mesh, [{"a"}, {"b"}]>)");
  ASSERT_TRUE(straight.has_value()) << straight.error().message;
  auto devices = straight->tileAssignment().devices();
  ASSERT_TRUE(devices.has_value());
  EXPECT_TRUE(std::equal(devices->begin(), devices->end(), ids.begin(), ids.end()));
  auto transposed = exportOn(m, R"(<@mesh, [{"b"}, {"a"}]>)");
  ASSERT_TRUE(transposed.has_value()) << transposed.error().message;
  int failures = 0;
  for (int64_t i = 0; i < 1024; ++i) {
    for (int64_t j = 0; j < 1024; ++j) {
      const int64_t index[] = {i, j};
      if (transposed->tileAssignment().valueAt(index) != ids[static_cast<size_t>(j * 1024 + i)]) {
        ++failures;
      }
    }
  }
  EXPECT_EQ(failures, 0);
  // And the import reads both back on that mesh.
  auto back = importOn(m, *transposed, true);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(sdy::printTensorSharding(*back), R"(#sdy.sharding<@mesh, [{"b"}, {"a"}]>)");
}

TEST_F(LargeMeshTest, ImportAnIotaOf1M) {
  // Derived: devices=[1024,1024]<=[1024,1024]T(1,0) holds d = j * 1024 + i
  // at (i, j): the local mesh is [1024, 1024] with tile dim 0 the minor
  // device factor, so on the inferred mesh dim 0 is _axis_1, dim 1 _axis_0.
  auto input = hlo::parseSharding("{devices=[1024,1024]<=[1024,1024]T(1,0)}");
  ASSERT_TRUE(input.has_value());
  auto inferred = inferModuleMesh(ctx_, std::span<const HloSharding>(&*input, 1));
  ASSERT_TRUE(inferred.has_value()) << inferred.error().message;
  EXPECT_EQ(sdy::printMesh(inferred->mesh), R"(#sdy.mesh<["_axis_0"=1024, "_axis_1"=1024]>)");
  auto imported = importOn(inferred->mesh, *input, false);
  ASSERT_TRUE(imported.has_value()) << imported.error().message;
  EXPECT_EQ(sdy::printTensorSharding(*imported),
            R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>)");
  const sdy::MeshAttr m = inferred->mesh;
  auto back = convertToHloSharding(
      *imported, [m](std::string_view name) { return name == "mesh" ? m : sdy::MeshAttr(); });
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_TRUE(*back == *input);
}

TEST_F(LargeMeshTest, ImportAV1RingOrderOf1M) {
  // As at 65,536: a ring order over [1024, 1024] is no iota; the module mesh
  // is its tile dims with the list as device_ids, the import the axes in
  // order, and the export gives the list back.
  const std::vector<int64_t> ring = ringOrder(1024, 1024);
  const int64_t dims[] = {1024, 1024};
  auto tiles = hlo::TileAssignment::fromDevices(dims, ring);
  ASSERT_TRUE(tiles.has_value());
  auto input = HloSharding::tile(*tiles);
  ASSERT_TRUE(input.has_value());
  auto inferred = inferModuleMesh(ctx_, std::span<const HloSharding>(&*input, 1), kLargeAnyOrder);
  ASSERT_TRUE(inferred.has_value()) << inferred.error().message;
  const sdy::MeshAttr m = inferred->mesh;
  ASSERT_EQ(m.axes().size(), 2u);
  EXPECT_EQ(m.axes()[0].size(), 1024);
  EXPECT_EQ(m.axes()[1].size(), 1024);
  EXPECT_TRUE(std::equal(m.deviceIds().begin(), m.deviceIds().end(), ring.begin(), ring.end()));
  auto imported = importOn(m, *input, true);
  ASSERT_TRUE(imported.has_value()) << imported.error().message;
  EXPECT_EQ(sdy::printTensorSharding(*imported),
            R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>)");
  auto back = convertToHloSharding(
      *imported, [m](std::string_view name) { return name == "mesh" ? m : sdy::MeshAttr(); });
  ASSERT_TRUE(back.has_value()) << back.error().message;
  auto devices = back->tileAssignment().devices();
  ASSERT_TRUE(devices.has_value());
  EXPECT_TRUE(std::equal(devices->begin(), devices->end(), ring.begin(), ring.end()));
}

}  // namespace
}  // namespace shardbridge::convert
