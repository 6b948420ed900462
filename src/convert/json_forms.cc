#include "shardbridge/convert/json_forms.h"

#include <string>

#include "shardbridge/hlo/text.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::convert {
namespace {

void writeAxisList(JsonWriter& w, std::span<const sdy::AxisRefAttr> axes) {
  w.beginArray(JsonWriter::kInline);
  for (sdy::AxisRefAttr axis : axes) writeAxisRefJson(w, axis);
  w.endArray();
}


const char* subgroupName(hlo::OpShardingType type) {
  switch (type) {
    case hlo::OpShardingType::kReplicated: return "replicated";
    case hlo::OpShardingType::kMaximal: return "maximal";
    case hlo::OpShardingType::kTuple: return "tuple";
    case hlo::OpShardingType::kOther: return "other";
    case hlo::OpShardingType::kManual: return "manual";
    case hlo::OpShardingType::kUnknown: return "unknown";
    case hlo::OpShardingType::kUnreduced: return "unreduced";
  }
  return "other";
}

const char* kindName(hlo::HloSharding::Kind kind) {
  using Kind = hlo::HloSharding::Kind;
  switch (kind) {
    case Kind::kReplicated: return "replicated";
    case Kind::kSingleDevice: return "maximal";
    case Kind::kManual: return "manual";
    case Kind::kUnknown: return "unknown";
    case Kind::kUnreduced: return "unreduced";
    case Kind::kTiled: return "tiled";
    case Kind::kTuple: return "tuple";
    case Kind::kNamed: return "named";
  }
  return "unknown";
}

// The members of one leaf or tuple; `text` only at the top (a tuple's
// elements are described structurally, the top-level text covers them).
void writeHloMembers(JsonWriter& w, const hlo::HloSharding& s) {
  using Kind = hlo::HloSharding::Kind;
  w.key("kind").value(kindName(s.kind()));
  if (s.kind() == Kind::kSingleDevice) {
    w.key("device").value(s.tileAssignment().first());
  } else if (s.kind() == Kind::kTiled) {
    const hlo::TileAssignment& tiles = s.tileAssignment();
    w.key("tile_dims");
    w.values(tiles.dimensions(), JsonWriter::kInline);
    w.key("device_order").beginObject(JsonWriter::kInline);
    if (const auto& iota = tiles.iotaForm()) {
      w.key("iota").beginObject();
      w.key("reshape_dims");
      w.values(iota->reshapeDims(), JsonWriter::kInline);
      w.key("transpose_perm").beginArray(JsonWriter::kInline);
      for (int p : iota->transposePerm()) w.value(p);
      w.endArray();
      w.endObject();
    } else {
      // An explicit array is always in memory, so this cannot fail.
      auto devices = tiles.devices();
      w.key("devices");
      if (devices) {
        w.values(*devices, JsonWriter::kInline);
      } else {
        w.null();
      }
    }
    w.endObject();
    w.key("replicate_on_last_tile_dim").value(s.replicateOnLastTileDim());
    w.key("last_tile_dims").beginArray(JsonWriter::kInline);
    for (hlo::OpShardingType t : s.subgroupTypes()) w.value(subgroupName(t));
    w.endArray();
  } else if (s.kind() == Kind::kTuple) {
    w.key("elements").beginArray();
    for (const hlo::HloSharding& e : s.tupleElements()) {
      w.beginObject();
      w.key("text").value(hlo::printSharding(e, /*includeMetadata=*/false));
      writeHloMembers(w, e);
      w.endObject();
    }
    w.endArray();
  }
  if (s.shardGroup().isShardGroup()) {
    w.key("shard_group").beginObject();
    w.key("id").value(s.shardGroup().id);
    w.key("type").value(s.shardGroup().shardLike ? "like" : "as");
    w.endObject();
  }
}

}  // namespace

void writeMeshJson(JsonWriter& w, sdy::MeshAttr mesh) {
  w.beginObject();
  w.key("axes").beginArray(JsonWriter::kInline);
  for (sdy::MeshAxisAttr axis : mesh.axes()) {
    w.beginObject().key("name").value(axis.name()).key("size").value(axis.size()).endObject();
  }
  w.endArray();
  w.key("device_ids");
  w.values(mesh.deviceIds(), JsonWriter::kInline);
  w.endObject();
}

void writeAxisRefJson(JsonWriter& w, sdy::AxisRefAttr axis) {
  w.beginObject().key("name").value(axis.name());
  if (axis.isSubAxis()) {
    w.key("pre_size").value(axis.subAxisInfo().preSize());
    w.key("size").value(axis.subAxisInfo().size());
  }
  w.endObject();
}

void writeTensorShardingJson(JsonWriter& w, sdy::TensorShardingAttr sharding) {
  w.beginObject();
  w.key("text").value(sdy::printTensorSharding(sharding));
  w.key("mesh");
  sdy::MeshOrRef mesh = sharding.meshOrRef();
  if (mesh.isRef()) {
    w.value(mesh.refName());
  } else {
    writeMeshJson(w, mesh.inlineMeshAttr());
  }
  w.key("dims").beginArray();
  for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) {
    w.beginObject(JsonWriter::kInline);
    w.key("axes");
    writeAxisList(w, dim.axes());
    w.key("closed").value(dim.isClosed());
    w.key("priority");
    if (dim.priority()) {
      w.value(*dim.priority());
    } else {
      w.null();
    }
    w.endObject();
  }
  w.endArray();
  w.key("replicated");
  writeAxisList(w, sharding.replicatedAxes());
  w.key("unreduced");
  writeAxisList(w, sharding.unreducedAxes());
  if (!sharding.unreducedAxes().empty()) {
    w.key("reduction").value(sdy::reductionOpName(sharding.reductionOp()));
  }
  w.endObject();
}

void writeHloShardingJson(JsonWriter& w, const hlo::HloSharding& sharding) {
  w.beginObject();
  w.key("text").value(hlo::printSharding(sharding, /*includeMetadata=*/false));
  writeHloMembers(w, sharding);
  w.endObject();
}

}  // namespace shardbridge::convert
