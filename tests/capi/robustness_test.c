/* No call aborts: every prefix of valid inputs, and bytes that are no
 * sharding at all, go through every parser and converter of the C API and
 * come back as a status (and, under the asan preset, without a leak). */
#include <stdlib.h>

#include "check.h"

static sb_context* ctx;
static sb_mesh* mesh;

/* Runs `text[0, size)` through everything that reads text; returns how many
 * calls failed, for the caller to check both outcomes happen. */
static int throughEverything(const char* text, size_t size) {
  int failures = 0;
  sb_error* err = NULL;
  sb_mesh* m = NULL;
  sb_sdy_sharding* s = NULL;
  sb_hlo_sharding* h = NULL;
  sb_module_result* r = NULL;
  char* out = NULL;
  size_t n = 0;

  if (sb_mesh_parse(ctx, text, size, NULL, 0, &m, &err) != SB_OK) ++failures;
  sb_error_free(err);
  err = NULL;
  sb_mesh_free(m);

  if (sb_sdy_sharding_parse(ctx, text, size, &s, &err) == SB_OK) {
    if (sb_export(s, (const sb_mesh* const*)&mesh, 1, NULL, &h, &err) == SB_OK) {
      sb_hlo_sharding_free(h);
      h = NULL;
    } else {
      ++failures;
    }
    sb_error_free(err);
    err = NULL;
    if (sb_explain_sdy(ctx, s, (const sb_mesh* const*)&mesh, 1, NULL, &out, &n, &err) == SB_OK) {
      sb_string_free(out);
    }
    sb_error_free(err);
    err = NULL;
    sb_sdy_sharding_free(s);
  } else {
    ++failures;
  }
  sb_error_free(err);
  err = NULL;

  if (sb_hlo_sharding_parse(text, size, &h, &err) == SB_OK) {
    sb_sdy_sharding* back = NULL;
    if (sb_import(ctx, h, mesh, NULL, &back, &err) == SB_OK) sb_sdy_sharding_free(back);
    sb_error_free(err);
    err = NULL;
    if (sb_explain_hlo(ctx, h, NULL, NULL, &out, &n, &err) == SB_OK) sb_string_free(out);
    sb_error_free(err);
    err = NULL;
    sb_hlo_sharding_free(h);
  } else {
    ++failures;
  }
  sb_error_free(err);
  err = NULL;

  for (int format = SB_PROTO_BINARY; format <= SB_PROTO_JSON; ++format) {
    if (sb_hlo_sharding_from_proto(text, size, format, &h, &err) == SB_OK) {
      sb_hlo_sharding_free(h);
    } else {
      ++failures;
    }
    sb_error_free(err);
    err = NULL;
  }

  for (int direction = SB_TO_HLO; direction <= SB_TO_SDY; ++direction) {
    if (sb_convert_module(text, size, direction, NULL, 0, &r, &err) == SB_OK) {
      sb_module_result_free(r);
    } else {
      ++failures;
    }
    sb_error_free(err);
    err = NULL;
  }
  return failures;
}

int main(void) {
  static const char* const kInputs[] = {
      "#sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2, ?}p1], replicated={\"z\"}, unreduced=max{\"w\"}>",
      "#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, <@mesh, []>]>",
      "sdy.mesh @mesh = <[\"x\"=8, \"y\"=4, \"z\"=1, \"w\"=1], device_ids=[0, 1, 2, 3]>",
      "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate metadata={op_name=\"a\"}}",
      "{{devices=[2,1,2]3,2,1,0 last_tile_dims={manual}}, {maximal device=3}, {unknown}}",
      "{mesh['x'=8,'y'=4], [{'x':(1)2, 'x':(4)2}, {}], unreduced={'y'}}",
      "type: OTHER tile_assignment_dimensions: 2 tile_assignment_devices: 0 tile_assignment_devices: 1",
      "module {\n  sdy.mesh @mesh = <[\"x\"=8, \"y\"=4]>\n  func.func @f(%a: tensor<8x8xf32> "
      "{sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>}) -> (tensor<8x8xf32> "
      "{mhlo.sharding = \"{devices=[4,2]<=[8]}\"}) {\n    return %a : tensor<8x8xf32>\n  }\n}\n",
  };
  sb_error* err = NULL;
  int failed = 0;
  size_t i, k;
  unsigned char noise[256];
  CHECK_OK(sb_context_create(&ctx, &err), err);
  CHECK_OK(sb_mesh_parse(ctx, S("<[\"x\"=8, \"y\"=4, \"z\"=1, \"w\"=1]>"), NULL, 0, &mesh, &err), err);

  for (i = 0; i < sizeof kInputs / sizeof kInputs[0]; ++i) {
    size_t size = strlen(kInputs[i]);
    for (k = 0; k <= size; ++k) failed += throughEverything(kInputs[i], k);
  }
  /* Pseudo-random bytes (a fixed linear congruential sequence). */
  {
    unsigned state = 20261201u;
    for (i = 0; i < 64; ++i) {
      for (k = 0; k < sizeof noise; ++k) {
        state = state * 1103515245u + 12345u;
        noise[k] = (unsigned char)(state >> 16);
      }
      failed += throughEverything((const char*)noise, 1 + i * 3);
    }
  }
  /* Most prefixes are not valid, and every call still returned. */
  CHECK(failed > 0);

  sb_mesh_free(mesh);
  sb_context_free(ctx);
  if (sb_check_failures) fprintf(stderr, "%d check(s) failed\n", sb_check_failures);
  return sb_check_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
