// OpMetadata printing, byte-identical to XLA's OpMetadataToString.
#include "shardbridge/hlo/op_metadata.h"

#include "shardbridge/base/input.h"

namespace shardbridge::hlo {

bool isValidProfileType(int64_t value) { return value >= 0 && value <= 3; }

std::string cEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          out += '\\';
          out += static_cast<char>('0' + ((c >> 6) & 7));
          out += static_cast<char>('0' + ((c >> 3) & 7));
          out += static_cast<char>('0' + (c & 7));
        } else {
          out += ch;
        }
    }
  }
  return out;
}

void printOpMetadata(const OpMetadata& md, std::string& out) {
  bool first = true;
  // Each part is preceded by a space except the first.
  auto sep = [&] {
    if (!first) out += ' ';
    first = false;
  };
  auto quoted = [&](const char* key, const std::string& value, bool escape) {
    if (value.empty()) return;
    sep();
    out += key;
    out += "=\"";
    out += escape ? cEscape(value) : value;
    out += '"';
  };
  auto number = [&](const char* key, int64_t value) {
    if (value == 0) return;
    sep();
    out += key;
    out += '=';
    out += std::to_string(value);
  };
  quoted("op_type", md.opType, true);
  quoted("op_name", md.opName, true);
  quoted("source_file", md.sourceFile, true);
  number("source_line", md.sourceLine);
  number("source_end_line", md.sourceEndLine);
  number("source_column", md.sourceColumn);
  number("source_end_column", md.sourceEndColumn);
  if (!md.profileType.empty()) {
    sep();
    out += "profile_type={";
    for (size_t i = 0; i < md.profileType.size(); ++i) {
      if (i) out += ',';
      out += std::to_string(md.profileType[i]);
    }
    out += '}';
  }
  quoted("deduplicated_name", md.deduplicatedName, true);
  // Upstream writes scheduling_name without escaping.
  quoted("scheduling_name", md.schedulingName, false);
  number("stack_frame_id", md.stackFrameId);
  if (const auto* bytes = std::get_if<std::string>(&md.metadataPayload)) {
    quoted("metadata_payload", *bytes, true);
  }
}

std::string printOpMetadata(const OpMetadata& metadata) {
  std::string out;
  printOpMetadata(metadata, out);
  return out;
}

Status checkOpMetadataUtf8(const OpMetadata& metadata) {
  const std::pair<const char*, const std::string*> fields[] = {
      {"op_type", &metadata.opType},
      {"op_name", &metadata.opName},
      {"source_file", &metadata.sourceFile},
      {"deduplicated_name", &metadata.deduplicatedName},
      {"scheduling_name", &metadata.schedulingName},
  };
  for (const auto& [name, value] : fields) {
    size_t bad = firstInvalidUtf8(*value);
    if (bad == std::string_view::npos) continue;
    return makeError(ErrorCode::kInvalid, std::string("metadata ") + name +
                                              " is not valid UTF-8 (byte " +
                                              escapeBytes(value->substr(bad, 1)) + ")");
  }
  return okStatus();
}

}  // namespace shardbridge::hlo
