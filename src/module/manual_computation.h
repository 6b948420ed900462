// Reading an `sdy.manual_computation` op of the op tree:
//   %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>]
//        out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<4xf32>) { ... }
// One reader for every pass that lowers, re-exports or lists it
// (shard-map export, the round-trip shard-map export, sharding sites).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

struct ManualComputationParts {
  std::vector<TextSpan> in;   // each in-sharding's `<...>`
  std::vector<TextSpan> out;  // each out-sharding's `<...>`
  TextSpan axesSpan;          // manual_axes' `{...}`
  std::vector<std::string> axes;  // the manual axes, in order, quotes stripped
};

// A manual-axes list `{"x", "y"}` (or `{}`) starting at `t[open]`: each
// axis a quoted MLIR string, separated by commas. `axes` holds each name as
// written between its quotes (escapes kept); `end` is just past the `}`.
// Errors (kParse, located in `t`): no `{` at `open`, anything but a quoted
// name where one is due, an unterminated string, a missing `,` or `}`.
struct AxisList {
  std::vector<std::string> axes;
  size_t end = 0;
};
Result<AxisList> readAxisList(std::string_view t, size_t open);

// The parts of `op` (an sdy.manual_computation) in `t`, read between the op
// name and its region. Errors (kParse, located): a missing `in_shardings`,
// `out_shardings` or `manual_axes`, a missing `=`, `[`, `]` or `{`, an
// unterminated string or unbalanced brackets, a manual-axes list that
// readAxisList refuses.
Result<ManualComputationParts> readManualComputation(std::string_view t, const OpNode& op);

// That no sdy.manual_computation of `tree` defines its result name again:
// in the block of another one, or inside one that defines it (invalid MLIR,
// which the op tree lets through). The export redirects those results' uses
// by name, so a repeated name would have its uses redirected twice.
// Error (kParse, at the second definition): "redefinition of SSA value '%0'".
Status checkManualResultNames(std::string_view t, const OpTree& tree);

// `#sdy<manual_axes{"x", "y"}>`, as the export passes write the axes.
std::string manualAxesAttr(const std::vector<std::string>& axes);

// The mesh of one in/out sharding `<@m, [...]>` or `<mesh<[...]>, [...]>`
// as written (`@m`, `mesh<[...]>`, so that a sharding made from it names
// the same mesh), or empty when the text names none.
std::string_view shardingMesh(std::string_view sharding);

// The names of the outlined manual-computation bodies a pass writes into a
// module: `base`, then `base_N` with one counter per module, skipping the
// module's own symbols, as MLIR's symbol table names a clash. Only the
// module's symbols that start with `base` can clash (the names handed out
// never repeat), so only those are kept.
class BodyNames {
 public:
  BodyNames(const OpTree& tree, std::string_view base) : tree_(tree), base_(base) {}
  std::string next(int module);

 private:
  struct Module {
    bool filled = false;
    bool plainGiven = false;  // `base` itself handed out
    int counter = 0;
    std::set<std::string> taken;
  };
  const OpTree& tree_;
  std::string base_;
  std::map<int, Module> modules_;
};

}  // namespace shardbridge::module
