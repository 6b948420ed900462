// What an HloSharding loses on its way to an sdy sharding, said rather than
// dropped in silence (README "Limits"): `import` and `explain` print each
// as a warning on stderr, and `import --json` carries them.
//
//   importLosses({devices=[2,2]<=[4] last_tile_dims={manual}}, mesh <[...]>)
//     -> {"the MANUAL subgroup is dropped: ..."}
#pragma once

#include <string>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::tools {

// view::importLosses (shardbridge/view/losses.h): the losses of importing
// `sharding`, one sentence each.
std::vector<std::string> importLosses(const hlo::HloSharding& sharding, bool meshHasAxes,
                                      bool manualShown = false);

// Refuses device ids an sdy mesh cannot hold: anything outside [0, 2^63)
// (`{maximal device=-1}`, a V1 list with -1). kInvalid.
Status checkImportableDevices(const hlo::HloSharding& sharding);

// The name diagnostics give an INPUT argument: "<stdin>", the @path, or
// "<input>".
std::string inputName(const std::string& arg);

}  // namespace shardbridge::tools
