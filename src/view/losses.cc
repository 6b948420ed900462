#include "shardbridge/view/losses.h"

namespace shardbridge::view {
namespace {

void leafLosses(const hlo::HloSharding& leaf, bool meshHasAxes, bool manualShown,
                const std::string& prefix, std::vector<std::string>& out) {
  if (leaf.isUnknown()) {
    out.push_back(prefix + "{unknown} is imported as replicated: sdy has no unknown sharding");
  } else if (leaf.isManual()) {
    out.push_back(prefix +
                  "{manual} is imported as replicated: sdy makes values manual with an "
                  "enclosing sdy.manual_computation, not with a sharding");
  } else if (leaf.isUnreduced() && !meshHasAxes) {
    out.push_back(prefix +
                  "{unreduced} is imported as replicated: the mesh has no axis to name the "
                  "unreduced state by (give --mesh)");
  }
  if (leaf.isManualSubgroup() && !manualShown) {
    out.push_back(prefix +
                  "the MANUAL subgroup is dropped: sdy gives manual axes to the enclosing "
                  "sdy.manual_computation");
  }
  if (leaf.isShardGroup()) {
    const hlo::ShardGroup& g = leaf.shardGroup();
    out.push_back(prefix + (g.shardAs ? "shard_as " : "shard_like ") + std::to_string(g.id) +
                  " is dropped: an sdy sharding has no shard groups");
  }
}

}  // namespace

std::vector<std::string> importLosses(const hlo::HloSharding& sharding, bool meshHasAxes,
                                      bool manualShown) {
  std::vector<std::string> out;
  if (!sharding.isTuple()) {
    leafLosses(sharding, meshHasAxes, manualShown, "", out);
    return out;
  }
  const auto& elements = sharding.tupleElements();
  for (size_t i = 0; i < elements.size(); ++i) {
    leafLosses(elements[i], meshHasAxes, manualShown, "tuple element " + std::to_string(i) + ": ", out);
  }
  return out;
}

}  // namespace shardbridge::view
