#include "sharding_args.h"

#include <utility>

#include "cli_util.h"

namespace shardbridge::tools {

std::optional<hlo::HloSharding> readShardingArg(const std::string& arg,
                                                std::optional<proto::ShardingFormat> format) {
  auto input = readInput(arg);
  if (!input) {
    reportError(input.error(), arg, "<input>");
    return std::nullopt;
  }
  auto read = proto::readSharding(input->text, format);
  if (!read) {
    // Byte offsets into binary data mean nothing on a terminal.
    Error error = read.error();
    if (format == proto::ShardingFormat::kProtoBinary) error.offset = Error::kNoOffset;
    reportError(error, *input);
    return std::nullopt;
  }
  return std::move(read->sharding);
}

}  // namespace shardbridge::tools
