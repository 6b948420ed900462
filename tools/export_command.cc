// `shardbridge export`: placeholder until issue 4's CLI lands.
#include "cli_util.h"
#include "commands.h"

namespace shardbridge::tools {

void registerExportCommand(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand("export", "Print an sdy sharding as the HloSharding XLA would write into mhlo.sharding");
  cmd->callback([&run] { run = [] { return 2; }; });
}

}  // namespace shardbridge::tools
