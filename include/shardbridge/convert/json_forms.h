// The JSON forms of the model types, shared by every command's --json
// output (and the listing of the dump floor) so a mesh or a sharding looks
// the same wherever it appears (docs/json.md "Shared forms" describes each
// form field by field). In the convert floor because it is the one that
// sees both the sdy and the hlo model.
#pragma once

#include "shardbridge/base/json_writer.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::convert {

// {"axes": [{"name": "x", "size": 2}, ...], "device_ids": [...]}; device_ids
// is [] for the iota order (a maximal mesh lists its one device).
void writeMeshJson(JsonWriter& w, sdy::MeshAttr mesh);

// {"name": "x"} or {"name": "x", "pre_size": 2, "size": 2}.
void writeAxisRefJson(JsonWriter& w, sdy::AxisRefAttr axis);

// {"text": canonical sdy text, "mesh": "mesh" (a symbol, without @) or
//  {"axes": ..., "device_ids": ...} (an inline mesh),
//  "dims": [{"axes": [...], "closed": true, "priority": null|N}, ...],
//  "replicated": [...], "unreduced": [...], "reduction": "sum"|"max"|"min"}
// (reduction only when there are unreduced axes).
void writeTensorShardingJson(JsonWriter& w, sdy::TensorShardingAttr sharding);

// {"text": XLA's string without metadata, "kind": "replicated" | "maximal" |
//  "manual" | "unknown" | "unreduced" | "tiled" | "tuple" | "named", and per
//  kind: "device" (maximal); "tile_dims", "device_order" ({"iota":
//  {"reshape_dims", "transpose_perm"}} or {"devices": [...]}),
//  "replicate_on_last_tile_dim", "last_tile_dims" (tiled); "elements"
//  (tuple); "shard_group" ({"id", "type": "as"|"like"}) when set}.
void writeHloShardingJson(JsonWriter& w, const hlo::HloSharding& sharding);

}  // namespace shardbridge::convert
