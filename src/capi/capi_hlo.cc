// The C API's HLO shardings: HLO sharding text and OpSharding bytes
// (include/shardbridge/c_api.h).
#include "capi_internal.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"

using namespace shardbridge;
using namespace shardbridge::capi;

namespace {

bool protoFormatOf(int format, proto::ProtoFormat& out) {
  switch (format) {
    case SB_PROTO_BINARY: out = proto::ProtoFormat::kBinary; return true;
    case SB_PROTO_TEXT: out = proto::ProtoFormat::kText; return true;
    case SB_PROTO_JSON: out = proto::ProtoFormat::kJson; return true;
    default: return false;
  }
}

}  // namespace

extern "C" {

sb_status sb_hlo_sharding_parse(const char* text, size_t size, sb_hlo_sharding** out,
                                sb_error** error) {
  static constexpr char kFn[] = "sb_hlo_sharding_parse";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    std::string_view input;
    if (!viewOf(text, size, input)) return invalidArgument(error, kFn, "text is NULL but size is not 0");
    auto parsed = hlo::parseSharding(input);
    if (!parsed) return fail(error, parsed.error(), input);
    *out = new sb_hlo_sharding{std::move(*parsed)};
    return SB_OK;
  });
}

sb_status sb_hlo_sharding_print(const sb_hlo_sharding* sharding, unsigned flags, char** out,
                                size_t* out_size, sb_error** error) {
  static constexpr char kFn[] = "sb_hlo_sharding_print";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (out_size) *out_size = 0;
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    if (flags & ~SB_PRINT_METADATA) return invalidArgument(error, kFn, "unknown flags " + std::to_string(flags));
    giveString(hlo::printSharding(sharding->sharding, (flags & SB_PRINT_METADATA) != 0), out, out_size);
    return SB_OK;
  });
}

sb_status sb_hlo_sharding_from_proto(const char* data, size_t size, int format,
                                     sb_hlo_sharding** out, sb_error** error) {
  static constexpr char kFn[] = "sb_hlo_sharding_from_proto";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    std::string_view input;
    if (!viewOf(data, size, input)) return invalidArgument(error, kFn, "data is NULL but size is not 0");
    proto::ProtoFormat f;
    if (!protoFormatOf(format, f)) return invalidArgument(error, kFn, "unknown format " + std::to_string(format));
    auto parsed = proto::parseOpSharding(input, f);
    // Only text-format offsets point into printable text.
    if (!parsed) return fail(error, parsed.error(), f == proto::ProtoFormat::kText ? input : std::string_view());
    *out = new sb_hlo_sharding{std::move(*parsed)};
    return SB_OK;
  });
}

sb_status sb_hlo_sharding_to_proto(const sb_hlo_sharding* sharding, int format, char** out,
                                   size_t* out_size, sb_error** error) {
  static constexpr char kFn[] = "sb_hlo_sharding_to_proto";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (out_size) *out_size = 0;
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    proto::ProtoFormat f;
    if (!protoFormatOf(format, f)) return invalidArgument(error, kFn, "unknown format " + std::to_string(format));
    auto bytes = proto::printOpSharding(sharding->sharding, f);
    if (!bytes) return fail(error, bytes.error());
    giveString(*bytes, out, out_size);
    return SB_OK;
  });
}

sb_status sb_hlo_sharding_equal(const sb_hlo_sharding* a, const sb_hlo_sharding* b, int* equal,
                                sb_error** error) {
  static constexpr char kFn[] = "sb_hlo_sharding_equal";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!equal) return invalidArgument(error, kFn, "equal is NULL");
    *equal = 0;
    if (!a || !b) return invalidArgument(error, kFn, a ? "b is NULL" : "a is NULL");
    *equal = a->sharding == b->sharding ? 1 : 0;
    return SB_OK;
  });
}

void sb_hlo_sharding_free(sb_hlo_sharding* sharding) { delete sharding; }

}  // extern "C"
