// The C API's conversions: export, import, whole modules, explain
// (include/shardbridge/c_api.h).
#include <map>
#include <optional>

#include "capi_internal.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/mlir_input.h"
#include "shardbridge/module/pipeline.h"
#include "shardbridge/sdy/verifier.h"
#include "shardbridge/view/explain.h"

using namespace shardbridge;
using namespace shardbridge::capi;

namespace {

// `@single_device_<id>` for every single-device leaf, the names the module
// import gives their meshes.
std::map<int64_t, std::string> singleDeviceNames(const hlo::HloSharding& sharding) {
  std::map<int64_t, std::string> names;
  for (const hlo::HloSharding* leaf : hlo::leavesOf(sharding))
    if (auto d = leaf->uniqueDevice(); d && leaf->isSingleDevice())
      names[*d] = "single_device_" + std::to_string(*d);
  return names;
}

// Imports one sharding (a tuple as a per-value sharding) onto `mesh`,
// referred to as `@meshName`.
Result<std::unique_ptr<sb_sdy_sharding>> importOne(sb_context* context, const hlo::HloSharding& s,
                                                   sdy::MeshAttr mesh, const std::string& meshName,
                                                   const std::map<int64_t, std::string>& singles,
                                                   const sb_import_options& options) {
  convert::AnyOrderOptions anyOrder{options.upstream_device_order == 0};
  sdy::MeshOrRef ref = sdy::MeshOrRef::ref(context->ctx, meshName);
  auto out = std::make_unique<sb_sdy_sharding>();
  out->owner = context;
  if (s.isTuple()) {
    std::vector<int64_t> ranks;
    for (const hlo::HloSharding* leaf : hlo::leavesOf(s))
      ranks.push_back(options.rank >= 0 ? options.rank : convert::ownRank(*leaf));
    SB_ASSIGN_OR_RETURN(out->attr, convert::convertToSdyShardingPerValue(
                                       context->ctx, s, mesh, ref, singles, ranks,
                                       options.open_dims != 0, anyOrder));
  } else {
    SB_ASSIGN_OR_RETURN(out->attr, convert::convertToSdySharding(
                                       context->ctx, s, mesh, ref, singles,
                                       options.rank >= 0 ? options.rank : convert::ownRank(s),
                                       options.open_dims != 0, anyOrder));
  }
  return out;
}

// Reads `true`/`false`/`1`/`0`.
bool readBool(std::string_view value, bool& out) {
  if (value == "true" || value == "1") {
    out = true;
    return true;
  }
  if (value == "false" || value == "0") {
    out = false;
    return true;
  }
  return false;
}

}  // namespace

extern "C" {

sb_status sb_export(const sb_sdy_sharding* sharding, const sb_mesh* const* meshes,
                    size_t mesh_count, const sb_export_options* options, sb_hlo_sharding** out,
                    sb_error** error) {
  static constexpr char kFn[] = "sb_export";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    sb_export_options opts = SB_EXPORT_OPTIONS_INIT;
    if (!readOptions(options, opts)) return invalidArgument(error, kFn, "options->struct_size is not a size this library knows");
    std::vector<std::string> manualAxes;
    if (!namesOf(opts.manual_axes, opts.manual_axis_count, manualAxes)) {
      return invalidArgument(error, kFn, "options->manual_axes has a NULL entry");
    }
    sdy::MeshLookup lookup;
    std::string why;
    if (!makeLookup(sharding->owner, meshes, mesh_count, lookup, why)) return invalidArgument(error, kFn, why);
    if (Status ok = verifyLocated(*sharding, lookup); !ok) return fail(error, ok.error(), sharding->text);

    convert::ExportOptions exportOptions;
    exportOptions.v3 = opts.v3 != 0;
    auto hlo = std::visit(
        [&](const auto& attr) { return convert::convertToHloSharding(attr, lookup, manualAxes, exportOptions); },
        sharding->attr);
    if (!hlo) return fail(error, hlo.error(), sharding->text);
    *out = new sb_hlo_sharding{std::move(*hlo)};
    return SB_OK;
  });
}

sb_status sb_import(sb_context* context, const sb_hlo_sharding* sharding, const sb_mesh* mesh,
                    const sb_import_options* options, sb_sdy_sharding** out, sb_error** error) {
  static constexpr char kFn[] = "sb_import";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (!context) return invalidArgument(error, kFn, "context is NULL");
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    if (!mesh) return invalidArgument(error, kFn, "mesh is NULL (sb_import_inferred infers one)");
    if (mesh->owner != context) return invalidArgument(error, kFn, "mesh belongs to another context");
    sb_import_options opts = SB_IMPORT_OPTIONS_INIT;
    if (!readOptions(options, opts)) return invalidArgument(error, kFn, "options->struct_size is not a size this library knows");
    if (opts.rank < -1) return invalidArgument(error, kFn, "options->rank must be -1 or at least 0, got " + std::to_string(opts.rank));
    auto imported = importOne(context, sharding->sharding, mesh->mesh, mesh->name,
                              singleDeviceNames(sharding->sharding), opts);
    if (!imported) return fail(error, imported.error());
    *out = imported->release();
    return SB_OK;
  });
}

sb_status sb_import_inferred(sb_context* context, const sb_hlo_sharding* const* shardings,
                             size_t count, const sb_import_options* options,
                             sb_import_result** out, sb_error** error) {
  static constexpr char kFn[] = "sb_import_inferred";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    if (!context) return invalidArgument(error, kFn, "context is NULL");
    if (count > 0 && !shardings) return invalidArgument(error, kFn, "shardings is NULL but count is not 0");
    sb_import_options opts = SB_IMPORT_OPTIONS_INIT;
    if (!readOptions(options, opts)) return invalidArgument(error, kFn, "options->struct_size is not a size this library knows");
    if (opts.rank < -1) return invalidArgument(error, kFn, "options->rank must be -1 or at least 0, got " + std::to_string(opts.rank));
    std::vector<hlo::HloSharding> inputs;
    for (size_t i = 0; i < count; ++i) {
      if (!shardings[i]) return invalidArgument(error, kFn, "shardings[" + std::to_string(i) + "] is NULL");
      inputs.push_back(shardings[i]->sharding);
    }
    convert::AnyOrderOptions anyOrder{opts.upstream_device_order == 0};
    auto inferred = convert::inferModuleMesh(context->ctx, inputs, anyOrder);
    if (!inferred) return fail(error, inferred.error());

    auto result = std::make_unique<sb_import_result>();
    auto addMesh = [&](const std::string& name, sdy::MeshAttr m) {
      auto mesh = std::make_unique<sb_mesh>();
      mesh->owner = context;
      mesh->name = name;
      mesh->mesh = m;
      result->meshes.push_back(std::move(mesh));
    };
    addMesh("mesh", inferred->mesh);
    std::map<int64_t, std::string> singles;
    for (const auto& [id, name] : inferred->singleDevice) {
      int64_t ids[] = {id};
      addMesh(name, sdy::MeshAttr::get(context->ctx, {}, ids));
      singles[id] = name;
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto imported = importOne(context, inputs[i], inferred->mesh, "mesh", singles, opts);
      if (!imported) {
        Error e = imported.error();
        e.message = "input " + std::to_string(i + 1) + " (" + inputs[i].toString() + "): " + e.message;
        e.dropOffsets();
        return fail(error, e);
      }
      result->shardings.push_back(std::move(*imported));
    }
    *out = result.release();
    return SB_OK;
  });
}

size_t sb_import_result_mesh_count(const sb_import_result* result) {
  return result ? result->meshes.size() : 0;
}

const sb_mesh* sb_import_result_mesh(const sb_import_result* result, size_t index) {
  return result && index < result->meshes.size() ? result->meshes[index].get() : nullptr;
}

const sb_sdy_sharding* sb_import_result_sharding(const sb_import_result* result, size_t index) {
  return result && index < result->shardings.size() ? result->shardings[index].get() : nullptr;
}

void sb_import_result_free(sb_import_result* result) { delete result; }

sb_status sb_convert_module(const char* text, size_t size, int direction,
                            const sb_string_view* options, size_t option_count,
                            sb_module_result** out, sb_error** error) {
  static constexpr char kFn[] = "sb_convert_module";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!out) return invalidArgument(error, kFn, "out is NULL");
    *out = nullptr;
    std::string_view input;
    if (!viewOf(text, size, input)) return invalidArgument(error, kFn, "text is NULL but size is not 0");
    if (direction != SB_TO_HLO && direction != SB_TO_SDY) {
      return invalidArgument(error, kFn, "unknown direction " + std::to_string(direction));
    }
    if (option_count > 0 && !options) return invalidArgument(error, kFn, "options is NULL but option_count is not 0");
    module::ExportModuleOptions exportOptions;
    module::ImportModuleOptions importOptions;
    // As `shardbridge convert --to sdy`: device orders upstream aborts on
    // are imported unless upstream-device-order=true.
    importOptions.anyOrder.enabled = true;
    for (size_t i = 0; i < option_count; ++i) {
      std::string_view option;
      if (!viewOf(options[i].data, options[i].size, option)) {
        return invalidArgument(error, kFn, "options[" + std::to_string(i) + "] is NULL");
      }
      size_t eq = option.find('=');
      if (eq == std::string_view::npos) {
        return invalidArgument(error, kFn, "module option \"" + std::string(option) + "\" is not name=value");
      }
      std::string_view name = option.substr(0, eq), value = option.substr(eq + 1);
      bool flag = false;
      bool isV3 = name == "enable-hlo-sharding-v3";
      bool isUpstreamOrder = name == "upstream-device-order";
      if (!isV3 && !isUpstreamOrder) {
        return invalidArgument(error, kFn, "unknown module option \"" + std::string(name) +
                                               "\" (known: enable-hlo-sharding-v3, upstream-device-order)");
      }
      if (isV3 != (direction == SB_TO_HLO)) {
        return invalidArgument(error, kFn, "module option \"" + std::string(name) + "\" applies to " +
                                               (isV3 ? "SB_TO_HLO" : "SB_TO_SDY") + " only");
      }
      if (!readBool(value, flag)) {
        return invalidArgument(error, kFn, "module option \"" + std::string(name) + "\" takes true or false, got \"" +
                                               std::string(value) + "\"");
      }
      if (isV3) exportOptions.v3 = flag;
      if (isUpstreamOrder) importOptions.anyOrder.enabled = !flag;
    }
    // The pipelines `shardbridge convert --to hlo|sdy` runs (docs/module.md).
    std::vector<std::pair<std::string, std::string>> extra;
    if (direction == SB_TO_HLO && exportOptions.v3) extra.push_back({"enable-hlo-sharding-v3", "true"});
    if (direction == SB_TO_SDY && !importOptions.anyOrder.enabled &&
        module::importPipelineFor(input) == "xla-sdy-stablehlo-import-pipeline")
      extra.push_back({"upstream-device-order", "true"});
    auto spec = module::conversionSpec(direction == SB_TO_HLO, false, input, extra);
    if (!spec) return fail(error, spec.error(), input);
    std::vector<module::PassSpec> specs{std::move(*spec)};
    if (Status mlir = module::checkMlirModule(input); !mlir) return fail(error, mlir.error(), input);
    auto converted = module::runPasses(input, specs);
    if (!converted) return fail(error, converted.error(), input);
    auto result = std::make_unique<sb_module_result>();
    result->text = std::move(converted->text);
    for (module::ModuleWarning& w : converted->warnings) result->warnings.emplace_back(w.offset, std::move(w.message));
    *out = result.release();
    return SB_OK;
  });
}

const char* sb_module_result_text(const sb_module_result* result, size_t* size) {
  if (size) *size = result ? result->text.size() : 0;
  return result ? result->text.c_str() : "";
}

size_t sb_module_result_warning_count(const sb_module_result* result) {
  return result ? result->warnings.size() : 0;
}

const char* sb_module_result_warning(const sb_module_result* result, size_t index, size_t* offset,
                                     size_t* size) {
  if (!result || index >= result->warnings.size()) {
    if (offset) *offset = SB_NO_OFFSET;
    if (size) *size = 0;
    return nullptr;
  }
  const auto& [at, message] = result->warnings[index];
  if (offset) *offset = at;
  if (size) *size = message.size();
  return message.c_str();
}

void sb_module_result_free(sb_module_result* result) { delete result; }

}  // extern "C"

namespace {

// The shape of explain options, parsed; errors located in the shape text.
sb_status explainShape(const sb_explain_options& opts, const char* fn, sb_error** error,
                       std::optional<hlo::Shape>& shape) {
  std::string_view text;
  if (!viewOf(opts.shape, opts.shape_size, text)) {
    return invalidArgument(error, fn, "options->shape is NULL but shape_size is not 0");
  }
  if (text.empty()) return SB_OK;
  auto parsed = view::parseViewShape(text);
  if (!parsed) return fail(error, parsed.error(), text);
  shape = std::move(*parsed);
  return SB_OK;
}

// Hands out explanationJson(e); explain errors have no offset (as the CLI).
sb_status giveExplanation(Result<view::Explanation> explained, char** json, size_t* json_size,
                          sb_error** error) {
  if (!explained) {
    Error e = explained.error();
    e.dropOffsets();
    return fail(error, e);
  }
  giveString(view::explanationJson(*explained), json, json_size);
  return SB_OK;
}

}  // namespace

extern "C" {

sb_status sb_explain_hlo(sb_context* context, const sb_hlo_sharding* sharding,
                         const sb_mesh* mesh, const sb_explain_options* options, char** json,
                         size_t* json_size, sb_error** error) {
  static constexpr char kFn[] = "sb_explain_hlo";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!json) return invalidArgument(error, kFn, "json is NULL");
    *json = nullptr;
    if (json_size) *json_size = 0;
    if (!context) return invalidArgument(error, kFn, "context is NULL");
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    if (mesh && mesh->owner != context) return invalidArgument(error, kFn, "mesh belongs to another context");
    sb_explain_options opts = SB_EXPLAIN_OPTIONS_INIT;
    if (!readOptions(options, opts)) return invalidArgument(error, kFn, "options->struct_size is not a size this library knows");
    if (opts.manual_axis_count > 0) {
      return invalidArgument(error, kFn,
                             "manual axes apply to an sdy sharding; an HLO sharding's manual axes are "
                             "its MANUAL subgroup");
    }
    std::optional<hlo::Shape> shape;
    if (sb_status s = explainShape(opts, kFn, error, shape); s != SB_OK) return s;
    return giveExplanation(view::explainHloSharding(context->ctx, sharding->sharding,
                                                    mesh ? mesh->mesh : sdy::MeshAttr(),
                                                    mesh ? mesh->name : "mesh", shape),
                           json, json_size, error);
  });
}

sb_status sb_explain_sdy(sb_context* context, const sb_sdy_sharding* sharding,
                         const sb_mesh* const* meshes, size_t mesh_count,
                         const sb_explain_options* options, char** json, size_t* json_size,
                         sb_error** error) {
  static constexpr char kFn[] = "sb_explain_sdy";
  return guarded(error, kFn, [&]() -> sb_status {
    if (!json) return invalidArgument(error, kFn, "json is NULL");
    *json = nullptr;
    if (json_size) *json_size = 0;
    if (!context) return invalidArgument(error, kFn, "context is NULL");
    if (!sharding) return invalidArgument(error, kFn, "sharding is NULL");
    if (sharding->owner != context) return invalidArgument(error, kFn, "sharding belongs to another context");
    const auto* single = std::get_if<sdy::TensorShardingAttr>(&sharding->attr);
    if (!single) return invalidArgument(error, kFn, "explain takes one sharding, not a sharding_per_value");
    sb_explain_options opts = SB_EXPLAIN_OPTIONS_INIT;
    if (!readOptions(options, opts)) return invalidArgument(error, kFn, "options->struct_size is not a size this library knows");
    std::vector<std::string> manualAxes;
    if (!namesOf(opts.manual_axes, opts.manual_axis_count, manualAxes)) {
      return invalidArgument(error, kFn, "options->manual_axes has a NULL entry");
    }
    sdy::MeshLookup lookup;
    std::string why;
    if (!makeLookup(context, meshes, mesh_count, lookup, why)) return invalidArgument(error, kFn, why);
    std::optional<hlo::Shape> shape;
    if (sb_status s = explainShape(opts, kFn, error, shape); s != SB_OK) return s;
    if (Status ok = verifyLocated(*sharding, lookup); !ok) return fail(error, ok.error(), sharding->text);
    return giveExplanation(view::explainSdySharding(context->ctx, *single, lookup, shape, manualAxes),
                           json, json_size, error);
  });
}

}  // extern "C"
