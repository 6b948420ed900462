// Tests for the round-trip export (xla-sdy-round-trip-export-pipeline and
// its passes, src/module/round_trip_*.cc, lift_inlined_meshes.cc): the
// contract names, what the passes leave alone, fresh names, errors located
// in the input. The upstream strings themselves are in
// tests/golden/module/round_trip_export.mlir.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {
namespace {

Result<ConvertedModule> run(const std::string& text, const std::string& pass) {
  auto spec = parsePassSpec(pass);
  if (!spec) return spec.error();
  return runPasses(text, {*spec});
}

TEST(RoundTripExport, ContractNamesAndOptions) {
  for (const char* name :
       {"xla-sdy-round-trip-export-pipeline{keep-meshes-inlined=true enable-hlo-sharding-v3=false}",
        "xla-sdy-round-trip-shard-map-export{enable-hlo-sharding-v3}", "xla-sdy-round-trip-export-ops",
        "xla-sdy-round-trip-dedup-meshes", "xla-sdy-round-trip-export-shardy-attrs{enable-hlo-sharding-v3=true}",
        "sdy-lift-inlined-meshes{keep-meshes-inlined=false}"})
    EXPECT_TRUE(parsePassSpec(name).has_value()) << name;
  auto bad = parsePassSpec("xla-sdy-round-trip-export-ops{enable-hlo-sharding-v3}");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "pass 'xla-sdy-round-trip-export-ops' has no option 'enable-hlo-sharding-v3'; options: none");
}

TEST(RoundTripExport, UntouchedBytesStay) {
  std::string text =
      "// leading comment\n"
      "module @m attributes {mhlo.num_partitions = 8 : i32} {\n"
      "  sdy.mesh @mesh = <[\"x\"=8]> loc(#loc1)\n"
      "  func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>})  ->  tensor<8xf32> {\n"
      "    %0 = stablehlo.abs   %arg0 : tensor<8xf32> loc(#loc2)\n"
      "    return %0 : tensor<8xf32>\n"
      "  }\n"
      "}\n";
  auto out = run(text, "xla-sdy-round-trip-export-pipeline");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text,
            "// leading comment\n"
            "module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\22x\\22=8]>}\"}, "
            "mhlo.num_partitions = 8 : i32} {\n"
            "  func.func @f(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "
            "\"#sdy.sharding<@mesh, [{\\22x\\22}]>\"}, mhlo.sharding = \"{devices=[8]<=[8]}\"})  ->  tensor<8xf32> {\n"
            "    %0 = stablehlo.abs   %arg0 : tensor<8xf32> loc(#loc2)\n"
            "    return %0 : tensor<8xf32>\n"
            "  }\n"
            "}\n");
}

TEST(RoundTripExport, ExistingFrontendAttributesAreMergedSorted) {
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {a = \"1\", z = \"2\"}, "
      "sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<8xf32> {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  auto out = run(text, "xla-sdy-round-trip-export-shardy-attrs");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_NE(out->text.find("{mhlo.frontend_attributes = {a = \"1\", xla.sdy.sharding = "
                           "\"#sdy.sharding<@mesh, [{\\22x\\22}]>\", z = \"2\"}, sdy.sharding = "),
            std::string::npos)
      << out->text;
  // A file without `module {}` gets one for the module's attributes.
  EXPECT_EQ(out->text.rfind("module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = ", 0), 0u) << out->text;
  EXPECT_EQ(out->text.substr(out->text.size() - 3), "\n}\n");
}

TEST(RoundTripExport, FreshNamesNeverCollide) {
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) {\n"
      "  %arg0_result = stablehlo.abs %arg0 : tensor<8xf32>\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  auto out = run(text, "xla-sdy-round-trip-export-shardy-attrs");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_NE(out->text.find("%arg0_result_0 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0)"),
            std::string::npos)
      << out->text;
  EXPECT_NE(out->text.find("return %arg0_result_0 : tensor<8xf32>"), std::string::npos);
}

TEST(RoundTripExport, FuncResultShardingGetsNoHloSharding) {
  // export-shardings runs with read-round-trip-attrs=false in the pipeline:
  // the frontend string of the FuncResultSharding call is not exported again.
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  auto out = run(text, "xla-sdy-round-trip-export-pipeline");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  size_t call = out->text.find("@xla.sdy.FuncResultSharding");
  ASSERT_NE(call, std::string::npos);
  std::string line = out->text.substr(call, out->text.find('\n', call) - call);
  EXPECT_EQ(line.find("mhlo.sharding"), std::string::npos) << line;
  EXPECT_EQ(out->text.find("sdy.mesh @"), std::string::npos);
}

TEST(RoundTripExport, ErrorsAreLocated) {
  std::string text =
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.propagation_barrier %arg0 allowed_direction=SIDEWAYS : tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n";
  auto out = run(text, "xla-sdy-round-trip-export-pipeline");
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().message, "expected NONE, FORWARD, BACKWARD or BOTH for allowed_direction, got 'SIDEWAYS'");
  EXPECT_EQ(out.error().offset, text.find("SIDEWAYS"));
}

TEST(RoundTripExport, LiftReusesAnIdenticalMeshSymbol) {
  std::string text =
      "sdy.mesh @m = <[\"a\"=2]>\n"
      "sdy.mesh @dup = <[\"a\"=2]>\n"
      "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[\"a\"=2]>, [{\"a\"}]>}) -> "
      "(tensor<8xf32> {sdy.sharding = #sdy.sharding<@dup, [{}]>}) {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  auto out = run(text, "sdy-lift-inlined-meshes");
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(out->text,
            "sdy.mesh @m = <[\"a\"=2]>\n"
            "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"a\"}]>}) -> "
            "(tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {\n"
            "  return %arg0 : tensor<8xf32>\n"
            "}\n");
  auto kept = run(text, "sdy-lift-inlined-meshes{keep-meshes-inlined=true}");
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->text, text);
}

}  // namespace
}  // namespace shardbridge::module

// --- properties over generated modules -------------------------------------
namespace shardbridge::module {
namespace {

// A sharding of rank `rank` on @mesh with axes "a".."d": each axis used at
// most once, in a random dimension or not at all.
std::string genSharding(int rank, int axes, bool perValue) {
  std::vector<std::vector<std::string>> dims(static_cast<size_t>(rank));
  for (int a = 0; a < axes; ++a) {
    int d = *rc::gen::inRange<int>(-1, rank);
    if (d >= 0) dims[static_cast<size_t>(d)].push_back(std::string(1, static_cast<char>('a' + a)));
  }
  std::string s = std::string(perValue ? "#sdy.sharding_per_value<[<" : "#sdy.sharding<") + "@mesh, [";
  for (int d = 0; d < rank; ++d) {
    s += d ? ", {" : "{";
    for (size_t i = 0; i < dims[static_cast<size_t>(d)].size(); ++i)
      s += (i ? ", \"" : "\"") + dims[static_cast<size_t>(d)][i] + "\"";
    s += "}";
  }
  return s + (perValue ? "]>]>" : "]>");
}

std::vector<std::string> hloStrings(const std::string& text) {
  std::vector<std::string> out;
  for (size_t p = text.find("mhlo.sharding = \""); p != std::string::npos; p = text.find("mhlo.sharding = \"", p + 1))
    out.push_back(text.substr(p, text.find('"', p + 17) - p));
  return out;
}

RC_GTEST_PROP(RoundTripExportProperty, SameHloShardingsAsTheExportAndNoSdyLeft, ()) {
  int axes = *rc::gen::inRange<int>(1, 5);
  std::string mesh = "sdy.mesh @mesh = <[";
  for (int a = 0; a < axes; ++a)
    mesh += std::string(a ? ", \"" : "\"") + static_cast<char>('a' + a) + "\"=" + std::to_string(*rc::gen::element(1, 2, 4));
  mesh += "]>";
  std::string text = "module {\n  " + mesh + "\n";
  int funcs = *rc::gen::inRange<int>(1, 4);
  std::vector<std::string> originals;
  for (int f = 0; f < funcs; ++f) {
    std::string arg = genSharding(2, axes, false), op = genSharding(2, axes, true), res = genSharding(2, axes, false);
    std::string constraint = genSharding(2, axes, false).substr(13);  // the stripped `<@mesh, ...>` form
    originals.push_back(arg);
    text += "  func.func @f" + std::to_string(f) + "(%arg0: tensor<8x8xf32> {sdy.sharding = " + arg +
            "}) -> (tensor<8x8xf32> {sdy.sharding = " + res + "}) {\n" +
            "    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = " + op + "} : tensor<8x8xf32>\n" +
            "    %1 = sdy.sharding_constraint %0 " + constraint + " : tensor<8x8xf32>\n" +
            "    return %1 : tensor<8x8xf32>\n  }\n";
  }
  text += "}\n";
  auto rt = run(text, "xla-sdy-round-trip-export-pipeline");
  RC_ASSERT(rt.has_value());
  auto plain = run(text, "xla-sdy-stablehlo-export-pipeline");
  RC_ASSERT(plain.has_value());
  // Every mhlo.sharding the round trip writes is the export's, in the same
  // order (the FuncResultSharding calls carry none).
  RC_ASSERT(hloStrings(rt->text) == hloStrings(plain->text));
  RC_ASSERT(rt->text.find("sdy.mesh @") == std::string::npos);
  RC_ASSERT(rt->text.find("= sdy.") == std::string::npos);
  RC_ASSERT(rt->text.find("sdy.sharding = #") == std::string::npos);  // every sdy attribute exported
  // Each argument's original is kept, escaped, in its frontend attributes.
  for (const std::string& o : originals) {
    std::string escaped;
    for (char c : o) escaped += c == '"' ? std::string("\\22") : std::string(1, c);
    RC_ASSERT(rt->text.find("xla.sdy.sharding = \"" + escaped + "\"") != std::string::npos);
  }
  RC_ASSERT(rt->text.find("@xla.sdy.FuncResultSharding") != std::string::npos);
}

}  // namespace
}  // namespace shardbridge::module
