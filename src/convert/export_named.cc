// The V3 export: an sdy sharding copied onto a NamedSharding (upstream's
// convertToNamedSharding). convertToHloSharding (export.cc) calls it with
// ExportOptions::v3.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "export_detail.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;
using sdy::AxisRefAttr;
using sdy::MeshAttr;
using sdy::TensorShardingAttr;

// The V3 AxisRef of a verified sdy axis ref: the mesh axis by index,
// keeping the sub-axis.
Result<hlo::AxisRef> toNamedAxisRef(MeshAttr mesh, AxisRefAttr ref) {
  std::optional<size_t> axis = mesh.getAxisIndex(ref.name());
  if (!axis) return makeError(ErrorCode::kInternal, "unverified axis ref: " + ref.toString());
  int64_t index = static_cast<int64_t>(*axis);
  if (!ref.isSubAxis()) return hlo::AxisRef::full(index);
  return hlo::AxisRef::sub(index, ref.subAxisInfo().preSize(), ref.subAxisInfo().size());
}

Result<std::vector<hlo::AxisRef>> toNamedAxisRefs(MeshAttr mesh,
                                                  std::span<const AxisRefAttr> refs) {
  std::vector<hlo::AxisRef> out;
  for (AxisRefAttr ref : refs) {
    SB_ASSIGN_OR_RETURN(hlo::AxisRef axis, toNamedAxisRef(mesh, ref));
    out.push_back(axis);
  }
  return out;
}

// The V3 mesh of an sdy mesh with axes: same names and sizes, and the
// device order when it is explicit. sdy::verifyMesh already rejects an
// explicit identity list, which hlo::Mesh would reject too; it is mapped to
// the iota mesh anyway, so a lookup handing out such a mesh cannot fail here.
Result<hlo::Mesh> toNamedMesh(MeshAttr mesh) {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  for (sdy::MeshAxisAttr axis : mesh.axes()) {
    names.push_back(std::string(axis.name()));
    sizes.push_back(axis.size());
  }
  std::span<const int64_t> ids = mesh.deviceIds();
  bool identity = true;
  for (size_t i = 0; i < ids.size(); ++i) identity = identity && ids[i] == static_cast<int64_t>(i);
  if (identity) return hlo::Mesh::create(std::move(names), sizes);
  return hlo::Mesh::createWithDeviceIds(std::move(names), sizes,
                                        std::vector<int64_t>(ids.begin(), ids.end()));
}

}  // namespace

namespace detail {

// Upstream's V3 export (convertToNamedSharding, docs/upstream.md § The export pass): the sdy
// sharding copied field by field onto a NamedSharding. `sharding` and
// `manualAxes` are verified and `mesh` has axes.
Result<HloSharding> convertToNamedSharding(TensorShardingAttr sharding, MeshAttr mesh,
                                           std::span<const std::string> manualAxes,
                                           const ExportOptions& options) {
  SB_ASSIGN_OR_RETURN(hlo::Mesh namedMesh, toNamedMesh(mesh));
  if (manualAxes.size() == mesh.axes().size()) {
    SB_ASSIGN_OR_RETURN(hlo::NamedSharding manual, hlo::NamedSharding::manual(namedMesh));
    return HloSharding::named(std::move(manual));
  }
  std::vector<hlo::DimSharding> dims;
  for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) {
    SB_ASSIGN_OR_RETURN(std::vector<hlo::AxisRef> axes, toNamedAxisRefs(mesh, dim.axes()));
    dims.push_back(hlo::DimSharding{std::move(axes), dim.isClosed()});
  }
  SB_ASSIGN_OR_RETURN(std::vector<hlo::AxisRef> replicated,
                      toNamedAxisRefs(mesh, sharding.replicatedAxes()));
  std::vector<hlo::AxisRef> unreduced;
  if (!options.dropUnreducedAxes) {
    SB_ASSIGN_OR_RETURN(unreduced, toNamedAxisRefs(mesh, sharding.unreducedAxes()));
  }
  // Upstream lists the manual axes in the caller's order and XLA's
  // NamedSharding verifier then CHECK-fails unless that is mesh order. In
  // V3 the manual axes are a set (V3ToV2 reads them in mesh order), so they
  // are sorted instead of rejected: `manual={'a', 'b'}` for "b,a" too.
  std::vector<hlo::AxisRef> manual;
  for (const std::string& name : manualAxes) {
    manual.push_back(hlo::AxisRef::full(static_cast<int64_t>(*mesh.getAxisIndex(name))));
  }
  std::sort(manual.begin(), manual.end(), [](const hlo::AxisRef& a, const hlo::AxisRef& b) {
    return a.meshAxisIndex < b.meshAxisIndex;
  });
  // Upstream's V3 leaf carries no metadata, so the reduction kind of the
  // unreduced axes is not written (the V2 string carries it).
  SB_ASSIGN_OR_RETURN(hlo::NamedSharding named,
                      hlo::NamedSharding::create(std::move(namedMesh), std::move(dims),
                                                 std::move(replicated), std::move(unreduced),
                                                 std::move(manual)));
  return HloSharding::named(std::move(named));
}

}  // namespace detail
}  // namespace shardbridge::convert
