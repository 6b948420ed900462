// HloSharding: XLA's description of how an HLO value is split over devices.
//
// One sharding is a leaf of one kind — replicated, single device ("maximal"),
// manual, unknown, unreduced, tiled — or a flat tuple of leaves. A tiled leaf
// holds a TileAssignment whose trailing dims may be subgroup dims: a
// replication group (`last_tile_dim_replicate`) or typed subgroups
// (`last_tile_dims={manual, replicated}`). Leaves may carry OpMetadata and a
// shard group (`shard_as N` / `shard_like N`).
//
// The factories reproduce XLA's normalisation (xla/hlo/ir/hlo_sharding.cc):
//   partialTile(devices=[2,2]3,2,1,0)  -> {devices=[2,2]2,3,0,1 last_tile_dim_replicate}
//   subgroup([2,1,2]<=[4], {REPLICATED, MANUAL})
//                                      -> {devices=[2,2]<=[4] last_tile_dims={manual}}
// Equality is XLA's operator==: everything but metadata, with an iota equal
// to the explicit array it stands for.
//
// Text: toString() here; parsing in text.h. Protobuf: see the proto floor,
// which builds on the accessors below (every OpSharding field has one).
//
// V3 (NamedSharding, named_sharding.h): a leaf of Kind::kNamed holds a
// NamedSharding. It prints in the V3 form; it equals a V2 leaf when its
// V2 conversion (toV2Sharding) does; predicates, numbers, validate and the
// tile geometry answer for that V2 conversion (as XLA's EachTile etc. do),
// except validate's device-count message, which is XLA's V3 one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/op_metadata.h"
#include "shardbridge/hlo/shape.h"
#include "shardbridge/hlo/tile_assignment.h"

namespace shardbridge::hlo {

class NamedSharding;

// xla.OpSharding.Type, same numbers.
enum class OpShardingType : int32_t {
  kReplicated = 0,
  kMaximal = 1,
  kTuple = 2,
  kOther = 3,
  kManual = 4,
  kUnknown = 5,
  kUnreduced = 6,
};

// Whether `value` is an OpSharding.Type number (0..6).
bool isValidOpShardingType(int64_t value);

// A shard group: `shard_as id` or `shard_like id`; id -1 means none.
struct ShardGroup {
  int64_t id = -1;
  bool shardAs = false;
  bool shardLike = false;

  static ShardGroup none() { return {}; }
  static ShardGroup as(int64_t id) { return {id, true, false}; }
  static ShardGroup like(int64_t id) { return {id, false, true}; }

  // XLA's IsShardGroup: an id other than -1 and one of the two flags.
  bool isShardGroup() const { return id != -1 && (shardAs || shardLike); }
  // "shard_like 3", "shard_as 3" (shard_like wins if both are set, as
  // upstream prints), or "".
  std::string toString() const;

  friend bool operator==(const ShardGroup&, const ShardGroup&) = default;
};

class HloSharding {
 public:
  // The leaf kinds. An older XLA binary knows only
  // replicated/manual/unknown flags plus "maximal" and have no UNREDUCED; the
  // XLA of 2026-07 (xla/hlo/ir/hlo_sharding.h; docs/upstream.md § HloSharding semantics) adds unreduced_ and renames maximal_ to
  // single_device_. Following the newer XLA, one enum holds all of them; at most
  // one of XLA's kind flags is ever set, so nothing is lost.
  enum class Kind : uint8_t {
    kReplicated,
    kSingleDevice,  // XLA's "maximal"
    kManual,
    kUnknown,
    kUnreduced,
    kTiled,
    kTuple,
    kNamed,  // a V3 NamedSharding leaf
  };

  // A replicated sharding.
  HloSharding();

  static HloSharding replicate(std::vector<OpMetadata> metadata = {});
  static HloSharding manual(std::vector<OpMetadata> metadata = {});
  static HloSharding unknown(std::vector<OpMetadata> metadata = {});
  static HloSharding unreduced(std::vector<OpMetadata> metadata = {});
  // `{maximal device=N}`; any id, negative included (validate checks ranges).
  static HloSharding singleDevice(int64_t device, std::vector<OpMetadata> metadata = {});

  // A tiled sharding over `tiles` as given, no normalisation (XLA's Tile).
  // Rejects the empty default TileAssignment.
  static Result<HloSharding> tile(TileAssignment tiles, std::vector<OpMetadata> metadata = {});
  // XLA's IotaTile: tiled over `[dims]<=[...]`. Errors as TileAssignment::iota.
  static Result<HloSharding> iotaTile(std::span<const int64_t> dims);
  static Result<HloSharding> iotaTile(std::span<const int64_t> dims,
                                      std::vector<OpMetadata> metadata);
  static Result<HloSharding> iotaTile(std::span<const int64_t> dims,
                                      std::span<const int64_t> reshapeDims,
                                      std::span<const int> transposePerm,
                                      std::vector<OpMetadata> metadata = {});
  // XLA's PartialTile: the last dim of `tiles` is a replication group. Rank 1
  // or a group of all devices -> replicated; group 1 -> plain tile; otherwise
  // the members of each group are sorted (staying iota when XLA's does, else
  // an explicit array). Fails only when an iota too large to materialise
  // would have to be.
  //   partialTile(devices=[2,3,4]<=[2,3,4]T(2,1,0)) -> a 24-entry V1 list
  static Result<HloSharding> partialTile(const TileAssignment& tiles,
                                         std::vector<OpMetadata> metadata = {});
  // XLA's Subgroup: the trailing `types.size()` dims of `tiles` are subgroup
  // dims of those types. Normalises: no data tiling and one type ->
  // manual/replicated/unreduced; size-1 subgroup dims dropped; equal types
  // merged; types ordered MAXIMAL, TUPLE, OTHER, MANUAL, UNREDUCED,
  // REPLICATED, UNKNOWN; a lone REPLICATED becomes last_tile_dim_replicate.
  // Rejects more types than dims and type numbers outside 0..6.
  static Result<HloSharding> subgroup(const TileAssignment& tiles,
                                      std::span<const OpShardingType> types,
                                      std::vector<OpMetadata> metadata = {});
  // A flat tuple of `elements` (XLA's FlatTuple). A tuple given as an
  // element contributes its leaves (its own shard group is dropped). An
  // empty list is the empty tuple `{}`.
  static HloSharding tuple(std::vector<HloSharding> elements);
  // A V3 leaf holding `named` (its metadata is the named sharding's).
  static HloSharding named(NamedSharding named);

  // Copy with the shard group replaced (on a tuple: the tuple's own group,
  // which XLA keeps but never prints).
  HloSharding withShardGroup(ShardGroup group) const&;
  HloSharding withShardGroup(ShardGroup group) &&;
  // XLA's WithMetadata: on every leaf whose metadata is empty (or all
  // leaves, if `overwrite`), set `metadata`.
  HloSharding withMetadata(const std::vector<OpMetadata>& metadata, bool overwrite) const;
  // XLA's WithoutMetadata: clears the metadata of every leaf.
  HloSharding withoutMetadata() const;

  // --- accessors (one per OpSharding field the proto layer needs) ---------
  Kind kind() const { return kind_; }
  const TileAssignment& tileAssignment() const { return tileAssignment_; }
  bool replicateOnLastTileDim() const { return replicateOnLastTileDim_; }
  const std::vector<OpShardingType>& subgroupTypes() const { return subgroupTypes_; }
  // A V3 leaf's metadata is its NamedSharding's.
  const std::vector<OpMetadata>& metadata() const;
  const std::vector<HloSharding>& tupleElements() const { return tupleElements_; }
  const ShardGroup& shardGroup() const { return shardGroup_; }
  // The NamedSharding of a V3 leaf; null for every other kind.
  const NamedSharding* namedSharding() const { return named_.get(); }
  bool isNamed() const { return kind_ == Kind::kNamed; }

  // --- predicates (XLA's; on a tuple the kind predicates mean "every
  // leaf", so they hold vacuously for the empty tuple, as upstream; the
  // shard-group predicates need a non-empty tuple) -------------------------
  bool isTuple() const { return kind_ == Kind::kTuple; }
  bool isReplicated() const;
  bool isManual() const;
  bool isUnknown() const;
  bool isUnreduced() const;
  bool isSingleDevice() const;
  // Replicated or single device (XLA's IsTileMaximal, now
  // IsReplicatedOrSingleDevice).
  bool isTileMaximal() const;
  // None of replicated, single device, manual, unreduced, unknown (XLA's
  // formula, also on tuples). Manual/unreduced *subgroups* are tiled.
  bool isTiled() const;
  bool isManualSubgroup() const;
  bool isUnreducedSubgroup() const;
  bool hasPartialReplication() const;
  bool isShardGroup() const;
  bool isShardAs() const;
  bool isShardLike() const;

  // Tile dims minus the replication dim and subgroup dims (tiled leaves;
  // 0 for any other sharding, where XLA would CHECK-fail).
  int64_t tiledDataRank() const;
  // 1 for replicated/single device, else the product of the data dims;
  // nullopt for manual, unknown, unreduced and tuples (XLA CHECK-fails).
  std::optional<int64_t> numTiles() const;
  // Number of devices of the tile assignment (XLA's TotalNumTiles).
  int64_t totalNumTiles() const;
  // Size of the replication dim of a tiled leaf, else 1.
  int64_t replicationFactor() const;
  // Absolute index of the REPLICATED / MANUAL / UNREDUCED subgroup dim, or
  // -1 (the replication dim counts for SubgroupReplicationDim).
  int64_t subgroupReplicationDim() const;
  int64_t subgroupManualDim() const;
  int64_t subgroupUnreducedDim() const;
  // Tile assignment dim `i` of a tiled leaf; 1 otherwise.
  int64_t dimension(int64_t i) const;
  // The device of a single-device leaf, or of a tuple whose leaves are all
  // single-device on the same device.
  std::optional<int64_t> uniqueDevice() const;
  bool usesDevice(int64_t device) const;

  // --- validation and geometry -------------------------------------------
  // XLA's Validate, same messages (each followed by
  // "\n\tNote: While validating sharding <toString()> against shape <shape>").
  // Token shapes are always fine.
  Status validate(const Shape& shape, std::optional<int64_t> numDevices = std::nullopt) const;

  // The data-dim index of the (last) tile holding `device`. Errors for
  // non-tiled leaves and devices not in the assignment.
  Result<std::vector<int64_t>> tileIndexForDevice(int64_t device) const;
  // XLA's TileOffsetForDevice / TileLimitForDevice for an array `shape`:
  // per data dim, min(index * ceil(dim / shards), dim) and
  // min((index + 1) * ceil(dim / shards), dim). A single-device leaf gives
  // zeros / the full shape. Errors: tuples, manual, unknown, unreduced, a
  // rank different from tiledDataRank(), a device not in the assignment.
  Result<std::vector<int64_t>> tileOffsetForDevice(const Shape& shape, int64_t device) const;
  Result<std::vector<int64_t>> tileLimitForDevice(const Shape& shape, int64_t device) const;
  // XLA's TileShape(shape): per data dim ceil(dim / shards) (the shape itself
  // for replicated/single device), and TileShape(shape, device): the local
  // shape of `device`'s tile (limit - offset).
  Result<Shape> tileShape(const Shape& shape) const;
  Result<Shape> tileShape(const Shape& shape, int64_t device) const;
  // XLA's EachTile(dims, f): for each data tile (row-major) and each of its
  // replicationFactor() devices, calls f(device, offset, limit). Errors as
  // upstream: "Shape rank is not same as tile rank: %d vs %d",
  // "Out of range device id in device_assignment: %d; valid range: [0, %d)".
  Status eachTile(std::span<const int64_t> dims,
                  const std::function<void(int64_t, std::span<const int64_t>,
                                           std::span<const int64_t>)>& f) const;

  // --- text ----------------------------------------------------------------
  // XLA's ToString / Print, byte for byte.
  std::string toString(bool includeMetadata = false) const;
  void print(std::string& out, bool includeMetadata = false) const;

  friend bool operator==(const HloSharding& a, const HloSharding& b);

 private:
  HloSharding(Kind kind, std::vector<OpMetadata> metadata);
  static HloSharding tiled(TileAssignment tiles, bool replicateOnLastTileDim,
                           std::vector<OpShardingType> types, std::vector<OpMetadata> metadata);
  Status validateNonTuple(const Shape& shape, std::optional<int64_t> numDevices) const;
  Status validateNamed(const Shape& shape, std::optional<int64_t> numDevices) const;

  Kind kind_ = Kind::kReplicated;
  bool replicateOnLastTileDim_ = false;
  TileAssignment tileAssignment_;
  std::vector<OpShardingType> subgroupTypes_;
  std::vector<OpMetadata> metadata_;
  std::vector<HloSharding> tupleElements_;
  ShardGroup shardGroup_;
  // Set for kNamed only; shared because NamedSharding is immutable.
  std::shared_ptr<const NamedSharding> named_;
};

// The leaves of `sharding`: a tuple's elements in order, or `sharding`
// itself. The pointers refer into `sharding`.
std::vector<const HloSharding*> leavesOf(const HloSharding& sharding);

// Name printed for a subgroup type inside last_tile_dims={...}: "manual",
// "maximal", "replicated", "unreduced", else "error_type." (as upstream).
const char* subgroupTypeName(OpShardingType type);

}  // namespace shardbridge::hlo
