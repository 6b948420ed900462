// The round-trip invariant shared by the OpSharding fuzz targets.
#pragma once

#include "shardbridge/proto/pb/convert.h"
#include "shardbridge/proto/pb/wire.h"

namespace shardbridge_fuzz {

// fromProto -> toProto -> fromProto. Like XLA's, fromProto's Subgroup can
// leave a shape its own normalisation would simplify further on a second
// pass (`[1,3] last_tile_dims={maximal, unreduced}` -> `[3]
// last_tile_dims={unreduced}` -> `{unreduced}`), so the identity is required
// from the first re-conversion on: the proto of the second sharding must
// convert back to an equal sharding with the same text and bytes.
inline void checkRoundTrip(const shardbridge::wire::OpSharding& proto) {
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

}  // namespace shardbridge_fuzz
