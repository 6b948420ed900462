// Text edits over one version of a module's text, applied at once: the
// passes record what they replace, insert and erase (by byte range of the
// op tree's spans) and `apply` splices them, copying every other byte.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "shardbridge/base/result.h"
#include "module/fresh_names.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

// Where the bytes of a rewritten text came from: maps an offset of the new
// text back to the old one (an offset inside inserted text maps to the
// start of the span it replaced, or to the origin of text moved from
// elsewhere), so that an error found by a later pass is located in the
// user's input.
class OffsetMap {
 public:
  size_t toOld(size_t newOffset) const;

  // The new text, piece by piece in order (together they are all of it):
  // each either copied from the old text at `oldBegin`, or an edit's text
  // (then `oldBegin` is where it maps back to). A span erased leaves no
  // piece, only two copied pieces meeting.
  struct Piece {
    size_t newBegin, newEnd, oldBegin;
    bool copied;
  };
  const std::vector<Piece>& pieces() const { return pieces_; }

 private:
  friend class Rewriter;
  std::vector<Piece> pieces_;
};

class Rewriter {
 public:
  explicit Rewriter(std::string_view text) : text_(text) {}

  std::string_view text() const { return text_; }
  bool empty() const { return edits_.empty(); }

  // Replaces [span) by `with`. Insertions at one offset keep their order.
  void replace(TextSpan span, std::string with) { edits_.push_back({span, std::move(with), seq_++}); }
  void insert(size_t at, std::string what) { replace({at, at}, std::move(what)); }
  // Inserts text made from the input at `origin` (a body moved elsewhere):
  // offsets inside it map back to `origin` rather than to `at`.
  void insertFrom(size_t at, std::string what, size_t origin) {
    edits_.push_back({{at, at}, std::move(what), seq_++, origin});
  }
  void erase(TextSpan span) { replace(span, {}); }
  struct Edit;
  // Records a copy of an edit made by another Rewriter over the same text
  // (its origin kept, ordered after the edits recorded so far).
  void add(const Edit& e);

  // The text with every edit applied. Errors (kInternal): two edits that
  // overlap (a pass bug, reported rather than producing broken text).
  Result<std::string> apply(OffsetMap* map = nullptr) const;
  // apply(map), leaving the edits' texts unspecified: when the one edit
  // replaces the text from its start (a conversion's output for the whole
  // module), its text is moved out rather than copied, the rest appended.
  Result<std::string> take(OffsetMap* map = nullptr);

  static constexpr size_t kNoOrigin = static_cast<size_t>(-1);
  struct Edit {
    TextSpan span;
    std::string text;
    size_t seq;
    size_t origin = kNoOrigin;  // where the text came from, when not span.begin
  };
  const std::vector<Edit>& edits() const { return edits_; }

 private:
  std::string_view text_;
  std::vector<Edit> edits_;
  size_t seq_ = 0;
};

// Entry edits on one attribute dictionary, as MLIR prints a sorted
// dictionary: `set` replaces an entry's value or adds the entry before the
// first key that sorts after it; `remove` drops it. An emptied dictionary
// is removed with the blank before it (or `{}` kept when `keepEmpty`).
class DictEditor {
 public:
  DictEditor(std::string_view text, const AttrDictNode& dict) : text_(text), dict_(dict) {}
  void set(std::string_view key, std::string value);  // `key = value`; empty value: unit attribute
  void remove(std::string_view key);
  bool changed() const { return !sets_.empty() || !removes_.empty(); }
  // Records the edits; `insertAt` is where a new dictionary goes when the op
  // has none (with a leading blank).
  void commit(Rewriter& rw, size_t insertAt, bool keepEmpty = false) const;
  // The dictionary as text after the edits (`{a = 1, b}`; "" when empty).
  std::string render() const;

 private:
  std::string_view text_;
  const AttrDictNode& dict_;
  std::vector<std::pair<std::string, std::string>> sets_;
  std::vector<std::string> removes_;
};

// Inserts the attribute dictionary `body` (`{...}`) into `op`, which has
// none, where MLIR's printer puts it: after the name of a constant, as
// ` attributes {...}` after the signature of a custom-form stablehlo.while,
// before the trailing signature otherwise (at the op's end when it has none).
void insertDict(Rewriter& rw, const OpTree& tree, const OpNode& op, const std::string& body);

// Writes `key` as MLIR prints a dictionary key: bare when it is an
// identifier (`mhlo.sharding`), else quoted.
std::string printAttrKey(std::string_view key);

}  // namespace shardbridge::module
