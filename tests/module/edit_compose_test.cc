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

RC_GTEST_PROP(EditsCompose, ComposeExactlyWhenNoTwoEditsShareAByte, ()) {
  OpTree tree = emptyTree();
  // Disjoint, non-empty pending edits in random order; own edits anywhere
  // (inserts included).
  std::vector<TextSpan> theirs;
  size_t p = *rc::gen::inRange<size_t>(0, 10);
  int n = *rc::gen::inRange(0, 8);
  for (int i = 0; i < n && p + 1 < kText.size(); ++i) {
    size_t len = *rc::gen::inRange<size_t>(1, 12);
    size_t end = std::min(p + len, kText.size());
    theirs.push_back(span(p, end));
    p = end + *rc::gen::inRange<size_t>(0, 15);
  }
  std::vector<size_t> order(theirs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  order = *rc::gen::element(order, std::vector<size_t>(order.rbegin(), order.rend()));
  Rewriter pending(kText), own(kText);
  for (size_t i : order) pending.replace(theirs[i], "x");
  std::vector<TextSpan> mine;
  int m = *rc::gen::inRange(0, 8);
  for (int i = 0; i < m; ++i) {
    size_t b = *rc::gen::inRange<size_t>(0, kText.size());
    size_t e = std::min(kText.size(), b + *rc::gen::inRange<size_t>(0, 10));
    mine.push_back(span(b, e));
    own.replace(mine.back(), "y");
  }
  // A replaced span shares a byte with a pending one; an insert, when it
  // falls strictly inside one.
  bool overlapPairwise = false;
  for (const TextSpan& a : theirs)
    for (const TextSpan& b : mine)
      overlapPairwise |= b.empty() ? a.begin < b.begin && b.begin < a.end : a.begin < b.end && b.begin < a.end;
  RC_ASSERT(editsCompose(tree, pending, own, {}) == !overlapPairwise);
}

TEST(EditsCompose, PendingInsertsErasuresAndOverlapsAreRefused) {
  OpTree tree = emptyTree();
  Rewriter own(kText);
  {
    Rewriter pending(kText);
    pending.insert(5, "x");
    EXPECT_FALSE(editsCompose(tree, pending, own, {}));
  }
  {
    Rewriter pending(kText);
    pending.erase(span(5, 9));
    EXPECT_FALSE(editsCompose(tree, pending, own, {}));
  }
  {
    Rewriter pending(kText);
    pending.replace(span(5, 9), "x");
    pending.replace(span(8, 12), "y");
    EXPECT_FALSE(editsCompose(tree, pending, own, {}));
  }
  Rewriter pending(kText);
  pending.replace(span(5, 9), "x");
  pending.replace(span(9, 12), "y");  // adjacent pending edits are fine
  EXPECT_TRUE(editsCompose(tree, pending, own, {}));
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
}

}  // namespace
}  // namespace shardbridge::module
