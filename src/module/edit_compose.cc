// editsCompose (edit_compose.h).
#include "module/edit_compose.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "module/text_lex.h"

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
  // The passes record their edits as a few runs in text order (the
  // shard-map export: the edits outside the manual computations, the
  // lowerings, the outlined bodies at the module's end): the runs are
  // merged, which a sort of the whole list cost several times over.
  std::vector<size_t> runs = {0};
  for (size_t i = 1; i < spans.size(); ++i)
    if (byBegin(spans[i], spans[i - 1])) runs.push_back(i);
  if (runs.size() > 16) {
    std::sort(spans.begin(), spans.end(), byBegin);
    return spans;
  }
  runs.push_back(spans.size());
  while (runs.size() > 2) {
    std::vector<size_t> merged = {0};
    for (size_t r = 0; r + 2 < runs.size(); r += 2) {
      std::inplace_merge(spans.begin() + static_cast<std::ptrdiff_t>(runs[r]),
                         spans.begin() + static_cast<std::ptrdiff_t>(runs[r + 1]),
                         spans.begin() + static_cast<std::ptrdiff_t>(runs[r + 2]), byBegin);
      merged.push_back(runs[r + 2]);
    }
    if (runs.size() % 2 == 0) merged.push_back(runs.back());
    runs = std::move(merged);
  }
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

bool wordsAbsentAfter(std::string_view text, const Rewriter& pending, std::span<const std::string_view> words,
                      bool absentInText) {
  // The edits in the order apply writes them, without those it skips (an
  // edit inside a span an earlier one replaces).
  std::vector<const Rewriter::Edit*> order;
  for (const Rewriter::Edit& e : pending.edits()) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Rewriter::Edit* a, const Rewriter::Edit* b) {
    if (a->span.begin != b->span.begin) return a->span.begin < b->span.begin;
    if (a->span.empty() != b->span.empty()) return a->span.empty();
    return a->seq < b->seq;
  });
  std::vector<const Rewriter::Edit*> kept;
  TextSpan last{0, 0};
  size_t end = 0;
  for (const Rewriter::Edit* e : order) {
    if (!last.empty() && e->span.begin >= last.begin && e->span.end <= last.end &&
        !(e->span.empty() && e->span.begin == last.end))
      continue;
    if (e->span.begin < end) return false;  // apply refuses these
    kept.push_back(e);
    end = e->span.end;
    if (!e->span.empty()) last = e->span;
  }
  size_t reach = 0;
  for (std::string_view w : words) reach = std::max(reach, w.size());
  if (reach == 0) return true;
  // The new text around each run of edits less than `reach` apart, as apply
  // writes it: a word formed there spans an edit's text or a join.
  std::string window;
  for (size_t i = 0; i < kept.size();) {
    size_t b = kept[i]->span.begin;
    size_t pre = std::min(b, reach);
    window.assign(text.substr(b - pre, pre));
    size_t p = b;
    do {
      window.append(text.substr(p, kept[i]->span.begin - p));
      window += kept[i]->text;
      p = kept[i]->span.end;
      ++i;
    } while (i < kept.size() && kept[i]->span.begin < p + reach);
    window.append(text.substr(p, reach));
    for (std::string_view w : words)
      if (!w.empty() && window.find(w) != std::string::npos) return false;
  }
  // An occurrence in `text` is gone when an edit replaces one of its bytes
  // or inserts strictly inside it; the kept edits are sorted and apart, so
  // the last one starting before the occurrence's end tells.
  if (absentInText) return true;
  for (std::string_view w : words) {
    if (w.empty()) continue;
    for (size_t from = 0;;) {
      size_t at = module_lex::find(text.substr(from), w);
      if (at == std::string_view::npos) break;
      at += from;
      auto it = std::lower_bound(kept.begin(), kept.end(), at + w.size(),
                                 [](const Rewriter::Edit* e, size_t v) { return e->span.begin < v; });
      if (it == kept.begin()) return false;
      const TextSpan s = (*std::prev(it))->span;
      bool gone = s.empty() ? s.begin > at : s.end > at;
      if (!gone) return false;
      from = at + 1;
    }
  }
  return true;
}

}  // namespace shardbridge::module
