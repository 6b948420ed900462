#include "module/word_presence.h"

#include <algorithm>
#include <cstdint>
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

namespace {

// Texts this long are searched for all words at once (below it a search per
// word costs less than the tables' setting up), when at least kAllAtOnceWords
// words are looked for: with fewer, mostly long, a search per word skips
// further than one pass whose skips the shortest word bounds (the export's
// five and two: 1.7 % more instructions at once; the imports' sixteen and
// seven: 5.4 % and 3.9 % fewer, docs/performance.md).
constexpr size_t kAllAtOnceFrom = size_t{256} << 10;
constexpr size_t kAllAtOnceWords = 6;

// The first occurrence of each of `words` (each at least two bytes long) in
// `text`, npos when absent, found in one left-to-right pass: Wu and
// Manber's multi-pattern search with two-byte blocks. A window of the
// shortest word's length m slides over the text; the table says, for the
// two bytes ending the window, how far it may move without passing the end
// of any word's first m bytes, so that most positions are skipped as in a
// Horspool search, but for every word at once: a search per word read the
// text once per absent word (a tenth of the round-trip import). Where the
// table says 0 the words whose m-th two bytes those are are compared there.
std::vector<size_t> findEach(std::string_view text, const std::vector<std::string_view>& words) {
  std::vector<size_t> at(words.size(), std::string_view::npos);
  size_t m = SIZE_MAX;
  for (std::string_view w : words) m = std::min(m, w.size());
  if (words.empty() || text.size() < m) return at;
  auto block = [](unsigned char a, unsigned char b) { return static_cast<size_t>(a) << 8 | b; };
  const uint8_t most = static_cast<uint8_t>(std::min<size_t>(m - 1, 255));
  std::vector<uint8_t> shift(size_t{1} << 16, most);
  // The words to compare where the table says 0, by block: the first's
  // index in `first` (-1: none), the next ones chained through `next`.
  std::vector<int16_t> first(size_t{1} << 16, -1);
  std::vector<int16_t> next(words.size(), -1);
  for (size_t i = words.size(); i-- > 0;) {
    std::string_view w = words[i];
    for (size_t q = 2; q <= m; ++q) {
      size_t b = block(static_cast<unsigned char>(w[q - 2]), static_cast<unsigned char>(w[q - 1]));
      shift[b] = static_cast<uint8_t>(std::min<size_t>(shift[b], m - q));
    }
    size_t last = block(static_cast<unsigned char>(w[m - 2]), static_cast<unsigned char>(w[m - 1]));
    next[i] = first[last];
    first[last] = static_cast<int16_t>(i);
  }
  size_t left = words.size();
  const unsigned char* t = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t pos = m - 1; pos < n;) {
    size_t b = block(t[pos - 1], t[pos]);
    if (uint8_t s = shift[b]) {
      pos += s;
      continue;
    }
    size_t start = pos + 1 - m;
    for (int16_t i = first[b]; i >= 0; i = next[static_cast<size_t>(i)]) {
      std::string_view w = words[static_cast<size_t>(i)];
      if (at[static_cast<size_t>(i)] != std::string_view::npos || t[start] != static_cast<unsigned char>(w[0])) continue;
      if (text.substr(start, w.size()) == w) {
        at[static_cast<size_t>(i)] = start;
        if (--left == 0) return at;
      }
    }
    ++pos;
  }
  return at;
}

}  // namespace

void WordPresence::scan(std::string_view text) {
  std::vector<Word*> open;
  for (Word& w : words_)
    if (w.state == State::kUnknown && w.wanted) open.push_back(&w);
  bool shortWord = std::any_of(open.begin(), open.end(), [](const Word* w) { return w->text.size() < 2; });
  // (findEach chains its words by 16-bit index; the prefilters ask a few dozen.)
  if (open.size() >= kAllAtOnceWords && open.size() <= INT16_MAX && !shortWord && text.size() >= kAllAtOnceFrom) {
    std::vector<std::string_view> words;
    for (const Word* w : open) words.push_back(w->text);
    std::vector<size_t> at = findEach(text, words);
    searched_ += text.size();
    for (size_t i = 0; i < open.size(); ++i) {
      open[i]->state = at[i] == std::string_view::npos ? State::kAbsent : State::kPresent;
      if (at[i] != std::string_view::npos) open[i]->at = at[i];
    }
    return;
  }
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

bool WordPresence::knownAbsent(std::string_view word) const {
  auto it = std::lower_bound(words_.begin(), words_.end(), word,
                             [](const Word& w, std::string_view v) { return w.text < v; });
  return it != words_.end() && it->text == word && it->state == State::kAbsent;
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
