// Tests for the any-device-order import (issue 4 item 4, any_order.h):
// findIotaForm, meshLinearTileAssignment, the guided import onto meshes with
// device_ids, and the module fallback of inferModuleMesh. Rows say where
// their expectation comes from: "issue 4 item 4x" = the examples of the
// issue, "tile_assignment.h" = the example in that header, "derived" =
// worked by hand (reasoning given). Every successful import is also
// exported again and compared with the input (the issue's round-trip rule).
#include "shardbridge/convert/any_order.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;

constexpr AnyOrderOptions kAnyOrder{true};

HloSharding parseHlo(const std::string& text) {
  auto parsed = hlo::parseSharding(text);
  EXPECT_TRUE(parsed.has_value()) << text << ": " << parsed.error().message;
  return parsed.has_value() ? *parsed : HloSharding();
}

// --- findIotaForm -----------------------------------------------------------

struct IotaRow {
  const char* source;
  std::vector<int64_t> dims;
  std::vector<int64_t> devices;
  const char* expected;  // IotaTileAssignment::toString, or "" for none
};

const IotaRow kIotaRows[] = {
    {"issue 4 item 4a: a transposed iota", {2, 2}, {0, 2, 1, 3}, "[2,2]<=[2,2]T(1,0)"},
    {"issue 4 item 4b: {devices=[2,3]<=[2,3]T(1,0)} written out", {2, 3}, {0, 3, 1, 4, 2, 5},
     "[2,3]<=[2,3]T(1,0)"},
    {"tile_assignment.h: devices=[4,2]0,4,1,5,2,6,3,7", {4, 2}, {0, 4, 1, 5, 2, 6, 3, 7},
     "[4,2]<=[2,4]T(1,0)"},
    {"derived: the identity is the plain iota", {2, 2}, {0, 1, 2, 3}, "[2,2]<=[4]"},
    {"derived: one device", {1}, {0}, "[1]<=[1]"},
    {"derived: three digits, reshape [2,3,2] read as T(2,0,1)", {2, 2, 3},
     // arange(12).reshape(2,3,2).transpose(2,0,1): position (c,a,b) holds
     // 6a + 2b + c.
     {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}, "[2,2,3]<=[6,2]T(1,0)"},
    {"issue 4 item 4b: a TPU ring order is no iota", {4, 2}, {0, 1, 2, 3, 6, 7, 4, 5}, ""},
    {"issue 4 item 4c: a swapped pair is no iota", {2, 2}, {0, 1, 3, 2}, ""},
    {"derived: not starting at 0", {2}, {1, 0}, ""},
    {"derived: a repeated device", {2, 2}, {0, 1, 1, 3}, ""},
    {"derived: dims not matching the count", {3}, {0, 1}, ""},
};

TEST(AnyOrder, FindIotaForm) {
  for (const IotaRow& row : kIotaRows) {
    SCOPED_TRACE(row.source);
    auto iota = findIotaForm(row.dims, row.devices);
    EXPECT_EQ(iota ? iota->toString() : std::string(), row.expected);
  }
}

// --- guided import onto a given mesh ----------------------------------------

struct GuidedRow {
  const char* source;
  const char* mesh;
  const char* sharding;
  const char* expected;  // printed sharding, or the error message
};

const GuidedRow kGuidedRows[] = {
    {"derived: mesh-linear order [0,2,1,3] is [2,2]<=[2,2]T(1,0), i.e. dim 0 on y",
     R"(<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>)", "{devices=[2,2]<=[4]}",
     R"(#sdy.sharding<@mesh, [{"y"}, {"x"}]>)"},
    {"issue 4 item 4a on an iota mesh", R"(<["x"=2, "y"=2]>)", "{devices=[2,2]0,2,1,3}",
     R"(#sdy.sharding<@mesh, [{"y"}, {"x"}]>)"},
    {"issue 4 item 4b: a ring order on the mesh of that order is the identity",
     R"(<["x"=4, "y"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     "{devices=[4,2]0,1,2,3,6,7,4,5}", R"(#sdy.sharding<@mesh, [{"x"}, {"y"}]>)"},
    {"derived: the same order cut [2,4]: x splits into (1)2 and (2)2 (docs/upstream.md import example 2)",
     R"(<["x"=4, "y"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     "{devices=[2,4]0,1,2,3,6,7,4,5}", R"(#sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>)"},
    {"derived: partial replication over y on the ring mesh",
     R"(<["x"=4, "y"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     "{devices=[4,1,2]0,1,2,3,6,7,4,5 last_tile_dim_replicate}",
     R"(#sdy.sharding<@mesh, [{"x"}, {}]>)"},
    {"derived: {devices=[2,3]<=[2,3]T(1,0)} on the mesh of its own order",
     R"(<["a"=2, "b"=3], device_ids=[0, 3, 1, 4, 2, 5]>)", "{devices=[2,3]<=[2,3]T(1,0)}",
     R"(#sdy.sharding<@mesh, [{"a"}, {"b"}]>)"},
    {"issue 4 item 4c: a swapped pair on an iota mesh", R"(<["x"=2, "y"=2]>)",
     "{devices=[2,2]0,1,3,2}",
     R"(sharding {devices=[2,2]0,1,3,2} cannot be expressed on mesh #sdy.mesh<["x"=2, "y"=2]>: its devices in mesh order, devices=[2,2]0,1,3,2, are not an iota)"},
    {"derived: device 1 is at index 2 of the mesh, so [0,1,3,2] reads [0,2,3,1]",
     R"(<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>)", "{devices=[2,2]0,1,3,2}",
     R"(sharding {devices=[2,2]0,1,3,2} cannot be expressed on mesh #sdy.mesh<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>: its devices in mesh order, devices=[2,2]0,2,3,1, are not an iota)"},
    {"derived: in mesh order [0,3,1,4,2,5] is [2,3]<=[2,3]T(1,0), without a factorisation",
     R"(<["a"=2, "b"=3], device_ids=[0, 1, 2, 3, 4, 5]>)", "{devices=[2,3]0,3,1,4,2,5}",
     R"(sharding {devices=[2,3]0,3,1,4,2,5} cannot be expressed on mesh #sdy.mesh<["a"=2, "b"=3]>: in mesh order, tile assignment devices=[2,3]<=[2,3]T(1,0) has no common factorisation of its tile dims [2,3] and device dims [3,2])"},
};

TEST(AnyOrder, GuidedImport) {
  for (const GuidedRow& row : kGuidedRows) {
    SCOPED_TRACE(row.source);
    sdy::Context ctx;
    auto mesh = sdy::parseMesh(ctx, row.mesh);
    ASSERT_TRUE(mesh.has_value()) << mesh.error().message;
    const HloSharding input = parseHlo(row.sharding);
    auto imported = convertToSdySharding(ctx, input, *mesh, sdy::MeshOrRef::ref(ctx, "mesh"), {},
                                         input.tiledDataRank(), false, kAnyOrder);
    if (!imported.has_value()) {
      EXPECT_EQ(imported.error().message, row.expected);
      EXPECT_EQ(imported.error().code, ErrorCode::kUnsupported);
      continue;
    }
    EXPECT_EQ(sdy::printTensorSharding(*imported), row.expected);
    const sdy::MeshAttr m = *mesh;
    auto exported = convertToHloSharding(
        *imported, [&](std::string_view name) { return name == "mesh" ? m : sdy::MeshAttr(); });
    ASSERT_TRUE(exported.has_value()) << exported.error().message;
    EXPECT_TRUE(*exported == input) << exported->toString();
  }
}

TEST(AnyOrder, GuidedImportWithoutTheOptionKeepsUpstreamsError) {
  // import.h: without the option a mesh with device_ids is refused as before.
  sdy::Context ctx;
  auto mesh = sdy::parseMesh(ctx, R"(<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>)");
  ASSERT_TRUE(mesh.has_value());
  auto imported = convertToSdySharding(ctx, parseHlo("{devices=[2,2]<=[4]}"), *mesh,
                                       sdy::MeshOrRef::ref(ctx, "mesh"), {}, 2, false);
  ASSERT_FALSE(imported.has_value());
  EXPECT_EQ(imported.error().code, ErrorCode::kUnsupported);
}

// --- module inference with the fallback ---------------------------------------

struct ModuleRow {
  const char* source;
  std::vector<const char*> shardings;
  const char* mesh;                    // printMeshSymbol, or the error message
  std::vector<std::string> imported;  // one per sharding
};

const ModuleRow kModuleRows[] = {
    {"issue 4 item 4b: axes = tile dims, device_ids = the device list",
     {"{devices=[2,3]<=[2,3]T(1,0)}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>)"}},
    {"issue 4 item 4b: a TPU ring order", {"{devices=[4,2]0,1,2,3,6,7,4,5}"},
     R"(sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>)"}},
    {"issue 4 item 4a: a transposed iota gets an iota mesh", {"{devices=[2,2]0,2,1,3}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>)"}},
    {"issue 4 item 4b: no common factorisation, one axis serves both through sub-axes",
     {"{devices=[2,3]<=[6]}", "{devices=[3,2]<=[6]}"}, R"(sdy.mesh @mesh = <["_axis_0"=6]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_0":(1)3}, {"_axis_0":(3)2}]>)"}},
    {"derived: the replication dim is an axis of its own (subgroup dims included)",
     {"{devices=[2,2,2]0,1,2,3,6,7,4,5 last_tile_dim_replicate}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>)"}},
    {"derived: two shardings sharing one ring order; the fold [4,2] with [8] is [4,2]",
     {"{devices=[4,2]0,1,2,3,6,7,4,5}", "{devices=[8]0,1,2,3,6,7,4,5}", "{replicated}",
      "{maximal device=2}"},
     R"(sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>)", R"(#sdy.sharding<@mesh, []>)",
      R"(#sdy.sharding<@single_device_2, []>)"}},
    {"derived: one ring order cut [4,2] and [2,4]: cuts {4,8} and {2,8} fold to [2,2,2]",
     {"{devices=[4,2]0,1,2,3,6,7,4,5}", "{devices=[2,4]0,1,2,3,6,7,4,5}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2, "_axis_2"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}, {"_axis_2"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1", "_axis_2"}]>)"}},
    {"derived: ring order cut [4,2], transposed [2,4] (mesh indices x-major 0,2,4,6 are "
     "devices 0,2,6,4) and flattened: the first one's own order serves all",
     {"{devices=[4,2]0,1,2,3,6,7,4,5}", "{devices=[2,4]0,2,6,4,1,3,7,5}",
      "{devices=[8]0,1,2,3,6,7,4,5}", "{replicated}"},
     R"(sdy.mesh @mesh = <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>)", R"(#sdy.sharding<@mesh, []>)"}},
    {"derived: a transposed V1 list beside plain iotas of ranks 1 and 2: the iota order",
     {"{devices=[2,2]0,2,1,3}", "{devices=[4]<=[4]}",
      "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_0"}, {}]>)"}},
    {"derived: a mesh a=2,b=3,c=2 with order Q=[0..5,9,10,11,6,7,8] exported as (c,b,a), "
     "(b,(c,a)) and (a,b,c): in the first one's order the axes are c,b,a",
     {"{devices=[2,3,2]0,9,2,11,4,7,1,10,3,6,5,8}", "{devices=[3,4]0,9,1,10,2,11,3,6,4,7,5,8}",
      "{devices=[12]0,1,2,3,4,5,9,10,11,6,7,8}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3, "_axis_2"=2], device_ids=[0, 9, 2, 11, 4, 7, 1, 10, 3, 6, 5, 8]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}, {"_axis_2"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0", "_axis_2"}]>)",
      R"(#sdy.sharding<@mesh, [{"_axis_2", "_axis_1", "_axis_0"}]>)"}},
    {"docs/upstream.md import example 1: where upstream succeeds nothing changes",
     {"{devices=[4,8]<=[8,4]T(1,0)}", "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"},
     R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>)",
     {R"(#sdy.sharding<@mesh, [{"_axis_2"}, {"_axis_0", "_axis_1"}]>)",
      R"(#sdy.sharding<@mesh, [{}, {"_axis_0"}]>)"}},
    {"issue 4 item 4c: no single mesh",
     {"{devices=[2,2]0,1,2,3}", "{devices=[2,2]0,1,3,2}"},
     "no single mesh for shardings {devices=[2,2]0,1,2,3} and {devices=[2,2]0,1,3,2}: no device "
     "order tried (the iota order or the order of either sharding) lists both as factorable "
     "iotas, nor does either one's device list read along its tile dims in another order",
     {}},
    {"derived: replicated leaves take no part; named: the non-iota list, then the first leaf "
     "its order fails on",
     {"{devices=[2,2]0,1,3,2}", "{replicated}", "{devices=[4]<=[4]}"},
     "no single mesh for shardings {devices=[2,2]0,1,3,2} and {devices=[4]<=[4]}: no device "
     "order tried (the iota order or the order of either sharding) lists both as factorable "
     "iotas, nor does either one's device list read along its tile dims in another order",
     {}},
    {"derived: different device counts keep upstream's error (mesh_inference.h)",
     {"{devices=[4]<=[4]}", "{devices=[8]<=[8]}"},
     "no common mesh for shardings {devices=[4]<=[4]} and {devices=[8]<=[8]}: local meshes [4] "
     "and [8] have no common factorisation",
     {}},
};

TEST(AnyOrder, ModuleInference) {
  for (const ModuleRow& row : kModuleRows) {
    SCOPED_TRACE(row.source);
    sdy::Context ctx;
    std::vector<HloSharding> inputs;
    for (const char* text : row.shardings) inputs.push_back(parseHlo(text));
    auto inferred = inferModuleMesh(ctx, inputs, kAnyOrder);
    if (!inferred.has_value()) {
      EXPECT_EQ(inferred.error().message, row.mesh);
      EXPECT_EQ(inferred.error().code, ErrorCode::kUnsupported);
      continue;
    }
    const sdy::MeshAttr mesh = inferred->mesh;
    EXPECT_EQ(sdy::printMeshSymbol(sdy::MeshSymbol{"mesh", mesh}), row.mesh);
    std::map<int64_t, std::string> singleDevice(inferred->singleDevice.begin(),
                                                inferred->singleDevice.end());
    const sdy::MeshLookup lookup = [&](std::string_view name) {
      if (name == "mesh") return mesh;
      for (const auto& [id, symbol] : singleDevice) {
        if (symbol == name) {
          const int64_t ids[] = {id};
          return sdy::MeshAttr::get(ctx, {}, ids);
        }
      }
      return sdy::MeshAttr();
    };
    ASSERT_EQ(inputs.size(), row.imported.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const int64_t rank = inputs[i].isTiled() ? inputs[i].tiledDataRank() : 0;
      auto imported = convertToSdySharding(ctx, inputs[i], mesh, sdy::MeshOrRef::ref(ctx, "mesh"),
                                           singleDevice, rank, false, kAnyOrder);
      ASSERT_TRUE(imported.has_value()) << imported.error().message;
      EXPECT_EQ(sdy::printTensorSharding(*imported), row.imported[i]);
      auto exported = convertToHloSharding(*imported, lookup);
      ASSERT_TRUE(exported.has_value()) << exported.error().message;
      EXPECT_TRUE(*exported == inputs[i]) << exported->toString() << " vs " << row.shardings[i];
    }
  }
}

// mesh_inference.h inferModuleMeshes: greedy groups in input order.
TEST(AnyOrder, MeshPerGroup) {
  sdy::Context ctx;
  std::vector<HloSharding> inputs;
  // The identity, a swapped pair (no common order with it), replicated, a
  // [4] list in the swapped order (fits the second group only: in the
  // identity order it is no iota), another device count.
  for (const char* text : {"{devices=[2,2]0,1,2,3}", "{devices=[2,2]0,1,3,2}", "{replicated}",
                           "{devices=[4]0,1,3,2}", "{devices=[8]<=[8]}", "{maximal device=5}"}) {
    inputs.push_back(parseHlo(text));
  }
  auto grouped = inferModuleMeshes(ctx, inputs, kAnyOrder);
  ASSERT_TRUE(grouped.has_value()) << grouped.error().message;
  ASSERT_EQ(grouped->meshes.size(), 3u);
  std::vector<std::string> printed;
  for (const auto& [name, mesh] : grouped->meshes) {
    printed.push_back(sdy::printMeshSymbol(sdy::MeshSymbol{name, mesh}));
  }
  EXPECT_EQ(printed, (std::vector<std::string>{
                         R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>)",
                         R"(sdy.mesh @mesh_1 = <["_axis_0"=2, "_axis_1"=2], device_ids=[0, 1, 3, 2]>)",
                         R"(sdy.mesh @mesh_2 = <["_axis_0"=8]>)"}));
  EXPECT_EQ(grouped->meshOf, (std::vector<size_t>{0, 1, 0, 1, 2, 0}));
  ASSERT_EQ(grouped->singleDevice.size(), 1u);
  EXPECT_EQ(grouped->singleDevice[0].second, "single_device_5");
  // Every tiled input exports back to itself from its group's mesh.
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].isTiled()) continue;
    // Named copies: clang 14 cannot capture structured bindings in a lambda.
    const std::string name = grouped->meshes[grouped->meshOf[i]].first;
    const sdy::MeshAttr m = grouped->meshes[grouped->meshOf[i]].second;
    auto imported = convertToSdySharding(ctx, inputs[i], m, sdy::MeshOrRef::ref(ctx, name), {},
                                         inputs[i].tiledDataRank(), false, kAnyOrder);
    ASSERT_TRUE(imported.has_value()) << imported.error().message;
    auto exported = convertToHloSharding(*imported, [&](std::string_view n) {
      return n == name ? m : sdy::MeshAttr();
    });
    ASSERT_TRUE(exported.has_value()) << exported.error().message;
    EXPECT_TRUE(*exported == inputs[i]) << exported->toString();
  }
  // One group is inferModuleMesh's mesh.
  const HloSharding pair[] = {parseHlo("{devices=[2,3]<=[6]}"), parseHlo("{devices=[3,2]<=[6]}")};
  auto one = inferModuleMeshes(ctx, pair, kAnyOrder);
  ASSERT_TRUE(one.has_value());
  ASSERT_EQ(one->meshes.size(), 1u);
  EXPECT_EQ(sdy::printMesh(one->meshes[0].second), R"(#sdy.mesh<["_axis_0"=6]>)");
  EXPECT_EQ(one->meshOf, (std::vector<size_t>{0, 0}));
}

TEST(AnyOrder, ModuleInferenceWithoutTheOptionKeepsUpstreamsError) {
  // mesh_inference.h: the fallback is opt-in.
  sdy::Context ctx;
  const HloSharding input = parseHlo("{devices=[2,2]0,2,1,3}");
  auto inferred = inferModuleMesh(ctx, std::span<const HloSharding>(&input, 1));
  ASSERT_FALSE(inferred.has_value());
  EXPECT_EQ(inferred.error().message,
            "tile assignment devices=[2,2]0,2,1,3 is an explicit device list that is not iota; "
            "only iota device orders can be imported");
}

// --- property: any V1 order of any tile shape round-trips -------------------

// A random split of `n` into factors >= 2 (or {1} for n = 1), with an
// occasional size-1 dim.
std::vector<int64_t> genDims(int64_t n) {
  std::vector<int64_t> dims;
  int64_t left = n;
  while (left > 1) {
    std::vector<int64_t> divisors;
    for (int64_t d = 2; d <= left; ++d) {
      if (left % d == 0) divisors.push_back(d);
    }
    const int64_t d = *rc::gen::elementOf(divisors);
    dims.push_back(d);
    left /= d;
    if (*rc::gen::inRange(0, 6) == 0) dims.push_back(1);
  }
  if (dims.empty()) dims.push_back(1);
  return dims;
}

// Issue 4 item 4: "every tiled import result without manual subgroups exports
// back to a sharding equal to the input" — for one sharding in a module.
RC_GTEST_PROP(AnyOrderProps, AnyV1OrderImportsAndExportsBack, ()) {
  const int64_t devices = *rc::gen::inRange<int64_t>(2, 65);
  std::vector<int64_t> order(static_cast<size_t>(devices));
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[*rc::gen::inRange<size_t>(0, i)]);
  }
  const std::vector<int64_t> dims = genDims(devices);
  auto tiles = hlo::TileAssignment::fromDevices(dims, order);
  RC_ASSERT(tiles.has_value());
  const bool replicate = dims.size() > 1 && *rc::gen::arbitrary<bool>();
  auto built = replicate ? HloSharding::partialTile(*tiles) : HloSharding::tile(*tiles);
  RC_ASSERT(built.has_value());
  const HloSharding input = *built;
  RC_PRE(input.isTiled());

  sdy::Context ctx;
  auto inferred = inferModuleMesh(ctx, std::span<const HloSharding>(&input, 1), kAnyOrder);
  if (!inferred.has_value()) RC_FAIL(input.toString() + ": " + inferred.error().message);
  const sdy::MeshAttr mesh = inferred->mesh;
  auto imported = convertToSdySharding(ctx, input, mesh, sdy::MeshOrRef::ref(ctx, "mesh"), {},
                                       input.tiledDataRank(), false, kAnyOrder);
  if (!imported.has_value()) RC_FAIL(input.toString() + ": " + imported.error().message);
  auto exported = convertToHloSharding(
      *imported, [&](std::string_view name) { return name == "mesh" ? mesh : sdy::MeshAttr(); });
  if (!exported.has_value()) RC_FAIL(input.toString() + ": " + exported.error().message);
  RC_TAG(mesh.deviceIds().empty() ? "iota mesh" : "device_ids");
  if (!(*exported == input)) {
    RC_FAIL(input.toString() + " came back as " + exported->toString() + " via " +
            sdy::printTensorSharding(*imported) + " on " + sdy::printMesh(mesh));
  }
}

// Issue 4 item 4b, module case: shardings that all list one random device
// order (cut into different tile shapes) share one mesh, and each exports
// back to itself.
RC_GTEST_PROP(AnyOrderProps, ShardingsSharingOneOrderShareOneMesh, ()) {
  const int64_t devices = *rc::gen::inRange<int64_t>(2, 65);
  std::vector<int64_t> order(static_cast<size_t>(devices));
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[*rc::gen::inRange<size_t>(0, i)]);
  }
  std::vector<HloSharding> inputs;
  const int count = *rc::gen::inRange(1, 4);
  for (int i = 0; i < count; ++i) {
    auto tiles = hlo::TileAssignment::fromDevices(genDims(devices), order);
    RC_ASSERT(tiles.has_value());
    auto built = HloSharding::tile(*tiles);
    RC_ASSERT(built.has_value());
    inputs.push_back(*built);
  }

  sdy::Context ctx;
  auto inferred = inferModuleMesh(ctx, inputs, kAnyOrder);
  if (!inferred.has_value()) RC_FAIL(inferred.error().message);
  const sdy::MeshAttr mesh = inferred->mesh;
  const sdy::MeshLookup lookup = [&](std::string_view name) {
    return name == "mesh" ? mesh : sdy::MeshAttr();
  };
  for (const HloSharding& input : inputs) {
    auto imported = convertToSdySharding(ctx, input, mesh, sdy::MeshOrRef::ref(ctx, "mesh"), {},
                                         input.tiledDataRank(), false, kAnyOrder);
    if (!imported.has_value()) RC_FAIL(input.toString() + ": " + imported.error().message);
    auto exported = convertToHloSharding(*imported, lookup);
    if (!exported.has_value()) RC_FAIL(input.toString() + ": " + exported.error().message);
    if (!(*exported == input)) {
      RC_FAIL(input.toString() + " came back as " + exported->toString() + " on " +
              sdy::printMesh(mesh));
    }
  }
}


// --- partial replication on a mesh with device_ids ---------------------------
// XLA keeps each last_tile_dim_replicate group sorted by device id, so a
// partially replicated sharding exported from a mesh with device_ids lists
// its groups in an order that is no iota in mesh order; the import sorts
// each group by mesh-linear index first (any_order.h).

constexpr const char* kRingMesh = R"(<["x"=4, "y"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>)";

TEST(AnyOrder, PartialReplicationOnADeviceIdsMesh) {
  sdy::Context ctx;
  const sdy::MeshAttr mesh = *sdy::parseMesh(ctx, kRingMesh);
  auto lookup = [&](std::string_view) { return mesh; };
  const sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, "mesh");
  struct Row {
    const char* sharding;
    const char* exported;  // derived by hand: device_ids read through the tiles
  };
  const Row rows[] = {
      // Tiles along "y" (minor, size 2); each group holds the 4 devices of
      // one "y" coordinate: positions 0,2,4,6 and 1,3,5,7 of device_ids.
      {R"(#sdy.sharding<@mesh, [{"y"}, {}]>)",
       "{devices=[2,1,4]0,2,4,6,1,3,5,7 last_tile_dim_replicate}"},
      // Tiles along "x":(2)2; groups are {x major bit, y}: sorted by id.
      {R"(#sdy.sharding<@mesh, [{"x":(2)2}, {}]>)",
       "{devices=[2,1,4]0,1,6,7,2,3,4,5 last_tile_dim_replicate}"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.sharding);
    auto sharding = sdy::parseTensorSharding(ctx, row.sharding);
    ASSERT_TRUE(sharding.has_value());
    auto exported = convertToHloSharding(*sharding, lookup);
    ASSERT_TRUE(exported.has_value()) << exported.error().message;
    EXPECT_EQ(exported->toString(), row.exported);
    // Guided import onto the same mesh gives the sharding back.
    auto imported = convertToSdySharding(ctx, *exported, mesh, ref, {}, 2, false, kAnyOrder);
    ASSERT_TRUE(imported.has_value()) << imported.error().message;
    EXPECT_EQ(sdy::printTensorSharding(*imported), row.sharding);
    // A module holding it beside the ring order itself finds one mesh.
    const HloSharding module[] = {*exported, parseHlo("{devices=[4,2]0,1,2,3,6,7,4,5}")};
    auto inferred = inferModuleMesh(ctx, module, kAnyOrder);
    ASSERT_TRUE(inferred.has_value()) << inferred.error().message;
    for (const HloSharding& s : module) {
      auto back = convertToSdySharding(ctx, s, inferred->mesh, ref, {}, 2, false, kAnyOrder);
      ASSERT_TRUE(back.has_value()) << back.error().message;
      auto again = convertToHloSharding(
          *back, [&](std::string_view) { return inferred->mesh; });
      ASSERT_TRUE(again.has_value()) << again.error().message;
      EXPECT_EQ(*again, s) << again->toString() << " vs " << s.toString();
    }
  }
}

// Export from a random device_ids mesh, then import onto it: the sharding
// comes back and re-exports to the same HloSharding, partial replication
// included.
RC_GTEST_PROP(AnyOrderProps, DeviceIdsMeshExportImportRoundTrip, ()) {
  const std::vector<int64_t> sizes =
      *rc::gen::container<std::vector<int64_t>>(*rc::gen::inRange<size_t>(1, 4),
                                                rc::gen::inRange<int64_t>(1, 5));
  int64_t devices = 1;
  for (int64_t s : sizes) devices *= s;
  std::vector<int64_t> ids(static_cast<size_t>(devices));
  std::iota(ids.begin(), ids.end(), 0);
  for (size_t i = ids.size(); i > 1; --i) {
    std::swap(ids[i - 1], ids[*rc::gen::inRange<size_t>(0, i)]);
  }
  sdy::Context ctx;
  std::vector<sdy::MeshAxisAttr> axes;
  for (size_t i = 0; i < sizes.size(); ++i) {
    axes.push_back(sdy::MeshAxisAttr::get(ctx, "a" + std::to_string(i), sizes[i]));
  }
  const sdy::MeshAttr mesh = sdy::MeshAttr::get(ctx, axes, ids);
  // Each axis goes to dim 0, dim 1 or nowhere (implicitly replicated).
  std::vector<std::vector<sdy::AxisRefAttr>> dims(2);
  for (size_t i = 0; i < sizes.size(); ++i) {
    const int where = *rc::gen::inRange(0, 3);
    if (where < 2 && sizes[i] > 1) {
      dims[static_cast<size_t>(where)].push_back(sdy::AxisRefAttr::get(ctx, axes[i].name()));
    }
  }
  std::vector<sdy::DimensionShardingAttr> dimShardings;
  for (const auto& d : dims) dimShardings.push_back(sdy::DimensionShardingAttr::get(ctx, d, true));
  const sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, "mesh");
  const auto sharding = sdy::TensorShardingAttr::get(ctx, ref, dimShardings);
  auto lookup = [&](std::string_view) { return mesh; };
  auto exported = convertToHloSharding(sharding, lookup);
  RC_ASSERT(exported.has_value());
  auto imported = convertToSdySharding(ctx, *exported, mesh, ref, {}, 2, false, kAnyOrder);
  if (!imported.has_value()) {
    RC_FAIL(sdy::printTensorSharding(sharding) + " on " + sdy::printMesh(mesh) + " exported to " +
            exported->toString() + ", which does not import: " + imported.error().message);
  }
  auto again = convertToHloSharding(*imported, lookup);
  RC_ASSERT(again.has_value());
  RC_ASSERT(*again == *exported);
}

}  // namespace
}  // namespace shardbridge::convert
