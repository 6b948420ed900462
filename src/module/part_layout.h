// How the parts runner (module_parts.h) reads a module it may cut: one
// top-level module whose functions are printed as MLIR prints them, found
// by a scan of the text, without a parse. Both ways of cutting (contiguous
// runs of functions for the export, groups of functions that name each
// other for the import) start from it.
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace shardbridge::module {

// The line that starts a top-level function, with the newline before it.
inline constexpr std::string_view kFuncLine = "\n  func.func ";

struct FunctionLayout {
  size_t begin = 0;  // the first function's line
  size_t end = 0;    // the line of the module's closing `}`
  // Each function's line, in text order; function i's text runs to the
  // next one's line (to `end` for the last), blank lines included.
  std::vector<size_t> funcs;
  std::unordered_map<std::string_view, size_t> index;  // name -> i
  size_t funcEnd(size_t i) const { return i + 1 < funcs.size() ? funcs[i + 1] : end; }
};

// The layout of `t`, or nullopt when it is not one the parts can
// reproduce: more than kMaxTreeText bytes; no function; a function or a
// line at column 0 (a second module, a `}` closing something else) among
// the functions; a line at two blanks among them that is neither a
// function's first line nor its closing `  }` (an op between functions,
// which only the part it fell in would see); after the closing `}` lines
// other than `#` aliases and blank ones; a function without a name, or two
// of one name; or a reference to a function from the text outside the
// functions.
std::optional<FunctionLayout> functionLayout(std::string_view t);

// The symbol a `  func.func [visibility] @name` line defines (`line`: the
// newline before it).
std::string_view definedSymbol(std::string_view t, size_t line);

// Where a part's functions begin in its output `out`, which must end with
// `suffix`, the input's text after the functions: the first function's
// line, or where `suffix` begins when no function is left. nullopt when
// `out` does not end with `suffix` or starts with a function.
std::optional<size_t> partFunctionsBegin(std::string_view out, std::string_view suffix);

}  // namespace shardbridge::module
