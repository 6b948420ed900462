// Export: an sdy sharding (named mesh axes) to the XLA HloSharding that
// OpenXLA's Shardy exporter writes into `mhlo.sharding` (docs/upstream.md § Export: sdy → HloSharding), without
// linking XLA or MLIR.
//
//   mesh @mesh = <["x"=2, "y"=4]>
//   convertToHloSharding(<@mesh, [{"y"}, {"x"}]>, lookup)
//       -> {devices=[4,2]<=[2,4]T(1,0)}
//   convertToHloSharding(<@mesh, [{"y"}, {}]>, lookup, {"x"})
//       -> {devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}
#pragma once

#include <span>
#include <string>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::convert {

struct ExportOptions {
  // Produce a V3 (NamedSharding) leaf instead of the V2 tile assignment, as
  // upstream's `enable-hlo-sharding-v3` export (docs/upstream.md § The export pass): mesh names,
  // sizes and device_ids, open dims, replicated, unreduced and manual axes
  // are copied as they are; see convertToHloSharding for the results.
  bool v3 = false;
  // Treat unreduced axes as replicated and attach no reduction metadata:
  // the behaviour of the older exporter (docs/upstream.md § The older
  // exporter), which
  // predates UNREDUCED subgroups.
  bool dropUnreducedAxes = false;
};

// Returns the HloSharding upstream's convertToHloSharding builds for
// `sharding`, whose mesh is inline or resolved by name through `meshLookup`.
// `manualAxes` are the full mesh axes that are manual at this value (the
// `xla.sdy.manual_axes` attribute), in the caller's order, which is the order
// of the devices in the MANUAL subgroup dim.
//
// Results, in the order they are decided (docs/upstream.md § Export steps):
//   * mesh without axes: `{maximal device=N}` with one device id, else
//     `{replicated}`; dimension shardings are ignored;
//   * every mesh axis manual: `{manual}`;
//   * otherwise one tile dim per tensor dim, then MANUAL (the manual axes),
//     UNREDUCED (the unreduced axes) and REPLICATED (every other axis or
//     sub-axis) subgroup dims, over the mesh's iota or explicit device order,
//     normalised as XLA's HloSharding::Subgroup does (so `[{}, {}]` gives
//     `{replicated}`). With unreduced axes the reduction op rides in the
//     metadata, as upstream prints it:
//       mesh <["x"=2, "y"=4]>, <@mesh, [{"x"}, {}], unreduced={"y"}>
//       -> {devices=[2,1,4]<=[8] last_tile_dims={unreduced}
//           metadata={op_type="sdy::reduction_op" op_name="SUM"}}
//     (op_name "MAX" / "MIN" for `unreduced=max{...}` / `min{...}`).
//
// Deliberate differences from upstream, which aborts or emits what XLA
// cannot read:
//   * manual and unreduced axes together (upstream CHECK-fails): both
//     subgroups are emitted, as XLA's Subgroup allows, e.g. mesh
//     <["a"=2, "b"=2, "c"=2]>, <@mesh, [{"c"}], unreduced={"b"}>, manual {"a"}
//     -> {devices=[2,2,2]<=[4,2]T(1,0) last_tile_dims={manual, unreduced}
//         metadata=...}: every tile/manual/unreduced coordinate still names
//     the devices upstream's algorithm assigns to it.
//   * a mesh of only size-1 axes (upstream: `{devices=[1]<=[1]}`, which XLA
//     rejects): `{replicated}` (unless every axis is manual: `{manual}`).
//
// As upstream, a MANUAL (UNREDUCED) subgroup dim is emitted whenever manual
// (unreduced) axes are given, even of size 1, and XLA's Subgroup collapses
// only when all emitted types are equal; so `[]` with unreduced={"a"} and a
// size-1 manual axis gives `{devices=[6]<=[6] last_tile_dims={unreduced}}`
// on <["a"=6, "m"=1]>, not `{unreduced}`.
//
// With options.v3 the leaf is a NamedSharding instead (docs/upstream.md § The export pass; lit test
// `enable-hlo-sharding-v3=true` rows), printed by hlo::printSharding as:
//   mesh without axes: `{maximal_mesh[device_id=N]}` / `{mesh[], replicated}`;
//   every mesh axis manual: `{mesh['x'=8,'y'=4], manual}`;
//   otherwise the sharding itself, on the mesh's names, sizes and device
//   order: <@mesh_5, [{"i", ?}, {?}]>, manual {"j"}
//     -> {mesh['i'=2,'j'=2], [{'i', ?}, {?}], manual={'j'}}
//   Dims without any axis are dropped, as XLA's NamedSharding canonicalises
//   them (`[{}, {?}]` prints `{mesh[...], replicated}`); size-1 axes are
//   kept; the reduction op is not carried (upstream's V3 leaf has no
//   metadata); manual axes are listed in mesh order (upstream passes the
//   caller's order and XLA's verifier CHECK-fails on any other); manual and
//   unreduced axes may coexist. dropUnreducedAxes leaves unreduced={...} out.
//
// Errors (never an abort):
//   kNotFound    a mesh reference `meshLookup` does not resolve (or no
//                lookup is given): `unknown mesh: @name`;
//   kInvalid     the sharding or its mesh fails sdy::verifyTensorSharding,
//                with its message, e.g. `unknown axis name: "z"` (a mesh
//                without axes is only checked by sdy::verifyMesh); a manual
//                axis not in the mesh (`unknown manual axis: "z"`) or given
//                twice (`duplicate manual axis: "a"`); a manual axis the
//                sharding also uses (`operates on axis "a" which is already
//                bound by a parent sdy.manual_computation op`, the sdy
//                verifier's words); a null sharding;
//   and the tile-assignment layer's errors for meshes beyond its limits
//   (more than 2^31 devices).
Result<hlo::HloSharding> convertToHloSharding(sdy::TensorShardingAttr sharding,
                                              const sdy::MeshLookup& meshLookup,
                                              std::span<const std::string> manualAxes = {},
                                              const ExportOptions& options = {});

// The sharding of an op's results: one sharding exports as that sharding,
// any other number as a flat tuple of them (`{}` for none), as upstream's
// setHloShardingAttr does. Errors as above, from the first failing value.
//   <[<@mesh, [{}, {"y"}]>, <@mesh, [{"y"}, {}]>]> on mesh <["x"=8, "y"=4]>
//   -> {{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate},
//       {devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}}
Result<hlo::HloSharding> convertToHloSharding(sdy::TensorShardingPerValueAttr shardings,
                                              const sdy::MeshLookup& meshLookup,
                                              std::span<const std::string> manualAxes = {},
                                              const ExportOptions& options = {});

}  // namespace shardbridge::convert
