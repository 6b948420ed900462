// The encoding-level API: bytes / text / JSON <-> HloSharding.
#include "shardbridge/proto/op_sharding.h"

#include "proto/wire_encoder.h"
#include "shardbridge/proto/pb/convert.h"
#include "shardbridge/proto/pb/wire.h"

namespace shardbridge::proto {

const char* protoFormatName(ProtoFormat format) {
  switch (format) {
    case ProtoFormat::kBinary: return "pb";
    case ProtoFormat::kText: return "pbtxt";
    case ProtoFormat::kJson: return "json";
  }
  return "?";
}

Result<hlo::HloSharding> parseOpSharding(std::string_view data, ProtoFormat format,
                                         const ProtoParseOptions& options) {
  Result<wire::OpSharding> proto = makeError(ErrorCode::kInternal, "unknown proto format");
  switch (format) {
    case ProtoFormat::kBinary: proto = parseOpShardingBinary(data, options); break;
    case ProtoFormat::kText: proto = parseOpShardingText(data, options); break;
    case ProtoFormat::kJson: proto = parseOpShardingJson(data, options); break;
  }
  if (!proto) return std::move(proto).error();
  return fromProto(*proto, options);
}

Result<std::string> printOpSharding(const hlo::HloSharding& sharding, ProtoFormat format) {
  // The bytes are written directly (no message in between); the encoder is
  // proven byte-identical to toProto + SerializeToString by a property test.
  if (format == ProtoFormat::kBinary) return encodeOpSharding(sharding);
  SB_ASSIGN_OR_RETURN(const wire::OpSharding proto, toProto(sharding));
  switch (format) {
    case ProtoFormat::kBinary: return serializeOpSharding(proto);
    case ProtoFormat::kText: return printOpShardingText(proto);
    case ProtoFormat::kJson: return printOpShardingJson(proto);
  }
  return makeError(ErrorCode::kInternal, "unknown proto format");
}

}  // namespace shardbridge::proto
