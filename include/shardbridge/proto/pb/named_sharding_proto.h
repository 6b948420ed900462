// V3 named shardings <-> xla.NamedShardingProto (OpSharding field 14): XLA's
// NamedSharding::FromProto / ToProto, Mesh::FromProto / ToProto and
// AxisRef::FromProto / ToProto, as errors instead of CHECK failures.
//
//   wire::NamedShardingProto p;          // mesh {axes {name: "x" size: 4}}
//   ...                                 // dim_shardings {axes {} is_closed: true}
//   namedShardingFromProto(p)->toString() -> "{mesh['x'=4], [{'x'}]}"
//
// Internal: include/shardbridge/proto/pb/ is not installed.
#pragma once

#include "op_sharding.pb.h"
#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::proto {

// Builds the V3 leaf (HloSharding of Kind::kNamed) a NamedShardingProto
// describes. The mesh: no axes and no device ids is `mesh[]`, no axes and one
// id a maximal mesh (more ids: an error, where XLA CHECK-fails); with axes,
// the device order is `device_ids` (what XLA writes), else `iota_transform`
// (reshape dims + perm; the 2026 field 3), else iota. Everything
// NamedSharding::create and Mesh::create* reject is an error with their
// messages (axis sizes < 1, a device count that differs from the product,
// ids that are not a permutation, axis indices out of range, bad sub-axes),
// code kInvalid. Metadata goes through metadataFromProto (every field kept).
Result<hlo::HloSharding> namedShardingFromProto(const wire::NamedShardingProto& proto);

// The NamedShardingProto of a V3 sharding, as XLA's ToProto writes it: axes
// with names and sizes; device_ids only for a device order that is not a
// one-entry iota (materialised, row-major); the maximal mesh as its one
// device id; dim shardings with is_closed; replicated, unreduced and manual
// axes; metadata. Fails only when a device order too large to materialise
// would have to be written (more than hlo::kMaxMaterializedDevices).
Result<wire::NamedShardingProto> namedShardingToProto(const hlo::NamedSharding& sharding);

}  // namespace shardbridge::proto
