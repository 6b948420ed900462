// Tests for inferModuleMesh (docs/upstream.md § Module mesh). Rows say where their expectation
// comes from: "lit" = openxla/xla
// xla/service/spmd/shardy/test/import_shardings.mlir @19e426b0 (function
// named; its CHECK lines give the sdy.mesh ops), "import example N" = the
// worked import examples, "derived" = worked by hand (reasoning given).
#include "shardbridge/convert/mesh_inference.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;

std::vector<HloSharding> parseAll(const std::vector<std::string>& texts) {
  std::vector<HloSharding> out;
  for (const std::string& text : texts) {
    auto sharding = hlo::parseSharding(text);
    EXPECT_TRUE(sharding.has_value()) << text << ": " << sharding.error().message;
    if (sharding.has_value()) out.push_back(*sharding);
  }
  return out;
}

// The symbols as upstream prints them: `sdy.mesh @mesh = ...`, then one line
// per single-device mesh.
std::vector<std::string> printInferred(sdy::Context& ctx, const InferredMeshes& meshes) {
  std::vector<std::string> lines;
  lines.push_back(sdy::printMeshSymbol(sdy::MeshSymbol{"mesh", meshes.mesh}));
  for (const auto& [device, name] : meshes.singleDevice) {
    const int64_t ids[] = {device};
    lines.push_back(
        sdy::printMeshSymbol(sdy::MeshSymbol{name, sdy::MeshAttr::get(ctx, {}, ids)}));
  }
  return lines;
}

struct Row {
  const char* source;
  std::vector<std::string> shardings;
  std::vector<std::string> expected;
};

const Row kRows[] = {
    {"lit @non_trivial_common_mesh + @multiple_shardings (one module); docs/upstream.md import example 1",
     {"{devices=[4,8]<=[8,4]T(1,0)}", "{devices=[1,2,16]<=[32] last_tile_dim_replicate}",
      "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}",
      "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}",
      "{devices=[1,4,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}", "{devices=[8,4]<=[32]}",
      "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>)"}},
    {"docs/upstream.md import example 1, other order (the fold is order-independent)",
     {"{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}",
      "{devices=[1,2,16]<=[32] last_tile_dim_replicate}", "{devices=[4,8]<=[8,4]T(1,0)}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>)"}},
    {"lit @single_axis", {"{devices=[16,1]<=[16]}"}, {R"(sdy.mesh @mesh = <["_axis_0"=16]>)"}},
    {"lit @multi_result_op (a tuple contributes its leaves)",
     {"{{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}, {devices=[4,1,8]<=[8,4]T(1,0) "
      "last_tile_dim_replicate}}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)"}},
    {"lit @fully_replicated", {"{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}", "{replicated}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)"}},
    {"lit @prime_number; docs/upstream.md import example 5", {"{devices=[6,35]<=[7,10,3]T(2,1,0)}", "{replicated}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=7, "_axis_1"=2, "_axis_2"=5, "_axis_3"=3]>)"}},
    {"lit @prime_number_2",
     {"{devices=[33,10,1,7]<=[2,3,5,7,11]T(1,4,2,0,3)}",
      "{devices=[7,55,6,1]<=[2,3,5,7,11]T(3,2,4,1,0)}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=3, "_axis_2"=5, "_axis_3"=7, "_axis_4"=11]>)"}},
    {"lit @unknown_sharding", {"{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}", "{unknown}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)"}},
    {"lit @one_maximal_mesh", {"{maximal device=0}"},
     {"sdy.mesh @mesh = <[]>", "sdy.mesh @single_device_0 = <[], device_ids=[0]>"}},
    {"lit @two_maximal_shardings_should_be_sorted", {"{maximal device=4}", "{maximal device=0}"},
     {"sdy.mesh @mesh = <[]>", "sdy.mesh @single_device_0 = <[], device_ids=[0]>",
      "sdy.mesh @single_device_4 = <[], device_ids=[4]>"}},
    {"lit @duplicate_maximal_sharding_should_be_deduped",
     {"{maximal device=0}", "{maximal device=0}"},
     {"sdy.mesh @mesh = <[]>", "sdy.mesh @single_device_0 = <[], device_ids=[0]>"}},
    {"lit @two_meshes",
     {"{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}", "{maximal device=0}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)",
      "sdy.mesh @single_device_0 = <[], device_ids=[0]>"}},
    {"lit @maximal_sharding_on_op",
     {"{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}", "{maximal device=4}",
      "{maximal device=0}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=8, "_axis_1"=4]>)",
      "sdy.mesh @single_device_0 = <[], device_ids=[0]>",
      "sdy.mesh @single_device_4 = <[], device_ids=[4]>"}},
    {"derived: nothing tiled at all gives the empty mesh", {"{replicated}", "{manual}", "{unknown}"},
     {"sdy.mesh @mesh = <[]>"}},
    {"derived: no input gives the empty mesh", {}, {"sdy.mesh @mesh = <[]>"}},
    {"derived: a single device inside a tuple counts",
     {"{{devices=[2]<=[2]}, {maximal device=1}}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=2]>)", "sdy.mesh @single_device_1 = <[], device_ids=[1]>"}},
    {"derived: a V1 list in identity order is folded as its iota [2,2]<=[4]",
     {"{devices=[2,2]0,1,2,3}", "{devices=[4]<=[4]}"},
     {R"(sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>)"}},
    {"docs/upstream.md § Module mesh: a V3 leaf supplies the mesh (names, sizes)",
     {"{devices=[8]<=[8]}", "{mesh['a'=2,'b'=4], [{'a'}, {}]}"},
     {R"(sdy.mesh @mesh = <["a"=2, "b"=4]>)"}},
    {"docs/upstream.md § Module mesh: a V3 leaf supplies the mesh's device ids",
     {"{mesh['x'=2,'y'=2], device_ids=(0,2,1,3), [{'x'}]}"},
     {R"(sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>)"}},
    {"derived: the first V3 leaf with axes wins; a V3 maximal mesh is a single device",
     {"{maximal_mesh[device_id=5]}", "{mesh['p'=4], [{'p'}]}", "{mesh['q'=4], [{'q'}]}"},
     {R"(sdy.mesh @mesh = <["p"=4]>)", "sdy.mesh @single_device_5 = <[], device_ids=[5]>"}},
};

TEST(InferModuleMesh, GoldenRows) {
  for (const Row& row : kRows) {
    sdy::Context ctx;
    const std::vector<HloSharding> shardings = parseAll(row.shardings);
    auto inferred = inferModuleMesh(ctx, shardings);
    ASSERT_TRUE(inferred.has_value()) << row.source << ": " << inferred.error().message;
    EXPECT_EQ(printInferred(ctx, *inferred), row.expected) << row.source;
  }
}

struct InferErrorRow {
  const char* source;
  std::vector<std::string> shardings;
  const char* message;
};

const InferErrorRow kErrorRows[] = {
    {"issue 4 item 4b (upstream aborts: local meshes [2,3] and [3,2])",
     {"{devices=[2,3]<=[6]}", "{devices=[3,2]<=[6]}"},
     "no common mesh for shardings {devices=[2,3]<=[6]} and {devices=[3,2]<=[6]}: local meshes "
     "[2,3] and [3,2] have no common factorisation"},
    {"derived: the conflict is with the first leaf, not with the fold of the first two",
     {"{devices=[2,3]<=[6]}", "{devices=[6]<=[6]}", "{devices=[3,2]<=[6]}"},
     "no common mesh for shardings {devices=[2,3]<=[6]} and {devices=[3,2]<=[6]}: local meshes "
     "[2,3] and [3,2] have no common factorisation"},
    {"derived: different device counts", {"{devices=[4]<=[4]}", "{devices=[8]<=[8]}"},
     "no common mesh for shardings {devices=[4]<=[4]} and {devices=[8]<=[8]}: local meshes [4] "
     "and [8] have no common factorisation"},
    {"docs/upstream.md § Tile assignment analysis: upstream aborts on a V1 list", {"{devices=[2,2]0,2,1,3}"},
     "tile assignment devices=[2,2]0,2,1,3 is an explicit device list that is not iota; only "
     "iota device orders can be imported"},
    {"docs/upstream.md § Tile assignment analysis: upstream aborts on an iota without a factorisation",
     {"{devices=[2,3]<=[2,3]T(1,0)}"},
     "tile assignment devices=[2,3]<=[2,3]T(1,0) has no common factorisation of its tile dims "
     "[2,3] and device dims [3,2]"},
};

TEST(InferModuleMesh, Errors) {
  for (const InferErrorRow& row : kErrorRows) {
    sdy::Context ctx;
    const std::vector<HloSharding> shardings = parseAll(row.shardings);
    auto inferred = inferModuleMesh(ctx, shardings);
    ASSERT_FALSE(inferred.has_value()) << row.source;
    EXPECT_EQ(inferred.error().code, ErrorCode::kUnsupported) << row.source;
    EXPECT_EQ(inferred.error().message, row.message) << row.source;
  }
}

}  // namespace
}  // namespace shardbridge::convert
