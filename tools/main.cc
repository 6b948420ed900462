// shardbridge: convert, check and print Shardy and XLA shardings.
//
// Exit codes: 0 success, 1 an input or output error (diagnostic on stderr),
// 2 a usage error. CLI11 2.1 exits with its own codes (105 for a conversion
// error, 106 for a validation error, ...); all of those are usage errors
// here and map to 2. A reader that closes stdout early ends the process by
// SIGPIPE, as it ends `cat`.
#include <google/protobuf/stubs/logging.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "sb_build_description.h"  // generated: SB_BUILD_DESCRIPTION, `git describe`
#include "shardbridge/version.h"
#include "suggest.h"

namespace {

using shardbridge::tools::closestName;

// libprotobuf's log lines ("[libprotobuf ERROR ...] String field ... contains
// invalid UTF-8 data") become shardbridge diagnostics, escaped.
void protobufLog(google::protobuf::LogLevel level, const char* /*file*/, int /*line*/,
                 const std::string& message) {
  // Our proto package is renamed so the library can load next to XLA's; the
  // message names XLA's types, as the proto errors do (src/proto/wire.cc).
  std::string named = message;
  for (size_t at = named.find("shardbridge.wire."); at != std::string::npos;
       at = named.find("shardbridge.wire.", at))
    named.replace(at, 17, "xla.");
  std::string_view trimmed = named;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\n')) trimmed.remove_suffix(1);
  std::string text = std::string("shardbridge: ") +
                     (level >= google::protobuf::LOGLEVEL_ERROR ? "error" : "warning") +
                     ": protobuf: " + shardbridge::escapeBytes(trimmed) + "\n";
  std::fwrite(text.data(), 1, text.size(), stderr);
}

std::vector<std::string> subcommandNames(CLI::App& app) {
  std::vector<std::string> names;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

CLI::App* findSubcommand(CLI::App& app, const std::string& name) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

int unknownCommand(CLI::App& app, const std::string& name) {
  std::string message = "shardbridge: error: unknown command '" + shardbridge::escapeBytes(name) + "'";
  std::string close = closestName(name, subcommandNames(app));
  if (!close.empty()) {
    message += "; did you mean '" + close + "'?";
  } else {
    message += "; the commands are:";
    for (const std::string& n : subcommandNames(app)) message += " " + n;
  }
  std::fprintf(stderr, "%s\n", message.c_str());
  return 2;
}

// After a parse error: an option the chosen subcommand does not have, with
// the nearest one it does. Returns 2 when it reported one, else 0.
int unknownOption(CLI::App& app, int argc, char** argv) {
  std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty()) return 0;
  CLI::App* sub = chosen[0];
  std::vector<std::string> known;
  for (const CLI::Option* opt : sub->get_options()) {
    for (const std::string& l : opt->get_lnames()) known.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) known.push_back("-" + s);
  }
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9')) continue;
    std::string name = arg.substr(0, arg.find('='));
    if (sub->get_option_no_throw(name) != nullptr) continue;
    if (name.size() > 2 && name[1] != '-') continue;  // -abc: CLI11's message says it
    std::string message = "shardbridge " + sub->get_name() + ": error: unknown option '" +
                          shardbridge::escapeBytes(name) + "'";
    std::string close = closestName(name, known);
    if (!close.empty()) message += "; did you mean '" + close + "'?";
    message += " (shardbridge help " + sub->get_name() + " lists the options)";
    std::fprintf(stderr, "%s\n", message.c_str());
    return 2;
  }
  return 0;
}

// Help text goes to stdout through the checked writer, so `--help >
// /dev/full` fails too.
int printHelp(CLI::App& app, const CLI::Error& e) {
  std::ostringstream out, err;
  int rc = app.exit(e, out, err);
  std::string errors = err.str();
  std::fwrite(errors.data(), 1, errors.size(), stderr);
  if (int written = shardbridge::tools::printOut(shardbridge::tools::wrapHelp(out.str()))) {
    return written;
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe ends the process as it ends `cat` (status 141 in a shell),
  // whatever disposition the parent left.
  ::signal(SIGPIPE, SIG_DFL);
  shardbridge::guardStandardStreams();
  google::protobuf::SetLogHandler(protobufLog);

  CLI::App app{"shardbridge: convert between Shardy (sdy) and XLA HloSharding shardings",
               "shardbridge"};
  app.require_subcommand(1);
  // `shardbridge 0.1.0 (git 07390fa-dirty, protobuf 3.21.12)`
  app.set_version_flag("--version", std::string("shardbridge ") + shardbridge::versionString() +
                                        " (git " SB_BUILD_DESCRIPTION ", protobuf " +
                                        shardbridge::protobufVersion() + ")");
  app.footer("`shardbridge help COMMAND` (or COMMAND --help) shows a command's options.\n"
             "Exit codes: 0 success, 1 an input or output error, 2 a usage error.");

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

  // `help [COMMAND]`, and a mistyped command named before CLI11 sees it.
  if (argc >= 2 && argv[1][0] != '-') {
    std::string first = argv[1];
    if (first == "help") {
      if (argc == 2) return shardbridge::tools::printOut(shardbridge::tools::wrapHelp(app.help()));
      if (findSubcommand(app, argv[2]) == nullptr) return unknownCommand(app, argv[2]);
      // Exactly what `COMMAND --help` prints.
      std::string help = "--help";
      char* helpArgv[] = {argv[0], argv[2], help.data()};
      try {
        app.parse(3, helpArgv);
      } catch (const CLI::CallForHelp& e) {
        return printHelp(app, e);
      } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
      }
      return 2;
    }
    if (findSubcommand(app, first) == nullptr) return unknownCommand(app, first);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return printHelp(app, e);
  } catch (const CLI::CallForAllHelp& e) {
    return printHelp(app, e);
  } catch (const CLI::CallForVersion& e) {
    return printHelp(app, e);
  } catch (const CLI::ParseError& e) {
    if (int rc = unknownOption(app, argc, argv)) return rc;
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
