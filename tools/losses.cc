#include "losses.h"

#include "shardbridge/view/losses.h"

#include <optional>

namespace shardbridge::tools {

std::vector<std::string> importLosses(const hlo::HloSharding& sharding, bool meshHasAxes,
                                      bool manualShown) {
  return view::importLosses(sharding, meshHasAxes, manualShown);
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
