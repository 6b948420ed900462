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
  options.readRoundTrip = ctx.flag("read-round-trip-attrs");
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
    // A mesh still named after the export (by an attribute the pass does
    // not convert: a collective's replica_group_mesh_axes, a composite's
    // attributes) is kept: never a dangling @mesh. References inside string
    // literals (the round-trip form's sdy originals) are text, not symbols.
    auto tree = parseOpTree(out->text);
    std::vector<std::pair<std::string, size_t>> dangling;  // name, first offset in the output
    if (tree) {
      std::set<std::string, std::less<>> defined;
      for (const OpNode& op : tree->ops)
        if (op.name == "sdy.mesh") defined.insert(std::string(op.symbolName));
      std::string_view t = out->text;
      for (size_t p = 0; p < t.size(); ++p) {
        if (t[p] == '"') {
          auto end = module_lex::skipString(t, p);
          if (!end) break;
          p = *end - 1;
          continue;
        }
        if (t[p] != '@') continue;
        std::string_view name = symbolAt(t, p);
        if (!meshes.count(name) || defined.count(name)) continue;
        bool seen = false;
        for (const auto& d : dangling) seen |= d.first == name;
        if (!seen) dangling.push_back({std::string(name), p});
      }
    }
    if (dangling.empty() || attempt == 1) {
      for (ModuleWarning& w : out->warnings) w.offset += span.begin;
      return out;
    }
    for (const auto& [name, p] : dangling) {
      options.keepMeshes.push_back(name);
      // Located in the input by the bytes around the reference, which the
      // export did not rewrite.
      std::string_view t = out->text;
      size_t b = p;
      while (b > 0 && p - b < 24 && t[b - 1] != '\n') --b;
      size_t e = p;
      while (e < t.size() && e - p < 24 && t[e] != '\n') ++e;
      size_t at = text.find(t.substr(b, e - b));
      at = at == std::string_view::npos ? 0 : at + (p - b);
      bool replicaGroups = t.substr(0, p).ends_with("mesh = ") &&
                           t.rfind("replica_group_mesh_axes", p) != std::string_view::npos &&
                           p - t.rfind("replica_group_mesh_axes", p) < 40;
      if (!replicaGroups)
        ctx.warn(span.begin + at, "sdy.mesh @" + name + " kept: it is still referred to here after the export");
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
