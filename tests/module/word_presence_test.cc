// Tests for the prefilters' word tracker (src/module/word_presence.h): every
// answer, after any chain of rewrites and questions, is what a plain search
// of the current text says; and module_lex::find finds the first occurrence.
#include "module/word_presence.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "module/rewriter.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// Words that overlap one another and the fillers, so that rewrites often
// make and break them at the edges of what they write.
const std::vector<std::string_view> kWords = {"ab", "abc", "call @", "xla.sdy.", "zzq", "sdy.manual_computation"};

// Text from tokens, the last of which stands for a long run of filler that
// carries words across the tracker's 64 KiB blocks.
std::string textFrom(const std::vector<int>& tokens, int fillerLength) {
  static const char* kTokens[] = {"a", "b", "c", "call", "@", " ", "xla", ".", "sdy", "zz", "q", "\n",
                                  "sdy.manual_", "computation", "y"};
  std::string s;
  for (int t : tokens) {
    if (t == 15)
      s.append(static_cast<size_t>(fillerLength), 'y');
    else
      s += kTokens[t];
  }
  return s;
}

// Short token lists, so that a word is often absent until a rewrite makes it.
rc::Gen<std::vector<int>> genTokens(int most, int kinds) {
  return rc::gen::mapcat(rc::gen::inRange(0, most + 1), [kinds](int n) {
    return rc::gen::container<std::vector<int>>(static_cast<size_t>(n), rc::gen::inRange(0, kinds));
  });
}

rc::Gen<std::string> genText() { return rc::gen::apply(textFrom, genTokens(24, 16), rc::gen::inRange(60000, 70000)); }

// Plain answers for the words asked in `ask` (a bit per word).
void checkAnswers(WordPresence& presence, std::string_view text, unsigned ask) {
  for (size_t w = 0; w < kWords.size(); ++w) {
    if (!(ask & (1u << w))) continue;
    RC_ASSERT(presence.contains(text, kWords[w]) == module_lex::contains(text, kWords[w]));
  }
}

RC_GTEST_PROP(WordPresence, AnswersEqualPlainSearchAcrossRewrites, ()) {
  std::string text = *genText();
  WordPresence presence(kWords);
  checkAnswers(presence, text, *rc::gen::inRange(0u, 64u));
  const int rounds = *rc::gen::inRange(1, 24);
  for (int r = 0; r < rounds; ++r) {
    // Edits at sorted, distinct positions: replacements, insertions and
    // erasures of a few bytes, their text from the same tokens.
    Rewriter rw(text);
    const int edits = *rc::gen::inRange(0, 24);
    std::vector<size_t> at;
    for (int e = 0; e < edits * 2; ++e) at.push_back(*rc::gen::inRange<size_t>(0, text.size() + 1));
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    for (size_t e = 0; e + 1 < at.size(); e += 2) {
      std::string with = *rc::gen::inRange(0, 3) == 0 ? std::string() : textFrom(*genTokens(3, 15), 0);
      rw.replace({at[e], *rc::gen::element(at[e], at[e + 1])}, with);
    }
    OffsetMap map;
    auto next = rw.apply(&map);
    RC_ASSERT(next.has_value());
    text = std::move(*next);
    presence.rewritten(text, map);
    // Sometimes fewer words are wanted from here on (as a pipeline's later
    // passes ask fewer); every word is still asked below.
    if (*rc::gen::inRange(0, 4) == 0) {
      std::vector<std::string_view> wanted;
      unsigned mask = *rc::gen::inRange(0u, 64u);
      for (size_t w = 0; w < kWords.size(); ++w)
        if (mask & (1u << w)) wanted.push_back(kWords[w]);
      presence.wantOnly(wanted);
    }
    checkAnswers(presence, text, *rc::gen::inRange(0u, 64u));
  }
  checkAnswers(presence, text, 63u);
}

RC_GTEST_PROP(WordPresence, ALargeTextSearchedForEveryWordAtOnceAnswersAsAPlainSearch, ()) {
  // At 256 KiB and more the first question looks for every wanted word in
  // one pass (word_presence.cc findEach): dense tokens, a long filler, and
  // tokens again, for a random set of the words (the shortest decides how
  // far the pass skips). The texts are large: 300 cases of the suite's
  // thousands are enough.
  static int cases = 0;
  if (++cases > 300) return;
  std::string dense;
  const std::string tokens = textFrom(*genTokens(60, 15), 0);
  for (int i = 0; i < 40; ++i) dense += tokens;
  std::string text = dense + std::string(*rc::gen::inRange(262144, 270000), 'y') + textFrom(*genTokens(24, 15), 0);
  // Six words or more are looked for at once: the six, and some of these.
  static const std::vector<std::string_view> kMore = {"computation", "call", "zz", "sdy.sdy", "yq", "q\nab"};
  std::vector<std::string_view> words = kWords;
  for (std::string_view w : kMore)
    if (*rc::gen::arbitrary<bool>()) words.push_back(w);
  WordPresence presence(words);
  std::vector<std::string_view> order = words;
  if (!order.empty()) std::rotate(order.begin(), order.begin() + *rc::gen::inRange<size_t>(0, order.size()), order.end());
  for (std::string_view w : order) RC_ASSERT(presence.contains(text, w) == module_lex::contains(text, w));
}

TEST(WordPresence, FindsWordsAcrossBlockEdgesAndLaterRewrites) {
  // "zzq" starting two bytes before the first block's end, and a word that
  // only a rewrite makes, by erasing what separated its halves.
  std::string text(65534, 'y');
  text += "zzq";
  text += "xla.s|dy.";
  WordPresence presence(kWords);
  EXPECT_TRUE(presence.contains(text, "zzq"));
  EXPECT_FALSE(presence.contains(text, "xla.sdy."));
  EXPECT_FALSE(presence.contains(text, "ab"));
  Rewriter rw(text);
  size_t bar = text.find('|');
  rw.erase({bar, bar + 1});
  OffsetMap map;
  auto next = rw.apply(&map);
  ASSERT_TRUE(next.has_value());
  size_t before = presence.bytesSearched();
  presence.rewritten(*next, map);
  EXPECT_TRUE(presence.contains(*next, "xla.sdy."));
  EXPECT_TRUE(presence.contains(*next, "zzq"));
  EXPECT_FALSE(presence.contains(*next, "ab"));
  // Only the bytes around the erasure were searched again.
  EXPECT_LT(presence.bytesSearched() - before, 1000u);
  // The longest word made by writing its last byte only: the window before
  // written text reaches back exactly far enough.
  std::string longest = std::string(70000, 'y') + "sdy.manual_computatioX";
  WordPresence fresh(kWords);
  EXPECT_FALSE(fresh.contains(longest, "sdy.manual_computation"));
  Rewriter last(longest);
  last.replace({longest.size() - 1, longest.size()}, "n");
  OffsetMap lastMap;
  auto made = last.apply(&lastMap);
  ASSERT_TRUE(made.has_value());
  fresh.rewritten(*made, lastMap);
  EXPECT_TRUE(fresh.contains(*made, "sdy.manual_computation"));
  // A word it was not told of is searched for plainly.
  EXPECT_TRUE(presence.contains(*next, "s|d") == false);
  EXPECT_TRUE(presence.contains(*next, "yzz"));
}

TEST(WordPresence, WordsNoLongerWantedAreNotLookedFor) {
  std::string text(200000, 'y');
  text += "call @f abc";
  WordPresence presence(kWords);
  presence.wantOnly({"ab", "zzq"});
  // The first question scans for the wanted words only: "zzq" (absent) and
  // "ab" (found at the end) cost one pass over the text, not six.
  EXPECT_TRUE(presence.contains(text, "ab"));
  EXPECT_LT(presence.bytesSearched(), text.size() + 4 * 65536);
  EXPECT_FALSE(presence.contains(text, "zzq"));
  // A word not wanted is still answered right, by a plain search.
  EXPECT_TRUE(presence.contains(text, "call @"));
  EXPECT_FALSE(presence.contains(text, "xla.sdy."));
}

RC_GTEST_PROP(TextLex, FindIsTheFirstOccurrence, ()) {
  std::string hay = textFrom(*rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 15)), 0);
  // Long runs of one byte make the rarest-byte search hand over to Horspool.
  hay += std::string(*rc::gen::inRange(0, 3000), *rc::gen::element('a', 'c', 'y'));
  hay += textFrom(*rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 15)), 0);
  std::string needle = textFrom(*rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 15)), 0);
  if (*rc::gen::arbitrary<bool>() && !hay.empty()) {
    size_t a = *rc::gen::inRange<size_t>(0, hay.size());
    needle = hay.substr(a, *rc::gen::inRange<size_t>(1, 30));
  }
  RC_ASSERT(module_lex::find(hay, needle) == std::string_view(hay).find(needle));
}

}  // namespace
}  // namespace shardbridge::module
