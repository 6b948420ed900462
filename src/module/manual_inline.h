// Rebuilding `sdy.manual_computation` from a call of an outlined body, for
// the shard-map imports (upstream xla/service/spmd/shardy/sdy_round_trip/
// shard_map_import.cc and the StableHLO form; see docs/module.md "Import").
// A matcher describes each manual computation it found; `inlineManual`
// writes them: the call's line becomes
//   %r = sdy.manual_computation(%x) in_shardings=[...] out_shardings=[...] manual_axes={...} (%arg0: L) {
//     <the callee's body, re-indented, `return` as `sdy.return`>
//   } : (G) -> R
// and the pattern's other ops go. Values of the body whose names the caller
// already uses are renamed (a body called twice is cloned under new names).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "module/pass.h"
#include "module/word_presence.h"

namespace shardbridge::module {

struct ManualPlan {
  int call = -1;               // the call of the body
  std::vector<int> erased;     // the pattern's other ops, removed
  std::vector<std::string> operands;      // global operands, as written (`%0`, `%1#2`)
  std::vector<std::string> operandTypes;  // their types
  std::vector<std::string> resultTypes;   // the global result types
  // Result i of the manual computation replaces value (name, index).
  std::vector<std::pair<std::string, int>> replaces;
  // When every replaced value comes from one op, its result group's
  // written size (`%r:2` -> 2); 0 otherwise.
  int replacedGroupSize = 0;
  std::string inShardings = "[]", outShardings = "[]";  // `[<@mesh, [...]>, ...]`
  std::string manualAxes = "{}";                          // `{"x", "y"}`
  // Results of the body the manual computation does not return (unused
  // results of the call); empty: all are kept.
  std::vector<bool> dropped;
  // The call only goes (its results are all unused: upstream's 0-element
  // results, replaced by constants).
  bool eraseOnly = false;
};

// Finds the manual computations of `tree` whose callee holds no further
// manual computation (innermost first), or fails with a located error.
using ManualMatcher = std::function<Result<std::vector<ManualPlan>>(const OpTree& tree)>;
// Whether function `name` is an outlined body the matcher rewrites.
using BodyNamePredicate = std::function<bool(std::string_view name)>;

// Rewrites every manual computation `match` finds, innermost first (one
// round per nesting level), then removes the body functions `isBody`
// accepts that no call names any more. Errors: the matcher's; a callee
// that is not a function of the module.
Status inlineManualComputations(PassContext& ctx, const ManualMatcher& match, const BodyNamePredicate& isBody);

// The round-trip shard-map import's last step (func_manual_axes.cc): every
// function called inside a manual computation of the text `ctx.rw` makes
// gets `sdy.func_manual_axes`, recorded on `ctx.rw`. Errors: a call of a
// function the module lacks inside a manual computation ("Failed to lookup
// function: NAME"), unreadable manual axes (kParse, located).
Status setFuncManualAxes(PassContext& ctx);

// Whether setFuncManualAxes can have anything to do on `text`: it holds a
// manual computation and a function call (not a custom call), or an
// `sdy.func_manual_axes` already written.
bool mayNeedFuncManualAxes(std::string_view text);
// The same, with `words` answering whether `text` (its current text) holds
// each word looked for (pass_prefilters.h's kFuncManualAxesWords).
bool mayNeedFuncManualAxes(std::string_view text, WordPresence& words);

// `#sdy.sharding_per_value<[A, B]>` -> `[A, B]` (canonical); `#sdy<manual_axes{"x"}>` -> `{"x"}`.
Result<std::string> perValueList(sdy::Context& ctx, std::string_view text);
Result<std::string> manualAxesList(std::string_view text);

}  // namespace shardbridge::module
