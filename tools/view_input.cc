#include "view_input.h"

#include <cstdio>
#include <variant>

#include "cli_util.h"
#include "mesh_args.h"
#include "sharding_args.h"
#include "shardbridge/proto/sharding_input.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::tools {
namespace {

// sdy text starts with `#sdy.` or `<` (the stripped `<@mesh, [...]>`);
// everything else goes to readSharding, which tells HLO text from protos.
bool looksLikeSdy(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos) return false;
  return text.substr(i, 5) == "#sdy." || text[i] == '<';
}

}  // namespace

int loadExplanation(sdy::Context& ctx, const ViewInput& input, const std::string& command,
                    view::Explanation& out) {
  std::vector<NamedMesh> meshes;
  if (int rc = parseMeshOptions(ctx, input.meshes, command, meshes)) return rc;

  std::optional<hlo::Shape> shape;
  if (!input.shape.empty()) {
    auto parsed = view::parseViewShape(input.shape);
    if (!parsed) return reportError(parsed.error(), input.shape, "--shape");
    shape = std::move(*parsed);
  }

  std::vector<std::string> manualAxes;
  if (!splitManualAxes(input.manualAxes, manualAxes)) {
    return usageError(command, "empty axis name in --manual-axes '" + input.manualAxes + "'");
  }

  std::optional<InputText> text = readArg(input.sharding, InputKind::kSharding);
  if (!text) return 1;

  Result<view::Explanation> explained = makeError(ErrorCode::kInternal, "nothing explained");
  if (looksLikeSdy(text->text)) {
    sdy::MeshLookup lookup = makeMeshLookup(meshes);
    sdy::SourceMap locations;
    auto attr = sdy::parseAttribute(ctx, text->text, &locations);
    if (!attr) return reportError(attr.error(), *text);
    const auto* sharding = std::get_if<sdy::TensorShardingAttr>(&*attr);
    if (!sharding) {
      return reportError(makeError(ErrorCode::kInvalid,
                                   "expected one '#sdy.sharding<...>' (" + command +
                                       " takes one sharding)",
                                   0),
                         *text);
    }
    sdy::VerifyOptions options;
    options.locations = &locations;
    Status verified = sdy::verifyTensorSharding(*sharding, lookup, std::nullopt, options);
    if (!verified) return reportError(verified.error(), *text);
    explained = view::explainSdySharding(ctx, *sharding, lookup, shape, manualAxes);
  } else {
    if (meshes.size() > 1) {
      return usageError(command, "an HLO sharding takes at most one --mesh");
    }
    if (!manualAxes.empty()) {
      return usageError(command,
                        "--manual-axes applies to an sdy sharding; an HLO sharding's manual "
                        "axes are its MANUAL subgroup");
    }
    proto::ProtoParseOptions protoOptions;
    protoOptions.maxInputBytes = inputLimit(InputKind::kSharding);
    auto read = proto::readSharding(text->text, std::nullopt, protoOptions);
    if (!read) {
      Error error = textErrorFirst(read.error(), text->text);
      if (error.code != ErrorCode::kParse || error.offset > text->text.size()) {
        error.dropOffsets();
      }
      return reportError(error, *text);
    }
    if (Status utf8 = checkMetadataUtf8(read->sharding); !utf8) {
      return reportError(utf8.error(), "", text->name);
    }
    sdy::MeshAttr mesh = meshes.empty() ? sdy::MeshAttr() : meshes[0].mesh;
    std::string name = meshes.empty() ? "mesh" : meshes[0].name;
    explained = view::explainHloSharding(ctx, read->sharding, mesh, name, shape);
    // Said, not dropped in silence: what the named form leaves out.
    if (explained) {
      for (const std::string& warning : explained->warnings) {
        std::fprintf(stderr, "%s: warning: %s\n", text->name.c_str(), warning.c_str());
      }
    }
  }
  if (!explained) {
    Error error = explained.error();
    error.dropOffsets();
    return reportError(error, "", "<input>");
  }
  out = std::move(*explained);
  return 0;
}

void addManualAxesOption(CLI::App* cmd, std::string& value) {
  cmd->add_option("--manual-axes", value,
                  "With an sdy sharding: comma-separated axes an enclosing manual "
                  "computation makes manual, in order (as `export --manual-axes`)")
      ->expected(1)
      ->allow_extra_args(false);
}

}  // namespace shardbridge::tools
