// Tests for the op tree's parse on two threads (op_tree.h,
// OpTreeParseOptions; src/module/op_tree_split.cc): the tree, or the error,
// is the one-thread parse's, field for field, whether the second thread's
// part is adopted or not; and it is adopted where it should be.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "export_module_gen.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
namespace {

// Every field of every node, as text, so that two trees compare whole.
std::string splitTestSpan(TextSpan s) { return std::to_string(s.begin) + "-" + std::to_string(s.end); }

std::string splitTestDict(const AttrDictNode& d) {
  std::string out = "{" + splitTestSpan(d.whole);
  for (const AttrEntry& e : d.entries)
    out += " " + splitTestSpan(e.whole) + "/" + splitTestSpan(e.key) + "/" + std::string(e.name) + "/" +
           splitTestSpan(e.value);
  return out + "}";
}

std::string splitTestArgs(const TreeVec<ValueDef>& args) {
  std::string out;
  for (const ValueDef& a : args)
    out += " (" + splitTestSpan(a.name) + " " + std::to_string(a.count) + " " + splitTestSpan(a.type) + " " +
           splitTestDict(a.dict) + " " + splitTestSpan(a.loc) + ")";
  return out;
}

std::string fingerprintTree(const OpTree& t) {
  std::string out;
  for (size_t i = 0; i < t.ops.size(); ++i) {
    const OpNode& n = t.ops[i];
    out += std::to_string(i) + ": " + std::string(n.name) + " " + splitTestSpan(n.whole) + " " +
           splitTestSpan(n.line) + " r" + splitTestSpan(n.results) + " n" + splitTestSpan(n.nameSpan) +
           (n.generic ? " generic" : "") + " s" + splitTestSpan(n.symbol) + ":" + std::string(n.symbolName) +
           " d" + splitTestDict(n.dict) + " #" + std::to_string(n.dictCount) + " p" +
           splitTestSpan(n.properties) + " sig" + splitTestSpan(n.signature) + " loc" + splitTestSpan(n.loc) +
           " parent " + std::to_string(n.parent) + " depth " + std::to_string(n.depth);
    for (const ResultDef& r : n.resultDefs) out += " res" + splitTestSpan(r.name) + "x" + std::to_string(r.count);
    for (const ValueUse& u : n.uses)
      out += " use" + splitTestSpan(u.span) + std::string(u.name) + "#" + std::to_string(u.index);
    for (const Region& r : n.regions) {
      out += " region" + splitTestSpan(r.whole);
      for (const Block& b : r.blocks) {
        out += " block" + splitTestSpan(b.whole) + " label" + splitTestSpan(b.label) + splitTestArgs(b.arguments) +
               " ops";
        for (int op : b.ops) out += " " + std::to_string(op);
      }
    }
    if (n.func) {
      out += " func" + splitTestArgs(n.funcArgs()) + " sig" + splitTestSpan(n.funcSignature()) + " vis" +
             splitTestSpan(n.funcVisibility());
      for (const FuncResult& r : n.funcResults()) out += " result" + splitTestSpan(r.type) + splitTestDict(r.dict);
    }
    out += "\n";
  }
  out += "top";
  for (int op : t.topLevel) out += " " + std::to_string(op);
  out += "\naliases";
  for (TextSpan a : t.aliases) out += " " + splitTestSpan(a);
  return out;
}

// The one-thread parse and the two-thread one (from any size) of `text`,
// as fingerprints or errors; `adopted` tells whether the second thread's
// part was taken.
struct BothParses {
  std::string one, two;
  bool adopted = false;
  size_t parts = 0;  // parts adopted
};

std::string describeParse(const Result<OpTree>& r) {
  if (r.has_value()) return fingerprintTree(*r);
  return "error " + std::to_string(static_cast<int>(r.error().code)) + " at " + std::to_string(r.error().offset) +
         ": " + r.error().message;
}

BothParses parseBothWays(std::string_view text, unsigned threads = 2) {
  BothParses b;
  auto one = parseOpTree(text, OpTreeParseOptions{1, 0});
  auto two = parseOpTree(text, OpTreeParseOptions{threads, 0});
  b.one = describeParse(one);
  b.two = describeParse(two);
  b.parts = two.has_value() && two->arena ? two->arena->adoptedCount() : 0;
  b.adopted = b.parts > 0;
  return b;
}

// `text` parses without error, the same on one thread and on `threads`,
// with `parts` parts adopted.
void expectSameTreeWithParts(std::string_view text, unsigned threads, size_t parts) {
  BothParses b = parseBothWays(text, threads);
  EXPECT_EQ(b.parts, parts) << threads;
  EXPECT_EQ(b.one, b.two) << threads;
  EXPECT_EQ(b.one.rfind("error", 0), std::string::npos) << b.one;
}

// `count` functions in one module, each a few ops with a region.
std::string splitTestModule(int count, std::string_view extra = "") {
  std::string m = "module @m attributes {mhlo.num_partitions = 2 : i32} {\n  sdy.mesh @mesh = <[\"x\"=2]>\n";
  for (int i = 0; i < count; ++i) {
    std::string k = std::to_string(i);
    m += "  func.func @f" + k + "(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<8xf32> {\n"
         "    %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32> loc(#loc1)\n"
         "    %1:2 = \"stablehlo.reduce\"(%0, %0) ({\n"
         "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
         "      stablehlo.return %a, %b : tensor<f32>, tensor<f32>\n"
         "    }) {dimensions = array<i64: 0>} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<f32>, tensor<f32>)\n"
         "    return %0 : tensor<8xf32>\n"
         "  }\n";
    if (i == count / 2) m += extra;
  }
  return m + "}\n#loc1 = loc(\"f.py\":1:2)\n";
}

TEST(OpTreeSplit, ASecondHalfOfFunctionsIsAdoptedAndTheTreeIsTheSame) {
  expectSameTreeWithParts(splitTestModule(40), 2, 1);
}

TEST(OpTreeSplit, ManyPartsChainAndTheTreeIsTheSame) {
  std::string text = splitTestModule(64);
  for (unsigned threads : {3u, 4u, 8u}) expectSameTreeWithParts(text, threads, threads - 1);
  // Parts that meet no function to start at (one function only) leave the
  // parse to the calling thread.
  BothParses single = parseBothWays(splitTestModule(1), 8);
  EXPECT_EQ(single.one, single.two);
}

// A function written with four blanks, so that the first line
// `  func.func ` after a quarter of the text is `hidden` inside it.
std::string splitTestHide(std::string text, std::string_view hidden) {
  size_t quarter = text.find("\n  func.func ", text.size() / 4);
  text.insert(quarter, std::string(hidden));
  return text;
}

// Where a guessed start is no statement of a block at depth 1, that part is
// read by the first thread, and the later parts are still adopted.
// One function of `ops` ops (a module's main often holds half its text).
std::string splitTestBigFunction(int ops) {
  std::string f = "  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n    %v0 = stablehlo.negate %arg0 : tensor<8xf32>\n";
  for (int i = 1; i < ops; ++i)
    f += "    %v" + std::to_string(i) + " = stablehlo.add %v" + std::to_string(i - 1) + ", %arg0 {mhlo.sharding = \"{replicated}\"} : tensor<8xf32>\n";
  return f + "    return %v" + std::to_string(ops - 1) + " : tensor<8xf32>\n  }\n";
}

TEST(OpTreeSplit, PartsInsideOneLargeFunctionAreAdopted) {
  std::string text = "module {\n" + splitTestBigFunction(400) + "}\n";
  for (unsigned threads : {2u, 4u}) expectSameTreeWithParts(text, threads, threads - 1);
}

TEST(OpTreeSplit, APartOfFunctionsEndsBeforeTheFunctionTheNextPartStartsIn) {
  // Small functions first, then a large one: the part that starts at a
  // function stops before the large function, in whose body the next
  // parts start, so that those are adopted too.
  std::string small = splitTestModule(60);
  std::string text = small.substr(0, small.rfind("}\n#loc1")) + splitTestBigFunction(400) + "}\n#loc1 = loc(\"f.py\":1:2)\n";
  expectSameTreeWithParts(text, 4, 3);
}

TEST(OpTreeSplit, AGuessThatIsNoFunctionIsNotAdoptedAndTheLaterPartsAre) {
  std::string text = splitTestModule(64);
  const std::vector<std::string> hidden = {
      // in a dictionary wrapped over lines: the part fails to parse
      "\n    func.func @s() attributes {a = 1,\n  func.func = 2} {\n    return\n  }",
      // a function nested in a function (depth 2): the part parses, but the
      // first thread meets its start at the wrong depth
      "\n    func.func @s() {\n  func.func @t() {\n    return\n  }\n    return\n  }",
  };
  for (const std::string& h : hidden) {
    SCOPED_TRACE(h);
    expectSameTreeWithParts(splitTestHide(text, h), 4, 2);
  }
}

TEST(OpTreeSplit, AGuessInANestedModuleIsNotAdopted) {
  std::string inner = "  module @inner {\n" + std::string(300, ' ') + "\n  func.func @n() {\n    return\n  }\n  }\n";
  expectSameTreeWithParts("module @outer {\n  func.func @a() {\n    return\n  }\n" + inner + "}\n", 2, 0);
}

TEST(OpTreeSplit, AnErrorInEitherHalfIsTheOneThreadError) {
  std::string text = splitTestModule(40);
  for (double at : {0.1, 0.45, 0.55, 0.9}) {
    std::string broken = text;
    size_t p = broken.find("stablehlo.add", static_cast<size_t>(broken.size() * at));
    ASSERT_NE(p, std::string::npos);
    broken.replace(p, 13, "stablehlo.add)");
    BothParses b = parseBothWays(broken);
    EXPECT_EQ(b.one, b.two) << at;
    EXPECT_EQ(b.one.rfind("error", 0), 0u) << at;
  }
  // The module never closed: the second part fails, and so does the first.
  BothParses open = parseBothWays(text.substr(0, text.rfind("}\n#loc1")));
  EXPECT_EQ(open.one, open.two);
  EXPECT_EQ(open.one.rfind("error", 0), 0u);
}

TEST(OpTreeSplit, ALabelInTheSecondHalfIsNotAdopted) {
  expectSameTreeWithParts(splitTestModule(10, "  ^bb1:\n"), 2, 0);
}

TEST(OpTreeSplit, SmallTextsAndOneThreadStayOnTheCallingThread) {
  std::string text = splitTestModule(40);
  auto small = parseOpTree(text, OpTreeParseOptions{2, text.size() + 1});
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->arena->adoptedCount(), 0u);
  auto one = parseOpTree(text, OpTreeParseOptions{1, 0});
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->arena->adoptedCount(), 0u);
}

RC_GTEST_PROP(OpTreeSplit, GeneratedModulesParseTheSameOnTwoThreads, ()) {
  testgen::GenOptions options;
  options.maxFunctions = 6;
  testgen::ModuleGenerator gen([](int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }, options);
  std::string text = gen.generate().text;
  // Now and then a byte changed, so that errors in either half are compared too.
  if (*rc::gen::inRange(0, 3) == 0 && !text.empty()) {
    size_t at = *rc::gen::inRange<size_t>(0, text.size());
    text[at] = *rc::gen::element('}', '{', '"', '(', ')', '%', ' ', '\n', '^');
  }
  unsigned threads = *rc::gen::inRange(2u, 6u);
  BothParses b = parseBothWays(text, threads);
  RC_ASSERT(b.one == b.two);
  RC_TAG(b.adopted ? "adopted" : "not adopted");
}

}  // namespace
}  // namespace shardbridge::module
