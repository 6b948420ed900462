// HloSharding <-> xla.OpSharding: XLA's HloSharding::FromProto / ToProto.
//
// Internal (include/shardbridge/proto/pb/ is not installed): this header
// exposes the generated protobuf types (`op_sharding.pb.h`, namespace
// shardbridge::wire). Code that only wants bytes, text format or JSON uses
// shardbridge/proto/op_sharding.h, which keeps them out of sight.
//
//   wire::OpSharding p;
//   p.set_type(wire::OpSharding::OTHER);
//   p.add_tile_assignment_dimensions(2);
//   p.add_tile_assignment_dimensions(2);
//   p.add_iota_reshape_dims(4);
//   p.add_iota_transpose_perm(0);
//   fromProto(p)->toString()          -> "{devices=[2,2]<=[4]}"
//   *toProto(*fromProto(p)) == p        (field for field)
#pragma once

#include <cstddef>

#include <google/protobuf/arena.h>

#include "op_sharding.pb.h"
#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/op_metadata.h"
#include "shardbridge/proto/op_sharding.h"

namespace shardbridge::proto {

// XLA's HloSharding::FromProto. Follows XLA's check ladder in XLA's order
// (docs/upstream.md § FromProto) and returns the same sharding XLA builds, or an Error:
//   * field 14 (named_sharding) present -> the V3 leaf namedShardingFromProto
//     builds (named_sharding_proto.h), or its error; nothing else is read;
//   * XLA's RET_CHECKs -> kInvalid with XLA's message where it has one
//     ("Tuple sharding is expected to have no metadata.", "Maximal sharding
//     is expected to have single device assignment, but 0 has provided."),
//     else "RET_CHECK failure: <XLA's condition>", e.g.
//     "RET_CHECK failure: proto.type() == OpSharding::OTHER";
//   * where XLA would abort, overflow or read out of bounds, kInvalid with a
//     message of ours: dims < 1, an overflowing dims product, more than
//     hlo::kMaxDevices devices, a perm that is not a permutation, tuples
//     nested deeper than options.maxTupleDepth, more tuple elements than
//     options.maxTupleLeaves over every level (maxInputBytes is not used).
// A proto describing one device (iota reshape all 1s, or one device id) is
// {replicated}, as in XLA, even without tile_assignment_dimensions.
// Nested TUPLEs are flattened (the model's tuples are flat leaf lists; XLA
// would keep the nesting, which its own text parser cannot read back).
Result<hlo::HloSharding> fromProto(const wire::OpSharding& proto,
                                   const ProtoParseOptions& options = {});

// The kInvalid error for more than `limit` tuple elements:
// "a tuple has more than 65536 elements (counted over every level of nesting)".
Error tooManyTupleElements(size_t limit);

// XLA's HloSharding::ToProto (docs/upstream.md § ToProto): sets exactly the fields XLA sets,
// so the serialized bytes equal XLA's. An iota stays compact (canonical
// iota_reshape_dims / iota_transpose_perm), an explicit array is written to
// tile_assignment_devices, MAXIMAL carries its device and no dims, subgroup
// types keep their stored order, and a tuple's own shard group is dropped.
// A V3 (Kind::kNamed) leaf sets only named_sharding (namedShardingToProto).
// Fails only when such a leaf's device order is too large to materialise
// into device_ids; that is why this returns a Result where XLA's cannot fail.
//   toProto(maximal device=7)  -> type: MAXIMAL tile_assignment_devices: 7
Result<wire::OpSharding> toProto(const hlo::HloSharding& sharding);
// The same into `*out`, which is cleared first; reusing one message across
// calls keeps its capacity, so repeated conversions do not allocate.
Status toProto(const hlo::HloSharding& sharding, wire::OpSharding* out);
// The same into a new message made on `arena` (Arena::CreateMessage), for
// callers who want a fresh message per call without the heap: with the
// arena on a caller's buffer (ArenaOptions::initial_block) big enough for
// the message and its repeated fields (a few hundred bytes for a leaf;
// docs/performance.md, seventh pass), making, filling and dropping the
// message allocate and free nothing. The message's bytes are toProto's.
// A caller converting many shardings can keep one arena and Reset() it
// every few calls, which pays the arena's set-up once per batch: the
// fastest way to a new message per call (docs/performance.md, eighth pass).
//   * `arena` set: the arena owns the message (never `delete` it); it lives
//     until the arena is destroyed or Reset(). A failed call's message stays
//     on the arena too, unreachable, until then.
//   * `arena` null: the message is on the heap, as CreateMessage(nullptr)
//     makes it, and the caller owns it (`delete` it); a failed call frees it.
// Fails exactly where, and with the error that, toProto fails (a V3 leaf's
// device order too large to materialise, alone or in a tuple). Not named
// toProto: toProto(s, nullptr) would be ambiguous with the overload above.
//   google::protobuf::Arena arena(buffer, sizeof buffer);
//   SB_ASSIGN_OR_RETURN(wire::OpSharding* p, toProtoOnArena(s, &arena));
Result<wire::OpSharding*> toProtoOnArena(const hlo::HloSharding& sharding,
                                         google::protobuf::Arena* arena);

// xla.OpMetadata <-> hlo::OpMetadata, every field. Fields the model cannot
// hold (unknown ones, and a present-but-empty profile_info or
// metadata_payload) travel in OpMetadata::unknownFields, so
// metadataToProto(metadataFromProto(m)) serializes to m's bytes.
hlo::OpMetadata metadataFromProto(const wire::OpMetadata& proto);
wire::OpMetadata metadataToProto(const hlo::OpMetadata& metadata);

}  // namespace shardbridge::proto
