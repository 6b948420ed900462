// Tests for the rewriter (src/module/rewriter.h): splicing, offset maps,
// dictionary edits in MLIR's sorted-key places, fresh value names.
#include "module/rewriter.h"

#include <gtest/gtest.h>

#include <string>

namespace shardbridge::module {
namespace {

TEST(Rewriter, SplicesAndKeepsOtherBytes) {
  std::string text = "abcdefgh";
  Rewriter rw(text);
  rw.replace({1, 3}, "XY Z");
  rw.insert(5, "+");
  rw.erase({6, 7});
  OffsetMap map;
  auto out = rw.apply(&map);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, "aXY Zde+fh");
  EXPECT_EQ(map.toOld(0), 0u);  // 'a'
  EXPECT_EQ(map.toOld(2), 1u);  // inside the replacement: its start
  EXPECT_EQ(map.toOld(5), 3u);  // 'd'
  EXPECT_EQ(map.toOld(9), 7u);  // 'h'
}

TEST(Rewriter, ContainedEditsAreDroppedOverlapsAreErrors) {
  std::string text = "0123456789";
  Rewriter rw(text);
  rw.erase({2, 8});
  rw.replace({3, 4}, "x");  // inside the erased span
  auto out = rw.apply();
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, "0189");
  Rewriter bad(text);
  bad.replace({2, 5}, "a");
  bad.replace({4, 7}, "b");
  auto err = bad.apply();
  ASSERT_FALSE(err.has_value());
  EXPECT_EQ(err.error().code, ErrorCode::kInternal);
  EXPECT_EQ(err.error().message, "overlapping rewrites at byte 4");
}

// The output is reserved at its exact size, which the same walk over the
// edits gives (a dropped contained edit's text not counted), so no more is
// held than the text needs; an edit past the end of the text is an error,
// not a read out of bounds.
TEST(Rewriter, TheOutputHoldsExactlyItsSize) {
  std::string text(200, 'a');
  Rewriter rw(text);
  rw.replace({10, 20}, std::string(50, 'b'));
  rw.erase({30, 90});
  rw.replace({40, 41}, std::string(1000, 'c'));  // inside the erased span: dropped
  rw.insert(100, std::string(30, 'd'));
  auto out = rw.apply();
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->size(), 200u - 10 + 50 - 60 + 30);
  EXPECT_EQ(out->capacity(), out->size());
  EXPECT_EQ(*out, std::string(10, 'a') + std::string(50, 'b') + std::string(10, 'a') + std::string(10, 'a') +
                      std::string(30, 'd') + std::string(100, 'a'));
  Rewriter past(text);
  past.replace({190, 210}, "x");
  auto err = past.apply();
  ASSERT_FALSE(err.has_value());
  EXPECT_EQ(err.error().code, ErrorCode::kInternal);
}

// take() moves a whole-text replacement's text out (a conversion's output
// is as large as the module) and gives the offset map apply gives; any other
// set of edits is applied.
TEST(Rewriter, TakeMovesAWholeReplacementOutWithApplysMap) {
  std::string text = "0123456789";
  auto same = [&](Rewriter make) {
    OffsetMap a, b;
    auto applied = make.apply(&a);
    auto taken = make.take(&b);
    ASSERT_TRUE(applied.has_value() && taken.has_value());
    EXPECT_EQ(*applied, *taken);
    ASSERT_EQ(a.pieces().size(), b.pieces().size());
    for (size_t i = 0; i < a.pieces().size(); ++i) {
      EXPECT_EQ(a.pieces()[i].newBegin, b.pieces()[i].newBegin);
      EXPECT_EQ(a.pieces()[i].newEnd, b.pieces()[i].newEnd);
      EXPECT_EQ(a.pieces()[i].oldBegin, b.pieces()[i].oldBegin);
      EXPECT_EQ(a.pieces()[i].copied, b.pieces()[i].copied);
    }
  };
  Rewriter whole(text);
  whole.replace({0, 10}, std::string(40, 'w'));
  same(whole);
  Rewriter emptied(text);
  emptied.replace({0, 10}, "");
  same(emptied);
  Rewriter moved(text);
  moved.insertFrom(0, "x", 3);
  same(moved);
  Rewriter part(text);
  part.replace({0, 9}, "p");
  same(part);
  Rewriter inner(text);
  inner.replace({1, 9}, "i");
  same(inner);
  Rewriter two(text);
  two.replace({0, 3}, "a");
  two.replace({5, 6}, "b");
  same(two);
  // The text itself is moved, not copied.
  Rewriter big(text);
  std::string out(1 << 20, 'o');
  const char* data = out.data();
  big.replace({0, 10}, std::move(out));
  auto taken = big.take();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->data(), data);
}

TEST(DictEditor, NewKeysGoToTheirSortedPlace) {
  std::string text = "{a = 1, mhlo.frontend_attributes = {}, z = 2}";
  AttrDictNode d;
  d.whole = {0, text.size()};
  d.entries = {{{1, 6}, {1, 2}, "a", {5, 6}},
               {{8, 37}, {8, 32}, "mhlo.frontend_attributes", {35, 37}},
               {{39, 44}, {39, 40}, "z", {43, 44}}};
  DictEditor ed(text, d);
  ed.set("sdy.sharding", "#s");
  ed.set("b", "");
  ed.set("z", "3");
  ed.remove("a");
  EXPECT_EQ(ed.render(), "{b, mhlo.frontend_attributes = {}, sdy.sharding = #s, z = 3}");
  DictEditor quoted(text, d);
  quoted.set("my key", "1");
  // Sorted by the key itself, quotes aside (MLIR's DictionaryAttr order).
  EXPECT_EQ(quoted.render(), "{a = 1, mhlo.frontend_attributes = {}, \"my key\" = 1, z = 2}");
}

TEST(DictEditor, AnEmptiedDictionaryGoesWithItsBlank) {
  std::string text = "op {a = 1} : t";
  AttrDictNode d;
  d.whole = {3, 10};
  d.entries = {{{4, 9}, {4, 5}, "a", {8, 9}}};
  DictEditor ed(text, d);
  ed.remove("a");
  Rewriter rw(text);
  ed.commit(rw, 0);
  EXPECT_EQ(*rw.apply(), "op : t");
}

TEST(FreshNames, NeverCollide) {
  auto tree = parseOpTree("func.func @f(%x: tensor<f32>) -> tensor<f32> {\n  %x_0 = stablehlo.add %x, %x : tensor<f32>\n  return %x_0 : tensor<f32>\n}\n");
  ASSERT_TRUE(tree.has_value());
  FreshNames names(*tree);
  EXPECT_EQ(names.next("x", 1), "%x_1");
  EXPECT_EQ(names.next("x", 1), "%x_2");
  EXPECT_EQ(names.next("y", 1), "%y");
  EXPECT_EQ(names.next("y", 0), "%y_0");
}

// Names are scoped per function: another function's names neither block a
// name nor advance its suffix (docs/module.md "Large modules in parts").
TEST(FreshNames, ScopedPerFunction) {
  auto tree = parseOpTree(
      "module {\n"
      "  func.func @f(%x: tensor<f32>) -> tensor<f32> {\n    %y = stablehlo.add %x, %x : tensor<f32>\n    return %y : tensor<f32>\n  }\n"
      "  func.func @g(%a: tensor<f32>) -> tensor<f32> {\n    %y_0 = stablehlo.add %a, %a : tensor<f32>\n    return %y_0 : tensor<f32>\n  }\n"
      "}\n");
  ASSERT_TRUE(tree.has_value());
  int f = -1, g = -1, addInG = -1;
  for (int i = 0; i < static_cast<int>(tree->ops.size()); ++i) {
    if (tree->ops[i].symbolName == "f") f = i;
    if (tree->ops[i].symbolName == "g") g = i;
    if (g >= 0 && tree->ops[i].name == "stablehlo.add") addInG = i;
  }
  ASSERT_GE(f, 0);
  ASSERT_GT(addInG, g);
  FreshNames names(*tree);
  EXPECT_EQ(names.next("y", f), "%y_0");      // %y is f's
  EXPECT_EQ(names.next("y", addInG), "%y");   // g has %y_0 only; f's names are not g's
  EXPECT_EQ(names.next("y", g), "%y_1");
  EXPECT_EQ(names.next("x", addInG), "%x");   // %x is an argument of f, not of g
  names.reserve("%z", f);
  EXPECT_EQ(names.next("z", f), "%z_0");
  EXPECT_EQ(names.next("z", g), "%z");
  EXPECT_EQ(names.next("m", -1), "%m");       // outside every function
}

}  // namespace
}  // namespace shardbridge::module
