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

TEST(ListingTest, ErrorsAreLocatedOrUnsupported) {
  sdy::Context ctx;
  auto mlir = listShardings(ctx, "module {\n}\n");
  ASSERT_FALSE(mlir.has_value());
  EXPECT_EQ(mlir.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(mlir.error().message, "MLIR input is not supported by list yet");

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
        "\"mesh\": \"#sdy.mesh<[], device_ids=[0]>\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  }
}

}  // namespace
}  // namespace shardbridge::dump
