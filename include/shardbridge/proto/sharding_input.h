// Reading one HloSharding from whatever a user hands over: HLO sharding
// text, or an OpSharding as text format, JSON or binary.
//
//   readSharding("{devices=[2,2]<=[4]}")           -> HLO text
//   readSharding("type: MAXIMAL\ntile_assignment_devices: 3")  -> pbtxt
//   readSharding("\x08\x01\x22\x01\x03")           -> pb (not text, parses as binary)
// all give a sharding (the last two `{maximal device=3}`).
#pragma once

#include <optional>
#include <string_view>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/proto/op_sharding.h"

namespace shardbridge::proto {

enum class ShardingFormat : uint8_t { kHloText, kProtoText, kProtoBinary, kProtoJson };

// "text", "pbtxt", "pb", "json" (the CLI's --from/--to spellings).
const char* shardingFormatName(ShardingFormat format);

// The format `data` looks like, judged from its first significant byte:
// after blanks and comments (`// ...`, `/* ... */`, `# ...`), `{` followed
// (after blanks) by `"` is JSON, any other `{` HLO sharding text; otherwise
// pbtxt if `data` is valid UTF-8 without NUL or other control bytes than
// tab/CR/LF, else pb. A binary proto that happens to look like text is told
// apart by readSharding, not here.
ShardingFormat detectShardingFormat(std::string_view data);

struct ReadSharding {
  hlo::HloSharding sharding;
  ShardingFormat format = ShardingFormat::kHloText;  // the format it was read as
};

// Parses `data` in `format`, or, when none is given, in the detected one
// with one fallback: text that fails to parse as pbtxt (a syntax error, not
// a fromProto error) but parses as binary and passes fromProto is taken as pb. On failure the
// error is that of the detected format (offsets refer to `data` for HLO text
// and pbtxt). fromProto errors (kInvalid / kUnsupported) are never retried.
Result<ReadSharding> readSharding(std::string_view data,
                                  std::optional<ShardingFormat> format = std::nullopt,
                                  const ProtoParseOptions& options = {});

}  // namespace shardbridge::proto
