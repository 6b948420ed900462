// A RapidCheck choice shared by the proto tests' sharding generators
// (convert_test.cc, to_proto_arena_test.cc): one of the three tiled kinds
// over a tile assignment.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::proto {

// tile, partialTile, or subgroup with up to rank+1 MANUAL / REPLICATED /
// UNREDUCED subgroup types, of `tiles` with `md`; an error where the kind
// rejects the assignment (callers skip the case with RC_PRE).
inline Result<hlo::HloSharding> genTiledKind(const hlo::TileAssignment& tiles, size_t rank,
                                             const std::vector<hlo::OpMetadata>& md) {
  switch (*rc::gen::inRange(0, 3)) {
    case 0: return hlo::HloSharding::tile(tiles, md);
    case 1: return hlo::HloSharding::partialTile(tiles, md);
    default: {
      auto types = *rc::gen::container<std::vector<hlo::OpShardingType>>(
          *rc::gen::inRange<size_t>(0, rank + 1),
          rc::gen::element(hlo::OpShardingType::kManual, hlo::OpShardingType::kReplicated,
                           hlo::OpShardingType::kUnreduced));
      return hlo::HloSharding::subgroup(tiles, types, md);
    }
  }
}

}  // namespace shardbridge::proto
