// The pieces of export.cc that live in other files of the convert floor
// (private to it).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::convert::detail {

class ResolvedSharding;

// sdy::verifyTensorSharding, skipped when quick checks prove it would pass
// (export_verify.cc). `resolved` is `sharding` resolved on `mesh`, or null
// when some name did not resolve. Returns the mesh's device count (nullopt
// if it overflows), or the verifier's error.
Result<std::optional<int64_t>> verifySharding(sdy::TensorShardingAttr sharding,
                                              sdy::MeshAttr mesh,
                                              const ResolvedSharding* resolved,
                                              const sdy::MeshLookup& meshLookup);

// Upstream's V3 export (export_named.cc): `sharding` and `manualAxes` are
// verified and `mesh` has axes.
Result<hlo::HloSharding> convertToNamedSharding(sdy::TensorShardingAttr sharding,
                                                sdy::MeshAttr mesh,
                                                std::span<const std::string> manualAxes,
                                                const ExportOptions& options);

}  // namespace shardbridge::convert::detail
