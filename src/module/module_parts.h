// A large module run in parts: the steps of a pipeline run on pieces of the
// module cut between its top-level functions, on several threads, and the
// outputs are joined into the text one run of the whole module gives
// (docs/module.md "Large modules in parts"). Each part is the module's text
// before its first function (the `module` line, meshes, aliases), some of
// its functions, and its text after the last one (the closing `}`, `#loc`
// lines). Peak memory is then the input, the output and a few parts' trees,
// rather than a tree of the whole module.
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "module/run_steps.h"
#include "shardbridge/module/convert_module.h"

namespace shardbridge::module {

struct PartOptions {
  size_t partBytes = size_t{256} << 10;  // functions' text per part, about (a part holds whole functions)
  size_t minBytes = size_t{1} << 20;    // a smaller input runs whole
  unsigned threads = 0;                // 0: as many as the parse would use (SHARDBRIDGE_THREADS, the cores)
};

// The defaults, or SHARDBRIDGE_PART_BYTES=N from the environment: parts of
// about N bytes for an input of any size that has two or more of them (N=1:
// one function a part, for tests); N=0 turns parts off.
PartOptions partOptionsFromEnv();

// Where `input` may be cut (the layout runInParts reads, for tests): the
// first function's offset, then each later part's first function, then the
// offset of the module's closing `}` line. Empty when the module cannot be
// cut into two or more parts of about `partBytes` (see runInParts).
std::vector<size_t> partCuts(std::string_view input, size_t partBytes);

// The groups runInGroups would run (for tests): each part's functions, as
// indices in text order. Empty when the module cannot be read
// (functionLayout, part_layout.h) or gives fewer than two parts of about
// `partBytes`: a function and every function it names (transitively) are
// in one part; groups are taken in order of their first function and a
// part is closed once it holds `partBytes` of text.
std::vector<std::vector<size_t>> partGroups(std::string_view input, size_t partBytes);

// `steps` run on `input` in parts: in contiguous runs of functions when
// every step is partable (PassDef::partable, the export pipelines), else in
// groups of functions (runInGroups, the import pipelines).
//
// The contiguous way needs one top-level module whose functions are
// printed as MLIR prints them (`  func.func` at two blanks; part_layout.h),
// no symbol reference between functions of different parts, and none of
// the ops whose lowering numbers something across the module (channel
// handles: the manual reduction collectives) or the names of outlined
// bodies already in it. The outlined manual computation bodies of all
// parts are renumbered into one sequence and put after every function, as
// one run puts them.
//
// nullopt when parts do not apply, or when a part's run has an error or a
// warning, or its text outside the functions comes out unlike the first
// part's: the caller then runs the whole module, which gives the output,
// errors and warnings of record.
std::optional<ConvertedModule> runInParts(std::string_view input, const std::vector<Step>& steps,
                                          const PartOptions& options);

// The way in groups: the functions fall into groups that name each other
// (a function and every function it names, transitively, are in one
// group), and each part is some groups, its functions in their order in
// the module. Every step is groupable (PassDef::groupable), or has a
// prefilter of words (PassDef::needsAny only) that skips it in every part,
// and so in the whole module. A part's output functions are its input
// functions that remain, in order; they are put back in the module's order.
// For xla-sdy-import-shardings every part infers its mesh from the
// shardings of the whole module (ImportSeed, import_seed.h), which is
// refused when that inference could depend on their order (a V3 sharding,
// an order upstream cannot import) or could read shardings the text scan
// does not see (the round-trip form, shardings outside the functions).
// nullopt as above, and when the parts' shardings are not all of the
// module's.
std::optional<ConvertedModule> runInGroups(std::string_view input, const std::vector<Step>& steps,
                                           const PartOptions& options);

}  // namespace shardbridge::module
