// Tests for `shardbridge list`'s library side (dump/listing.h): input
// detection, rows of HLO dumps and sharding files, the named forms on the
// inferred mesh (expected values worked out by hand from the import rules in
// convert/import.h and checked against `shardbridge import`), and the text
// and JSON renderings (the JSON is checked for well-formedness by a small
// RFC 8259 recogniser below).
#include "shardbridge/dump/listing.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "shardbridge/sdy/text.h"

namespace shardbridge::dump {
namespace {

// --- a minimal JSON recogniser (RFC 8259 grammar, no semantics) -----------
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view s) : s_(s) {}
  bool document() {
    ws();
    if (!value(0)) return false;
    ws();
    return p_ == s_.size();
  }

 private:
  void ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\t' || s_[p_] == '\r'))
      ++p_;
  }
  bool lit(std::string_view w) {
    if (s_.substr(p_, w.size()) != w) return false;
    p_ += w.size();
    return true;
  }
  bool string() {
    if (!lit("\"")) return false;
    while (p_ < s_.size()) {
      unsigned char c = static_cast<unsigned char>(s_[p_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c == '\\') {
        if (p_ >= s_.size()) return false;
        char e = s_[p_++];
        if (e == 'u') {
          for (int i = 0; i < 4; ++i) {
            if (p_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[p_++]))) return false;
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return false;
        }
      }
    }
    return false;
  }
  bool number() {
    size_t start = p_;
    if (p_ < s_.size() && s_[p_] == '-') ++p_;
    while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
    return p_ > start && std::isdigit(static_cast<unsigned char>(s_[p_ - 1]));
  }
  bool value(int depth) {
    if (depth > 64 || p_ >= s_.size()) return false;
    char c = s_[p_];
    if (c == '{') {
      ++p_;
      ws();
      if (lit("}")) return true;
      do {
        ws();
        if (!string()) return false;
        ws();
        if (!lit(":")) return false;
        ws();
        if (!value(depth + 1)) return false;
        ws();
      } while (lit(","));
      return lit("}");
    }
    if (c == '[') {
      ++p_;
      ws();
      if (lit("]")) return true;
      do {
        ws();
        if (!value(depth + 1)) return false;
        ws();
      } while (lit(","));
      return lit("]");
    }
    if (c == '"') return string();
    if (lit("true") || lit("false") || lit("null")) return true;
    return number();
  }
  std::string_view s_;
  size_t p_ = 0;
};

constexpr std::string_view kModule =
    "HloModule jit_f, entry_computation_layout={(f32[8,16]{1,0})->(f32[8,16]{1,0}, f32[])}\n"
    "\n"
    "ENTRY %main.10 (Arg_0.1: f32[8,16]) -> (f32[8,16], f32[]) {\n"
    "  %Arg_0.1 = f32[8,16]{1,0} parameter(0), sharding={devices=[2,4]<=[8]}, "
    "metadata={op_name=\"x\"}\n"
    "  %c.2 = f32[8,16]{1,0} custom-call(f32[8,16]{1,0} %Arg_0.1), "
    "custom_call_target=\"Sharding\", sharding={devices=[4,1,2]<=[2,4]T(1,0) "
    "last_tile_dim_replicate metadata={op_name=\"c\"}}\n"
    "  %r.3 = f32[] reduce(f32[8,16]{1,0} %c.2, f32[] %c.2), dimensions={0,1}, to_apply=%add\n"
    "  ROOT %tuple.9 = (f32[8,16]{1,0}, f32[]) tuple(f32[8,16]{1,0} %c.2, f32[] %r.3), "
    "sharding={{devices=[2,1,4]<=[8] last_tile_dim_replicate}, {maximal device=0}}\n"
    "}\n";

TEST(ListingTest, DetectsInputFormats) {
  struct Row {
    std::string_view data;
    InputFormat format;
  };
  const Row rows[] = {
      {"HloModule m\n", InputFormat::kHloModule},
      {"  // x\nENTRY e {\n}\n", InputFormat::kHloModule},
      {"module {\n}\n", InputFormat::kMlir},
      {"module @jit_f attributes {} {\n}", InputFormat::kMlir},
      {"func.func @main() {\n}", InputFormat::kMlir},
      {"sdy.mesh @mesh = <[\"x\"=2]>\n", InputFormat::kMlir},
      {"#loc = loc(unknown)\nmodule {}", InputFormat::kMlir},
      {"// c\n\"builtin.module\"() ({ func.func @f() {} })", InputFormat::kMlir},
      {"{devices=[2]<=[2]}", InputFormat::kShardingText},
      {"type: MAXIMAL\ntile_assignment_devices: 3\n", InputFormat::kProtoText},
      {"# comment\ntype: REPLICATED\n", InputFormat::kProtoText},
      {"{\"type\": \"MAXIMAL\"}", InputFormat::kProtoJson},
      {std::string_view("\x08\x01\x22\x01\x03", 5), InputFormat::kProtoBinary},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(detectInputFormat(row.data), row.format) << row.data;
  }
  EXPECT_STREQ(inputFormatName(InputFormat::kHloModule), "hlo");
  EXPECT_STREQ(inputFormatName(InputFormat::kProtoBinary), "pb");
}

TEST(ListingTest, ListsHloDumpRowsWithNamedForms) {
  sdy::Context ctx;
  auto listing = listShardings(ctx, kModule);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  EXPECT_EQ(listing->format, InputFormat::kHloModule);
  EXPECT_EQ(listing->module, "jit_f");
  ASSERT_EQ(listing->meshes.size(), 2u);
  EXPECT_EQ(sdy::printMeshSymbol({listing->meshes[0].name, listing->meshes[0].mesh}),
            "sdy.mesh @mesh = <[\"_axis_0\"=2, \"_axis_1\"=4]>");
  EXPECT_EQ(sdy::printMeshSymbol({listing->meshes[1].name, listing->meshes[1].mesh}),
            "sdy.mesh @single_device_0 = <[], device_ids=[0]>");
  ASSERT_EQ(listing->shardings.size(), 3u);

  const ListedSharding& p0 = listing->shardings[0];
  EXPECT_EQ(p0.place, "parameter 0 (%Arg_0.1) in %main.10");
  EXPECT_EQ(p0.line, 4u);
  EXPECT_EQ(p0.hlo, "{devices=[2,4]<=[8]}");
  EXPECT_EQ(p0.sdy, "#sdy.sharding<@mesh, [{\"_axis_0\"}, {\"_axis_1\"}]>");
  EXPECT_EQ(p0.ranks, std::vector<int64_t>{2});
  EXPECT_TRUE(p0.error.empty());

  const ListedSharding& c = listing->shardings[1];
  EXPECT_EQ(c.place, "%c.2 in %main.10");
  EXPECT_EQ(c.opcode, "custom-call");
  EXPECT_EQ(c.hlo, "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
  // Dim 0 split 4 ways along the minor axis (device = 4x + y).
  EXPECT_EQ(c.sdy, "#sdy.sharding<@mesh, [{\"_axis_1\"}, {}]>");

  const ListedSharding& root = listing->shardings[2];
  EXPECT_EQ(root.place, "ROOT %tuple.9 in %main.10");
  EXPECT_TRUE(root.root);
  EXPECT_EQ(root.ranks, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(root.sdy,
            "#sdy.sharding_per_value<[<@mesh, [{\"_axis_0\"}, {}]>, <@single_device_0, []>]>");
}

TEST(ListingTest, MetadataOnlyWhenAsked) {
  sdy::Context ctx;
  ListOptions options;
  options.includeMetadata = true;
  auto listing = listShardings(ctx, kModule, options);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  EXPECT_EQ(listing->shardings[1].hlo,
            "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate metadata={op_name=\"c\"}}");
}

TEST(ListingTest, GivenMeshReplacesInference) {
  sdy::Context ctx;
  ListOptions options;
  options.mesh = sdy::parseMesh(ctx, "<[\"x\"=2, \"y\"=4]>").value();
  options.meshName = "m";
  auto listing = listShardings(ctx, kModule, options);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  ASSERT_EQ(listing->meshes.size(), 2u);
  EXPECT_EQ(listing->meshes[0].name, "m");
  EXPECT_EQ(listing->shardings[0].sdy, "#sdy.sharding<@m, [{\"x\"}, {\"y\"}]>");
  EXPECT_EQ(listing->shardings[2].sdy,
            "#sdy.sharding_per_value<[<@m, [{\"x\"}, {}]>, <@single_device_0, []>]>");
}

TEST(ListingTest, LeafShardingOnTupleShapeAppliesToEveryLeaf) {
  sdy::Context ctx;
  auto listing = listShardings(
      ctx, "ENTRY e {\n  ROOT t = (f32[4]{0}, f32[]) parameter(0), sharding={replicated}\n}\n");
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  ASSERT_EQ(listing->shardings.size(), 1u);
  EXPECT_EQ(listing->shardings[0].ranks, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(listing->shardings[0].hlo, "{replicated}");
  EXPECT_EQ(listing->shardings[0].sdy, "#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, []>]>");
}

TEST(ListingTest, ImportFailuresAreRowErrorsNotFailures) {
  sdy::Context ctx;
  // Rank mismatch: the sharding tiles 2 dims of a rank-1 value.
  auto listing =
      listShardings(ctx, "ENTRY e {\n  p = f32[4]{0} parameter(0), sharding={devices=[2,2]<=[4]}\n}\n");
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  ASSERT_EQ(listing->shardings.size(), 1u);
  EXPECT_TRUE(listing->shardings[0].sdy.empty());
  EXPECT_NE(listing->shardings[0].error.find("tiles 2 dimensions but the tensor has rank 1"),
            std::string::npos)
      << listing->shardings[0].error;
  EXPECT_NE(printListingText(*listing).find("\terror: "), std::string::npos);

  // Different device counts: no module mesh at all.
  auto conflict = listShardings(ctx,
                                "ENTRY e {\n  p = f32[4]{0} parameter(0), sharding={devices=[4]<=[4]}\n"
                                "  q = f32[8]{0} parameter(1), sharding={devices=[8]<=[8]}\n}\n");
  ASSERT_TRUE(conflict.has_value()) << conflict.error().message;
  EXPECT_FALSE(conflict->meshError.empty());
  EXPECT_TRUE(conflict->meshes.empty());
  ASSERT_EQ(conflict->shardings.size(), 2u);
  EXPECT_EQ(conflict->shardings[1].error, "no module mesh: " + conflict->meshError);
  EXPECT_EQ(conflict->shardings[1].ranks, std::vector<int64_t>{1});
}

TEST(ListingTest, ShardingFilesGiveOneRow) {
  sdy::Context ctx;
  auto text = listShardings(ctx, "\n  {devices=[2,2]<=[4]}\n");
  ASSERT_TRUE(text.has_value()) << text.error().message;
  EXPECT_EQ(text->format, InputFormat::kShardingText);
  ASSERT_EQ(text->shardings.size(), 1u);
  EXPECT_EQ(text->shardings[0].place, "sharding");
  EXPECT_EQ(text->shardings[0].line, 2u);
  EXPECT_EQ(text->shardings[0].column, 3u);
  EXPECT_EQ(text->shardings[0].sdy, "#sdy.sharding<@mesh, [{\"_axis_0\"}, {\"_axis_1\"}]>");

  std::ifstream in(std::string(SB_SOURCE_DIR) + "/examples/op_sharding.pb", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto pb = listShardings(ctx, bytes.str());
  ASSERT_TRUE(pb.has_value()) << pb.error().message;
  EXPECT_EQ(pb->format, InputFormat::kProtoBinary);
  ASSERT_EQ(pb->shardings.size(), 1u);
  EXPECT_FALSE(pb->shardings[0].offset.has_value());
  EXPECT_EQ(pb->shardings[0].place, "OpSharding");
  EXPECT_EQ(pb->shardings[0].hlo, "{devices=[4,2]<=[2,4]T(1,0) shard_like 3}");
  EXPECT_EQ(printListingText(*pb).substr(printListingText(*pb).find('\n') + 1, 2), "-\t");
}

TEST(ListingTest, ErrorsAreLocated) {
  sdy::Context ctx;
  auto empty = listShardings(ctx, "module {\n}\n");
  ASSERT_TRUE(empty.has_value()) << empty.error().message;
  EXPECT_EQ(empty->format, InputFormat::kMlir);
  EXPECT_TRUE(empty->shardings.empty());
  EXPECT_TRUE(empty->meshes.empty());

  // A truncated module: scanMlir's error at the unclosed `{`.
  constexpr std::string_view truncated = "module {\n  func.func @f() {\n";
  auto mlir = listShardings(ctx, truncated);
  ASSERT_FALSE(mlir.has_value());
  EXPECT_EQ(mlir.error().code, ErrorCode::kParse);
  ASSERT_TRUE(mlir.error().hasOffset());
  EXPECT_EQ(mlir.error().offset, truncated.find("{\n", 10));

  // A module mesh that does not verify: located at its token.
  constexpr std::string_view badMesh = "sdy.mesh @mesh = <[\"x\"=0]>\n";
  auto mesh = listShardings(ctx, badMesh);
  ASSERT_FALSE(mesh.has_value());
  EXPECT_EQ(mesh.error().message, "axis size must be at least 1, got: 0");
  EXPECT_EQ(mesh.error().offset, badMesh.find('0'));

  auto twice = listShardings(ctx, "sdy.mesh @m = <[\"x\"=2]>\nsdy.mesh @m = <[\"x\"=4]>\n");
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().message, "redefinition of symbol named 'm'");
  EXPECT_EQ(twice.error().offset, 24u);

  constexpr std::string_view bad =
      "HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0), sharding={devices=[2]0,1,2}\n}\n";
  auto hlo = listShardings(ctx, bad);
  ASSERT_FALSE(hlo.has_value());
  ASSERT_TRUE(hlo.error().hasOffset());
  EXPECT_GT(hlo.error().offset, bad.find("sharding="));

  auto text = listShardings(ctx, "{devices=[2]0,1,2}");
  ASSERT_FALSE(text.has_value());
  EXPECT_TRUE(text.error().hasOffset());
}

TEST(ListingTest, TextRendering) {
  sdy::Context ctx;
  auto listing = listShardings(ctx, kModule);
  ASSERT_TRUE(listing.has_value());
  EXPECT_EQ(printListingText(*listing),
            "sdy.mesh @mesh = <[\"_axis_0\"=2, \"_axis_1\"=4]>\n"
            "sdy.mesh @single_device_0 = <[], device_ids=[0]>\n"
            "4:52\tparameter 0 (%Arg_0.1) in %main.10\t{devices=[2,4]<=[8]}\t"
            "#sdy.sharding<@mesh, [{\"_axis_0\"}, {\"_axis_1\"}]>\n"
            "5:103\t%c.2 in %main.10\t{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}\t"
            "#sdy.sharding<@mesh, [{\"_axis_1\"}, {}]>\n"
            "7:92\tROOT %tuple.9 in %main.10\t"
            "{{devices=[2,1,4]<=[8] last_tile_dim_replicate}, {maximal device=0}}\t"
            "#sdy.sharding_per_value<[<@mesh, [{\"_axis_0\"}, {}]>, <@single_device_0, []>]>\n");
}

TEST(ListingTest, JsonRenderingIsWellFormedAndComplete) {
  sdy::Context ctx;
  for (std::string_view data : {kModule, std::string_view("{replicated}"),
                                std::string_view("ENTRY e {\n  p = f32[4]{0} parameter(0), "
                                                 "sharding={devices=[4]<=[4]}\n  q = f32[8]{0} "
                                                 "parameter(1), sharding={devices=[8]<=[8]}\n}\n"),
                                std::string_view("HloModule m\n")}) {
    auto listing = listShardings(ctx, data);
    ASSERT_TRUE(listing.has_value()) << listing.error().message;
    std::string json = printListingJson(*listing, "a \"file\"\t.txt");
    EXPECT_TRUE(JsonChecker(json).document()) << json;
    for (std::string_view key : {"\"file\": \"a \\\"file\\\"\\t.txt\"", "\"format\": ",
                                 "\"module\": ", "\"meshes\": ", "\"mesh_error\": ",
                                 "\"shardings\": "}) {
      EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
    }
  }
  auto listing = listShardings(ctx, kModule);
  ASSERT_TRUE(listing.has_value());
  std::string json = printListingJson(*listing, "m.txt");
  for (std::string_view key :
       {"\"line\": 4", "\"column\": 52", "\"offset\": ", "\"length\": 20",
        "\"place\": \"parameter 0 (%Arg_0.1) in %main.10\"", "\"computation\": \"%main.10\"",
        "\"instruction\": \"%Arg_0.1\"", "\"opcode\": \"parameter\"",
        "\"shape\": \"f32[8,16]{1,0}\"", "\"parameter\": 0", "\"root\": false", "\"entry\": true",
        "\"attribute\": \"sharding\"", "\"hlo\": \"{devices=[2,4]<=[8]}\"", "\"ranks\": [",
        "\"sdy\": \"#sdy.sharding<@mesh, [{\\\"_axis_0\\\"}, {\\\"_axis_1\\\"}]>\"",
        "\"error\": null", "\"name\": \"single_device_0\"",
        "\"text\": \"sdy.mesh @single_device_0 = <[], device_ids=[0]>\"",
        "\"axes\": [{\"name\": \"_axis_0\", \"size\": 2}, {\"name\": \"_axis_1\", \"size\": 4}]",
        "\"device_ids\": [0]", "\"ranks\": [2]", "\"ranks\": [2, 0]"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  }
}

// --- MLIR modules ---------------------------------------------------------

// sdy sites: the sdy text itself (canonical) and its export. Expected HLO
// strings by the export rules (convert/export.h): on <["x"=2, "y"=4]>
// (device 4x+y), [{"x"}, {"y"}] is [2,4]<=[8]; [{"y"}, {}] is
// [4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate; inside a manual
// computation over "x", [{"y"}, {}] is [4,1,2]<=[2,4]T(1,0) with a manual
// last dim (examples/jax_module_mhlo.mlir, the export of jax_module.mlir,
// has the same strings).
constexpr std::string_view kSdyModule = R"(module @m {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"} , {}]>]>} : tensor<16x32xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<16x32xf32>
    %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<8x32xf32>) {
      %3 = stablehlo.abs %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x32xf32>
      sdy.return %3 : tensor<8x32xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %2 : tensor<16x32xf32>
  }
}
)";

TEST(ListingTest, MlirSdySitesAreExported) {
  sdy::Context ctx;
  auto listing = listShardings(ctx, kSdyModule);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  EXPECT_EQ(listing->format, InputFormat::kMlir);
  EXPECT_EQ(listing->module, "m");
  ASSERT_EQ(listing->meshes.size(), 1u);
  EXPECT_EQ(listing->meshes[0].name, "mesh");
  EXPECT_TRUE(listing->meshError.empty());
  ASSERT_EQ(listing->shardings.size(), 7u);
  const ListedSharding& arg = listing->shardings[0];
  EXPECT_EQ(arg.place, "@main %arg0");
  EXPECT_EQ(arg.attribute, "sdy.sharding");
  EXPECT_EQ(arg.line, 3u);
  EXPECT_EQ(*arg.offset, kSdyModule.find("#sdy.sharding<"));
  EXPECT_EQ(arg.length, std::string_view(R"(#sdy.sharding<@mesh, [{"x"}, {"y"}]>)").size());
  EXPECT_EQ(arg.hlo, "{devices=[2,4]<=[8]}");
  EXPECT_EQ(arg.sdy, R"(#sdy.sharding<@mesh, [{"x"}, {"y"}]>)");
  EXPECT_EQ(arg.ranks, (std::vector<int64_t>{2}));
  EXPECT_TRUE(arg.computation.empty());
  EXPECT_FALSE(arg.parameter.has_value());

  EXPECT_EQ(listing->shardings[1].place, "@main result 0");
  EXPECT_EQ(listing->shardings[1].hlo, "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
  // Per-value stays per-value, printed canonically (the blank before `,`).
  EXPECT_EQ(listing->shardings[2].place, "%0 = stablehlo.abs");
  EXPECT_EQ(listing->shardings[2].sdy, R"(#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>)");
  EXPECT_EQ(listing->shardings[2].hlo, "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
  EXPECT_EQ(listing->shardings[3].attribute, "sdy.sharding_constraint");
  EXPECT_EQ(listing->shardings[3].sdy, R"(#sdy.sharding<@mesh, [{"y"}, {}]>)");
  EXPECT_EQ(listing->shardings[4].attribute, "in_shardings");
  EXPECT_EQ(listing->shardings[5].attribute, "out_shardings");
  EXPECT_EQ(listing->shardings[5].hlo, "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
  // Inside the manual computation: "x" is a MANUAL subgroup.
  EXPECT_EQ(listing->shardings[6].place, "%3 = stablehlo.abs");
  EXPECT_EQ(listing->shardings[6].hlo, "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}");
  for (const ListedSharding& row : listing->shardings) EXPECT_TRUE(row.error.empty()) << row.error;
}

TEST(ListingTest, MlirSdySiteErrorsAreRowErrors) {
  sdy::Context ctx;
  constexpr std::string_view module = R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@nope, [{"x"}]>}, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{x}]>}) {
  return
}
)";
  auto listing = listShardings(ctx, module);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  ASSERT_EQ(listing->shardings.size(), 4u);
  // The written type's rank is checked (and reported as the rank).
  EXPECT_EQ(listing->shardings[0].error, "sharding doesn't match tensor rank: 1 != 2");
  EXPECT_EQ(listing->shardings[0].ranks, (std::vector<int64_t>{2}));
  EXPECT_EQ(listing->shardings[1].error, "unknown axis name: \"y\"");
  EXPECT_EQ(listing->shardings[2].error, "unknown mesh: @nope");
  EXPECT_FALSE(listing->shardings[3].error.empty());
  EXPECT_TRUE(listing->shardings[3].ranks.empty());
  for (const ListedSharding& row : listing->shardings) {
    EXPECT_TRUE(row.hlo.empty());
    EXPECT_TRUE(row.sdy.empty());
  }
  std::string text = printListingText(*listing);
  EXPECT_NE(text.find("2:53\t@f %arg0\t\terror: sharding doesn't match tensor rank: 1 != 2\n"),
            std::string::npos)
      << text;
  std::string json = printListingJson(*listing, "f.mlir");
  EXPECT_NE(json.find("\"hlo\": null"), std::string::npos) << json;
}

// mhlo.sharding sites: imported as importModule does (convert --to sdy):
// the mesh inferred over all of them, a sharding_per_value on an op, the
// written types' ranks ({replicated} on a rank-2 value: two closed dims).
TEST(ListingTest, MlirMhloSitesAreImported) {
  sdy::Context ctx;
  std::string bytes;
  {
    // {maximal device=1} as serialized OpSharding bytes (type MAXIMAL = 1,
    // tile_assignment_devices = [1]), written with MLIR escapes.
    bytes = "\\08\\01\\22\\01\\01";
  }
  std::string module = R"(module @jit_g {
  func.func @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<8x4xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<8x4xf32> {mhlo.sharding = ")" + bytes + R"("}) {
    %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{devices=[2,2]<=[4]}"} : tensor<8x4xf32>
    %1 = stablehlo.abs %0 {mhlo.sharding = "{devices=[2"} : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
)";
  auto listing = listShardings(ctx, module);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  EXPECT_EQ(listing->module, "jit_g");
  ASSERT_EQ(listing->meshes.size(), 2u);
  EXPECT_EQ(sdy::printMeshSymbol({listing->meshes[0].name, listing->meshes[0].mesh}),
            "sdy.mesh @mesh = <[\"_axis_0\"=2, \"_axis_1\"=2]>");
  EXPECT_EQ(listing->meshes[1].name, "single_device_1");
  ASSERT_EQ(listing->shardings.size(), 5u);
  const auto& rows = listing->shardings;
  EXPECT_EQ(rows[0].attribute, "mhlo.sharding");
  EXPECT_EQ(rows[0].sdy, R"(#sdy.sharding<@mesh, [{"_axis_0"}, {}]>)");
  EXPECT_EQ(rows[1].sdy, R"(#sdy.sharding<@mesh, [{}, {}]>)");
  EXPECT_EQ(rows[1].ranks, (std::vector<int64_t>{2}));
  EXPECT_EQ(rows[2].hlo, "{maximal device=1}");
  // A maximal sharding has no dims, as convert --to sdy writes it.
  EXPECT_EQ(rows[2].sdy, "#sdy.sharding<@single_device_1, []>");
  EXPECT_EQ(rows[3].sdy, R"(#sdy.sharding_per_value<[<@mesh, [{"_axis_0"}, {"_axis_1"}]>]>)");
  // A string that does not parse is that row's error, out of the inference.
  EXPECT_TRUE(rows[4].hlo.empty());
  EXPECT_FALSE(rows[4].error.empty());
  EXPECT_TRUE(rows[4].sdy.empty());
}

// A module mesh already called `mesh`: the inferred one takes `mesh_1`;
// an equal one is shared; a --mesh name taken by another mesh is an error.
TEST(ListingTest, MlirInferredMeshAvoidsModuleNames) {
  sdy::Context ctx;
  constexpr std::string_view module = R"(sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return
}
)";
  auto listing = listShardings(ctx, module);
  ASSERT_TRUE(listing.has_value()) << listing.error().message;
  ASSERT_EQ(listing->meshes.size(), 2u);
  EXPECT_EQ(listing->meshes[1].name, "mesh_1");
  EXPECT_EQ(listing->shardings[0].sdy, R"(#sdy.sharding<@mesh_1, [{"_axis_0"}]>)");
  EXPECT_EQ(listing->shardings[1].hlo, "{devices=[4]<=[4]}");

  ListOptions same;
  same.mesh = sdy::parseMesh(ctx, R"(<["x"=4]>)").value();
  auto shared = listShardings(ctx, module, same);
  ASSERT_TRUE(shared.has_value());
  ASSERT_EQ(shared->meshes.size(), 1u);
  EXPECT_EQ(shared->shardings[0].error, "sharding {devices=[2]<=[2]} uses 2 devices but the mesh has 4");

  ListOptions other;
  other.mesh = sdy::parseMesh(ctx, R"(<["y"=2]>)").value();
  auto clash = listShardings(ctx, module, other);
  ASSERT_TRUE(clash.has_value());
  EXPECT_EQ(clash->meshError, "the module already defines a different mesh named 'mesh'");
  EXPECT_EQ(clash->shardings[0].error, "no module mesh: " + clash->meshError);
  EXPECT_TRUE(clash->shardings[1].error.empty());
  ASSERT_EQ(clash->meshes.size(), 1u);
}

}  // namespace
}  // namespace shardbridge::dump
