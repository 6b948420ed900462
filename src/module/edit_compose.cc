// editsCompose (edit_compose.h).
#include "module/edit_compose.h"

#include <algorithm>
#include <vector>

namespace shardbridge::module {
namespace {

// In begin order, an insert (an empty span) before a span starting at the
// same byte: it shares no byte with it.
bool byBegin(const TextSpan& a, const TextSpan& b) {
  return a.begin != b.begin ? a.begin < b.begin : a.empty() && !b.empty();
}

std::vector<TextSpan> sortedSpans(const Rewriter& rw) {
  std::vector<TextSpan> spans;
  spans.reserve(rw.edits().size());
  for (const Rewriter::Edit& e : rw.edits()) spans.push_back(e.span);
  // The passes record their edits in text order, mostly.
  if (!std::is_sorted(spans.begin(), spans.end(), byBegin)) std::sort(spans.begin(), spans.end(), byBegin);
  return spans;
}

// Whether a span of `a` and a span of `b` share a byte, an insert of one
// falls strictly inside a span of the other, or both insert at one offset
// (which of the two texts comes first would depend on the pass order).
// Edits that only meet (one ends where the other starts, an insert at
// either end of a replaced span) apply in one rewrite as in two. A sweep in
// begin order (inserts first at an offset): a span overlaps the other list
// when that list's furthest end so far lies past its begin, or when both
// last inserted at its begin.
bool overlap(const std::vector<TextSpan>& a, const std::vector<TextSpan>& b) {
  size_t i = 0, j = 0, endA = 0, endB = 0;
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t insertA = kNone, insertB = kNone;
  auto visit = [](const TextSpan& s, size_t& end, size_t& insert, size_t otherEnd, size_t otherInsert) {
    if (otherEnd > s.begin || (s.empty() && otherInsert == s.begin)) return true;
    end = std::max<size_t>(end, s.end);
    if (s.empty()) insert = s.begin;
    return false;
  };
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && !byBegin(b[j], a[i]))) {
      if (visit(a[i++], endA, insertA, endB, insertB)) return true;
    } else {
      if (visit(b[j++], endB, insertB, endA, insertA)) return true;
    }
  }
  return false;
}

}  // namespace

bool editsCompose(const OpTree& tree, const Rewriter& pending, const Rewriter& own, std::span<const int> moved) {
  std::vector<TextSpan> theirs = sortedSpans(pending);
  if (!moved.empty()) {
    for (const Rewriter::Edit& e : pending.edits())
      if (e.span.empty() || e.text.empty()) return false;
    for (size_t i = 1; i < theirs.size(); ++i)
      if (theirs[i].begin < theirs[i - 1].end) return false;
  }
  if (overlap(theirs, sortedSpans(own))) return false;
  for (int index : moved) {
    const OpNode& op = tree.ops[static_cast<size_t>(index)];
    TextSpan line = op.line;
    // The first pending edit ending after the line starts (disjoint and
    // sorted, their ends are in order too).
    auto it = std::lower_bound(theirs.begin(), theirs.end(), line.begin,
                               [](const TextSpan& e, size_t v) { return e.end <= v; });
    if (it == theirs.end() || it->begin >= line.end) continue;
    if (op.regions.empty() || op.regions[0].blocks.empty() || op.regions[0].blocks[0].ops.size() < 2) return false;
    const Block& body = op.regions[0].blocks[0];
    const OpNode& first = tree.ops[static_cast<size_t>(body.ops.front())];
    const OpNode& ret = tree.ops[static_cast<size_t>(body.ops.back())];
    for (; it != theirs.end() && it->begin < line.end; ++it)
      if (it->begin < first.whole.begin || it->end > ret.line.begin) return false;
  }
  return true;
}

}  // namespace shardbridge::module
