// Fuzz target for text-format OpSharding input: any bytes in; when they parse
// and pass fromProto, toProto must give a proto that converts back to an
// equal sharding, printing and serializing identically.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shardbridge/proto/pb/convert.h"
#include "shardbridge/proto/pb/wire.h"

#include "op_sharding_round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto proto = shardbridge::proto::parseOpShardingText(text);
  if (!proto.has_value()) return 0;
  // The printed text format parses back.
  if (!shardbridge::proto::parseOpShardingText(shardbridge::proto::printOpShardingText(*proto))
           .has_value()) {
    __builtin_trap();
  }
  shardbridge_fuzz::checkRoundTrip(*proto);
  return 0;
}
