// What an HloSharding loses on its way to an sdy sharding, said rather than
// dropped in silence (README "Limits"). `import` and `explain` print each as
// a warning on stderr; `import --json`, `explain --json` and sb_explain_hlo
// carry them.
//
//   importLosses({devices=[2,2]<=[4] last_tile_dims={manual}}, true)
//     -> {"the MANUAL subgroup is dropped: sdy gives manual axes to the
//          enclosing sdy.manual_computation"}
#pragma once

#include <string>
#include <vector>

#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::view {

// The losses of importing `sharding`, one sentence each (a tuple's prefixed
// "tuple element N: "): a MANUAL subgroup, a shard group (shard_as /
// shard_like), {unknown} and {manual} (both imported as replicated), and
// {unreduced} when `meshHasAxes` is false (no axis to name it by). With
// `manualShown` (explain, which lists a MANUAL subgroup's axes), that
// subgroup is no loss.
std::vector<std::string> importLosses(const hlo::HloSharding& sharding, bool meshHasAxes,
                                      bool manualShown = false);

}  // namespace shardbridge::view
