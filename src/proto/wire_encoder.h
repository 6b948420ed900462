// HloSharding -> xla.OpSharding wire bytes without building the message.
//
// encodeOpSharding(s) returns exactly the bytes
// serializeOpSharding(*toProto(s)) returns (protobuf's SerializeToString):
// the fields toProto sets, in field-number order, packed repeated fields,
// defaults omitted as proto3 omits them. Metadata and V3 named shardings are
// nested messages whose bytes come from protobuf itself
// (metadataToProto / namedShardingToProto), so their unknown fields and
// field presence are protobuf's. tests/proto/wire_encoder_test.cc proves the
// identity as a property. Fails only where toProto fails (a V3 leaf whose
// device order is too large to materialise).
#pragma once

#include <string>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::proto {

Result<std::string> encodeOpSharding(const hlo::HloSharding& sharding);

}  // namespace shardbridge::proto
