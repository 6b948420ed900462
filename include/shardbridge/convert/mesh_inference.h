// Module mesh inference (facts §5.2): the one mesh every sharding of a
// module is imported onto, plus one maximal mesh per device that a
// single-device sharding uses — what upstream's ImportShardingsPass creates
// as `sdy.mesh @mesh` and `sdy.mesh @single_device_<id>`.
//
//   inferModuleMesh(ctx, {{devices=[4,8]<=[8,4]T(1,0)},
//                         {devices=[1,2,16]<=[32] last_tile_dim_replicate},
//                         {maximal device=3}})
//   -> mesh <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]>,
//      singleDevice {{3, "single_device_3"}}
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/any_order.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::convert {

struct InferredMeshes {
  // The global mesh, to be named `@mesh`. `<[]>` when nothing is tiled.
  sdy::MeshAttr mesh;
  // One entry per distinct device of a single-device sharding, ascending:
  // the id and the symbol name of its maximal mesh `<[], device_ids=[id]>`,
  // "single_device_<id>".
  std::vector<std::pair<int64_t, std::string>> singleDevice;
};

// Returns the global mesh for `shardings` (tuples contribute their leaves):
//   * the mesh of the first V3 leaf whose mesh has axes (names, sizes and
//     device order) when there is one — upstream takes the first in hash
//     order, this takes the first in input order;
//   * otherwise axes `_axis_0, _axis_1, ...` sized by the coarsest common
//     refinement (extractCommonFactorSequence) of the local meshes of all
//     tiled V2 leaves (analyzeTileAssignment); it does not depend on their
//     order. Replicated, manual, unknown and unreduced leaves contribute
//     nothing; no tiled leaf gives `<[]>`, even for no input at all (the
//     caller decides whether to create `@mesh` then; upstream creates nothing
//     for a module without shardings).
// Single-device leaves (V2 `{maximal device=N}` or V3 maximal) give
// `singleDevice`.
//   {devices=[6,35]<=[7,10,3]T(2,1,0)}, {replicated}
//   -> <["_axis_0"=7, "_axis_1"=2, "_axis_2"=5, "_axis_3"=3]>
// Errors (never an abort; upstream CHECK-fails on all of them):
//   kUnsupported two tiled leaves without a common factorisation, naming the
//                first pair that conflicts: `no common mesh for shardings
//                {devices=[2,3]<=[6]} and {devices=[3,2]<=[6]}: local meshes
//                [2,3] and [3,2] have no common factorisation`; the errors of
//                analyzeTileAssignment (non-iota explicit lists, iotas
//                without a factorisation);
//   and the tile-assignment layer's error when a V3 mesh's device order is
//   too large to list.
//
// With `anyOrder.enabled` (beyond upstream), when there is no V3 mesh and
// the upstream fold fails (a non-iota explicit list, an iota without a
// factorisation, no common factorisation), the mesh comes from
// inferAnyOrderMesh over the tiled leaves instead (its errors replace the
// ones above, except for leaves over different device counts):
//   {devices=[2,3]<=[2,3]T(1,0)}
//     -> <["_axis_0"=2, "_axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>
//   {devices=[2,3]<=[6]}, {devices=[3,2]<=[6]}  -> <["_axis_0"=6]>
// Import each leaf onto it with the same option (import.h).
Result<InferredMeshes> inferModuleMesh(sdy::Context& ctx,
                                       std::span<const hlo::HloSharding> shardings,
                                       const AnyOrderOptions& anyOrder = {});

}  // namespace shardbridge::convert
