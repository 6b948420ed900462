// xla-sdy-stablehlo-export-shardings (upstream xla/service/spmd/shardy/
// stablehlo_round_trip/export_shardings.cc): every `sdy.sharding` of
// function arguments, results and ops becomes the `mhlo.sharding` string
// XLA reads, and the `sdy.mesh` ops go. Each top-level module of the file is
// converted on its own, with its own symbol table (exportModule,
// module/convert_module.h, does the conversion of one module).
// See docs/module.md "export-shardings".
#include <algorithm>
#include <set>
#include <string>

#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// The symbol name referred to at '@' at `p` of `t` (`@name` or `@"name"`).
std::string_view symbolAt(std::string_view t, size_t p) {
  size_t b = p + 1;
  if (b < t.size() && t[b] == '"') {
    size_t e = t.find('"', b + 1);
    return e == std::string_view::npos ? std::string_view() : t.substr(b + 1, e - b - 1);
  }
  size_t e = b;
  while (e < t.size() && module_lex::isIdentChar(t[e])) ++e;
  return t.substr(b, e - b);
}

Result<ConvertedModule> exportOne(PassContext& ctx, TextSpan span) {
  ExportModuleOptions options;
  options.v3 = ctx.flag("enable-hlo-sharding-v3");
  std::string_view text = span.in(ctx.text());
  // The meshes this module defines.
  std::set<std::string, std::less<>> meshes;
  for (const OpNode& op : ctx.tree.ops)
    if (op.name == "sdy.mesh" && op.whole.begin >= span.begin && op.whole.end <= span.end)
      meshes.insert(std::string(op.symbolName));
  for (int attempt = 0; attempt < 2; ++attempt) {
    Result<ConvertedModule> out = exportModule(text, options);
    if (!out) {
      Error e = out.error();
      if (e.offset != Error::kNoOffset) e.offset += span.begin;
      return e;
    }
    // A mesh still named after the export (an attribute the pass does not
    // convert, such as a collective's replica_group_mesh_axes) is kept:
    // never a dangling @mesh. Upstream keeps those of replica groups silently.
    auto tree = parseOpTree(out->text);
    std::vector<std::string> dangling;
    if (tree) {
      std::set<std::string, std::less<>> defined;
      for (const OpNode& op : tree->ops)
        if (op.name == "sdy.mesh") defined.insert(std::string(op.symbolName));
      std::string_view t = out->text;
      for (size_t p = t.find('@'); p != std::string_view::npos; p = t.find('@', p + 1)) {
        std::string_view name = symbolAt(t, p);
        if (!meshes.count(name) || defined.count(name)) continue;
        if (std::find(dangling.begin(), dangling.end(), name) == dangling.end()) dangling.emplace_back(name);
      }
    }
    if (dangling.empty() || attempt == 1) {
      for (ModuleWarning& w : out->warnings) w.offset += span.begin;
      return out;
    }
    options.keepMeshes = dangling;
    for (const std::string& name : dangling) {
      // Located at the first reference in the input that is neither the
      // definition nor the mesh of a sharding `<@name, ...>`.
      size_t at = std::string_view::npos;
      std::string ref = "@" + name;
      for (size_t p = text.find(ref); p != std::string_view::npos; p = text.find(ref, p + 1)) {
        size_t e = p + ref.size();
        if (e < text.size() && module_lex::isIdentChar(text[e])) continue;
        bool definition = p >= 9 && text.substr(p - 9, 9) == "sdy.mesh ";
        bool sharding = p > 0 && text[p - 1] == '<';
        if (!definition && !sharding) {
          at = p;
          break;
        }
      }
      bool replicaGroups = at != std::string_view::npos && at >= 7 && text.substr(at - 7, 7) == "mesh = " &&
                           text.rfind("replica_group_mesh_axes", at) != std::string_view::npos;
      if (!replicaGroups)
        ctx.warn(span.begin + (at == std::string_view::npos ? 0 : at),
                 "sdy.mesh @" + name + " kept: it is still referred to here after the export");
    }
  }
  return makeError(ErrorCode::kInternal, "export of the module did not settle");
}

}  // namespace

Status runExportShardings(PassContext& ctx) {
  std::vector<int> modules = ctx.tree.modules();
  if (modules.empty()) {
    SB_ASSIGN_OR_RETURN(ConvertedModule out, exportOne(ctx, {0, ctx.text().size()}));
    for (ModuleWarning& w : out.warnings) ctx.warnings.push_back(std::move(w));
    if (out.text != ctx.text()) ctx.rw.replace({0, ctx.text().size()}, std::move(out.text));
    return okStatus();
  }
  for (int m : modules) {
    TextSpan span = ctx.tree.ops[m].whole;
    SB_ASSIGN_OR_RETURN(ConvertedModule out, exportOne(ctx, span));
    for (ModuleWarning& w : out.warnings) ctx.warnings.push_back(std::move(w));
    if (out.text != span.in(ctx.text())) ctx.rw.replace(span, std::move(out.text));
  }
  return okStatus();
}

}  // namespace shardbridge::module
