// The rules a valid sdy attribute obeys, checked in upstream Shardy's order
// and reported with its wording (facts §2): `unknown axis name: "z"`,
// `duplicate axis ref: "x"`, `sharding doesn't match tensor rank: 2 != 1`, ...
//
// Every function returns the first violation as an Error (code kInvalid).
// When a SourceMap from the parser is given, the error's offset points at the
// offending token; otherwise the error has no offset.
#pragma once

#include <optional>

#include "shardbridge/base/result.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/source_map.h"

namespace shardbridge::sdy {

// Checks axis sizes, device ids, duplicate axis names and the device_ids
// permutation rules of a mesh.
Status verifyMesh(MeshAttr mesh, const SourceMap* locations = nullptr);

struct VerifyOptions {
  // Check that each dim's size is divisible by its sharded size (upstream
  // turns this off for op, argument and result shardings).
  bool checkDivisibility = false;
  const SourceMap* locations = nullptr;
};

// Checks `sharding` against the mesh it names (resolved through `lookup`;
// an inline mesh is verified as well) and, when given, the type of the value
// it is attached to (rank, shaped/unranked/tuple rules).
Status verifyTensorSharding(TensorShardingAttr sharding, const MeshLookup& lookup,
                            const std::optional<MlirType>& type = std::nullopt,
                            const VerifyOptions& options = {});

// Checks each sharding of an op's sdy.sharding_per_value; with `resultTypes`,
// also that there is one sharding per result (a zero-result op may carry one
// sharding on a maximal mesh or a fully replicated one).
Status verifyTensorShardingPerValue(TensorShardingPerValueAttr shardings,
                                    const MeshLookup& lookup,
                                    const std::optional<std::vector<MlirType>>& resultTypes =
                                        std::nullopt,
                                    const VerifyOptions& options = {});

}  // namespace shardbridge::sdy
