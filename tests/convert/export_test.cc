// Tests for convertToHloSharding (docs/upstream.md § Export: sdy → HloSharding). Golden rows say where their
// expectation comes from: "lit" = openxla/xla
// xla/service/spmd/shardy/test/stablehlo_export_pipeline.mlir @19e426b0
// (function named), "export example N" = docs/upstream.md § Worked export examples,
// "derived" = computed by hand from the
// algorithm of docs/upstream.md § Export steps (reasoning given).
#include "shardbridge/convert/export.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;

// The meshes of the upstream lit test, plus a few of docs/upstream.md's worked examples.
const char* const kMeshes[] = {
    R"(sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>)",
    R"(sdy.mesh @mesh_1 = <["axis_0"=16]>)",
    R"(sdy.mesh @mesh_2 = <["x"=8, "y"=4]>)",
    R"(sdy.mesh @mesh_3 = <["a"=2, "b"=2, "c"=2, "d"=2]>)",
    R"(sdy.mesh @mesh_4 = <["axis_0"=2, "axis_1"=2, "axis_2"=2], device_ids=[0,2,4,6,1,3,5,7]>)",
    R"(sdy.mesh @mesh_5 = <["i"=2, "j"=2]>)",
    R"(sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>)",
    R"(sdy.mesh @empty_mesh = <[]>)",
    R"(sdy.mesh @xy = <["x"=2, "y"=4]>)",
    R"(sdy.mesh @abc = <["a"=2, "b"=2, "c"=2]>)",
    R"(sdy.mesh @ones = <["p"=1, "q"=1]>)",
    R"(sdy.mesh @two_ids = <[], device_ids=[0, 1]>)",
    R"(sdy.mesh @rev = <["a"=2, "b"=3], device_ids=[5, 4, 3, 2, 1, 0]>)",
};

class ExportTest : public ::testing::Test {
 protected:
  ExportTest() {
    for (const char* text : kMeshes) {
      auto symbol = sdy::parseMeshSymbol(ctx_, text);
      EXPECT_TRUE(symbol.has_value()) << text;
      if (symbol.has_value()) meshes_[symbol->name] = symbol->mesh;
    }
    lookup_ = [this](std::string_view name) {
      auto it = meshes_.find(std::string(name));
      return it == meshes_.end() ? sdy::MeshAttr() : it->second;
    };
  }

  Result<HloSharding> run(const std::string& sharding, const std::vector<std::string>& manual,
                          const ExportOptions& options = {}) {
    auto attr = sdy::parseTensorSharding(ctx_, sharding);
    if (!attr.has_value()) return attr.error();
    return convertToHloSharding(*attr, lookup_, manual, options);
  }

  sdy::Context ctx_;
  std::map<std::string, sdy::MeshAttr> meshes_;
  sdy::MeshLookup lookup_;
};

struct GoldenRow {
  const char* source;
  const char* sharding;
  std::vector<std::string> manualAxes;
  const char* expected;  // hlo::printSharding with metadata
};

const GoldenRow kGoldenRows[] = {
    // --- docs/upstream.md § Worked export examples worked examples -------------------------------------
    {"docs/upstream.md export example 1 (derived there): y->pos0, x->pos1, perm [1,0]",
     R"(<@xy, [{"y"}, {"x"}]>)", {}, "{devices=[4,2]<=[2,4]T(1,0)}"},
    {"docs/upstream.md export example 2; lit @split_axes", R"(<@mesh_2, [{"y"}, {"x":(2)2}]>)", {},
     "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}"},
    {"docs/upstream.md export example 3; lit @split_axes", R"(<@mesh_2, [{"x":(1)2}, {"x":(2)4}]>)", {},
     "{devices=[2,4,4]<=[32] last_tile_dim_replicate}"},
    {"docs/upstream.md export example 4", R"(<@mesh_3, [{}, {"d"}]>)", {"a", "b"},
     "{devices=[1,2,4,2]<=[8,2]T(1,0) last_tile_dims={manual, replicated}}"},
    {"docs/upstream.md export example 4", R"(<@mesh_3, [{"c"}, {"d"}]>)", {"a", "b"},
     "{devices=[2,2,4]<=[4,4]T(1,0) last_tile_dims={manual}}"},
    {"docs/upstream.md export example 4 (manual over all axes); lit @call_in_manual_computation_fully_manual",
     R"(<@mesh_2, [{}]>)", {"x", "y"}, "{manual}"},
    {"docs/upstream.md export example 4; lit @call_in_manual_computation_partially_manual",
     R"(<@mesh_2, [{"y"}, {}]>)", {"x"}, "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dims={manual}}"},
    {"docs/upstream.md export example 5; lit @multiple_shardings_with_device_list",
     R"(<@mesh_4, [{"axis_2"}, {"axis_0", "axis_1"}]>)", {}, "{devices=[2,4]0,4,1,5,2,6,3,7}"},
    {"docs/upstream.md export example 5 (groups sorted by PartialTile); lit @multiple_shardings_with_device_list",
     R"(<@mesh_4, [{}, {"axis_1"}]>)", {},
     "{devices=[1,2,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"},
    {"docs/upstream.md export example 6; metadata text as lit @single_output_metadata prints it",
     R"(<@mesh_5, [{"j"}, {}], unreduced={"i"}>)", {},
     "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dims={unreduced} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"docs/upstream.md export example 6; metadata as lit @single_output_metadata",
     R"(<@mesh_2, [{}, {}], unreduced={"x":(1)2, "y"}>)", {},
     "{devices=[1,1,8,4]<=[2,4,4]T(0,2,1) last_tile_dims={unreduced, replicated} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"docs/upstream.md export example 6 (everything unreduced collapses)",
     R"(<@mesh_5, [{}, {}], unreduced={"i", "j"}>)", {},
     "{unreduced metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"docs/upstream.md export example 7; lit @mesh_with_device_id_should_be_converted_to_maximal_sharding",
     R"(<@maximal_mesh_1, []>)", {}, "{maximal device=1}"},
    {"docs/upstream.md export example 7; lit @mesh_empty_should_be_converted_to_replicated_sharding",
     R"(<@empty_mesh, [{}, {}]>)", {}, "{replicated}"},
    {"docs/upstream.md § Export steps, step 1: dims of a mesh without axes are ignored",
     R"(<@empty_mesh, [{"zz"}]>)", {}, "{replicated}"},
    // --- lit test rows ----------------------------------------------------
    {"lit @single_output_metadata", R"(<mesh<["x"=2, "y"=4]>, [{"x"}, {}], unreduced={"y"}>)", {},
     "{devices=[2,1,4]<=[8] last_tile_dims={unreduced} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"lit @single_output_metadata", R"(<mesh<["x"=2, "y"=4]>, [{"x"}, {"y"}]>)", {},
     "{devices=[2,4]<=[8]}"},
    {"lit @open_dim_shardings", R"(<@mesh_1, [{?}, {}]>)", {}, "{replicated}"},
    {"lit @open_dim_shardings", R"(<@mesh_1, [{?}, {"axis_0", ?}]>)", {}, "{devices=[1,16]<=[16]}"},
    {"lit @single_axis", R"(<@mesh_1, [{"axis_0"}, {}]>)", {}, "{devices=[16,1]<=[16]}"},
    {"lit @non_trivial_common_mesh", R"(<@mesh_0, [{"axis_2"}, {"axis_0", "axis_1"}]>)", {},
     "{devices=[4,8]<=[8,4]T(1,0)}"},
    {"lit @non_trivial_common_mesh", R"(<@mesh_0, [{}, {"axis_0"}]>)", {},
     "{devices=[1,2,16]<=[32] last_tile_dim_replicate}"},
    {"lit @non_trivial_common_mesh", R"(<@mesh_0, [{"axis_1"}, {"axis_2"}]>)", {},
     "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}"},
    {"lit @multiple_shardings", R"(<@mesh_0, [{}, {"axis_0", "axis_2"}]>)", {},
     "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}"},
    {"lit @multiple_shardings", R"(<@mesh_0, [{}, {"axis_1"}]>)", {},
     "{devices=[1,4,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"},
    {"lit @multiple_shardings", R"(<@mesh_0, [{"axis_0", "axis_1"}, {"axis_2"}]>)", {},
     "{devices=[8,4]<=[32]}"},
    {"lit @multiple_shardings", R"(<@mesh_0, [{"axis_1", "axis_0"}, {}]>)", {},
     "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}"},
    {"lit @reshard (explicit replicated axes change nothing)",
     R"(<@mesh_0, [{"axis_0"}, {"axis_2"}], replicated={"axis_1"}>)", {},
     "{devices=[2,4,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}"},
    {"lit @fully_replicated", R"(<@mesh_2, [{"y"}, {}]>)", {},
     "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}"},
    {"lit @fully_replicated", R"(<@mesh_2, [{}, {}]>)", {}, "{replicated}"},
    {"lit @split_axes", R"(<@mesh_2, [{"x":(1)2, "x":(4)2}, {}]>)", {},
     "{devices=[4,1,8]<=[2,2,2,4]T(0,2,1,3) last_tile_dim_replicate}"},
    {"lit @split_constants", R"(<@mesh_2, [{"x"}, {}]>)", {},
     "{devices=[8,1,4]<=[32] last_tile_dim_replicate}"},
    {"lit @collective_permute", R"(<@mesh_2, [{"y", "x"}, {}]>)", {},
     "{devices=[32,1]<=[8,4]T(1,0)}"},
    {"lit @call_in_manual_computation_partially_manual", R"(<@mesh_2, [{"x", "y"}, {}]>)", {},
     "{devices=[32,1]<=[32]}"},
    {"lit @call_in_manual_computation_fully_manual", R"(<@mesh_2, [{"x", "y"}]>)", {},
     "{devices=[32]<=[32]}"},
    {"lit @sharding_in_manual_computation_body", R"(<@mesh_3, [{"a", ?}, {"b", ?}]>)", {},
     "{devices=[2,2,4]<=[16] last_tile_dim_replicate}"},
    {"lit @sharding_in_manual_computation_body", R"(<@mesh_3, [{"b"}, {"a"}]>)", {},
     "{devices=[2,2,4]<=[2,2,4]T(1,0,2) last_tile_dim_replicate}"},
    {"lit @sharding_in_manual_computation_body", R"(<@mesh_3, [{"b"}, {}], replicated={"a"}>)",
     {}, "{devices=[2,1,8]<=[2,2,4]T(1,0,2) last_tile_dim_replicate}"},
    {"lit @sharding_in_manual_computation_body", R"(<@mesh_3, [{"a"}, {}], replicated={"b"}>)",
     {}, "{devices=[2,1,8]<=[16] last_tile_dim_replicate}"},
    {"lit @sharding_in_manual_computation_body (FullToShard)", R"(<@mesh_3, [{}, {}]>)",
     {"a", "b"}, "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}"},
    {"lit @free_axis_inside_in_out_shardings_manual_computation", R"(<@mesh_5, [{"i"}, {}]>)",
     {"j"}, "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"},
    {"lit @free_axis_inside_in_out_shardings_manual_computation", R"(<@mesh_5, [{"i"}, {}]>)",
     {}, "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"},
    {"lit @multiple_shardings_with_device_list", R"(<@mesh_4, [{}, {"axis_0", "axis_2"}]>)", {},
     "{devices=[1,4,2]0,4,2,6,1,5,3,7 last_tile_dim_replicate}"},
    {"lit @multiple_shardings_with_device_list", R"(<@mesh_4, [{"axis_1", "axis_0"}, {}]>)", {},
     "{devices=[4,1,2]0,2,1,3,4,6,5,7 last_tile_dim_replicate}"},
    // --- derived ----------------------------------------------------------
    {"derived: unreduced=max{...} carries op_name MAX (docs/upstream.md § Tensor shardings, export example 6)",
     R"(<@xy, [{"x"}, {}], unreduced=max{"y"}>)", {},
     "{devices=[2,1,4]<=[8] last_tile_dims={unreduced} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"MAX\"}}"},
    {"derived: unreduced=min{...} carries op_name MIN", R"(<@xy, [{}], unreduced=min{"x"}>)", {},
     "{devices=[1,2,4]<=[8] last_tile_dims={unreduced, replicated} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"MIN\"}}"},
    {"derived: manual axes in the caller's order: b then a -> pieces a,b,c at positions "
     "c0 b1 a2 -> perm [2,1,0]",
     R"(<@abc, [{"c"}]>)", {"b", "a"}, "{devices=[2,4]<=[2,2,2]T(2,1,0) last_tile_dims={manual}}"},
    {"derived (upstream aborts): manual a -> pos1, unreduced b -> pos2, c -> pos0; "
     "perm [2,0,1] canonicalises to [4,2]T(1,0)",
     R"(<@abc, [{"c"}], unreduced={"b"}>)", {"a"},
     "{devices=[2,2,2]<=[4,2]T(1,0) last_tile_dims={manual, unreduced} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"derived (upstream aborts): manual b, unreduced c, a replicated -> perm [1,2,0]",
     R"(<@abc, [{}], unreduced={"c"}>)", {"b"},
     "{devices=[1,2,2,2]<=[2,4]T(1,0) last_tile_dims={manual, unreduced, replicated} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"derived: rank 0 on a tiled mesh: only the replication dim -> collapses",
     R"(<@xy, []>)", {}, "{replicated}"},
    {"derived: every axis of size 1 -> {replicated} (upstream: {devices=[1,1]<=[1]}, "
     "not valid XLA; issue 4 item 6)",
     R"(<@ones, [{"p"}, {"q"}]>)", {}, "{replicated}"},
    {"derived: all axes manual wins over size-1 axes", R"(<@ones, [{}]>)", {"p", "q"},
     "{manual}"},
    {"docs/upstream.md § Export steps, step 10: size-1 axes, unreduced -> tile dims [1], "
     "UNREDUCED(1), and Subgroup collapses a lone type before dropping size-1 dims",
     R"(<@ones, [{}], unreduced={"p"}>)", {},
     "{unreduced metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"derived: size-1 axes, max{unreduced}: the reduction rides in the metadata",
     R"(<@ones, [{"q"}], unreduced=max{"p"}>)", {},
     "{unreduced metadata={op_type=\"sdy::reduction_op\" op_name=\"MAX\"}}"},
    {"derived: size-1 axes, unreduced beside a size-1 manual axis: MANUAL(1) + UNREDUCED(1) "
     "are two types, so no collapse; one device -> {replicated}",
     R"(<@ones, [{}], unreduced={"p"}>)", {"q"},
     "{replicated metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"derived: XLA's Subgroup collapses before dropping size-1 dims; MANUAL(1) + "
     "UNREDUCED(6) are not one type (header comment)",
     R"(<mesh<["a"=6, "m"=1]>, [], unreduced={"a"}>)", {"m"},
     "{devices=[6]<=[6] last_tile_dims={unreduced} "
     "metadata={op_type=\"sdy::reduction_op\" op_name=\"SUM\"}}"},
    {"derived: explicit order [5..0] over a=2,b=3; b->dim0, a replicated: ids viewed [2,3] "
     "transposed to [3,2] = 5,2,4,1,3,0, groups sorted",
     R"(<@rev, [{"b"}]>)", {}, "{devices=[3,2]2,5,1,4,0,3 last_tile_dim_replicate}"},
    {"derived: explicit order, a->dim0, b->dim1: the ids as given",
     R"(<@rev, [{"a"}, {"b"}]>)", {}, "{devices=[2,3]5,4,3,2,1,0}"},
};

TEST_F(ExportTest, GoldenRows) {
  for (const GoldenRow& row : kGoldenRows) {
    SCOPED_TRACE(std::string(row.source) + ": " + row.sharding);
    auto result = run(row.sharding, row.manualAxes);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(hlo::printSharding(*result, /*includeMetadata=*/true), row.expected);
  }
}

TEST_F(ExportTest, OlderBehaviourDropsUnreducedAxes) {
  ExportOptions options;
  options.dropUnreducedAxes = true;
  // Source: docs/upstream.md § The older exporter (no unreduced subgroup): "y" joins the
  // replication group and no metadata is attached.
  auto result = run(R"(<@xy, [{"x"}, {}], unreduced={"y"}>)", {}, options);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(hlo::printSharding(*result, true), "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
  // The sub-axis boundary an unreduced ref would add is ignored too; the
  // replicated pieces stay in mesh order, so the result is the same iota.
  result = run(R"(<@mesh_2, [{"y"}, {}], unreduced={"x":(2)2}>)", {}, options);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(hlo::printSharding(*result, true),
            "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}");
}

TEST_F(ExportTest, PerValue) {
  // Source: lit @multi_result_op.
  auto two = sdy::parseTensorShardingPerValue(
      ctx_, R"(<[<@mesh_2, [{}, {"y"}]>, <@mesh_2, [{"y"}, {}]>]>)");
  ASSERT_TRUE(two.has_value());
  auto result = convertToHloSharding(*two, lookup_);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(hlo::printSharding(*result),
            "{{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}, "
            "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}}");

  // Source: lit @multiple_shardings (one value: no tuple).
  auto one = sdy::parseTensorShardingPerValue(ctx_, R"(<[<@mesh_0, [{"axis_1","axis_0"}, {}]>]>)");
  ASSERT_TRUE(one.has_value());
  result = convertToHloSharding(*one, lookup_);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(hlo::printSharding(*result),
            "{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}");

  // Derived: an error in any value is the result.
  auto bad = sdy::parseTensorShardingPerValue(ctx_, R"(<[<@mesh_2, [{}]>, <@nope, [{}]>]>)");
  ASSERT_TRUE(bad.has_value());
  result = convertToHloSharding(*bad, lookup_);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, "unknown mesh: @nope");
}

struct ErrorRow {
  const char* sharding;
  std::vector<std::string> manualAxes;
  ErrorCode code;
  const char* message;
};

TEST_F(ExportTest, Errors) {
  const ErrorRow rows[] = {
      {R"(<@nope, [{}]>)", {}, ErrorCode::kNotFound, "unknown mesh: @nope"},
      {R"(<@mesh_2, [{"z"}]>)", {}, ErrorCode::kInvalid, R"(unknown axis name: "z")"},
      {R"(<@mesh_2, [{"x"}, {"x"}]>)", {}, ErrorCode::kInvalid, R"(duplicate axis ref: "x")"},
      {R"(<@mesh_2, [{"x":(1)4}, {"x":(2)2}]>)", {}, ErrorCode::kInvalid,
       R"(overlapping sub-axes: "x":(1)4, "x":(2)2)"},
      {R"(<@mesh_2, [{}]>)", {"z"}, ErrorCode::kInvalid, R"(unknown manual axis: "z")"},
      {R"(<@mesh_2, [{}]>)", {"x", "x"}, ErrorCode::kInvalid, R"(duplicate manual axis: "x")"},
      {R"(<@mesh_2, [{"x":(1)2}]>)", {"x"}, ErrorCode::kInvalid,
       R"(operates on axis "x" which is already bound by a parent sdy.manual_computation op)"},
      {R"(<@mesh_2, [{}], replicated={"y"}>)", {"y"}, ErrorCode::kInvalid,
       R"(operates on axis "y" which is already bound by a parent sdy.manual_computation op)"},
  };
  for (const ErrorRow& row : rows) {
    SCOPED_TRACE(row.sharding);
    auto result = run(row.sharding, row.manualAxes);
    ASSERT_FALSE(result.has_value()) << hlo::printSharding(*result);
    EXPECT_EQ(result.error().code, row.code);
    EXPECT_EQ(result.error().message, row.message);
  }
}

TEST_F(ExportTest, MeshWithoutAxesAndSeveralIdsIsRejected) {
  // Source: the sdy verifier's rule (verifier.h), checked before the
  // maximal-mesh shortcut.
  auto result = run(R"(<@two_ids, []>)", {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kInvalid);
  EXPECT_EQ(result.error().message, "axes is empty and device_ids has more than one element");
}

// V3 rows: hlo::printSharding of the NamedSharding leaf. "lit ... (V3)" =
// the CHECK-V3 line of that function (enable-hlo-sharding-v3=true).
const GoldenRow kV3Rows[] = {
    {"lit @split_axes (V3); docs/upstream.md § The export pass", R"(<@mesh_2, [{"x":(1)2, "x":(4)2}, {}]>)", {},
     "{mesh['x'=8,'y'=4], [{'x':(1)2, 'x':(4)2}, {}]}"},
    {"lit @split_axes (V3)", R"(<@mesh_2, [{"x":(1)2}, {"x":(2)4}]>)", {},
     "{mesh['x'=8,'y'=4], [{'x':(1)2}, {'x':(2)4}]}"},
    {"lit @open_dim_shardings (V3)", R"(<@mesh_1, [{?}, {"axis_0", ?}]>)", {},
     "{mesh['axis_0'=16], [{?}, {'axis_0', ?}]}"},
    {"lit @non_trivial_common_mesh (V3)", R"(<@mesh_0, [{"axis_2"}, {"axis_0", "axis_1"}]>)", {},
     "{mesh['axis_0'=2,'axis_1'=4,'axis_2'=4], [{'axis_2'}, {'axis_0', 'axis_1'}]}"},
    {"lit @reshard (V3)", R"(<@mesh_0, [{"axis_0"}, {"axis_2"}], replicated={"axis_1"}>)", {},
     "{mesh['axis_0'=2,'axis_1'=4,'axis_2'=4], [{'axis_0'}, {'axis_2'}], replicated={'axis_1'}}"},
    {"lit @free_axis_inside_in_out_shardings_manual_computation (V3); docs/upstream.md § The export pass",
     R"(<@mesh_5, [{"i", ?}, {?}]>)", {"j"}, "{mesh['i'=2,'j'=2], [{'i', ?}, {?}], manual={'j'}}"},
    {"lit @call_in_manual_computation_partially_manual (V3)", R"(<@mesh_2, [{"y"}, {}]>)", {"x"},
     "{mesh['x'=8,'y'=4], [{'y'}, {}], manual={'x'}}"},
    {"lit @call_in_manual_computation_fully_manual (V3); docs/upstream.md § The export pass", R"(<@mesh_2, [{}]>)",
     {"x", "y"}, "{mesh['x'=8,'y'=4], manual}"},
    {"lit @sharding_in_manual_computation_body (V3) lists {'a', 'b'}; export.h: caller order "
     "b,a is sorted; all-empty dims are kept, as the lit row prints them",
     R"(<@mesh_3, [{}, {}]>)", {"b", "a"},
     "{mesh['a'=2,'b'=2,'c'=2,'d'=2], [{}, {}], manual={'a', 'b'}}"},
    {"lit @single_output_metadata (V3); docs/upstream.md § The export pass: V3 carries no reduction op",
     R"(<mesh<["x"=2, "y"=4]>, [{"x"}, {}], unreduced=min{"y"}>)", {},
     "{mesh['x'=2,'y'=4], [{'x'}, {}], unreduced={'y'}}"},
    {"export.h: manual and unreduced together are one NamedSharding",
     R"(<@abc, [{"c"}], unreduced={"b"}>)", {"a"},
     "{mesh['a'=2,'b'=2,'c'=2], [{'c'}], unreduced={'b'}, manual={'a'}}"},
    {"lit @multiple_shardings_with_device_list (V3); docs/upstream.md § The export pass",
     R"(<@mesh_4, [{}, {"axis_0", "axis_2"}]>)", {},
     "{mesh['axis_0'=2,'axis_1'=2,'axis_2'=2], device_ids=(0,2,4,6,1,3,5,7), "
     "[{}, {'axis_0', 'axis_2'}]}"},
    {"lit @mesh_empty_should_be_converted_to_replicated_sharding (V3): the dims are kept",
     R"(<@empty_mesh, [{}, {}]>)", {}, "{mesh[], [{}, {}]}"},
    {"lit @mesh_with_device_id_should_be_converted_to_maximal_sharding (V3), spelled as "
     "hlo::printSharding prints a maximal mesh",
     R"(<@maximal_mesh_1, []>)", {}, "{maximal_mesh[device_id=1]}"},
    {"export.h: V3 keeps size-1 axes (V2 gives {replicated})", R"(<@ones, [{"p"}, {}]>)", {},
     "{mesh['p'=1,'q'=1], [{'p'}, {}]}"},
    {"derived: the explicit order of @rev copied as device_ids",
     R"(<@rev, [{"b"}]>)", {}, "{mesh['a'=2,'b'=3], device_ids=(5,4,3,2,1,0), [{'b'}]}"},
};

TEST_F(ExportTest, V3Rows) {
  ExportOptions options;
  options.v3 = true;
  for (const GoldenRow& row : kV3Rows) {
    SCOPED_TRACE(std::string(row.source) + ": " + row.sharding);
    auto result = run(row.sharding, row.manualAxes, options);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(hlo::printSharding(*result, /*includeMetadata=*/true), row.expected);
  }
}

TEST_F(ExportTest, V3DropUnreducedAxes) {
  // Source: ExportOptions::dropUnreducedAxes (export.h) applied to the V3 leaf.
  ExportOptions options;
  options.v3 = true;
  options.dropUnreducedAxes = true;
  auto result = run(R"(<mesh<["x"=2, "y"=4]>, [{"x"}, {}], unreduced={"y"}>)", {}, options);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(hlo::printSharding(*result, true), "{mesh['x'=2,'y'=4], [{'x'}, {}]}");
}

TEST_F(ExportTest, V3ErrorsAreTheV2Errors) {
  // Source: export.h; the V3 path verifies before converting, as V2 does.
  ExportOptions options;
  options.v3 = true;
  auto unknown = run(R"(<@mesh_2, [{"x"}]>)", {"z"}, options);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message, R"(unknown manual axis: "z")");
  auto mesh = run(R"(<@nope, [{"x"}]>)", {}, options);
  ASSERT_FALSE(mesh.has_value());
  EXPECT_EQ(mesh.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(mesh.error().message, "unknown mesh: @nope");
}

TEST_F(ExportTest, V3PerValueIsATupleOfNamedLeaves) {
  // Source: lit @multi_result_op (V3).
  ExportOptions options;
  options.v3 = true;
  auto attr = sdy::parseTensorShardingPerValue(
      ctx_, R"(<[<@mesh_2, [{}, {"y"}]>, <@mesh_2, [{"y"}, {}]>]>)");
  ASSERT_TRUE(attr.has_value());
  auto result = convertToHloSharding(*attr, lookup_, {}, options);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(hlo::printSharding(*result),
            "{{mesh['x'=8,'y'=4], [{}, {'y'}]}, {mesh['x'=8,'y'=4], [{'y'}, {}]}}");
}

TEST_F(ExportTest, NullAttributesAreErrors) {
  EXPECT_FALSE(convertToHloSharding(sdy::TensorShardingAttr(), lookup_).has_value());
  EXPECT_FALSE(convertToHloSharding(sdy::TensorShardingPerValueAttr(), lookup_).has_value());
  // A reference with no lookup at all is an unknown mesh.
  auto attr = sdy::parseTensorSharding(ctx_, R"(<@mesh_2, [{}]>)");
  ASSERT_TRUE(attr.has_value());
  auto result = convertToHloSharding(*attr, sdy::MeshLookup());
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::kNotFound);
}


// ---------------------------------------------------------------------------
// Property: for random valid shardings on random meshes, every device sits
// where an independent model says it must. The model never builds a tile
// assignment: it walks the devices, reads each one's coordinate on every
// mesh axis (row-major over the mesh, or through the explicit device order),
// cuts those coordinates into the sub-axes the sharding uses and reads the
// tile index of each tensor dim (and of the manual, unreduced and replicated
// groups) as a mixed-radix number over the sub-axes assigned to it.

// One slice `(pre)size` of mesh axis `axis` and where it goes: tensor dim
// `target` when below the rank, else unreduced (rank), implicitly replicated
// (rank + 1) or explicitly replicated (rank + 2).
struct Chunk {
  size_t axis;
  int64_t pre;
  int64_t size;
  int target;
};

size_t pick(size_t n) { return *rc::gen::inRange<size_t>(0, n); }

template <typename T>
void shuffle(std::vector<T>& v) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[pick(i)]);
}

// The coordinate of a device on chunk `c`, given its coordinate on the axis.
int64_t chunkCoordinate(const Chunk& c, int64_t axisCoordinate, int64_t axisSize) {
  int64_t minor = axisSize / (c.pre * c.size);
  return (axisCoordinate / minor) % c.size;
}

RC_GTEST_PROP(ExportProperty, DevicesSitWhereTheModelPutsThem, ()) {
  sdy::Context ctx;
  const size_t numAxes = *rc::gen::inRange<size_t>(1, 5);
  const int rank = *rc::gen::inRange<int>(0, 4);
  std::vector<int64_t> sizes;
  std::vector<std::string> names;
  std::vector<sdy::MeshAxisAttr> axes;
  int64_t total = 1;
  for (size_t a = 0; a < numAxes; ++a) {
    sizes.push_back(*rc::gen::element<int64_t>(1, 2, 3, 4, 6, 8, 12));
    names.push_back("a" + std::to_string(a));
    axes.push_back(sdy::MeshAxisAttr::get(ctx, names.back(), sizes.back()));
    total *= sizes.back();
  }
  // Device at mesh position p (row-major over the axes): iota or shuffled.
  std::vector<int64_t> ids(static_cast<size_t>(total));
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>(i);
  const bool explicitOrder = *rc::gen::inRange<int>(0, 4) == 0;
  if (explicitOrder) shuffle(ids);
  sdy::MeshAttr mesh = sdy::MeshAttr::get(
      ctx, axes, explicitOrder ? std::span<const int64_t>(ids) : std::span<const int64_t>());

  std::vector<size_t> manualAxes;
  std::vector<Chunk> chunks;  // mesh order, major to minor within an axis
  for (size_t a = 0; a < numAxes; ++a) {
    if (*rc::gen::inRange<int>(0, 5) == 0) {
      manualAxes.push_back(a);
      continue;
    }
    // Cut the axis at random divisors, send each piece somewhere, and merge
    // neighbours that go to the same place (a valid sharding never lists two
    // mergeable sub-axes side by side).
    int64_t rest = sizes[a];
    int64_t pre = 1;
    std::vector<Chunk> axisChunks;
    do {
      std::vector<int64_t> divisors;
      for (int64_t d = 2; d <= rest; ++d) {
        if (rest % d == 0) divisors.push_back(d);
      }
      int64_t size = divisors.empty() ? 1 : divisors[pick(divisors.size())];
      int target = *rc::gen::inRange<int>(0, rank + 3);
      if (!axisChunks.empty() && axisChunks.back().target == target) {
        axisChunks.back().size *= size;
      } else {
        axisChunks.push_back(Chunk{a, pre, size, target});
      }
      pre *= size;
      rest /= size;
    } while (rest > 1);
    chunks.insert(chunks.end(), axisChunks.begin(), axisChunks.end());
  }
  shuffle(manualAxes);

  auto refOf = [&](const Chunk& c) {
    if (c.size == sizes[c.axis]) return sdy::AxisRefAttr::get(ctx, names[c.axis]);
    return sdy::AxisRefAttr::get(ctx, names[c.axis], c.pre, c.size);
  };
  std::vector<std::vector<size_t>> dimChunks(static_cast<size_t>(rank));
  std::vector<size_t> unreducedChunks, replicatedChunks;
  std::vector<sdy::AxisRefAttr> unreducedRefs, replicatedRefs;
  for (size_t i = 0; i < chunks.size(); ++i) {
    int t = chunks[i].target;
    if (t < rank) {
      dimChunks[static_cast<size_t>(t)].push_back(i);
    } else if (t == rank) {
      unreducedChunks.push_back(i);
      unreducedRefs.push_back(refOf(chunks[i]));
    } else {
      replicatedChunks.push_back(i);
      if (t == rank + 2) replicatedRefs.push_back(refOf(chunks[i]));
    }
  }
  std::vector<sdy::DimensionShardingAttr> dims;
  for (std::vector<size_t>& order : dimChunks) {
    shuffle(order);
    std::vector<sdy::AxisRefAttr> refs;
    for (size_t i : order) refs.push_back(refOf(chunks[i]));
    dims.push_back(sdy::DimensionShardingAttr::get(ctx, refs, /*isClosed=*/true));
  }
  auto reduction = *rc::gen::element(sdy::ReductionOp::kSum, sdy::ReductionOp::kMax,
                                     sdy::ReductionOp::kMin);
  sdy::TensorShardingAttr sharding = sdy::TensorShardingAttr::get(
      ctx, sdy::MeshOrRef::inlineMesh(mesh), dims, replicatedRefs, unreducedRefs, reduction);
  RC_ASSERT(sdy::verifyTensorSharding(sharding, nullptr).has_value());

  std::vector<std::string> manualNames;
  for (size_t a : manualAxes) manualNames.push_back(names[a]);
  auto result = convertToHloSharding(sharding, nullptr, manualNames);
  RC_ASSERT(result.has_value());
  const HloSharding& hlo = *result;

  if (manualAxes.size() == numAxes) {
    RC_ASSERT(hlo.isManual());
    return;
  }
  if (total == 1) {
    // XLA's Subgroup collapses a lone UNREDUCED type before dropping size-1
    // dims; any other one-device export means {replicated}.
    if (!unreducedChunks.empty() && manualAxes.empty()) {
      RC_ASSERT(hlo.isUnreduced());
    } else {
      RC_ASSERT(hlo.isReplicated());
    }
    return;
  }

  // The model: per device, its index in every group.
  auto product = [&](const std::vector<size_t>& list) {
    int64_t p = 1;
    for (size_t i : list) p *= chunks[i].size;
    return p;
  };
  std::vector<int64_t> tileDims;
  for (const std::vector<size_t>& order : dimChunks) tileDims.push_back(product(order));
  int64_t manualSize = 1;
  for (size_t a : manualAxes) manualSize *= sizes[a];
  const int64_t unreducedSize = product(unreducedChunks);
  const int64_t replicatedSize = product(replicatedChunks);

  const bool dataTiled = std::any_of(tileDims.begin(), tileDims.end(),
                                     [](int64_t d) { return d > 1; });
  const int groups = (manualSize > 1) + (unreducedSize > 1) + (replicatedSize > 1);
  // XLA's Subgroup collapses only when every emitted subgroup type is the
  // same, before it drops size-1 dims: a size-1 manual axis beside an
  // unreduced one leaves a rank-0 tiled `last_tile_dims={unreduced}`. So a
  // sharding without data tiling and with at most one real group may come
  // out either way; anything else must be tiled.
  if (hlo.kind() != HloSharding::Kind::kTiled) {
    RC_ASSERT(!dataTiled);
    RC_ASSERT(groups <= 1);
    if (manualSize > 1) {
      RC_ASSERT(hlo.isManual());
    } else if (unreducedSize > 1) {
      RC_ASSERT(hlo.isUnreduced());
    } else {
      // total > 1 and no data tiling: the replication group is the real one.
      RC_ASSERT(hlo.isReplicated());
    }
    return;
  }
  RC_ASSERT(hlo.kind() == HloSharding::Kind::kTiled);
  RC_ASSERT(hlo.tiledDataRank() == rank);
  for (int d = 0; d < rank; ++d) RC_ASSERT(hlo.dimension(d) == tileDims[static_cast<size_t>(d)]);
  auto checkGroup = [&](int64_t dim, int64_t size) {
    if (size > 1) {
      RC_ASSERT(dim >= 0);
      RC_ASSERT(hlo.dimension(dim) == size);
    } else {
      RC_ASSERT(dim == -1);
    }
  };
  checkGroup(hlo.subgroupManualDim(), manualSize);
  checkGroup(hlo.subgroupUnreducedDim(), unreducedSize);
  checkGroup(hlo.subgroupReplicationDim(), replicatedSize);

  // Where the export put each device: its full index in the tile assignment.
  const hlo::TileAssignment& tiles = hlo.tileAssignment();
  auto devices = tiles.devices();
  RC_ASSERT(devices.has_value());
  std::span<const int64_t> tileShape = tiles.dimensions();
  std::vector<std::vector<int64_t>> placed(static_cast<size_t>(total));
  for (size_t flat = 0; flat < devices->size(); ++flat) {
    int64_t device = (*devices)[flat];
    RC_ASSERT(device >= 0 && device < total);
    RC_ASSERT(placed[static_cast<size_t>(device)].empty());
    std::vector<int64_t> index(tileShape.size());
    int64_t rest = static_cast<int64_t>(flat);
    for (size_t k = tileShape.size(); k-- > 0;) {
      index[k] = rest % tileShape[k];
      rest /= tileShape[k];
    }
    placed[static_cast<size_t>(device)] = index;
  }

  for (int64_t position = 0; position < total; ++position) {
    std::vector<int64_t> axisCoordinate(numAxes);
    int64_t rest = position;
    for (size_t a = numAxes; a-- > 0;) {
      axisCoordinate[a] = rest % sizes[a];
      rest /= sizes[a];
    }
    auto indexOver = [&](const std::vector<size_t>& list) {
      int64_t index = 0;
      for (size_t i : list) {
        const Chunk& c = chunks[i];
        index = index * c.size + chunkCoordinate(c, axisCoordinate[c.axis], sizes[c.axis]);
      }
      return index;
    };
    const int64_t device = ids[static_cast<size_t>(position)];
    const std::vector<int64_t>& got = placed[static_cast<size_t>(device)];
    RC_ASSERT(!got.empty());
    for (int d = 0; d < rank; ++d) {
      RC_ASSERT(got[static_cast<size_t>(d)] == indexOver(dimChunks[static_cast<size_t>(d)]));
    }
    if (manualSize > 1) {
      int64_t index = 0;
      for (size_t a : manualAxes) index = index * sizes[a] + axisCoordinate[a];
      RC_ASSERT(got[static_cast<size_t>(hlo.subgroupManualDim())] == index);
    }
    if (unreducedSize > 1) {
      RC_ASSERT(got[static_cast<size_t>(hlo.subgroupUnreducedDim())] == indexOver(unreducedChunks));
    }
    // XLA sorts the members of each replication group of an explicit device
    // list, so only an iota keeps the mesh-order replicated index (which is
    // ascending in the device id there anyway).
    if (replicatedSize > 1 && !explicitOrder) {
      RC_ASSERT(got[static_cast<size_t>(hlo.subgroupReplicationDim())] ==
                indexOver(replicatedChunks));
    }
  }
}

// V3 and V2 export agree: XLA's V3ToV2Sharding (hlo::toV2Sharding) of the V3
// leaf equals the V2 leaf (XLA equality). Source: the two are upstream's two
// renderings of one sdy sharding (docs/upstream.md § Export steps, § The export pass), and V3ToV2 lays out
// tile dims, manual, unreduced and replicated axes in the order of
// docs/upstream.md § Export steps, steps 5-7. Manual axes are given in mesh order, the only order V3
// can express (export.h); meshes of one device are left out (V2 prints
// `{replicated}` there by design, export.h).
RC_GTEST_PROP(ExportProperty, V3ToV2EqualsV2Export, ()) {
  sdy::Context ctx;
  const size_t numAxes = *rc::gen::inRange<size_t>(1, 5);
  const int rank = *rc::gen::inRange<int>(0, 4);
  std::vector<sdy::MeshAxisAttr> axes;
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  int64_t total = 1;
  for (size_t a = 0; a < numAxes; ++a) {
    sizes.push_back(*rc::gen::element<int64_t>(1, 2, 3, 4, 6, 8));
    names.push_back("m" + std::to_string(a));
    axes.push_back(sdy::MeshAxisAttr::get(ctx, names.back(), sizes.back()));
    total *= sizes.back();
  }
  RC_PRE(total > 1);
  std::vector<int64_t> ids(static_cast<size_t>(total));
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int64_t>(i);
  const bool explicitOrder = *rc::gen::inRange<int>(0, 3) == 0;
  if (explicitOrder) shuffle(ids);
  bool identity = true;
  for (size_t i = 0; i < ids.size(); ++i) identity = identity && ids[i] == static_cast<int64_t>(i);
  sdy::MeshAttr mesh = sdy::MeshAttr::get(
      ctx, axes, identity ? std::span<const int64_t>() : std::span<const int64_t>(ids));

  // Each axis: manual, or one or two pieces (split at a divisor), each
  // sent to a dim, unreduced, explicit replicated or implicit replicated.
  std::vector<std::string> manual;
  std::vector<std::vector<sdy::AxisRefAttr>> dims(static_cast<size_t>(rank));
  std::vector<sdy::AxisRefAttr> unreduced, replicated;
  for (size_t a = 0; a < numAxes; ++a) {
    if (*rc::gen::inRange<int>(0, 5) == 0) {
      manual.push_back(names[a]);
      continue;
    }
    std::vector<int64_t> cut;
    for (int64_t d = 2; d < sizes[a]; ++d) {
      if (sizes[a] % d == 0) cut.push_back(d);
    }
    std::vector<sdy::AxisRefAttr> pieces;
    if (cut.empty() || *rc::gen::inRange<int>(0, 2) == 0) {
      pieces.push_back(sdy::AxisRefAttr::get(ctx, names[a]));
    } else {
      int64_t d = cut[pick(cut.size())];
      pieces.push_back(sdy::AxisRefAttr::get(ctx, names[a], 1, d));
      pieces.push_back(sdy::AxisRefAttr::get(ctx, names[a], d, sizes[a] / d));
    }
    int lastTarget = -1;
    for (sdy::AxisRefAttr piece : pieces) {
      int target = *rc::gen::inRange<int>(0, rank + 3);
      // Two pieces of one axis in the same list would be mergeable.
      if (target == lastTarget) target = rank + 2;
      lastTarget = target;
      if (target < rank) {
        dims[static_cast<size_t>(target)].push_back(piece);
      } else if (target == rank) {
        unreduced.push_back(piece);
      } else if (target == rank + 1) {
        replicated.push_back(piece);
      }
    }
  }
  std::vector<sdy::DimensionShardingAttr> dimAttrs;
  for (std::vector<sdy::AxisRefAttr>& refs : dims) {
    shuffle(refs);
    dimAttrs.push_back(sdy::DimensionShardingAttr::get(ctx, refs, *rc::gen::arbitrary<bool>()));
  }
  sdy::TensorShardingAttr sharding = sdy::TensorShardingAttr::get(
      ctx, sdy::MeshOrRef::inlineMesh(mesh), dimAttrs, replicated, unreduced,
      sdy::ReductionOp::kSum);
  // A shuffled dim may list two pieces of one axis side by side in mergeable
  // order; such shardings are invalid sdy and not what this property is about.
  RC_PRE(sdy::verifyTensorSharding(sharding, nullptr).has_value());

  // V3 -> V2 reads dims that hold no axis at all as none (XLA's
  // CanonicalizedDimShardings), so compare with the V2 export of rank 0.
  const bool noDimAxes =
      std::all_of(dims.begin(), dims.end(),
                  [](const std::vector<sdy::AxisRefAttr>& d) { return d.empty(); });
  sdy::TensorShardingAttr v2Input =
      noDimAxes ? sdy::TensorShardingAttr::get(ctx, sdy::MeshOrRef::inlineMesh(mesh), {},
                                               replicated, unreduced, sdy::ReductionOp::kSum)
                : sharding;
  auto v2 = convertToHloSharding(v2Input, nullptr, manual);
  RC_ASSERT(v2.has_value());
  ExportOptions options;
  options.v3 = true;
  auto v3 = convertToHloSharding(sharding, nullptr, manual, options);
  RC_ASSERT(v3.has_value());
  RC_ASSERT(v3->isNamed());
  auto back = hlo::toV2Sharding(*v3);
  RC_ASSERT(back.has_value());
  RC_ASSERT(hlo::printSharding(*back) == hlo::printSharding(*v2));
}

}  // namespace
}  // namespace shardbridge::convert
