// The op tree's parser (op_tree.h), shared by op_tree.cc (ops, regions,
// blocks, dictionaries) and op_tree_funcs.cc (func.func headers, symbols,
// types, `loc(...)`). Internal to src/module/.
#pragma once

#include <atomic>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

#include "module/text_lex.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module::op_tree_detail {

using namespace module_lex;

// Ops whose leading `@name` defines a symbol of the enclosing symbol table.
inline bool definesSymbol(std::string_view op) {
  return op == "module" || op == "builtin.module" || op == "func.func" || op == "sdy.mesh";
}

// The custom-form op names without a dialect prefix that the tree knows
// (the builtin and func dialects' short forms and the old std ones):
// any other undotted word at the start of a line continues the op before
// it (TreeParser::continuesOnNextLine), so it cannot start an op either.
inline bool isUndottedOpName(std::string_view word) {
  for (std::string_view op : {"return", "call", "call_indirect", "module", "constant", "unrealized_conversion_cast"})
    if (word == op) return true;
  return false;
}

// Threads for one parse: SHARDBRIDGE_THREADS=N when set (1 to
// kMaxParseThreads), else the machine's cores up to kDefaultParseThreadsMax
// (read once).
inline constexpr unsigned kMaxParseThreads = 64;
inline constexpr unsigned kDefaultParseThreadsMax = 4;
unsigned defaultParseThreads();

class TreeParser {
 public:
  explicit TreeParser(std::string_view text) : t_(text) { tree_.text = text; }
  Result<AttrDictNode> dictAt(size_t at);
  // `threads` 1 parses here only; more let helper threads parse later
  // parts of a text of `parallelFrom` bytes or more (op_tree_split.cc).
  Result<OpTree> run(unsigned threads = 1, size_t parallelFrom = 0);

  // A part of a text a helper thread parsed (op_tree_split.cc): the ops of
  // a block at depth 1 or 2 from `start` up to the `}` closing it or up to
  // the next part's start, at `end`. Op 0 of `tree` stands for the enclosing
  // op; `ops` are the block's own (indices into tree.ops).
  struct ParsedPart {
    OpTree tree;
    TreeVec<int> ops;
    size_t start = 0;
    size_t end = 0;
  };
  // A helper thread and its part; the deleter cancels the thread if it
  // still runs, joins it and frees the part.
  struct Split;
  struct SplitDeleter {
    void operator()(Split* split) const;
  };
  using Splits = std::vector<std::unique_ptr<Split, SplitDeleter>>;
  // Parses the part from `start` up to `stop` (npos: the end of its block)
  // as ops of a block at `depth`, on a helper thread; an error or `cancel`
  // set gives none.
  Result<ParsedPart> part(size_t start, size_t stop, int depth, const std::atomic<bool>* cancel);

 private:
  // --- lexing ------------------------------------------------------------------
  // Most calls start at a byte that is neither blank nor '/', or at the
  // one space before the next token: those cases are decided here, inline,
  // instead of by a call into skipBlanks.
  size_t blanksFrom(size_t q) const {
    if (q < t_.size() && !isBlank(t_[q]) && t_[q] != '/') return q;
    if (q + 1 < t_.size() && t_[q] == ' ' && !isBlank(t_[q + 1]) && t_[q + 1] != '/') return q + 1;
    return skipBlanks(t_, q);
  }
  void skipWs() { p_ = blanksFrom(p_); }
  // At '%': past the value name, as module_lex::skipValueName (whose loop
  // stops at '#', which is no identifier byte).
  size_t valueNameEnd(size_t q) const { return identEnd(q + 1); }
  // Past the identifier bytes from `q`, four a round (names, keys and
  // keywords are a good part of the bytes outside brackets).
  [[gnu::always_inline]] size_t identEnd(size_t q) const {
    const size_t n = t_.size();
    while (q + 4 <= n) {
      if (!isIdentChar(t_[q])) return q;
      if (!isIdentChar(t_[q + 1])) return q + 1;
      if (!isIdentChar(t_[q + 2])) return q + 2;
      if (!isIdentChar(t_[q + 3])) return q + 3;
      q += 4;
    }
    while (q < n && isIdentChar(t_[q])) ++q;
    return q;
  }
  bool at(char c) const { return p_ < t_.size() && t_[p_] == c; }
  // Whether the word before `q` (blanks between) is `attributes`.
  bool afterAttributesKeyword(size_t q) const { return wordBefore(t_, q, "attributes") != std::string_view::npos; }

  // At a '{' that is the axes operand of an sdy op written
  // `NAME [max|min|sum] {axes} %operand ...` (all_reduce,
  // replicated_to_unreduced): only blanks or the reduction kind since the name.
  bool isAxesOperand(const OpNode& node) const {
    if (node.generic || (node.name != "sdy.all_reduce" && node.name != "sdy.replicated_to_unreduced")) return false;
    std::string_view between = t_.substr(node.nameSpan.end, p_ - node.nameSpan.end);
    while (!between.empty() && isBlank(between.front())) between.remove_prefix(1);
    while (!between.empty() && isBlank(between.back())) between.remove_suffix(1);
    return between.empty() || between == "max" || between == "min" || between == "sum";
  }
  bool atWord(std::string_view w) const {
    return t_.substr(p_, w.size()) == w &&
           (p_ + w.size() >= t_.size() || !isIdentChar(t_[p_ + w.size()]));
  }
  Status skipStr() {
    SB_ASSIGN_OR_RETURN(p_, skipString(t_, p_));
    return okStatus();
  }
  // At an opening bracket: past its match (skipBalanced). A bracket with
  // nothing inside that skipBalanced acts on (`tensor<16x64xf32>`, most of
  // the brackets outside attribute values) is passed here, without the call.
  Status skipBal() {
    const size_t n = t_.size();
    const char c = t_[p_];
    if (!(c == '<' && p_ + 1 < n && t_[p_ + 1] == '=')) {
      size_t q = p_ + 1;
      while (q < n && !char_class::is(t_[q], char_class::kBalance)) ++q;
      const char close = c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>';
      if (q < n && t_[q] == close) {
        p_ = q + 1;
        return okStatus();
      }
    }
    SB_ASSIGN_OR_RETURN(p_, skipBalanced(t_, p_));
    return okStatus();
  }
  Status dict(AttrDictNode& d);
  Result<TextSpan> typeRun();
  void maybeLoc(TextSpan* out);
  Status funcArgs(FuncParts& parts);
  Status funcResults(FuncParts& parts);
  Status funcHeader(OpNode& op);
  Status symbol(OpNode& op);
  // `afterRegion`: the line before ended with the `}` of one of the op's
  // regions, after which only a few words still continue an op.
  bool continuesOnNextLine(size_t q, bool afterRegion = false) const;
  Status checkMesh(const OpNode& node);
  Status op(int parent, int depth);
  Status opHead(OpNode& node, int parent, int depth);
  Status rest(int index, int depth);
  Status region(int index, int depth, TreeVec<ValueDef>& pendingArgs);
  Status blockBody(int parent, Region* region, int depth, TreeVec<ValueDef> entryArgs = {});
  // At the next part's start in a block whose ops gather on
  // opScratch_: waits for its thread and moves its ops in (their
  // parent `parent`), p_ at the end of its part; false when it has none.
  bool splice(int parent);
  // At a statement of a block at `depth` (1 or 2) while parts remain:
  // drops (and cancels) the parts whose start the parse went past, and
  // splices the next one if it starts at p_ at that depth. Whether it did.
  bool atSplit(int parent, int depth);
  // Starts up to `parts - 1` helper threads on `parts` guessed parts of the
  // text (none where no split point is found); tree_.ops is reserved.
  void startSplits(unsigned parts);
  // Removes ops `index` onwards (the last op parsed and its nested ops),
  // their function parts with them.
  void dropOpsFrom(int index);
  // Sizes tree_.ops for the text in [from, to), about one op a line.
  void reserveOps(size_t from, size_t to = std::string_view::npos);

  // Scratch stacks for the vectors a node fills one entry at a time: entries
  // go here, and the node gets them moved into an exact-size vector in the
  // arena when it is complete (take), so no arena block is outgrown and left
  // behind. A nested op takes its own entries before its parent goes on,
  // which keeps each node's entries contiguous at the top of the stack.
  template <class T>
  static void take(std::vector<T>& scratch, size_t mark, TreeVec<T>& out) {
    out.assign(std::make_move_iterator(scratch.begin() + static_cast<std::ptrdiff_t>(mark)),
               std::make_move_iterator(scratch.end()));
    scratch.resize(mark);
  }
  std::vector<AttrEntry> entryScratch_;
  std::vector<ValueUse> useScratch_;
  std::vector<ResultDef> resultScratch_;
  std::vector<int> opScratch_;
  // A region's custom-syntax arguments, most often one (a manual
  // computation's): room for one first, not the four a growing vector
  // takes, whose outgrown storage would stay in the arena.
  static void pushArg(TreeVec<ValueDef>& args, ValueDef&& a) {
    if (args.capacity() == 0) args.reserve(1);
    args.push_back(std::move(a));
  }
  std::vector<ValueDef> argScratch_;       // func.func arguments
  std::vector<FuncResult> funcResultScratch_;
  // Drops what a scratch holds above `mark` when the reader that pushed it
  // returns without taking it (an error, or arguments no region took).
  template <class T>
  struct ScratchMark {
    std::vector<T>& scratch;
    size_t mark;
    ~ScratchMark() {
      if (scratch.size() > mark) scratch.erase(scratch.begin() + static_cast<std::ptrdiff_t>(mark), scratch.end());
    }
  };

  // The blanks and comments after an op end, as its rest() loop found them
  // before deciding the op was over: blockBody's skip from `skipFrom_`
  // (where the op ends) lands on `skipTo_` without reading them again.
  size_t skipFrom_ = static_cast<size_t>(-1);
  size_t skipTo_ = 0;

  // The helper threads' parts in text order, and the next one that may
  // still be adopted (op_tree_split.cc).
  Splits splits_;
  size_t nextSplit_ = 0;
  // On a helper's parser: set when the first thread no longer wants the
  // part; and the next part's start, where this part ends.
  const std::atomic<bool>* cancel_ = nullptr;
  size_t stopAt_ = std::string_view::npos;
  int partDepth_ = 0;  // the depth of the part's own block

  std::string_view t_;
  size_t p_ = 0;
  OpTree tree_;
};

}  // namespace shardbridge::module::op_tree_detail
