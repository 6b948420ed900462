// `shardbridge sdy`: placeholder until the sdy text work lands.
#include "cli_util.h"
#include "commands.h"

namespace shardbridge::tools {

void registerSdyCommand(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand("sdy", "Parse, verify and print one sdy attribute or sdy.mesh line");
  cmd->callback([&run] { run = [] { return 2; }; });
}

}  // namespace shardbridge::tools
