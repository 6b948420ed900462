// HloSharding::validate and the tile geometry (which device holds which
// slice of a shape), with XLA's messages and formulas.
#include <algorithm>
#include <unordered_set>

#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::hlo {

namespace {

Error invalidArgument(std::string message) {
  return makeError(ErrorCode::kInvalid, std::move(message));
}

// tsl::errors::AppendToMessage separates the appended note with "\n\t".
Error appendNote(Error e, const std::string& note) {
  e.message += "\n\t";
  e.message += note;
  return e;
}

Status deviceInRange(int64_t device, std::optional<int64_t> numDevices) {
  if (device < 0) {
    return invalidArgument("device " + std::to_string(device) + " is negative in tile assignment");
  }
  if (numDevices && device >= *numDevices) {
    return invalidArgument("device " + std::to_string(device) + " >= num_devices (" +
                           std::to_string(*numDevices) + ") in tile assignment");
  }
  return okStatus();
}

int64_t ceilOfRatio(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace

Status HloSharding::validate(const Shape& shape, std::optional<int64_t> numDevices) const {
  if (shape.isToken()) return okStatus();
  Status status = okStatus();
  if (isTuple()) {
    if (!shape.isTuple()) {
      status = invalidArgument("Sharding is tuple-shaped but validation shape is not.");
    } else {
      const int64_t leaves = shape.leafCount();
      const auto n = static_cast<int64_t>(tupleElements_.size());
      if (!(leaves == 0 && n == 1) && leaves != n) {
        status = invalidArgument("Shape " + shape.toString() + " has " + std::to_string(leaves) +
                                 " leaf nodes while this sharding has " + std::to_string(n));
      } else if (leaves > 0) {
        std::vector<const Shape*> leafShapes;
        shape.collectLeaves(leafShapes);
        // Leaf i's ShapeIndex, for the note ("{1,0}").
        std::vector<std::vector<int64_t>> indices;
        std::function<void(const Shape&, std::vector<int64_t>&)> walk =
            [&](const Shape& s, std::vector<int64_t>& path) {
              if (!s.isTuple()) {
                indices.push_back(path);
                return;
              }
              for (size_t i = 0; i < s.tupleShapes().size(); ++i) {
                path.push_back(static_cast<int64_t>(i));
                walk(s.tupleShapes()[i], path);
                path.pop_back();
              }
            };
        std::vector<int64_t> path;
        walk(shape, path);
        for (size_t i = 0; i < leafShapes.size(); ++i) {
          Status leaf = tupleElements_[i].validateNonTuple(*leafShapes[i], numDevices);
          if (!leaf.has_value()) {
            std::string index = "{";
            for (size_t k = 0; k < indices[i].size(); ++k) {
              if (k) index += ',';
              index += std::to_string(indices[i][k]);
            }
            index += '}';
            status = appendNote(std::move(leaf).error(),
                                "Note: While validating sharding tuple element " + index +
                                    " which is " + tupleElements_[i].toString());
            break;
          }
        }
      }
    }
  } else {
    status = validateNonTuple(shape, numDevices);
  }
  if (!status.has_value()) {
    return appendNote(std::move(status).error(), "Note: While validating sharding " + toString() +
                                                     " against shape " + shape.toString());
  }
  return okStatus();
}

Status HloSharding::validateNonTuple(const Shape& shape, std::optional<int64_t> numDevices) const {
  if (shape.isTuple()) return invalidArgument("Validation shape is a tuple but sharding is not.");
  switch (kind_) {
    case Kind::kReplicated:
    case Kind::kManual:
    case Kind::kUnreduced:
    case Kind::kUnknown:
      return okStatus();
    case Kind::kSingleDevice:
      return deviceInRange(tileAssignment_.first(), numDevices);
    case Kind::kNamed:
      return validateNamed(shape, numDevices);
    default:
      break;
  }
  // The wording of current upstream, which renamed AssignDevice() to
  // SingleDevice() (xla/hlo/ir/hlo_sharding.cc, ValidateNonTuple).
  if (tileAssignment_.numElements() == 1) {
    return invalidArgument(
        "Tile assignment only contains a single device. If a replicated sharding was intended, "
        "use HloSharding::Replicated(). If a device placement was intended, use "
        "HloSharding::SingleDevice()");
  }
  if (shape.rank() != tiledDataRank()) {
    return invalidArgument(
        "Number of tile assignment dimensions (excluding subgroups) is different than the input "
        "rank. sharding=" +
        toString() + ", input_shape=" + shape.toString());
  }
  if (tileAssignment_.isIota()) {
    if (numDevices && tileAssignment_.numElements() != *numDevices) {
      return invalidArgument("tile_assignment should have " + std::to_string(*numDevices) +
                             " devices but has " + std::to_string(tileAssignment_.numElements()));
    }
    return okStatus();
  }
  SB_ASSIGN_OR_RETURN(auto devices, tileAssignment_.devices());
  std::unordered_set<int64_t> seen;
  seen.reserve(devices.size());
  for (int64_t d : devices) {
    SB_TRY(deviceInRange(d, numDevices));
    if (!seen.insert(d).second) {
      return invalidArgument("device " + std::to_string(d) + " is not unique in tile assignment");
    }
  }
  if (numDevices && static_cast<int64_t>(seen.size()) != *numDevices) {
    return invalidArgument("tile_assignment should have " + std::to_string(*numDevices) +
                           " devices but has " + std::to_string(seen.size()));
  }
  return okStatus();
}

// XLA's ValidateNonTuple for a V3 leaf: the V2 kind decides what is checked,
// the rank is the V2 data rank, and the device count gets XLA's V3 message.
// (Mesh device ids were checked to be a permutation when the mesh was built.)
Status HloSharding::validateNamed(const Shape& shape, std::optional<int64_t> numDevices) const {
  SB_ASSIGN_OR_RETURN(HloSharding v2, toV2Sharding(*this));
  switch (v2.kind()) {
    case Kind::kReplicated:
    case Kind::kManual:
    case Kind::kUnreduced:
    case Kind::kUnknown:
      return okStatus();
    case Kind::kSingleDevice:
      return deviceInRange(v2.tileAssignment().first(), numDevices);
    default:
      break;
  }
  const int64_t devices = named_->mesh().numDevices();
  if (devices == 1) {
    return invalidArgument(
        "Tile assignment only contains a single device. If a replicated sharding was intended, "
        "use HloSharding::Replicated(). If a device placement was intended, use "
        "HloSharding::SingleDevice()");
  }
  if (shape.rank() != v2.tiledDataRank()) {
    return invalidArgument(
        "Number of tile assignment dimensions (excluding subgroups) is different than the input "
        "rank. sharding=" +
        toString() + ", input_shape=" + shape.toString());
  }
  if (numDevices && devices != *numDevices) {
    return invalidArgument("sharding should have " + std::to_string(*numDevices) +
                           " devices but has " + std::to_string(devices));
  }
  return okStatus();
}

Result<std::vector<int64_t>> HloSharding::tileIndexForDevice(int64_t device) const {
  if (kind_ == Kind::kNamed) {
    SB_ASSIGN_OR_RETURN(HloSharding v2, toV2Sharding(*this));
    return v2.tileIndexForDevice(device);
  }
  if (kind_ != Kind::kTiled) {
    return invalidArgument("tile index needs a tiled sharding, got " + toString());
  }
  // XLA walks every tile and keeps the last one holding `device`.
  const int64_t n = tileAssignment_.numElements();
  int64_t found = -1;
  if (tileAssignment_.isIota() && !tileAssignment_.isMaterialized()) {
    // An iota holds each device once: stop at the first hit.
    for (int64_t i = 0; i < n; ++i) {
      if (tileAssignment_.valueAtFlat(i) == device) {
        found = i;
        break;
      }
    }
  } else {
    SB_ASSIGN_OR_RETURN(auto devices, tileAssignment_.devices());
    for (int64_t i = n; i-- > 0;) {
      if (devices[static_cast<size_t>(i)] == device) {
        found = i;
        break;
      }
    }
  }
  if (found < 0) {
    return invalidArgument("device " + std::to_string(device) + " is not in tile assignment " +
                           tileAssignment_.toString());
  }
  const auto dims = tileAssignment_.dimensions();
  std::vector<int64_t> index(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    index[k] = found % dims[k];
    found /= dims[k];
  }
  index.resize(static_cast<size_t>(tiledDataRank()));
  return index;
}

namespace {
enum class Bound { kOffset, kLimit };
}  // namespace

static Result<std::vector<int64_t>> tileBound(const HloSharding& s, const Shape& shape,
                                              int64_t device, Bound bound) {
  using Kind = HloSharding::Kind;
  if (s.kind() == Kind::kNamed) {
    // A V3 leaf's tiles are those of its V2 form (XLA converts too).
    SB_ASSIGN_OR_RETURN(HloSharding v2, toV2Sharding(s));
    return tileBound(v2, shape, device, bound);
  }
  if (s.kind() == Kind::kTuple || s.kind() == Kind::kManual || s.kind() == Kind::kUnknown ||
      s.kind() == Kind::kUnreduced) {
    return invalidArgument("tile bounds are not defined for sharding " + s.toString());
  }
  if (!shape.isArray()) {
    return invalidArgument("tile bounds need an array shape, got " + shape.toString());
  }
  const auto& dims = shape.dimensions();
  if (s.kind() == Kind::kReplicated || s.kind() == Kind::kSingleDevice) {
    // XLA CHECK-fails for replicated here; a whole-shape tile is the answer.
    if (bound == Bound::kOffset) return std::vector<int64_t>(dims.size(), 0);
    return dims;
  }
  if (shape.rank() != s.tiledDataRank()) {
    return invalidArgument("Shape rank is not same as tile rank: " + std::to_string(shape.rank()) +
                           " vs " + std::to_string(s.tiledDataRank()));
  }
  SB_ASSIGN_OR_RETURN(std::vector<int64_t> index, s.tileIndexForDevice(device));
  for (size_t i = 0; i < index.size(); ++i) {
    const int64_t tile = ceilOfRatio(dims[i], s.dimension(static_cast<int64_t>(i)));
    const int64_t k = bound == Bound::kOffset ? index[i] : index[i] + 1;
    index[i] = std::min(k * tile, dims[i]);
  }
  return index;
}

Result<std::vector<int64_t>> HloSharding::tileOffsetForDevice(const Shape& shape,
                                                              int64_t device) const {
  return tileBound(*this, shape, device, Bound::kOffset);
}

Result<std::vector<int64_t>> HloSharding::tileLimitForDevice(const Shape& shape,
                                                             int64_t device) const {
  return tileBound(*this, shape, device, Bound::kLimit);
}

Result<Shape> HloSharding::tileShape(const Shape& shape) const {
  if (kind_ == Kind::kNamed) {
    SB_ASSIGN_OR_RETURN(HloSharding v2, toV2Sharding(*this));
    return v2.tileShape(shape);
  }
  if (kind_ == Kind::kReplicated || kind_ == Kind::kSingleDevice || kind_ == Kind::kManual ||
      kind_ == Kind::kUnknown || kind_ == Kind::kUnreduced) {
    return shape;
  }
  if (kind_ == Kind::kTuple || !shape.isArray()) {
    return invalidArgument("tile shape needs an array shape and a non-tuple sharding");
  }
  if (shape.rank() != tiledDataRank()) {
    return invalidArgument("Shape rank is not same as tile rank: " + std::to_string(shape.rank()) +
                           " vs " + std::to_string(tiledDataRank()));
  }
  std::vector<int64_t> dims = shape.dimensions();
  for (size_t i = 0; i < dims.size(); ++i) {
    dims[i] = ceilOfRatio(dims[i], dimension(static_cast<int64_t>(i)));
  }
  return Shape::array(shape.elementType(), std::move(dims));
}

Result<Shape> HloSharding::tileShape(const Shape& shape, int64_t device) const {
  if (kind_ == Kind::kNamed) {
    SB_ASSIGN_OR_RETURN(HloSharding v2, toV2Sharding(*this));
    return v2.tileShape(shape, device);
  }
  if (kind_ == Kind::kReplicated || kind_ == Kind::kSingleDevice || kind_ == Kind::kManual ||
      kind_ == Kind::kUnknown || kind_ == Kind::kUnreduced) {
    return shape;
  }
  SB_ASSIGN_OR_RETURN(auto offset, tileOffsetForDevice(shape, device));
  SB_ASSIGN_OR_RETURN(auto limit, tileLimitForDevice(shape, device));
  std::vector<int64_t> dims(offset.size());
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = limit[i] - offset[i];
  return Shape::array(shape.elementType(), std::move(dims));
}

Status HloSharding::eachTile(
    std::span<const int64_t> dims,
    const std::function<void(int64_t, std::span<const int64_t>, std::span<const int64_t>)>& f)
    const {
  if (kind_ == Kind::kNamed) {
    SB_ASSIGN_OR_RETURN(HloSharding v2, toV2Sharding(*this));
    return v2.eachTile(dims, f);
  }
  if (kind_ != Kind::kTiled) {
    return invalidArgument("eachTile needs a tiled sharding, got " + toString());
  }
  if (static_cast<int64_t>(dims.size()) != tiledDataRank()) {
    return invalidArgument("Shape rank is not same as tile rank: " + std::to_string(dims.size()) +
                           " vs " + std::to_string(tiledDataRank()));
  }
  const auto shardDims = tileAssignment_.dimensions();
  std::vector<int64_t> tileDims(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) tileDims[i] = ceilOfRatio(dims[i], shardDims[i]);
  const int64_t replicas = replicationFactor();
  const int64_t numDevices = tileAssignment_.numElements();
  std::vector<int64_t> index(dims.size(), 0), offset(dims.size()), limit(dims.size());
  int64_t flat = 0;
  // As XLA: each data tile (row-major) consumes `replicas` consecutive
  // entries of the flat device array; other subgroup dims are not walked.
  while (true) {
    for (size_t i = 0; i < dims.size(); ++i) {
      offset[i] = std::min(tileDims[i] * index[i], dims[i]);
      limit[i] = std::min(tileDims[i] * (index[i] + 1), dims[i]);
    }
    for (int64_t r = 0; r < replicas && flat < numDevices; ++r, ++flat) {
      const int64_t device = tileAssignment_.valueAtFlat(flat);
      if (device < 0 || device >= numDevices) {
        return invalidArgument("Out of range device id in device_assignment: " +
                               std::to_string(device) + "; valid range: [0, " +
                               std::to_string(numDevices) + ")");
      }
      f(device, offset, limit);
    }
    // Next data tile index; stop after wrapping around to all zeros.
    bool wrapped = true;
    for (size_t k = dims.size(); k-- > 0;) {
      if (++index[k] < shardDims[k]) {
        wrapped = false;
        break;
      }
      index[k] = 0;
    }
    if (wrapped) break;
  }
  return okStatus();
}

}  // namespace shardbridge::hlo
