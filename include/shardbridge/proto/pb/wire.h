// xla.OpSharding messages (shardbridge::wire::OpSharding, our package for
// XLA's message) <-> binary, text format and JSON, via protobuf. Internal:
// include/shardbridge/proto/pb/ is not installed.
//
// Thin, error-returning wrappers over MessageLite::ParseFromArray,
// TextFormat::Parser and util::JsonStringToMessage (protobuf 3.21): nothing
// here knows HloSharding (see convert.h for that).
//
//   auto p = parseOpShardingText("type: OTHER\ntile_assignment_dimensions: [2, 2]").value();
//   serializeOpSharding(p)  -> "\x08\x03\x1a\x02\x02\x02"
//   printOpShardingText(p)  -> "type: OTHER\ntile_assignment_dimensions: 2\n"
//                              "tile_assignment_dimensions: 2\n"
#pragma once

#include <string>
#include <string_view>

#include "op_sharding.pb.h"
#include "shardbridge/base/result.h"
#include "shardbridge/proto/op_sharding.h"

namespace shardbridge::proto {

// Parses the wire format. Unknown fields (e.g. tile_shape's layout, fields
// XLA adds later) are kept and written back by serializeOpSharding.
// Rejects (kParse, no offset): inputs over options.maxInputBytes, malformed
// wire data, string fields that are not UTF-8 (proto3), messages nested
// deeper than 100.
Result<wire::OpSharding> parseOpShardingBinary(std::string_view bytes,
                                              const ProtoParseOptions& options = {});
// The wire format: known fields by field number, then unknown fields.
std::string serializeOpSharding(const wire::OpSharding& proto);

// Parses the text format. Rejects (kParse) with protobuf's message and the
// byte offset of the position it reports (its line/column, tabs counted to
// the next multiple of 8 as protobuf's tokenizer does, mapped back to
// bytes), e.g. `Message type "xla.OpSharding" has no field named "foo".`
// (type names are spelled `xla.` as XLA's parser spells them, not with our
// package `shardbridge.wire.`);
// also inputs over options.maxInputBytes and nesting deeper than 100.
Result<wire::OpSharding> parseOpShardingText(std::string_view text,
                                            const ProtoParseOptions& options = {});
// Protobuf's default text format: one field per line, nested messages
// indented by two spaces, a trailing newline ("" for the empty message).
std::string printOpShardingText(const wire::OpSharding& proto);

// Parses proto3 JSON (either field-name spelling; unknown names rejected).
// Errors are kParse with protobuf's message and no offset.
Result<wire::OpSharding> parseOpShardingJson(std::string_view json,
                                            const ProtoParseOptions& options = {});
// Compact canonical JSON ("{}" for the empty message).
Result<std::string> printOpShardingJson(const wire::OpSharding& proto);

}  // namespace shardbridge::proto
