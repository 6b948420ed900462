// `shardbridge hlo` and `shardbridge equal`: placeholders until the proto/CLI
// work of issue 3 lands.
#include "cli_util.h"
#include "commands.h"

namespace shardbridge::tools {

void registerHloCommand(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand("hlo", "Read, validate, print and convert one XLA HloSharding");
  cmd->callback([&run] { run = [] { return 2; }; });
}

void registerEqualCommand(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand("equal", "Compare two HloShardings with XLA's equality");
  cmd->callback([&run] { run = [] { return 2; }; });
}

}  // namespace shardbridge::tools
