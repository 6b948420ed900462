// Tests for parseOpTree (op_tree.h): the structure read from MLIR text in the
// forms MLIR's printer writes (custom and generic ops, regions, blocks,
// `loc(...)` tails, aliases, several modules) and the located errors.
#include "shardbridge/module/op_tree.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace shardbridge::module {
namespace {

OpTree parseOk(std::string_view text) {
  auto r = parseOpTree(text);
  EXPECT_TRUE(r.has_value()) << (r.has_value() ? "" : r.error().message + " at " + std::to_string(r.error().offset));
  return r.has_value() ? std::move(*r) : OpTree{};
}

int findOp(const OpTree& t, std::string_view name, int nth = 0) {
  for (int i = 0; i < static_cast<int>(t.ops.size()); ++i)
    if (t.ops[i].name == name && nth-- == 0) return i;
  return -1;
}

constexpr std::string_view kModule = R"(module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<16x32xf32>) -> (tensor<16x32xf32> {jax.result_info = "r"}) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<16x32xf32> loc(#loc3)
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<8x32xf32>) {
      %2 = stablehlo.multiply %arg2, %arg2 : tensor<8x32xf32>
      sdy.return %2 : tensor<8x32xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
}
#loc3 = loc("x.py":1:2)
)";

TEST(OpTree, ModuleFunctionsOpsAndRegions) {
  OpTree t = parseOk(kModule);
  ASSERT_EQ(t.modules().size(), 1u);
  const OpNode& m = t.ops[t.modules()[0]];
  EXPECT_EQ(m.symbolName, "jit_f");
  ASSERT_TRUE(m.dict.present());
  EXPECT_EQ(m.dict.entries.at(0).name, "mhlo.num_partitions");
  EXPECT_EQ(m.dict.entries.at(0).value.in(t.text), "8 : i32");
  ASSERT_EQ(m.regions.size(), 1u);
  ASSERT_EQ(t.bodyOps(t.modules()[0])->size(), 2u);  // sdy.mesh, func.func

  int mesh = findOp(t, "sdy.mesh");
  ASSERT_GE(mesh, 0);
  EXPECT_EQ(t.ops[mesh].symbolName, "mesh");
  EXPECT_EQ(t.lookupSymbol(t.modules()[0], "mesh"), mesh);

  int f = findOp(t, "func.func");
  const OpNode& func = t.ops[f];
  EXPECT_EQ(func.symbolName, "main");
  EXPECT_EQ(func.funcVisibility().in(t.text), "public");
  ASSERT_EQ(func.funcArgs().size(), 2u);
  EXPECT_EQ(func.funcArgs()[0].name.in(t.text), "%arg0");
  EXPECT_EQ(func.funcArgs()[0].type.in(t.text), "tensor<16x32xf32>");
  EXPECT_TRUE(func.funcArgs()[0].dict.find("sdy.sharding"));
  EXPECT_FALSE(func.funcArgs()[1].dict.present());
  ASSERT_EQ(func.funcResults().size(), 1u);
  EXPECT_EQ(func.funcResults()[0].dict.find("jax.result_info")->value.in(t.text), "\"r\"");
  ASSERT_EQ(func.regions.size(), 1u);
  EXPECT_EQ(func.regions[0].blocks.at(0).arguments.size(), 2u);
  EXPECT_EQ(func.regions[0].blocks[0].ops.size(), 3u);

  int add = findOp(t, "stablehlo.add");
  const OpNode& a = t.ops[add];
  EXPECT_EQ(a.results.in(t.text), "%0");
  ASSERT_EQ(a.uses.size(), 2u);
  EXPECT_EQ(a.uses[1].name, "%arg1");
  EXPECT_TRUE(a.dict.find("sdy.sharding"));
  EXPECT_EQ(a.signature.in(t.text), ": tensor<16x32xf32>");
  EXPECT_EQ(a.loc.in(t.text), "loc(#loc3)");
  EXPECT_EQ(a.parent, f);
  EXPECT_EQ(t.enclosingFunc(add), f);
  // The op alone on its line: `line` covers the indentation and the newline.
  EXPECT_EQ(a.line.in(t.text).front(), ' ');
  EXPECT_EQ(a.line.in(t.text).back(), '\n');

  int mc = findOp(t, "sdy.manual_computation");
  const OpNode& man = t.ops[mc];
  EXPECT_EQ(man.uses.size(), 1u);  // %0; %arg2 is the body's argument
  ASSERT_EQ(man.regions.size(), 1u);
  ASSERT_EQ(man.regions[0].blocks.at(0).arguments.size(), 1u);
  EXPECT_EQ(man.regions[0].blocks[0].arguments[0].name.in(t.text), "%arg2");
  EXPECT_EQ(man.regions[0].blocks[0].ops.size(), 2u);
  EXPECT_EQ(man.signature.in(t.text), ": (tensor<16x32xf32>) -> tensor<16x32xf32>");
  EXPECT_EQ(t.ops[findOp(t, "sdy.return")].parent, mc);
  EXPECT_EQ(t.ops[findOp(t, "stablehlo.multiply")].depth, 3);

  ASSERT_EQ(t.aliases.size(), 1u);
  EXPECT_EQ(t.aliases[0].in(t.text), "#loc3 = loc(\"x.py\":1:2)");
}

TEST(OpTree, GenericFormWithRegionsPropertiesAndBlocks) {
  constexpr std::string_view text = R"(func.func @f(%arg0: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce"(%arg0, %c) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%1) : (tensor<f32>) -> ()
  }) {mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)";
  OpTree t = parseOk(text);
  EXPECT_TRUE(t.modules().empty());
  ASSERT_EQ(t.topLevel.size(), 1u);
  int r = findOp(t, "stablehlo.reduce");
  const OpNode& red = t.ops[r];
  EXPECT_TRUE(red.generic);
  EXPECT_EQ(red.nameSpan.in(text), "\"stablehlo.reduce\"");
  EXPECT_EQ(red.properties.in(text), "<{dimensions = array<i64: 1>}>");
  EXPECT_EQ(red.uses.size(), 2u);
  ASSERT_EQ(red.regions.size(), 1u);
  ASSERT_EQ(red.regions[0].blocks.size(), 1u);
  EXPECT_EQ(red.regions[0].blocks[0].arguments.size(), 2u);
  EXPECT_EQ(red.regions[0].blocks[0].label.in(text).substr(0, 4), "^bb0");
  EXPECT_EQ(red.dict.find("mhlo.sharding")->value.in(text), "\"{replicated}\"");
  EXPECT_EQ(red.signature.in(text), ": (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>");
  EXPECT_EQ(t.ops[findOp(t, "stablehlo.return")].parent, r);
}

TEST(OpTree, WhileContinuesOnTheNextLine) {
  constexpr std::string_view text = R"(func.func @w(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
   cond {
    %1 = stablehlo.compare  LT, %iterArg, %iterArg : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}
)";
  OpTree t = parseOk(text);
  int w = findOp(t, "stablehlo.while");
  ASSERT_GE(w, 0);
  EXPECT_EQ(t.ops[w].regions.size(), 2u);
  ASSERT_EQ(t.ops[w].uses.size(), 1u);
  EXPECT_EQ(t.ops[w].uses[0].name, "%arg0");
  EXPECT_EQ(t.ops[w].regions[0].blocks[0].arguments.at(0).name.in(text), "%iterArg");
  EXPECT_EQ(t.ops[findOp(t, "return")].parent, findOp(t, "func.func"));
}

// After a line that a region's `}` ends, the op's keywords still continue
// it on the next line (`do {`, a `loc(...)`); any other word starts the
// next statement, and an unknown one is refused as an op name instead of
// being taken into the op before it (mlir_import_fuzz).
TEST(OpTree, AfterARegionOnlyTheOpsKeywordsContinueIt) {
  constexpr std::string_view text = R"(func.func @w(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
   cond {
    stablehlo.return %iterArg : tensor<i1>
  }
  do {
    stablehlo.return %iterArg : tensor<i32>
  }
  loc("w")
  return %0 : tensor<i32>
}
)";
  OpTree t = parseOk(text);
  int w = findOp(t, "stablehlo.while");
  ASSERT_GE(w, 0);
  EXPECT_EQ(t.ops[w].regions.size(), 2u);
  EXPECT_EQ(t.ops[w].loc.in(text), "loc(\"w\")");
  const std::string stray = "func.func @f() {\n  return\n}\nfuncpublic .fnu @g() {\n}\n";
  auto r = parseOpTree(stray);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().offset, stray.find("funcpublic"));
  EXPECT_EQ(r.error().message,
            "expected an operation name (`dialect.op`, or return, call, module, ...), got 'funcpublic'");
}

// Before its body a module holds its name and `attributes {...}` only: a
// misspelt keyword used to make its dictionary read as its body
// (mlir_import_fuzz; import-shardings then wrote the sdy.mesh into it).
TEST(OpTree, AModuleHeaderHoldsOnlyItsNameAndAttributes) {
  for (const std::string text : {"module @m attribute {a = 1} {\n}\n", "module attribute {a = 1} {\n}\n",
                                 "builtin.module @m x {\n}\n"}) {
    auto r = parseOpTree(text);
    ASSERT_FALSE(r.has_value()) << text;
    size_t word = text.find(text.find("attribute") != std::string::npos ? "attribute" : " x") +
                  (text.find("attribute") != std::string::npos ? 0 : 1);
    EXPECT_EQ(r.error().offset, word) << text;
    EXPECT_TRUE(r.error().message.starts_with("expected 'attributes' or the body '{' of 'module', got '"))
        << r.error().message;
  }
  // What a module may hold, and words after its body and in the generic form.
  for (const std::string text : {"module @m attributes {a = 1} {\n}\n", "module {\n} loc(\"x\")\n",
                                 "\"builtin.module\"() ({\n}) : () -> ()\n"}) {
    auto r = parseOpTree(text);
    EXPECT_TRUE(r.has_value()) << text << ": " << r.error().message;
  }
}

// After its signature a func.func holds only `attributes {...}`, its body
// and a location (or, a declaration, nothing): other text was read as part
// of the op, and the shard-map import inlined a body made of it
// (mlir_import_fuzz).
TEST(OpTree, AFunctionHeaderEndsAtItsSignature) {
  const std::string junk = "func.func private @f(%a: tensor<4xf32>) !!-> (tensor<4xf32>) {\n  return %a : tensor<4xf32>\n}\n";
  auto r = parseOpTree(junk);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().offset, junk.find("!!"));
  EXPECT_EQ(r.error().message,
            "expected '->', 'attributes' or the body '{' after the arguments of func.func, got '!'");
  const std::string word = "func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>) x {\n}\n";
  auto after = parseOpTree(word);
  ASSERT_FALSE(after.has_value());
  EXPECT_EQ(after.error().offset, word.find(" x ") + 1);
  // What a header may end with: a body, attributes (on the next line too),
  // results on the next line, a location, or nothing (a declaration, then
  // the next op or the end of the module).
  for (const std::string text : {
           "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n",
           "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32>\n    attributes {x = 1} {\n  return %a : tensor<4xf32>\n}\n",
           "func.func @f(%a: tensor<4xf32>)\n    -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n",
           "func.func @f(%a: tensor<4xf32>) { // a comment\n  return\n}\n",
           "module {\n  func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> loc(\"g\")\n  func.func private "
           "@h()\n}\n",
       }) {
    auto ok = parseOpTree(text);
    EXPECT_TRUE(ok.has_value()) << text << ": " << ok.error().message;
  }
}

// A dictionary wrapped after its '{' (hand-written lit tests such as
// upstream sdy_round_trip_import_shardy_attrs.mlir) is the op's dictionary;
// the regions that follow on the next lines are still regions.
TEST(OpTree, WrappedDictionaryIsNotARegion) {
  constexpr std::string_view text = R"(module @m attributes {mhlo.frontend_attributes = {
    xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2]>}"}} {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @foo(%arg0) {
      has_side_effect = true,
      mhlo.sharding = "{replicated}"
    } : (tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.reduce"(%0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %a : tensor<f32>
    }) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
)";
  OpTree t = parseOk(text);
  int m = findOp(t, "module");
  ASSERT_GE(m, 0);
  ASSERT_NE(t.ops[m].dict.find("mhlo.frontend_attributes"), nullptr);
  int c = findOp(t, "stablehlo.custom_call");
  ASSERT_GE(c, 0);
  EXPECT_TRUE(t.ops[c].regions.empty());
  ASSERT_EQ(t.ops[c].dict.entries.size(), 2u);
  EXPECT_EQ(t.ops[c].dict.find("mhlo.sharding")->value.in(text), "\"{replicated}\"");
  EXPECT_EQ(t.ops[c].signature.in(text), ": (tensor<8xf32>) -> tensor<8xf32>");
  int r = findOp(t, "stablehlo.reduce");
  ASSERT_EQ(t.ops[r].regions.size(), 1u);
  EXPECT_EQ(t.ops[findOp(t, "stablehlo.return")].parent, r);
  EXPECT_EQ(t.ops[findOp(t, "func.func")].regions.size(), 1u);
}

TEST(OpTree, SeveralModulesEachWithItsSymbols) {
  constexpr std::string_view text =
      "module @a {\n  sdy.mesh @mesh = <[\"x\"=2]>\n}\nmodule @b {\n  sdy.mesh @mesh = <[\"x\"=4]>\n}\n";
  OpTree t = parseOk(text);
  ASSERT_EQ(t.modules().size(), 2u);
  int m1 = t.lookupSymbol(t.modules()[0], "mesh");
  int m2 = t.lookupSymbol(t.modules()[1], "mesh");
  ASSERT_GE(m1, 0);
  ASSERT_GE(m2, 0);
  EXPECT_NE(m1, m2);
  EXPECT_EQ(t.enclosingModule(m2), t.modules()[1]);
}

TEST(OpTree, ResultGroupsAndIndexedUses) {
  constexpr std::string_view text =
      "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0:2 = stablehlo.custom_call @foo(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
      "  return %0#1 : tensor<2xf32>\n}\n";
  OpTree t = parseOk(text);
  const OpNode& call = t.ops[findOp(t, "stablehlo.custom_call")];
  ASSERT_EQ(call.resultDefs.size(), 1u);
  EXPECT_EQ(call.resultDefs[0].count, 2);
  EXPECT_EQ(call.symbol.in(text), "@foo");
  const OpNode& ret = t.ops[findOp(t, "return")];
  ASSERT_EQ(ret.uses.size(), 1u);
  EXPECT_EQ(ret.uses[0].name, "%0");
  EXPECT_EQ(ret.uses[0].index, 1);
  EXPECT_EQ(ret.uses[0].span.in(text), "%0#1");
}

struct BadCase {
  std::string text;
  std::string message;
  size_t offset;
};

TEST(OpTree, ErrorsAreLocated) {
  const BadCase cases[] = {
      {std::string("ML\xefR\x00\x01", 6),
       "MLIR bytecode is not supported: convert it to text with mlir-opt or stablehlo-translate first", 0},
      {"module {\n  func.func @f() {\n", "unexpected end of input: the region opened here is not closed", 26},
      {"module {\n}\n}\n", "unbalanced '}'", 11},
      {"func.func @f() {\n  %0 = \n}\n", "expected an operation name, got '}'", 25},
      {"%0 stablehlo.add\n", "expected '=' after the op results, got 's'", 3},
      {"func.func @f(%a tensor<f32>) {\n}\n", "expected ':' after argument name, got 't'", 16},
      {"%0 = foo.bar \"abc\n", "unterminated string literal", 13},
      // An undotted name MLIR does not know: after another op the line would
      // continue that op (a mesh inserted before it swallowed it: mlir_import_fuzz).
      {"module {\n  fun#.func @main() {\n  }\n}\n",
       "expected an operation name (`dialect.op`, or return, call, module, ...), got 'fun'", 11},
      {"%0 = add %a, %b : f32\n", "expected an operation name (`dialect.op`, or return, call, module, ...), got 'add'",
       5},
      // A module's brace without `attributes` opens its body, never a
      // dictionary, however its first line looks (mlir_import_fuzz).
      {"module {\n  func=func @main() {\n  }\n}\n",
       "expected an operation name (`dialect.op`, or return, call, module, ...), got 'func'", 11},
      {"func., @main() {\n}\n", "expected an operation name (`dialect.op`, or return, call, module, ...), got 'func.'",
       0},
      {"%0 = stablehlo..add %a : f32\n",
       "expected an operation name (`dialect.op`, or return, call, module, ...), got 'stablehlo..add'", 5},
  };
  for (const BadCase& c : cases) {
    auto r = parseOpTree(c.text);
    ASSERT_FALSE(r.has_value()) << c.text;
    EXPECT_EQ(r.error().message, c.message) << c.text;
    EXPECT_EQ(r.error().offset, c.offset) << c.text;
  }
}

TEST(OpTree, DeepNestingIsAnErrorNotACrash) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "\"a.b\"() ({\n";
  auto r = parseOpTree(text);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "operations nested deeper than 256 levels");
}

// The byte-level cases of the op loop (docs/performance.md, "The op-tree
// parser"): comments between and after tokens, `loc(...)` ending a
// signature, `->` and `<=` that open nothing, escaped quotes, one space or
// several or tabs between tokens, CRLF line ends, a bracket pair holding a
// string, and the statement after comment lines found where the op ended.
TEST(OpTree, TokensBlanksAndCommentsKeepTheirSpans) {
  const std::string text =
      "func.func @f(%a: tensor<2xf32> loc(\"a\":1:2), %b: tensor<2xf32>) -> tensor<2xf32> {\r\n"
      "  %0 = stablehlo.add %a,  %b\t{x = \"q\\\"}\", y = #a.b<c <= d>} : tensor<2xf32> loc(#l1) // add\n"
      "  // a comment line\n"
      "\n"
      "  %1 = \"d.op\"(%0) <{p = [1, 2]}> : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  %2 = d.cmp %1 : (tensor<2xf32>) -> tensor<i1> attributes {k = 1}\n"
      "  return %0 : tensor<2xf32>\n"
      "}\n";
  OpTree t = parseOk(text);
  ASSERT_EQ(t.ops.size(), 5u);
  const OpNode& f = t.ops[0];
  ASSERT_EQ(f.funcArgs().size(), 2u);
  EXPECT_EQ(f.funcArgs()[0].type.in(text), "tensor<2xf32>");
  EXPECT_EQ(f.funcArgs()[0].loc.in(text), "loc(\"a\":1:2)");
  EXPECT_EQ(f.funcSignature().in(text).substr(0, 61), "(%a: tensor<2xf32> loc(\"a\":1:2), %b: tensor<2xf32>) -> tensor");
  ASSERT_EQ(f.funcResults().size(), 1u);
  EXPECT_EQ(f.funcResults()[0].type.in(text), "tensor<2xf32>");

  const OpNode& add = t.ops[1];
  EXPECT_EQ(add.whole.in(text),
            "%0 = stablehlo.add %a,  %b\t{x = \"q\\\"}\", y = #a.b<c <= d>} : tensor<2xf32> loc(#l1)");
  ASSERT_EQ(add.uses.size(), 2u);
  EXPECT_EQ(add.uses[1].span.in(text), "%b");
  ASSERT_EQ(add.dict.entries.size(), 2u);
  EXPECT_EQ(add.dict.entries[0].value.in(text), "\"q\\\"}\"");
  EXPECT_EQ(add.dict.entries[1].value.in(text), "#a.b<c <= d>");
  EXPECT_EQ(add.signature.in(text), ": tensor<2xf32>");
  EXPECT_EQ(add.loc.in(text), "loc(#l1)");
  EXPECT_EQ(add.line.in(text), add.whole.in(text));  // a trailing comment keeps its line

  const OpNode& gen = t.ops[2];
  EXPECT_TRUE(gen.generic);
  EXPECT_EQ(gen.whole.begin, text.find("%1 = "));
  EXPECT_EQ(gen.properties.in(text), "<{p = [1, 2]}>");
  EXPECT_EQ(gen.signature.in(text), ": (tensor<2xf32>) -> tensor<2xf32>");
  EXPECT_EQ(gen.line.in(text), "  " + std::string(gen.whole.in(text)) + "\n");

  const OpNode& cmp = t.ops[3];
  EXPECT_EQ(cmp.signature.in(text), ": (tensor<2xf32>) -> tensor<i1>");
  EXPECT_EQ(cmp.dict.whole.in(text), "{k = 1}");
  EXPECT_EQ(t.ops[4].name, "return");
  ASSERT_EQ(f.regions.at(0).blocks.at(0).ops.size(), 4u);
}

TEST(OpTree, EmptyAndBlankTexts) {
  EXPECT_TRUE(parseOk("").ops.empty());
  EXPECT_TRUE(parseOk("  // only a comment").ops.empty());
  // Many lines and one op: the room the parser sets aside for ops follows
  // the lines but is capped by the size, and the tree is the same.
  std::string text(200000, '\n');
  text += "%0 = a.b : i32\n";
  OpTree t = parseOk(text);
  ASSERT_EQ(t.ops.size(), 1u);
  EXPECT_EQ(t.ops[0].whole.begin, 200000u);
  EXPECT_EQ(t.ops[0].signature.in(text), ": i32");
}

// Spans hold 32-bit offsets, so a text over kMaxTreeText bytes is refused
// before any byte past its first four is read (the view's length is all
// that is looked at, so a small buffer stands in for 4 GiB).
TEST(OpTree, TextOverTheSpanLimitIsRefused) {
  const char buffer[] = "module {}";
  Result<OpTree> t = parseOpTree(std::string_view(buffer, kMaxTreeText + 1));
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(t.error().message.find("over the op tree's limit of 4294967295 bytes"), std::string::npos)
      << t.error().message;
  static_assert(sizeof(TextSpan) == 8, "spans are two 32-bit offsets");
}

// Property: the blanks written between the tokens of a line (one space,
// several, tabs) change the spans but not what is read: the same ops,
// names, uses, dictionary entries and (blanks aside) signatures. The op
// loop takes one space on a path of its own and longer runs on another.
RC_GTEST_PROP(OpTree, BlanksBetweenTokensDoNotChangeTheTree, ()) {
  const std::vector<std::vector<std::string>> lines = {
      {"%0", "=", "stablehlo.add", "%arg0", ",", "%arg1", "{sdy.sharding", "=",
       "#sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>}", ":", "tensor<16x32xf32>"},
      {"%1", "=", "stablehlo.dot_general", "%0", ",", "%arg1", ",", "contracting_dims", "=", "[1]", "x", "[0]", ":",
       "(tensor<16x32xf32>,", "tensor<32x8xf32>)", "->", "tensor<16x8xf32>", "loc(\"f.py\":3:4)"},
      {"%2:2", "=", "\"d.op\"(%1#0,", "%1)", "<{p", "=", "1}>", ":", "(tensor<16x8xf32>)", "->", "(i32,", "i32)"},
      {"return", "%2#1", ":", "i32"},
  };
  auto blank = [] { return *rc::gen::element<std::string>(" ", "  ", "\t", " \t ", "    "); };
  auto build = [&](bool random) {
    std::string text = "func.func @f(%arg0: tensor<16x32xf32>, %arg1: tensor<32x8xf32>) -> i32 {\n";
    for (const auto& line : lines) {
      text += "  ";
      for (size_t i = 0; i < line.size(); ++i) text += (i ? (random ? blank() : std::string(" ")) : "") + line[i];
      text += "\n";
    }
    return text + "}\n";
  };
  auto squeeze = [](std::string_view s) {
    std::string out;
    for (char c : s)
      if (c != ' ' && c != '\t') out += c;
    return out;
  };
  const std::string plain = build(false), spaced = build(true);
  auto a = parseOpTree(plain), b = parseOpTree(spaced);
  RC_ASSERT(a.has_value());
  RC_ASSERT(b.has_value());
  RC_ASSERT(a->ops.size() == b->ops.size());
  for (size_t i = 0; i < a->ops.size(); ++i) {
    const OpNode &x = a->ops[i], &y = b->ops[i];
    RC_ASSERT(x.name == y.name);
    RC_ASSERT(x.parent == y.parent);
    RC_ASSERT(x.uses.size() == y.uses.size());
    for (size_t u = 0; u < x.uses.size(); ++u) {
      RC_ASSERT(x.uses[u].name == y.uses[u].name);
      RC_ASSERT(x.uses[u].index == y.uses[u].index);
    }
    RC_ASSERT(x.dict.entries.size() == y.dict.entries.size());
    for (size_t e = 0; e < x.dict.entries.size(); ++e) {
      RC_ASSERT(x.dict.entries[e].name == y.dict.entries[e].name);
      RC_ASSERT(x.dict.entries[e].value.in(plain) == y.dict.entries[e].value.in(spaced));
    }
    RC_ASSERT(squeeze(x.signature.in(plain)) == squeeze(y.signature.in(spaced)));
    RC_ASSERT(x.loc.in(plain) == y.loc.in(spaced));
    RC_ASSERT(squeeze(x.properties.in(plain)) == squeeze(y.properties.in(spaced)));
    // Each op still ends at its last token, not at the blanks after it.
    RC_ASSERT(y.whole.end == 0 || (spaced[y.whole.end - 1] != ' ' && spaced[y.whole.end - 1] != '\t'));
  }
  RC_ASSERT(squeeze(a->ops[2].signature.in(plain)) == ":(tensor<16x32xf32>,tensor<32x8xf32>)->tensor<16x8xf32>");
}

}  // namespace
}  // namespace shardbridge::module
