// Tests for editsCompose (src/module/edit_compose.h): the sweep that tells
// whether two passes' edits overlap, against the pairwise test, and what it
// refuses of the edits left unapplied.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "module/edit_compose.h"
#include "module/rewriter.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
namespace {

const std::string kText(200, ' ');

OpTree emptyTree() {
  auto tree = parseOpTree(kText);
  EXPECT_TRUE(tree.has_value());
  return std::move(*tree);
}

TextSpan span(size_t b, size_t e) { return {static_cast<uint32_t>(b), static_cast<uint32_t>(e)}; }

// Random edits of both passes, inserts and overlapping pending edits
// included (no op moved), against the pairwise rule.
RC_GTEST_PROP(EditsCompose, ComposeExactlyWhenNoTwoEditsOverlap, ()) {
  OpTree tree = emptyTree();
  Rewriter pending(kText), own(kText);
  auto edits = [&](Rewriter& rw) {
    std::vector<TextSpan> spans;
    int n = *rc::gen::inRange(0, 8);
    for (int i = 0; i < n; ++i) {
      size_t b = *rc::gen::inRange<size_t>(0, 60);
      size_t e = std::min<size_t>(60, b + *rc::gen::inRange<size_t>(0, 8));
      spans.push_back(span(b, e));
      rw.replace(spans.back(), "x");
    }
    return spans;
  };
  std::vector<TextSpan> theirs = edits(pending), mine = edits(own);
  auto overlapPair = [](const TextSpan& a, const TextSpan& b) {
    if (a.empty() && b.empty()) return a.begin == b.begin;
    if (a.empty()) return b.begin < a.begin && a.begin < b.end;
    if (b.empty()) return a.begin < b.begin && b.begin < a.end;
    return a.begin < b.end && b.begin < a.end;
  };
  bool overlapPairwise = false;
  for (const TextSpan& a : theirs)
    for (const TextSpan& b : mine) overlapPairwise |= overlapPair(a, b);
  RC_ASSERT(editsCompose(tree, pending, own, {}) == !overlapPairwise);
}

// With an op moved, the pending edits must replace text by text, apart.
TEST(EditsCompose, WithAnOpMovedPendingInsertsErasuresAndOverlapsAreRefused) {
  const std::string text =
      "func.func @f() -> tensor<i32> {\n  %0 = stablehlo.constant dense<1> : tensor<i32>\n  return %0 : tensor<i32>\n}\n" +
      std::string(100, ' ');
  auto tree = parseOpTree(text);
  ASSERT_TRUE(tree.has_value());
  const std::vector<int> moved = {0};  // the function: its block holds two ops
  size_t far = text.size() - 50;       // beyond the function
  Rewriter own(text);
  auto composes = [&](auto&& fill) {
    Rewriter pending(text);
    fill(pending);
    return editsCompose(*tree, pending, own, moved);
  };
  EXPECT_FALSE(composes([&](Rewriter& p) { p.insert(far, "x"); }));
  EXPECT_FALSE(composes([&](Rewriter& p) { p.erase(span(far, far + 4)); }));
  EXPECT_FALSE(composes([&](Rewriter& p) {
    p.replace(span(far, far + 4), "x");
    p.replace(span(far + 3, far + 6), "y");
  }));
  EXPECT_TRUE(composes([&](Rewriter& p) {
    p.replace(span(far, far + 4), "x");
    p.replace(span(far + 4, far + 6), "y");  // adjacent pending edits are fine
  }));
  // Inside the moved function's body: its constant's name, not its header.
  size_t name = text.find("stablehlo.constant");
  EXPECT_TRUE(composes([&](Rewriter& p) { p.replace(span(name, name + 18), "sdy.constant"); }));
  EXPECT_FALSE(composes([&](Rewriter& p) { p.replace(span(10, 11), "g"); }));
  // Without the op moved, all of these compose.
  Rewriter pending(text);
  pending.insert(far, "x");
  pending.erase(span(far + 2, far + 4));
  EXPECT_TRUE(editsCompose(*tree, pending, own, {}));
}

// Edits that only meet apply in one rewrite as in two: an insert at either
// end of a replaced span, a replacement right after it.
TEST(EditsCompose, EditsThatOnlyMeetApplyAsInTwoSteps) {
  OpTree tree = emptyTree();
  const std::string text = "0123456789";
  Rewriter pending(text);
  pending.replace(span(3, 6), "abc");
  Rewriter own(text);
  own.insert(3, "<");
  own.insert(6, ">");
  own.replace(span(6, 8), "Z");
  ASSERT_TRUE(editsCompose(tree, pending, own, {}));
  Rewriter both(text);
  for (const Rewriter::Edit& e : own.edits()) both.add(e);
  for (const Rewriter::Edit& e : pending.edits()) both.add(e);
  // Two steps: "012abc6789", then the same edits at the new offsets.
  EXPECT_EQ(*both.apply(), "012<abc>Z89");
  Rewriter inside(text);
  inside.insert(4, "!");
  EXPECT_FALSE(editsCompose(tree, pending, inside, {}));
  // Two inserts at one offset: which comes first depends on the order.
  Rewriter inserts(text), atOnce(text);
  inserts.insert(8, "a");
  atOnce.insert(8, "b");
  EXPECT_FALSE(editsCompose(tree, inserts, atOnce, {}));
}

// wordsAbsentAfter against applying the edits and searching the result:
// texts and edits over a three-letter alphabet, so that words form across
// edits, joins and nested or adjacent edits.
RC_GTEST_PROP(EditsCompose, WordsAbsentAfterIsTheSearchOfTheRewrittenText, ()) {
  auto letters = [](size_t max) {
    std::string s;
    size_t n = *rc::gen::inRange<size_t>(0, max + 1);
    for (size_t i = 0; i < n; ++i) s += "ab "[*rc::gen::inRange(0, 3)];
    return s;
  };
  const std::string text = letters(40);
  Rewriter pending(text);
  int n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) {
    size_t b = *rc::gen::inRange<size_t>(0, text.size() + 1);
    size_t e = std::min(text.size(), b + *rc::gen::inRange<size_t>(0, 6));
    pending.replace(span(b, e), letters(4));
  }
  std::vector<std::string> owned = {letters(3), letters(3)};
  std::vector<std::string_view> words;
  for (const std::string& w : owned)
    if (!w.empty()) words.push_back(w);
  auto rewritten = pending.apply();
  bool absent = wordsAbsentAfter(text, pending, words);
  if (!rewritten) {
    RC_ASSERT(!absent);  // overlapping edits: never passed over
    return;
  }
  bool found = false;
  for (std::string_view w : words) found |= rewritten->find(w) != std::string::npos;
  RC_ASSERT(absent == !found);
  // Told that the words are absent from the text (the driver knows it from
  // its prefilters' answers), it searches only around the edits, and
  // answers the same.
  bool inText = false;
  for (std::string_view w : words) inText |= text.find(w) != std::string::npos;
  if (!inText) RC_ASSERT(wordsAbsentAfter(text, pending, words, /*absentInText=*/true) == absent);
}

// A word formed by two adjacent edits' texts is found.
TEST(EditsCompose, AWordAcrossTwoAdjacentEditsIsFound) {
  const std::string text(30, ' ');
  Rewriter pending(text);
  pending.replace(span(10, 20), "xxpriv");
  pending.replace(span(20, 25), "atexx");
  const std::vector<std::string_view> words = {"private"};
  EXPECT_FALSE(wordsAbsentAfter(text, pending, words));
  Rewriter apart(text);
  apart.replace(span(10, 12), "priv");
  apart.replace(span(13, 15), "ate");
  EXPECT_TRUE(wordsAbsentAfter(text, apart, words));
}

}  // namespace
}  // namespace shardbridge::module
