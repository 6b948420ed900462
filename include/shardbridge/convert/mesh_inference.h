// Module mesh inference (docs/upstream.md § Module mesh): the one mesh every sharding of a
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

// The meshes of a module whose shardings need more than one (issue 4 item
// 4c, beyond upstream): `meshes[g]` is named `mesh` for g = 0, else
// `mesh_<g>`, and input sharding i is imported onto `meshes[meshOf[i]]`
// (a tuple's leaves share one). Single-device leaves still use
// `singleDevice` (all groups together, ascending).
struct GroupedMeshes {
  std::vector<std::pair<std::string, sdy::MeshAttr>> meshes;
  std::vector<size_t> meshOf;
  std::vector<std::pair<int64_t, std::string>> singleDevice;
};

// Groups `shardings` greedily in input order: sharding i joins the first
// group g such that inferModuleMesh (with `anyOrder`) over the distinct
// leaves of g's members and of i succeeds and every one of those leaves
// imports onto the mesh it gives (convertToSdySharding with `anyOrder`, at
// its own rank: a tiled leaf's data rank, a V3 leaf's dim count, else 0);
// that mesh becomes g's. Otherwise i starts a new group with the mesh
// inferModuleMesh gives for it alone. So one group gives exactly
// inferModuleMesh's mesh; the result depends only on the inputs and their
// order. Shardings without tiled leaves (replicated, maximal, ...) join the
// first group. No input gives no group.
//   {devices=[2,2]0,1,2,3}, {devices=[2,2]0,1,3,2}, {replicated}
//   -> meshes mesh = <["_axis_0"=2, "_axis_1"=2]>,
//             mesh_1 = <["_axis_0"=2, "_axis_1"=2], device_ids=[0, 1, 3, 2]>;
//      meshOf {0, 1, 0}
// Cost: one inferModuleMesh and one import per distinct leaf of the group
// for each new distinct leaf tried against it (quadratic in the distinct
// leaves of a group; repeats of a leaf already in the group join at once).
// Error: a sharding that fits no mesh even alone (its error prefixed with
// `sharding <i> (<text>): `, i counting from 1).
Result<GroupedMeshes> inferModuleMeshes(sdy::Context& ctx,
                                        std::span<const hlo::HloSharding> shardings,
                                        const AnyOrderOptions& anyOrder = {});

}  // namespace shardbridge::convert
