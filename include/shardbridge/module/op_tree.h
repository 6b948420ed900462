// An op tree over MLIR text: the structure of a module (ops, their results,
// operands, attribute dictionary, properties, regions and blocks; functions
// and symbol tables; several top-level modules per file) as spans of the
// source, without an MLIR parser and without copying the text.
//
// Every node is a byte range of the text it was parsed from, so that a pass
// can rewrite one piece (an attribute, an op) and leave every other byte as
// it was (see module/rewriter.h).
//
//   parseOpTree("module {\n  func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
//               "    %0 = stablehlo.add %a, %a : tensor<2xf32>\n    return %0 : tensor<2xf32>\n  }\n}\n")
//   -> ops[0]: "module" (one region, one block: [ops[1]])
//      ops[1]: "func.func" @f, argument %a, one region whose block holds ops[2], ops[3]
//      ops[2]: "stablehlo.add", results [%0], uses [%a, %a], signature `tensor<2xf32>`
//      ops[3]: "return", uses [%0]
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/module/tree_arena.h"

namespace shardbridge::module {

// [begin, end) byte range of the source. The offsets are 32-bit, since
// spans are most of a node (an op node is 264 bytes with them, 336 with
// 64-bit ones); parseOpTree refuses a text over kMaxTreeText bytes.
struct TextSpan {
  constexpr TextSpan() = default;
  constexpr TextSpan(size_t b, size_t e) : begin(static_cast<uint32_t>(b)), end(static_cast<uint32_t>(e)) {}
  uint32_t begin = 0;
  uint32_t end = 0;
  bool empty() const { return begin == end; }
  size_t size() const { return end - begin; }
  std::string_view in(std::string_view text) const { return text.substr(begin, end - begin); }
};

// One `key = value` (or unit `key`) entry of an attribute dictionary.
struct AttrEntry {
  TextSpan whole;         // key through the end of the value
  TextSpan key;           // as written (quotes included for a string key)
  std::string_view name;  // the key, quotes stripped
  TextSpan value;         // empty for a unit attribute
};

// A `{...}` attribute dictionary.
struct AttrDictNode {
  TextSpan whole;  // `{` through `}`; empty when the op has none
  TreeVec<AttrEntry> entries;
  bool present() const { return !whole.empty(); }
  const AttrEntry* find(std::string_view name) const {
    for (const AttrEntry& e : entries)
      if (e.name == name) return &e;
    return nullptr;
  }
};

// An op's result group (`%0`, `%1:2`): the name and the count only, since a
// result has no written type, dictionary or location of its own. Kept apart
// from ValueDef so that an op's results take 12 bytes each, not 72 (the tree
// is the largest thing a pipeline holds; docs/performance.md "The op tree's
// result groups").
struct ResultDef {
  TextSpan name;  // `%0` (the `:2` count excluded)
  int count = 1;  // values in the group
};

// A value definition: a block argument (or a func.func argument).
struct ValueDef {
  TextSpan name;     // `%0` (the `:2` count excluded)
  int count = 1;     // values in the group
  TextSpan type;     // a block argument's written type; empty for results
  AttrDictNode dict; // a block argument's (func argument's) dictionary
  TextSpan loc;      // a block argument's trailing `loc(...)`; empty when absent
};

// A `%name` or `%name#i` use inside an op (outside its regions).
struct ValueUse {
  TextSpan span;  // `%0#1` whole
  std::string_view name;  // `%0`
  int index = 0;          // the `#i`, 0 when absent
};

struct Region;

// A block: an optional `^label(args):` then ops.
struct Block {
  TextSpan whole;
  TextSpan label;                 // `^bb0(...)` header, empty for an implicit entry block
  TreeVec<ValueDef> arguments;  // from the label (or, for an entry block, filled by the owner op)
  TreeVec<int> ops;               // indices into OpTree::ops, in order
};

struct Region {
  TextSpan whole;  // `{` through `}`
  TreeVec<Block> blocks;
};

// A func.func result: `type {dict}`.
struct FuncResult {
  TextSpan type;
  AttrDictNode dict;
};

// What only a func.func has, kept out of the other ops' nodes.
struct FuncParts {
  TreeVec<ValueDef> args;      // the arguments (as block arguments of the entry block)
  TreeVec<FuncResult> results; // the results of the signature
  TextSpan signature;          // `(args) -> results` (or `(args)`), for rewriting it whole
  TextSpan visibility;         // `private` / `public` / `nested`
};

struct OpNode {
  TextSpan whole;    // first result through the op's last byte (its `loc(...)` included)
  TextSpan line;     // `whole` widened to its whole lines when it is alone on them, else `whole`
  TextSpan results;  // `%0, %1:2` (empty when none)
  TreeVec<ResultDef> resultDefs;
  std::string_view name;  // "stablehlo.add", "func.func"; the generic form's quoted name unquoted
  TextSpan nameSpan;      // as written (quotes included in the generic form)
  TextSpan symbol;        // `@name` of module / func.func / sdy.mesh (or a symbol-defining op), empty otherwise
  std::string_view symbolName;  // without '@' and quotes
  AttrDictNode dict;      // the op's attribute dictionary (`attributes {...}` for module / func)
  int dictCount = 0;      // dictionaries read outside the regions, `dict` and any other (nested in brackets)
  bool generic = false;   // `"dialect.op"(...)` form (placed here, beside dictCount, to pad no bytes)
  TextSpan properties;    // `<{...}>` in the generic form
  TreeVec<ValueUse> uses;  // operand and other value uses outside regions, in text order
  TreeVec<Region> regions;
  // The trailing `: type` or `: (types) -> types` outside regions (after
  // the last region); empty when absent.
  TextSpan signature;
  TextSpan loc;          // trailing `loc(...)`
  int parent = -1;       // enclosing op (the region owner), -1 at top level
  int depth = 0;         // nesting depth in ops (top level 0)
  // func.func only (null for other ops): held by the tree (OpTree::funcParts).
  const FuncParts* func = nullptr;

  // A func.func's parts (FuncParts), empty for any other op.
  const TreeVec<ValueDef>& funcArgs() const { return func ? func->args : kNone.args; }
  const TreeVec<FuncResult>& funcResults() const { return func ? func->results : kNone.results; }
  TextSpan funcSignature() const { return func ? func->signature : TextSpan{}; }
  TextSpan funcVisibility() const { return func ? func->visibility : TextSpan{}; }

  // `call @f(...)` or `func.call @f(...)`.
  bool isCall() const { return name == "call" || name == "func.call"; }

 private:
  static const FuncParts kNone;
};

struct OpTree {
  OpTree() = default;
  // Move-only: the nodes point into funcParts. A move-assignment hands the
  // old contents to a temporary that is destroyed whole, nodes before their
  // arena (member-wise assignment would free the old arena first).
  OpTree(OpTree&&) = default;
  OpTree& operator=(OpTree&& other) noexcept {
    OpTree old(std::move(*this));
    arena = std::move(other.arena);
    text = other.text;
    ops = std::move(other.ops);
    funcParts = std::move(other.funcParts);
    topLevel = std::move(other.topLevel);
    aliases = std::move(other.aliases);
    return *this;
  }
  OpTree(const OpTree&) = delete;
  OpTree& operator=(const OpTree&) = delete;

  // Holds the nodes' vectors (tree_arena.h); declared first, so it goes last.
  std::shared_ptr<TreeArena> arena;
  std::string_view text;
  std::vector<OpNode> ops;   // every op, in text order (an op before the ops of its regions)
  // The FuncParts the func.func nodes point to (a deque: its elements stay
  // where they are while it grows and when the tree is moved).
  std::deque<FuncParts> funcParts;
  TreeVec<int> topLevel; // ops not inside any other op
  // Alias definitions at top level (`#loc1 = loc(...)`, `!t = tensor<...>`, `#a = ...`).
  std::vector<TextSpan> aliases;

  // The top-level `module` ops (several per file); when the file has no
  // explicit module, empty (the file's top-level ops form one implicit module).
  std::vector<int> modules() const;
  // The ops directly in the (single-block) region of op `owner`.
  const TreeVec<int>* bodyOps(int owner) const;
  // The innermost op with a symbol table (`module`) enclosing `op`, or -1.
  int enclosingModule(int op) const;
  // The symbol-defining op named `name` directly in module `module` (-1: the
  // implicit top-level module), or -1.
  int lookupSymbol(int module, std::string_view name) const;
  // The enclosing `func.func` of `op`, or -1.
  int enclosingFunc(int op) const;
};

// The largest text parseOpTree accepts, one byte under 4 GiB, so that every
// offset and span end fits TextSpan's 32 bits (a module file is at most 1 GiB,
// base/input.h; a pipeline's rewritten text may grow past its input).
inline constexpr size_t kMaxTreeText = (size_t{1} << 32) - 1;

// Ops nest by recursion in the parser, so their depth is bounded well inside
// a default 8 MB stack even in unoptimised sanitizer builds (real modules
// nest a few dozen levels); brackets inside one op are counted, not
// recursed into.
inline constexpr size_t kMaxOpNesting = 256;
inline constexpr size_t kMaxBracketNesting = 512;

// Parses `text`. Accepts the custom and generic op forms, `loc(...)` tails
// and `#loc` / `!alias` definitions, several top-level modules, `//` comments.
// Errors (kParse, located by Error::offset, never an abort): MLIR bytecode
// ("MLIR bytecode is not supported: convert it to text with mlir-opt or
// stablehlo-translate first"), an unterminated string, unbalanced or
// unclosed brackets, a statement that is not an op (`expected an operation
// name, got ...`), ops nested deeper than kMaxOpNesting, brackets in one op
// nested deeper than kMaxBracketNesting; and (kUnsupported, no offset) a
// text over kMaxTreeText bytes.
Result<OpTree> parseOpTree(std::string_view text);

// How parseOpTree may share its work between threads. The tree is the same
// either way, node for node. With N threads, helper threads parse,
// speculatively, the later of N parts of the text. Each starts after k/N
// of it, at a function (a line `  func.func ...`) or at an op of a
// function's body (`    %...`), and runs to the end of its block or to
// the next part. The calling thread adopts a part only when its own parse
// arrives at that same byte as a statement of a block at the part's
// depth. Anywhere else, or when a part fails, the calling thread parses
// those bytes itself, so an error is the one-thread parse's error
// (docs/module.md "The op tree on several threads").
struct OpTreeParseOptions {
  // Threads for one parse, the calling one included (at most 64); 1 parses on the
  // calling thread only. 0: SHARDBRIDGE_THREADS from the environment when
  // set (1 to 64), else the machine's cores, at most 4.
  unsigned threads = 0;
  // Texts shorter than this are parsed on the calling thread, and each
  // part is at least half this long (a thread's start and the move of its
  // nodes cost about as much as parsing some tens of kilobytes). 0: any
  // text is split into `threads` parts (for tests).
  size_t parallelFrom = size_t{2} << 20;
};
// parseOpTree with `options`; accepts and rejects what parseOpTree does.
Result<OpTree> parseOpTree(std::string_view text, const OpTreeParseOptions& options);

// The attribute dictionary `{...}` starting at `text[at]` (a nested one such
// as the value of `mhlo.attributes`), with spans into `text`.
// Errors (kParse, located): no '{' at `at`, a malformed dictionary.
Result<AttrDictNode> parseAttrDict(std::string_view text, size_t at);

}  // namespace shardbridge::module
