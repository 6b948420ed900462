// The Shardy (sdy) attribute model: uniqued, immutable attributes owned by a
// Context, handed out as one-pointer handles that compare by address.
//
//   sdy::Context ctx;
//   auto x = sdy::MeshAxisAttr::get(ctx, "x", 4);
//   auto mesh = sdy::MeshAttr::get(ctx, {x});
//   mesh == sdy::MeshAttr::get(ctx, {sdy::MeshAxisAttr::get(ctx, "x", 4)});  // true
//
// `get` stores whatever it is given (it is how the parser builds attributes
// before the verifier looks at them); the verifier (verifier.h) says whether an
// attribute is valid. The only normalisation `get` does is upstream's:
// MeshAttr drops device_ids equal to iota when the mesh has axes.
//
// Thread safety: a Context may be used from any number of threads at once;
// handles are plain pointers into it and stay valid as long as it lives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "shardbridge/sdy/attr_storage.h"

namespace shardbridge::sdy {

class Context;

namespace detail {
// Interns `probe` (a stack-built storage whose arrays point at caller memory)
// and returns the canonical copy; fills probe.hash. Defined in context.cc.
const StorageHeader* intern(Context& ctx, StorageHeader& probe);
}  // namespace detail

// Owns every attribute created through it. Not copyable or movable: handles
// point into it.
class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Number of distinct attributes stored so far (all kinds).
  size_t size() const;

  struct Impl;

 private:
  friend const detail::StorageHeader* detail::intern(Context&, detail::StorageHeader&);
  std::unique_ptr<Impl> impl_;
};

// Common handle behaviour: null by default, compares by address, hashable.
template <typename Derived, typename Storage>
class AttrHandle {
 public:
  AttrHandle() = default;
  explicit AttrHandle(const Storage* impl) : impl_(impl) {}

  explicit operator bool() const { return impl_ != nullptr; }
  bool isNull() const { return impl_ == nullptr; }
  const Storage* impl() const { return impl_; }
  const void* opaque() const { return impl_; }

  friend bool operator==(Derived a, Derived b) { return a.impl_ == b.impl_; }
  friend bool operator!=(Derived a, Derived b) { return a.impl_ != b.impl_; }

 protected:
  const Storage* impl_ = nullptr;
};

// One named mesh axis: `"x"=4`.
class MeshAxisAttr : public AttrHandle<MeshAxisAttr, detail::MeshAxisStorage> {
 public:
  using AttrHandle::AttrHandle;
  static MeshAxisAttr get(Context& ctx, std::string_view name, int64_t size);

  std::string_view name() const { return impl_->name.view(); }
  int64_t size() const { return impl_->size; }
};

// A device mesh: ordered axes (major to minor) and an optional explicit device
// order (empty = iota). No axes and one device id = a maximal mesh; no axes
// and no ids = the empty mesh `<[]>`.
class MeshAttr : public AttrHandle<MeshAttr, detail::MeshStorage> {
 public:
  using AttrHandle::AttrHandle;
  // Returns the uniqued mesh. As upstream's builder does, `deviceIds` equal
  // to iota(product of axis sizes) are dropped when there is at least one axis.
  static MeshAttr get(Context& ctx, std::span<const MeshAxisAttr> axes,
                      std::span<const int64_t> deviceIds = {});

  std::span<const MeshAxisAttr> axes() const { return impl_->axes.view(); }
  std::span<const int64_t> deviceIds() const { return impl_->deviceIds.view(); }

  // No axes and no device ids: `<[]>`.
  bool empty() const { return axes().empty() && deviceIds().empty(); }
  // No axes and exactly one device id: `<[], device_ids=[3]>`.
  bool isMaximal() const { return axes().empty() && deviceIds().size() == 1; }
  // The device of a maximal mesh; nullopt for any other mesh.
  std::optional<int64_t> getMaximalDeviceId() const;
  // Product of the axis sizes (1 without axes). Returns nullopt when the
  // product overflows int64 (the verifier rejects such meshes).
  std::optional<int64_t> getTotalSize() const;
  // Size of the axis called `name`, or nullopt when the mesh has none.
  std::optional<int64_t> getAxisSize(std::string_view name) const;
  // Position of the axis called `name` in axes(), or nullopt.
  std::optional<size_t> getAxisIndex(std::string_view name) const;
  bool hasAxis(std::string_view name) const { return getAxisIndex(name).has_value(); }
  // Same axes, and (unless ignoreDeviceIds) the same device order.
  bool equals(MeshAttr other, bool ignoreDeviceIds = false) const;
};

// The slice of an axis a sub-axis covers: the axis is reshaped to [k1..kn];
// the sub-axis is k_i with preSize = k1*...*k(i-1). Printed `(pre)size`.
class SubAxisInfoAttr : public AttrHandle<SubAxisInfoAttr, detail::SubAxisInfoStorage> {
 public:
  using AttrHandle::AttrHandle;
  static SubAxisInfoAttr get(Context& ctx, int64_t preSize, int64_t size);

  int64_t preSize() const { return impl_->preSize; }
  int64_t size() const { return impl_->size; }
  // preSize * size, saturating at INT64_MAX on overflow.
  int64_t nextPreSize() const;
};

// A reference to a full mesh axis (`"x"`) or a sub-axis (`"x":(2)4`).
class AxisRefAttr : public AttrHandle<AxisRefAttr, detail::AxisRefStorage> {
 public:
  using AttrHandle::AttrHandle;
  static AxisRefAttr get(Context& ctx, std::string_view name);
  static AxisRefAttr get(Context& ctx, std::string_view name, int64_t preSize, int64_t size);
  static AxisRefAttr get(Context& ctx, std::string_view name, SubAxisInfoAttr subAxisInfo);

  std::string_view name() const { return impl_->name.view(); }
  // Null for a full axis.
  SubAxisInfoAttr subAxisInfo() const { return SubAxisInfoAttr(impl_->subAxisInfo); }
  bool isSubAxis() const { return impl_->subAxisInfo != nullptr; }

  // Sub-axis size, else the size of the axis in `mesh` (nullopt when the mesh
  // has no such axis).
  std::optional<int64_t> getSize(MeshAttr mesh) const;
  // 1 for a full axis.
  int64_t getSubAxisPreSize() const;
  // pre*size for a sub-axis, else the full axis size (nullopt: unknown axis).
  std::optional<int64_t> getNextPreSizeOrFullSize(MeshAttr mesh) const;
  // The text form used in messages: `"x"` or `"x":(2)4`.
  std::string toString() const;
};

// One tensor dimension's sharding: axes major to minor, open (`?`) or
// closed, and an optional priority (`p0` is the highest).
class DimensionShardingAttr
    : public AttrHandle<DimensionShardingAttr, detail::DimensionShardingStorage> {
 public:
  using AttrHandle::AttrHandle;
  static DimensionShardingAttr get(Context& ctx, std::span<const AxisRefAttr> axes,
                                   bool isClosed,
                                   std::optional<int64_t> priority = std::nullopt);

  std::span<const AxisRefAttr> axes() const { return impl_->axes.view(); }
  bool isClosed() const { return impl_->isClosed; }
  bool isOpen() const { return !impl_->isClosed; }
  std::optional<int64_t> priority() const {
    if (impl_->hasPriority == 0) return std::nullopt;
    return impl_->priority;
  }
  bool emptyAxes() const { return axes().empty(); }
  // Product of the axis sizes in `mesh` (1 with no axes); nullopt when an
  // axis is unknown or the product overflows.
  std::optional<int64_t> getShardedSize(MeshAttr mesh) const;
};

// What TensorShardingAttr::meshOrRef holds: a symbol reference `@name` or an
// inline mesh.
class MeshOrRef {
 public:
  MeshOrRef() = default;
  explicit MeshOrRef(const detail::StorageHeader* impl) : impl_(impl) {}
  static MeshOrRef ref(Context& ctx, std::string_view symbolName);
  static MeshOrRef inlineMesh(MeshAttr mesh);

  bool isRef() const { return impl_ && impl_->kind == detail::AttrKind::kSymbolRef; }
  bool isInline() const { return impl_ && impl_->kind == detail::AttrKind::kMesh; }
  // The symbol name without '@'; empty for an inline mesh.
  std::string_view refName() const;
  // The inline mesh; null for a reference.
  MeshAttr inlineMeshAttr() const;
  const detail::StorageHeader* impl() const { return impl_; }
  friend bool operator==(MeshOrRef a, MeshOrRef b) { return a.impl_ == b.impl_; }

 private:
  const detail::StorageHeader* impl_ = nullptr;
};

// Resolves a mesh symbol name to a mesh (null MeshAttr when unknown).
using MeshLookup = std::function<MeshAttr(std::string_view name)>;

// One tensor's sharding: `#sdy.sharding<@mesh, [{"x"}, {"y", ?}], replicated={"z"}>`.
class TensorShardingAttr
    : public AttrHandle<TensorShardingAttr, detail::TensorShardingStorage> {
 public:
  using AttrHandle::AttrHandle;
  static TensorShardingAttr get(Context& ctx, MeshOrRef meshOrRef,
                                std::span<const DimensionShardingAttr> dimShardings,
                                std::span<const AxisRefAttr> replicatedAxes = {},
                                std::span<const AxisRefAttr> unreducedAxes = {},
                                ReductionOp reductionOp = ReductionOp::kSum);
  // `rank` empty dims, all closed (getFullyClosed) or all open (getFullyOpen).
  static TensorShardingAttr getFullyClosed(Context& ctx, MeshOrRef meshOrRef, int64_t rank);
  static TensorShardingAttr getFullyOpen(Context& ctx, MeshOrRef meshOrRef, int64_t rank);

  MeshOrRef meshOrRef() const { return MeshOrRef(impl_->meshOrRef); }
  std::span<const DimensionShardingAttr> dimShardings() const {
    return impl_->dimShardings.view();
  }
  std::span<const AxisRefAttr> replicatedAxes() const { return impl_->replicatedAxes.view(); }
  std::span<const AxisRefAttr> unreducedAxes() const { return impl_->unreducedAxes.view(); }
  ReductionOp reductionOp() const { return impl_->reductionOp; }
  int64_t rank() const { return static_cast<int64_t>(dimShardings().size()); }

  // The inline mesh, or `lookup(refName)` for a reference (null if unknown or
  // no lookup is given).
  MeshAttr getMesh(const MeshLookup& lookup) const;
  // All dims empty and no replicated or unreduced axes.
  bool isFullyReplicated() const;
};

// One sharding per op result: `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`.
class TensorShardingPerValueAttr
    : public AttrHandle<TensorShardingPerValueAttr, detail::TensorShardingPerValueStorage> {
 public:
  using AttrHandle::AttrHandle;
  static TensorShardingPerValueAttr get(Context& ctx,
                                        std::span<const TensorShardingAttr> shardings);
  std::span<const TensorShardingAttr> shardings() const { return impl_->shardings.view(); }
};

// Returns "sum", "max" or "min".
const char* reductionOpName(ReductionOp op);

}  // namespace shardbridge::sdy

// Handles hash by address, so they can key unordered containers.
template <typename T>
  requires std::is_base_of_v<shardbridge::sdy::AttrHandle<T, std::remove_cvref_t<
                                 decltype(*std::declval<T>().impl())>>, T>
struct std::hash<T> {
  size_t operator()(T v) const noexcept { return std::hash<const void*>()(v.opaque()); }
};
