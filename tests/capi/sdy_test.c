/* The C API's meshes and sdy shardings: parse, verify, print, and every
 * error path. Expected texts are Shardy's printer and verifier output
 * (the same ones tests/golden/sdy/ checks through the CLI). */
#include <stdlib.h>

#include "check.h"

static sb_context* ctx;

static sb_mesh* mesh(const char* text, const char* name) {
  sb_mesh* m = NULL;
  sb_error* err = NULL;
  CHECK_OK(sb_mesh_parse(ctx, text, strlen(text), name, name ? strlen(name) : 0, &m, &err), err);
  return m;
}

static sb_sdy_sharding* sharding(const char* text) {
  sb_sdy_sharding* s = NULL;
  sb_error* err = NULL;
  CHECK_OK(sb_sdy_sharding_parse(ctx, text, strlen(text), &s, &err), err);
  return s;
}

static void meshes(void) {
  sb_error* err = NULL;
  char* out = NULL;
  size_t size = 0;
  sb_mesh* m = mesh("<[\"x\"=2, \"y\"=4]>", NULL);
  sb_mesh* op = mesh("sdy.mesh @m2 = <[\"a\"=2], device_ids=[1, 0]>", NULL);
  sb_mesh* renamed = mesh("#sdy.mesh<[\"a\"=2]>", "other");
  const char* name;

  name = sb_mesh_name(m, &size);
  CHECK_STR(name, size, "mesh");
  name = sb_mesh_name(op, &size);
  CHECK_STR(name, size, "m2");
  name = sb_mesh_name(renamed, &size);
  CHECK_STR(name, size, "other");

  CHECK_OK(sb_mesh_print(m, 0, &out, &size, &err), err);
  CHECK_STR(out, size, "#sdy.mesh<[\"x\"=2, \"y\"=4]>");
  CHECK(out[size] == '\0');
  sb_string_free(out);
  CHECK_OK(sb_mesh_print(op, SB_PRINT_MESH_SYMBOL, &out, &size, &err), err);
  CHECK_STR(out, size, "sdy.mesh @m2 = <[\"a\"=2], device_ids=[1, 0]>");
  sb_string_free(out);
  CHECK_OK(sb_mesh_print(m, SB_PRINT_MESH_SYMBOL | SB_PRINT_ESCAPE_QUOTES, &out, &size, &err), err);
  CHECK_STR(out, size, "sdy.mesh @mesh = <[\\22x\\22=2, \\22y\\22=4]>");
  sb_string_free(out);
  /* out_size may be NULL. */
  CHECK_OK(sb_mesh_print(m, 0, &out, NULL, &err), err);
  CHECK(strcmp(out, "#sdy.mesh<[\"x\"=2, \"y\"=4]>") == 0);
  sb_string_free(out);

  sb_mesh_free(m);
  sb_mesh_free(op);
  sb_mesh_free(renamed);
}

static void meshErrors(void) {
  sb_error* err = NULL;
  sb_mesh* m = (sb_mesh*)&err; /* must be reset to NULL on failure */
  char* out = NULL;
  size_t size = 0;
  const char* diagnostic;

  /* A parse error, located. */
  CHECK(sb_mesh_parse(ctx, S("<[\"x\"=]>"), NULL, 0, &m, &err) == SB_ERROR_PARSE);
  CHECK(m == NULL);
  CHECK(sb_error_offset(err) == 6);
  diagnostic = sb_error_diagnostic(err, &size);
  /* MLIR's first diagnostic, then the parameter as a note
   * (docs/sdy_parse_errors.md). */
  CHECK_STR(diagnostic, size,
            "<input>:1:7: error: expected integer value\n"
            "<[\"x\"=]>\n"
            "      ^\n"
            "<input>:1:7: note: failed to parse Sdy_Mesh parameter 'axes' which is to be a "
            "`::llvm::ArrayRef<MeshAxisAttr>`\n");
  diagnostic = sb_error_note(err, &size);
  CHECK_STR(diagnostic, size,
            "failed to parse Sdy_Mesh parameter 'axes' which is to be a "
            "`::llvm::ArrayRef<MeshAxisAttr>`");
  CHECK(sb_error_note_offset(err) == 6);
  sb_error_free(err);
  err = NULL;

  /* Shardy's mesh rules, located at the offending part. */
  CHECK(sb_mesh_parse(ctx, S("<[\"a\"=2, \"a\"=2]>"), NULL, 0, &m, &err) == SB_ERROR_INVALID);
  CHECK(sb_error_offset(err) == 9);
  CHECK_ERROR(SB_ERROR_INVALID, err, SB_ERROR_INVALID, "duplicate axis name: \"a\"");
  CHECK_ERROR(sb_mesh_parse(ctx, S("<[\"a\"=0]>"), NULL, 0, &m, &err), err, SB_ERROR_INVALID,
              "axis size must be at least 1, got: 0");

  /* Misuse. */
  CHECK_ERROR(sb_mesh_parse(ctx, S("#sdy.sharding<@mesh, []>"), NULL, 0, &m, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_parse: expected a mesh (#sdy.mesh<...>, <[...]> or sdy.mesh @NAME = <...>), "
              "got an sdy sharding");
  CHECK_ERROR(sb_mesh_parse(NULL, S("<[]>"), NULL, 0, &m, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_parse: context is NULL");
  CHECK_ERROR(sb_mesh_parse(ctx, NULL, 3, NULL, 0, &m, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_parse: text is NULL but size is not 0");
  CHECK_ERROR(sb_mesh_parse(ctx, S("<[]>"), NULL, 2, &m, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_parse: name is NULL but name_size is not 0");
  CHECK_ERROR(sb_mesh_parse(ctx, S("<[]>"), NULL, 0, NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_parse: out is NULL");
  /* The empty text is a parse error, not a crash. */
  CHECK(sb_mesh_parse(ctx, NULL, 0, NULL, 0, &m, &err) == SB_ERROR_PARSE);
  sb_error_free(err);
  err = NULL;

  m = mesh("<[\"x\"=2]>", NULL);
  CHECK_ERROR(sb_mesh_print(m, 8u, &out, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_print: unknown flags 8");
  CHECK(out == NULL && size == 0);
  CHECK_ERROR(sb_mesh_print(NULL, 0, &out, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_print: mesh is NULL");
  CHECK_ERROR(sb_mesh_print(m, 0, NULL, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_mesh_print: out is NULL");
  sb_mesh_free(m);
}

static void shardings(void) {
  sb_error* err = NULL;
  char* out = NULL;
  size_t size = 0;
  sb_mesh* m = mesh("<[\"a\"=2, \"b\"=2, \"c\"=2]>", NULL);
  sb_sdy_sharding* s = sharding("#sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"c\"}>");
  sb_sdy_sharding* escaped = sharding("#sdy.sharding<@mesh, [{\\22b\\22}]>");
  sb_sdy_sharding* perValue = sharding("#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>, <@mesh, []>]>");

  CHECK(sb_sdy_sharding_is_per_value(s) == 0);
  CHECK(sb_sdy_sharding_is_per_value(perValue) == 1);
  CHECK_OK(sb_sdy_sharding_print(s, 0, &out, &size, &err), err);
  CHECK_STR(out, size, "#sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"c\"}>");
  sb_string_free(out);
  CHECK_OK(sb_sdy_sharding_print(escaped, SB_PRINT_ESCAPE_QUOTES, &out, &size, &err), err);
  CHECK_STR(out, size, "#sdy.sharding<@mesh, [{\\22b\\22}]>");
  sb_string_free(out);
  CHECK_OK(sb_sdy_sharding_print(perValue, 0, &out, &size, &err), err);
  CHECK_STR(out, size, "#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>, <@mesh, []>]>");
  sb_string_free(out);

  CHECK_OK(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, NULL, 0, &err), err);
  CHECK_OK(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, S("tensor<8x8xf32>"), &err), err);
  CHECK_OK(sb_sdy_sharding_verify(perValue, (const sb_mesh* const*)&m, 1, NULL, 0, &err), err);

  sb_sdy_sharding_free(s);
  sb_sdy_sharding_free(escaped);
  sb_sdy_sharding_free(perValue);
  sb_mesh_free(m);
}

static void shardingErrors(void) {
  sb_error* err = NULL;
  char* out = NULL;
  size_t size = 0;
  sb_sdy_sharding* s = NULL;
  const char* diagnostic;
  sb_mesh* m = mesh("<[\"a\"=2]>", "mesh");
  sb_context* other = NULL;
  sb_mesh* foreign = NULL;
  const sb_mesh* list[2];

  CHECK(sb_sdy_sharding_parse(ctx, S("#sdy.sharding<@mesh, [{\"a\"}"), &s, &err) == SB_ERROR_PARSE);
  CHECK(s == NULL);
  /* MLIR's scan of the pretty body, at the last string it lexed
   * (docs/sdy_parse_errors.md); no parameter context, so no note. */
  CHECK(sb_error_offset(err) == 23);
  diagnostic = sb_error_message(err, &size);
  CHECK_STR(diagnostic, size, "unbalanced '[' character in pretty dialect name");
  CHECK(sb_error_note_offset(err) == SB_NO_OFFSET);
  diagnostic = sb_error_note(err, &size);
  CHECK(size == 0 && strcmp(diagnostic, "") == 0);
  sb_error_free(err);
  err = NULL;
  CHECK_ERROR(sb_sdy_sharding_parse(ctx, S("<[\"a\"=2]>"), &s, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_parse: expected #sdy.sharding<...> or #sdy.sharding_per_value<[...]>, got a mesh");
  CHECK_ERROR(sb_sdy_sharding_parse(NULL, S("<@mesh, []>"), &s, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_parse: context is NULL");
  CHECK_ERROR(sb_sdy_sharding_parse(ctx, NULL, 1, &s, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_parse: text is NULL but size is not 0");
  CHECK_ERROR(sb_sdy_sharding_parse(ctx, S("<@mesh, []>"), NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_parse: out is NULL");

  /* Verifier errors are located in the parsed text. */
  s = sharding("#sdy.sharding<@mesh, [{}, {\"c\"}]>");
  CHECK(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, NULL, 0, &err) == SB_ERROR_INVALID);
  CHECK(sb_error_offset(err) == 27);
  diagnostic = sb_error_diagnostic(err, &size);
  CHECK_STR(diagnostic, size,
            "<input>:1:28: error: unknown axis name: \"c\"\n"
            "#sdy.sharding<@mesh, [{}, {\"c\"}]>\n"
            "                           ^\n");
  sb_error_free(err);
  err = NULL;
  sb_sdy_sharding_free(s);

  s = sharding("#sdy.sharding<@nowhere, [{\"a\"}]>");
  CHECK_ERROR(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, NULL, 0, &err), err,
              SB_ERROR_NOT_FOUND, "unknown mesh: @nowhere");
  sb_sdy_sharding_free(s);

  s = sharding("#sdy.sharding<@mesh, [{\"a\"}, {}]>");
  CHECK_ERROR(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, S("tensor<8xf32>"), &err), err,
              SB_ERROR_INVALID, "sharding doesn't match tensor rank: 2 != 1");
  CHECK(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, S("tensor<8f32>"), &err) == SB_ERROR_PARSE);
  sb_error_free(err);
  err = NULL;
  CHECK_ERROR(sb_sdy_sharding_verify(s, NULL, 1, NULL, 0, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_verify: meshes is NULL but mesh_count is 1");
  list[0] = m;
  list[1] = NULL;
  CHECK_ERROR(sb_sdy_sharding_verify(s, list, 2, NULL, 0, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_verify: meshes[1] is NULL");
  CHECK_ERROR(sb_sdy_sharding_verify(s, list, 1, NULL, 3, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_verify: type is NULL but type_size is not 0");
  CHECK_ERROR(sb_sdy_sharding_verify(NULL, list, 1, NULL, 0, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_verify: sharding is NULL");
  CHECK_OK(sb_context_create(&other, &err), err);
  CHECK_OK(sb_mesh_parse(other, S("<[\"a\"=2]>"), NULL, 0, &foreign, &err), err);
  list[0] = foreign;
  CHECK_ERROR(sb_sdy_sharding_verify(s, list, 1, NULL, 0, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_verify: meshes[0] belongs to another context");
  sb_mesh_free(foreign);
  sb_context_free(other);

  CHECK_ERROR(sb_sdy_sharding_print(s, SB_PRINT_MESH_SYMBOL, &out, &size, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_sdy_sharding_print: unknown flags 2");
  CHECK(out == NULL);
  CHECK_ERROR(sb_sdy_sharding_print(NULL, 0, &out, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_print: sharding is NULL");
  CHECK_ERROR(sb_sdy_sharding_print(s, 0, NULL, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_print: out is NULL");
  sb_sdy_sharding_free(s);

  s = sharding("#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>");
  CHECK_ERROR(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, S("tensor<8xf32>"), &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_sdy_sharding_verify: a type applies to one sharding, not a sharding_per_value");
  sb_sdy_sharding_free(s);

  /* A lone unnamed mesh stands for any name; a named one does not. */
  {
    sb_mesh* unnamed = mesh("<[\"a\"=2]>", NULL);
    s = sharding("#sdy.sharding<@anything, [{\"a\"}]>");
    CHECK_OK(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&unnamed, 1, NULL, 0, &err), err);
    CHECK_ERROR(sb_sdy_sharding_verify(s, (const sb_mesh* const*)&m, 1, NULL, 0, &err), err,
                SB_ERROR_NOT_FOUND, "unknown mesh: @anything");
    sb_sdy_sharding_free(s);
    sb_mesh_free(unnamed);
  }
  sb_mesh_free(m);
}

int main(void) {
  sb_error* err = NULL;
  CHECK_OK(sb_context_create(&ctx, &err), err);
  meshes();
  meshErrors();
  shardings();
  shardingErrors();
  sb_context_free(ctx);
  if (sb_check_failures) fprintf(stderr, "%d check(s) failed\n", sb_check_failures);
  return sb_check_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
