// The input shared by `explain` and `show`: one sharding (HLO text,
// OpSharding text/binary/JSON, or an sdy `#sdy.sharding<...>` with --mesh),
// an optional --mesh and an optional --shape, turned into a
// view::Explanation.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "shardbridge/sdy/attrs.h"
#include "shardbridge/view/explain.h"

namespace shardbridge::tools {

struct ViewInput {
  std::string sharding;             // the SHARDING argument (`-`, @FILE or text)
  std::vector<std::string> meshes;  // --mesh values (at most one unnamed / any named)
  std::string shape;                // --shape, empty when not given
  std::string manualAxes;           // --manual-axes (sdy input only), empty when none
};

// Adds --manual-axes to `cmd` (explain and show).
void addManualAxesOption(CLI::App* cmd, std::string& value);

// Reads and explains the input. Returns 0 and fills `out`, or the exit code
// of a failure already reported on stderr (1 input error, 2 usage error).
// `out` refers to attributes of `ctx`.
int loadExplanation(sdy::Context& ctx, const ViewInput& input, const std::string& command,
                    view::Explanation& out);

}  // namespace shardbridge::tools
