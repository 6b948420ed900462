// The op tree's parse on several threads (op_tree.h, OpTreeParseOptions).
//
// Why speculation: where a module's later parts begin can only be known by
// parsing what comes before (a brace or a `func.func` may sit inside a
// string or a nested module). So each helper thread guesses. Part k starts
// at the first line after k/N of the text that looks like a statement as
// MLIR prints one at depth 1 or 2: `  func.func ...` (a function of a
// module), or, where none is near, `    %... = ...` (an op of a function's
// body; a module's largest function often holds half its text). It is
// parsed as the ops of a block at that depth, up to the `}` closing that
// block, or up to the next part's start if it meets that start as one of
// its statements at its own depth. Such a parse depends on nothing before
// its start: an op's node is read from its own bytes, and its parent and
// depth are the block's (op_tree.cc). The first thread adopts a part only
// when its own parse reaches that very byte as a statement of a block at
// that depth. Then both parses agree on every node from there, and it goes
// on from the part's end. Otherwise (the guess was inside a string, a
// wrapped op, a nested module, a deeper region), or when the part failed,
// the first thread reads those bytes itself. So what it returns, an error
// included, is what the one-thread parse returns.
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "base/huge_pages.h"
#include "module/op_tree_parser.h"

namespace shardbridge::module::op_tree_detail {

unsigned defaultParseThreads() {
  static const unsigned threads = [] {
    const char* env = std::getenv("SHARDBRIDGE_THREADS");
    if (env && *env) {
      char* end = nullptr;
      long n = std::strtol(env, &end, 10);
      if (*end == '\0' && n >= 1) return static_cast<unsigned>(std::min<long>(n, kMaxParseThreads));
    }
    return std::clamp(std::thread::hardware_concurrency(), 1u, kDefaultParseThreadsMax);
  }();
  return threads;
}

struct TreeParser::Split {
  size_t start = 0;
  int depth = 1;                         // of the block whose ops the part holds
  size_t stop = std::string_view::npos;  // the next part's start
  // The first thread's node array (reserved for the whole text before the
  // threads start), whose pages for this part's nodes the thread maps once
  // its part is parsed and the first thread is not there yet.
  std::byte* nodes = nullptr;
  size_t nodesBytes = 0;
  std::atomic<bool> cancel{false};
  std::atomic<bool> arrived{false};  // the first thread is at this part
  std::optional<ParsedPart> parsed;  // written by the thread, read after join
  std::thread thread;
};

namespace {

// The first line at or after `from` that looks like a statement at depth
// 1 (`  func.func `, two blanks), or, when none is within `near` bytes, at
// depth 2 (`    %`, four): its first byte and that depth; npos when there
// is none. A function is preferred: a part at depth 2 ends with the
// function it starts in, and the first thread reads the functions after it.
std::pair<size_t, int> guessSplit(std::string_view text, size_t from, size_t near) {
  size_t func = text.find("\n  func.func ", from);
  if (func != std::string_view::npos && func - from <= near) return {func + 3, 1};
  size_t op = text.find("\n    %", from);
  if (op != std::string_view::npos && op < func) return {op + 5, 2};
  if (func != std::string_view::npos) return {func + 3, 1};
  return {std::string_view::npos, 0};
}

// Maps the pages where the first thread will move the part's `count`
// nodes: the ops before the part are guessed from the part's density (ops
// per byte), a little low, as the first thread maps its own pages anyway.
// In 2 MiB steps, so that the first thread, once at the part, waits for
// one step at most.
void prefaultDestination(const TreeParser::Split& s, size_t count, size_t partBytes) {
  if (!s.nodes || count == 0 || partBytes == 0) return;
  const double before = static_cast<double>(count) * static_cast<double>(s.start) / static_cast<double>(partBytes);
  size_t from = static_cast<size_t>(before * 0.95) * sizeof(OpNode);
  size_t to = std::min(s.nodesBytes, (static_cast<size_t>(before * 1.02) + count) * sizeof(OpNode));
  constexpr size_t kStep = size_t{2} << 20;
  for (size_t at = from; at < to && !s.arrived.load(std::memory_order_relaxed); at += kStep)
    if (!base::prefaultPages(s.nodes + at, std::min(kStep, to - at))) return;
}

}  // namespace

void TreeParser::startSplits(unsigned parts) {
  const std::string_view text = t_;
  void* nodes = tree_.ops.data();
  const size_t nodesBytes = tree_.ops.capacity() * sizeof(OpNode);
  Splits& splits = splits_;
  for (unsigned k = 1; k < parts; ++k) {
    size_t from = text.size() / parts * k;
    if (!splits.empty() && from <= splits.back()->start) from = splits.back()->start + 1;
    auto [start, depth] = guessSplit(text, from, text.size() / parts / 2);
    if (start == std::string_view::npos) break;
    auto s = std::unique_ptr<Split, SplitDeleter>(new Split);
    s->start = start;
    s->depth = depth;
    s->nodes = static_cast<std::byte*>(nodes);
    s->nodesBytes = nodesBytes;
    if (!splits.empty()) splits.back()->stop = start;
    splits.push_back(std::move(s));
  }
  // Each thread starts once its part's end is known.
  for (auto& owned : splits) {
    Split* s = owned.get();
    try {
      s->thread = std::thread([text, s] {
        // Nothing escapes the thread: an exception (an arena chunk
        // refused) is a part not parsed, which the first thread then
        // parses itself.
        try {
          TreeParser p(text);
          auto h = p.part(s->start, s->stop, s->depth, &s->cancel);
          if (h) {
            size_t count = h->tree.ops.size() - 1;
            size_t bytes = h->end - h->start;
            s->parsed = std::move(*h);
            prefaultDestination(*s, count, bytes);
          }
        } catch (...) {
          s->parsed.reset();
        }
      });
    } catch (...) {
      // No thread to be had: this part and the later ones are the first
      // thread's (a part not started is never waited for).
      splits.erase(splits.begin() + (&owned - splits.data()), splits.end());
      break;
    }
  }
}

bool TreeParser::atSplit(int parent, int depth) {
  // A part whose start the parse went past (inside a string, a region, a
  // nested module, or a part adopted before it) is not wanted.
  while (nextSplit_ < splits_.size() && splits_[nextSplit_]->start < p_) {
    splits_[nextSplit_]->cancel.store(true, std::memory_order_relaxed);
    splits_[nextSplit_]->arrived.store(true, std::memory_order_relaxed);
    ++nextSplit_;
  }
  return nextSplit_ < splits_.size() && splits_[nextSplit_]->start == p_ && splits_[nextSplit_]->depth == depth &&
         splice(parent);
}

void TreeParser::SplitDeleter::operator()(Split* split) const {
  split->cancel.store(true, std::memory_order_relaxed);
  split->arrived.store(true, std::memory_order_relaxed);
  if (split->thread.joinable()) split->thread.join();
  delete split;
}

Result<TreeParser::ParsedPart> TreeParser::part(size_t start, size_t stop, int depth, const std::atomic<bool>* cancel) {
  cancel_ = cancel;
  stopAt_ = stop;
  partDepth_ = depth;
  tree_.arena = std::make_shared<TreeArena>();
  TreeArenaScope scope(tree_.arena.get());
  tree_.topLevel = TreeVec<int>();
  reserveOps(start, stop);
  tree_.ops.emplace_back();  // op 0: the enclosing op, whichever it is
  Region region;
  region.whole.begin = start;
  p_ = start;
  SB_TRY(blockBody(0, &region, depth));
  // A label in the part starts a block of its own, which the first
  // thread's block would not know of: such a part is not adopted.
  if (region.blocks.size() != 1 || !region.blocks[0].label.empty())
    return makeError(ErrorCode::kInternal, "a block label in a later part");
  ParsedPart h;
  h.ops = std::move(region.blocks[0].ops);
  h.tree = std::move(tree_);
  h.start = start;
  h.end = p_;
  return h;
}

void TreeParser::dropOpsFrom(int index) {
  while (static_cast<int>(tree_.ops.size()) > index) {
    // Function parts are added in the order of their ops, so the last
    // op's are the deque's last.
    if (tree_.ops.back().func) tree_.funcParts.pop_back();
    tree_.ops.pop_back();
  }
}

bool TreeParser::splice(int parent) {
  // run() owns the splits and ends them; here one is joined and emptied.
  Split* split = splits_[nextSplit_++].get();
  split->arrived.store(true, std::memory_order_relaxed);
  split->thread.join();
  if (!split->parsed) return false;
  ParsedPart& h = *split->parsed;
  // The part's op j (j >= 1) becomes op base + j - 1; its op 0 is `parent`.
  const int shift = static_cast<int>(tree_.ops.size()) - 1;
  auto moved = [&](int j) { return j == 0 ? parent : j + shift; };
  for (size_t j = 1; j < h.tree.ops.size(); ++j) {
    OpNode& node = h.tree.ops[j];
    node.parent = moved(node.parent);
    for (Region& r : node.regions)
      for (Block& b : r.blocks)
        for (int& op : b.ops) op = moved(op);
    if (node.func) {
      // The part's function parts move into this tree's deque, where the
      // nodes find them (OpTree::funcParts).
      tree_.funcParts.push_back(std::move(const_cast<FuncParts&>(*node.func)));
      node.func = &tree_.funcParts.back();
    }
    tree_.ops.push_back(std::move(node));
  }
  for (int op : h.ops) opScratch_.push_back(moved(op));
  // The moved vectors keep their storage in the part's arena.
  tree_.arena->adopt(std::move(h.tree.arena));
  p_ = h.end;
  skipFrom_ = static_cast<size_t>(-1);
  split->parsed.reset();  // the part's node array, its nodes moved out
  return true;
}

}  // namespace shardbridge::module::op_tree_detail
