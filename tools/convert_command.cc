// `shardbridge convert`: a whole MLIR module's shardings converted in place,
// as OpenXLA's Shardy export (--to hlo) or import (--to sdy) pass does
// (issue 5 item 1).
//
//   shardbridge convert --to hlo|sdy [-o FILE] [--v3] [FILE|-]
//
// Prints the converted module (or writes it to FILE, atomically, only when
// the whole conversion succeeded) and exits 0; warnings (a mesh kept, what
// an import loses) go to stderr, and with --timing where the time went. An input error is rendered as FILE:LINE:COL on
// stderr with exit code 1; a usage error exits 2.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "shardbridge/base/diagnostic.h"
#include "shardbridge/base/json_writer.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/pipeline.h"
#include "shardbridge/module/mlir_input.h"

namespace shardbridge::tools {
namespace {

struct ConvertOptions {
  std::string to;
  std::string output;
  bool v3 = false;
  bool upstreamOrder = false;
  bool json = false;
  bool timing = false;
  std::string input = "-";
  std::vector<std::string> passes;  // --pass, in order
  bool roundTrip = false;
  // Pipeline options given as flags of their own name (set: "true").
  std::vector<std::string> optionFlags;
};

// The upstream pipeline options that are also flags of `convert`.
const char* const kOptionFlags[] = {"enable-hlo-sharding-v3", "keep-hlo-sharding-constraints",
                                    "keep-meshes-inlined"};

// The passes `convert` runs: the --pass list, else the friendly --to form.
Result<std::vector<module::PassSpec>> conversionPasses(const ConvertOptions& options, std::string_view text) {
  std::vector<module::PassSpec> specs;
  for (const std::string& p : options.passes) {
    SB_ASSIGN_OR_RETURN(module::PassSpec spec, module::parsePassSpec(p));
    specs.push_back(std::move(spec));
  }
  if (specs.empty()) {
    std::vector<std::pair<std::string, std::string>> extra;
    if (options.to == "sdy" && options.upstreamOrder && module::importPipelineFor(text) == "xla-sdy-stablehlo-import-pipeline")
      extra.push_back({"upstream-device-order", "true"});
    SB_ASSIGN_OR_RETURN(module::PassSpec spec,
                        module::conversionSpec(options.to == "hlo", options.roundTrip, text, extra));
    specs.push_back(std::move(spec));
  }
  // Option flags apply to every pass that has the option.
  std::vector<std::pair<std::string, std::string>> flags;
  if (options.v3) flags.push_back({"enable-hlo-sharding-v3", "true"});
  for (const std::string& f : options.optionFlags) flags.push_back({f, "true"});
  for (module::PassSpec& spec : specs)
    for (const auto& f : flags) spec.options.push_back(f);
  return specs;
}

// The --json document: the converted module (null when written to -o) and
// the warnings, located in the input.
std::string convertJson(const ConvertOptions& options, const InputText& input,
                        const module::ConvertedModule& result) {
  JsonWriter w;
  w.beginObject();
  w.key("to").value(options.to);
  w.key("source").value(input.name);
  w.key("output");
  if (options.output.empty()) {
    w.null();
  } else {
    w.value(options.output);
  }
  w.key("warnings").beginArray();
  LineIndex lines(input.text);
  for (const module::ModuleWarning& warning : result.warnings) {
    LineCol at = lines.at(warning.offset);
    w.beginObject(JsonWriter::kInline);
    w.key("line").value(static_cast<int64_t>(at.line));
    w.key("column").value(static_cast<int64_t>(at.column));
    w.key("message").value(warning.message);
    w.endObject();
  }
  w.endArray();
  w.key("module");
  if (options.output.empty()) {
    w.value(result.text);
  } else {
    w.null();
  }
  w.endObject();
  return w.finish();
}

// `--timing`: where the run's wall-clock time went, step by step, on stderr.
// Steps a prefilter skipped are listed without times, so the order of the
// pipeline stays visible.
std::string timingReport(const module::ConvertedModule& result, double read, double write, double total) {
  const std::vector<module::PassTiming>& timings = result.timings;
  size_t width = 12;
  for (const module::PassTiming& t : timings) width = std::max(width, t.name.size());
  std::string out = "timing (wall-clock seconds):\n";
  // In parts, a step's times are summed over the parts, which ran side by
  // side: the steps can then add up to more than the total.
  if (result.parts)
    out += "  (in " + std::to_string(result.parts) + " parts on " + std::to_string(result.partThreads) +
           " threads; each step's times summed over the parts)\n";
  auto row = [&](const std::string& name, const std::string& figures) {
    out += "  " + name + std::string(width - name.size() + 2, ' ') + figures + "\n";
  };
  auto fmt = [](const char* label, double seconds) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s %8.4f", label, seconds);
    return std::string(buf);
  };
  row("read input", fmt("     ", read));
  double passes = 0;
  for (const module::PassTiming& t : timings) {
    if (t.skipped) {
      passes += t.prefilter;
      row(t.name, fmt("     ", t.prefilter) + "  (skipped: nothing for it in the text)");
      continue;
    }
    double sum = t.prefilter + t.parse + t.run + t.apply;
    passes += sum;
    row(t.name, fmt("     ", sum) + "  (" + fmt("prefilter", t.prefilter) + "  " + (t.parsed ? fmt("parse", t.parse) : "parse        -") + "  " +
                    fmt("run", t.run) + "  " + (t.applied ? fmt("apply", t.apply) : "apply        -") + ")");
  }
  row("write output", fmt("     ", write));
  row("other", fmt("     ", std::max(0.0, total - read - write - passes)));
  row("total", fmt("     ", total));
  return out;
}

// `--pass help`: every pass and pipeline with its options.
std::string passList() {
  std::string out;
  for (const module::PassInfo& p : module::knownPasses()) {
    out += p.name + (p.pipeline ? " (pipeline)" : "") + ": " + p.summary + "\n";
    for (const module::PassOptionInfo& o : p.options)
      out += "    " + o.name + "=" + o.defaultValue + ": " + o.help + "\n";
  }
  return out;
}

int runConvert(const ConvertOptions& options) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  Clock::time_point start = Clock::now();
  setJsonOutput(options.json);
  if (std::find(options.passes.begin(), options.passes.end(), "help") != options.passes.end())
    return printOut(passList());
  // Usage errors before any input is read.
  if (options.to.empty() == options.passes.empty())
    return usageError("convert", "give either --to hlo|sdy or one or more --pass NAME");
  if (options.v3 && options.to == "sdy") return usageError("convert", "--v3 applies to --to hlo only");
  if (options.roundTrip && options.to != "hlo")
    return usageError("convert", "--round-trip applies to --to hlo only");
  // Pass names and options are checked before any input is read.
  auto specs = conversionPasses(options, {});
  if (!specs) {
    if (specs.error().code == ErrorCode::kNotFound || specs.error().code == ErrorCode::kInvalid ||
        specs.error().code == ErrorCode::kParse)
      return usageError("convert", specs.error().message);
    return reportError(specs.error(), "", "shardbridge");
  }
  Clock::time_point readStart = Clock::now();
  std::optional<InputText> read = readArg(options.input, InputKind::kModule, false, /*isPath=*/true);
  if (!read) return 1;
  const InputText& input = *read;
  double readSeconds = since(readStart);
  // --to sdy picks its pipeline from the module (module::importPipelineFor).
  if (options.passes.empty() && options.to == "sdy") specs = conversionPasses(options, input.text);
  if (Status mlir = module::checkMlirModule(input.text); !mlir) return reportError(mlir.error(), input);

  Result<module::ConvertedModule> result = module::runPasses(input.text, *specs);
  if (!result) return reportError(result.error(), input);

  LineIndex lines(input.text);
  for (const module::ModuleWarning& w : result->warnings) {
    LineCol at = lines.at(w.offset);
    std::cerr << input.name << ":" << at.line << ":" << at.column << ": warning: " << w.message << "\n";
  }
  Clock::time_point writeStart = Clock::now();
  int rc = options.output.empty() ? 0 : writeOutputPath(options.output, result->text);
  if (rc == 0 && (options.json || options.output.empty()))
    rc = printOut(options.json ? convertJson(options, input, *result) : result->text);
  if (options.timing) std::cerr << timingReport(*result, readSeconds, since(writeStart), since(start));
  return rc;
}

}  // namespace

void registerConvertCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand(
      "convert", "Convert every sharding of an MLIR module: sdy -> mhlo.sharding or back");
  cmd->add_option("--to", options->to,
                  "hlo: the export pipeline (xla-sdy-stablehlo-export-pipeline: sdy.sharding -> "
                  "mhlo.sharding, sdy.sharding_constraint and reshards -> mhlo.copy, "
                  "sdy.manual_computation -> the @SPMDFullToShardShape / @SPMDShardToFullShape "
                  "custom calls around a call of its outlined body, sdy.mesh ops removed); sdy: the "
                  "import (xla-sdy-round-trip-import-pipeline for the round-trip form: xla.sdy.meshes "
                  "or the round-trip custom calls; else "
                  "xla-sdy-stablehlo-import-pipeline: mhlo.sharding on an inferred mesh)")
      ->check(CLI::IsMember({"hlo", "sdy"}));
  cmd->add_option("--pass", options->passes,
                  "Run the upstream pass or pipeline NAME (repeatable, in order), with options "
                  "in MLIR's syntax: NAME{opt=value opt2=value}; `shardbridge convert --pass "
                  "help` lists the names")
      ->allow_extra_args(false);
  cmd->add_flag("--round-trip", options->roundTrip,
                "With --to hlo: the round-trip export (xla-sdy-round-trip-export-pipeline)");
  for (const char* name : kOptionFlags)
    cmd->add_flag_callback(std::string("--") + name, [options, name] { options->optionFlags.push_back(name); },
                           "Set the pipeline option of this name");
  cmd->add_option("-o,--output", options->output,
                  "Write the module to FILE (only when the whole conversion succeeded; "
                  "symlinks are followed, FIFOs and devices written in place, `-` is stdout)");
  cmd->add_flag("--v3", options->v3,
                "With --to hlo: write V3 NamedSharding strings (alias of --enable-hlo-sharding-v3)");
  cmd->add_flag("--upstream-device-order", options->upstreamOrder,
                "With --to sdy: fail where upstream aborts on device orders no iota mesh "
                "explains, instead of importing them onto a mesh with device_ids");
  cmd->add_flag("--json", options->json,
                "Print {\"to\", \"source\", \"output\", \"warnings\", \"module\"} as JSON: the "
                "converted module as a string (null with -o) and the warnings (docs/json.md)");
  cmd->add_flag("--timing", options->timing,
                "Print on stderr where the wall-clock time went: reading, each pass (its parse of the "
                "module, its own work, writing its edits), writing");
  cmd->add_option("FILE", options->input, "The MLIR module (`-` or absent: stdin)");
  addMaxInputBytesOption(cmd);
  cmd->footer(
      "The output is the input with the sharding attributes and ops rewritten; every\n"
      "other byte is copied. A mesh something unconverted still names is kept, with a\n"
      "warning on stderr that names the reference.\n"
      "Input errors (FILE:LINE:COL on stderr) exit 1 and write nothing; usage errors 2.\n"
      "\n"
      "Examples:\n"
      "  shardbridge convert --to hlo examples/jax_module.mlir\n"
      "  shardbridge convert --to sdy -o out.mlir examples/jax_module_mhlo.mlir\n");
  cmd->callback([&run, options] { run = [options] { return runConvert(*options); }; });
}

}  // namespace shardbridge::tools
