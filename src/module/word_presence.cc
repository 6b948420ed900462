#include "module/word_presence.h"

#include <algorithm>
#include <string>
#include <utility>

#include "module/text_lex.h"

namespace shardbridge::module {

namespace {

// A block small enough to stay in the L2 cache while every word is looked
// for in it, so that the text comes from memory once.
constexpr size_t kBlock = size_t{64} << 10;

// Joins the windows of a rewritten text; a word holding it is not tracked.
constexpr char kSeparator = '\0';

}  // namespace

WordPresence::WordPresence(std::vector<std::string_view> words) {
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  for (std::string_view w : words) {
    if (w.empty() || w.find(kSeparator) != std::string_view::npos) continue;
    words_.push_back({w});
    longest_ = std::max(longest_, w.size());
  }
}

void WordPresence::scan(std::string_view text) {
  std::vector<Word*> open;
  for (Word& w : words_)
    if (w.state == State::kUnknown && w.wanted) open.push_back(&w);
  // Each block is searched with the longest word's length less one byte of
  // the next, so that a word across a block boundary is found in the block
  // it starts in.
  for (size_t b = 0; b < text.size() && !open.empty(); b += kBlock) {
    std::string_view block = text.substr(b, kBlock + longest_ - 1);
    searched_ += block.size();
    for (size_t i = 0; i < open.size();) {
      size_t at = module_lex::find(block, open[i]->text);
      // Only a start inside this block counts (a later block sees the rest).
      if (at != std::string_view::npos && at < kBlock) {
        open[i]->state = State::kPresent;
        open[i]->at = b + at;
        open[i] = open.back();
        open.pop_back();
      } else {
        ++i;
      }
    }
  }
  for (Word* w : open) w->state = State::kAbsent;
}

bool WordPresence::contains(std::string_view text, std::string_view word) {
  auto it = std::lower_bound(words_.begin(), words_.end(), word,
                             [](const Word& w, std::string_view v) { return w.text < v; });
  if (it == words_.end() || it->text != word || (!it->wanted && it->state == State::kUnknown)) {
    searched_ += text.size();
    return module_lex::contains(text, word);
  }
  if (it->state == State::kUnknown) scan(text);
  return it->state == State::kPresent;
}

void WordPresence::wantOnly(const std::vector<std::string_view>& words) {
  for (Word& w : words_) {
    w.wanted = std::find(words.begin(), words.end(), w.text) != words.end();
    if (!w.wanted) w.state = State::kUnknown;
  }
}

void WordPresence::rewritten(std::string_view next, const OffsetMap& map) {
  const std::vector<OffsetMap::Piece>& pieces = map.pieces();
  // A word found before stays found when its bytes were copied whole: the
  // copied pieces come in the old text's order, so one walk serves all.
  std::vector<Word*> present;
  for (Word& w : words_)
    if (w.state == State::kPresent) present.push_back(&w);
  std::sort(present.begin(), present.end(), [](const Word* a, const Word* b) { return a->at < b->at; });
  size_t pi = 0;
  for (Word* w : present) {
    while (pi < pieces.size() &&
           (!pieces[pi].copied || pieces[pi].oldBegin + (pieces[pi].newEnd - pieces[pi].newBegin) <= w->at))
      ++pi;
    const OffsetMap::Piece* p = pi < pieces.size() ? &pieces[pi] : nullptr;
    if (p && p->oldBegin <= w->at && w->at + w->text.size() <= p->oldBegin + (p->newEnd - p->newBegin)) {
      w->at = p->newBegin + (w->at - p->oldBegin);
    } else {
      w->state = State::kUnknown;  // looked for again if asked
    }
  }
  // A word absent before can only start within longest_ - 1 bytes before
  // written text or before the meeting of two pieces, or in written text:
  // those windows of the new text are searched, merged where they touch.
  bool anyAbsent = std::any_of(words_.begin(), words_.end(), [](const Word& w) { return w.state == State::kAbsent; });
  if (!anyAbsent) return;
  const size_t reach = longest_ - 1;
  struct Window {
    size_t begin, end;
  };
  std::vector<Window> windows;
  size_t windowBytes = 0;
  auto add = [&](size_t begin, size_t end) {
    begin = begin > reach ? begin - reach : 0;
    end = std::min(next.size(), end + reach);
    if (begin >= end) return;
    if (!windows.empty() && begin <= windows.back().end) {
      windowBytes += end > windows.back().end ? end - windows.back().end : 0;
      windows.back().end = std::max<size_t>(windows.back().end, end);
      return;
    }
    windows.push_back({begin, end});
    windowBytes += end - begin;
  };
  for (size_t i = 0; i < pieces.size(); ++i) {
    const OffsetMap::Piece& p = pieces[i];
    if (!p.copied) {
      add(p.newBegin, p.newEnd);
    } else if (i > 0 && pieces[i - 1].copied) {
      add(p.newBegin, p.newBegin);  // an erasure: two copied pieces meet
    }
    // Windows that cover much of the text are not worth a copy: a later
    // question scans the text instead.
    if (windowBytes > next.size() / 8) {
      for (Word& w : words_)
        if (w.state == State::kAbsent) w.state = State::kUnknown;
      return;
    }
  }
  // The windows joined by a byte no tracked word holds, so that one search
  // per word covers them all and a match never spans two windows.
  std::string joined;
  joined.reserve(windowBytes + windows.size());
  std::vector<std::pair<size_t, size_t>> starts;  // (offset in joined, offset in next)
  for (const Window& w : windows) {
    starts.push_back({joined.size(), w.begin});
    joined.append(next.substr(w.begin, w.end - w.begin));
    joined.push_back(kSeparator);
  }
  for (Word& w : words_) {
    if (w.state != State::kAbsent) continue;
    searched_ += joined.size();
    size_t at = module_lex::find(joined, w.text);
    if (at == std::string_view::npos) continue;
    auto s = std::upper_bound(starts.begin(), starts.end(), at,
                              [](size_t v, const std::pair<size_t, size_t>& e) { return v < e.first; });
    --s;
    w.state = State::kPresent;
    w.at = s->second + (at - s->first);
  }
}

}  // namespace shardbridge::module
