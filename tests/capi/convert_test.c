/* The C API's conversions: export, import (onto a mesh and inferred), whole
 * modules, explain, and every error path. Expected strings are the ones
 * OpenXLA's Shardy export and import give (README examples, which
 * tests/golden/convert/ checks through the CLI). */
#include <stdlib.h>

#include "check.h"

static sb_context* ctx;

static sb_mesh* mesh(const char* text) {
  sb_mesh* m = NULL;
  sb_error* err = NULL;
  CHECK_OK(sb_mesh_parse(ctx, text, strlen(text), NULL, 0, &m, &err), err);
  return m;
}

static sb_sdy_sharding* sdy(const char* text) {
  sb_sdy_sharding* s = NULL;
  sb_error* err = NULL;
  CHECK_OK(sb_sdy_sharding_parse(ctx, text, strlen(text), &s, &err), err);
  return s;
}

static sb_hlo_sharding* hlo(const char* text) {
  sb_hlo_sharding* s = NULL;
  sb_error* err = NULL;
  CHECK_OK(sb_hlo_sharding_parse(text, strlen(text), &s, &err), err);
  return s;
}

/* Checks that `s` prints as `expected`. */
static void checkHlo(const sb_hlo_sharding* s, const char* expected) {
  char* out = NULL;
  size_t size = 0;
  sb_error* err = NULL;
  CHECK_OK(sb_hlo_sharding_print(s, SB_PRINT_METADATA, &out, &size, &err), err);
  CHECK_STR(out, size, expected);
  sb_string_free(out);
}

static void checkSdy(const sb_sdy_sharding* s, const char* expected) {
  char* out = NULL;
  size_t size = 0;
  sb_error* err = NULL;
  CHECK_OK(sb_sdy_sharding_print(s, 0, &out, &size, &err), err);
  CHECK_STR(out, size, expected);
  sb_string_free(out);
}

static void exportAndImport(void) {
  sb_error* err = NULL;
  sb_mesh* m = mesh("<[\"x\"=8, \"y\"=4]>");
  sb_sdy_sharding* s = sdy("#sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2}]>");
  sb_hlo_sharding* h = NULL;
  sb_sdy_sharding* back = NULL;

  CHECK_OK(sb_export(s, (const sb_mesh* const*)&m, 1, NULL, &h, &err), err);
  checkHlo(h, "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  CHECK_OK(sb_import(ctx, h, m, NULL, &back, &err), err);
  checkSdy(back, "#sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2}]>");
  sb_sdy_sharding_free(back);
  sb_hlo_sharding_free(h);
  sb_sdy_sharding_free(s);
  sb_mesh_free(m);

  /* Manual axes and V3, as README's `export` examples. */
  {
    sb_mesh* m4 = mesh("<[\"a\"=2, \"b\"=2, \"c\"=2, \"d\"=2]>");
    sb_sdy_sharding* d = sdy("#sdy.sharding<@mesh, [{}, {\"d\"}]>");
    sb_string_view manual[2] = {{"a", 1}, {"b", 1}};
    sb_export_options options = SB_EXPORT_OPTIONS_INIT;
    options.manual_axes = manual;
    options.manual_axis_count = 2;
    CHECK_OK(sb_export(d, (const sb_mesh* const*)&m4, 1, &options, &h, &err), err);
    checkHlo(h, "{devices=[1,2,4,2]<=[8,2]T(1,0) last_tile_dims={manual, replicated}}");
    sb_hlo_sharding_free(h);
    sb_sdy_sharding_free(d);
    sb_mesh_free(m4);
  }
  {
    sb_mesh* m2 = mesh("<[\"i\"=2, \"j\"=2]>");
    sb_sdy_sharding* d = sdy("#sdy.sharding<@mesh, [{\"i\", ?}, {?}]>");
    sb_string_view manual[1] = {{"j", 1}};
    sb_export_options options = SB_EXPORT_OPTIONS_INIT;
    options.manual_axes = manual;
    options.manual_axis_count = 1;
    options.v3 = 1;
    CHECK_OK(sb_export(d, (const sb_mesh* const*)&m2, 1, &options, &h, &err), err);
    checkHlo(h, "{mesh['i'=2,'j'=2], [{'i', ?}, {?}], manual={'j'}}");
    sb_hlo_sharding_free(h);
    sb_sdy_sharding_free(d);
    sb_mesh_free(m2);
  }
  /* A per-value sharding exports to a tuple, and a tuple imports back. */
  {
    sb_mesh* m2 = mesh("<[\"x\"=2]>");
    sb_sdy_sharding* pv = sdy("#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, <@mesh, []>]>");
    sb_import_options options = SB_IMPORT_OPTIONS_INIT;
    CHECK_OK(sb_export(pv, (const sb_mesh* const*)&m2, 1, NULL, &h, &err), err);
    checkHlo(h, "{{devices=[2]<=[2]}, {replicated}}");
    CHECK_OK(sb_import(ctx, h, m2, &options, &back, &err), err);
    CHECK(sb_sdy_sharding_is_per_value(back) == 1);
    checkSdy(back, "#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, <@mesh, []>]>");
    sb_sdy_sharding_free(back);
    options.rank = 2;
    options.open_dims = 1;
    {
      sb_hlo_sharding* r = hlo("{replicated}");
      CHECK_OK(sb_import(ctx, r, m2, &options, &back, &err), err);
      checkSdy(back, "#sdy.sharding<@mesh, [{?}, {?}]>");
      sb_sdy_sharding_free(back);
      sb_hlo_sharding_free(r);
    }
    sb_hlo_sharding_free(h);
    sb_sdy_sharding_free(pv);
    sb_mesh_free(m2);
  }
}

static void exportErrors(void) {
  sb_error* err = NULL;
  sb_mesh* m = mesh("<[\"a\"=2]>");
  sb_sdy_sharding* s = sdy("#sdy.sharding<@mesh, [{\"a\"}]>");
  sb_sdy_sharding* bad = sdy("#sdy.sharding<@mesh, [{\"z\"}]>");
  sb_hlo_sharding* h = (sb_hlo_sharding*)&err;
  sb_export_options options = SB_EXPORT_OPTIONS_INIT;
  sb_string_view manual[1] = {{"q", 1}};
  sb_context* other = NULL;
  sb_mesh* foreign = NULL;
  /* A newer caller's options: the library's struct plus a field it does not know. */
  union {
    sb_export_options options;
    unsigned char bytes[sizeof(sb_export_options) + 8];
  } big;

  CHECK(sb_export(bad, (const sb_mesh* const*)&m, 1, NULL, &h, &err) == SB_ERROR_INVALID);
  CHECK(h == NULL);
  CHECK(sb_error_offset(err) == 23);
  CHECK_ERROR(SB_ERROR_INVALID, err, SB_ERROR_INVALID, "unknown axis name: \"z\"");
  CHECK_ERROR(sb_export(s, NULL, 0, NULL, &h, &err), err, SB_ERROR_NOT_FOUND, "unknown mesh: @mesh");
  options.manual_axes = manual;
  options.manual_axis_count = 1;
  CHECK_ERROR(sb_export(s, (const sb_mesh* const*)&m, 1, &options, &h, &err), err, SB_ERROR_INVALID,
              "unknown manual axis: \"q\"");
  manual[0].data = NULL;
  CHECK_ERROR(sb_export(s, (const sb_mesh* const*)&m, 1, &options, &h, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_export: options->manual_axes has a NULL entry");
  options.manual_axis_count = 0;
  options.struct_size = 0;
  CHECK_ERROR(sb_export(s, (const sb_mesh* const*)&m, 1, &options, &h, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_export: options->struct_size is not a size this library knows");
  /* Fine while the unknown tail is zero. */
  memset(&big, 0, sizeof big);
  big.options = options;
  big.options.struct_size = sizeof big;
  CHECK_OK(sb_export(s, (const sb_mesh* const*)&m, 1, &big.options, &h, &err), err);
  sb_hlo_sharding_free(h);
  big.bytes[sizeof big - 1] = 1;
  CHECK_ERROR(sb_export(s, (const sb_mesh* const*)&m, 1, &big.options, &h, &err),
              err, SB_ERROR_INVALID_ARGUMENT,
              "sb_export: options->struct_size is not a size this library knows");
  CHECK_ERROR(sb_export(NULL, NULL, 0, NULL, &h, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_export: sharding is NULL");
  CHECK_ERROR(sb_export(s, NULL, 0, NULL, NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_export: out is NULL");
  CHECK_ERROR(sb_export(s, NULL, 2, NULL, &h, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_export: meshes is NULL but mesh_count is 2");
  CHECK_OK(sb_context_create(&other, &err), err);
  CHECK_OK(sb_mesh_parse(other, S("<[\"a\"=2]>"), NULL, 0, &foreign, &err), err);
  CHECK_ERROR(sb_export(s, (const sb_mesh* const*)&foreign, 1, NULL, &h, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_export: meshes[0] belongs to another context");
  sb_mesh_free(foreign);
  sb_context_free(other);

  sb_sdy_sharding_free(s);
  sb_sdy_sharding_free(bad);
  sb_mesh_free(m);
}

static void importErrors(void) {
  sb_error* err = NULL;
  sb_mesh* m = mesh("<[\"x\"=2, \"y\"=2]>");
  sb_hlo_sharding* h = hlo("{devices=[2,2]<=[4]}");
  sb_hlo_sharding* ring = hlo("{devices=[2,2]0,1,3,2}");
  sb_sdy_sharding* out = (sb_sdy_sharding*)&err;
  sb_import_options options = SB_IMPORT_OPTIONS_INIT;
  sb_context* other = NULL;

  options.rank = 3;
  CHECK_ERROR(sb_import(ctx, h, m, &options, &out, &err), err, SB_ERROR_INVALID,
              "sharding {devices=[2,2]<=[4]} tiles 2 dimensions but the tensor has rank 3");
  CHECK(out == NULL);
  options.rank = -2;
  CHECK_ERROR(sb_import(ctx, h, m, &options, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: options->rank must be -1 or at least 0, got -2");
  options.rank = -1;
  CHECK_ERROR(sb_import(ctx, ring, m, &options, &out, &err), err, SB_ERROR_UNSUPPORTED,
              "sharding {devices=[2,2]0,1,3,2} cannot be expressed on mesh #sdy.mesh<[\"x\"=2, \"y\"=2]>: "
              "its devices in mesh order, devices=[2,2]0,1,3,2, are not an iota");
  options.struct_size = 1;
  CHECK_ERROR(sb_import(ctx, h, m, &options, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: options->struct_size is not a size this library knows");
  CHECK_ERROR(sb_import(ctx, h, NULL, NULL, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: mesh is NULL (sb_import_inferred infers one)");
  CHECK_ERROR(sb_import(ctx, NULL, m, NULL, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: sharding is NULL");
  CHECK_ERROR(sb_import(NULL, h, m, NULL, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: context is NULL");
  CHECK_ERROR(sb_import(ctx, h, m, NULL, NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: out is NULL");
  CHECK_OK(sb_context_create(&other, &err), err);
  CHECK_ERROR(sb_import(other, h, m, NULL, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import: mesh belongs to another context");
  sb_context_free(other);

  sb_hlo_sharding_free(h);
  sb_hlo_sharding_free(ring);
  sb_mesh_free(m);
}

static void importInferred(void) {
  sb_error* err = NULL;
  sb_hlo_sharding* in[3];
  sb_import_result* result = NULL;
  sb_import_options options = SB_IMPORT_OPTIONS_INIT;
  char* out = NULL;
  size_t size = 0;

  in[0] = hlo("{devices=[2,4]<=[8]}");
  in[1] = hlo("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
  in[2] = hlo("{maximal device=0}");
  CHECK_OK(sb_import_inferred(ctx, (const sb_hlo_sharding* const*)in, 3, NULL, &result, &err), err);
  CHECK(sb_import_result_mesh_count(result) == 2);
  CHECK_OK(sb_mesh_print(sb_import_result_mesh(result, 0), SB_PRINT_MESH_SYMBOL, &out, &size, &err), err);
  CHECK_STR(out, size, "sdy.mesh @mesh = <[\"_axis_0\"=2, \"_axis_1\"=4]>");
  sb_string_free(out);
  CHECK_OK(sb_mesh_print(sb_import_result_mesh(result, 1), SB_PRINT_MESH_SYMBOL, &out, &size, &err), err);
  CHECK_STR(out, size, "sdy.mesh @single_device_0 = <[], device_ids=[0]>");
  sb_string_free(out);
  CHECK(sb_import_result_mesh(result, 2) == NULL);
  checkSdy(sb_import_result_sharding(result, 0), "#sdy.sharding<@mesh, [{\"_axis_0\"}, {\"_axis_1\"}]>");
  checkSdy(sb_import_result_sharding(result, 1), "#sdy.sharding<@mesh, [{\"_axis_1\"}, {}]>");
  checkSdy(sb_import_result_sharding(result, 2), "#sdy.sharding<@single_device_0, []>");
  CHECK(sb_import_result_sharding(result, 3) == NULL);
  /* The inferred meshes verify the imported shardings. */
  {
    const sb_mesh* meshes[2];
    meshes[0] = sb_import_result_mesh(result, 0);
    meshes[1] = sb_import_result_mesh(result, 1);
    CHECK_OK(sb_sdy_sharding_verify(sb_import_result_sharding(result, 2), meshes, 2, NULL, 0, &err), err);
  }
  sb_import_result_free(result);
  sb_hlo_sharding_free(in[0]);
  sb_hlo_sharding_free(in[1]);
  sb_hlo_sharding_free(in[2]);

  /* No common factorisation: one axis over all devices, or upstream's error. */
  in[0] = hlo("{devices=[2,3]<=[6]}");
  in[1] = hlo("{devices=[3,2]<=[6]}");
  CHECK_OK(sb_import_inferred(ctx, (const sb_hlo_sharding* const*)in, 2, NULL, &result, &err), err);
  CHECK_OK(sb_mesh_print(sb_import_result_mesh(result, 0), 0, &out, &size, &err), err);
  CHECK_STR(out, size, "#sdy.mesh<[\"_axis_0\"=6]>");
  sb_string_free(out);
  sb_import_result_free(result);
  options.upstream_device_order = 1;
  CHECK_ERROR(sb_import_inferred(ctx, (const sb_hlo_sharding* const*)in, 2, &options, &result, &err), err,
              SB_ERROR_UNSUPPORTED,
              "no common mesh for shardings {devices=[2,3]<=[6]} and {devices=[3,2]<=[6]}: local meshes "
              "[2,3] and [3,2] have no common factorisation");
  CHECK(result == NULL);
  /* A leaf that does not fit its rank names its input. */
  options.upstream_device_order = 0;
  options.rank = 1;
  CHECK_ERROR(sb_import_inferred(ctx, (const sb_hlo_sharding* const*)in, 2, &options, &result, &err), err,
              SB_ERROR_INVALID,
              "input 1 ({devices=[2,3]<=[6]}): sharding {devices=[2,3]<=[6]} tiles 2 dimensions but the "
              "tensor has rank 1");
  options.rank = -5;
  CHECK_ERROR(sb_import_inferred(ctx, (const sb_hlo_sharding* const*)in, 2, &options, &result, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_import_inferred: options->rank must be -1 or at least 0, got -5");
  options.rank = -1;
  options.struct_size = 0;
  CHECK_ERROR(sb_import_inferred(ctx, (const sb_hlo_sharding* const*)in, 2, &options, &result, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_import_inferred: options->struct_size is not a size this library knows");
  CHECK_ERROR(sb_import_inferred(ctx, NULL, 2, NULL, &result, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import_inferred: shardings is NULL but count is not 0");
  {
    const sb_hlo_sharding* holes[2];
    holes[0] = in[0];
    holes[1] = NULL;
    CHECK_ERROR(sb_import_inferred(ctx, holes, 2, NULL, &result, &err), err, SB_ERROR_INVALID_ARGUMENT,
                "sb_import_inferred: shardings[1] is NULL");
  }
  CHECK_ERROR(sb_import_inferred(NULL, NULL, 0, NULL, &result, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import_inferred: context is NULL");
  CHECK_ERROR(sb_import_inferred(ctx, NULL, 0, NULL, NULL, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_import_inferred: out is NULL");
  /* No input at all: the empty mesh. */
  CHECK_OK(sb_import_inferred(ctx, NULL, 0, NULL, &result, &err), err);
  CHECK(sb_import_result_mesh_count(result) == 1);
  sb_import_result_free(result);
  sb_hlo_sharding_free(in[0]);
  sb_hlo_sharding_free(in[1]);
}

static const char kModule[] =
    "module {\n"
    "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"
    "  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>}) "
    "-> tensor<8x16xf32> {\n"
    "    return %arg0 : tensor<8x16xf32>\n"
    "  }\n"
    "}\n";

static void modules(void) {
  sb_error* err = NULL;
  sb_module_result* hloModule = NULL;
  sb_module_result* sdyModule = NULL;
  sb_module_result* out = (sb_module_result*)&err;
  sb_string_view v3[1] = {{S("enable-hlo-sharding-v3=true")}};
  sb_string_view options[1];
  size_t size = 0;
  const char* text;

  CHECK_OK(sb_convert_module(kModule, strlen(kModule), SB_TO_HLO, NULL, 0, &hloModule, &err), err);
  text = sb_module_result_text(hloModule, &size);
  CHECK_STR(text, size,
            "module {\n"
            "  func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = \"{devices=[4,2]<=[2,4]T(1,0)}\"}) "
            "-> tensor<8x16xf32> {\n"
            "    return %arg0 : tensor<8x16xf32>\n"
            "  }\n"
            "}\n");
  CHECK(sb_module_result_warning_count(hloModule) == 0);
  CHECK(sb_module_result_warning(hloModule, 0, NULL, NULL) == NULL);
  CHECK_OK(sb_convert_module(text, size, SB_TO_SDY, NULL, 0, &sdyModule, &err), err);
  text = sb_module_result_text(sdyModule, &size);
  CHECK_STR(text, size,
            "module {\n"
            "  sdy.mesh @mesh = <[\"_axis_0\"=2, \"_axis_1\"=4]>\n"
            "  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, "
            "[{\"_axis_1\"}, {\"_axis_0\"}]>}) -> tensor<8x16xf32> {\n"
            "    return %arg0 : tensor<8x16xf32>\n"
            "  }\n"
            "}\n");
  sb_module_result_free(hloModule);
  sb_module_result_free(sdyModule);

  CHECK_OK(sb_convert_module(kModule, strlen(kModule), SB_TO_HLO, v3, 1, &hloModule, &err), err);
  text = sb_module_result_text(hloModule, &size);
  CHECK(strstr(text, "mhlo.sharding = \"{mesh['x'=2,'y'=4], [{'y'}, {'x'}]}\"") != NULL);
  sb_module_result_free(hloModule);

  /* An op left in sdy form is a warning, located in the input. */
  {
    static const char kManual[] =
        "module {\n"
        "  sdy.mesh @mesh = <[\"a\"=2]>\n"
        "  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] "
        "out_shardings=[<@mesh, [{\"a\"}]>] manual_axes={\"a\"} (%x: tensor<2xf32>) {\n"
        "      sdy.return %x : tensor<2xf32>\n"
        "    } : (tensor<4xf32>) -> tensor<4xf32>\n"
        "    return %0 : tensor<4xf32>\n"
        "  }\n"
        "}\n";
    /* The export pipeline lowers the manual computation, as `convert --to hlo` does. */
    CHECK_OK(sb_convert_module(kManual, strlen(kManual), SB_TO_HLO, NULL, 0, &hloModule, &err), err);
    CHECK(sb_module_result_warning_count(hloModule) == 0);
    text = sb_module_result_text(hloModule, &size);
    CHECK(strstr(text, "stablehlo.custom_call @SPMDFullToShardShape") != NULL);
    CHECK(strstr(text, "@xla.sdy.inlinable_manual_computation_body") != NULL);
    CHECK(strstr(text, "sdy.manual_computation") == NULL && strstr(text, "sdy.mesh") == NULL);
    CHECK(sb_module_result_warning(hloModule, 0, NULL, &size) == NULL);
    sb_module_result_free(hloModule);
  }

  /* Errors. */
  {
    static const char kBad[] = "module {\n  sdy.mesh @mesh = <[\"x\"=2]>\n  func.func @f(%a: tensor<4xf32> "
                               "{sdy.sharding = #sdy.sharding<@mesh, [{\"q\"}]>}) {\n  }\n}\n";
    CHECK(sb_convert_module(kBad, strlen(kBad), SB_TO_HLO, NULL, 0, &out, &err) == SB_ERROR_INVALID);
    CHECK(out == NULL);
    CHECK(sb_error_offset(err) == (size_t)(strstr(kBad, "\"q\"") - kBad));
    CHECK(strncmp(sb_error_diagnostic(err, NULL), "<input>:3:", 10) == 0);
    CHECK_ERROR(SB_ERROR_INVALID, err, SB_ERROR_INVALID, "unknown axis name: \"q\"");
  }
  options[0].data = "enable-hlo-sharding-v3";
  options[0].size = strlen(options[0].data);
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_HLO, options, 1, &out, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: module option \"enable-hlo-sharding-v3\" is not name=value");
  options[0].data = "inline-meshes=true";
  options[0].size = strlen(options[0].data);
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_HLO, options, 1, &out, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: unknown module option \"inline-meshes\" (known: enable-hlo-sharding-v3, "
              "upstream-device-order)");
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_SDY, v3, 1, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: module option \"enable-hlo-sharding-v3\" applies to SB_TO_HLO only");
  options[0].data = "upstream-device-order=true";
  options[0].size = strlen(options[0].data);
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_HLO, options, 1, &out, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: module option \"upstream-device-order\" applies to SB_TO_SDY only");
  CHECK_OK(sb_convert_module(S("module {}"), SB_TO_SDY, options, 1, &out, &err), err);
  sb_module_result_free(out);
  options[0].data = "upstream-device-order=yes";
  options[0].size = strlen(options[0].data);
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_SDY, options, 1, &out, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: module option \"upstream-device-order\" takes true or false, got \"yes\"");
  options[0].data = NULL;
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_SDY, options, 1, &out, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_convert_module: options[0] is NULL");
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_SDY, NULL, 1, &out, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_convert_module: options is NULL but option_count is not 0");
  CHECK_ERROR(sb_convert_module(S("module {}"), 7, NULL, 0, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: unknown direction 7");
  CHECK_ERROR(sb_convert_module(NULL, 4, SB_TO_SDY, NULL, 0, &out, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_convert_module: text is NULL but size is not 0");
  CHECK_ERROR(sb_convert_module(S("module {}"), SB_TO_SDY, NULL, 0, NULL, &err), err,
              SB_ERROR_INVALID_ARGUMENT, "sb_convert_module: out is NULL");
}

static void explain(void) {
  sb_error* err = NULL;
  sb_mesh* m = mesh("<[\"x\"=8, \"y\"=4]>");
  sb_hlo_sharding* h = hlo("{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  sb_hlo_sharding* tuple = hlo("{{replicated}, {replicated}}");
  sb_sdy_sharding* s = sdy("#sdy.sharding<@mesh, [{\"y\"}, {\"x\":(2)2}]>");
  sb_sdy_sharding* pv = sdy("#sdy.sharding_per_value<[<@mesh, []>]>");
  sb_explain_options options = SB_EXPLAIN_OPTIONS_INIT;
  sb_string_view manual[1] = {{"x", 1}};
  char* json = (char*)&err;
  char* json2 = NULL;
  size_t size = 0, size2 = 0;

  options.shape = "f32[16,32]";
  options.shape_size = strlen(options.shape);
  CHECK_OK(sb_explain_hlo(ctx, h, m, &options, &json, &size, &err), err);
  CHECK(json != NULL && json[0] == '{' && json[size] == '\0');
  CHECK(strstr(json, "\"sdy\": \"#sdy.sharding<@mesh, [{\\\"y\\\"}, {\\\"x\\\":(2)2}]>\"") != NULL);
  CHECK(strstr(json, "\"source\": \"given\"") != NULL);
  /* The sdy form of the same sharding explains to the same tiles. */
  CHECK_OK(sb_explain_sdy(ctx, s, (const sb_mesh* const*)&m, 1, &options, &json2, &size2, &err), err);
  CHECK(strstr(json2, "\"input_format\": \"sdy\"") != NULL);
  CHECK(strstr(json2, "\"hlo\": \"{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}\"") != NULL);
  sb_string_free(json);
  sb_string_free(json2);
  /* Without a mesh, the inferred one. */
  CHECK_OK(sb_explain_hlo(ctx, h, NULL, NULL, &json, &size, &err), err);
  CHECK(strstr(json, "\"source\": \"inferred\"") != NULL);
  sb_string_free(json);

  options.shape = "f32[16,";
  options.shape_size = strlen(options.shape);
  CHECK(sb_explain_hlo(ctx, h, m, &options, &json, &size, &err) == SB_ERROR_PARSE);
  CHECK(json == NULL && size == 0);
  CHECK(sb_error_offset(err) != SB_NO_OFFSET);
  sb_error_free(err);
  err = NULL;
  /* XLA's Validate against the shape, with its message. */
  options.shape = "f32[16,32,8]";
  options.shape_size = strlen(options.shape);
  CHECK_ERROR(sb_explain_hlo(ctx, h, m, &options, &json, &size, &err), err, SB_ERROR_INVALID,
              "Number of tile assignment dimensions (excluding subgroups) is different than the input "
              "rank. sharding={devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}, "
              "input_shape=f32[16,32,8]\n\tNote: While validating sharding "
              "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate} against shape f32[16,32,8]");
  CHECK(json == NULL);
  /* A converter error after verification: a manual axis the sharding uses. */
  {
    sb_hlo_sharding* out = NULL;
    sb_export_options eo = SB_EXPORT_OPTIONS_INIT;
    eo.manual_axes = manual;
    eo.manual_axis_count = 1;
    CHECK_ERROR(sb_export(s, (const sb_mesh* const*)&m, 1, &eo, &out, &err), err, SB_ERROR_INVALID,
                "operates on axis \"x\" which is already bound by a parent sdy.manual_computation op");
    CHECK(out == NULL);
  }
  options.shape = NULL;
  CHECK_ERROR(sb_explain_hlo(ctx, h, m, &options, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_hlo: options->shape is NULL but shape_size is not 0");
  options.shape_size = 0;
  CHECK_ERROR(sb_explain_hlo(ctx, tuple, NULL, &options, &json, &size, &err), err, SB_ERROR_UNSUPPORTED,
              "explain takes one sharding, got a tuple of 2 (explain its elements one at a time)");
  options.manual_axes = manual;
  options.manual_axis_count = 1;
  CHECK_ERROR(sb_explain_hlo(ctx, h, m, &options, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_hlo: manual axes apply to an sdy sharding; an HLO sharding's manual axes are "
              "its MANUAL subgroup");
  CHECK_ERROR(sb_explain_sdy(ctx, s, (const sb_mesh* const*)&m, 1, &options, &json, &size, &err), err,
              SB_ERROR_INVALID,
              "operates on axis \"x\" which is already bound by a parent sdy.manual_computation op");
  options.manual_axis_count = 0;
  CHECK_ERROR(sb_explain_sdy(ctx, pv, (const sb_mesh* const*)&m, 1, &options, &json, &size, &err), err,
              SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_sdy: explain takes one sharding, not a sharding_per_value");
  CHECK_ERROR(sb_explain_sdy(ctx, s, NULL, 0, &options, &json, &size, &err), err, SB_ERROR_NOT_FOUND,
              "unknown mesh: @mesh");
  CHECK_ERROR(sb_explain_sdy(ctx, NULL, NULL, 0, NULL, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_sdy: sharding is NULL");
  CHECK_ERROR(sb_explain_sdy(NULL, s, NULL, 0, NULL, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_sdy: context is NULL");
  CHECK_ERROR(sb_explain_sdy(ctx, s, NULL, 0, NULL, NULL, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_sdy: json is NULL");
  options.struct_size = 3;
  CHECK_ERROR(sb_explain_sdy(ctx, s, NULL, 0, &options, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_sdy: options->struct_size is not a size this library knows");
  CHECK_ERROR(sb_explain_hlo(ctx, h, NULL, &options, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_hlo: options->struct_size is not a size this library knows");
  CHECK_ERROR(sb_explain_hlo(ctx, NULL, NULL, NULL, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_hlo: sharding is NULL");
  CHECK_ERROR(sb_explain_hlo(NULL, h, NULL, NULL, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_hlo: context is NULL");
  CHECK_ERROR(sb_explain_hlo(ctx, h, NULL, NULL, NULL, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
              "sb_explain_hlo: json is NULL");
  {
    sb_context* other = NULL;
    CHECK_OK(sb_context_create(&other, &err), err);
    CHECK_ERROR(sb_explain_hlo(other, h, m, NULL, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
                "sb_explain_hlo: mesh belongs to another context");
    CHECK_ERROR(sb_explain_sdy(other, s, NULL, 0, NULL, &json, &size, &err), err, SB_ERROR_INVALID_ARGUMENT,
                "sb_explain_sdy: sharding belongs to another context");
    sb_context_free(other);
  }

  sb_sdy_sharding_free(s);
  sb_sdy_sharding_free(pv);
  sb_hlo_sharding_free(h);
  sb_hlo_sharding_free(tuple);
  sb_mesh_free(m);
}

/* `convert_test explain SHARDING MESH`: prints sb_explain_hlo's document, for
 * the CTest that compares it with `shardbridge explain --json`. */
static int explainMain(const char* sharding, const char* meshText) {
  sb_error* err = NULL;
  sb_hlo_sharding* h = NULL;
  sb_mesh* m = NULL;
  char* json = NULL;
  size_t size = 0;
  int rc = 1;
  if (sb_hlo_sharding_parse(sharding, strlen(sharding), &h, &err) == SB_OK &&
      sb_mesh_parse(ctx, meshText, strlen(meshText), NULL, 0, &m, &err) == SB_OK &&
      sb_explain_hlo(ctx, h, m, NULL, &json, &size, &err) == SB_OK) {
    fwrite(json, 1, size, stdout);
    rc = 0;
  }
  if (err) fputs(sb_error_diagnostic(err, NULL), stderr);
  sb_error_free(err);
  sb_string_free(json);
  sb_mesh_free(m);
  sb_hlo_sharding_free(h);
  return rc;
}

int main(int argc, char** argv) {
  sb_error* err = NULL;
  int rc;
  CHECK_OK(sb_context_create(&ctx, &err), err);
  if (argc == 4 && strcmp(argv[1], "explain") == 0) {
    rc = explainMain(argv[2], argv[3]);
    sb_context_free(ctx);
    return rc;
  }
  exportAndImport();
  exportErrors();
  importErrors();
  importInferred();
  modules();
  explain();
  sb_context_free(ctx);
  if (sb_check_failures) fprintf(stderr, "%d check(s) failed\n", sb_check_failures);
  return sb_check_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
