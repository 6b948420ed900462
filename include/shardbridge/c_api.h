/* shardbridge C API: Shardy (sdy) and XLA HloSharding conversions from C,
 * or from any language with a C FFI (Julia, Zig, Rust, Python ctypes).
 *
 * Plain C11. Link libshardbridge.so (`pkg-config --cflags --libs
 * shardbridge-c`, or the CMake target shardbridge::c). Every name starts
 * with sb_ or SB_.
 *
 *   sb_context* ctx = NULL;
 *   sb_mesh* mesh = NULL;
 *   sb_sdy_sharding* sdy = NULL;
 *   sb_hlo_sharding* hlo = NULL;
 *   sb_error* err = NULL;
 *   const char* m = "<[\"x\"=2, \"y\"=4]>";
 *   const char* s = "#sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>";
 *   if (sb_context_create(&ctx, &err) == SB_OK &&
 *       sb_mesh_parse(ctx, m, strlen(m), NULL, 0, &mesh, &err) == SB_OK &&
 *       sb_sdy_sharding_parse(ctx, s, strlen(s), &sdy, &err) == SB_OK &&
 *       sb_export(sdy, &mesh, 1, NULL, &hlo, &err) == SB_OK) {
 *     char* text; size_t size;
 *     if (sb_hlo_sharding_print(hlo, 0, &text, &size, &err) == SB_OK) {
 *       puts(text);  // {devices=[4,2]<=[2,4]T(1,0)}
 *       sb_string_free(text);
 *     }
 *   }
 *   if (err) { fputs(sb_error_diagnostic(err, NULL), stderr); sb_error_free(err); }
 *   sb_hlo_sharding_free(hlo); sb_sdy_sharding_free(sdy); sb_mesh_free(mesh);
 *   sb_context_free(ctx);
 *
 * Conventions, for every function below:
 *   - Status. A function that can fail returns an sb_status: SB_OK (0) or one
 *     of the SB_ERROR_* codes. Its last parameter is `sb_error** error`: on
 *     failure, when `error` is not NULL, *error receives a new error object
 *     (code, message, byte offset, rendered diagnostic) that the caller
 *     frees with sb_error_free; on success *error is set to NULL. Passing
 *     NULL for `error` is allowed (only the status is reported then).
 *   - No abort. No input and no misuse the function can detect (NULL
 *     pointers, unknown flags or enum values, out-of-range indices) aborts
 *     the process or throws: it is reported as a status,
 *     SB_ERROR_INVALID_ARGUMENT for misuse. Running out of memory is
 *     SB_ERROR_OUT_OF_MEMORY. Handles that were freed, or pointers that do
 *     not come from this library, cannot be detected.
 *   - Strings. Text passed in is UTF-8 with an explicit size in bytes
 *     (`const char* text, size_t size`; it need not be NUL-terminated, and
 *     NULL is allowed when size is 0). Text and bytes handed out are
 *     allocated by the library, carry their size, have an extra NUL after
 *     the last byte for convenience (binary protobuf bytes may contain NUL
 *     themselves) and are freed with sb_string_free. Strings returned as
 *     `const char*` without "caller frees" are borrowed: they live as long
 *     as the object they come from.
 *   - Out parameters. `out` pointers must not be NULL; on failure they are
 *     set to NULL (or 0). A handle received through `out` is owned by the
 *     caller, who frees it with the matching sb_*_free. Every sb_*_free
 *     accepts NULL.
 *   - Contexts and threads. Meshes and sdy shardings belong to the context
 *     that made them and must not be used after it is freed (freeing them
 *     before or after it is fine); functions that take a context and such
 *     handles require the same context (else SB_ERROR_INVALID_ARGUMENT).
 *     HLO shardings need no context. A context may be used from several
 *     threads at once; handles are immutable, so any number of threads may
 *     read one; an sb_error belongs to the thread that received it.
 *
 * Compatibility: SB_ABI_VERSION is the version of this interface, and
 * libshardbridge.so.SB_ABI_VERSION its SONAME. Within one ABI version,
 * nothing is removed and no signature, struct layout prefix, enum value or
 * documented behaviour changes. Functions, enum values and flags may be
 * added. A parameter is never added to an existing function. A new
 * parameter comes either as a new function (sb_foo2), or, for functions
 * that take an options struct, as a new field at the end of that struct:
 * every options struct starts with `size_t struct_size`, which the caller
 * sets to sizeof the struct it was compiled with (the *_INIT macros do), and
 * the library reads only the fields that size covers, using the documented
 * default for the others. So an old caller keeps working with a new
 * library, and a new caller gets SB_ERROR_INVALID_ARGUMENT, not garbage,
 * from an old library that does not know a field it set (a struct_size
 * larger than the library's own is accepted only when the extra bytes are
 * all zero). Compare sb_abi_version() with SB_ABI_VERSION at start-up to
 * detect a mismatched library.
 */
#ifndef SHARDBRIDGE_C_API_H_
#define SHARDBRIDGE_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes (the SONAME's number). */
#define SB_ABI_VERSION 1

/* ---- status and errors ---------------------------------------------------- */

typedef int sb_status;

#define SB_OK 0
/* Malformed text or bytes. */
#define SB_ERROR_PARSE 1
/* Well-formed but breaks a rule (the sdy verifier, XLA's validation). */
#define SB_ERROR_INVALID 2
/* Well-formed and valid, but has no representation in the form asked for. */
#define SB_ERROR_UNSUPPORTED 3
/* A named thing (a mesh symbol) does not exist. */
#define SB_ERROR_NOT_FOUND 4
/* Reading or writing failed. */
#define SB_ERROR_IO 5
/* A broken invariant inside shardbridge: a bug, please report it. */
#define SB_ERROR_INTERNAL 6
/* The call itself is wrong: a NULL pointer, an unknown flag, option or enum
 * value, handles from different contexts. */
#define SB_ERROR_INVALID_ARGUMENT 7
/* An allocation failed. */
#define SB_ERROR_OUT_OF_MEMORY 8

/* The offset of an error that is about no particular byte. */
#define SB_NO_OFFSET ((size_t)-1)

typedef struct sb_error sb_error;

/* Returns the ABI version of the library linked (SB_ABI_VERSION when it was
 * built). Allocates nothing; never fails. */
int sb_abi_version(void);

/* Returns the library's version, "MAJOR.MINOR.PATCH". A static string: do
 * not free it. Never fails. */
const char* sb_version(void);

/* Returns a static lower-case name for `status` ("ok", "parse", "invalid",
 * "unsupported", "not_found", "io", "internal", "invalid_argument",
 * "out_of_memory"; "unknown" for any other value). Never fails. */
const char* sb_status_name(sb_status status);

/* The error's code, one of SB_ERROR_*. SB_ERROR_INVALID_ARGUMENT for a NULL
 * error. Allocates nothing. */
sb_status sb_error_code(const sb_error* error);

/* The error's message, e.g. `unknown axis name: "c"`, without location.
 * Borrowed from `error`; NUL-terminated; its size is stored in *size when
 * `size` is not NULL. "" for a NULL error. */
const char* sb_error_message(const sb_error* error, size_t* size);

/* The byte offset of the error in the text it is about (the text passed to
 * the failing function, or the one a handle was parsed from), or
 * SB_NO_OFFSET. SB_NO_OFFSET for a NULL error. Allocates nothing. */
size_t sb_error_offset(const sb_error* error);

/* The error's note: one more line of context, MLIR style, e.g.
 * "failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to
 * be a `::llvm::ArrayRef<DimensionShardingAttr>`" under the sdy parser's
 * "expected ','". "" when the error has none (and for a NULL error).
 * Borrowed from `error`; NUL-terminated; size in *size when `size` is not
 * NULL. */
const char* sb_error_note(const sb_error* error, size_t* size);

/* The byte offset the note is about, in the same text as sb_error_offset,
 * or SB_NO_OFFSET (no note, a note about no particular byte, or NULL).
 * Allocates nothing. */
size_t sb_error_note_offset(const sb_error* error);

/* The error rendered for people, MLIR style, ending in a newline:
 *   <input>:1:28: error: unknown axis name: "c"
 *   #sdy.sharding<@mesh, [{}, {"c"}]>
 *                              ^
 * or `<input>: error: MESSAGE` without an offset; an error with a note ends
 * in one more line, `<input>:L:C: note: NOTE` (`<input>: note: NOTE`
 * without a note offset). Borrowed from `error`; NUL-terminated; size in
 * *size when `size` is not NULL. "" for NULL. */
const char* sb_error_diagnostic(const sb_error* error, size_t* size);

/* Frees an error received from any function. NULL is allowed. */
void sb_error_free(sb_error* error);

/* Frees a string or byte buffer the library handed out. NULL is allowed. */
void sb_string_free(char* string);

/* A UTF-8 string with an explicit size, as used in arrays and options. */
typedef struct sb_string_view {
  const char* data; /* may be NULL when size is 0 */
  size_t size;
} sb_string_view;

/* ---- context ------------------------------------------------------------------ */

/* Owns the sdy attributes of the meshes and sdy shardings made with it.
 * Thread-safe. */
typedef struct sb_context sb_context;

/* Creates a context in *out, freed with sb_context_free.
 * Owns: *out is the caller's (sb_context_free).
 * Errors: SB_ERROR_INVALID_ARGUMENT (out is NULL), SB_ERROR_OUT_OF_MEMORY. */
sb_status sb_context_create(sb_context** out, sb_error** error);

/* Frees a context. Handles made with it must not be used afterwards. NULL
 * is allowed. */
void sb_context_free(sb_context* context);

/* ---- meshes ------------------------------------------------------------------- */

/* A verified sdy mesh with the symbol name shardings refer to it by
 * (`@mesh`). */
typedef struct sb_mesh sb_mesh;

/* Print flags (sb_mesh_print, sb_sdy_sharding_print). */
/* Write `"` as `\22`, the form inside MLIR string attributes. */
#define SB_PRINT_ESCAPE_QUOTES 1u
/* sb_mesh_print: print the `sdy.mesh @NAME = <...>` op instead of
 * `#sdy.mesh<...>`. */
#define SB_PRINT_MESH_SYMBOL 2u
/* sb_hlo_sharding_print: include `metadata={...}`. */
#define SB_PRINT_METADATA 4u

/* Parses and verifies a mesh: `#sdy.mesh<["x"=2, "y"=4]>`, the bare
 * `<["x"=2], device_ids=[1, 0]>`, or the op `sdy.mesh @NAME = <...>`.
 * Its name is `name` when given (name_size > 0), else the op's NAME, else
 * "mesh"; a mesh named neither way is "unnamed": passed alone in a list of
 * meshes it stands for whatever mesh name a sharding refers to (as the
 * CLI's --mesh without NAME=).
 * Owns: *out is the caller's (sb_mesh_free); it belongs to `context`.
 * Errors: SB_ERROR_PARSE (located in `text`), SB_ERROR_INVALID (Shardy's
 * mesh rules, e.g. `duplicate axis name: "a"`, located), and
 * SB_ERROR_INVALID_ARGUMENT for a NULL context or out, or for text that is
 * an sdy sharding rather than a mesh. */
sb_status sb_mesh_parse(sb_context* context, const char* text, size_t size, const char* name,
                        size_t name_size, sb_mesh** out, sb_error** error);

/* The mesh's symbol name, without `@`. Borrowed; NUL-terminated; size in
 * *size when not NULL. "" for NULL. */
const char* sb_mesh_name(const sb_mesh* mesh, size_t* size);

/* Prints the mesh in Shardy's canonical form, `#sdy.mesh<["x"=2, "y"=4]>`,
 * or with SB_PRINT_MESH_SYMBOL `sdy.mesh @mesh = <["x"=2, "y"=4]>`;
 * SB_PRINT_ESCAPE_QUOTES writes quotes as \22.
 * Owns: *out is the caller's (sb_string_free), *out_size its size.
 * Errors: SB_ERROR_INVALID_ARGUMENT (NULL mesh or out, another flag). */
sb_status sb_mesh_print(const sb_mesh* mesh, unsigned flags, char** out, size_t* out_size,
                        sb_error** error);

/* Frees a mesh. NULL is allowed. */
void sb_mesh_free(sb_mesh* mesh);

/* ---- sdy shardings ------------------------------------------------------------ */

/* An sdy sharding: one `#sdy.sharding<...>`, or the shardings of an op's
 * values, `#sdy.sharding_per_value<[...]>`. */
typedef struct sb_sdy_sharding sb_sdy_sharding;

/* Parses `#sdy.sharding<...>`, `#sdy.sharding_per_value<[...]>` or their
 * stripped forms `<@mesh, [...]>`, `<[<...>, ...]>`; `\22` reads as `"`.
 * Parsing does not verify (see sb_sdy_sharding_verify); the text is kept so
 * that later errors about the sharding (verify, export, explain) are
 * located in it.
 * Owns: *out is the caller's (sb_sdy_sharding_free); it belongs to
 * `context`.
 * Errors: SB_ERROR_PARSE (located), SB_ERROR_INVALID_ARGUMENT (NULL
 * context or out; text that is a mesh, not a sharding). */
sb_status sb_sdy_sharding_parse(sb_context* context, const char* text, size_t size,
                                sb_sdy_sharding** out, sb_error** error);

/* Checks the sharding with Shardy's rules, in Shardy's order and words,
 * against the mesh it names among `meshes` (`mesh_count` of them; meshes
 * may be NULL when mesh_count is 0; an inline mesh needs none) and, when
 * `type` is given (type_size > 0), the MLIR type of the value, e.g.
 * `tensor<8x16xf32>` (rank and type rules; a single sharding only).
 * Errors: SB_ERROR_NOT_FOUND (`unknown mesh: @m`), SB_ERROR_INVALID (e.g.
 * `sharding doesn't match tensor rank: 2 != 1`), located in the parsed text
 * when the sharding was parsed; SB_ERROR_PARSE for a type that does not
 * parse (located in `type`); SB_ERROR_INVALID_ARGUMENT (NULL sharding, NULL
 * entry in meshes, meshes of another context, a type with a per-value
 * sharding).
 * Allocates nothing but *error (see Conventions). */
sb_status sb_sdy_sharding_verify(const sb_sdy_sharding* sharding, const sb_mesh* const* meshes,
                                 size_t mesh_count, const char* type, size_t type_size,
                                 sb_error** error);

/* Prints the sharding in Shardy's canonical form, byte-identical to
 * Shardy's printer; SB_PRINT_ESCAPE_QUOTES writes quotes as \22.
 * Owns: *out is the caller's (sb_string_free), *out_size its size.
 * Errors: SB_ERROR_INVALID_ARGUMENT (NULL sharding or out, another flag). */
sb_status sb_sdy_sharding_print(const sb_sdy_sharding* sharding, unsigned flags, char** out,
                                size_t* out_size, sb_error** error);

/* 1 for a `#sdy.sharding_per_value`, 0 for one sharding or NULL. Allocates
 * nothing. */
int sb_sdy_sharding_is_per_value(const sb_sdy_sharding* sharding);

/* Frees an sdy sharding. NULL is allowed. */
void sb_sdy_sharding_free(sb_sdy_sharding* sharding);

/* ---- HLO shardings ------------------------------------------------------------ */

/* An XLA HloSharding (leaf or tuple). */
typedef struct sb_hlo_sharding sb_hlo_sharding;

/* Parses HLO sharding text as XLA does: V1 device lists
 * `{devices=[2,2]0,2,1,3}`, V2 iota `{devices=[4,2]<=[2,4]T(1,0)}`, V3
 * named `{mesh['x'=2], [{'x'}]}`, `{replicated}`, tuples, metadata.
 * Owns: *out is the caller's (sb_hlo_sharding_free).
 * Errors: SB_ERROR_PARSE (located, XLA's message where XLA has one),
 * SB_ERROR_INVALID_ARGUMENT (NULL out). */
sb_status sb_hlo_sharding_parse(const char* text, size_t size, sb_hlo_sharding** out,
                                sb_error** error);

/* Prints the sharding byte-identical to XLA's HloSharding::ToString();
 * SB_PRINT_METADATA includes the metadata (ToString(true)).
 * Owns: *out is the caller's (sb_string_free), *out_size its size.
 * Errors: SB_ERROR_INVALID_ARGUMENT (NULL sharding or out, another flag). */
sb_status sb_hlo_sharding_print(const sb_hlo_sharding* sharding, unsigned flags, char** out,
                                size_t* out_size, sb_error** error);

/* The encodings of xla.OpSharding. */
#define SB_PROTO_BINARY 0 /* the wire format (XLA's SerializeAsString) */
#define SB_PROTO_TEXT 1   /* protobuf text format */
#define SB_PROTO_JSON 2   /* protobuf's canonical JSON mapping */

/* Reads an xla.OpSharding in `format` (XLA's FromProto).
 * Owns: *out is the caller's (sb_hlo_sharding_free).
 * Errors: SB_ERROR_PARSE (malformed; text format errors are located),
 * SB_ERROR_INVALID (FromProto's rules, e.g. `Maximal sharding is expected
 * to have single device assignment, but 0 has provided.`),
 * SB_ERROR_UNSUPPORTED, SB_ERROR_INVALID_ARGUMENT (NULL out, unknown
 * format). */
sb_status sb_hlo_sharding_from_proto(const char* data, size_t size, int format,
                                     sb_hlo_sharding** out, sb_error** error);

/* Writes the sharding as an xla.OpSharding in `format`: for SB_PROTO_BINARY
 * the bytes XLA's ToProto().SerializeAsString() gives (a V3 leaf as its
 * named_sharding field).
 * Owns: *out is the caller's (sb_string_free), *out_size its size.
 * Errors: SB_ERROR_UNSUPPORTED (a value `format` cannot encode),
 * SB_ERROR_INVALID_ARGUMENT (NULL sharding or out, unknown format). */
sb_status sb_hlo_sharding_to_proto(const sb_hlo_sharding* sharding, int format, char** out,
                                   size_t* out_size, sb_error** error);

/* Stores in *equal 1 when `a` and `b` are equal as XLA's HloSharding
 * operator== says (metadata ignored, an iota equals its device list), else
 * 0. Errors: SB_ERROR_INVALID_ARGUMENT (a NULL pointer).
 * Allocates nothing but *error (see Conventions). */
sb_status sb_hlo_sharding_equal(const sb_hlo_sharding* a, const sb_hlo_sharding* b, int* equal,
                                sb_error** error);

/* Frees an HLO sharding. NULL is allowed. */
void sb_hlo_sharding_free(sb_hlo_sharding* sharding);

/* ---- export: sdy -> HloSharding ----------------------------------------------- */

typedef struct sb_export_options {
  size_t struct_size; /* sizeof(sb_export_options) */
  /* The mesh axes an enclosing sdy.manual_computation makes manual, in order
   * (the device order of the MANUAL subgroup). Default: none. */
  const sb_string_view* manual_axes;
  size_t manual_axis_count;
  /* Non-zero: a V3 (named) HloSharding, as upstream's
   * enable-hlo-sharding-v3. Default 0. */
  int v3;
} sb_export_options;

#define SB_EXPORT_OPTIONS_INIT {sizeof(sb_export_options), NULL, 0, 0}

/* The HloSharding OpenXLA's Shardy export writes into `mhlo.sharding` for
 * `sharding` (a per-value sharding gives a tuple), after verifying it
 * against its mesh, found by name among `meshes` (see sb_mesh_parse for an
 * unnamed mesh). `options` may be NULL (the defaults).
 * Owns: *out is the caller's (sb_hlo_sharding_free).
 * Errors: SB_ERROR_NOT_FOUND (`unknown mesh: @m`), SB_ERROR_INVALID (the
 * verifier's messages; `unknown manual axis: "z"`), located in the parsed
 * text where they concern it, and SB_ERROR_INVALID_ARGUMENT (NULL sharding
 * or out, a NULL entry, a bad struct_size, meshes of another context). */
sb_status sb_export(const sb_sdy_sharding* sharding, const sb_mesh* const* meshes,
                    size_t mesh_count, const sb_export_options* options, sb_hlo_sharding** out,
                    sb_error** error);

/* ---- import: HloSharding -> sdy ----------------------------------------------- */

typedef struct sb_import_options {
  size_t struct_size; /* sizeof(sb_import_options) */
  /* The rank of the tensor(s); -1 (the default): a tiled leaf's own data
   * rank, a V3 leaf's dim count, else 0. */
  int64_t rank;
  /* Non-zero: every dimension open (`?`). Default 0. */
  int open_dims;
  /* Non-zero: fail where OpenXLA's importer aborts (device orders no iota
   * mesh explains). Default 0: import them onto a mesh with device_ids, as
   * the shardbridge command does. */
  int upstream_device_order;
} sb_import_options;

#define SB_IMPORT_OPTIONS_INIT {sizeof(sb_import_options), -1, 0, 0}

/* Imports `sharding` onto `mesh`, as OpenXLA's Shardy importer does; the
 * result refers to the mesh by its name, and a single-device leaf to
 * `@single_device_<id>`. A tuple gives a per-value sharding. `options` may
 * be NULL.
 * Owns: *out is the caller's (sb_sdy_sharding_free); it belongs to
 * `context`.
 * Errors: SB_ERROR_INVALID (e.g. `sharding {devices=[2,2]<=[4]} tiles 2
 * dimensions but the tensor has rank 3`), SB_ERROR_UNSUPPORTED (a device
 * order the mesh cannot express), SB_ERROR_INVALID_ARGUMENT (a NULL
 * pointer, a mesh of another context, a rank below -1, a bad struct_size). */
sb_status sb_import(sb_context* context, const sb_hlo_sharding* sharding, const sb_mesh* mesh,
                    const sb_import_options* options, sb_sdy_sharding** out, sb_error** error);

/* The meshes and shardings of sb_import_inferred. */
typedef struct sb_import_result sb_import_result;

/* Infers the mesh of `shardings` together, as XLA's import pass does for a
 * module (`@mesh`, axes `_axis_0, ...`, plus `@single_device_<id>` for each
 * device of a maximal sharding), and imports each onto it. `options` may be
 * NULL.
 * Owns: *out is the caller's (sb_import_result_free).
 * Errors: SB_ERROR_UNSUPPORTED (`no common mesh for shardings ...`), the
 * errors of sb_import prefixed with `input <i> (<sharding>): ` (i from 1),
 * SB_ERROR_INVALID_ARGUMENT (NULL pointers, count 0 with NULL shardings is
 * fine). */
sb_status sb_import_inferred(sb_context* context, const sb_hlo_sharding* const* shardings,
                             size_t count, const sb_import_options* options,
                             sb_import_result** out, sb_error** error);

/* The number of meshes: `@mesh` first, then the single-device meshes in
 * ascending device order. 0 for NULL. Allocates nothing. */
size_t sb_import_result_mesh_count(const sb_import_result* result);

/* Mesh `index`, borrowed from `result` (do not free it), or NULL when out of
 * range. */
const sb_mesh* sb_import_result_mesh(const sb_import_result* result, size_t index);

/* The import of input `index`, borrowed from `result` (do not free it), or
 * NULL when out of range. */
const sb_sdy_sharding* sb_import_result_sharding(const sb_import_result* result, size_t index);

/* Frees an import result and what it holds. NULL is allowed. */
void sb_import_result_free(sb_import_result* result);

/* ---- whole modules ------------------------------------------------------------ */

/* sb_convert_module directions. */
#define SB_TO_HLO 0 /* the export pass: sdy.sharding -> mhlo.sharding */
#define SB_TO_SDY 1 /* the import pass: mhlo.sharding -> sdy.sharding */

typedef struct sb_module_result sb_module_result;

/* Converts an MLIR module (StableHLO text) as `shardbridge convert --to
 * hlo|sdy` does, with the same pipelines: SB_TO_HLO runs upstream's export
 * pipeline (xla-sdy-stablehlo-export-pipeline: shardings exported, manual
 * computations lowered, sdy ops and meshes removed); SB_TO_SDY the import
 * pipeline the module calls for (the round-trip one for the round-trip
 * form, else xla-sdy-stablehlo-import-pipeline). The output is the input
 * with those rewrites, every other byte copied.
 * `options` holds `option_count` strings `name=value` (value `true`,
 * `false`, `1` or `0`):
 *   enable-hlo-sharding-v3  SB_TO_HLO: write V3 strings (default false);
 *   upstream-device-order   SB_TO_SDY: fail where upstream aborts on device
 *                           orders, instead of importing them onto a mesh
 *                           with device_ids (default false).
 * New options are new names; they need no new function.
 * Owns: *out is the caller's (sb_module_result_free).
 * Errors: the conversion's, located in `text` (SB_ERROR_PARSE, _INVALID,
 * _NOT_FOUND, _UNSUPPORTED; input that is not MLIR text is SB_ERROR_PARSE); SB_ERROR_INVALID_ARGUMENT for an unknown
 * direction, an option without `=`, an unknown name (`unknown module
 * option "x"`), one of the other direction, a value not in the list above. */
sb_status sb_convert_module(const char* text, size_t size, int direction,
                            const sb_string_view* options, size_t option_count,
                            sb_module_result** out, sb_error** error);

/* The converted module, borrowed from `result`; NUL-terminated; size in
 * *size when not NULL. "" for NULL. */
const char* sb_module_result_text(const sb_module_result* result, size_t* size);

/* The number of warnings (what the conversion kept or lost: a mesh kept for
 * a foreign reference, a {manual} outside any manual computation, ...).
 * 0 for NULL. Allocates nothing. */
size_t sb_module_result_warning_count(const sb_module_result* result);

/* Warning `index`: its message, borrowed (NUL-terminated; size in *size when
 * not NULL), and its byte offset in the input text in *offset when not
 * NULL. NULL when out of range. */
const char* sb_module_result_warning(const sb_module_result* result, size_t index, size_t* offset,
                                     size_t* size);

/* Frees a module result. NULL is allowed. */
void sb_module_result_free(sb_module_result* result);

/* ---- explain ------------------------------------------------------------------ */

typedef struct sb_explain_options {
  size_t struct_size; /* sizeof(sb_explain_options) */
  /* The tensor shape, `f32[16,32]` (or `[16,32]`, `16,32`), which adds each
   * device's tile. Default (NULL, 0): none. */
  const char* shape;
  size_t shape_size;
  /* sb_explain_sdy only: the axes an enclosing manual computation makes
   * manual, in order. Default: none. */
  const sb_string_view* manual_axes;
  size_t manual_axis_count;
} sb_explain_options;

#define SB_EXPLAIN_OPTIONS_INIT {sizeof(sb_explain_options), NULL, 0, NULL, 0}

/* The JSON document `shardbridge explain --json` prints for an HLO sharding
 * leaf (schema in docs/json.md): mesh, sdy form, PartitionSpec, axes, tiles.
 * `mesh` is the mesh to import onto, or NULL for the one `import` infers.
 * `options` may be NULL.
 * Owns: *json is the caller's (sb_string_free), *json_size its size.
 * Errors: SB_ERROR_PARSE (the shape, located in it), SB_ERROR_UNSUPPORTED
 * (a tuple: explain its elements), SB_ERROR_INVALID (XLA's validation
 * against the shape), SB_ERROR_INVALID_ARGUMENT (NULL pointers, manual axes
 * given, a mesh of another context). */
sb_status sb_explain_hlo(sb_context* context, const sb_hlo_sharding* sharding,
                         const sb_mesh* mesh, const sb_explain_options* options, char** json,
                         size_t* json_size, sb_error** error);

/* The same document for an sdy sharding (not per-value), verified against
 * its mesh among `meshes` first.
 * Owns: *json is the caller's (sb_string_free), *json_size its size.
 * Errors: those of sb_sdy_sharding_verify and sb_export, those of
 * sb_explain_hlo, SB_ERROR_INVALID_ARGUMENT for a per-value sharding. */
sb_status sb_explain_sdy(sb_context* context, const sb_sdy_sharding* sharding,
                         const sb_mesh* const* meshes, size_t mesh_count,
                         const sb_explain_options* options, char** json, size_t* json_size,
                         sb_error** error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHARDBRIDGE_C_API_H_ */
