#include "shardbridge/module/op_tree.h"

#include <string.h>  // memchr

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "base/huge_pages.h"
#include "module/op_tree_parser.h"

namespace shardbridge::module {

const FuncParts OpNode::kNone;

namespace op_tree_detail {

Result<AttrDictNode> TreeParser::dictAt(size_t at) {
  p_ = at;
  if (!this->at('{')) return parseError("expected '{' to begin an attribute dictionary, got " + describe(t_, p_), p_);
  AttrDictNode d;
  SB_TRY(dict(d));
  return d;
}

void TreeParser::reserveOps(size_t from, size_t to) {
  // Room for the ops up front, about one a line as MLIR prints them:
  // growing the vector moved every node again each time it doubled, about
  // a twentieth of a parse. Capped (a node of 192 bytes, one per 64 bytes of
  // text at most) so that a text of mostly empty lines cannot ask for more
  // memory than its tree would take anyway.
  // A line that starts (after its indentation) with '}' closes a region
  // and holds no op: a fifth of a module's lines, and as much of the
  // array's reserve left unused, were they counted.
  size_t lines = 0;
  to = std::min(to, t_.size());
  const char* end = t_.data() + to;
  constexpr uint64_t kSpaces = 0x2020202020202020ull;
  for (const char* q = t_.data() + from; q < end && (q = static_cast<const char*>(memchr(q, '\n', end - q)));) {
    ++q;
    // The indentation eight bytes at a time: its first other byte is the
    // lowest non-zero byte of the word xor spaces (little-endian).
    while (std::endian::native == std::endian::little && end - q >= 8) {
      uint64_t w;
      std::memcpy(&w, q, 8);
      w ^= kSpaces;
      if (w == 0) {
        q += 8;
        continue;
      }
      q += static_cast<unsigned>(__builtin_ctzll(w)) / 8;
      break;
    }
    while (q < end && *q == ' ') ++q;
    if (q < end && *q != '}') ++lines;
  }
  tree_.ops.reserve(std::min(lines + 2, (to - from) / 64 + 16));
  base::adviseHugePages(tree_.ops.data(), tree_.ops.capacity() * sizeof(OpNode));
}

Result<OpTree> TreeParser::run(unsigned threads, size_t parallelFrom) {
  if (t_.size() >= 4 && t_.substr(0, 4) == std::string_view("ML\xefR", 4))
    return parseError(
        "MLIR bytecode is not supported: convert it to text with mlir-opt or "
        "stablehlo-translate first",
        0);
  // Spans hold 32-bit offsets (op_tree.h).
  if (t_.size() > kMaxTreeText)
    return makeError(ErrorCode::kUnsupported, "a module text of " + std::to_string(t_.size()) +
                                              " bytes is over the op tree's limit of " +
                                              std::to_string(kMaxTreeText) + " bytes");
  // Every vector the parse builds draws from the tree's arena (tree_arena.h).
  tree_.arena = std::make_shared<TreeArena>();
  TreeArenaScope scope(tree_.arena.get());
  tree_.topLevel = TreeVec<int>();
  reserveOps(0);
  // Helper threads for the later parts of a large text, each part at least
  // half of `parallelFrom` (op_tree_split.cc); they are joined when the
  // parser goes, whatever the parse's outcome.
  if (threads > 1 && t_.size() >= parallelFrom) {
    size_t parts = parallelFrom ? t_.size() / std::max<size_t>(parallelFrom / 2, 1) : threads;
    startSplits(static_cast<unsigned>(std::min<size_t>({threads, kMaxParseThreads, parts})));
  }
  SB_TRY(blockBody(-1, nullptr, 0));
  return std::move(tree_);
}

// `{ key = value, unit, "quoted" = v }` at '{'.
Status TreeParser::dict(AttrDictNode& d) {
  d.whole.begin = p_;
  const size_t mark = entryScratch_.size();
  ++p_;
  while (true) {
    skipWs();
    if (at('}')) break;
    AttrEntry e;
    e.whole.begin = p_;
    e.key.begin = p_;
    if (at('"')) {
      SB_TRY(skipStr());
      e.key.end = p_;
      e.name = t_.substr(e.key.begin + 1, e.key.size() - 2);
    } else if (p_ < t_.size() && isIdentStart(t_[p_])) {
      p_ = identEnd(p_);
      e.key.end = p_;
      e.name = e.key.in(t_);
    } else {
      return parseError("expected attribute name, got " + describe(t_, p_), p_);
    }
    e.whole.end = p_;
    skipWs();
    if (at('=')) {
      ++p_;
      skipWs();
      e.value.begin = p_;
      if (at(',') || at('}') || p_ >= t_.size())
        return parseError("expected attribute value, got " + describe(t_, p_), p_);
      SB_ASSIGN_OR_RETURN(size_t end, skipAttrValue(t_, p_));
      p_ = end;
      e.value.end = end;
      e.whole.end = end;
      skipWs();
    }
    entryScratch_.push_back(e);
    if (at(',')) {
      ++p_;
      continue;
    }
    if (!at('}'))
      return parseError("expected ',' or '}' in attribute dictionary, got " + describe(t_, p_), p_);
    break;
  }
  ++p_;
  d.whole.end = p_;
  take(entryScratch_, mark, d.entries);
  return okStatus();
}

// One op at p_ (a statement start in a block).
Status TreeParser::op(int parent, int depth) {
  if (depth > static_cast<int>(kMaxOpNesting))
    return parseError("operations nested deeper than " + std::to_string(kMaxOpNesting) + " levels",
                      p_);
  int index = static_cast<int>(tree_.ops.size());
  // The node is filled where it stays: `tree_.ops` grows while the op's
  // regions are read, so rest() and region() look it up by index again
  // after each region (no node is built aside and moved in).
  SB_TRY(opHead(tree_.ops.emplace_back(), parent, depth));
  SB_TRY(rest(index, depth));
  OpNode& node = tree_.ops[index];
  if (node.name == "sdy.mesh" && !node.generic) SB_TRY(checkMesh(node));
  node.line = wholeLines(t_, node.whole);
  return okStatus();
}

// An op's results, name and (for func.func) header, at its first byte.
Status TreeParser::opHead(OpNode& node, int parent, int depth) {
  node.parent = parent;
  node.depth = depth;
  node.whole.begin = p_;
  if (at('%')) {
    const size_t mark = resultScratch_.size();
    node.results.begin = p_;
    while (true) {
      ResultDef r;
      size_t b = p_;
      p_ = valueNameEnd(p_);
      r.name = {b, p_};
      if (at(':')) {
        ++p_;
        size_t nb = p_;
        int64_t n = 0;
        while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9' && n < (1 << 20)) n = n * 10 + (t_[p_++] - '0');
        if (p_ == nb || n <= 0) return parseError("expected a result count after ':'", nb);
        r.count = static_cast<int>(n);
      }
      resultScratch_.push_back(std::move(r));
      node.results.end = p_;
      skipWs();
      if (at(',')) {
        ++p_;
        skipWs();
        if (at('%')) continue;
        return parseError("expected a result name after ',', got " + describe(t_, p_), p_);
      }
      break;
    }
    take(resultScratch_, mark, node.resultDefs);
    if (!at('=')) return parseError("expected '=' after the op results, got " + describe(t_, p_), p_);
    ++p_;
    skipWs();
  }
  node.nameSpan.begin = p_;
  if (at('"')) {
    SB_TRY(skipStr());
    node.generic = true;
    node.name = t_.substr(node.nameSpan.begin + 1, p_ - node.nameSpan.begin - 2);
  } else if (p_ < t_.size() && isIdentStart(t_[p_])) {
    p_ = identEnd(p_);
    node.name = t_.substr(node.nameSpan.begin, p_ - node.nameSpan.begin);
    // MLIR knows no such op; and after another op the tree would read the
    // line as that op's continuation, so an op inserted before this one (a
    // mesh) would swallow it (mlir_import_fuzz).
    // `dialect.op` needs both parts (`func.` or `.op` names no op either).
    const bool dotted = node.name.find('.') != std::string_view::npos;
    if ((!dotted && !isUndottedOpName(node.name)) ||
        (dotted && (node.name.front() == '.' || node.name.back() == '.' ||
                    node.name.find("..") != std::string_view::npos)))
      return parseError("expected an operation name (`dialect.op`, or return, call, module, ...), got '" +
                            std::string(node.name) + "'",
                        node.nameSpan.begin);
  } else {
    return parseError("expected an operation name, got " + describe(t_, p_), p_);
  }
  node.nameSpan.end = p_;
  if (node.name == "func.func") SB_TRY(funcHeader(node));
  return okStatus();
}

// The op's text after its name (and func header): operands, attributes,
// regions, signature, location; ends at a newline at the op's own depth
// that no continuation follows, or before a closer of the enclosing block.
//
// This loop reads most bytes of a module outside brackets, so each token
// costs one dispatch: blanks are looked at only when the token starts with
// one (or with '/'), and the closer and signature-end checks sit in the
// cases of the bytes they concern.
Status TreeParser::rest(int index, int depth) {
  OpNode* node = &tree_.ops[index];
  int local = 0;  // ( and [ nesting inside the op
  bool inSignature = false;
  size_t lastSig = 0;  // end of the signature's last token
  TreeVec<ValueDef> pendingArgs;  // custom-syntax block arguments `(%a: t)` before a region
  size_t last = p_;    // end of the op's last token (p_ at the top of the loop)
  const size_t useMark = useScratch_.size();
  const size_t n = t_.size();
  // A signature ends before a dictionary, a `loc(...)` or `attributes` at depth 0.
  auto endSignature = [&] {
    inSignature = false;
    node->signature.end = lastSig;
  };
  // Before its body, a custom-form module holds its name, `attributes
  // {...}` and nothing else: any other word (`module @m attribute {...}`)
  // would make its dictionary read as its body, and a later pass would
  // write into it (mlir_import_fuzz: import-shardings put the sdy.mesh
  // there, and its output did not parse again).
  const bool moduleHeader = !node->generic && (node->name == "module" || node->name == "builtin.module");
  auto wordInHeader = [&]() -> Status {
    if (moduleHeader && local == 0 && node->regions.empty() && !atWord("attributes") && !atWord("loc"))
      return parseError("expected 'attributes' or the body '{' of 'module', got '" +
                            std::string(t_.substr(p_, identEnd(p_) - p_)) + "'",
                        p_);
    return okStatus();
  };
  while (true) {
    if (p_ >= n) break;
    char c = t_[p_];
    if (c == ' ' && p_ + 1 < n && !isBlank(t_[p_ + 1]) && t_[p_ + 1] != '/') {
      // The one space between two tokens of a line: what the loop below
      // would find, without its newline and comment bookkeeping.
      c = t_[++p_];
    } else if (isBlank(c) || c == '/') {
      // Blanks and comments; a newline at depth 0 may end the op.
      size_t q = p_;
      bool newline = false;
      while (q < n) {
        char b = t_[q];
        if (isBlank(b)) {
          newline |= b == '\n' || b == '\r';
          ++q;
        } else if (b == '/' && q + 1 < n && t_[q + 1] == '/') {
          while (q < n && t_[q] != '\n') ++q;
        } else {
          break;
        }
      }
      if (q >= n) {
        skipFrom_ = p_;
        skipTo_ = q;
        break;
      }
      if (newline && local == 0) {
        const bool afterRegion = !node->regions.empty() && node->regions.back().whole.end == p_;
        if (!continuesOnNextLine(q, afterRegion)) {
          skipFrom_ = p_;
          skipTo_ = q;
          break;
        }
        // A continuation line (`reducer(...)`, `cond {`) is not part of the
        // signature that ended the line before.
        if (inSignature) endSignature();
      }
      p_ = q;
      c = t_[p_];
    }
    switch (c) {
      case '"':
        SB_TRY(skipStr());
        break;
      case '%': {
        size_t b = p_;
        p_ = valueNameEnd(p_);
        TextSpan name{b, p_};
        if (at(':') && p_ + 1 < n && !(t_[p_ + 1] >= '0' && t_[p_ + 1] <= '9')) {
          // `%a: type` — a block argument of the region that follows.
          ++p_;
          ValueDef a;
          a.name = name;
          SB_ASSIGN_OR_RETURN(a.type, typeRun());
          maybeLoc(&a.loc);
          pushArg(pendingArgs, std::move(a));
          break;
        }
        size_t save = p_;
        skipWs();
        if (at('=') && !(p_ + 1 < n && t_[p_ + 1] == '=')) {
          // `%iterArg = %init` (stablehlo.while): defines a block argument.
          ValueDef a;
          a.name = name;
          pushArg(pendingArgs, std::move(a));
          ++p_;
          break;
        }
        p_ = save;
        ValueUse u;
        u.name = name.in(t_);
        if (at('#')) {
          ++p_;
          int k = 0;
          while (p_ < n && t_[p_] >= '0' && t_[p_] <= '9' && k < (1 << 24)) k = k * 10 + (t_[p_++] - '0');
          u.index = k;
        }
        u.span = {b, p_};
        useScratch_.push_back(u);
        break;
      }
      case '@':
        if (node->symbol.empty()) {
          SB_TRY(symbol(*node));
        } else {
          ++p_;
          if (at('"')) SB_TRY(skipStr());
          else p_ = identEnd(p_);
        }
        break;
      case '{':
        if (local == 0 && inSignature) endSignature();
        if (isAxesOperand(*node)) {
          // `sdy.all_reduce {"x"} %0 ...`: the reduction axes, not an
          // attribute dictionary (shardy/dialect/sdy/ir/ops.td formats).
          SB_ASSIGN_OR_RETURN(size_t end, skipBalanced(t_, p_));
          p_ = end;
        } else if (looksLikeDict(t_, p_) && !(definesSymbol(node->name) && node->name != "sdy.mesh" &&
                                               !afterAttributesKeyword(p_))) {
          // A module's or function's dictionary follows `attributes`; any
          // other brace of theirs opens their body (mlir_import_fuzz:
          // `module {` then `func=func ...` was read as one dictionary).
          AttrDictNode d;
          SB_TRY(dict(d));
          ++node->dictCount;
          if (!node->dict.present() && local == 0) node->dict = std::move(d);
        } else {
          SB_TRY(region(index, depth, pendingArgs));
          node = &tree_.ops[index];
          pendingArgs.clear();
        }
        break;
      case '}':
        if (local == 0) goto done;
        ++p_;
        break;
      case '(':
      case '[':
        if (++local > static_cast<int>(kMaxBracketNesting))
          return parseError("brackets nested deeper than " + std::to_string(kMaxBracketNesting) + " levels", p_);
        ++p_;
        break;
      case ')':
      case ']':
        if (local == 0) goto done;
        --local;
        ++p_;
        break;
      case '<':
        if (p_ + 1 < n && t_[p_ + 1] == '=') {
          p_ += 2;
        } else {
          size_t b = p_;
          SB_TRY(skipBal());
          if (node->generic && local == 0 && b + 1 < n && t_[b + 1] == '{' && node->properties.empty())
            node->properties = {b, p_};
        }
        break;
      case ':':
        if (local == 0 && !inSignature) {
          inSignature = true;
          node->signature.begin = p_;
        }
        ++p_;
        break;
      case '-':
        p_ += (p_ + 1 < n && t_[p_ + 1] == '>') ? 2 : 1;
        break;
      case 'a':
        SB_TRY(wordInHeader());
        if (local == 0 && inSignature && atWord("attributes")) endSignature();
        p_ = identEnd(p_);
        break;
      case 'l':
        if (local == 0 && atWord("loc")) {
          if (inSignature) endSignature();
          if (p_ + 3 < n && t_[p_ + 3] == '(') {
            size_t b = p_;
            p_ += 3;
            SB_TRY(skipBal());
            node->loc = {b, p_};
            break;
          }
        }
        SB_TRY(wordInHeader());
        p_ = identEnd(p_);
        break;
      default:
        if (isIdentStart(c)) {
          SB_TRY(wordInHeader());
          p_ = identEnd(p_);
        } else {
          ++p_;
        }
        break;
    }
    last = p_;
    if (inSignature) lastSig = p_;
  }
done:
  if (inSignature) node->signature.end = lastSig;
  take(useScratch_, useMark, node->uses);
  if (local != 0) return parseError("unbalanced brackets in operation '" + std::string(node->name) + "'", node->whole.begin);
  p_ = last;
  node->whole.end = last;
  return okStatus();
}

Status TreeParser::region(int index, int depth, TreeVec<ValueDef>& pendingArgs) {
  // Entry block arguments are written before the region (custom syntax)
  // or, for a function, in its signature.
  const OpNode& owner = tree_.ops[index];  // not used past blockBody, which grows tree_.ops
  TreeVec<ValueDef> entryArgs =
      owner.name == "func.func" && owner.regions.empty() ? owner.funcArgs() : std::move(pendingArgs);
  Region built;
  built.whole.begin = p_;
  ++p_;
  SB_TRY(blockBody(index, &built, depth + 1, std::move(entryArgs)));
  if (!at('}')) return parseError("expected '}' to close the region, got " + describe(t_, p_), p_);
  ++p_;
  built.whole.end = p_;
  // Most ops have one region and most regions one block: room for one
  // first, not the four a growing vector takes (a tenth of a tree's arena).
  TreeVec<Region>& regions = tree_.ops[index].regions;
  if (regions.empty()) regions.reserve(1);
  regions.push_back(std::move(built));
  return okStatus();
}

// Statements of a block list until '}' (or the end of input at top level).
Status TreeParser::blockBody(int parent, Region* region, int depth, TreeVec<ValueDef> entryArgs) {
  Block current;
  current.whole.begin = p_;
  current.arguments = std::move(entryArgs);
  bool any = false;
  const size_t opMark = opScratch_.size();
  auto flush = [&](size_t end) {
    current.whole.end = end;
    take(opScratch_, opMark, current.ops);
    if (region && (any || !current.ops.empty() || !current.label.empty() || region->blocks.empty())) {
      if (region->blocks.empty()) region->blocks.reserve(1);
      region->blocks.push_back(std::move(current));
    }
    current = Block();
    any = false;
  };
  while (true) {
    // After an op, where its rest() loop already found the next statement.
    if (p_ == skipFrom_) p_ = skipTo_;
    else skipWs();
    if (p_ >= t_.size()) {
      if (region) return parseError("unexpected end of input: the region opened here is not closed",
                                    region->whole.begin);
      break;
    }
    char c = t_[p_];
    if (c == '}') {
      if (!region) return parseError("unbalanced '}'", p_);
      break;
    }
    if (c == ')' || c == ']') return parseError(std::string("unbalanced '") + c + "'", p_);
    if (c == '^') {
      // A label starts a block; the implicit entry block before it exists
      // only when it holds ops.
      if (region && any) flush(p_);
      current = Block();
      current.whole.begin = p_;
      size_t b = p_;
      ++p_;
      p_ = identEnd(p_);
      skipWs();
      if (at('(')) {
        ++p_;
        while (true) {
          skipWs();
          if (at(')')) {
            ++p_;
            break;
          }
          if (!at('%')) return parseError("expected a block argument, got " + describe(t_, p_), p_);
          ValueDef a;
          size_t nb = p_;
          p_ = skipValueName(t_, p_);
          a.name = {nb, p_};
          skipWs();
          if (!at(':')) return parseError("expected ':' after block argument, got " + describe(t_, p_), p_);
          ++p_;
          SB_ASSIGN_OR_RETURN(a.type, typeRun());
          maybeLoc(&a.loc);
          current.arguments.push_back(std::move(a));
          skipWs();
          if (at(',')) ++p_;
        }
      }
      skipWs();
      if (!at(':')) return parseError("expected ':' after block label, got " + describe(t_, p_), p_);
      ++p_;
      current.label = {b, p_};
      any = true;
      continue;
    }
    if (!region && (c == '#' || c == '!')) {
      // `#alias = ...` / `!alias = ...` to the end of its line.
      size_t b = p_;
      while (p_ < t_.size() && t_[p_] != '\n' && t_[p_] != '\r') {
        if (t_[p_] == '"') {
          SB_TRY(skipStr());
        } else if (t_[p_] == '(' || t_[p_] == '<' || t_[p_] == '[' || t_[p_] == '{') {
          SB_TRY(skipBal());
        } else if (t_[p_] == ')' || t_[p_] == ']' || t_[p_] == '}') {
          return parseError(std::string("unbalanced '") + t_[p_] + "'", p_);
        } else {
          ++p_;
        }
      }
      tree_.aliases.push_back({b, p_});
      continue;
    }
    if (c == '{' && p_ + 1 < t_.size() && t_[p_ + 1] == '-') {
      // `{-# external_resources ... #-}` file metadata.
      size_t e = t_.find("#-}", p_);
      if (e == std::string_view::npos) return parseError("unterminated '{-#' metadata", p_);
      p_ = e + 3;
      continue;
    }
    // On a helper's parser, in the part's own block: a cancel or the next
    // part's start ends the part. On the first thread's, in a block at a
    // depth parts start at (a module's functions, a function's ops): a
    // part that starts here is adopted, unless its thread found none.
    if (cancel_ ? depth == partDepth_ : depth <= 2 && region && nextSplit_ < splits_.size()) {
      if (cancel_) {
        if (cancel_->load(std::memory_order_relaxed)) return makeError(ErrorCode::kInternal, "cancelled");
        if (p_ == stopAt_) break;
      } else if (atSplit(parent, depth)) {
        any = true;
        continue;
      }
    }
    int index = static_cast<int>(tree_.ops.size());
    size_t before = p_;
    SB_TRY(op(parent, depth));
    if (p_ == before) return parseError("expected an operation, got " + describe(t_, p_), p_);
    if (cancel_ && depth == partDepth_ && before < stopAt_ && stopAt_ < p_) {
      // A helper's op that holds the next part's start (a function with
      // that part in its body): the part ends before it, and the first
      // thread, which parses the op itself, meets that start inside it.
      dropOpsFrom(index);
      p_ = before;
      skipFrom_ = static_cast<size_t>(-1);
      break;
    }
    if (region) opScratch_.push_back(index);
    else tree_.topLevel.push_back(index);
    any = true;
  }
  if (region) flush(p_);
  return okStatus();
}

}  // namespace op_tree_detail

using op_tree_detail::definesSymbol;
using op_tree_detail::TreeParser;

std::vector<int> OpTree::modules() const {
  std::vector<int> out;
  for (int i : topLevel)
    if (ops[i].name == "module" || ops[i].name == "builtin.module") out.push_back(i);
  return out;
}

const TreeVec<int>* OpTree::bodyOps(int owner) const {
  if (owner < 0) return &topLevel;
  const OpNode& o = ops[owner];
  if (o.regions.empty() || o.regions[0].blocks.empty()) return nullptr;
  return &o.regions[0].blocks[0].ops;
}

int OpTree::enclosingModule(int op) const {
  for (int p = ops[op].parent; p >= 0; p = ops[p].parent)
    if (ops[p].name == "module" || ops[p].name == "builtin.module") return p;
  return -1;
}

int OpTree::enclosingFunc(int op) const {
  for (int p = ops[op].parent; p >= 0; p = ops[p].parent)
    if (ops[p].name == "func.func") return p;
  return -1;
}

int OpTree::lookupSymbol(int module, std::string_view name) const {
  const TreeVec<int>* body = bodyOps(module);
  if (!body) return -1;
  for (int i : *body)
    if (definesSymbol(ops[i].name) && ops[i].symbolName == name) return i;
  return -1;
}

Result<OpTree> parseOpTree(std::string_view text) { return parseOpTree(text, OpTreeParseOptions()); }

Result<OpTree> parseOpTree(std::string_view text, const OpTreeParseOptions& options) {
  unsigned threads = options.threads ? options.threads : op_tree_detail::defaultParseThreads();
  return TreeParser(text).run(threads, options.parallelFrom);
}

Result<AttrDictNode> parseAttrDict(std::string_view text, size_t at) { return TreeParser(text).dictAt(at); }

}  // namespace shardbridge::module
