// XLA's HloSharding::FromProto / ToProto over the hlo model.
//
// The ladder in fromProto follows docs/upstream.md § FromProto (XLA's
// xla/hlo/ir/hlo_sharding.cc of 2026-07). An older XLA binary tested
// replicate_on_last_tile_dim before last_tile_dims, let MAXIMAL
// share OTHER's tail and had no UNREDUCED; where the two differ this
// file follows the newer XLA: MAXIMAL has its own RET_CHECK, last_tile_dims wins
// over (and must not be combined with) replicate_on_last_tile_dim, and
// UNREDUCED is a plain kind.
#include "shardbridge/proto/pb/convert.h"
#include "shardbridge/proto/pb/named_sharding_proto.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/base/checked_math.h"
#include "shardbridge/hlo/tile_assignment.h"
#include "proto/reduction_entry.h"

namespace shardbridge::proto {
namespace {

using hlo::HloSharding;
using hlo::OpShardingType;

// toProto into a freshly constructed (empty) message.
Status fillProto(const HloSharding& sharding, wire::OpSharding* out);
// The same for a sharding for which cannotFail holds.
void fillLeaf(const HloSharding& sharding, wire::OpSharding& result);

// Only a V3 leaf (alone or in a tuple) can make toProto fail: every other
// leaf is converted without a Status.
bool cannotFail(const HloSharding& sharding) {
  return sharding.kind() != HloSharding::Kind::kTuple &&
         sharding.kind() != HloSharding::Kind::kNamed;
}

// XLA reports a failed RET_CHECK as "RET_CHECK failure (file:line) COND";
// we owe the condition text (users grep for it), not XLA's file and line.
Error retCheckFailure(const char* condition) {
  return makeError(ErrorCode::kInvalid, std::string("RET_CHECK failure: ") + condition);
}


// XLA's SetShardGroupFromProto: no group unless is_shard_group; AS means
// shard_as, every other value (LIKE or an unknown enum number) shard_like.
hlo::ShardGroup shardGroupFromProto(const wire::OpSharding& proto) {
  if (!proto.is_shard_group()) return hlo::ShardGroup::none();
  if (proto.shard_group_type() == wire::OpSharding::AS) {
    return hlo::ShardGroup::as(proto.shard_group_id());
  }
  return hlo::ShardGroup::like(proto.shard_group_id());
}

Result<HloSharding> fromProtoAt(const wire::OpSharding& proto, const ProtoParseOptions& options,
                                size_t depth);

// The plain iota `{devices=[d0,d1,...]<=[n]}`, n > 1, with nothing else
// set: the form runtimes pass most. For it the ladder below (steps 6-11)
// only checks what this does, so plainIotaFromProto skips the metadata and
// subgroup bookkeeping. Anything else, a rule broken included, goes down the
// ladder, which gives the exact error. No tuple elements either, so that
// fromProto can test this before its bound on them.
bool isPlainIota(const wire::OpSharding& proto) {
  if (proto.type() != wire::OpSharding::OTHER || proto.iota_reshape_dims_size() != 1 ||
      proto.tuple_shardings_size() != 0 ||
      proto.iota_transpose_perm_size() != 1 || proto.iota_transpose_perm(0) != 0 ||
      proto.metadata_size() != 0 || proto.last_tile_dims_size() != 0 ||
      proto.replicate_on_last_tile_dim() || proto.tile_assignment_devices_size() != 0 ||
      proto.has_named_sharding() || proto.is_shard_group() ||
      proto.tile_assignment_dimensions_size() == 0) {
    return false;
  }
  // n == 1 is step 8's {replicated}; dims must be positive with product n,
  // which then bounds each dim by n <= hlo::kMaxDevices.
  const int64_t n = proto.iota_reshape_dims(0);
  if (n <= 1 || n > hlo::kMaxDevices) return false;
  int64_t product = 1;
  for (int64_t d : proto.tile_assignment_dimensions()) {
    if (d <= 0 || d > n) return false;
    product *= d;  // <= n * n <= 2^62: no overflow
    if (product > n) return false;
  }
  return product == n;
}

// HloSharding::iotaTile checks the dims again (it accepts what isPlainIota
// accepts) and builds the sharding in the caller's Result.
Result<HloSharding> plainIotaFromProto(const wire::OpSharding& proto) {
  const std::span<const int64_t> dims(proto.tile_assignment_dimensions().data(),
                                      static_cast<size_t>(proto.tile_assignment_dimensions_size()));
  return HloSharding::iotaTile(dims);
}

// Any other iota (`{devices=[...]<=[...]T(...)}`, with or without
// replicate_on_last_tile_dim) with no metadata, subgroup types or device
// list, and a reshape that is not all ones (step 8's {replicated}). For it,
// steps 7, 9 and 10 accept exactly what TileAssignment::iota accepts, so
// simpleIotaFromProto calls that first; when it refuses, the ladder runs
// for its exact error.
bool isSimpleIota(const wire::OpSharding& proto) {
  if (proto.type() != wire::OpSharding::OTHER || proto.iota_reshape_dims_size() == 0 ||
      proto.metadata_size() != 0 || proto.last_tile_dims_size() != 0 ||
      proto.tile_assignment_devices_size() != 0 || proto.tile_assignment_dimensions_size() == 0) {
    return false;
  }
  for (int64_t d : proto.iota_reshape_dims()) {
    if (d != 1) return true;
  }
  return false;
}

// `{replicated}` without metadata, the default HloSharding, built in its
// Result: HloSharding::replicate returns a sharding that the Result would
// then move in and destroy, a third of this row's cost (docs/performance.md,
// fifth pass).
Result<HloSharding> plainReplicated() {
  Result<HloSharding> result(std::in_place);
  return result;
}

// fromProtoAt without step 13 (the shard group). Every return is a prvalue,
// so the sharding is built in the caller's Result (no moves on the way out).
Result<HloSharding> ungroupedFromProto(const wire::OpSharding& proto,
                                       const ProtoParseOptions& options, size_t depth) {
  // 1. V3: XLA looks at nothing else when named_sharding is present.
  if (proto.has_named_sharding()) return namedShardingFromProto(proto.named_sharding());
  // Steps 2-12 for the iotas with nothing beside them but the replication
  // flag, before any of their bookkeeping is built. (fromProto has already
  // taken the plain iota at the top level; a tuple's plain elements come
  // here.)
  if (isSimpleIota(proto)) {
    const std::span<const int64_t> dims(
        proto.tile_assignment_dimensions().data(),
        static_cast<size_t>(proto.tile_assignment_dimensions_size()));
    const std::span<const int64_t> reshape(proto.iota_reshape_dims().data(),
                                           static_cast<size_t>(proto.iota_reshape_dims_size()));
    const std::span<const int> perm(proto.iota_transpose_perm().data(),
                                    static_cast<size_t>(proto.iota_transpose_perm_size()));
    Result<hlo::TileAssignment> tiles = hlo::TileAssignment::iota(dims, reshape, perm);
    if (tiles) {
      // Step 12 without subgroups.
      if (proto.replicate_on_last_tile_dim()) return HloSharding::partialTile(*tiles, {});
      return HloSharding::tile(std::move(*tiles));
    }
  }

  // 2. Metadata and subgroup types are collected first, as upstream.
  // Reduction entries (`op_type: "sdy::reduction_op"`) are taken out, as
  // XLA's FromProto takes them out into its reduction op: the last MAX or
  // MIN among them wins, any other name leaves the op as it was, SUM at the
  // start. What ToProto would write back is then kept: one entry
  // {op_type, op_name} after the others when the op is MAX or MIN, nothing
  // for SUM (toProto adds that entry to unreduced leaves). So toProto after
  // fromProto gives XLA's ToProto after FromProto byte for byte: entries
  // moved to the end, merged into one, stripped of other fields, a SUM entry
  // on a sharding that is not unreduced dropped.
  std::vector<hlo::OpMetadata> metadata;
  const char* reductionName = nullptr;  // "MAX" or "MIN"; null: SUM or no entry
  if (proto.metadata_size() > 0) {
    metadata.reserve(static_cast<size_t>(proto.metadata_size()));
    for (const wire::OpMetadata& md : proto.metadata()) {
      if (md.op_type() == kReductionOpType) {
        if (md.op_name() == "MAX") reductionName = "MAX";
        if (md.op_name() == "MIN") reductionName = "MIN";
        continue;
      }
      metadata.push_back(metadataFromProto(md));
    }
  }
  // Subgroup types: on the stack for the usual few, no allocation.
  OpShardingType typesInline[8];
  std::vector<OpShardingType> typesHeap;
  const size_t numTypes = static_cast<size_t>(proto.last_tile_dims_size());
  OpShardingType* types = typesInline;
  if (numTypes > std::size(typesInline)) {
    typesHeap.resize(numTypes);
    types = typesHeap.data();
  }
  for (size_t i = 0; i < numTypes; ++i) {
    types[i] = static_cast<OpShardingType>(proto.last_tile_dims(static_cast<int>(i)));
  }
  const std::span<const OpShardingType> subgroupTypes(types, numTypes);

  // 3. Tuples.
  if (proto.type() == wire::OpSharding::TUPLE) {
    if (!metadata.empty()) return invalidError("Tuple sharding is expected to have no metadata.");
    if (depth >= options.maxTupleDepth) {
      return invalidError("tuple shardings nested deeper than " +
                     std::to_string(options.maxTupleDepth) + " levels");
    }
    std::vector<HloSharding> elements;
    elements.reserve(static_cast<size_t>(proto.tuple_shardings_size()));
    for (const wire::OpSharding& element : proto.tuple_shardings()) {
      SB_ASSIGN_OR_RETURN(HloSharding leaf, fromProtoAt(element, options, depth + 1));
      elements.push_back(std::move(leaf));
    }
    return HloSharding::tuple(std::move(elements));
  }

  // XLA's tuple check sees the metadata without its reduction entries, and
  // a tuple's ToProto writes no reduction op; a leaf keeps a MAX or MIN.
  if (reductionName != nullptr) {
    hlo::OpMetadata entry;
    entry.opType = kReductionOpType;
    entry.opName = reductionName;
    metadata.push_back(std::move(entry));
  }

  // 4. Kinds without a tile assignment: every tile field is ignored.
  switch (proto.type()) {
    case wire::OpSharding::REPLICATED:
      if (metadata.empty()) return plainReplicated();
      return HloSharding::replicate(std::move(metadata));
    case wire::OpSharding::MANUAL:
      return HloSharding::manual(std::move(metadata));
    case wire::OpSharding::UNREDUCED:
      return HloSharding::unreduced(std::move(metadata));
    case wire::OpSharding::UNKNOWN:
      return HloSharding::unknown(std::move(metadata));
    default:
      break;
  }

  // 5. One device; tile_assignment_dimensions is ignored.
  if (proto.type() == wire::OpSharding::MAXIMAL) {
    if (proto.tile_assignment_devices_size() != 1) {
      return invalidError("Maximal sharding is expected to have single device assignment, but " +
                     std::to_string(proto.tile_assignment_devices_size()) + " has provided.");
    }
    return HloSharding::singleDevice(proto.tile_assignment_devices(0), std::move(metadata));
  }

  // 6. Anything else must be OTHER (proto3 enums are open: an unknown type
  // number reaches this point).
  if (proto.type() != wire::OpSharding::OTHER) {
    return retCheckFailure("proto.type() == OpSharding::OTHER");
  }

  // 7. Iota or explicit list.
  const bool useIota = !proto.iota_reshape_dims().empty();
  if (useIota) {
    if (!proto.tile_assignment_devices().empty()) {
      return retCheckFailure("proto.tile_assignment_devices().empty()");
    }
    if (proto.iota_reshape_dims_size() != proto.iota_transpose_perm_size()) {
      return retCheckFailure(
          "proto.iota_reshape_dims().size() == proto.iota_transpose_perm().size()");
    }
  } else if (proto.tile_assignment_devices().empty()) {
    return retCheckFailure("!proto.tile_assignment_devices().empty()");
  }

  // 8. One device -> replicated, before any dims check (so a proto without
  // dims is accepted here, as upstream).
  if (useIota) {
    bool allOnes = true;
    for (int64_t d : proto.iota_reshape_dims()) allOnes = allOnes && d == 1;
    if (allOnes) return HloSharding::replicate(std::move(metadata));
  } else if (proto.tile_assignment_devices_size() == 1) {
    return HloSharding::replicate(std::move(metadata));
  }

  // 9. Dimensions. The positivity check follows docs/upstream.md § FromProto, step 9; the
  // message is ours, as we could not read XLA's wording for it.
  if (proto.tile_assignment_dimensions().empty()) {
    return retCheckFailure("!proto.tile_assignment_dimensions().empty()");
  }
  for (int i = 0; i < proto.tile_assignment_dimensions_size(); ++i) {
    if (proto.tile_assignment_dimensions(i) <= 0) {
      return invalidError("tile_assignment_dimensions must be positive, but dimension " +
                     std::to_string(i) + " is " +
                     std::to_string(proto.tile_assignment_dimensions(i)));
    }
  }

  // 10. Products. XLA's overflow flag is never set, so an overflowing
  // product silently wraps there; here it is an error.
  const std::span<const int64_t> dims(proto.tile_assignment_dimensions().data(),
                                      static_cast<size_t>(proto.tile_assignment_dimensions_size()));
  std::optional<int64_t> numTiles = checkedProduct(dims);
  if (!numTiles) return invalidError("product of tile_assignment_dimensions overflows int64");
  if (useIota) {
    const std::span<const int64_t> reshape(proto.iota_reshape_dims().data(),
                                           static_cast<size_t>(proto.iota_reshape_dims_size()));
    std::optional<int64_t> reshapeProduct = checkedProduct(reshape);
    if (!reshapeProduct) return invalidError("product of iota_reshape_dims overflows int64");
    if (*numTiles != *reshapeProduct) {
      return retCheckFailure("product_of_dimensions == product_of_iota_dimensions");
    }
  } else if (*numTiles != proto.tile_assignment_devices_size()) {
    return retCheckFailure("product_of_dimensions == proto.tile_assignment_devices().size()");
  }

  // 11. The tile assignment. TileAssignment rejects what XLA would build
  // into garbage: non-positive reshape dims, a perm that is not a
  // permutation, more than hlo::kMaxDevices devices.
  auto makeTiles = [&]() -> Result<hlo::TileAssignment> {
    if (useIota) {
      const std::span<const int64_t> reshape(
          proto.iota_reshape_dims().data(), static_cast<size_t>(proto.iota_reshape_dims_size()));
      const std::span<const int> perm(proto.iota_transpose_perm().data(),
                                      static_cast<size_t>(proto.iota_transpose_perm_size()));
      // The plain iota `<=[n]`, the most common form: step 10 matched its
      // product, and a one-entry perm of 0 is a permutation, so only the
      // dims are left to check (with the same first error).
      if (reshape.size() == 1 && perm[0] == 0) return hlo::TileAssignment::iota(dims);
      return hlo::TileAssignment::iota(dims, reshape, perm);
    }
    std::vector<int64_t> devices(proto.tile_assignment_devices().begin(),
                                 proto.tile_assignment_devices().end());
    return hlo::TileAssignment::fromDevices(dims, std::move(devices));
  };
  SB_ASSIGN_OR_RETURN(hlo::TileAssignment tiles, makeTiles());

  // 12. Subgroups, partial replication or a plain tile (no normalisation).
  if (!subgroupTypes.empty()) {
    if (proto.replicate_on_last_tile_dim()) {
      return retCheckFailure("!proto.replicate_on_last_tile_dim()");
    }
    return HloSharding::subgroup(tiles, subgroupTypes, std::move(metadata));
  }
  if (proto.replicate_on_last_tile_dim()) {
    return HloSharding::partialTile(tiles, std::move(metadata));
  }
  return HloSharding::tile(std::move(tiles), std::move(metadata));
}

// 13. The shard group, on every path but V3 (XLA's FromProto returns the
// named sharding before it reads the group). Applied in place: most
// shardings have none, and then nothing is moved; the one named return lets
// the compiler build the Result in the caller's slot.
Result<HloSharding> fromProtoAt(const wire::OpSharding& proto, const ProtoParseOptions& options,
                                size_t depth) {
  const hlo::ShardGroup group = shardGroupFromProto(proto);
  Result<HloSharding> result = ungroupedFromProto(proto, options, depth);
  if (result && group.isShardGroup() && !proto.has_named_sharding()) {
    *result = std::move(*result).withShardGroup(group);
  }
  return result;
}

// The tuple_shardings entries of `proto` over every level, counting stops
// past `limit`. Protobuf's own parsers nest at most 100 messages deep, and
// fromProtoAt refuses deeper tuples than maxTupleDepth before this matters.
size_t countTupleElements(const wire::OpSharding& proto, size_t limit) {
  size_t count = static_cast<size_t>(proto.tuple_shardings_size());
  for (const wire::OpSharding& element : proto.tuple_shardings()) {
    if (count > limit) break;
    if (element.tuple_shardings_size() > 0) count += countTupleElements(element, limit - count);
  }
  return count;
}

}  // namespace

Error tooManyTupleElements(size_t limit) {
  return makeError(ErrorCode::kInvalid, "a tuple has more than " + std::to_string(limit) +
                                            " elements (counted over every level of nesting)");
}

Result<HloSharding> fromProto(const wire::OpSharding& proto, const ProtoParseOptions& options) {
  // The plain iota before anything else: no shard group, tuple elements or
  // V3 field to look at, and no call into the ladder's large frame
  // (docs/performance.md, fifth pass).
  if (isPlainIota(proto)) return plainIotaFromProto(proto);
  if (proto.tuple_shardings_size() > 0 &&
      countTupleElements(proto, options.maxTupleLeaves) > options.maxTupleLeaves) {
    return tooManyTupleElements(options.maxTupleLeaves);
  }
  return fromProtoAt(proto, options, 0);
}

// A tuple or V3 leaf into `result`, which holds a fresh message; on failure
// `result` becomes the error. Out of line: inlined, its Status and moves gave
// toProto a 0x1f8-byte frame and six register saves on every call,
// the leaves' included (docs/performance.md, sixth pass).
namespace {
[[gnu::noinline]] void fillFallible(const HloSharding& sharding, Result<wire::OpSharding>& result) {
  Status filled = fillProto(sharding, &*result);
  if (!filled) result = std::move(filled).error();
}
}  // namespace

Status toProto(const HloSharding& sharding, wire::OpSharding* out) {
  // Clear() keeps the repeated fields' capacity, so a reused message
  // converts without allocating.
  out->Clear();
  if (cannotFail(sharding)) {
    fillLeaf(sharding, *out);
    return okStatus();
  }
  return fillProto(sharding, out);
}

Result<wire::OpSharding> toProto(const HloSharding& sharding) {
  // Built in place and returned by name (one message, as XLA's ToProto):
  // a local moved into the Result would cost a second construction, a swap
  // and a destruction.
  Result<wire::OpSharding> result(std::in_place);
  if (cannotFail(sharding)) {
    // Every leaf but a V3 one: no Status is built or tested
    // (docs/performance.md, fourth pass).
    fillLeaf(sharding, *result);
    return result;
  }
  fillFallible(sharding, result);
  return result;
}

// A tuple or V3 leaf into `out`, a new message made by toProtoOnArena; on
// failure the heap's message is freed (the arena's stays on it). Out of
// line, as fillFallible is, so the leaves' path keeps a small frame.
namespace {
[[gnu::noinline]] Result<wire::OpSharding*> fillFallibleOnArena(const HloSharding& sharding,
                                                               wire::OpSharding* out,
                                                               google::protobuf::Arena* arena) {
  Status filled = fillProto(sharding, out);
  if (filled) return out;
  if (arena == nullptr) delete out;
  return std::move(filled).error();
}
}  // namespace

Result<wire::OpSharding*> toProtoOnArena(const HloSharding& sharding,
                                         google::protobuf::Arena* arena) {
  // CreateMessage on an arena runs no destructor later: generated messages
  // are destructor-skippable, and their repeated fields' storage is the
  // arena's too.
  wire::OpSharding* out = google::protobuf::Arena::CreateMessage<wire::OpSharding>(arena);
  if (cannotFail(sharding)) {
    fillLeaf(sharding, *out);
    return out;
  }
  return fillFallibleOnArena(sharding, out, arena);
}

namespace {

// GCC vectorises the copy loops below behind alias and length checks that
// cost more than the one to six entries a sharding's fields hold; these
// functions keep them scalar (no effect on what is written).
#if defined(__GNUC__) && !defined(__clang__)
#define SB_SCALAR_LOOPS __attribute__((optimize("no-tree-vectorize")))
#else
#define SB_SCALAR_LOOPS
#endif

// Appends `values`, converted to T, to `field`: one Reserve of exactly
// values.size() more (what XLA's ToProto reserves), then one store per
// entry. RepeatedField::Add(begin, end) does the same through a memmove
// call, which for so few entries costs more than the copy.
template <typename T, typename U>
SB_SCALAR_LOOPS void appendRepeated(google::protobuf::RepeatedField<T>* field,
                                    std::span<const U> values) {
  const int n = static_cast<int>(values.size());
  if (n == 0) return;
  field->Reserve(field->size() + n);
  T* out = field->AddNAlreadyReserved(n);
  for (const U& value : values) *out++ = static_cast<T>(value);
}

// The fields of a leaf after its metadata: the tile assignment, the type,
// replicate_on_last_tile_dim, last_tile_dims, the dims and the shard group.
SB_SCALAR_LOOPS void fillLeafFields(const HloSharding& sharding, wire::OpSharding& result) {
  const hlo::TileAssignment& tiles = sharding.tileAssignment();
  const auto& iota = tiles.iotaForm();
  if (iota) {
    // Stored canonical, so the triple written is XLA's canonical one.
    appendRepeated(result.mutable_iota_reshape_dims(), iota->reshapeDims());
    appendRepeated(result.mutable_iota_transpose_perm(), iota->transposePerm());
  } else {
    // Explicit arrays are always in memory, so this never fails; the
    // default array of replicated/manual/... shardings is empty and writes
    // nothing; a single device writes its one id.
    Result<std::span<const int64_t>> devices = tiles.devices();
    if (devices) appendRepeated(result.mutable_tile_assignment_devices(), *devices);
  }

  switch (sharding.kind()) {
    case HloSharding::Kind::kReplicated:
      result.set_type(wire::OpSharding::REPLICATED);
      break;
    case HloSharding::Kind::kSingleDevice:
      // Since XLA commit f999273595 (2025-08-13) MAXIMAL carries no
      // tile_assignment_dimensions; older XLA wrote `tile_assignment_dimensions: 1`.
      result.set_type(wire::OpSharding::MAXIMAL);
      break;
    case HloSharding::Kind::kManual:
      result.set_type(wire::OpSharding::MANUAL);
      break;
    case HloSharding::Kind::kUnreduced:
      result.set_type(wire::OpSharding::UNREDUCED);
      break;
    case HloSharding::Kind::kUnknown:
      result.set_type(wire::OpSharding::UNKNOWN);
      break;
    case HloSharding::Kind::kTiled:
    case HloSharding::Kind::kTuple:  // handled by fillProto
    case HloSharding::Kind::kNamed:  // handled by fillProto
      result.set_type(wire::OpSharding::OTHER);
      result.set_replicate_on_last_tile_dim(sharding.replicateOnLastTileDim());
      appendRepeated(result.mutable_last_tile_dims(),
                     std::span<const OpShardingType>(sharding.subgroupTypes()));
      // An iota carries its dims inline (TileAssignment::dimensions is a call).
      appendRepeated(result.mutable_tile_assignment_dimensions(),
                     iota ? iota->dims() : tiles.dimensions());
      break;
  }

  const hlo::ShardGroup& group = sharding.shardGroup();
  if (group.isShardGroup()) {
    result.set_is_shard_group(true);
    result.set_shard_group_id(group.id);
    result.set_shard_group_type(group.shardAs ? wire::OpSharding::AS : wire::OpSharding::LIKE);
  }
}

// The metadata entries of a leaf, then the reduction entry when `sumEntry`.
// Out of line, away from the usual leaf, which has neither.
[[gnu::noinline]] void fillMetadata(const std::vector<hlo::OpMetadata>& metadata, bool sumEntry,
                                    wire::OpSharding& result) {
  result.mutable_metadata()->Reserve(static_cast<int>(metadata.size()) + (sumEntry ? 1 : 0));
  for (const hlo::OpMetadata& md : metadata) *result.add_metadata() = metadataToProto(md);
  if (sumEntry) {
    // After the sharding's own entries, as XLA's ToProto adds it.
    wire::OpMetadata* entry = result.add_metadata();
    entry->set_op_type(std::string(kReductionOpType));
    entry->set_op_name("SUM");
  }
}

// A leaf other than a V3 one, into an empty message: its metadata, then the
// rest.
SB_SCALAR_LOOPS void fillLeaf(const HloSharding& sharding, wire::OpSharding& result) {
  const std::vector<hlo::OpMetadata>& metadata = sharding.metadata();
  const bool sumEntry = appendsSumReductionEntry(sharding, metadata);
  if (!metadata.empty() || sumEntry) [[unlikely]] {
    fillMetadata(metadata, sumEntry, result);
  }
  fillLeafFields(sharding, result);
}

Status fillProto(const HloSharding& sharding, wire::OpSharding* out) {
  wire::OpSharding& result = *out;
  if (sharding.isTuple()) {
    // The tuple's own shard group is not written (XLA's ToProto returns
    // before it looks at the group).
    result.mutable_tuple_shardings()->Reserve(
        static_cast<int>(sharding.tupleElements().size()));
    for (const HloSharding& element : sharding.tupleElements()) {
      SB_TRY(fillProto(element, result.add_tuple_shardings()));
    }
    result.set_type(wire::OpSharding::TUPLE);
    return okStatus();
  }

  // A V3 leaf: XLA writes only named_sharding (no type, no metadata beside it).
  if (sharding.kind() == HloSharding::Kind::kNamed) {
    SB_ASSIGN_OR_RETURN(*result.mutable_named_sharding(),
                        namedShardingToProto(*sharding.namedSharding()));
    return okStatus();
  }

  fillLeaf(sharding, result);
  return okStatus();
}

}  // namespace

}  // namespace shardbridge::proto
