// shardbridge/version.h. It lives in the proto floor, the one that is built
// against protobuf, because it reports protobuf's version too.
#include "shardbridge/version.h"

#include <google/protobuf/stubs/common.h>

#include <string>

namespace shardbridge {

const char* versionString() { return SB_VERSION_STRING; }

int versionNumber() { return SB_VERSION_NUMBER; }

const char* protobufVersion() {
  // protobuf encodes its version as MAJOR * 1000000 + MINOR * 1000 + PATCH.
  static const std::string version =
      std::to_string(GOOGLE_PROTOBUF_VERSION / 1000000) + "." +
      std::to_string(GOOGLE_PROTOBUF_VERSION / 1000 % 1000) + "." +
      std::to_string(GOOGLE_PROTOBUF_VERSION % 1000);
  return version.c_str();
}

}  // namespace shardbridge
