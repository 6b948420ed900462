// Tests for the HLO module dump scanner (hlo/dump.h). Inputs follow XLA's
// HLO printer (HloModule/HloComputation/HloInstruction::ToString, as seen in
// upstream test strings such as xla/service/spmd/*_test.cc): `%` names and
// operand shapes in older dumps, bare names in newer ones.
#include "shardbridge/hlo/dump.h"

#include <gtest/gtest.h>

#include <string>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/hlo/text.h"

namespace shardbridge::hlo {
namespace {

constexpr std::string_view kModule =
    "HloModule jit_f, entry_computation_layout={(f32[8,16]{1,0})->(f32[8,16]{1,0}, f32[])}, "
    "num_partitions=8\n"
    "\n"
    "%region_0.4 (Arg_0.5: f32[], Arg_1.6: f32[]) -> f32[] {\n"
    "  %Arg_0.5 = f32[] parameter(0)\n"
    "  %Arg_1.6 = f32[] parameter(1)\n"
    "  ROOT %add.7 = f32[] add(f32[] %Arg_0.5, f32[] %Arg_1.6), sharding={replicated}\n"
    "}\n"
    "\n"
    "ENTRY %main.10 (Arg_0.1: f32[8,16]) -> (f32[8,16], f32[]) {\n"
    "  %Arg_0.1 = f32[8,16]{1,0} parameter(0), sharding={devices=[2,4]<=[8]}, "
    "metadata={op_name=\"x\"}\n"
    "  %constant.2 = f32[] constant(0)\n"
    "  %reduce.8 = f32[] reduce(f32[8,16]{1,0} %Arg_0.1, f32[] %constant.2), dimensions={0,1}, "
    "to_apply=%region_0.4\n"
    "  ROOT %tuple.9 = (f32[8,16]{1,0}, f32[]) tuple(f32[8,16]{1,0} %Arg_0.1, f32[] %reduce.8), "
    "sharding={{devices=[2,1,4]<=[8] last_tile_dim_replicate}, {maximal device=0}}\n"
    "}\n";

TEST(HloDumpTest, FindsEveryShardingWithItsPlace) {
  auto dump = scanHloDump(kModule);
  ASSERT_TRUE(dump.has_value()) << dump.error().message;
  EXPECT_EQ(dump->moduleName, "jit_f");
  ASSERT_EQ(dump->shardings.size(), 3u);

  const DumpSharding& add = dump->shardings[0];
  EXPECT_EQ(add.computation, "%region_0.4");
  EXPECT_FALSE(add.entry);
  EXPECT_EQ(add.instruction, "%add.7");
  EXPECT_EQ(add.opcode, "add");
  EXPECT_TRUE(add.root);
  EXPECT_EQ(add.shapeText, "f32[]");
  ASSERT_TRUE(add.shape.has_value());
  EXPECT_EQ(add.shape->rank(), 0);
  EXPECT_EQ(add.sharding.toString(), "{replicated}");

  const DumpSharding& p0 = dump->shardings[1];
  EXPECT_EQ(p0.computation, "%main.10");
  EXPECT_TRUE(p0.entry);
  EXPECT_EQ(p0.instruction, "%Arg_0.1");
  EXPECT_EQ(p0.opcode, "parameter");
  EXPECT_EQ(p0.parameterNumber, 0);
  EXPECT_FALSE(p0.root);
  EXPECT_EQ(p0.shapeText, "f32[8,16]{1,0}");
  EXPECT_EQ(p0.sharding.toString(), "{devices=[2,4]<=[8]}");
  EXPECT_EQ(kModule.substr(p0.offset, p0.length), "{devices=[2,4]<=[8]}");
  LineCol lc = lineColAt(kModule, p0.offset);
  EXPECT_EQ(p0.line, lc.line);
  EXPECT_EQ(p0.column, lc.column);
  EXPECT_EQ(p0.line, 10u);
  EXPECT_EQ(p0.column, 52u);

  const DumpSharding& root = dump->shardings[2];
  EXPECT_TRUE(root.root);
  EXPECT_EQ(root.opcode, "tuple");
  EXPECT_FALSE(root.parameterNumber.has_value());
  ASSERT_TRUE(root.shape.has_value());
  EXPECT_EQ(root.shape->leafCount(), 2);
  EXPECT_TRUE(root.sharding.isTuple());
  EXPECT_EQ(root.sharding.toString(),
            "{{devices=[2,1,4]<=[8] last_tile_dim_replicate}, {maximal device=0}}");
}

// Newer dumps drop `%` and operand shapes; upstream test strings also omit
// the signature (`ENTRY main {`) and the header, and end with `} // main`.
TEST(HloDumpTest, AcceptsBareNamesAndNoSignature) {
  constexpr std::string_view text =
      "ENTRY main.12 {\n"
      "  Arg_0.1 = bf16[2,16,48]{2,1,0} parameter(0), sharding={devices=[1,4,1]<=[4]}\n"
      "  dot.5 = bf16[2,16,192]{2,1,0} dot(Arg_0.1, Arg_0.1), lhs_contracting_dims={2}, "
      "rhs_contracting_dims={0}\n"
      "  ROOT custom-call.7 = bf16[2,16,192]{2,1,0} custom-call(dot.5), "
      "custom_call_target=\"Sharding\", sharding={devices=[1,1,4]<=[4]}\n"
      "} // main.12\n";
  auto dump = scanHloDump(text);
  ASSERT_TRUE(dump.has_value()) << dump.error().message;
  EXPECT_EQ(dump->moduleName, "");
  ASSERT_EQ(dump->shardings.size(), 2u);
  EXPECT_EQ(dump->shardings[0].computation, "main.12");
  EXPECT_EQ(dump->shardings[0].instruction, "Arg_0.1");
  EXPECT_EQ(dump->shardings[1].instruction, "custom-call.7");
  EXPECT_EQ(dump->shardings[1].opcode, "custom-call");
  EXPECT_TRUE(dump->shardings[1].root);
  EXPECT_TRUE(looksLikeHloDump(text));
}

TEST(HloDumpTest, IgnoresShardingTextInStringsCommentsAndOtherAttributes) {
  constexpr std::string_view text =
      "HloModule m\n"
      "// sharding={devices=[2]0,1}\n"
      "ENTRY %e (p: f32[4]) -> f32[4] {\n"
      "  /* sharding={maximal device=1} */\n"
      "  %p = f32[4]{0} parameter(0), metadata={op_name=\"a sharding={replicated} \\\"q\\\"\"}, "
      "frontend_attributes={xla.sdy.sharding=\"#sdy.sharding<@mesh, [{\\\"x\\\"}]>\", "
      "mhlo.sharding=\"{devices=[2]0,1}\"}\n"
      "  ROOT %c = f32[4]{0} custom-call(f32[4]{0} %p), custom_call_target=\"x\", "
      "backend_config={\"sharding\": \"{devices=[2]0,1}\"}, sharding={manual}\n"
      "}\n";
  auto dump = scanHloDump(text);
  ASSERT_TRUE(dump.has_value()) << dump.error().message;
  ASSERT_EQ(dump->shardings.size(), 1u);
  EXPECT_EQ(dump->shardings[0].instruction, "%c");
  EXPECT_EQ(dump->shardings[0].sharding.toString(), "{manual}");
}

TEST(HloDumpTest, LayoutsConstantsAndIotaReplicaGroupsAreSkipped) {
  constexpr std::string_view text =
      "HloModule m, entry_computation_layout={(f32[8,128]{1,0:T(8,128)})->f32[8,128]{1,0}}\n"
      "ENTRY %e (p: f32[8,128]) -> f32[8,128]{1,0} {\n"
      "  %p = f32[8,128]{1,0:T(8,128)} parameter(0), sharding={devices=[2,1]<=[2]}\n"
      "  %k = s32[3]{0} constant({1, 2, 3}), sharding={replicated}\n"
      "  ROOT %ar = f32[8,128]{1,0} all-reduce(%p), channel_id=1, replica_groups=[1,2]<=[2], "
      "use_global_device_ids=true, to_apply=%add, sharding={devices=[2,1]<=[2]}\n"
      "}\n";
  auto dump = scanHloDump(text);
  ASSERT_TRUE(dump.has_value()) << dump.error().message;
  ASSERT_EQ(dump->shardings.size(), 3u);
  EXPECT_EQ(dump->shardings[0].shapeText, "f32[8,128]{1,0:T(8,128)}");
  EXPECT_EQ(dump->shardings[1].opcode, "constant");
  EXPECT_EQ(dump->shardings[2].instruction, "%ar");
}

TEST(HloDumpTest, ShapeOfUnknownElementTypeLeavesShapeEmpty) {
  auto dump = scanHloDump("ENTRY e {\n  p = weird8[4]{0} parameter(0), sharding={replicated}\n}\n");
  ASSERT_TRUE(dump.has_value()) << dump.error().message;
  ASSERT_EQ(dump->shardings.size(), 1u);
  EXPECT_EQ(dump->shardings[0].shapeText, "weird8[4]{0}");
  EXPECT_FALSE(dump->shardings[0].shape.has_value());
}

TEST(HloDumpTest, MalformedShardingIsLocatedInTheFile) {
  constexpr std::string_view text =
      "HloModule m\n"
      "ENTRY %e (p: f32[4]) -> f32[4] {\n"
      "  ROOT %p = f32[4]{0} parameter(0), sharding={devices=[2]0,1,2}\n"
      "}\n";
  auto dump = scanHloDump(text);
  ASSERT_FALSE(dump.has_value());
  const Error& e = dump.error();
  ASSERT_TRUE(e.hasOffset());
  size_t start = text.find("{devices");
  EXPECT_GE(e.offset, start);
  EXPECT_LT(e.offset, text.find("}\n", start) + 1);
  EXPECT_EQ(lineColAt(text, e.offset).line, 3u);
  // The same error parseSharding gives, shifted to the sharding's place.
  auto alone = parseSharding("{devices=[2]0,1,2}");
  ASSERT_FALSE(alone.has_value());
  EXPECT_EQ(e.message, alone.error().message);
  EXPECT_EQ(e.offset, start + alone.error().offset);
}

struct BadRow {
  std::string text;
  std::string message;  // a prefix of the error message
  size_t offset;
};

TEST(HloDumpTest, RejectsMalformedDumpsWithLocatedErrors) {
  const BadRow rows[] = {
      // Cut off inside the body: the `{` that is never closed.
      {"HloModule m\nENTRY %e {\n  %p = f32[] parameter(0)\n",
       "unexpected end of input: computation %e is not closed", 21},
      // Cut off inside a sharding: the `{` that is never closed.
      {"ENTRY e {\n  p = f32[] parameter(0), sharding={devices=[2]0,1\n",
       "unexpected end of input: '{' is not closed", 45},
      {"ENTRY e {\n  p = f32[] parameter(0), sharding=\n}\n",
       "expected '{' to start the sharding, got '}'", 46},
      {"ENTRY e {\n  p f32[] parameter(0)\n}\n", "expected '=' after instruction p", 14},
      {"ENTRY e {\n  p = parameter(0)\n}\n", "expected the shape of p", 16},
      {"ENTRY e {\n  p = f32[] (0)\n}\n", "expected an opcode", 22},
      {"ENTRY e {\n  p = f32[] parameter, sharding={replicated}\n}\n",
       "expected '(' after opcode parameter", 31},
      {"ENTRY e {\n  p = f32[] add(a], b)\n}\n", "expected ')', got ']'", 27},
      {"ENTRY e {\n  p = f32[] parameter(0), metadata={op_name=\"x}\n}\n",
       "unterminated string", 54},
      {"ENTRY e {\n  p = f32[] parameter(0) /* open\n}\n", "unterminated comment", 35},
      {"HloModule m\nENTRY\n", "expected a computation, got end of input", 18},
      {"HloModule\n", "expected a module name, got end of input", 10},
      {"HloModule m, x=\n", "expected a value after 'x=', got end of input", 16},
      {"HloModule m\n}\n", "expected a computation, got '}'", 12},
      {"ENTRY e (p: f32[4] -> f32[4] {\n}\n", "unexpected end of input: '(' is not closed", 8},
  };
  for (const BadRow& row : rows) {
    auto dump = scanHloDump(row.text);
    ASSERT_FALSE(dump.has_value()) << row.text;
    EXPECT_EQ(dump.error().code, ErrorCode::kParse) << row.text;
    EXPECT_EQ(dump.error().message.substr(0, row.message.size()), row.message)
        << row.text << "\n  got: " << dump.error().message;
    EXPECT_EQ(dump.error().offset, row.offset) << row.text << "\n  " << dump.error().message;
  }
}

TEST(HloDumpTest, DeepNestingIsBoundedNotRecursive) {
  std::string deep = "ENTRY e {\n  p = f32[] custom-call(" + std::string(100000, '(') + ")\n}\n";
  auto dump = scanHloDump(deep);
  ASSERT_FALSE(dump.has_value());
  EXPECT_EQ(dump.error().message, "brackets nested deeper than 256");

  std::string ok = "ENTRY e {\n  p = f32[] custom-call(" + std::string(200, '(') +
                   std::string(200, ')') + "), sharding={replicated}\n}\n";
  auto fine = scanHloDump(ok);
  ASSERT_TRUE(fine.has_value()) << fine.error().message;
  EXPECT_EQ(fine->shardings.size(), 1u);
}

TEST(HloDumpTest, EmptyAndHeaderOnlyModulesHaveNoShardings) {
  for (std::string_view text : {"", "HloModule m\n", "HloModule m, is_scheduled=true\n\n"}) {
    auto dump = scanHloDump(text);
    ASSERT_TRUE(dump.has_value()) << text;
    EXPECT_TRUE(dump->shardings.empty());
  }
}

TEST(HloDumpTest, LooksLikeHloDump) {
  EXPECT_TRUE(looksLikeHloDump("HloModule m\n"));
  EXPECT_TRUE(looksLikeHloDump("// c\n/* d */ HloModule m, x=1\n"));
  EXPECT_TRUE(looksLikeHloDump("ENTRY %main {\n}"));
  EXPECT_FALSE(looksLikeHloDump("HloModulex"));
  EXPECT_FALSE(looksLikeHloDump("{replicated}"));
  EXPECT_FALSE(looksLikeHloDump("type: MAXIMAL"));
  EXPECT_FALSE(looksLikeHloDump("module {\n}"));
}

TEST(HloDumpTest, ShardingsOnManyLinesKeepCorrectLineNumbers) {
  std::string text = "HloModule m\nENTRY e {\n";
  for (int i = 0; i < 50; ++i) {
    text += "  p" + std::to_string(i) + " = f32[2]{0} parameter(" + std::to_string(i) +
            "), sharding={replicated}\n";
  }
  text += "}\n";
  auto dump = scanHloDump(text);
  ASSERT_TRUE(dump.has_value()) << dump.error().message;
  ASSERT_EQ(dump->shardings.size(), 50u);
  for (size_t i = 0; i < 50; ++i) {
    LineCol lc = lineColAt(text, dump->shardings[i].offset);
    EXPECT_EQ(dump->shardings[i].line, lc.line);
    EXPECT_EQ(dump->shardings[i].column, lc.column);
    EXPECT_EQ(dump->shardings[i].parameterNumber, static_cast<int64_t>(i));
  }
}

}  // namespace
}  // namespace shardbridge::hlo
