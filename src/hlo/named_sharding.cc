// The V3 model (Mesh, NamedSharding) with XLA's verification rules
// (xla/hlo/ir/mesh_and_axis.cc, named_sharding.cc) and its text. The V2 <-> V3
// conversions are in named_conversion.cc.
#include "shardbridge/hlo/named_sharding.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <utility>

#include "shardbridge/base/checked_math.h"

namespace shardbridge::hlo {

namespace {


// XLA refuses axis names that read as integers (absl::SimpleAtoi accepts
// surrounding whitespace and a sign) so they cannot be mistaken for indices.
bool readsAsInteger(const std::string& name) {
  size_t b = 0, e = name.size();
  while (b < e && (name[b] == ' ' || name[b] == '\t' || name[b] == '\n' || name[b] == '\r' ||
                   name[b] == '\f' || name[b] == '\v'))
    ++b;
  while (e > b && (name[e - 1] == ' ' || name[e - 1] == '\t' || name[e - 1] == '\n' ||
                   name[e - 1] == '\r' || name[e - 1] == '\f' || name[e - 1] == '\v'))
    --e;
  if (b < e && name[b] == '+') ++b;
  else if (b < e && name[b] == '-' && b + 1 < e && name[b + 1] != '+') ++b;
  if (b == e) return false;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(name.data() + b, name.data() + e, v);
  return ec == std::errc() && ptr == name.data() + e;
}

}  // namespace

// ---------------------------------------------------------------------------
// Mesh

Mesh::Mesh() = default;

Mesh Mesh::maximal(int64_t device) {
  Mesh m;
  m.devices_ = TileAssignment::singleDevice(device);
  return m;
}

std::span<const int64_t> Mesh::axisSizes() const {
  if (names_.empty()) return {};
  return devices_.dimensions();
}

Result<Mesh> Mesh::build(std::vector<std::string> names, std::span<const int64_t> sizes,
                         Result<TileAssignment> devices) {
  if (names.empty()) return invalidError("Mesh must have at least one axis.");
  if (names.size() != sizes.size()) {
    return invalidError(
        "Number of axes names must match number of dimensions in the device assignment. Number "
        "of axes names: " +
        std::to_string(names.size()) + ", Number of dimensions: " + std::to_string(sizes.size()));
  }
  for (int64_t s : sizes) {
    if (s <= 0) return invalidError("Mesh axis size must be positive.");
  }
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) {
        return invalidError("Mesh has duplicate axis names. Duplicate axis name: " + names[i]);
      }
    }
    if (readsAsInteger(names[i])) {
      return invalidError(
          "Mesh axis name cannot be an integer to avoid confusion with axis indices: " + names[i]);
    }
    // Names print between single quotes with no escaping (as upstream), so
    // a quote inside one would print text that cannot be read back.
    if (names[i].find('\'') != std::string::npos) {
      return invalidError("Mesh axis name cannot contain a single quote: " + names[i]);
    }
  }
  if (!devices.has_value()) return std::move(devices).error();
  Mesh m;
  m.names_ = std::move(names);
  m.devices_ = std::move(devices.value());
  return m;
}

Result<Mesh> Mesh::create(std::vector<std::string> names, std::span<const int64_t> sizes) {
  for (int64_t s : sizes) {
    if (s <= 0) return invalidError("Mesh axis size must be positive.");
  }
  return build(std::move(names), sizes,
               sizes.empty() ? Result<TileAssignment>(TileAssignment()) : TileAssignment::iota(sizes));
}

Result<Mesh> Mesh::create(std::vector<std::string> names, std::span<const int64_t> sizes,
                          std::span<const int64_t> reshapeDims, std::span<const int> perm) {
  for (int64_t s : sizes) {
    if (s <= 0) return invalidError("Mesh axis size must be positive.");
  }
  return build(std::move(names), sizes,
               sizes.empty() ? Result<TileAssignment>(TileAssignment())
                             : TileAssignment::iota(sizes, reshapeDims, perm));
}

Result<Mesh> Mesh::createWithDeviceIds(std::vector<std::string> names,
                                       std::span<const int64_t> sizes,
                                       std::vector<int64_t> deviceIds) {
  for (int64_t s : sizes) {
    if (s <= 0) return invalidError("Mesh axis size must be positive.");
  }
  if (names.empty()) return invalidError("Mesh must have at least one axis.");
  const std::optional<int64_t> n = checkedProduct(sizes);
  if (!n || *n > kMaxDevices) {
    return invalidError("mesh has more than " + std::to_string(kMaxDevices) + " devices");
  }
  if (static_cast<int64_t>(deviceIds.size()) != *n) {
    return invalidError("Number of device ids must match the product of mesh axis sizes.");
  }
  // XLA's ValidateMesh for explicit orders: non-negative, not the identity,
  // a permutation of [0, N).
  for (int64_t d : deviceIds) {
    if (d < 0) {
      return invalidError("Mesh device ids must be non-negative. Device id: " + std::to_string(d));
    }
  }
  bool identity = true;
  std::vector<char> seen(deviceIds.size(), 0);
  bool permutation = true;
  for (size_t i = 0; i < deviceIds.size(); ++i) {
    const int64_t d = deviceIds[i];
    if (d != static_cast<int64_t>(i)) identity = false;
    if (d >= *n || seen[static_cast<size_t>(d)]) {
      permutation = false;
    } else {
      seen[static_cast<size_t>(d)] = 1;
    }
  }
  if (identity) {
    return invalidError("Non-iota device assignment has iota device id list [0,1,2,3...].");
  }
  if (!permutation) return invalidError("Device ids must be a permutation of [0,1,2,3...].");
  return build(std::move(names), sizes, TileAssignment::fromDevices(sizes, std::move(deviceIds)));
}

bool Mesh::hasExplicitDeviceOrder() const {
  if (names_.empty()) return false;
  const auto& iota = devices_.iotaForm();
  return !(iota && iota->reshapeDims().size() == 1);
}

void Mesh::print(std::string& out) const {
  if (isMaximal()) {
    out += "maximal_mesh[device_id=";
    out += std::to_string(devices_.first());
    out += ']';
    return;
  }
  out += "mesh[";
  const auto sizes = axisSizes();
  for (size_t i = 0; i < names_.size(); ++i) {
    if (i) out += ',';
    out += '\'';
    out += names_[i];
    out += "'=";
    out += std::to_string(sizes[i]);
  }
  out += ']';
  if (!hasExplicitDeviceOrder()) return;
  out += ", device_ids=(";
  if (const auto& iota = devices_.iotaForm()) {
    iota->printArray(out);
  } else {
    // Explicit arrays are always in memory.
    Result<std::span<const int64_t>> ids = devices_.devices();
    if (ids) {
      for (size_t i = 0; i < ids->size(); ++i) {
        if (i) out += ',';
        out += std::to_string((*ids)[i]);
      }
    }
  }
  out += ')';
}

std::string Mesh::toString() const {
  std::string out;
  print(out);
  return out;
}

// ---------------------------------------------------------------------------
// NamedSharding: verification (XLA's VerifyNamedSharding)

namespace {

// Whether two refs to the same axis can be used together (XLA's
// CanCoexistWithoutOverlap): disjoint and aligned so both stay sub-axes of
// one factorisation. Sizes were validated, so the products cannot overflow.
bool canCoexist(const AxisRef& a, const AxisRef& b) {
  if (a.meshAxisIndex != b.meshAxisIndex) return true;
  if (!a.subAxis || !b.subAxis) return false;
  const int64_t aPre = a.subAxis->preSize, bPre = b.subAxis->preSize;
  const int64_t aNext = aPre * a.subAxis->size, bNext = bPre * b.subAxis->size;
  if (aNext > bPre && bNext > aPre) return false;
  return std::max(aPre, bPre) % std::min(aNext, bNext) == 0;
}

// XLA's CanMerge: consecutive sub-axes of one axis, `a` major to `b`.
bool canMerge(const AxisRef& a, const AxisRef& b) {
  return a.meshAxisIndex == b.meshAxisIndex && a.subAxis && b.subAxis &&
         a.subAxis->preSize * a.subAxis->size == b.subAxis->preSize;
}

// XLA's CompareAxisRefs: by axis index, then pre-size, then size.
bool axisLess(const NamedSharding& ns, const AxisRef& a, const AxisRef& b) {
  if (a.meshAxisIndex != b.meshAxisIndex) return a.meshAxisIndex < b.meshAxisIndex;
  if (a.preSize() != b.preSize()) return a.preSize() < b.preSize();
  return ns.axisSize(a) < ns.axisSize(b);
}

std::string axisText(const NamedSharding& ns, const AxisRef& a) {
  std::string out;
  ns.printAxis(a, out);
  return out;
}

}  // namespace

// Verifies one ref against the mesh (XLA's AxisRef::Validate plus the
// constructor's CHECKs) and against every ref seen so far.
static Status verifyAndTrack(const NamedSharding& ns, const AxisRef& axis,
                             std::vector<AxisRef>& seen) {
  const int64_t n = ns.mesh().numAxes();
  if (axis.meshAxisIndex < 0 || axis.meshAxisIndex >= n) {
    return invalidError("Axis index must be less than number of axes. Axis index: " +
                   std::to_string(axis.meshAxisIndex) + ", Number of axes: " + std::to_string(n));
  }
  if (axis.subAxis) {
    if (axis.subAxis->preSize < 1) return invalidError("sub-axis pre-size must be >= 1");
    if (axis.subAxis->size <= 1) return invalidError("sub-axis size must be > 1");
    const int64_t axisSize = ns.mesh().axisSize(axis.meshAxisIndex);
    const std::optional<int64_t> next = checkedMul(axis.subAxis->preSize, axis.subAxis->size);
    if (!next || axisSize % *next != 0) {
      return invalidError("Sub-axis next_pre_size must divide the full axis size. Next pre-size: " +
                     (next ? std::to_string(*next) : std::string("overflow")) +
                     ", Axis size: " + std::to_string(axisSize));
    }
    if (axis.subAxis->size >= axisSize) {
      return invalidError(
          "Sub-axis size must be strictly less than the full axis size. Sub-axis size: " +
          std::to_string(axis.subAxis->size) + ", Axis size: " + std::to_string(axisSize));
    }
  }
  for (const AxisRef& other : seen) {
    if (!canCoexist(axis, other)) return invalidError("Axes cannot coexist or axes overlap.");
  }
  seen.push_back(axis);
  return okStatus();
}

static Status verifyList(const NamedSharding& ns, const std::vector<AxisRef>& axes,
                         const char* name, std::vector<AxisRef>& seen) {
  for (size_t i = 1; i < axes.size(); ++i) {
    // Indices are checked before sizes are looked up by axisLess.
    const int64_t n = ns.mesh().numAxes();
    if (axes[i - 1].meshAxisIndex >= 0 && axes[i - 1].meshAxisIndex < n &&
        axes[i].meshAxisIndex >= 0 && axes[i].meshAxisIndex < n &&
        axisLess(ns, axes[i], axes[i - 1])) {
      return invalidError(std::string(name) +
                     " axes must be sorted by mesh axis index and sub-axis pre-size.");
    }
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    SB_TRY(verifyAndTrack(ns, axes[i], seen));
    if (i > 0 && canMerge(axes[i - 1], axes[i])) {
      return invalidError("Adjacent axes in " + std::string(name) + " axes can be merged: " +
                     axisText(ns, axes[i - 1]) + ", " + axisText(ns, axes[i]));
    }
  }
  return okStatus();
}

Result<NamedSharding> NamedSharding::create(Mesh mesh, std::vector<DimSharding> dims,
                                            std::vector<AxisRef> replicated,
                                            std::vector<AxisRef> unreduced,
                                            std::vector<AxisRef> manual,
                                            std::vector<OpMetadata> metadata) {
  NamedSharding ns;
  ns.mesh_ = std::move(mesh);
  // The dims are kept as given, all-empty ones included: the newest
  // upstream prints `{mesh['a'=16], [{}, {}]}` and keeps the rank (older
  // snapshots dropped all-empty dims, CanonicalizedDimShardings).
  ns.dims_ = std::move(dims);
  ns.replicated_ = std::move(replicated);
  ns.unreduced_ = std::move(unreduced);
  ns.manual_ = std::move(manual);
  ns.metadata_ = std::move(metadata);

  std::vector<AxisRef> seen;
  for (const DimSharding& d : ns.dims_) {
    for (size_t i = 0; i < d.axes.size(); ++i) {
      SB_TRY(verifyAndTrack(ns, d.axes[i], seen));
      if (i > 0 && canMerge(d.axes[i - 1], d.axes[i])) {
        return invalidError("Adjacent axes in dimension sharding can be merged: " +
                       axisText(ns, d.axes[i - 1]) + ", " + axisText(ns, d.axes[i]));
      }
    }
  }
  SB_TRY(verifyList(ns, ns.replicated_, "Replicated", seen));
  SB_TRY(verifyList(ns, ns.unreduced_, "Unreduced", seen));
  SB_TRY(verifyList(ns, ns.manual_, "Manual", seen));
  return ns;
}

NamedSharding NamedSharding::replicate(std::vector<OpMetadata> metadata) {
  NamedSharding ns;
  ns.metadata_ = std::move(metadata);
  return ns;
}

NamedSharding NamedSharding::maximal(int64_t device, std::vector<OpMetadata> metadata) {
  NamedSharding ns;
  ns.mesh_ = Mesh::maximal(device);
  ns.metadata_ = std::move(metadata);
  return ns;
}

static std::vector<AxisRef> allAxes(const Mesh& mesh) {
  std::vector<AxisRef> axes;
  for (int64_t i = 0; i < mesh.numAxes(); ++i) axes.push_back(AxisRef::full(i));
  return axes;
}

Result<NamedSharding> NamedSharding::manual(Mesh mesh, std::vector<OpMetadata> metadata) {
  std::vector<AxisRef> axes = allAxes(mesh);
  return create(std::move(mesh), {}, {}, {}, std::move(axes), std::move(metadata));
}

Result<NamedSharding> NamedSharding::unreduced(Mesh mesh, std::vector<OpMetadata> metadata) {
  std::vector<AxisRef> axes = allAxes(mesh);
  return create(std::move(mesh), {}, {}, std::move(axes), {}, std::move(metadata));
}

NamedSharding NamedSharding::withMetadata(std::vector<OpMetadata> metadata) const {
  NamedSharding ns = *this;
  ns.metadata_ = std::move(metadata);
  return ns;
}

int64_t NamedSharding::axisSize(const AxisRef& axis) const {
  return axis.subAxis ? axis.subAxis->size : mesh_.axisSize(axis.meshAxisIndex);
}

int64_t NamedSharding::shardedSize(size_t i) const {
  int64_t n = 1;
  for (const AxisRef& a : dims_[i].axes) n *= axisSize(a);  // <= device count
  return n;
}

// XLA's ContainsAllMeshAxesInOrder: exactly the whole axes 0..n-1.
static bool allAxesInOrder(const Mesh& mesh, const std::vector<AxisRef>& axes) {
  if (static_cast<int64_t>(axes.size()) != mesh.numAxes()) return false;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].subAxis || axes[i].meshAxisIndex != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// Whether no dimension is sharded (all-empty dims count as none: the kinds
// below are semantic; only the printer tells `[{}, {}]` from no dims).
static bool noDimAxes(std::span<const DimSharding> dims) {
  return std::all_of(dims.begin(), dims.end(), [](const DimSharding& d) { return d.axes.empty(); });
}
bool NamedSharding::isReplicated() const {
  return !isMaximal() && noDimAxes(dims_) && unreduced_.empty() && manual_.empty();
}
bool NamedSharding::isManual() const {
  return !isMaximal() && noDimAxes(dims_) && replicated_.empty() && unreduced_.empty() &&
         allAxesInOrder(mesh_, manual_);
}
bool NamedSharding::isUnreduced() const {
  return !isMaximal() && noDimAxes(dims_) && replicated_.empty() && manual_.empty() &&
         allAxesInOrder(mesh_, unreduced_);
}

bool operator==(const NamedSharding& a, const NamedSharding& b) {
  return a.mesh_.deviceAssignmentEquals(b.mesh_) && a.dims_ == b.dims_ &&
         a.replicated_ == b.replicated_ && a.unreduced_ == b.unreduced_ && a.manual_ == b.manual_;
}

// ---------------------------------------------------------------------------
// Printing (XLA's NamedSharding::ToString; names quoted)

void NamedSharding::printAxis(const AxisRef& axis, std::string& out) const {
  out += '\'';
  if (axis.meshAxisIndex >= 0 && axis.meshAxisIndex < mesh_.numAxes()) {
    out += mesh_.axisNames()[static_cast<size_t>(axis.meshAxisIndex)];
  } else {
    out += std::to_string(axis.meshAxisIndex);  // only reachable in error messages
  }
  out += '\'';
  if (axis.subAxis) {
    out += ":(";
    out += std::to_string(axis.subAxis->preSize);
    out += ')';
    out += std::to_string(axis.subAxis->size);
  }
}

namespace {

// An entry that says only the reduction kind, as the exporter writes it.
bool isReductionEntry(const OpMetadata& md) {
  OpMetadata only;
  only.opType = "sdy::reduction_op";
  only.opName = md.opName;
  return md == only;
}

}  // namespace

std::string_view NamedSharding::reductionKind() const {
  if (unreduced_.empty()) return {};
  for (const OpMetadata& md : metadata_) {
    if (!isReductionEntry(md)) continue;
    if (md.opName == "MAX") return "max";
    if (md.opName == "MIN") return "min";
  }
  return {};
}

void NamedSharding::print(std::string& out, bool includeMetadata) const {
  auto printList = [&](const std::vector<AxisRef>& axes) {
    for (size_t i = 0; i < axes.size(); ++i) {
      if (i) out += ", ";
      printAxis(axes[i], out);
    }
  };
  // Unlike V2, V3 metadata is always a list, even for one entry.
  // A reduction kind printed as `unreduced=max{...}` is not repeated in the
  // metadata (the parser puts it back there).
  const std::string_view kind = reductionKind();
  auto finish = [&] {
    bool first = true;
    for (const OpMetadata& md : includeMetadata ? metadata_ : std::vector<OpMetadata>()) {
      if (!kind.empty() && isReductionEntry(md)) continue;
      out += first ? ", metadata={{" : ", {";
      first = false;
      printOpMetadata(md, out);
      out += '}';
    }
    if (!first) out += '}';
    out += '}';
  };
  out += '{';
  mesh_.print(out);
  // Upstream's special cases, in its order.
  // The shorthands only where there are no dims (Replicate(), Manual(), ...):
  // a sharding with dims prints them, all-empty ones included.
  if (dims_.empty() && isReplicated() && replicated_.empty()) {
    out += ", replicated";
    return finish();
  }
  if (isMaximal()) return finish();
  if (dims_.empty() && isUnreduced()) {
    out += ", unreduced";
    return finish();
  }
  if (dims_.empty() && isManual()) {
    out += ", manual";
    return finish();
  }
  out += ", [";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) out += ", ";
    out += '{';
    printList(dims_[i].axes);
    if (!dims_[i].isClosed) out += dims_[i].axes.empty() ? "?" : ", ?";
    out += '}';
  }
  out += ']';
  const std::pair<const char*, const std::vector<AxisRef>*> lists[] = {
      {", replicated={", &replicated_}, {", unreduced={", &unreduced_}, {", manual={", &manual_}};
  for (const auto& [prefix, axes] : lists) {
    if (axes->empty()) continue;
    out += prefix;
    if (axes == &unreduced_ && !kind.empty()) {
      out.pop_back();  // the '{' goes after the kind: `unreduced=max{...}`
      out += kind;
      out += '{';
    }
    printList(*axes);
    out += '}';
  }
  finish();
}

std::string NamedSharding::toString(bool includeMetadata) const {
  std::string out;
  print(out, includeMetadata);
  return out;
}
}  // namespace shardbridge::hlo
