// Which of a few words a module's text holds, for the passes' prefilters
// (pipelines.cc, pass_prefilters.h), answered across the texts a pipeline
// writes without reading each whole text once per word.
//
// A pipeline's prefilters ask up to twenty words of each text a pass leaves
// behind, and most words are absent, which costs a search of the whole text
// each: about a tenth of an import (docs/performance.md "The prefilters'
// words, memos and needless sorts"). Here the first question about a text
// finds every word a later step may ask (wantOnly) at once, block by block,
// so the text is read from memory once rather than once per word. When a
// pass then rewrites the text, an answer carries over where the rewrite
// cannot have changed it: a word found in bytes the rewrite copied is still
// there, and a word absent before can only appear where the rewrite wrote or
// joined text, so only those bytes are searched.
//
// Every answer equals module_lex::contains(text, word) on the current text
// (tests/module/word_presence_test.cc checks that against random rewrites).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "module/rewriter.h"

namespace shardbridge::module {

class WordPresence {
 public:
  // `words`: those later questions may ask (others are answered by a plain
  // search). Their storage must outlive this object.
  explicit WordPresence(std::vector<std::string_view> words);

  // Whether `word` occurs in `text`, which is the text given to the last
  // rewritten() (or any text before the first).
  bool contains(std::string_view text, std::string_view word);

  // The text was rewritten: `next` is the new text, made from the previous
  // one as `map` says (Rewriter::apply).
  void rewritten(std::string_view next, const OffsetMap& map);

  // Only `words` (of those given at construction) may be asked from now on:
  // the others are no longer looked for or carried (a pipeline's later
  // passes ask fewer words). Asking another is still answered, by a plain
  // search.
  void wantOnly(const std::vector<std::string_view>& words);

  // Whether `word` is known to be absent from the current text without a
  // search (a tracked word an earlier question found absent).
  bool knownAbsent(std::string_view word) const;
  // How many bytes were searched so far, for the benches and tests.
  size_t bytesSearched() const { return searched_; }

 private:
  enum class State { kUnknown, kAbsent, kPresent };
  struct Word {
    std::string_view text;
    State state = State::kUnknown;
    size_t at = 0;  // the occurrence found, when kPresent
    bool wanted = true;
  };
  // Finds every word whose state is unknown in `text`.
  void scan(std::string_view text);
  std::vector<Word> words_;
  size_t longest_ = 0;
  size_t searched_ = 0;
};

}  // namespace shardbridge::module
