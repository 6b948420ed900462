// The refs of one sharding resolved against its mesh (private to the
// convert floor): what the export (export.cc) and its quick verification
// (export_verify.cc) read instead of looking axis names up at every use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "shardbridge/sdy/attrs.h"
#include "small_vector.h"

namespace shardbridge::convert::detail {

// One axis ref of the sharding resolved against the mesh once: the mesh axis
// it names and the slice `(preSize)size` of that axis it stands for (a full
// axis is `(1)axisSize`). The verifier, the piece table and the claims all
// need the axis index; looking names up once instead of at every use keeps
// string comparisons off the per-ref path.
struct ResolvedRef {
  sdy::AxisRefAttr attr;
  size_t axis = 0;
  int64_t preSize = 1;
  int64_t size = 1;
  bool isSubAxis = false;
};

// Name equality as a plain loop: axis names are a few characters long, and
// a memcmp call per mesh axis passed was a tenth of an export.
inline bool sameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t c = 0; c < a.size(); ++c) {
    if (a[c] != b[c]) return false;
  }
  return true;
}

// MeshAttr::getAxisIndex with sameName.
inline std::optional<size_t> findAxis(std::span<const sdy::MeshAxisAttr> axes, std::string_view name) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (sameName(axes[i].name(), name)) return i;
  }
  return std::nullopt;
}

// The refs of a sharding in one flat list: every dim's refs in dim order,
// then the replicated, then the unreduced ones.
class ResolvedSharding {
 public:
  // Resolves every ref of `sharding` on `mesh`; false when a name is not a
  // mesh axis (the verifier then reports it with its own wording).
  bool resolve(sdy::TensorShardingAttr sharding, sdy::MeshAttr mesh) {
    std::span<const sdy::MeshAxisAttr> axes = mesh.axes();
    auto add = [&](std::span<const sdy::AxisRefAttr> list) {
      for (sdy::AxisRefAttr ref : list) {
        std::optional<size_t> axis = findAxis(axes, ref.name());
        if (!axis) return false;
        ResolvedRef& r = refs_.emplace_back();
        r.attr = ref;
        r.axis = *axis;
        r.isSubAxis = ref.isSubAxis();
        r.preSize = r.isSubAxis ? ref.subAxisInfo().preSize() : 1;
        r.size = r.isSubAxis ? ref.subAxisInfo().size() : axes[*axis].size();
      }
      return true;
    };
    for (sdy::DimensionShardingAttr dim : sharding.dimShardings()) {
      if (!add(dim.axes())) return false;
      dimEnds_.push_back(refs_.size());
    }
    replicatedBegin_ = refs_.size();
    if (!add(sharding.replicatedAxes())) return false;
    unreducedBegin_ = refs_.size();
    return add(sharding.unreducedAxes());
  }

  size_t rank() const { return dimEnds_.size(); }
  std::span<const ResolvedRef> dim(size_t d) const {
    size_t begin = d == 0 ? 0 : dimEnds_[d - 1];
    return all().subspan(begin, dimEnds_[d] - begin);
  }
  // Every dim's refs, in order.
  std::span<const ResolvedRef> dims() const { return all().first(replicatedBegin_); }
  std::span<const ResolvedRef> replicated() const {
    return all().subspan(replicatedBegin_, unreducedBegin_ - replicatedBegin_);
  }
  std::span<const ResolvedRef> unreduced() const { return all().subspan(unreducedBegin_); }
  std::span<const ResolvedRef> all() const { return refs_.span(); }

 private:
  SmallVector<ResolvedRef, 16> refs_;
  SmallVector<size_t, 8> dimEnds_;
  size_t replicatedBegin_ = 0;
  size_t unreducedBegin_ = 0;
};

}  // namespace shardbridge::convert::detail
