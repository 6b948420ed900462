// The sdy verifier (verifier.h): upstream Shardy's MeshAttr, MeshAxisAttr and
// TensorShardingAttr rules, in upstream's order and with its wording
// (docs/upstream.md § Shardy verifier), reporting the first violation only and never trusting the attribute to
// be well formed (sizes may be zero or negative, products may overflow).
#include "shardbridge/sdy/verifier.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

using Part = AttrPath::Part;

// Turns a message and the AttrPath of the offending part into an Error. All
// paths of one sharding carry the index of that sharding inside a
// sharding_per_value (`value`), as the parser records them.
class Reporter {
 public:
  Reporter(const SourceMap* locations, int32_t value) : locations_(locations), value_(value) {}

  Error at(Part part, int64_t index, int64_t sub, std::string message) const {
    AttrPath path{part, value_, static_cast<int32_t>(index), static_cast<int32_t>(sub)};
    return at(path, std::move(message));
  }
  Error at(AttrPath path, std::string message) const {
    path.value = value_;
    size_t offset = locations_ ? locations_->find(path) : Error::kNoOffset;
    return makeError(ErrorCode::kInvalid, std::move(message), offset);
  }
  Error whole(std::string message) const { return at(Part::kWhole, -1, -1, std::move(message)); }

 private:
  const SourceMap* locations_;
  int32_t value_;
};

// Axis names inside messages are streamed raw by upstream (`unknown axis
// name: "x"`); whole axis refs go through the attribute printer (printAxisRef),
// as upstream's AxisRefAttr::toString does.
std::string quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }


// pre*size of a sub-axis whose pre-size and size are known to be positive;
// 128 bits so that a sub-axis reaching past int64 is still reported with its
// true extent rather than a wrapped one.
unsigned __int128 wideNextPreSize(SubAxisInfoAttr info) {
  return static_cast<unsigned __int128>(info.preSize()) *
         static_cast<unsigned __int128>(info.size());
}

std::string toString(unsigned __int128 v) {
  if (v == 0) return "0";
  std::string digits;
  while (v != 0) {
    digits += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// MeshAxisAttr::verify and MeshAttr::verify, docs/upstream.md § Shardy verifier order.
Status verifyMeshImpl(MeshAttr mesh, const Reporter& rep) {
  if (mesh.isNull()) return rep.whole("mesh is missing");
  std::span<const MeshAxisAttr> axes = mesh.axes();
  std::span<const int64_t> ids = mesh.deviceIds();

  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].size() < 1) {
      return rep.at(Part::kMeshAxisSize, static_cast<int64_t>(i), -1,
                    "axis size must be at least 1, got: " + std::to_string(axes[i].size()));
    }
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0) {
      return rep.at(Part::kDeviceId, static_cast<int64_t>(i), -1,
                    "device id must be non-negative, got: " + std::to_string(ids[i]));
    }
  }
  // No axes: zero ids is the empty mesh, one id a maximal mesh; more ids
  // would name devices no axis can address.
  if (axes.empty() && ids.size() > 1) {
    return rep.at(Part::kDeviceIds, -1, -1,
                  "axes is empty and device_ids has more than one element");
  }
  // Quadratic for the usual few axes, hashed beyond that.
  std::unordered_set<std::string_view> names;
  auto seenBefore = [&](size_t i) {
    if (axes.size() > 16) return !names.insert(axes[i].name()).second;
    for (size_t j = 0; j < i; ++j)
      if (axes[j].name() == axes[i].name()) return true;
    return false;
  };
  for (size_t i = 0; i < axes.size(); ++i) {
    if (seenBefore(i)) {
      return rep.at(Part::kMeshAxis, static_cast<int64_t>(i), -1,
                    "duplicate axis name: " + quoted(axes[i].name()));
    }
  }
  // Upstream multiplies without a check; every later rule (device count,
  // sub-axis and divisibility arithmetic) relies on the total fitting int64.
  int64_t total = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    auto next = checkedMul(total, axes[i].size());
    if (!next) {
      return rep.at(
          Part::kMeshAxisSize, static_cast<int64_t>(i), -1,
          "total product of axis sizes overflows int64 at axis " + quoted(axes[i].name()));
    }
    total = *next;
  }

  if (ids.empty()) return okStatus();  // iota(total) is implied
  if (static_cast<uint64_t>(total) != ids.size()) {
    return rep.at(Part::kDeviceIds, -1, -1,
                  "total product of axis sizes must match total number of device ids, got: " +
                      std::to_string(total) + " != " + std::to_string(ids.size()));
  }
  if (axes.empty()) return okStatus();  // a maximal mesh

  std::vector<int64_t> sorted(ids.begin(), ids.end());
  std::sort(sorted.begin(), sorted.end());
  bool isPermutation = true;
  for (size_t i = 0; i < sorted.size() && isPermutation; ++i)
    isPermutation = sorted[i] == static_cast<int64_t>(i);
  if (!isPermutation) {
    std::string list;
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i != 0) list += ", ";
      list += std::to_string(sorted[i]);
    }
    return rep.at(Part::kDeviceIds, -1, -1,
                  "sorted device ids must be iota(product(axes)), got: " + list);
  }
  // Unreachable through MeshAttr::get, which drops iota ids when the mesh has
  // axes (as upstream's builder does, so upstream cannot reach it from text
  // either); kept so a mesh built any other way gets upstream's answer.
  if (std::is_sorted(ids.begin(), ids.end())) {
    return rep.at(Part::kDeviceIds, -1, -1,
                  "if the ordered device ids are the same as iota(product(axes)), no need to "
                  "specify them for simplicity");
  }
  return okStatus();
}

// What is known about the value a sharding is attached to.
enum class ValueType {
  kUnknown,  // no type given: the type rules are skipped
  kNone,     // upstream's null Type: the one sharding of a zero-result op
  kGiven,
};

// One appearance of an axis ref in a sharding, with where it is and when it
// was met (dims, then replicated, then unreduced), so errors about a pair of
// refs can point at the later one.
struct AxisUse {
  AxisRefAttr ref;
  AttrPath path;
  size_t order = 0;
};

// The state upstream's verifyTensorShardingAttr threads through its helpers.
class ShardingVerifier {
 public:
  ShardingVerifier(TensorShardingAttr sharding, MeshAttr mesh, const Reporter& rep)
      : sharding_(sharding), mesh_(mesh), rep_(rep) {
    std::span<const MeshAxisAttr> axes = mesh.axes();
    // Typical meshes have a handful of axes: a linear scan beats hashing there.
    if (axes.size() > kLinearLimit)
      for (size_t i = 0; i < axes.size(); ++i) axisIndex_.emplace(axes[i].name(), i);
    subAxes_.resize(axes.size());
    fullAxisUse_.resize(axes.size());
  }

  Status run(ValueType valueType, const MlirType* type, bool checkDivisibility) {
    if (mesh_.isMaximal() || (valueType == ValueType::kNone && sharding_.isFullyReplicated())) {
      // Runs on one device (or, for a zero-result op, says nothing): no type
      // to check against, only that nothing is sharded or replicated.
      if (!rankZeroWithoutNamedAxes()) {
        return rep_.at(firstNonEmptyPart(),
                       "a maximal sharding can only have a sharding with rank 0 and no "
                       "replicated or unreduced axes.");
      }
      return okStatus();
    }

    const MlirType* shaped = nullptr;
    if (valueType == ValueType::kGiven) {
      shaped = type->isShaped() ? type : nullptr;
      if (type->kind == MlirType::Kind::kTuple) {
        if (type->elements.size() != 1) {
          return rep_.whole("ops can only have a sharding for a tuple of size 1: " + type->text);
        }
        shaped = type->elements[0].isShaped() ? &type->elements[0] : nullptr;
      }
      if (shaped == nullptr) {
        if (!rankZeroWithoutNamedAxes()) {
          return rep_.at(firstNonEmptyPart(),
                         "non-shaped tensors can only have a sharding with rank 0 and no "
                         "replicated or unreduced axes. type: " +
                             type->text + ", sharding: " + printTensorSharding(sharding_));
        }
        return okStatus();
      }
      if (shaped->kind != MlirType::Kind::kRankedTensor)
        return rep_.whole("only ranked tensors can have a sharding. type: " + type->text);
      if (sharding_.rank() != shaped->rank()) {
        std::string message =
            "sharding doesn't match tensor rank: " + std::to_string(sharding_.rank()) +
            " != " + std::to_string(shaped->rank());
        // Point at the first dim too many, if any.
        if (sharding_.rank() > shaped->rank())
          return rep_.at(Part::kDim, shaped->rank(), -1, std::move(message));
        return rep_.whole(std::move(message));
      }
    }

    SB_TRY(verifyDims(shaped, checkDivisibility));
    SB_TRY(verifySortedList(sharding_.replicatedAxes(), Part::kReplicatedAxis, "replicated"));
    SB_TRY(verifySortedList(sharding_.unreducedAxes(), Part::kUnreducedAxis, "unreduced"));
    return verifySubAxes();
  }

 private:
  bool rankZeroWithoutNamedAxes() const {
    return sharding_.rank() == 0 && sharding_.replicatedAxes().empty() &&
           sharding_.unreducedAxes().empty();
  }

  // Where a "must be rank 0 and have no named axes" error points: the first
  // dim, else the first replicated axis, else the first unreduced axis.
  AttrPath firstNonEmptyPart() const {
    if (sharding_.rank() != 0) return AttrPath{Part::kDim, -1, 0, -1};
    if (!sharding_.replicatedAxes().empty()) return AttrPath{Part::kReplicatedAxis, -1, 0, -1};
    return AttrPath{Part::kUnreducedAxis, -1, 0, -1};
  }

  Status verifyDims(const MlirType* shaped, bool checkDivisibility) {
    std::span<const DimensionShardingAttr> dims = sharding_.dimShardings();
    for (size_t d = 0; d < dims.size(); ++d) {
      DimensionShardingAttr dim = dims[d];
      int64_t dimIndex = static_cast<int64_t>(d);
      if (std::optional<int64_t> priority = dim.priority()) {
        if (*priority < 0) {
          return rep_.at(Part::kDimPriority, dimIndex, -1,
                         "dim " + std::to_string(d) + " has a negative priority");
        }
        if (dim.isClosed() && dim.emptyAxes()) {
          return rep_.at(Part::kDimPriority, dimIndex, -1,
                         "dim " + std::to_string(d) + " is empty and closed but has a priority");
        }
      }
      SB_TRY(verifyAxisRefList(dim.axes(), [&](size_t i) {
        return AttrPath{Part::kDimAxis, -1, static_cast<int32_t>(d), static_cast<int32_t>(i)};
      }));

      if (shaped == nullptr || !checkDivisibility) continue;
      int64_t dimSize = shaped->shape[d];
      if (dimSize == MlirType::kDynamic) continue;
      // A non-positive or overflowing sharded size can only come from a
      // malformed sub-axis or overlapping refs, which the sub-axis checks
      // below report (a valid dim's sharded size divides the mesh size);
      // upstream would divide by it here.
      std::optional<int64_t> shardedSize = getShardedSize(dim.axes(), mesh_);
      if (!shardedSize || *shardedSize <= 0) continue;
      if (dimSize % *shardedSize != 0) {
        return rep_.at(Part::kDim, dimIndex, -1,
                       "dim " + std::to_string(d) + " with size " + std::to_string(dimSize) +
                           " is not divisible by its sharded size " + std::to_string(*shardedSize));
      }
    }
    return okStatus();
  }

  Status verifySortedList(std::span<const AxisRefAttr> list, Part part, const char* name) {
    MeshAxisRefComparator less = getMeshComparator(mesh_);
    for (size_t i = 1; i < list.size(); ++i) {
      if (less(list[i], list[i - 1])) {
        return rep_.at(part, static_cast<int64_t>(i), -1,
                       std::string(name) + " axes are not ordered w.r.t. mesh");
      }
    }
    return verifyAxisRefList(list, [&](size_t i) {
      return AttrPath{part, -1, static_cast<int32_t>(i), -1};
    });
  }

  // Upstream verifyAxisRefList: every name is a mesh axis, no ref appears
  // twice anywhere in the sharding, and no two neighbours could be merged
  // into one sub-axis. Collects the sub-axes for verifySubAxes.
  template <typename PathFn>
  Status verifyAxisRefList(std::span<const AxisRefAttr> list, PathFn pathOf) {
    AxisRefAttr prev;
    for (size_t i = 0; i < list.size(); ++i) {
      AxisRefAttr ref = list[i];
      AttrPath path = pathOf(i);
      std::optional<size_t> axisIndex = findAxis(ref.name());
      if (!axisIndex) return rep_.at(path, "unknown axis name: " + quoted(ref.name()));
      if (!markSeen(ref)) return rep_.at(path, "duplicate axis ref: " + printAxisRef(ref));
      AxisUse use{ref, path, nextOrder_++};
      if (!ref.isSubAxis()) {
        fullAxisUse_[*axisIndex] = use;
        prev = ref;
        continue;
      }
      subAxes_[*axisIndex].push_back(use);
      if (prev && canMerge(prev, ref)) {
        return rep_.at(path, "two consecutive sub-axes can be merged: " + printAxisRef(prev) +
                                 ", " + printAxisRef(ref));
      }
      prev = ref;
    }
    return okStatus();
  }

  // Upstream verifySubAxes, for each axis name that has sub-axes. Upstream
  // walks the names in hash-map order; mesh order is used here so that the
  // error reported for a sharding with several bad axes is reproducible.
  Status verifySubAxes() {
    std::span<const MeshAxisAttr> axes = mesh_.axes();
    MeshAxisRefComparator less = getMeshComparator(mesh_);
    for (size_t a = 0; a < axes.size(); ++a) {
      std::vector<AxisUse>& uses = subAxes_[a];
      if (uses.empty()) continue;
      if (fullAxisUse_[a]) {
        // Point at whichever of the full axis and its first sub-axis came
        // later: that is where the sharding went wrong.
        const AxisUse& full = *fullAxisUse_[a];
        const AxisUse& sub = uses.front();
        return rep_.at(
            full.order > sub.order ? full.path : sub.path,
            "both sub-axis and full-axis are used for axis name: " + quoted(axes[a].name()));
      }
      std::stable_sort(uses.begin(), uses.end(),
                       [&](const AxisUse& x, const AxisUse& y) { return less(x.ref, y.ref); });
      int64_t axisSize = axes[a].size();
      AxisRefAttr prev;
      for (const AxisUse& use : uses) {
        SubAxisInfoAttr info = use.ref.subAxisInfo();
        if (info.preSize() < 1) {
          return rep_.at(use.path,
                         "sub-axis pre-size must be at least 1: " + printAxisRef(use.ref));
        }
        if (info.size() <= 1) {
          return rep_.at(use.path,
                         "sub-axis sizes must be greater than 1: " + printAxisRef(use.ref));
        }
        unsigned __int128 next = wideNextPreSize(info);
        if (static_cast<unsigned __int128>(axisSize) % next != 0) {
          return rep_.at(use.path, "sub-axis next pre-size " + toString(next) +
                                       " doesn't divide the size of the full axis " +
                                       std::to_string(axisSize) + ": " + printAxisRef(use.ref));
        }
        if (info.size() == axisSize) {
          return rep_.at(use.path,
                         "sub-axis size is equal to the full axis size: " + printAxisRef(use.ref));
        }
        // prev passed the checks above, so its pre*size divides axisSize.
        int64_t prevNext = prev ? prev.subAxisInfo().preSize() * prev.subAxisInfo().size() : 1;
        if (prevNext > info.preSize()) {
          return rep_.at(use.path, "overlapping sub-axes: " + printAxisRef(prev) + ", " +
                                       printAxisRef(use.ref));
        }
        prev = use.ref;
      }
    }
    return okStatus();
  }

  TensorShardingAttr sharding_;
  MeshAttr mesh_;
  const Reporter& rep_;
  static constexpr size_t kLinearLimit = 16;

  std::optional<size_t> findAxis(std::string_view name) const {
    if (axisIndex_.empty()) return mesh_.getAxisIndex(name);
    auto it = axisIndex_.find(name);
    if (it == axisIndex_.end()) return std::nullopt;
    return it->second;
  }

  // Records `ref`; false when it was seen before. Linear while small.
  bool markSeen(AxisRefAttr ref) {
    if (seenSet_.empty()) {
      for (AxisRefAttr r : seenList_)
        if (r == ref) return false;
      seenList_.push_back(ref);
      if (seenList_.size() > kLinearLimit) seenSet_.insert(seenList_.begin(), seenList_.end());
      return true;
    }
    return seenSet_.insert(ref).second;
  }

  std::unordered_map<std::string_view, size_t> axisIndex_;  // only for large meshes
  std::vector<AxisRefAttr> seenList_;
  std::unordered_set<AxisRefAttr> seenSet_;  // takes over past kLinearLimit refs
  std::vector<std::vector<AxisUse>> subAxes_;        // by mesh axis index
  std::vector<std::optional<AxisUse>> fullAxisUse_;  // by mesh axis index
  size_t nextOrder_ = 0;
};

// Resolves the mesh of `sharding` and runs the checks; `value` is the
// sharding's index in a sharding_per_value (-1 for a lone sharding).
Status verifyShardingImpl(TensorShardingAttr sharding, const MeshLookup& lookup,
                          ValueType valueType, const MlirType* type, const VerifyOptions& options,
                          int32_t value) {
  Reporter rep(options.locations, value);
  if (sharding.isNull()) return rep.whole("sharding is missing");
  MeshOrRef meshOrRef = sharding.meshOrRef();
  MeshAttr mesh;
  if (meshOrRef.isInline()) {
    // Upstream verifies an inline mesh when it is built, before the sharding.
    mesh = meshOrRef.inlineMeshAttr();
    SB_TRY(verifyMeshImpl(mesh, rep));
  } else if (meshOrRef.isRef()) {
    mesh = lookup ? lookup(meshOrRef.refName()) : MeshAttr();
    if (mesh.isNull()) {
      return rep.at(Part::kMeshOrRef, -1, -1,
                    "unknown mesh: " + printSymbolRef(meshOrRef.refName()));
    }
    // Upstream verifies a mesh symbol on its own sdy.mesh op, before the ops
    // that use it; a lookup may hand out any mesh, and the checks below
    // assume a valid one. Its parts are not in this text, so the error
    // points at the reference.
    Status meshStatus = verifyMeshImpl(mesh, Reporter(nullptr, value));
    if (!meshStatus.has_value()) {
      Error e = meshStatus.error();
      e.offset = options.locations
                     ? options.locations->find(AttrPath{Part::kMeshOrRef, value, -1, -1})
                     : Error::kNoOffset;
      return e;
    }
  } else {
    return rep.whole("sharding has no mesh");
  }
  return ShardingVerifier(sharding, mesh, rep).run(valueType, type, options.checkDivisibility);
}

}  // namespace

Status verifyMesh(MeshAttr mesh, const SourceMap* locations) {
  return verifyMeshImpl(mesh, Reporter(locations, -1));
}

Status verifyTensorSharding(TensorShardingAttr sharding, const MeshLookup& lookup,
                            const std::optional<MlirType>& type, const VerifyOptions& options) {
  return verifyShardingImpl(sharding, lookup, type ? ValueType::kGiven : ValueType::kUnknown,
                            type ? &*type : nullptr, options, -1);
}

Status verifyTensorShardingPerValue(TensorShardingPerValueAttr shardings, const MeshLookup& lookup,
                                    const std::optional<std::vector<MlirType>>& resultTypes,
                                    const VerifyOptions& options) {
  if (shardings.isNull())
    return Reporter(options.locations, -1).whole("sharding_per_value is missing");
  std::span<const TensorShardingAttr> list = shardings.shardings();
  if (!resultTypes) {
    for (size_t i = 0; i < list.size(); ++i) {
      SB_TRY(verifyShardingImpl(list[i], lookup, ValueType::kUnknown, nullptr, options,
                                static_cast<int32_t>(i)));
    }
    return okStatus();
  }
  const std::vector<MlirType>& types = *resultTypes;
  // A zero-result op may still carry one sharding that says where it runs
  // (a maximal mesh) or that it is replicated.
  if (types.empty() && list.size() == 1 && !list[0].isNull()) {
    MeshAttr mesh = list[0].getMesh(lookup);
    if ((mesh && mesh.isMaximal()) || list[0].isFullyReplicated())
      return verifyShardingImpl(list[0], lookup, ValueType::kNone, nullptr, options, 0);
  }
  if (list.size() != types.size()) {
    std::string message = "shardings don't match number of values: " + std::to_string(list.size()) +
                          " shardings vs " + std::to_string(types.size()) + " values";
    // Point at the first sharding too many, if any.
    if (list.size() > types.size()) {
      return Reporter(options.locations, static_cast<int32_t>(types.size()))
          .whole(std::move(message));
    }
    return Reporter(options.locations, -1).whole(std::move(message));
  }
  for (size_t i = 0; i < list.size(); ++i) {
    SB_TRY(verifyShardingImpl(list[i], lookup, ValueType::kGiven, &types[i], options,
                              static_cast<int32_t>(i)));
  }
  return okStatus();
}

}  // namespace shardbridge::sdy
