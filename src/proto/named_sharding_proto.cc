#include "shardbridge/proto/pb/named_sharding_proto.h"

#include <string>
#include <vector>

#include "shardbridge/proto/pb/convert.h"

namespace shardbridge::proto {
namespace {


hlo::AxisRef axisFromProto(const wire::AxisRefProto& proto) {
  if (!proto.has_sub_axis_info()) return hlo::AxisRef::full(proto.mesh_axis_index());
  // Sub-axis sizes are checked by NamedSharding::create, where XLA's AxisRef
  // constructor CHECK-fails.
  return hlo::AxisRef::sub(proto.mesh_axis_index(), proto.sub_axis_info().pre_size(),
                           proto.sub_axis_info().size());
}

std::vector<hlo::AxisRef> axesFromProto(
    const google::protobuf::RepeatedPtrField<wire::AxisRefProto>& list) {
  std::vector<hlo::AxisRef> axes;
  axes.reserve(static_cast<size_t>(list.size()));
  for (const auto& a : list) axes.push_back(axisFromProto(a));
  return axes;
}

void axisToProto(const hlo::AxisRef& axis, wire::AxisRefProto* out) {
  out->set_mesh_axis_index(axis.meshAxisIndex);
  if (axis.subAxis) {
    out->mutable_sub_axis_info()->set_pre_size(axis.subAxis->preSize);
    out->mutable_sub_axis_info()->set_size(axis.subAxis->size);
  }
}

void axesToProto(const std::vector<hlo::AxisRef>& axes,
                 google::protobuf::RepeatedPtrField<wire::AxisRefProto>* out) {
  for (const hlo::AxisRef& a : axes) axisToProto(a, out->Add());
}

Result<hlo::Mesh> meshFromProto(const wire::MeshProto& proto) {
  if (proto.axes_size() == 0) {
    if (proto.device_ids_size() == 0) return hlo::Mesh();
    if (proto.device_ids_size() != 1) {
      return invalidError("Maximal mesh must have exactly 1 device id, got " +
                     std::to_string(proto.device_ids_size()));
    }
    return hlo::Mesh::maximal(proto.device_ids(0));
  }
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  names.reserve(static_cast<size_t>(proto.axes_size()));
  sizes.reserve(static_cast<size_t>(proto.axes_size()));
  for (const auto& axis : proto.axes()) {
    names.push_back(axis.name());
    sizes.push_back(axis.size());
  }
  if (proto.device_ids_size() > 0) {
    std::vector<int64_t> ids(proto.device_ids().begin(), proto.device_ids().end());
    return hlo::Mesh::createWithDeviceIds(std::move(names), sizes, std::move(ids));
  }
  if (proto.has_iota_transform()) {
    const auto& iota = proto.iota_transform();
    if (iota.reshape_dims_size() != iota.transpose_perm_size()) {
      return invalidError("iota_transform reshape_dims and transpose_perm differ in length: " +
                     std::to_string(iota.reshape_dims_size()) + " vs " +
                     std::to_string(iota.transpose_perm_size()));
    }
    std::vector<int64_t> reshape(iota.reshape_dims().begin(), iota.reshape_dims().end());
    std::vector<int> perm;
    perm.reserve(reshape.size());
    for (int64_t p : iota.transpose_perm()) {
      // Out-of-range values are rejected by Mesh::create's permutation check;
      // clamp here only so the narrowing cannot wrap into a valid index.
      perm.push_back(p < 0 || p > 1'000'000 ? -1 : static_cast<int>(p));
    }
    if (!reshape.empty()) return hlo::Mesh::create(std::move(names), sizes, reshape, perm);
  }
  return hlo::Mesh::create(std::move(names), sizes);
}

}  // namespace

Result<hlo::HloSharding> namedShardingFromProto(const wire::NamedShardingProto& proto) {
  SB_ASSIGN_OR_RETURN(hlo::Mesh mesh, meshFromProto(proto.mesh()));
  std::vector<hlo::DimSharding> dims;
  dims.reserve(static_cast<size_t>(proto.dim_shardings_size()));
  for (const auto& d : proto.dim_shardings()) {
    hlo::DimSharding dim;
    dim.axes = axesFromProto(d.axes());
    dim.isClosed = d.is_closed();
    dims.push_back(std::move(dim));
  }
  std::vector<hlo::OpMetadata> metadata;
  metadata.reserve(static_cast<size_t>(proto.metadata_size()));
  for (const auto& m : proto.metadata()) metadata.push_back(metadataFromProto(m));

  if (mesh.isMaximal()) {
    // A maximal mesh admits no axes; XLA's FromProto ignores any given.
    return hlo::HloSharding::named(
        hlo::NamedSharding::maximal(mesh.deviceAssignment().first(), std::move(metadata)));
  }
  SB_ASSIGN_OR_RETURN(hlo::NamedSharding named,
                      hlo::NamedSharding::create(std::move(mesh), std::move(dims),
                                                 axesFromProto(proto.replicated_axes()),
                                                 axesFromProto(proto.unreduced_axes()),
                                                 axesFromProto(proto.manual_axes()),
                                                 std::move(metadata)));
  return hlo::HloSharding::named(std::move(named));
}

Result<wire::NamedShardingProto> namedShardingToProto(const hlo::NamedSharding& sharding) {
  wire::NamedShardingProto proto;
  const hlo::Mesh& mesh = sharding.mesh();
  wire::MeshProto* meshProto = proto.mutable_mesh();
  if (mesh.isMaximal()) {
    meshProto->add_device_ids(mesh.deviceAssignment().first());
  } else if (!mesh.isEmpty()) {
    for (int64_t i = 0; i < mesh.numAxes(); ++i) {
      auto* axis = meshProto->add_axes();
      axis->set_name(mesh.axisNames()[static_cast<size_t>(i)]);
      axis->set_size(mesh.axisSize(i));
    }
    // XLA writes device ids (materialised) for every order that is not a
    // one-entry iota; it does not use iota_transform when writing.
    if (mesh.hasExplicitDeviceOrder()) {
      SB_ASSIGN_OR_RETURN(auto devices, mesh.deviceAssignment().devices());
      meshProto->mutable_device_ids()->Add(devices.begin(), devices.end());
    }
  }
  for (const hlo::DimSharding& d : sharding.dimShardings()) {
    auto* dim = proto.add_dim_shardings();
    for (const hlo::AxisRef& a : d.axes) axisToProto(a, dim->add_axes());
    dim->set_is_closed(d.isClosed);
  }
  axesToProto(sharding.replicatedAxes(), proto.mutable_replicated_axes());
  axesToProto(sharding.unreducedAxes(), proto.mutable_unreduced_axes());
  axesToProto(sharding.manualAxes(), proto.mutable_manual_axes());
  for (const hlo::OpMetadata& m : sharding.metadata()) *proto.add_metadata() = metadataToProto(m);
  return proto;
}

}  // namespace shardbridge::proto
