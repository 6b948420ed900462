#include "shardbridge/base/result.h"

namespace shardbridge {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kParse: return "parse";
    case ErrorCode::kInvalid: return "invalid";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kNotFound: return "not-found";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

}  // namespace shardbridge

namespace shardbridge::result_detail {

void ErrorBox::destroy(Error* e) noexcept { delete e; }

}  // namespace shardbridge::result_detail
