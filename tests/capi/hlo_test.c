/* The C API's HLO shardings: text, OpSharding bytes, equality, and every
 * error path. Expected texts are XLA's HloSharding::ToString() and
 * ToProto() output (the same ones tests/golden/hlo/ checks via the CLI). */
#include <stdlib.h>

#include "check.h"

static sb_hlo_sharding* parse(const char* text) {
  sb_hlo_sharding* s = NULL;
  sb_error* err = NULL;
  CHECK_OK(sb_hlo_sharding_parse(text, strlen(text), &s, &err), err);
  return s;
}

static void text(void) {
  sb_error* err = NULL;
  char* out = NULL;
  size_t size = 0;
  sb_hlo_sharding* v1 = parse("{devices=[2,1,2]3,2,1,0 last_tile_dims={replicated}}");
  sb_hlo_sharding* md = parse("{devices=[2]0,1 metadata={op_name=\"a\"}}");
  sb_hlo_sharding* v3 = parse("{mesh['x'=2,'y'=2], [{'x'}, {}]}");

  CHECK_OK(sb_hlo_sharding_print(v1, 0, &out, &size, &err), err);
  CHECK_STR(out, size, "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}");
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_print(md, 0, &out, &size, &err), err);
  CHECK_STR(out, size, "{devices=[2]0,1}");
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_print(md, SB_PRINT_METADATA, &out, &size, &err), err);
  CHECK_STR(out, size, "{devices=[2]0,1 metadata={op_name=\"a\"}}");
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_print(v3, 0, &out, &size, &err), err);
  CHECK_STR(out, size, "{mesh['x'=2,'y'=2], [{'x'}, {}]}");
  sb_string_free(out);

  sb_hlo_sharding_free(v1);
  sb_hlo_sharding_free(md);
  sb_hlo_sharding_free(v3);
}

static void protos(void) {
  sb_error* err = NULL;
  char* out = NULL;
  size_t size = 0;
  sb_hlo_sharding* s = parse("{maximal device=7}");
  sb_hlo_sharding* back = NULL;
  int equal = 0;

  /* The bytes XLA's ToProto().SerializeAsString() gives. */
  CHECK_OK(sb_hlo_sharding_to_proto(s, SB_PROTO_BINARY, &out, &size, &err), err);
  CHECK(size == 5 && memcmp(out, "\x08\x01\x22\x01\x07", 5) == 0);
  CHECK_OK(sb_hlo_sharding_from_proto(out, size, SB_PROTO_BINARY, &back, &err), err);
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_equal(s, back, &equal, &err), err);
  CHECK(equal == 1);
  sb_hlo_sharding_free(back);

  CHECK_OK(sb_hlo_sharding_to_proto(s, SB_PROTO_TEXT, &out, &size, &err), err);
  CHECK_STR(out, size, "type: MAXIMAL\ntile_assignment_devices: 7\n");
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_to_proto(s, SB_PROTO_JSON, &out, &size, &err), err);
  CHECK_STR(out, size, "{\"type\":\"MAXIMAL\",\"tileAssignmentDevices\":[\"7\"]}");
  CHECK_OK(sb_hlo_sharding_from_proto(out, size, SB_PROTO_JSON, &back, &err), err);
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_equal(s, back, &equal, &err), err);
  CHECK(equal == 1);
  sb_hlo_sharding_free(back);

  /* An iota equals the device list it stands for; metadata is ignored. */
  {
    sb_hlo_sharding* a = parse("{devices=[2,2]0,2,1,3 metadata={op_name=\"x\"}}");
    sb_hlo_sharding* b = parse("{devices=[2,2]<=[2,2]T(1,0)}");
    CHECK_OK(sb_hlo_sharding_equal(a, b, &equal, &err), err);
    CHECK(equal == 1);
    CHECK_OK(sb_hlo_sharding_equal(a, s, &equal, &err), err);
    CHECK(equal == 0);
    sb_hlo_sharding_free(a);
    sb_hlo_sharding_free(b);
  }
  sb_hlo_sharding_free(s);
}

static void errors(void) {
  sb_error* err = NULL;
  char* out = NULL;
  size_t size = 0;
  sb_hlo_sharding* s = NULL;
  sb_hlo_sharding* ok = parse("{replicated}");
  sb_hlo_sharding* v3 = parse("{mesh['x'=2], [{'x'}]}");
  int equal = 5;
  const char* diagnostic;

  CHECK(sb_hlo_sharding_parse(S("{devices=[2,2]0,1,2}"), &s, &err) == SB_ERROR_PARSE);
  CHECK(s == NULL);
  CHECK(sb_error_offset(err) != SB_NO_OFFSET);
  diagnostic = sb_error_diagnostic(err, &size);
  CHECK(size > 0 && strncmp(diagnostic, "<input>:1:", 10) == 0);
  sb_error_free(err);
  err = NULL;
  CHECK_ERROR(sb_hlo_sharding_parse(NULL, 2, &s, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_parse: text is NULL but size is not 0");
  CHECK_ERROR(sb_hlo_sharding_parse(S("{replicated}"), NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_parse: out is NULL");

  CHECK_ERROR(sb_hlo_sharding_print(ok, 1u, &out, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_print: unknown flags 1");
  CHECK_ERROR(sb_hlo_sharding_print(NULL, 0, &out, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_print: sharding is NULL");
  CHECK_ERROR(sb_hlo_sharding_print(ok, 0, NULL, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_print: out is NULL");

  /* FromProto's rules, with XLA's message. */
  CHECK_ERROR(sb_hlo_sharding_from_proto(S("type: MAXIMAL"), SB_PROTO_TEXT, &s, &err), err,
              SB_ERROR_INVALID,
              "Maximal sharding is expected to have single device assignment, but 0 has provided.");
  /* Malformed text format is located. */
  CHECK(sb_hlo_sharding_from_proto(S("type: BOGUS"), SB_PROTO_TEXT, &s, &err) == SB_ERROR_PARSE);
  CHECK(sb_error_offset(err) == 11);
  sb_error_free(err);
  err = NULL;
  /* Malformed binary is not. */
  CHECK(sb_hlo_sharding_from_proto("\xff\xff", 2, SB_PROTO_BINARY, &s, &err) == SB_ERROR_PARSE);
  CHECK(sb_error_offset(err) == SB_NO_OFFSET);
  sb_error_free(err);
  err = NULL;
  CHECK_ERROR(sb_hlo_sharding_from_proto(S("x"), 3, &s, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_from_proto: unknown format 3");
  CHECK_ERROR(sb_hlo_sharding_from_proto(NULL, 1, SB_PROTO_BINARY, &s, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_hlo_sharding_from_proto: data is NULL but size is not 0");
  CHECK_ERROR(sb_hlo_sharding_from_proto(S(""), SB_PROTO_BINARY, NULL, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_hlo_sharding_from_proto: out is NULL");

  /* A V3 leaf travels as named_sharding (field 14). */
  CHECK_OK(sb_hlo_sharding_to_proto(v3, SB_PROTO_BINARY, &out, &size, &err), err);
  CHECK_OK(sb_hlo_sharding_from_proto(out, size, SB_PROTO_BINARY, &s, &err), err);
  sb_string_free(out);
  CHECK_OK(sb_hlo_sharding_equal(s, v3, &equal, &err), err);
  CHECK(equal == 1);
  sb_hlo_sharding_free(s);
  CHECK_ERROR(sb_hlo_sharding_to_proto(ok, -1, &out, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_to_proto: unknown format -1");
  CHECK_ERROR(sb_hlo_sharding_to_proto(NULL, SB_PROTO_TEXT, &out, &size, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_hlo_sharding_to_proto: sharding is NULL");
  CHECK_ERROR(sb_hlo_sharding_to_proto(ok, SB_PROTO_TEXT, NULL, &size, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_hlo_sharding_to_proto: out is NULL");

  CHECK_ERROR(sb_hlo_sharding_equal(ok, NULL, &equal, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_equal: b is NULL");
  CHECK(equal == 0);
  CHECK_ERROR(sb_hlo_sharding_equal(NULL, ok, &equal, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_equal: a is NULL");
  CHECK_ERROR(sb_hlo_sharding_equal(ok, ok, NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_hlo_sharding_equal: equal is NULL");

  sb_hlo_sharding_free(ok);
  sb_hlo_sharding_free(v3);
}

int main(void) {
  text();
  protos();
  errors();
  if (sb_check_failures) fprintf(stderr, "%d check(s) failed\n", sb_check_failures);
  return sb_check_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
