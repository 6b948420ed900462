// `shardbridge import`: placeholder until issue 4's CLI lands.
#include "cli_util.h"
#include "commands.h"

namespace shardbridge::tools {

void registerImportCommand(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand("import", "Import HloShardings as sdy shardings, inferring the mesh");
  cmd->callback([&run] { run = [] { return 2; }; });
}

}  // namespace shardbridge::tools
