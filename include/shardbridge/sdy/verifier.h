// The rules a valid sdy attribute obeys, checked in upstream Shardy's order
// and reported with its wording (docs/upstream.md § Shardy verifier): `unknown axis name: "z"`,
// `duplicate axis ref: "x"`, `sharding doesn't match tensor rank: 2 != 1`, ...
//
// Every function returns the first violation as an Error (code kInvalid).
// When a SourceMap from the parser is given, the error's offset points at the
// offending token; otherwise the error has no offset.
#pragma once

#include <optional>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/source_map.h"

namespace shardbridge::sdy {

// Checks axis sizes, device ids, duplicate axis names and the device_ids
// permutation rules of a mesh. Returns the first of, in this order (the error
// offset is that of the AttrPath in brackets):
//   axis size must be at least 1, got: 0                      [kMeshAxisSize]
//   device id must be non-negative, got: -1                   [kDeviceId]
//   axes is empty and device_ids has more than one element    [kDeviceIds]
//   duplicate axis name: "a"   (the second one)               [kMeshAxis]
//   total product of axis sizes overflows int64 at axis "b"   [kMeshAxisSize]
//     (not an upstream rule: upstream wraps around silently)
//   total product of axis sizes must match total number of device ids, got:
//     4 != 6                                                  [kDeviceIds]
//   sorted device ids must be iota(product(axes)), got: 1, 1  [kDeviceIds]
//   if the ordered device ids are the same as iota(product(axes)), no need to
//     specify them for simplicity                             [kDeviceIds]
// The last rule cannot fire for a mesh made by MeshAttr::get, which drops
// iota device ids (as upstream's builder does); it is kept for completeness.
//   verifyMesh(<["a"=2], device_ids=[1, 1]>) -> error "sorted device ids must
//   be iota(product(axes)), got: 1, 1"; verifyMesh(<[], device_ids=[3]>) -> ok
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
//
// Order, as upstream's verifyTensorShardingAttr (docs/upstream.md § Shardy verifier):
//  1. the mesh: an inline mesh through verifyMesh (located at its parts); a
//     reference must resolve (`unknown mesh: @name`, at kMeshOrRef) and the
//     mesh it resolves to must pass verifyMesh (reported at kMeshOrRef:
//     upstream reports a bad mesh symbol at its sdy.mesh op, earlier);
//  2. on a maximal mesh: rank 0 and no replicated/unreduced axes, whatever
//     the type (`a maximal sharding can only have ...`);
//  3. with a type: tuples of size 1 only, non-shaped types take rank 0 and no
//     named axes (`... type: !stablehlo.token, sharding: #sdy.sharding<...>`),
//     no unranked tensors, rank equal to the tensor's;
//  4. per dim: priority rules, then the axis-list rules (unknown axis name,
//     duplicate axis ref anywhere in the sharding, two consecutive mergeable
//     sub-axes), then, with checkDivisibility and a static dim size,
//     `dim 0 with size 6 is not divisible by its sharded size 4`;
//  5. replicated, then unreduced axes: sorted by the mesh comparator, then the
//     axis-list rules;
//  6. the sub-axes of each mesh axis (axes visited in mesh order; upstream
//     uses hash order), sorted by the mesh comparator.
// Without a type (nullopt) steps 3 and the divisibility check are skipped; in
// particular a fully replicated sharding of any rank is accepted (upstream's
// null Type, which means "a zero-result op", is only used by
// verifyTensorShardingPerValue). Messages carry no op prefix (`op result 0 -`).
// Offsets point at the most specific part: the axis ref for list and sub-axis
// rules (for `both sub-axis and full-axis` and `overlapping sub-axes`, the
// later of the two in dims/replicated/unreduced order), the pN of a priority,
// the dim for divisibility, the first superfluous dim for a rank mismatch.
//   mesh "mesh" = <["a"=2]>, type tensor<8x8xf32>:
//   <@mesh, [{}, {"c"}]> -> error `unknown axis name: "c"` at the `"c"`
Status verifyTensorSharding(TensorShardingAttr sharding, const MeshLookup& lookup,
                            const std::optional<MlirType>& type = std::nullopt,
                            const VerifyOptions& options = {});

// Checks each sharding of an op's sdy.sharding_per_value; with `resultTypes`,
// also that there is one sharding per result (a zero-result op may carry one
// sharding on a maximal mesh or a fully replicated one; that sharding must
// then have rank 0 and no named axes, as upstream checks it against a null
// type). A count mismatch is `shardings don't match number of values: 3
// shardings vs 2 values`, located at the first superfluous sharding if any.
// Sharding i is verified as by verifyTensorSharding with its type, and its
// errors are located with AttrPath::value = i. Without `resultTypes` every
// sharding is verified without a type.
Status verifyTensorShardingPerValue(TensorShardingPerValueAttr shardings,
                                    const MeshLookup& lookup,
                                    const std::optional<std::vector<MlirType>>& resultTypes =
                                        std::nullopt,
                                    const VerifyOptions& options = {});

}  // namespace shardbridge::sdy
