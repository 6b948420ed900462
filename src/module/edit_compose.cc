// editsCompose (edit_compose.h).
#include "module/edit_compose.h"

#include <algorithm>
#include <vector>

namespace shardbridge::module {
namespace {

bool byBegin(const TextSpan& a, const TextSpan& b) { return a.begin < b.begin; }

std::vector<TextSpan> sortedSpans(const Rewriter& rw) {
  std::vector<TextSpan> spans;
  spans.reserve(rw.edits().size());
  for (const Rewriter::Edit& e : rw.edits()) spans.push_back(e.span);
  // The passes record their edits in text order, mostly.
  if (!std::is_sorted(spans.begin(), spans.end(), byBegin)) std::sort(spans.begin(), spans.end(), byBegin);
  return spans;
}

// Whether some span of `a` and some span of `b` share a byte or meet at one
// (closed intervals intersect). A sweep in begin order: a span meets the
// other list when that list's furthest end so far reaches its begin.
bool meet(const std::vector<TextSpan>& a, const std::vector<TextSpan>& b) {
  size_t i = 0, j = 0, endA = 0, endB = 0;
  bool anyA = false, anyB = false;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].begin <= b[j].begin)) {
      if (anyB && endB >= a[i].begin) return true;
      endA = std::max<size_t>(endA, a[i].end);
      anyA = true;
      ++i;
    } else {
      if (anyA && endA >= b[j].begin) return true;
      endB = std::max<size_t>(endB, b[j].end);
      anyB = true;
      ++j;
    }
  }
  return false;
}

}  // namespace

bool editsCompose(const OpTree& tree, const Rewriter& pending, const Rewriter& own, std::span<const int> moved) {
  for (const Rewriter::Edit& e : pending.edits())
    if (e.span.empty() || e.text.empty()) return false;
  std::vector<TextSpan> theirs = sortedSpans(pending);
  for (size_t i = 1; i < theirs.size(); ++i)
    if (theirs[i].begin < theirs[i - 1].end) return false;
  if (meet(theirs, sortedSpans(own))) return false;
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
