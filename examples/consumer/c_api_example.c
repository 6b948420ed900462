/* A C11 program using only <shardbridge/c_api.h>, built in CTest with
 *   cc -std=c11 c_api_example.c $(pkg-config --cflags --libs shardbridge-c)
 * It converts a sharding both ways and reports a located error. */
#include <shardbridge/c_api.h>
#include <stdio.h>
#include <string.h>

/* Prints the error's diagnostic, frees it, returns 1. */
static int report(sb_error* err) {
  fputs(sb_error_diagnostic(err, NULL), stderr);
  sb_error_free(err);
  return 1;
}

int main(void) {
  const char* meshText = "<[\"x\"=2, \"y\"=4]>";
  const char* sdyText = "#sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>";
  const char* badText = "#sdy.sharding<@mesh, [{\"y\"}, {\"z\"}]>";
  sb_context* ctx = NULL;
  sb_mesh* mesh = NULL;
  sb_sdy_sharding *sdy = NULL, *back = NULL, *bad = NULL;
  sb_hlo_sharding* hlo = NULL;
  sb_error* err = NULL;
  char* text = NULL;
  size_t size = 0;
  int rc = 1;

  if (sb_abi_version() != SB_ABI_VERSION) {
    fprintf(stderr, "libshardbridge ABI %d, header %d\n", sb_abi_version(), SB_ABI_VERSION);
    return 1;
  }
  if (sb_context_create(&ctx, &err) != SB_OK ||
      sb_mesh_parse(ctx, meshText, strlen(meshText), NULL, 0, &mesh, &err) != SB_OK ||
      sb_sdy_sharding_parse(ctx, sdyText, strlen(sdyText), &sdy, &err) != SB_OK)
    goto done;

  /* sdy -> HloSharding, as OpenXLA's exporter writes it. */
  if (sb_export(sdy, (const sb_mesh* const*)&mesh, 1, NULL, &hlo, &err) != SB_OK ||
      sb_hlo_sharding_print(hlo, 0, &text, &size, &err) != SB_OK)
    goto done;
  printf("%.*s\n", (int)size, text); /* {devices=[4,2]<=[2,4]T(1,0)} */
  sb_string_free(text);

  /* ... and back onto the same mesh. */
  if (sb_import(ctx, hlo, mesh, NULL, &back, &err) != SB_OK ||
      sb_sdy_sharding_print(back, 0, &text, &size, &err) != SB_OK)
    goto done;
  printf("%.*s\n", (int)size, text); /* the input again */
  rc = size == strlen(sdyText) && memcmp(text, sdyText, size) == 0 ? 0 : 1;
  sb_string_free(text);

  /* A located error: the caret points at "z". */
  if (sb_sdy_sharding_parse(ctx, badText, strlen(badText), &bad, &err) != SB_OK) goto done;
  if (sb_sdy_sharding_verify(bad, (const sb_mesh* const*)&mesh, 1, NULL, 0, &err) == SB_OK) {
    rc = 1;
  } else {
    printf("error at byte %zu:\n%s", sb_error_offset(err), sb_error_diagnostic(err, NULL));
    sb_error_free(err);
    err = NULL;
  }

done:
  if (err) rc = report(err);
  sb_sdy_sharding_free(bad);
  sb_sdy_sharding_free(back);
  sb_hlo_sharding_free(hlo);
  sb_sdy_sharding_free(sdy);
  sb_mesh_free(mesh);
  sb_context_free(ctx);
  return rc;
}
