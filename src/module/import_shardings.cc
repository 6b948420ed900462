// xla-sdy-import-shardings (upstream xla/service/spmd/shardy/
// stablehlo_round_trip/stablehlo_import.cc, ImportShardingsPass): every
// `mhlo.sharding` string becomes an `sdy.sharding` on a mesh inferred from
// all of a module's shardings. Each top-level module of the file is imported
// on its own (importModule, module/convert_module.h, converts one module).
// See docs/module.md "import-shardings".
#include <string>

#include "module/pass.h"

namespace shardbridge::module {

Status runImportShardings(PassContext& ctx) {
  ImportModuleOptions options;
  options.anyOrder.enabled = !ctx.flag("upstream-device-order");
  // The pinned upstream pass names maximal meshes `maximal_mesh_<id>`; an
  // existing mesh of the same name is worked around (docs/module.md "Import").
  options.maximalMeshNames = true;
  options.renameOnClash = true;
  std::vector<int> modules = ctx.tree.modules();
  std::vector<TextSpan> spans;
  if (modules.empty()) spans.push_back({0, ctx.text().size()});
  for (int m : modules) spans.push_back(ctx.tree.ops[m].whole);
  for (TextSpan span : spans) {
    Result<ConvertedModule> out = importModule(span.in(ctx.text()), options);
    if (!out) {
      Error e = out.error();
      if (e.offset != Error::kNoOffset) e.offset += span.begin;
      return e;
    }
    for (ModuleWarning& w : out->warnings) ctx.warn(w.offset + span.begin, std::move(w.message));
    if (out->text != span.in(ctx.text())) ctx.rw.replace(span, std::move(out->text));
  }
  return okStatus();
}

}  // namespace shardbridge::module
