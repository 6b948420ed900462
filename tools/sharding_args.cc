#include "sharding_args.h"

#include <utility>

#include "cli_util.h"

namespace shardbridge::tools {

Error textErrorFirst(const Error& error, std::string_view data) {
  Status text = checkText(data);
  if (text) return error;
  size_t first = data.find_first_not_of(" \t\r\n");
  if (first >= text.error().offset) return error;
  char c = data[first];
  bool textStart = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '{' || c == '#' ||
                   c == '/' || c == '"';
  return textStart ? text.error() : error;
}

Status checkMetadataUtf8(const hlo::HloSharding& sharding) {
  for (const hlo::HloSharding* leaf : hlo::leavesOf(sharding)) {
    for (const hlo::OpMetadata& md : leaf->metadata()) SB_TRY(hlo::checkOpMetadataUtf8(md));
  }
  return okStatus();
}

std::optional<hlo::HloSharding> readShardingArg(const std::string& arg,
                                                std::optional<proto::ShardingFormat> format) {
  const bool binary = format == proto::ShardingFormat::kProtoBinary;
  std::optional<InputText> input = readArg(arg, InputKind::kSharding, /*allowEmpty=*/binary);
  if (!input) return std::nullopt;
  proto::ProtoParseOptions options;
  options.maxInputBytes = inputLimit(InputKind::kSharding);
  auto read = proto::readSharding(input->text, format, options);
  if (!read) {
    Error error = format ? read.error() : textErrorFirst(read.error(), input->text);
    // Byte offsets into binary data mean nothing on a terminal.
    if (binary || (error.hasOffset() && error.offset > input->text.size())) {
      error.dropOffsets();
    }
    reportError(error, *input);
    return std::nullopt;
  }
  // A proto's metadata strings are checked here (HLO text's in its parser,
  // located), so that what is printed or serialized re-reads in XLA.
  if (Status utf8 = checkMetadataUtf8(read->sharding); !utf8) {
    reportError(utf8.error(), "", input->name);
    return std::nullopt;
  }
  return std::move(read->sharding);
}

}  // namespace shardbridge::tools
