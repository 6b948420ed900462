// V3 named shardings: XLA's NamedSharding / Mesh / AxisRef
// (xla/hlo/ir/named_sharding.h, mesh_and_axis.h), the mesh-and-axis form
// that mirrors Shardy, and its conversions to and from the V2 HloSharding.
//
// A NamedSharding names a mesh (axes with sizes and a device order), says
// which mesh axes shard each tensor dimension (`[{'a'}, {'b', ?}]`), and
// lists explicitly replicated, unreduced and manual axes:
//
//   auto s = parseSharding("{mesh['x'=2,'y'=4], [{'x'}, {}], unreduced={'y'}}");
//   toV2Sharding(*s)->toString()    -> "{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}"
//   toNamedSharding(*parseSharding("{devices=[2,4]<=[4,2]T(1,0)}"))->toString()
//                                   -> "{mesh['axis_0'=4,'axis_1'=2], [{'axis_1'}, {'axis_0'}]}"
//
// In an HloSharding a V3 leaf is Kind::kNamed (see hlo_sharding.h); tuples
// may mix V2 and V3 leaves. Text grammar: parseSharding (text.h) reads both.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/op_metadata.h"
#include "shardbridge/hlo/tile_assignment.h"

namespace shardbridge::hlo {

// A slice of a mesh axis: the `size` devices after the first `preSize`
// (Shardy's `'a':(preSize)size`).
struct SubAxis {
  int64_t preSize = 1;
  int64_t size = 1;
  friend bool operator==(const SubAxis&, const SubAxis&) = default;
};

// A mesh axis by index, whole or a sub-axis of it.
struct AxisRef {
  int64_t meshAxisIndex = 0;
  std::optional<SubAxis> subAxis;

  static AxisRef full(int64_t index) { return AxisRef{index, std::nullopt}; }
  static AxisRef sub(int64_t index, int64_t preSize, int64_t size) {
    return AxisRef{index, SubAxis{preSize, size}};
  }
  int64_t preSize() const { return subAxis ? subAxis->preSize : 1; }

  friend bool operator==(const AxisRef&, const AxisRef&) = default;
};

// The axes sharding one tensor dimension, major to minor; an open dimension
// (`?`) may be sharded further by propagation.
struct DimSharding {
  std::vector<AxisRef> axes;
  bool isClosed = true;
  friend bool operator==(const DimSharding&, const DimSharding&) = default;
};

// XLA's Mesh: named axes whose sizes are the dims of a device array. Three
// kinds: the empty mesh `mesh[]`, a maximal (single-device) mesh with no
// axes and one device, and a mesh with axes whose device order is an iota
// (possibly transposed) or an explicit permutation of [0, N).
class Mesh {
 public:
  // `mesh[]`: no axes, no devices.
  Mesh();
  // `maximal_mesh[device_id=N]` (any id, as upstream).
  static Mesh maximal(int64_t device);
  // Axes with the plain iota device order. Rejects: no axes ("Mesh must have
  // at least one axis."), a size < 1 ("Mesh axis size must be positive."),
  // duplicate names ("Mesh has duplicate axis names. Duplicate axis name:
  // x"), integer names (XLA's message), names containing `'` (shardbridge:
  // they could not be printed), more than kMaxDevices devices.
  //   Mesh::create({"x", "y"}, {2, 4})->toString() -> "mesh['x'=2,'y'=4]"
  static Result<Mesh> create(std::vector<std::string> names, std::span<const int64_t> sizes);
  // Axes with device order iota(N).reshape(reshapeDims).transpose(perm)
  // (canonicalised as XLA's iota; errors as TileAssignment::iota too).
  //   create({"a","b"}, {4,2}, {2,4}, {1,0})->toString()
  //       -> "mesh['a'=4,'b'=2], device_ids=([2,4]T(1,0))"
  static Result<Mesh> create(std::vector<std::string> names, std::span<const int64_t> sizes,
                             std::span<const int64_t> reshapeDims, std::span<const int> perm);
  // Axes with an explicit device order. Besides create()'s rejections, as
  // XLA's ValidateMesh: a count differing from the product of the sizes, a
  // negative id, the identity list ("Non-iota device assignment has iota
  // device id list [0,1,2,3...]."), ids that are not a permutation of
  // [0, N). The identity is rejected, not folded, because XLA does.
  static Result<Mesh> createWithDeviceIds(std::vector<std::string> names,
                                          std::span<const int64_t> sizes,
                                          std::vector<int64_t> deviceIds);

  bool isMaximal() const { return names_.empty() && devices_.numElements() == 1; }
  bool isEmpty() const { return names_.empty() && devices_.numElements() == 0; }
  const std::vector<std::string>& axisNames() const { return names_; }
  int64_t numAxes() const { return static_cast<int64_t>(names_.size()); }
  // Axis sizes (empty for the empty and the maximal mesh).
  std::span<const int64_t> axisSizes() const;
  int64_t axisSize(int64_t i) const { return axisSizes()[static_cast<size_t>(i)]; }
  // The device array (dims = axis sizes); the one device of a maximal mesh;
  // the empty default array for `mesh[]`.
  const TileAssignment& deviceAssignment() const { return devices_; }
  int64_t numDevices() const { return devices_.numElements(); }
  // Whether the device order needs `device_ids=...` (not a one-entry iota).
  bool hasExplicitDeviceOrder() const;

  // XLA's Mesh::ToString with quoted names: "mesh[]", "mesh['a'=2,'b'=4]",
  // "mesh['x'=2,'y'=2], device_ids=(0,2,1,3)", "maximal_mesh[device_id=5]".
  std::string toString() const;
  void print(std::string& out) const;

  // XLA's DeviceAssignmentEquals: same device array, names ignored.
  bool deviceAssignmentEquals(const Mesh& other) const { return devices_ == other.devices_; }
  friend bool operator==(const Mesh& a, const Mesh& b) {
    return a.names_ == b.names_ && a.devices_ == b.devices_;
  }

 private:
  static Result<Mesh> build(std::vector<std::string> names, std::span<const int64_t> sizes,
                            Result<TileAssignment> devices);
  std::vector<std::string> names_;
  TileAssignment devices_;
};

// XLA's NamedSharding. Immutable once created; create() verifies it.
class NamedSharding {
 public:
  // Verifies and builds, as XLA's constructor + VerifyNamedSharding. The dims
  // are kept as given, all-empty ones too (`[{}, {?}]` prints so and keeps the
  // rank); the V2 conversion reads all-empty dims as none, as upstream's
  // CanonicalizedDimShardings. Rejects (XLA's messages): an axis
  // index out of range ("Axis index must be less than number of axes. Axis
  // index: 2, Number of axes: 2"; negative indices likewise), a sub-axis with
  // pre-size < 1 or size < 2, one whose end does not divide the axis ("Sub-axis
  // next_pre_size must divide the full axis size. Next pre-size: 6, Axis
  // size: 8") or that is not smaller than it, overlapping axes anywhere
  // ("Axes cannot coexist or axes overlap."), mergeable neighbours
  // ("Adjacent axes in dimension sharding can be merged: 'a':(1)2, 'a':(2)2"),
  // replicated/unreduced/manual lists not sorted ("Replicated axes must be
  // sorted by mesh axis index and sub-axis pre-size.") or mergeable.
  static Result<NamedSharding> create(Mesh mesh, std::vector<DimSharding> dims,
                                      std::vector<AxisRef> replicated = {},
                                      std::vector<AxisRef> unreduced = {},
                                      std::vector<AxisRef> manual = {},
                                      std::vector<OpMetadata> metadata = {});
  // `{mesh[], replicated}`.
  static NamedSharding replicate(std::vector<OpMetadata> metadata = {});
  // `{maximal_mesh[device_id=N]}`.
  static NamedSharding maximal(int64_t device, std::vector<OpMetadata> metadata = {});
  // `{mesh[...], manual}` / `{mesh[...], unreduced}`: every axis, in order.
  static Result<NamedSharding> manual(Mesh mesh, std::vector<OpMetadata> metadata = {});
  static Result<NamedSharding> unreduced(Mesh mesh, std::vector<OpMetadata> metadata = {});

  const Mesh& mesh() const { return mesh_; }
  const std::vector<DimSharding>& dimShardings() const { return dims_; }
  const std::vector<AxisRef>& replicatedAxes() const { return replicated_; }
  const std::vector<AxisRef>& unreducedAxes() const { return unreduced_; }
  const std::vector<AxisRef>& manualAxes() const { return manual_; }
  const std::vector<OpMetadata>& metadata() const { return metadata_; }
  NamedSharding withMetadata(std::vector<OpMetadata> metadata) const;
  // "max" or "min" when there are unreduced axes and the metadata names that
  // reduction (an entry with op_type "sdy::reduction_op", op_name "MAX" or
  // "MIN" and nothing else); "" otherwise (the default, sum).
  std::string_view reductionKind() const;

  // Size of `axis` in this mesh (the sub-axis size or the whole axis).
  int64_t axisSize(const AxisRef& axis) const;
  // Product of the sizes of dim `i`'s axes.
  int64_t shardedSize(size_t i) const;

  // XLA's predicates: replicated (not maximal, no dim axes, no unreduced or
  // manual axes; explicit replicated axes allowed), maximal, manual /
  // unreduced (no dim axes, nothing else, and exactly all mesh axes whole and
  // in order).
  bool isReplicated() const;
  bool isMaximal() const { return mesh_.isMaximal(); }
  bool isManual() const;
  bool isUnreduced() const;

  // XLA's NamedSharding::ToString (quoted names; metadata always as a list).
  //   "{mesh['a'=2,'b'=4], [{'a'}, {'b', ?}], replicated={'c'}}"
  // The reduction kind of unreduced axes rides in the metadata as V2's does
  // (an entry `op_type="sdy::reduction_op" op_name="MAX"`, see
  // reductionKind); MAX and MIN print as `unreduced=max{'x'}` /
  // `unreduced=min{...}`, and that entry is then left out of the metadata.
  std::string toString(bool includeMetadata = false) const;
  void print(std::string& out, bool includeMetadata = false) const;
  // `'name'` or `'name':(pre)size`.
  void printAxis(const AxisRef& axis, std::string& out) const;

  // XLA's NamedSharding::operator==: equal device arrays (axis names are
  // ignored), dims, replicated, unreduced and manual axes; metadata ignored.
  friend bool operator==(const NamedSharding& a, const NamedSharding& b);

 private:
  NamedSharding() = default;
  Mesh mesh_;
  std::vector<DimSharding> dims_;
  std::vector<AxisRef> replicated_;
  std::vector<AxisRef> unreduced_;
  std::vector<AxisRef> manual_;
  std::vector<OpMetadata> metadata_;
};

// --- V2 <-> V3 ----------------------------------------------------------------

// XLA's HloSharding::ToNamedSharding, made total where it can be. Tuples
// convert leaf by leaf (XLA CHECK-fails); V3 leaves are returned as they are;
// {replicated} -> `{mesh[], replicated}`; {maximal device=N} ->
// `{maximal_mesh[device_id=N]}`; tiled leaves:
//   * an iota (or a V1 list equal to the identity) -> a mesh `axis_0, axis_1,
//     ...` whose sizes are the common factorisation of the tile dims and the
//     transposed reshape dims, ordered by reshape dim (so the mesh itself is a
//     plain iota); each data dim lists its factors major to minor; manual /
//     unreduced subgroup factors go to manual={...} / unreduced={...}
//     (ascending); replication stays implicit;
//   * an explicit list, or an iota XLA cannot split (XLA aborts, e.g.
//     `{devices=[8,2,5]<=[2,2,2,10]T(1,3,0,2)}`), or one whose manual/unreduced
//     factors would have to be listed out of order -> a mesh with one axis per
//     tile dim (size-1 axes kept, as upstream) and `device_ids=(...)`.
// Metadata is kept; shard groups are dropped (V3 has none; XLA drops them too).
// Errors (kUnsupported): {manual}, {unknown}, {unreduced} (no mesh to name),
// a `maximal` subgroup type, an explicit list that is not a permutation of
// [0, N), more than kMaxMaterializedDevices devices on the explicit path.
Result<HloSharding> toNamedSharding(const HloSharding& sharding);

// XLA's HloSharding::V3ToV2Sharding: tile dims = each dim's sharded size,
// then [product of manual axes], [unreduced], [implicitly replicated],
// normalised by HloSharding::subgroup. Explicit or transposed mesh device
// orders are applied (reshape, transpose, reshape). V2 leaves are returned
// as they are; tuples convert leaf by leaf. Fails only when a device array
// too large to materialise would have to be built.
Result<HloSharding> toV2Sharding(const HloSharding& sharding);
Result<HloSharding> toV2Sharding(const NamedSharding& sharding);

// The V3 text of `sharding` for `--to v3`: toNamedSharding, then print.
// Same errors as toNamedSharding.
//   printAsV3({devices=[2,2]<=[4]}) -> "{mesh['axis_0'=2,'axis_1'=2], [{'axis_0'}, {'axis_1'}]}"
Result<std::string> printAsV3(const HloSharding& sharding, bool includeMetadata = false);

// --- text (named_text.cc) ---------------------------------------------------

// Parses one V3 leaf whose opening '{' is already consumed: `text[pos]` is
// the start of `mesh`, `maximal_mesh` or `single_device`. On success `pos` is
// just past the leaf's closing '}'. Used by parseSharding (text.h), which is
// the entry point to call; errors carry byte offsets into `text`.
Result<HloSharding> parseNamedShardingLeaf(std::string_view text, size_t& pos);

}  // namespace shardbridge::hlo
