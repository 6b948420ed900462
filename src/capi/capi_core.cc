// The C API's plumbing: versions, errors, strings, contexts
// (include/shardbridge/c_api.h).
#include <cstdlib>

#include "capi_internal.h"
#include "shardbridge/base/diagnostic.h"
#include "shardbridge/version.h"

namespace shardbridge::capi {
namespace {

// Handed out when even the error object cannot be allocated. Constant
// initialisation: no allocation, nothing to free.
sb_error* outOfMemoryError() noexcept {
  static sb_error* const error = [] {
    static sb_error e;
    e.code = SB_ERROR_OUT_OF_MEMORY;
    return &e;
  }();
  return error;
}

}  // namespace

sb_status statusOf(ErrorCode code) {
  switch (code) {
    case ErrorCode::kParse: return SB_ERROR_PARSE;
    case ErrorCode::kInvalid: return SB_ERROR_INVALID;
    case ErrorCode::kUnsupported: return SB_ERROR_UNSUPPORTED;
    case ErrorCode::kNotFound: return SB_ERROR_NOT_FOUND;
    case ErrorCode::kIo: return SB_ERROR_IO;
    case ErrorCode::kInternal: return SB_ERROR_INTERNAL;
  }
  return SB_ERROR_INTERNAL;
}

sb_status fail(sb_error** error, const Failure& failure) noexcept {
  if (!error) return failure.code;
  try {
    auto e = std::make_unique<sb_error>();
    e->code = failure.code;
    e->message = failure.message;
    size_t offset = failure.offset;
    if (offset != SB_NO_OFFSET && offset > failure.text.size()) offset = SB_NO_OFFSET;
    e->offset = offset;
    size_t noteOffset = failure.noteOffset;
    if (noteOffset != SB_NO_OFFSET && noteOffset > failure.text.size()) noteOffset = SB_NO_OFFSET;
    e->note = failure.note;
    e->noteOffset = failure.note.empty() ? SB_NO_OFFSET : noteOffset;
    Error located = makeError(ErrorCode::kInternal, failure.message,
                              offset == SB_NO_OFFSET ? Error::kNoOffset : offset)
                        .withNote(failure.note, e->noteOffset == SB_NO_OFFSET ? Error::kNoOffset
                                                                              : e->noteOffset);
    e->diagnostic = renderDiagnostic(located, failure.text);
    *error = e.release();
  } catch (...) {
    *error = outOfMemoryError();
  }
  return failure.code;
}

sb_status fail(sb_error** error, const Error& e, std::string_view text) noexcept {
  try {
    Failure failure{statusOf(e.code), e.message, e.hasOffset() ? e.offset : SB_NO_OFFSET, text};
    failure.note = e.note;
    failure.noteOffset = e.hasNoteOffset() ? e.noteOffset : SB_NO_OFFSET;
    return fail(error, failure);
  } catch (...) {
    if (error) *error = outOfMemoryError();
    return SB_ERROR_OUT_OF_MEMORY;
  }
}

sb_status invalidArgument(sb_error** error, const char* function, const std::string& message) noexcept {
  try {
    return fail(error, Failure{SB_ERROR_INVALID_ARGUMENT, std::string(function) + ": " + message});
  } catch (...) {
    if (error) *error = outOfMemoryError();
    return SB_ERROR_OUT_OF_MEMORY;
  }
}

bool viewOf(const char* data, size_t size, std::string_view& out) {
  if (!data) {
    out = {};
    return size == 0;
  }
  out = std::string_view(data, size);
  return true;
}

void giveString(std::string_view bytes, char** out, size_t* outSize) {
  char* buffer = static_cast<char*>(std::malloc(bytes.size() + 1));
  if (!buffer) throw std::bad_alloc();
  if (!bytes.empty()) std::memcpy(buffer, bytes.data(), bytes.size());
  buffer[bytes.size()] = '\0';
  *out = buffer;
  if (outSize) *outSize = bytes.size();
}

bool namesOf(const sb_string_view* views, size_t count, std::vector<std::string>& out) {
  out.clear();
  if (count > 0 && !views) return false;
  for (size_t i = 0; i < count; ++i) {
    std::string_view name;
    if (!viewOf(views[i].data, views[i].size, name)) return false;
    out.emplace_back(name);
  }
  return true;
}

bool makeLookup(const sb_context* owner, const sb_mesh* const* meshes, size_t count,
                sdy::MeshLookup& lookup, std::string& why) {
  if (count > 0 && !meshes) {
    why = "meshes is NULL but mesh_count is " + std::to_string(count);
    return false;
  }
  std::vector<const sb_mesh*> list;
  for (size_t i = 0; i < count; ++i) {
    if (!meshes[i]) {
      why = "meshes[" + std::to_string(i) + "] is NULL";
      return false;
    }
    if (owner && meshes[i]->owner != owner) {
      why = "meshes[" + std::to_string(i) + "] belongs to another context";
      return false;
    }
    list.push_back(meshes[i]);
  }
  lookup = [list = std::move(list)](std::string_view name) -> sdy::MeshAttr {
    for (const sb_mesh* m : list)
      if (m->name == name) return m->mesh;
    if (list.size() == 1 && list[0]->unnamed) return list[0]->mesh;
    return sdy::MeshAttr();
  };
  return true;
}

}  // namespace shardbridge::capi

using namespace shardbridge::capi;

extern "C" {

int sb_abi_version(void) { return SB_ABI_VERSION; }

const char* sb_version(void) { return SB_VERSION_STRING; }

const char* sb_status_name(sb_status status) {
  switch (status) {
    case SB_OK: return "ok";
    case SB_ERROR_PARSE: return "parse";
    case SB_ERROR_INVALID: return "invalid";
    case SB_ERROR_UNSUPPORTED: return "unsupported";
    case SB_ERROR_NOT_FOUND: return "not_found";
    case SB_ERROR_IO: return "io";
    case SB_ERROR_INTERNAL: return "internal";
    case SB_ERROR_INVALID_ARGUMENT: return "invalid_argument";
    case SB_ERROR_OUT_OF_MEMORY: return "out_of_memory";
    default: return "unknown";
  }
}

sb_status sb_error_code(const sb_error* error) {
  return error ? error->code : SB_ERROR_INVALID_ARGUMENT;
}

const char* sb_error_message(const sb_error* error, size_t* size) {
  if (error == outOfMemoryError()) {
    if (size) *size = 13;
    return "out of memory";
  }
  if (size) *size = error ? error->message.size() : 0;
  return error ? error->message.c_str() : "";
}

size_t sb_error_offset(const sb_error* error) { return error ? error->offset : SB_NO_OFFSET; }

const char* sb_error_note(const sb_error* error, size_t* size) {
  if (error == outOfMemoryError() || !error) {
    if (size) *size = 0;
    return "";
  }
  if (size) *size = error->note.size();
  return error->note.c_str();
}

size_t sb_error_note_offset(const sb_error* error) {
  if (error == outOfMemoryError() || !error) return SB_NO_OFFSET;
  return error->noteOffset;
}

const char* sb_error_diagnostic(const sb_error* error, size_t* size) {
  if (error == outOfMemoryError()) {
    static const char kText[] = "<input>: error: out of memory\n";
    if (size) *size = sizeof(kText) - 1;
    return kText;
  }
  if (size) *size = error ? error->diagnostic.size() : 0;
  return error ? error->diagnostic.c_str() : "";
}

void sb_error_free(sb_error* error) {
  if (error != outOfMemoryError()) delete error;
}

void sb_string_free(char* string) { std::free(string); }

sb_status sb_context_create(sb_context** out, sb_error** error) {
  return guarded(error, "sb_context_create", [&]() -> sb_status {
    if (!out) return invalidArgument(error, "sb_context_create", "out is NULL");
    *out = nullptr;
    *out = new sb_context();
    return SB_OK;
  });
}

void sb_context_free(sb_context* context) { delete context; }

}  // extern "C"
