// Import: an XLA HloSharding (as read from `mhlo.sharding`) to an sdy
// sharding on a given global mesh, as OpenXLA's Shardy importer does
// (docs/upstream.md § Import steps), without linking XLA or MLIR.
//
//   mesh @mesh = <["x"=4, "y"=2]>
//   convertToSdySharding(ctx, {devices=[2,4]<=[8]}, mesh, @mesh, {}, 2, false)
//       -> #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>
//   convertToSdySharding(ctx, {maximal device=3}, mesh, @mesh,
//                        {{3, "single_device_3"}}, 2, false)
//       -> #sdy.sharding<@single_device_3, []>
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/convert/any_order.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/op_metadata.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::convert {

// Returns the reduction op carried in `metadata` the way the exporter writes
// it: the first entry with op_type "sdy::reduction_op" names it in op_name
// ("SUM", "MAX" or "MIN"); kSum when there is no such entry.
// Error (kInvalid): another op_name, e.g.
//   `unknown reduction op "PROD" in sdy::reduction_op metadata`.
Result<sdy::ReductionOp> reductionOpFromMetadata(const std::vector<hlo::OpMetadata>& metadata);

// Returns the sdy sharding upstream's convertToSdySharding builds for one
// leaf `sharding` on `globalMesh`; the result names its mesh `meshRef`
// (usually `@mesh`, or an inline mesh). `singleDeviceMeshNames` maps a
// device id to the symbol of its maximal mesh (see mesh_inference.h).
// `rank` is the rank of the tensor the sharding is attached to; `openDims`
// makes every dimension open (`?`).
//
// By kind (docs/upstream.md § Import steps):
//   * single device N: `<@single_device_N, []>` (closed, rank ignored);
//   * replicated, manual: `rank` empty dims, closed unless `openDims`;
//     unknown: `rank` empty open dims; the reduction op comes from the
//     metadata, as upstream;
//   * tiled (V2 iota, or a V1 list in identity order): the local mesh of
//     the tile assignment (factorization.h) is mapped greedily onto the
//     global mesh axes, major to minor, skipping axes of size 1: each local
//     factor takes gcd(factor left, axis left) of the current axis, as the
//     full axis when it takes all of it from its start, else as the sub-axis
//     `(consumed so far)gcd`. Each tensor dim lists the refs of its factors
//     major to minor. Factors of `last_tile_dims={...}` subgroup dims become
//     replicated (REPLICATED) or unreduced (UNREDUCED) axes; MANUAL ones and
//     `last_tile_dim_replicate` leave nothing. Both lists are sorted with the
//     mesh comparator and merged (sdy::sortAndMergeAxes); with unreduced
//     axes the reduction op comes from the metadata.
//       mesh <["x"=2, "y"=4]>,
//       {devices=[2,2,2]<=[4,2]T(1,0) last_tile_dim_replicate}
//       -> <@mesh, [{"y":(2)2}, {"x"}]>
//   * V3 (Kind::kNamed): dims, replicated and unreduced axes copied by mesh
//     axis index onto the global mesh's names (sub-axes keep (pre)size); a
//     dim is closed when V3 says so or `!openDims`; no dims -> `rank` empty
//     dims.
//
// Deliberate differences from upstream (which aborts or misreads):
//   * subgroup types are indexed by the subgroup dim (tile dim - data rank),
//     where upstream uses the factor's place inside its dim. So
//     `{devices=[4,1,2,4]<=[8,4]T(1,0) last_tile_dims={unreduced, replicated}}`
//     on <["_axis_0"=2, "_axis_1"=4, "_axis_2"=4]> gives
//     `[{"_axis_2"}, {}], replicated={"_axis_1"}, unreduced={"_axis_0"}`
//     where upstream gives `[{"_axis_2"}, {}], unreduced={"_axis_0", "_axis_1"}`
//     (docs/upstream.md § Import steps, step 6);
//   * `{unreduced}` (upstream CHECK-fails): `rank` empty dims with every mesh
//     axis of size > 1 unreduced — the inverse of the export's collapse
//     (nothing unreduced on a mesh without such axes);
//   * a V3 sharding without dims gets `rank` empty dims whatever its other
//     lists hold (upstream: only when replicated, manual or unreduced);
//   * a V3 maximal sharding is a single device (upstream: `<@mesh, []>`).
// As upstream (docs/upstream.md § Import steps, step 3), replicated/manual/unknown keep a
// reduction op from the metadata although they have no unreduced axes: the
// printed text is the same, but the attribute differs from the parsed one.
//
// Errors (never an abort):
//   kInvalid     a tuple (import its leaves: convertToSdyShardingPerValue);
//                `rank` < 0; a tiled sharding whose data rank is not `rank`
//                (`sharding {devices=[2,2]<=[4]} tiles 2 dimensions but the
//                tensor has rank 3`); a V3 sharding with a dim count other
//                than `rank`, or on a mesh whose axis sizes (in order) or
//                device order differ from the global mesh's (upstream
//                copies regardless); a
//                global mesh axis of size < 1 (tiled input); a tile
//                assignment over another number of devices than the mesh
//                (`sharding {devices=[4]<=[4]} uses 4 devices but the mesh
//                has 8`); a local factor that shares no factor with the next
//                mesh axis (gcd 1, e.g. local [2,3] on mesh x=3,y=2); a bad
//                reduction op (reductionOpFromMetadata);
//   kNotFound    a single device without an entry in singleDeviceMeshNames;
//   kUnsupported tile assignments analyzeTileAssignment rejects; a tiled V2
//                sharding on a global mesh with explicit device_ids (the
//                mapping by sizes would be wrong there).
//
// With `anyOrder.enabled` (beyond upstream, any_order.h), a tiled sharding
// is read in the global mesh's device order: its devices become mesh-linear
// indices (device device_ids[i] -> i), which must form an iota with a
// factorisation; that iota is then mapped as above. So explicit lists and
// meshes with device_ids are imported, and the export of the result on the
// same mesh equals the input:
//   mesh <["x"=2, "y"=2]>, {devices=[2,2]0,2,1,3}   -> <@mesh, [{"y"}, {"x"}]>
//   mesh <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>,
//     {devices=[2,2]<=[4]}                          -> <@mesh, [{"y"}, {"x"}]>
// Where the mesh cannot express the sharding (kUnsupported; an iota on an
// iota mesh keeps the error above):
//   `sharding {devices=[2,2]0,1,3,2} cannot be expressed on mesh
//   #sdy.mesh<["x"=2, "y"=2]>: its devices in mesh order,
//   devices=[2,2]0,1,3,2, are not an iota`.
Result<sdy::TensorShardingAttr> convertToSdySharding(
    sdy::Context& ctx, const hlo::HloSharding& sharding, sdy::MeshAttr globalMesh,
    sdy::MeshOrRef meshRef, const std::map<int64_t, std::string>& singleDeviceMeshNames,
    int64_t rank, bool openDims, const AnyOrderOptions& anyOrder = {});

// The rank a leaf is imported with when the tensor's rank is not known (as
// `shardbridge import` without --rank): the data rank of a tiled leaf, the
// dim count of a V3 leaf, else 0.
int64_t ownRank(const hlo::HloSharding& leaf);

// The sharding of every value of an op: leaf i of `sharding` (a tuple's
// elements, or `sharding` itself when it is a leaf) imported with rank
// `ranks[i]`, as convertToSdySharding. Errors: the leaf count differs from
// `ranks.size()` (kInvalid, `sharding has 2 leaves but 3 ranks were given`),
// and the first failing leaf's error prefixed with `value <i>: `.
//   {{devices=[2]<=[2]}, {replicated}} with ranks {1, 0} on <["x"=2]>
//   -> #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, []>]>
Result<sdy::TensorShardingPerValueAttr> convertToSdyShardingPerValue(
    sdy::Context& ctx, const hlo::HloSharding& sharding, sdy::MeshAttr globalMesh,
    sdy::MeshOrRef meshRef, const std::map<int64_t, std::string>& singleDeviceMeshNames,
    std::span<const int64_t> ranks, bool openDims, const AnyOrderOptions& anyOrder = {});

}  // namespace shardbridge::convert
