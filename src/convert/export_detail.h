// The pieces of export.cc that live in other files of the convert floor
// (private to it).
#pragma once

#include <span>
#include <string>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::convert::detail {

// Upstream's V3 export (export_named.cc): `sharding` and `manualAxes` are
// verified and `mesh` has axes.
Result<hlo::HloSharding> convertToNamedSharding(sdy::TensorShardingAttr sharding,
                                                sdy::MeshAttr mesh,
                                                std::span<const std::string> manualAxes,
                                                const ExportOptions& options);

}  // namespace shardbridge::convert::detail
