// The shardbridge subcommands. Each register function adds one subcommand to
// the CLI11 app and, when that subcommand is chosen, stores in `run` the code
// that carries it out. `run` returns the process exit code: 0 success, 1 an
// input error (already reported on stderr), 2 a usage error.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace shardbridge::tools {

using Runner = std::function<int()>;

void registerSdyCommand(CLI::App& app, Runner& run);
// `shardbridge hlo`: read, validate, print and convert one HloSharding.
void registerHloCommand(CLI::App& app, Runner& run);
// `shardbridge equal A B`: XLA's HloSharding equality.
void registerEqualCommand(CLI::App& app, Runner& run);
// `shardbridge export`: an sdy sharding as the HloSharding XLA would write.
void registerExportCommand(CLI::App& app, Runner& run);
// `shardbridge import`: HloShardings as sdy shardings (with mesh inference).
void registerImportCommand(CLI::App& app, Runner& run);
// `shardbridge convert`: a whole MLIR module's shardings, export or import pass.
void registerConvertCommand(CLI::App& app, Runner& run);
// `shardbridge list`: every sharding of a dump or sharding file, with place and forms.
void registerListCommand(CLI::App& app, Runner& run);
// `shardbridge explain` / `show`: one sharding in words, and drawn as a tile grid.
void registerExplainCommand(CLI::App& app, Runner& run);
void registerShowCommand(CLI::App& app, Runner& run);

}  // namespace shardbridge::tools
