// The version of shardbridge, as macros (usable from C and C++ alike) and,
// in C++, as functions that report the library actually linked.
//
//   #if SB_VERSION_NUMBER >= 100  // 0.1.0 or later
//   shardbridge::versionString()   -> "0.1.0"
//   shardbridge::protobufVersion() -> "3.21.12"
//
// The numbers below are the one place the version is written: CMake reads
// them for project(VERSION), the packages and the pkg-config files. The C
// API has its own ABI version, SB_ABI_VERSION in shardbridge/c_api.h.
#ifndef SHARDBRIDGE_VERSION_H_
#define SHARDBRIDGE_VERSION_H_

#define SB_VERSION_MAJOR 0
#define SB_VERSION_MINOR 1
#define SB_VERSION_PATCH 0

#define SB_VERSION_STR_INNER_(x) #x
#define SB_VERSION_STR_(x) SB_VERSION_STR_INNER_(x)
// "MAJOR.MINOR.PATCH".
#define SB_VERSION_STRING \
  SB_VERSION_STR_(SB_VERSION_MAJOR) "." SB_VERSION_STR_(SB_VERSION_MINOR) "." SB_VERSION_STR_(SB_VERSION_PATCH)
// MAJOR * 10000 + MINOR * 100 + PATCH, for `#if` comparisons.
#define SB_VERSION_NUMBER (SB_VERSION_MAJOR * 10000 + SB_VERSION_MINOR * 100 + SB_VERSION_PATCH)

#ifdef __cplusplus
namespace shardbridge {

// The version of the library linked, "MAJOR.MINOR.PATCH" (SB_VERSION_STRING
// when it was built). A static string.
const char* versionString();

// SB_VERSION_NUMBER of the library linked.
int versionNumber();

// The version of the protobuf headers the library was compiled against, as
// protobuf writes it ("3.21.12"). A static string.
const char* protobufVersion();

}  // namespace shardbridge
#endif

#endif  // SHARDBRIDGE_VERSION_H_
