// OpMetadata: the per-op source information that rides along on a sharding.
//
// The fields mirror xla.OpMetadata (xla_data.proto) one to one, so that the
// protobuf layer can fill and write every field; the sharding text carries
// only the ones XLA's OpMetadataToString prints (see printOpMetadata).
// Metadata never takes part in sharding equality.
//
//   OpMetadata md;
//   md.opName = "a/b";
//   md.sourceLine = 7;
//   printOpMetadata(md) -> "op_name=\"a/b\" source_line=7"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge::hlo {

// xla.ProfileType (OpMetadata.profile_type is deprecated but still printed).
enum class ProfileType : int32_t { kInvalid = 0, kWindow = 1, kFlag = 2, kInteger = 3 };

// Whether `value` is one of ProfileType's enumerators.
bool isValidProfileType(int64_t value);

struct OpMetadata {
  std::string opType;                      // 1
  std::string opName;                      // 2
  std::string sourceFile;                  // 3
  int32_t sourceLine = 0;                  // 4
  std::vector<int32_t> profileType;        // 5 (ProfileType values, as stored)
  int64_t sizeOfGeneratedCodeInBytes = 0;  // 8   (never printed)
  int64_t sizeOfMemoryWorkingSetInBytes = 0;  // 9 (never printed)
  // 10: OpMetadata.ProfileInfo, kept as its serialized bytes (empty when
  // absent) so the protobuf layer can round-trip it without this model
  // knowing its fields; never printed.
  std::string profileInfoBytes;
  std::string deduplicatedName;  // 12
  int32_t stackFrameId = 0;      // 15
  std::string schedulingName;    // 16
  int32_t sourceEndLine = 0;     // 17
  int32_t sourceColumn = 0;      // 18
  int32_t sourceEndColumn = 0;   // 19
  // 20: the `Payload` oneof: nothing, `bytes value = 1` or `int64 id = 2`.
  std::variant<std::monostate, std::string, int64_t> metadataPayload;
  // Serialized fields this model does not know (future upstream fields),
  // for the protobuf layer to write back unchanged; never printed.
  std::string unknownFields;

  friend bool operator==(const OpMetadata&, const OpMetadata&) = default;
};

// absl::CEscape: `\n \r \t \" \' \\` as two-character escapes, every other
// byte outside 0x20..0x7e as a three-digit octal escape.
//   cEscape("a\"b\n\xff") -> "a\\\"b\\n\\377"
std::string cEscape(std::string_view text);

// XLA's OpMetadataToString: the non-default fields in XLA's fixed order
// (op_type, op_name, source_file, source_line, source_end_line,
// source_column, source_end_column, profile_type, deduplicated_name,
// scheduling_name, stack_frame_id, metadata_payload), joined by one space.
// Strings are C-escaped, except scheduling_name which is written raw (as
// upstream). A payload id (rather than bytes) is not printed.
std::string printOpMetadata(const OpMetadata& metadata);
void printOpMetadata(const OpMetadata& metadata, std::string& out);

// OpMetadata's strings are proto3 `string`s, which must be UTF-8: otherwise
// neither XLA nor protobuf reads the serialized proto back. Returns kInvalid
// "metadata op_name is not valid UTF-8 (byte \xff)" for the first string
// field (op_type, op_name, source_file, deduplicated_name, scheduling_name)
// that is not; the bytes payload may hold anything.
Status checkOpMetadataUtf8(const OpMetadata& metadata);

}  // namespace shardbridge::hlo
