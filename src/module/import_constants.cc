// xla-sdy-import-constants (upstream xla/service/spmd/shardy/
// round_trip_common/import_constants.cc): every `stablehlo.constant` inside
// a function becomes an `sdy.constant` with the same attributes, so that
// later greedy rewrites do not fold it out of nested regions. Both ops print
// alike, so only the op name changes:
//   %0 = stablehlo.constant {sdy.sharding = ...} dense<1> : tensor<i32>
//   -> %0 = sdy.constant {sdy.sharding = ...} dense<1> : tensor<i32>
// See docs/module.md "Import".
#include <string>

#include "module/edit_compose.h"
#include "module/pass.h"

namespace shardbridge::module {

bool importConstantsDefers(const OpTree&) { return true; }

Status runImportConstants(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (op.name != "stablehlo.constant" || tree.enclosingFunc(i) < 0) continue;
    ctx.rw.replace(op.nameSpan, op.generic ? "\"sdy.constant\"" : "sdy.constant");
  }
  return okStatus();
}

Result<bool> runImportConstantsOver(PassContext& ctx, const Rewriter& pending) {
  // A constant the pending edits write (a body they move, say) would be
  // renamed by the two steps, and is not in this tree.
  for (const Rewriter::Edit& e : pending.edits())
    if (e.text.find("stablehlo.constant") != std::string::npos) return false;
  SB_TRY(runImportConstants(ctx));
  // A rename inside bytes the pending edits replace or erase is refused here;
  // whether any other constant sits in a function does not change with them.
  if (!editsCompose(ctx.tree, pending, ctx.rw, {})) return false;
  for (const Rewriter::Edit& e : pending.edits()) ctx.rw.add(e);
  return true;
}

}  // namespace shardbridge::module
