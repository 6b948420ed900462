/* The C API's plumbing: versions, status names, errors, NULL handling of
 * accessors and frees, contexts. */
#include <stdlib.h>

#include "check.h"
#include "shardbridge/version.h"

static void versions(void) {
  CHECK(sb_abi_version() == SB_ABI_VERSION);
  CHECK(strcmp(sb_version(), SB_VERSION_STRING) == 0);
  CHECK(SB_VERSION_NUMBER == SB_VERSION_MAJOR * 10000 + SB_VERSION_MINOR * 100 + SB_VERSION_PATCH);
}

static void statusNames(void) {
  CHECK(strcmp(sb_status_name(SB_OK), "ok") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_PARSE), "parse") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_INVALID), "invalid") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_UNSUPPORTED), "unsupported") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_NOT_FOUND), "not_found") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_IO), "io") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_INTERNAL), "internal") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_INVALID_ARGUMENT), "invalid_argument") == 0);
  CHECK(strcmp(sb_status_name(SB_ERROR_OUT_OF_MEMORY), "out_of_memory") == 0);
  CHECK(strcmp(sb_status_name(99), "unknown") == 0);
  CHECK(strcmp(sb_status_name(-1), "unknown") == 0);
}

/* Accessors and frees take NULL without crashing. */
static void nullTolerance(void) {
  size_t size = 7;
  CHECK(sb_error_code(NULL) == SB_ERROR_INVALID_ARGUMENT);
  CHECK(strcmp(sb_error_message(NULL, &size), "") == 0 && size == 0);
  size = 7;
  CHECK(strcmp(sb_error_diagnostic(NULL, &size), "") == 0 && size == 0);
  CHECK(sb_error_offset(NULL) == SB_NO_OFFSET);
  CHECK(strcmp(sb_error_note(NULL, &size), "") == 0 && size == 0);
  CHECK(sb_error_note_offset(NULL) == SB_NO_OFFSET);
  size = 7;
  CHECK(strcmp(sb_mesh_name(NULL, &size), "") == 0 && size == 0);
  CHECK(sb_sdy_sharding_is_per_value(NULL) == 0);
  CHECK(sb_import_result_mesh_count(NULL) == 0);
  CHECK(sb_import_result_mesh(NULL, 0) == NULL);
  CHECK(sb_import_result_sharding(NULL, 0) == NULL);
  size = 7;
  CHECK(strcmp(sb_module_result_text(NULL, &size), "") == 0 && size == 0);
  CHECK(sb_module_result_warning_count(NULL) == 0);
  {
    size_t offset = 0;
    size = 7;
    CHECK(sb_module_result_warning(NULL, 0, &offset, &size) == NULL);
    CHECK(offset == SB_NO_OFFSET && size == 0);
  }
  sb_error_free(NULL);
  sb_string_free(NULL);
  sb_context_free(NULL);
  sb_mesh_free(NULL);
  sb_sdy_sharding_free(NULL);
  sb_hlo_sharding_free(NULL);
  sb_import_result_free(NULL);
  sb_module_result_free(NULL);
}

static void contexts(void) {
  sb_error* err = NULL;
  sb_context* ctx = NULL;
  CHECK_OK(sb_context_create(&ctx, &err), err);
  CHECK(ctx != NULL);
  sb_context_free(ctx);

  CHECK_ERROR(sb_context_create(NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_context_create: out is NULL");
  /* Without an error object, only the status. */
  CHECK(sb_context_create(NULL, NULL) == SB_ERROR_INVALID_ARGUMENT);
}

/* An error without offset renders as `<input>: error: MESSAGE`. */
static void unlocatedDiagnostic(void) {
  sb_error* err = NULL;
  size_t size = 0;
  const char* diagnostic;
  CHECK(sb_context_create(NULL, &err) == SB_ERROR_INVALID_ARGUMENT);
  CHECK(sb_error_offset(err) == SB_NO_OFFSET);
  diagnostic = sb_error_diagnostic(err, &size);
  CHECK_STR(diagnostic, size, "<input>: error: sb_context_create: out is NULL\n");
  /* ... and has no note. */
  CHECK(strcmp(sb_error_note(err, &size), "") == 0 && size == 0);
  CHECK(sb_error_note_offset(err) == SB_NO_OFFSET);
  sb_error_free(err);
}

int main(void) {
  versions();
  statusNames();
  nullTolerance();
  contexts();
  unlocatedDiagnostic();
  if (sb_check_failures) fprintf(stderr, "%d check(s) failed\n", sb_check_failures);
  return sb_check_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
