#include "shardbridge/sdy/attrs.h"

#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "shardbridge/base/checked_math.h"

namespace shardbridge::sdy {
namespace detail {

// The storage layouts are part of the contract (docs/upstream.md § Attribute storage layout): pin them.
#define SB_CHECK_LAYOUT(S)                                \
  static_assert(std::is_standard_layout_v<S>, #S);        \
  static_assert(offsetof(S, header) == 0x00, #S " header")
SB_CHECK_LAYOUT(MeshAxisStorage);
static_assert(offsetof(MeshAxisStorage, name) == 0x08);
static_assert(offsetof(MeshAxisStorage, name.size) == 0x10);
static_assert(offsetof(MeshAxisStorage, size) == 0x18);
SB_CHECK_LAYOUT(MeshStorage);
static_assert(offsetof(MeshStorage, axes) == 0x08);
static_assert(offsetof(MeshStorage, axes.size) == 0x10);
static_assert(offsetof(MeshStorage, deviceIds) == 0x18);
static_assert(offsetof(MeshStorage, deviceIds.size) == 0x20);
SB_CHECK_LAYOUT(SubAxisInfoStorage);
static_assert(offsetof(SubAxisInfoStorage, preSize) == 0x08);
static_assert(offsetof(SubAxisInfoStorage, size) == 0x10);
SB_CHECK_LAYOUT(AxisRefStorage);
static_assert(offsetof(AxisRefStorage, name) == 0x08);
static_assert(offsetof(AxisRefStorage, name.size) == 0x10);
static_assert(offsetof(AxisRefStorage, subAxisInfo) == 0x18);
SB_CHECK_LAYOUT(DimensionShardingStorage);
static_assert(offsetof(DimensionShardingStorage, axes) == 0x08);
static_assert(offsetof(DimensionShardingStorage, axes.size) == 0x10);
static_assert(offsetof(DimensionShardingStorage, isClosed) == 0x18);
static_assert(offsetof(DimensionShardingStorage, priority) == 0x20);
static_assert(offsetof(DimensionShardingStorage, hasPriority) == 0x28);
SB_CHECK_LAYOUT(TensorShardingStorage);
static_assert(offsetof(TensorShardingStorage, meshOrRef) == 0x08);
static_assert(offsetof(TensorShardingStorage, dimShardings) == 0x10);
static_assert(offsetof(TensorShardingStorage, dimShardings.size) == 0x18);
static_assert(offsetof(TensorShardingStorage, replicatedAxes) == 0x20);
static_assert(offsetof(TensorShardingStorage, replicatedAxes.size) == 0x28);
static_assert(offsetof(TensorShardingStorage, unreducedAxes) == 0x30);
static_assert(offsetof(TensorShardingStorage, unreducedAxes.size) == 0x38);
static_assert(offsetof(TensorShardingStorage, reductionOp) == 0x40);
SB_CHECK_LAYOUT(TensorShardingPerValueStorage);
static_assert(offsetof(TensorShardingPerValueStorage, shardings) == 0x08);
SB_CHECK_LAYOUT(SymbolRefStorage);
#undef SB_CHECK_LAYOUT

// A handle is exactly one pointer.
static_assert(sizeof(MeshAxisAttr) == sizeof(void*));
static_assert(sizeof(AxisRefAttr) == sizeof(void*));
static_assert(sizeof(TensorShardingAttr) == sizeof(void*));

namespace {

template <typename S>
const S* internAs(Context& ctx, S& probe) {
  return reinterpret_cast<const S*>(intern(ctx, probe.header));
}

StrRef strRef(std::string_view s) { return StrRef{s.data(), s.size()}; }

template <typename T>
ArrayRefT<T> arrayRef(std::span<const T> s) {
  return ArrayRefT<T>{s.data(), s.size()};
}

}  // namespace
}  // namespace detail

using namespace detail;

MeshAxisAttr MeshAxisAttr::get(Context& ctx, std::string_view name, int64_t size) {
  MeshAxisStorage probe{{AttrKind::kMeshAxis, 0}, strRef(name), size};
  return MeshAxisAttr(internAs(ctx, probe));
}

MeshAttr MeshAttr::get(Context& ctx, std::span<const MeshAxisAttr> axes,
                       std::span<const int64_t> deviceIds) {
  // Upstream's builder drops device ids that spell out the iota order, so
  // `device_ids=[0, 1, 2, 3]` and no device_ids are the same mesh.
  if (!axes.empty() && !deviceIds.empty()) {
    bool iota = true;
    for (size_t i = 0; i < deviceIds.size() && iota; ++i)
      iota = deviceIds[i] == static_cast<int64_t>(i);
    if (iota) {
      int64_t total = 1;
      bool overflow = false;
      for (MeshAxisAttr a : axes) {
        auto p = checkedMul(total, a.size());
        if (!p) { overflow = true; break; }
        total = *p;
      }
      if (!overflow && total == static_cast<int64_t>(deviceIds.size())) deviceIds = {};
    }
  }
  MeshStorage probe{{AttrKind::kMesh, 0}, arrayRef(axes), arrayRef(deviceIds)};
  return MeshAttr(internAs(ctx, probe));
}

std::optional<int64_t> MeshAttr::getMaximalDeviceId() const {
  if (!isMaximal()) return std::nullopt;
  return deviceIds()[0];
}

std::optional<int64_t> MeshAttr::getTotalSize() const {
  int64_t total = 1;
  for (MeshAxisAttr a : axes()) {
    auto p = checkedMul(total, a.size());
    if (!p) return std::nullopt;
    total = *p;
  }
  return total;
}

std::optional<size_t> MeshAttr::getAxisIndex(std::string_view name) const {
  auto list = axes();
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].name() == name) return i;
  return std::nullopt;
}

std::optional<int64_t> MeshAttr::getAxisSize(std::string_view name) const {
  auto i = getAxisIndex(name);
  if (!i) return std::nullopt;
  return axes()[*i].size();
}

bool MeshAttr::equals(MeshAttr other, bool ignoreDeviceIds) const {
  if (*this == other) return true;
  if (!ignoreDeviceIds || isNull() || other.isNull()) return false;
  // As upstream: without axes, the device ids are what tells the empty mesh
  // `<[]>` from a maximal one, so they still count there.
  if (isMaximal() != other.isMaximal()) return false;
  auto a = axes(), b = other.axes();
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

SubAxisInfoAttr SubAxisInfoAttr::get(Context& ctx, int64_t preSize, int64_t size) {
  SubAxisInfoStorage probe{{AttrKind::kSubAxisInfo, 0}, preSize, size};
  return SubAxisInfoAttr(internAs(ctx, probe));
}

int64_t SubAxisInfoAttr::nextPreSize() const {
  auto p = checkedMul(preSize(), size());
  return p ? *p : std::numeric_limits<int64_t>::max();
}

AxisRefAttr AxisRefAttr::get(Context& ctx, std::string_view name) {
  AxisRefStorage probe{{AttrKind::kAxisRef, 0}, strRef(name), nullptr};
  return AxisRefAttr(internAs(ctx, probe));
}

AxisRefAttr AxisRefAttr::get(Context& ctx, std::string_view name, SubAxisInfoAttr subAxisInfo) {
  AxisRefStorage probe{{AttrKind::kAxisRef, 0}, strRef(name), subAxisInfo.impl()};
  return AxisRefAttr(internAs(ctx, probe));
}

AxisRefAttr AxisRefAttr::get(Context& ctx, std::string_view name, int64_t preSize,
                             int64_t size) {
  return get(ctx, name, SubAxisInfoAttr::get(ctx, preSize, size));
}

std::optional<int64_t> AxisRefAttr::getSize(MeshAttr mesh) const {
  if (isSubAxis()) return subAxisInfo().size();
  if (mesh.isNull()) return std::nullopt;
  return mesh.getAxisSize(name());
}

int64_t AxisRefAttr::getSubAxisPreSize() const {
  return isSubAxis() ? subAxisInfo().preSize() : 1;
}

std::optional<int64_t> AxisRefAttr::getNextPreSizeOrFullSize(MeshAttr mesh) const {
  if (isSubAxis()) return subAxisInfo().nextPreSize();
  if (mesh.isNull()) return std::nullopt;
  return mesh.getAxisSize(name());
}

std::string AxisRefAttr::toString() const {
  std::string s = "\"";
  s += name();
  s += '"';
  if (isSubAxis()) {
    s += ":(" + std::to_string(subAxisInfo().preSize()) + ")" +
         std::to_string(subAxisInfo().size());
  }
  return s;
}

DimensionShardingAttr DimensionShardingAttr::get(Context& ctx,
                                                 std::span<const AxisRefAttr> axes,
                                                 bool isClosed,
                                                 std::optional<int64_t> priority) {
  DimensionShardingStorage probe{{AttrKind::kDimensionSharding, 0}, arrayRef(axes), isClosed,
                                 priority.value_or(0), priority.has_value() ? 1u : 0u};
  return DimensionShardingAttr(internAs(ctx, probe));
}

std::optional<int64_t> DimensionShardingAttr::getShardedSize(MeshAttr mesh) const {
  int64_t total = 1;
  for (AxisRefAttr a : axes()) {
    auto s = a.getSize(mesh);
    if (!s) return std::nullopt;
    auto p = checkedMul(total, *s);
    if (!p) return std::nullopt;
    total = *p;
  }
  return total;
}

MeshOrRef MeshOrRef::ref(Context& ctx, std::string_view symbolName) {
  SymbolRefStorage probe{{AttrKind::kSymbolRef, 0}, strRef(symbolName)};
  return MeshOrRef(&internAs(ctx, probe)->header);
}

MeshOrRef MeshOrRef::inlineMesh(MeshAttr mesh) {
  return MeshOrRef(mesh.isNull() ? nullptr : &mesh.impl()->header);
}

std::string_view MeshOrRef::refName() const {
  if (!isRef()) return {};
  return reinterpret_cast<const SymbolRefStorage*>(impl_)->name.view();
}

MeshAttr MeshOrRef::inlineMeshAttr() const {
  if (!isInline()) return MeshAttr();
  return MeshAttr(reinterpret_cast<const MeshStorage*>(impl_));
}

TensorShardingAttr TensorShardingAttr::get(Context& ctx, MeshOrRef meshOrRef,
                                           std::span<const DimensionShardingAttr> dimShardings,
                                           std::span<const AxisRefAttr> replicatedAxes,
                                           std::span<const AxisRefAttr> unreducedAxes,
                                           ReductionOp reductionOp) {
  TensorShardingStorage probe{{AttrKind::kTensorSharding, 0},
                              meshOrRef.impl(),
                              arrayRef(dimShardings),
                              arrayRef(replicatedAxes),
                              arrayRef(unreducedAxes),
                              reductionOp};
  return TensorShardingAttr(internAs(ctx, probe));
}

namespace {
TensorShardingAttr uniformSharding(Context& ctx, MeshOrRef meshOrRef, int64_t rank,
                                   bool closed) {
  DimensionShardingAttr dim = DimensionShardingAttr::get(ctx, {}, closed);
  std::vector<DimensionShardingAttr> dims(rank > 0 ? static_cast<size_t>(rank) : 0, dim);
  return TensorShardingAttr::get(ctx, meshOrRef, dims);
}
}  // namespace

TensorShardingAttr TensorShardingAttr::getFullyClosed(Context& ctx, MeshOrRef meshOrRef,
                                                      int64_t rank) {
  return uniformSharding(ctx, meshOrRef, rank, /*closed=*/true);
}

TensorShardingAttr TensorShardingAttr::getFullyOpen(Context& ctx, MeshOrRef meshOrRef,
                                                    int64_t rank) {
  return uniformSharding(ctx, meshOrRef, rank, /*closed=*/false);
}

MeshAttr TensorShardingAttr::getMesh(const MeshLookup& lookup) const {
  MeshOrRef m = meshOrRef();
  if (m.isInline()) return m.inlineMeshAttr();
  if (!m.isRef() || !lookup) return MeshAttr();
  return lookup(m.refName());
}

bool TensorShardingAttr::isFullyReplicated() const {
  for (DimensionShardingAttr d : dimShardings())
    if (!d.emptyAxes()) return false;
  return replicatedAxes().empty() && unreducedAxes().empty();
}

TensorShardingPerValueAttr TensorShardingPerValueAttr::get(
    Context& ctx, std::span<const TensorShardingAttr> shardings) {
  TensorShardingPerValueStorage probe{{AttrKind::kTensorShardingPerValue, 0},
                                      arrayRef(shardings)};
  return TensorShardingPerValueAttr(internAs(ctx, probe));
}

const char* reductionOpName(ReductionOp op) {
  switch (op) {
    case ReductionOp::kSum: return "sum";
    case ReductionOp::kMax: return "max";
    case ReductionOp::kMin: return "min";
  }
  return "sum";
}

}  // namespace shardbridge::sdy
