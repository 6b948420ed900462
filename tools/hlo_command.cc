// `shardbridge hlo` and `shardbridge equal`.
//
//   shardbridge hlo [--from text|pbtxt|pb|json] [--to text|pbtxt|pb|json|v3|devices]
//                   [--metadata] [--shape SHAPE [--num-devices N]] INPUT
//   shardbridge equal A B
//
// Exit codes: 0 success (`equal` prints true/false and exits 0 either way),
// 1 an input error (diagnostic on stderr), 2 a usage error.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "mesh_args.h"
#include "sharding_args.h"
#include "shardbridge/convert/json_forms.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/shape.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"
#include "shardbridge/proto/sharding_input.h"

namespace shardbridge::tools {
namespace {

using convert::writeHloShardingJson;

using hlo::HloSharding;
using proto::ShardingFormat;

struct HloOptions {
  std::string from;
  std::string to = "text";
  bool metadata = false;
  std::string shape;
  int64_t numDevices = 0;
  bool hasShape = false;
  bool hasNumDevices = false;
  bool json = false;
  std::string input;
};

std::optional<ShardingFormat> formatFromName(const std::string& name) {
  if (name == "text") return ShardingFormat::kHloText;
  if (name == "pbtxt") return ShardingFormat::kProtoText;
  if (name == "pb") return ShardingFormat::kProtoBinary;
  if (name == "json") return ShardingFormat::kProtoJson;
  return std::nullopt;
}


// `--to v3`: XLA's ToNamedSharding, printed (V2 leaves converted; a V3
// leaf as it is). Errors for shardings with no V3 form ({manual}, ...).
Result<std::string> printV3(const HloSharding& sharding) {
  return hlo::printAsV3(sharding, /*includeMetadata=*/false);
}

// `--to devices`: the device array of each leaf, row-major, one line per
// leaf (`{maximal device=N}` -> "N").
Result<std::string> printDevices(const HloSharding& sharding) {
  std::string out;
  auto leaf = [&out](const HloSharding& named, std::optional<size_t> index) -> Status {
    // A V3 leaf has the device array of its V2 form.
    HloSharding converted;
    if (named.kind() == HloSharding::Kind::kNamed) {
      SB_ASSIGN_OR_RETURN(converted, hlo::toV2Sharding(named));
    }
    const HloSharding& s = named.kind() == HloSharding::Kind::kNamed ? converted : named;
    if (s.isSingleDevice()) {
      out += std::to_string(s.tileAssignment().first());
      out += '\n';
      return okStatus();
    }
    if (s.kind() != HloSharding::Kind::kTiled) {
      std::string what = s.toString();
      if (index) what = "tuple element " + std::to_string(*index) + " " + what;
      return makeError(ErrorCode::kInvalid, "no device array: " + what +
                                                " is not tiled or single-device");
    }
    SB_ASSIGN_OR_RETURN(std::span<const int64_t> devices, s.tileAssignment().devices());
    for (size_t i = 0; i < devices.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(devices[i]);
    }
    out += '\n';
    return okStatus();
  };
  if (sharding.isTuple()) {
    for (size_t i = 0; i < sharding.tupleElements().size(); ++i) {
      SB_TRY(leaf(sharding.tupleElements()[i], i));
    }
  } else {
    SB_TRY(leaf(sharding, std::nullopt));
  }
  return out;
}

// The --json document of `hlo`: the sharding's structure, its OpSharding in
// protobuf's JSON mapping, and its V3 text (null when it has none, e.g.
// {manual}).
Result<std::string> hloJson(const HloSharding& sharding) {
  SB_ASSIGN_OR_RETURN(std::string opSharding,
                      proto::printOpSharding(sharding, proto::ProtoFormat::kJson));
  JsonWriter w;
  w.beginObject();
  w.key("sharding");
  writeHloShardingJson(w, sharding);
  w.key("op_sharding").raw(opSharding);
  w.key("v3");
  if (auto v3 = printV3(sharding)) {
    w.value(*v3);
  } else {
    w.null();
  }
  w.endObject();
  return w.finish();
}

int runHlo(const HloOptions& options) {
  setJsonOutput(options.json);
  if (options.metadata && options.to != "text") {
    return usageError("hlo", "--metadata applies to --to text only");
  }
  std::optional<ShardingFormat> from;
  if (!options.from.empty()) from = formatFromName(options.from);

  // The shape first: a bad --shape is reported before the input is read
  // (which may be stdin).
  std::optional<hlo::Shape> shape;
  if (options.hasShape) {
    auto parsed = hlo::parseShape(options.shape);
    if (!parsed) return reportError(parsed.error(), options.shape, "--shape");
    shape = std::move(*parsed);
  }

  std::optional<HloSharding> sharding = readShardingArg(options.input, from);
  if (!sharding) return 1;

  if (shape) {
    std::optional<int64_t> numDevices;
    if (options.hasNumDevices) numDevices = options.numDevices;
    Status valid = sharding->validate(*shape, numDevices);
    if (!valid) return reportError(valid.error(), "", "<input>");
  }

  Result<std::string> out = std::string();
  if (options.json) {
    out = hloJson(*sharding);
  } else if (options.to == "text") {
    out = hlo::printSharding(*sharding, options.metadata) + "\n";
  } else if (options.to == "pbtxt") {
    out = proto::printOpSharding(*sharding, proto::ProtoFormat::kText);
  } else if (options.to == "pb") {
    out = proto::printOpSharding(*sharding, proto::ProtoFormat::kBinary);
  } else if (options.to == "json") {
    out = proto::printOpSharding(*sharding, proto::ProtoFormat::kJson);
    if (out) *out += "\n";
  } else if (options.to == "v3") {
    out = printV3(*sharding);
    if (out) *out += "\n";
  } else {
    out = printDevices(*sharding);
  }
  if (!out) return reportError(out.error(), "", "<input>");
  return printOut(*out);
}

struct EqualOptions {
  std::string a;
  std::string b;
  bool json = false;
};

int runEqual(const EqualOptions& options) {
  setJsonOutput(options.json);
  const std::string& a = options.a;
  const std::string& b = options.b;
  if (a == "-" && b == "-") return usageError("equal", "only one of A and B can be `-` (stdin)");
  std::optional<HloSharding> first = readShardingArg(a, std::nullopt);
  if (!first) return 1;
  std::optional<HloSharding> second = readShardingArg(b, std::nullopt);
  if (!second) return 1;
  bool equal = *first == *second;
  if (!options.json) return printOut(equal ? "true\n" : "false\n");
  JsonWriter w;
  w.beginObject().key("equal").value(equal);
  w.key("a");
  writeHloShardingJson(w, *first);
  w.key("b");
  writeHloShardingJson(w, *second);
  w.endObject();
  return printOut(w.finish());
}

constexpr const char* kInputHelp =
    "INPUT is the sharding itself, `-` to read it from stdin, or @FILE (binary\n"
    "protos come this way). Without --from its format is detected, skipping\n"
    "blanks and comments (// and /* */, which HLO text allows; #, which text\n"
    "format allows): `{` starts HLO sharding text\n"
    "(`{` then `\"` starts JSON); anything else is a text-format OpSharding;\n"
    "bytes that are not UTF-8 text, or text that fails to parse as text format\n"
    "but parses as a binary OpSharding, are read as binary (pb).\n";

}  // namespace

void registerHloCommand(CLI::App& app, Runner& run) {
  auto options = std::make_shared<HloOptions>();
  auto* cmd = app.add_subcommand("hlo", "Read, validate, print and convert one XLA HloSharding");
  cmd->footer(std::string(kInputHelp) +
              "\n"
              "--to text prints XLA's HloSharding::ToString() (with metadata under\n"
              "--metadata); pbtxt the text-format OpSharding; pb its serialized bytes\n"
              "(no newline); json its proto3 JSON on one line; devices the device\n"
              "array, row-major and comma-separated, one line per tuple element; v3\n"
              "the named (V3) form. --shape runs XLA's Validate against an HLO shape\n"
              "(tuples included), with --num-devices the device count.\n"
              "Input errors exit 1, usage errors 2.\n"
              "\n"
              "Examples:\n"
              "  shardbridge hlo '{devices=[2,2]<=[2,2]T(0,1)}'\n"
              "  shardbridge hlo --to pbtxt '{maximal device=7}'\n"
              "  shardbridge hlo --from pbtxt 'type: OTHER tile_assignment_dimensions: [2, 1]\n"
              "      iota_reshape_dims: 2 iota_transpose_perm: 0'\n"
              "  shardbridge hlo --shape 'f32[4,6]' --num-devices 4 '{devices=[2,2]<=[4]}'\n"
              "  shardbridge hlo --to pb '{devices=[2,2]<=[4]}' > s.pb && shardbridge hlo @s.pb\n");
  cmd->add_option("--from", options->from, "Input format: text, pbtxt, pb or json (default: detect)")
      ->check(CLI::IsMember({"text", "pbtxt", "pb", "json"}));
  cmd->add_option("--to", options->to, "Output: text, pbtxt, pb, json, v3 or devices (default: text)")
      ->check(CLI::IsMember({"text", "pbtxt", "pb", "json", "v3", "devices"}));
  cmd->add_flag("--metadata", options->metadata, "With --to text: print metadata too");
  auto* toOption = cmd->get_option("--to");
  cmd->add_flag("--json", options->json,
                "Print a JSON document: the sharding's structure, its OpSharding "
                "(protobuf JSON) and its V3 text (docs/json.md)")
      ->excludes(toOption);
  auto* shapeOption = cmd->add_option("--shape", options->shape,
                                      "Validate against this HLO shape, e.g. f32[4,6] or "
                                      "(f32[4], s32[])");
  cmd->add_option("--num-devices", options->numDevices,
                  "Device count for --shape validation (1 to 2^31)")
      ->needs(shapeOption)
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 31));
  addMaxInputBytesOption(cmd);
  cmd->add_option("INPUT", options->input, "The sharding, `-` for stdin or @FILE")->required();
  cmd->callback([&run, options, cmd] {
    options->hasShape = cmd->count("--shape") > 0;
    options->hasNumDevices = cmd->count("--num-devices") > 0;
    run = [options] { return runHlo(*options); };
  });
}

void registerEqualCommand(CLI::App& app, Runner& run) {
  auto args = std::make_shared<EqualOptions>();
  auto* cmd = app.add_subcommand("equal", "Compare two HloShardings with XLA's equality");
  cmd->footer(std::string("Prints `true` or `false` (exit 0 either way): XLA's HloSharding\n"
                          "operator==, which ignores metadata and treats an iota as equal to\n"
                          "the explicit device array it stands for.\n\n") +
              "A and B each follow the INPUT rules of `shardbridge hlo`:\n" + kInputHelp +
              "\n"
              "Examples:\n"
              "  shardbridge equal '{devices=[2,2]0,2,1,3}' '{devices=[2,2]<=[2,2]T(1,0)}'\n"
              "  shardbridge equal @examples/op_sharding.pb @examples/op_sharding.pbtxt\n");
  cmd->add_flag("--json", args->json,
                "Print {\"equal\": BOOL, \"a\": ..., \"b\": ...} (docs/json.md)");
  cmd->add_option("A", args->a, "First sharding (text, pbtxt, `-` or @FILE)")->required();
  cmd->add_option("B", args->b, "Second sharding (text, pbtxt, `-` or @FILE)")->required();
  addMaxInputBytesOption(cmd);
  cmd->callback([&run, args] { run = [args] { return runEqual(*args); }; });
}

}  // namespace shardbridge::tools
