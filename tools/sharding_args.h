// Reading HloSharding arguments (HLO text, text/binary/JSON OpSharding, `-`
// for stdin, `@path`), shared by `hlo`, `equal` and `import`.
#pragma once

#include <optional>
#include <string>

#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/proto/sharding_input.h"

namespace shardbridge::tools {

// Reads one INPUT argument and parses it in `format` (detected when
// nullopt). On failure reports the error on stderr (no caret for binary
// input) and returns nullopt: an input error, exit 1.
std::optional<hlo::HloSharding> readShardingArg(const std::string& arg,
                                                std::optional<proto::ShardingFormat> format);

}  // namespace shardbridge::tools
