// Format detection for the CLI's INPUT argument.
#include "shardbridge/proto/sharding_input.h"

#include <cstdint>

#include "shardbridge/hlo/text.h"

namespace shardbridge::proto {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Position of the first byte that is neither blank nor inside a comment.
size_t firstSignificant(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (isBlank(s[i])) {
      ++i;
    } else if (s[i] == '#' || s.substr(i, 2) == "//") {
      size_t nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl + 1;
    } else if (s.substr(i, 2) == "/*") {
      size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      break;
    }
  }
  return i;
}

// Valid UTF-8 (no overlongs, surrogates or code points past U+10FFFF) and no
// control bytes other than tab, LF and CR.
bool looksLikeText(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
      if (c == 0x7f) return false;
      ++i;
      continue;
    }
    size_t len = 0;
    uint32_t cp = 0;
    if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<uint8_t>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    i += len;
  }
  return true;
}

Result<hlo::HloSharding> parseAs(std::string_view data, ShardingFormat format,
                                 const ProtoParseOptions& options) {
  switch (format) {
    case ShardingFormat::kHloText: {
      hlo::ShardingParseOptions textOptions;
      textOptions.maxInputBytes = options.maxInputBytes;
      return hlo::parseSharding(data, textOptions);
    }
    case ShardingFormat::kProtoText: return parseOpSharding(data, ProtoFormat::kText, options);
    case ShardingFormat::kProtoBinary: return parseOpSharding(data, ProtoFormat::kBinary, options);
    case ShardingFormat::kProtoJson: return parseOpSharding(data, ProtoFormat::kJson, options);
  }
  return makeError(ErrorCode::kInternal, "unknown sharding format");
}

}  // namespace

const char* shardingFormatName(ShardingFormat format) {
  switch (format) {
    case ShardingFormat::kHloText: return "text";
    case ShardingFormat::kProtoText: return "pbtxt";
    case ShardingFormat::kProtoBinary: return "pb";
    case ShardingFormat::kProtoJson: return "json";
  }
  return "?";
}

ShardingFormat detectShardingFormat(std::string_view data) {
  if (!looksLikeText(data)) return ShardingFormat::kProtoBinary;
  size_t i = firstSignificant(data);
  if (i < data.size() && data[i] == '{') {
    size_t j = i + 1;
    while (j < data.size() && isBlank(data[j])) ++j;
    if (j < data.size() && data[j] == '"') return ShardingFormat::kProtoJson;
    return ShardingFormat::kHloText;
  }
  return ShardingFormat::kProtoText;
}

Result<ReadSharding> readSharding(std::string_view data, std::optional<ShardingFormat> format,
                                  const ProtoParseOptions& options) {
  const ShardingFormat chosen = format ? *format : detectShardingFormat(data);
  Result<hlo::HloSharding> parsed = parseAs(data, chosen, options);
  if (parsed) return ReadSharding{std::move(*parsed), chosen};
  if (!format && chosen == ShardingFormat::kProtoText &&
      parsed.error().code == ErrorCode::kParse) {
    Result<hlo::HloSharding> binary = parseAs(data, ShardingFormat::kProtoBinary, options);
    // Only a complete success counts: short ASCII strings sometimes happen
    // to be well-formed wire data, and a fromProto error about such an
    // accident would hide the text error the user needs.
    if (binary) return ReadSharding{std::move(*binary), ShardingFormat::kProtoBinary};
  }
  return std::move(parsed).error();
}

}  // namespace shardbridge::proto
