#include "losses.h"

#include <optional>

namespace shardbridge::tools {
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

Status checkImportableDevices(const hlo::HloSharding& sharding) {
  for (const hlo::HloSharding* leaf : hlo::leavesOf(sharding)) {
    if (leaf->kind() != hlo::HloSharding::Kind::kTiled &&
        leaf->kind() != hlo::HloSharding::Kind::kSingleDevice) {
      continue;
    }
    const hlo::TileAssignment& ta = leaf->tileAssignment();
    if (ta.isIota()) continue;  // an iota holds 0 .. n-1
    auto devices = ta.devices();
    if (!devices) continue;  // too large to list: the importer reports it
    for (int64_t d : *devices) {
      if (d < 0) {
        return makeError(ErrorCode::kInvalid,
                         "device id " + std::to_string(d) + " in " + leaf->toString() +
                             " is outside [0, 2^63): an sdy mesh's device_ids cannot hold it");
      }
    }
  }
  return okStatus();
}

std::string inputName(const std::string& arg) {
  if (arg == "-") return "<stdin>";
  if (!arg.empty() && arg[0] == '@') return arg.substr(1);
  return "<input>";
}

}  // namespace shardbridge::tools
