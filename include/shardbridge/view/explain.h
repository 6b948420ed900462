// `shardbridge explain`: everything one sharding means, in one place — its
// mesh, its named-axis (sdy) form, the JAX PartitionSpec or why there is
// none, the replicated / manual / unreduced axes, and with a tensor shape
// every device's tile and the replication groups.
//
//   explainHloSharding(ctx, {devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2)
//                            last_tile_dim_replicate},
//                      mesh <["x"=8, "y"=4]>, "mesh", f32[16,32])
//     sdy         #sdy.sharding<@mesh, [{"y"}, {"x":(2)2}]>
//     replicated  "x":(1)2, "x":(4)2
//     tiles       device 0: tile [0,0], offset [0,0], local shape [4,16], ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/shape.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/view/partition_spec.h"
#include "shardbridge/view/tiles.h"

namespace shardbridge::view {

struct Explanation {
  std::string inputFormat;  // "hlo" or "sdy"
  hlo::HloSharding hlo;     // the HloSharding (the export of an sdy input)
  // "tiled", "replicated", "single_device", "manual", "unknown",
  // "unreduced" (a V3 leaf reports the kind of its V2 form).
  std::string kind;

  sdy::MeshAttr mesh;  // null when there is none (e.g. nothing tiled, no --mesh)
  std::string meshName;
  std::string meshSource;  // "given", "inferred" or "sharding" (inline mesh)

  // The sdy form; null with `namedError` saying why (an import error).
  sdy::TensorShardingAttr named;
  std::string namedError;
  PartitionSpec partitionSpec;

  // Axes (sub-axes where only part of an axis is) over which the tensor is
  // replicated — explicitly or because no dim uses them —, manual, and
  // unreduced, each sorted and merged in mesh order. Size-1 axes are left
  // out. For HLO input, the axes of a MANUAL subgroup are the manual ones;
  // for sdy input, the manual axes given with it.
  std::vector<sdy::AxisRefAttr> replicatedAxes;
  std::vector<sdy::AxisRefAttr> manualAxes;
  std::vector<sdy::AxisRefAttr> unreducedAxes;
  std::optional<sdy::ReductionOp> reductionOp;  // with unreduced axes

  std::optional<hlo::Shape> shape;  // as given
  // Tiles over `shape`, or over one element per tile when no shape was
  // given (then only indices and devices mean something). Unset for kinds
  // without tiles, or over the limits; `tilesNote` says why.
  std::optional<TileLayout> tiles;
  std::string tilesNote;

  // What the named form leaves out of an HLO input (a shard group,
  // {unknown} or {manual} read as replicated, {unreduced} without mesh
  // axes): view::importLosses with the MANUAL subgroup shown, one sentence
  // each; empty for sdy input. The CLI prints them on stderr; the --json
  // document carries them.
  std::vector<std::string> warnings;
};

// Explains an HloSharding leaf. `mesh` (may be null) is the mesh to import
// onto, named `meshName`; when null, the mesh is inferred as the `import`
// command does (convert::inferModuleMesh, any device order). `shape` must be
// an array shape the sharding validates against (XLA's Validate messages).
// Errors: a tuple sharding, a bad shape, validation failures, and the
// limits of computeTiles on the device count. Import failures are not
// errors: they leave `named` null with the message in `namedError`.
Result<Explanation> explainHloSharding(sdy::Context& ctx, const hlo::HloSharding& sharding,
                                       sdy::MeshAttr mesh, const std::string& meshName,
                                       const std::optional<hlo::Shape>& shape);

// Explains an sdy sharding whose mesh `lookup` resolves (or that has an
// inline mesh); its HLO form is convert::convertToHloSharding's with
// `manualAxes` (the axes an enclosing manual computation makes manual, in
// order; they are reported as manual, the other unused axes as replicated).
// Errors: an unresolved mesh, verification and export errors (a manual axis
// the mesh lacks, or one the sharding also uses), and those of
// explainHloSharding.
Result<Explanation> explainSdySharding(sdy::Context& ctx, sdy::TensorShardingAttr sharding,
                                       const sdy::MeshLookup& lookup,
                                       const std::optional<hlo::Shape>& shape,
                                       const std::vector<std::string>& manualAxes = {});

// The human-readable report (docs/view.md shows one).
std::string formatExplanation(const Explanation& e);
// The --json document (schema in docs/view.md).
std::string explanationJson(const Explanation& e);

// Parses the --shape value: an HLO array shape `f32[16,32]`, or just its
// dims `[16,32]` / `16,32` (element type f32). Rejects tuples, tokens and
// unbounded dynamic dims (`?`).
Result<hlo::Shape> parseViewShape(std::string_view text);

}  // namespace shardbridge::view
