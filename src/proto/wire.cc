// Protobuf's parsers and printers for xla.OpSharding, with errors as values.
#include "shardbridge/proto/pb/wire.h"

#include "shardbridge/proto/pb/convert.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <climits>
#include <string>

namespace shardbridge::proto {
namespace {

// Protobuf's default for binary input; text format has no default limit, so
// the same bound is set explicitly to keep the parser's stack use bounded.
constexpr int kRecursionLimit = 100;
// protobuf's Tokenizer advances the column of a tab to the next multiple of 8.
constexpr int kTabWidth = 8;

Status checkSize(std::string_view data, const ProtoParseOptions& options, const char* what) {
  if (data.size() > options.maxInputBytes || data.size() > static_cast<size_t>(INT_MAX)) {
    return makeError(ErrorCode::kParse, std::string(what) + " input of " +
                                            std::to_string(data.size()) +
                                            " bytes exceeds the limit of " +
                                            std::to_string(options.maxInputBytes) + " bytes");
  }
  return okStatus();
}

// Maps protobuf's zero-based (line, column) back to a byte offset in `text`.
size_t offsetOf(std::string_view text, int line, int column) {
  size_t pos = 0;
  for (int l = 0; l < line && pos < text.size(); ++l) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return text.size();
    pos = nl + 1;
  }
  int col = 0;
  while (pos < text.size() && text[pos] != '\n' && col < column) {
    col = text[pos] == '\t' ? col + kTabWidth - col % kTabWidth : col + 1;
    ++pos;
  }
  return pos;
}

// Keeps the first error protobuf reports (later ones are consequences).
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (has_) return;
    has_ = true;
    line_ = line;
    column_ = column;
    message_ = message;
  }

  bool has() const { return has_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  bool has_ = false;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

// Protobuf names message types by their full name, which carries our package
// (proto/op_sharding.proto says why it is not `xla`). Users and XLA know the
// types as `xla.OpSharding`, ..., so messages say that.
std::string xlaTypeNames(std::string message) {
  static constexpr std::string_view kOurs = "shardbridge.wire.";
  static constexpr std::string_view kXla = "xla.";
  for (size_t pos = message.find(kOurs); pos != std::string::npos;
       pos = message.find(kOurs, pos + kXla.size())) {
    message.replace(pos, kOurs.size(), kXla);
  }
  return message;
}

// OpSharding's tuple_shardings: field 5, length-delimited.
constexpr uint32_t kTupleShardingsField = 5;

// Reads a varint at `pos`; false on a truncated or over-long one.
bool readVarint(std::string_view bytes, size_t& pos, uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64 && pos < bytes.size(); shift += 7) {
    const auto byte = static_cast<uint8_t>(bytes[pos++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

// Adds the tuple_shardings entries of the message `bytes` (and of those
// entries, recursively) to `count`, stopping past `limit`. Anything
// malformed ends the count: protobuf's parser reports it afterwards.
void countWireTupleElements(std::string_view bytes, size_t limit, int depth, size_t& count) {
  size_t pos = 0;
  while (pos < bytes.size() && count <= limit) {
    uint64_t tag = 0;
    if (!readVarint(bytes, pos, tag)) return;
    const uint32_t wireType = static_cast<uint32_t>(tag & 7);
    uint64_t length = 0;
    switch (wireType) {
      case 0:
        if (!readVarint(bytes, pos, length)) return;
        continue;
      case 1: length = 8; break;
      case 5: length = 4; break;
      case 2:
        if (!readVarint(bytes, pos, length)) return;
        break;
      default: return;  // groups: protobuf decides
    }
    if (length > bytes.size() - pos) return;
    if (wireType == 2 && (tag >> 3) == kTupleShardingsField) {
      ++count;
      if (depth < kRecursionLimit) {
        countWireTupleElements(bytes.substr(pos, length), limit, depth + 1, count);
      }
    }
    pos += length;
  }
}

// Whether text-format or JSON `text` may hold more than `limit` tuple
// elements, judged before protobuf builds any message. The field may be
// named once for a whole list (`tuple_shardings: [{}, {}]`, JSON arrays), so
// what is bounded is the messages: opening '{' (and '<' in text format).
// An element may hold a few messages of its own (metadata), so up to four
// per element pass; fromProto then counts the elements exactly.
bool mayHoldTooManyElements(std::string_view text, size_t limit, bool angleBrackets) {
  if (text.find("tuple_shardings") == std::string_view::npos &&
      text.find("tupleShardings") == std::string_view::npos) {
    return false;
  }
  size_t openers = 0;
  for (char c : text) {
    if (c == '{' || (angleBrackets && c == '<')) ++openers;
  }
  return openers / 4 > limit;
}

}  // namespace

Result<wire::OpSharding> parseOpShardingBinary(std::string_view bytes,
                                              const ProtoParseOptions& options) {
  SB_TRY(checkSize(bytes, options, "binary OpSharding"));
  // Counted on the wire first, so a huge tuple costs no messages. Every
  // element starts with the tag byte 0x2a (field 5, length-delimited):
  // without one there is nothing to count.
  if (bytes.find('\x2a') != std::string_view::npos) {
    size_t elements = 0;
    countWireTupleElements(bytes, options.maxTupleLeaves, 0, elements);
    if (elements > options.maxTupleLeaves) return tooManyTupleElements(options.maxTupleLeaves);
  }
  wire::OpSharding proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return makeError(ErrorCode::kParse,
                     "cannot parse binary OpSharding: malformed wire format (or a string "
                     "field that is not UTF-8, or nesting deeper than 100)");
  }
  return proto;
}

std::string serializeOpSharding(const wire::OpSharding& proto) {
  std::string out;
  proto.SerializeToString(&out);
  return out;
}

Result<wire::OpSharding> parseOpShardingText(std::string_view text,
                                            const ProtoParseOptions& options) {
  SB_TRY(checkSize(text, options, "text-format OpSharding"));
  if (mayHoldTooManyElements(text, options.maxTupleLeaves, /*angleBrackets=*/true)) {
    return tooManyTupleElements(options.maxTupleLeaves);
  }
  wire::OpSharding proto;
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(kRecursionLimit);
  google::protobuf::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  if (!parser.Parse(&input, &proto)) {
    if (!errors.has()) return makeError(ErrorCode::kParse, "cannot parse text-format OpSharding");
    return makeError(ErrorCode::kParse, xlaTypeNames(errors.message()),
                     offsetOf(text, errors.line(), errors.column()));
  }
  return proto;
}

std::string printOpShardingText(const wire::OpSharding& proto) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(proto, &out);
  return out;
}

Result<wire::OpSharding> parseOpShardingJson(std::string_view json,
                                            const ProtoParseOptions& options) {
  SB_TRY(checkSize(json, options, "JSON OpSharding"));
  if (mayHoldTooManyElements(json, options.maxTupleLeaves, /*angleBrackets=*/false)) {
    return tooManyTupleElements(options.maxTupleLeaves);
  }
  wire::OpSharding proto;
  google::protobuf::util::JsonParseOptions parseOptions;
  auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &proto, parseOptions);
  if (!status.ok()) {
    return makeError(ErrorCode::kParse,
                     "cannot parse JSON OpSharding: " + xlaTypeNames(std::string(status.message())));
  }
  return proto;
}

Result<std::string> printOpShardingJson(const wire::OpSharding& proto) {
  std::string out;
  google::protobuf::util::JsonPrintOptions printOptions;
  auto status = google::protobuf::util::MessageToJsonString(proto, &out, printOptions);
  if (!status.ok()) {
    return makeError(ErrorCode::kInvalid,
                     "cannot print OpSharding as JSON: " + xlaTypeNames(std::string(status.message())));
  }
  return out;
}

}  // namespace shardbridge::proto
