// Reading HloSharding arguments (HLO text, text/binary/JSON OpSharding, `-`
// for stdin, `@path`), shared by `hlo`, `equal`, `import`, `explain` and `show`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/proto/sharding_input.h"

namespace shardbridge::tools {

// Reads one INPUT argument and parses it in `format` (detected when
// nullopt). On failure reports the error on stderr (no caret for binary
// input) and returns nullopt: an input error, exit 1. Zero bytes are an
// error "empty input" except with an explicit kProtoBinary, where they are
// XLA's {replicated}.
std::optional<hlo::HloSharding> readShardingArg(const std::string& arg,
                                                std::optional<proto::ShardingFormat> format);

// Every metadata string of `sharding` is UTF-8 (hlo/op_metadata.h).
Status checkMetadataUtf8(const hlo::HloSharding& sharding);

// The error to show when `data` failed to parse with detected format:
// input that starts as text (a letter, `{`, `#`, `/` or `"` first) but
// holds a NUL, a control byte or invalid UTF-8 gets the located text error
// of base/input.h's checkText instead of a binary-proto error. Otherwise
// `error` itself.
Error textErrorFirst(const Error& error, std::string_view data);

}  // namespace shardbridge::tools
