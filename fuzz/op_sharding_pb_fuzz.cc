// Fuzz target for binary OpSharding input: any bytes in; when they parse and
// pass fromProto, toProto must give a proto that converts back to an equal
// sharding, printing and serializing identically.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shardbridge/proto/convert.h"
#include "shardbridge/proto/wire.h"

namespace {

// fromProto -> toProto -> fromProto. Like XLA's, fromProto's Subgroup can
// leave a shape its own normalisation would simplify further on a second
// pass (`[1,3] last_tile_dims={maximal, unreduced}` -> `[3]
// last_tile_dims={unreduced}` -> `{unreduced}`), so the identity is required
// from the first re-conversion on: the proto of the second sharding must
// convert back to an equal sharding with the same text and bytes.
void checkRoundTrip(const xla::OpSharding& proto) {
  using shardbridge::proto::fromProto;
  using shardbridge::proto::serializeOpSharding;
  using shardbridge::proto::toProto;
  auto first = fromProto(proto);
  if (!first.has_value()) return;
  auto firstProto = toProto(*first);
  if (!firstProto.has_value()) __builtin_trap();
  auto second = fromProto(*firstProto);
  if (!second.has_value()) __builtin_trap();
  auto secondProto = toProto(*second);
  if (!secondProto.has_value()) __builtin_trap();
  auto third = fromProto(*secondProto);
  if (!third.has_value()) __builtin_trap();
  if (!(*third == *second)) __builtin_trap();
  if (third->toString(true) != second->toString(true)) __builtin_trap();
  auto thirdProto = toProto(*third);
  if (!thirdProto.has_value()) __builtin_trap();
  if (serializeOpSharding(*thirdProto) != serializeOpSharding(*secondProto)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto proto = shardbridge::proto::parseOpShardingBinary(bytes);
  if (!proto.has_value()) return 0;
  // Unknown fields included, a parsed message serializes to bytes that
  // parse back to the same message.
  const std::string once = shardbridge::proto::serializeOpSharding(*proto);
  auto reparsed = shardbridge::proto::parseOpShardingBinary(once);
  if (!reparsed.has_value()) __builtin_trap();
  if (shardbridge::proto::serializeOpSharding(*reparsed) != once) __builtin_trap();
  checkRoundTrip(*proto);
  return 0;
}
