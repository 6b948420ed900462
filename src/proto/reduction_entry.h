// The `sdy::reduction_op` metadata entry that XLA's HloSharding::ToProto
// writes for unreduced shardings, and FromProto reads back
// (xla/hlo/ir/hlo_sharding.cc at openxla/xla 183fa00cb5d8;
// docs/upstream.md § ToProto and § FromProto). Shared by toProto and the
// direct wire encoder, which must write the same bytes.
#pragma once

#include <string_view>
#include <vector>

#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::proto {

// OpMetadata.op_type of the entry; its op_name is "SUM", "MAX" or "MIN".
inline constexpr std::string_view kReductionOpType = "sdy::reduction_op";

// Whether toProto appends the entry {op_type "sdy::reduction_op",
// op_name "SUM"} after `leaf`'s own metadata (`metadata`, which is
// leaf.metadata()): an unreduced leaf, or a tiled
// one with an UNREDUCED subgroup, whose metadata holds no reduction entry.
// (XLA keeps the reduction op beside the metadata and writes it whenever the
// sharding is unreduced or the op is not SUM; in this model the op rides in
// the metadata, so an entry already there is what XLA would write, and only
// SUM, the default, can be missing.) False for tuples and V3 leaves.
inline bool appendsSumReductionEntry(const hlo::HloSharding& leaf,
                                     const std::vector<hlo::OpMetadata>& metadata) {
  // Called for every leaf converted, so the usual ones (no UNREDUCED type)
  // are told apart with as few tests as possible: the subgroup types are
  // those of a tiled leaf and empty on every other kind.
  bool unreduced = leaf.kind() == hlo::HloSharding::Kind::kUnreduced;
  for (hlo::OpShardingType t : leaf.subgroupTypes()) {
    unreduced |= t == hlo::OpShardingType::kUnreduced;
  }
  if (!unreduced) [[likely]] return false;
  for (const hlo::OpMetadata& md : metadata) {
    if (md.opType == kReductionOpType) return false;
  }
  return true;
}

}  // namespace shardbridge::proto
