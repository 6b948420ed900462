// shardbridge: convert, check and print Shardy and XLA shardings.
//
// Exit codes: 0 success, 1 an input error (diagnostic on stderr), 2 a usage
// error. CLI11 2.1 exits with its own codes (105 for a conversion error, 106
// for a validation error, ...); all of those are usage errors here and map
// to 2.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "commands.h"
#include "sb_build_description.h"  // generated: SB_BUILD_DESCRIPTION, `git describe`
#include "shardbridge/version.h"

int main(int argc, char** argv) {
  CLI::App app{"shardbridge: convert between Shardy (sdy) and XLA HloSharding shardings",
               "shardbridge"};
  app.require_subcommand(1);
  // `shardbridge 0.1.0 (git 07390fa-dirty, protobuf 3.21.12)`
  app.set_version_flag("--version", std::string("shardbridge ") + shardbridge::versionString() +
                                        " (git " SB_BUILD_DESCRIPTION ", protobuf " +
                                        shardbridge::protobufVersion() + ")");

  shardbridge::tools::Runner run;
  shardbridge::tools::registerSdyCommand(app, run);
  shardbridge::tools::registerHloCommand(app, run);
  shardbridge::tools::registerEqualCommand(app, run);
  shardbridge::tools::registerExportCommand(app, run);
  shardbridge::tools::registerImportCommand(app, run);
  shardbridge::tools::registerConvertCommand(app, run);
  shardbridge::tools::registerListCommand(app, run);
  shardbridge::tools::registerExplainCommand(app, run);
  shardbridge::tools::registerShowCommand(app, run);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);  // prints help, exit 0
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message
    return 2;
  }
  if (!run) return 2;
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::cerr << "shardbridge: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    // Library code reports errors as values; this is a last line of defence
    // so no input ends in std::terminate.
    std::cerr << "shardbridge: internal error: " << e.what() << "\n";
    return 1;
  }
}
