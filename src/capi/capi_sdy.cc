// The C API's meshes and sdy shardings: parse, verify, print
// (include/shardbridge/c_api.h).
#include <optional>

#include "capi_internal.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

using namespace shardbridge;
using namespace shardbridge::capi;

namespace {

constexpr unsigned kSdyPrintFlags = SB_PRINT_ESCAPE_QUOTES;
constexpr unsigned kMeshPrintFlags = SB_PRINT_ESCAPE_QUOTES | SB_PRINT_MESH_SYMBOL;

}  // namespace

namespace shardbridge::capi {

Status verifyLocated(const sb_sdy_sharding& sharding, const sdy::MeshLookup& lookup,
                     const std::optional<MlirType>& type) {
  sdy::VerifyOptions options;
  if (sharding.parsed) options.locations = &sharding.locations;
  bool unresolved = false;
  Status ok = okStatus();
  if (const auto* s = std::get_if<sdy::TensorShardingAttr>(&sharding.attr)) {
    unresolved = s->getMesh(lookup).isNull();
    ok = sdy::verifyTensorSharding(*s, lookup, type, options);
  } else {
    auto perValue = std::get<sdy::TensorShardingPerValueAttr>(sharding.attr);
    for (sdy::TensorShardingAttr s : perValue.shardings()) unresolved = unresolved || s.getMesh(lookup).isNull();
    ok = sdy::verifyTensorShardingPerValue(perValue, lookup, std::nullopt, options);
  }
  if (ok || !unresolved || !ok.error().message.starts_with("unknown mesh: ")) return ok;
  Error e = ok.error();
  e.code = ErrorCode::kNotFound;
  return e;
}

}  // namespace shardbridge::capi

extern "C" {

sb_status sb_mesh_parse(sb_context* context, const char* text, size_t size, const char* name,
                        size_t name_size, sb_mesh** out, sb_error** error) {
  static constexpr char kFn[] = "sb_mesh_parse";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (!context) return invalidArgument(error, kFn, "context is NULL");
    std::string_view input, given;
    if (!viewOf(text, size, input)) return invalidArgument(error, kFn, "text is NULL but size is not 0");
    if (!viewOf(name, name_size, given)) return invalidArgument(error, kFn, "name is NULL but name_size is not 0");

    sdy::SourceMap locations;
    auto attr = sdy::parseAttribute(context->ctx, input, &locations);
    if (!attr) return fail(error, attr.error(), input);
    auto mesh = std::make_unique<sb_mesh>();
    mesh->owner = context;
    if (const auto* m = std::get_if<sdy::MeshAttr>(&*attr)) {
      mesh->mesh = *m;
      mesh->name = "mesh";
      mesh->unnamed = true;
    } else if (const auto* symbol = std::get_if<sdy::MeshSymbol>(&*attr)) {
      mesh->mesh = symbol->mesh;
      mesh->name = symbol->name;
    } else {
      return invalidArgument(error, kFn,
                             "expected a mesh (#sdy.mesh<...>, <[...]> or sdy.mesh @NAME = <...>), "
                             "got an sdy sharding");
    }
    if (!given.empty()) {
      mesh->name = std::string(given);
      mesh->unnamed = false;
    }
    if (Status ok = sdy::verifyMesh(mesh->mesh, &locations); !ok) return fail(error, ok.error(), input);
    *out = mesh.release();
    return SB_OK;
  });
}

const char* sb_mesh_name(const sb_mesh* mesh, size_t* size) {
  if (size) *size = mesh ? mesh->name.size() : 0;
  return mesh ? mesh->name.c_str() : "";
}

sb_status sb_mesh_print(const sb_mesh* mesh, unsigned flags, char** out, size_t* out_size,
                        sb_error** error) {
  static constexpr char kFn[] = "sb_mesh_print";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (out_size) *out_size = 0;
    if (!mesh) return invalidArgument(error, kFn, "mesh is NULL");
    if (flags & ~kMeshPrintFlags) return invalidArgument(error, kFn, "unknown flags " + std::to_string(flags));
    sdy::PrintOptions options;
    options.escapeQuotes = (flags & SB_PRINT_ESCAPE_QUOTES) != 0;
    std::string text = (flags & SB_PRINT_MESH_SYMBOL)
                           ? sdy::printMeshSymbol(sdy::MeshSymbol{mesh->name, mesh->mesh}, options)
                           : sdy::printMesh(mesh->mesh, options);
    giveString(text, out, out_size);
    return SB_OK;
  });
}

void sb_mesh_free(sb_mesh* mesh) { delete mesh; }

sb_status sb_sdy_sharding_parse(sb_context* context, const char* text, size_t size,
                                sb_sdy_sharding** out, sb_error** error) {
  static constexpr char kFn[] = "sb_sdy_sharding_parse";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (!context) return invalidArgument(error, kFn, "context is NULL");
    std::string_view input;
    if (!viewOf(text, size, input)) return invalidArgument(error, kFn, "text is NULL but size is not 0");
    auto sharding = std::make_unique<sb_sdy_sharding>();
    auto attr = sdy::parseAttribute(context->ctx, input, &sharding->locations);
    if (!attr) return fail(error, attr.error(), input);
    if (const auto* s = std::get_if<sdy::TensorShardingAttr>(&*attr)) {
      sharding->attr = *s;
    } else if (const auto* v = std::get_if<sdy::TensorShardingPerValueAttr>(&*attr)) {
      sharding->attr = *v;
    } else {
      return invalidArgument(error, kFn,
                             "expected #sdy.sharding<...> or #sdy.sharding_per_value<[...]>, got a mesh");
    }
    sharding->owner = context;
    sharding->text = std::string(input);
    sharding->parsed = true;
    *out = sharding.release();
    return SB_OK;
  });
}

sb_status sb_sdy_sharding_verify(const sb_sdy_sharding* sharding, const sb_mesh* const* meshes,
                                 size_t mesh_count, const char* type, size_t type_size,
                                 sb_error** error) {
  static constexpr char kFn[] = "sb_sdy_sharding_verify";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    std::string_view typeText;
    if (!viewOf(type, type_size, typeText)) return invalidArgument(error, kFn, "type is NULL but type_size is not 0");
    sdy::MeshLookup lookup;
    std::string why;
    if (!makeLookup(sharding->owner, meshes, mesh_count, lookup, why)) return invalidArgument(error, kFn, why);
    std::optional<MlirType> valueType;
    if (!typeText.empty()) {
      if (std::holds_alternative<sdy::TensorShardingPerValueAttr>(sharding->attr)) {
        return invalidArgument(error, kFn, "a type applies to one sharding, not a sharding_per_value");
      }
      auto parsed = parseMlirType(typeText);
      if (!parsed) return fail(error, parsed.error(), typeText);
      valueType = std::move(*parsed);
    }
    Status ok = verifyLocated(*sharding, lookup, valueType);
    if (!ok) return fail(error, ok.error(), sharding->text);
    return SB_OK;
  });
}

sb_status sb_sdy_sharding_print(const sb_sdy_sharding* sharding, unsigned flags, char** out,
                                size_t* out_size, sb_error** error) {
  static constexpr char kFn[] = "sb_sdy_sharding_print";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (out_size) *out_size = 0;
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    if (flags & ~kSdyPrintFlags) return invalidArgument(error, kFn, "unknown flags " + std::to_string(flags));
    sdy::PrintOptions options;
    options.escapeQuotes = (flags & SB_PRINT_ESCAPE_QUOTES) != 0;
    std::string text = std::visit(
        [&](const auto& attr) -> std::string {
          using T = std::decay_t<decltype(attr)>;
          if constexpr (std::is_same_v<T, sdy::TensorShardingAttr>) {
            return sdy::printTensorSharding(attr, options);
          } else {
            return sdy::printTensorShardingPerValue(attr, options);
          }
        },
        sharding->attr);
    giveString(text, out, out_size);
    return SB_OK;
  });
}

int sb_sdy_sharding_is_per_value(const sb_sdy_sharding* sharding) {
  return sharding && std::holds_alternative<sdy::TensorShardingPerValueAttr>(sharding->attr) ? 1 : 0;
}

void sb_sdy_sharding_free(sb_sdy_sharding* sharding) { delete sharding; }

}  // extern "C"
