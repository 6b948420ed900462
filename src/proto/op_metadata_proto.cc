// OpMetadata <-> xla.OpMetadata (convert.h): every field, unknown fields and
// present-but-empty submessages included, so that a message read and written
// back serializes to its own bytes.
#include "shardbridge/proto/pb/convert.h"

#include <cstdint>
#include <string>
#include <variant>

#include <google/protobuf/unknown_field_set.h>

namespace shardbridge::proto {
namespace {

// Protobuf keeps a present-but-empty submessage distinct from an absent one;
// the model's OpMetadata cannot (an empty profileInfoBytes / a monostate
// payload mean "absent"). Such a field is kept as its raw bytes among the
// unknown fields, which metadataToProto parses back into a present field.
constexpr char kEmptyProfileInfo[] = {'\x52', '\x00'};        // field 10, length 0
constexpr char kEmptyPayload[] = {'\xa2', '\x01', '\x00'};    // field 20, length 0

}  // namespace

hlo::OpMetadata metadataFromProto(const wire::OpMetadata& proto) {
  hlo::OpMetadata md;
  md.opType = proto.op_type();
  md.opName = proto.op_name();
  md.sourceFile = proto.source_file();
  md.sourceLine = proto.source_line();
  // profile_type is deprecated upstream but still part of the message and
  // still printed; its accessors carry [[deprecated]].
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  md.profileType.assign(proto.profile_type().begin(), proto.profile_type().end());
#pragma GCC diagnostic pop
  md.sizeOfGeneratedCodeInBytes = proto.size_of_generated_code_in_bytes();
  md.sizeOfMemoryWorkingSetInBytes = proto.size_of_memory_working_set_in_bytes();
  md.deduplicatedName = proto.deduplicated_name();
  md.stackFrameId = proto.stack_frame_id();
  md.schedulingName = proto.scheduling_name();
  md.sourceEndLine = proto.source_end_line();
  md.sourceColumn = proto.source_column();
  md.sourceEndColumn = proto.source_end_column();
  proto.GetReflection()->GetUnknownFields(proto).SerializeToString(&md.unknownFields);
  if (proto.has_profile_info()) {
    proto.profile_info().SerializeToString(&md.profileInfoBytes);
    if (md.profileInfoBytes.empty()) {
      md.unknownFields.append(kEmptyProfileInfo, sizeof(kEmptyProfileInfo));
    }
  }
  if (proto.has_metadata_payload()) {
    const wire::OpMetadata::Payload& payload = proto.metadata_payload();
    switch (payload.kind_case()) {
      case wire::OpMetadata::Payload::kValue:
        md.metadataPayload = payload.value();
        break;
      case wire::OpMetadata::Payload::kId:
        md.metadataPayload = payload.id();
        break;
      case wire::OpMetadata::Payload::KIND_NOT_SET: {
        // Present but empty, or holding only unknown fields: keep the whole
        // field as raw bytes.
        std::string inner;
        payload.SerializeToString(&inner);
        if (inner.empty()) {
          md.unknownFields.append(kEmptyPayload, sizeof(kEmptyPayload));
        } else {
          md.unknownFields.append("\xa2\x01", 2);
          // A length below 2^14 fits in two varint bytes; larger is written
          // in full.
          uint64_t n = inner.size();
          while (n >= 0x80) {
            md.unknownFields.push_back(static_cast<char>((n & 0x7f) | 0x80));
            n >>= 7;
          }
          md.unknownFields.push_back(static_cast<char>(n));
          md.unknownFields += inner;
        }
        break;
      }
    }
  }
  return md;
}

wire::OpMetadata metadataToProto(const hlo::OpMetadata& md) {
  wire::OpMetadata proto;
  // First the raw fields (unknown ones stay unknown; the empty-submessage
  // markers of metadataFromProto become present fields), then the known ones.
  if (!md.unknownFields.empty()) {
    // Bytes we wrote ourselves from a parsed message; should they be
    // corrupt (a hand-built OpMetadata), they are dropped rather than half
    // applied.
    if (!proto.MergeFromString(md.unknownFields)) proto.Clear();
  }
  proto.set_op_type(md.opType);
  proto.set_op_name(md.opName);
  proto.set_source_file(md.sourceFile);
  proto.set_source_line(md.sourceLine);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  // Added raw: proto3 enums are open, so unknown numbers are kept as read.
  for (int32_t t : md.profileType) proto.mutable_profile_type()->Add(t);
#pragma GCC diagnostic pop
  proto.set_size_of_generated_code_in_bytes(md.sizeOfGeneratedCodeInBytes);
  proto.set_size_of_memory_working_set_in_bytes(md.sizeOfMemoryWorkingSetInBytes);
  if (!md.profileInfoBytes.empty()) {
    if (!proto.mutable_profile_info()->ParseFromString(md.profileInfoBytes)) {
      proto.clear_profile_info();
    }
  }
  proto.set_deduplicated_name(md.deduplicatedName);
  proto.set_stack_frame_id(md.stackFrameId);
  proto.set_scheduling_name(md.schedulingName);
  proto.set_source_end_line(md.sourceEndLine);
  proto.set_source_column(md.sourceColumn);
  proto.set_source_end_column(md.sourceEndColumn);
  if (const auto* value = std::get_if<std::string>(&md.metadataPayload)) {
    proto.mutable_metadata_payload()->set_value(*value);
  } else if (const auto* id = std::get_if<int64_t>(&md.metadataPayload)) {
    proto.mutable_metadata_payload()->set_id(*id);
  }
  return proto;
}

}  // namespace shardbridge::proto
