// What the C API's handles hold, and the helpers every entry point uses to
// keep the promises of include/shardbridge/c_api.h: a status for every
// failure, an error object the caller frees, nothing thrown across the C
// boundary.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/c_api.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/source_map.h"

struct sb_error {
  sb_status code = SB_ERROR_INTERNAL;
  std::string message;
  size_t offset = SB_NO_OFFSET;
  std::string note;  // "" when the error has no note
  size_t noteOffset = SB_NO_OFFSET;
  std::string diagnostic;
};

struct sb_context {
  shardbridge::sdy::Context ctx;
};

struct sb_mesh {
  const sb_context* owner = nullptr;
  std::string name;
  // Named neither by the caller nor by an `sdy.mesh @NAME` op: alone in a
  // list, it stands for any mesh name.
  bool unnamed = false;
  shardbridge::sdy::MeshAttr mesh;
};

struct sb_sdy_sharding {
  const sb_context* owner = nullptr;
  std::variant<shardbridge::sdy::TensorShardingAttr, shardbridge::sdy::TensorShardingPerValueAttr>
      attr;
  // The parsed text and where its parts are, to locate later errors; empty
  // for shardings made by an import.
  std::string text;
  shardbridge::sdy::SourceMap locations;
  bool parsed = false;
};

struct sb_hlo_sharding {
  shardbridge::hlo::HloSharding sharding;
};

struct sb_import_result {
  std::vector<std::unique_ptr<sb_mesh>> meshes;
  std::vector<std::unique_ptr<sb_sdy_sharding>> shardings;
};

struct sb_module_result {
  std::string text;
  std::vector<std::pair<size_t, std::string>> warnings;
};

namespace shardbridge::capi {

// A failure to report: the sb_status, the message, and optionally the byte
// offset and the text it refers to (for the diagnostic).
struct Failure {
  Failure(sb_status c, std::string m, size_t o = SB_NO_OFFSET, std::string_view t = {})
      : code(c), message(std::move(m)), offset(o), text(t) {}
  sb_status code;
  std::string message;
  size_t offset;
  std::string_view text;
  std::string note;  // the library Error's note, "" for none
  size_t noteOffset = SB_NO_OFFSET;
};

sb_status statusOf(ErrorCode code);

// Stores a new sb_error for `failure` in *error (when error is not NULL)
// and returns its code. Never throws: when the error object cannot be
// allocated, *error is a shared static out-of-memory error (which
// sb_error_free leaves alone).
sb_status fail(sb_error** error, const Failure& failure) noexcept;

// fail() for a library Error about `text` (offsets beyond it are dropped).
sb_status fail(sb_error** error, const Error& e, std::string_view text = {}) noexcept;

// SB_ERROR_INVALID_ARGUMENT: "FUNCTION: MESSAGE".
sb_status invalidArgument(sb_error** error, const char* function, const std::string& message) noexcept;

// Runs `body` (returning sb_status) with *error cleared first; turns any
// exception into a status, so nothing escapes into C.
template <typename Body>
sb_status guarded(sb_error** error, const char* function, Body&& body) noexcept {
  if (error) *error = nullptr;
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(error, Failure{SB_ERROR_OUT_OF_MEMORY, std::string(function) + ": out of memory"});
  } catch (const std::exception& e) {
    return fail(error, Failure{SB_ERROR_INTERNAL,
                               std::string(function) + ": internal error: " + e.what()});
  } catch (...) {
    return fail(error, Failure{SB_ERROR_INTERNAL, std::string(function) + ": internal error"});
  }
}

// A caller's (pointer, size) as a string_view; false when data is NULL with
// a non-zero size.
bool viewOf(const char* data, size_t size, std::string_view& out);

// Copies `bytes` into a malloc'ed NUL-terminated buffer for the caller
// (sb_string_free). Throws std::bad_alloc when malloc fails.
void giveString(std::string_view bytes, char** out, size_t* outSize);

// Reads an options struct of the caller's `struct_size` into `out`, whose
// own struct_size is the library's: the fields it covers are copied, the
// others keep their defaults. False when struct_size is below the size of
// the struct_size field, or larger than the library's struct with a
// non-zero byte beyond it (a field this library does not know).
template <typename Options>
bool readOptions(const Options* given, Options& out) {
  if (!given) return true;
  size_t size = given->struct_size;
  if (size < sizeof(size_t)) return false;
  if (size > sizeof(Options)) {
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(given);
    for (size_t i = sizeof(Options); i < size; ++i)
      if (bytes[i] != 0) return false;
    size = sizeof(Options);
  }
  std::memcpy(static_cast<void*>(&out), given, size);
  out.struct_size = sizeof(Options);
  return true;
}

// The names of `count` views; false on a NULL entry with non-zero size.
bool namesOf(const sb_string_view* views, size_t count, std::vector<std::string>& out);

// The mesh lookup of a list of meshes: exact names, and a lone unnamed mesh
// for any name. Checks the entries (non-NULL, of `owner`); on failure
// returns false with `why` set.
bool makeLookup(const sb_context* owner, const sb_mesh* const* meshes, size_t count,
                sdy::MeshLookup& lookup, std::string& why);

// Verifies `sharding` against its mesh with the parser's locations, so
// that the error points into the parsed text (the converters verify too,
// but without locations). A mesh reference `lookup` does not resolve is
// kNotFound (the verifier's `unknown mesh: @name`, located); everything
// else the verifier's kInvalid. `type` applies to a single sharding.
Status verifyLocated(const sb_sdy_sharding& sharding, const sdy::MeshLookup& lookup,
                     const std::optional<MlirType>& type = std::nullopt);

}  // namespace shardbridge::capi
