#include "shardbridge/view/partition_spec.h"

#include "shardbridge/sdy/text.h"

namespace shardbridge::view {

std::string pythonString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

PartitionSpec toPartitionSpec(sdy::TensorShardingAttr sharding, sdy::MeshAttr mesh) {
  PartitionSpec spec;
  auto none = [&](std::string reason) {
    spec.exists = false;
    spec.dims.clear();
    spec.unconstrained.clear();
    spec.unreduced.clear();
    spec.reason = std::move(reason);
    return spec;
  };
  if (!sharding || !mesh) return none("no named sharding");
  if (mesh.isMaximal()) {
    return none("the sharding is on a single device (" +
                std::to_string(*mesh.getMaximalDeviceId()) +
                "): JAX uses SingleDeviceSharding, not a PartitionSpec");
  }
  auto dims = sharding.dimShardings();
  for (size_t d = 0; d < dims.size(); ++d) {
    sdy::DimensionShardingAttr dim = dims[d];
    std::vector<std::string> names;
    for (sdy::AxisRefAttr axis : dim.axes()) {
      if (axis.isSubAxis()) {
        return none("dimension " + std::to_string(d) + " is sharded over the sub-axis " +
                    sdy::printAxisRef(axis) +
                    ", which a PartitionSpec cannot name (JAX mesh axes are whole axes)");
      }
      names.emplace_back(axis.name());
    }
    if (dim.isOpen() && !names.empty()) {
      return none("dimension " + std::to_string(d) +
                  " is open with axes; a PartitionSpec entry is either axes or "
                  "P.UNCONSTRAINED");
    }
    if (dim.priority()) {
      return none("dimension " + std::to_string(d) + " has priority p" +
                  std::to_string(*dim.priority()) + ", which a PartitionSpec cannot carry");
    }
    spec.unconstrained.push_back(dim.isOpen());
    spec.dims.push_back(std::move(names));
  }
  for (sdy::AxisRefAttr axis : sharding.unreducedAxes()) {
    if (axis.isSubAxis()) {
      return none("the unreduced sub-axis " + sdy::printAxisRef(axis) +
                  " cannot be named in a PartitionSpec");
    }
    spec.unreduced.emplace_back(axis.name());
  }

  spec.exists = true;
  std::string text = "P(";
  for (size_t d = 0; d < spec.dims.size(); ++d) {
    if (d) text += ", ";
    const auto& names = spec.dims[d];
    if (spec.unconstrained[d]) {
      text += "P.UNCONSTRAINED";
    } else if (names.empty()) {
      text += "None";
    } else if (names.size() == 1) {
      text += pythonString(names[0]);
    } else {
      text += "(";
      for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + pythonString(names[i]);
      text += ")";
    }
  }
  if (!spec.unreduced.empty()) {
    if (!spec.dims.empty()) text += ", ";
    text += "unreduced={";
    for (size_t i = 0; i < spec.unreduced.size(); ++i) {
      text += (i ? ", " : "") + pythonString(spec.unreduced[i]);
    }
    text += "}";
  }
  spec.text = text + ")";

  if (!mesh.deviceIds().empty()) {
    std::string ids;
    for (int64_t id : mesh.deviceIds()) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    spec.notes.push_back("the jax Mesh must list its devices in the mesh's device order [" + ids +
                         "]");
  }
  if (!sharding.replicatedAxes().empty()) {
    spec.notes.push_back(
        "the explicitly replicated axes are implicit in a PartitionSpec (every unused axis is "
        "replicated)");
  }
  if (!spec.unreduced.empty() && sharding.reductionOp() != sdy::ReductionOp::kSum) {
    spec.notes.push_back(std::string("the reduction op ") +
                         sdy::reductionOpName(sharding.reductionOp()) +
                         " is not part of a PartitionSpec");
  }
  return spec;
}

}  // namespace shardbridge::view
