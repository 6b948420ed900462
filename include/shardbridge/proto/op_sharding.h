// xla.OpSharding in its three encodings, without the generated protobuf types.
//
// Binary (the wire format), text format (`type: OTHER\ntile_assignment_...`)
// and JSON (proto3's canonical mapping: lowerCamelCase names, int64 as
// strings, enums by name) all come from protobuf itself; this header turns
// them into an hlo::HloSharding and back through XLA's FromProto / ToProto
// (shardbridge/proto/pb/convert.h, which exposes `shardbridge::wire::OpSharding`; internal, not installed).
//
//   auto s = parseOpSharding("type: MAXIMAL tile_assignment_devices: 7",
//                            ProtoFormat::kText).value();
//   s.toString()                                -> "{maximal device=7}"
//   printOpSharding(s, ProtoFormat::kText)      -> "type: MAXIMAL\ntile_assignment_devices: 7\n"
//   printOpSharding(s, ProtoFormat::kBinary)    -> "\x08\x01\x22\x01\x07"
//   printOpSharding(s, ProtoFormat::kJson)      -> "{\"type\":\"MAXIMAL\",\"tileAssignmentDevices\":[\"7\"]}"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::proto {

enum class ProtoFormat : uint8_t { kBinary, kText, kJson };

// "pb", "pbtxt", "json".
const char* protoFormatName(ProtoFormat format);

struct ProtoParseOptions {
  // Larger inputs are refused before parsing (bounded memory).
  size_t maxInputBytes = size_t{64} << 20;
  // Deepest nesting of TUPLE inside TUPLE fromProto accepts (the top level
  // is depth 0). XLA has no limit; the model keeps tuples flat, so deeper
  // nesting carries nothing and is refused. Protobuf's own parsers stop at
  // 100 nested messages whatever this says.
  size_t maxTupleDepth = 64;
  // Most tuple elements (tuple_shardings entries, counted over every level
  // of nesting) an input may hold: bounded memory, as each element costs a
  // message and a leaf. The same bound as HLO text's (hlo/text.h). Binary
  // input is counted on the wire before protobuf builds any message, text
  // and JSON input bounded by the messages they open (four per element);
  // fromProto counts the elements exactly.
  size_t maxTupleLeaves = size_t{1} << 16;
};

// Parses `data` as an OpSharding in `format`, then runs fromProto.
// Errors: kParse for malformed data (text format errors carry the byte
// offset of the offending token; binary and JSON errors have none), else
// fromProto's errors (kInvalid, kUnsupported for named_sharding).
//   parseOpSharding("type: MAXIMAL", ProtoFormat::kText) -> error "Maximal
//     sharding is expected to have single device assignment, but 0 has provided."
//   parseOpSharding("type: BOGUS", ProtoFormat::kText)   -> kParse at offset 6
Result<hlo::HloSharding> parseOpSharding(std::string_view data, ProtoFormat format,
                                         const ProtoParseOptions& options = {});

// toProto(sharding) in `format`: the serialized bytes (byte-identical to
// XLA's ToProto().SerializeAsString()), protobuf's multi-line text format, or
// compact one-line JSON. Fails for a V3 leaf (kUnsupported, not written
// yet) and for JSON of a string field that is not valid UTF-8 (protobuf
// refuses to print it).
Result<std::string> printOpSharding(const hlo::HloSharding& sharding, ProtoFormat format);

}  // namespace shardbridge::proto
