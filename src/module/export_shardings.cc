// xla-sdy-stablehlo-export-shardings (upstream xla/service/spmd/shardy/
// stablehlo_round_trip/export_shardings.cc): every `sdy.sharding` of
// function arguments, results and ops becomes the `mhlo.sharding` string
// XLA reads, and the `sdy.mesh` ops go. Each top-level module of the file is
// converted on its own, with its own symbol table (exportModule,
// module/convert_module.h, does the conversion of one module).
// See docs/module.md "export-shardings".
#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include "module/pass.h"
#include "module/text_lex.h"
#include "module/tree_scan.h"

namespace shardbridge::module {
namespace {

// clear-reverse-op-sharding: the module's text with `sdy.sharding` and
// `xla.sdy.manual_axes` dropped from every stablehlo.reverse whose operand
// (an op result or a function argument) has an sdy sharding.
Result<std::string> clearReverseShardings(PassContext& ctx, TextSpan span) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  Rewriter rw(t);
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (op.name != "stablehlo.reverse" || op.whole.begin < span.begin || op.whole.end > span.end) continue;
    if (!op.dict.find("sdy.sharding") || op.uses.empty()) continue;
    std::string_view operand = op.uses[0].name;
    int func = tree.enclosingFunc(i);
    if (func < 0) continue;
    bool sharded = false;
    for (const ValueDef& a : tree.ops[func].funcArgs())
      if (a.name.in(t) == operand) sharded = a.dict.find("sdy.sharding") != nullptr;
    for (int j : opsInside(tree, func))
      for (const ResultDef& r : tree.ops[j].resultDefs)
        if (r.name.in(t) == operand) sharded = tree.ops[j].dict.find("sdy.sharding") != nullptr;
    if (!sharded) continue;
    DictEditor ed(t, op.dict);
    ed.remove("sdy.sharding");
    ed.remove("xla.sdy.manual_axes");
    ed.commit(rw, 0);
  }
  SB_ASSIGN_OR_RETURN(std::string all, rw.apply());
  return all.substr(span.begin, all.size() - (t.size() - span.end) - span.begin);
}

Result<ConvertedModule> exportOne(PassContext& ctx, TextSpan span) {
  ExportModuleOptions options;
  options.v3 = ctx.flag("enable-hlo-sharding-v3");
  options.readRoundTrip = ctx.flag("read-round-trip-attrs");
  options.typeAliases = typeAliasesOf(ctx.tree);
  std::string cleared;
  std::string_view text = span.in(ctx.text());
  if (ctx.flag("clear-reverse-op-sharding")) {
    SB_ASSIGN_OR_RETURN(cleared, clearReverseShardings(ctx, span));
    text = cleared;
  }
  // The meshes this module defines.
  std::set<std::string, std::less<>> meshes;
  for (const OpNode& op : ctx.tree.ops)
    if (op.name == "sdy.mesh" && op.whole.begin >= span.begin && op.whole.end <= span.end)
      meshes.insert(std::string(op.symbolName));
  for (int attempt = 0; attempt < 2; ++attempt) {
    // The pass's op tree stands for the text unless clear-reverse-op-sharding rewrote it.
    Result<ConvertedModule> out =
        cleared.empty() ? exportModuleOnTree(ctx.tree, span, options) : exportModule(text, options);
    if (!out) {
      Error e = out.error();
      e = e.shifted(span.begin);
      return e;
    }
    // A mesh still named after the export (by an attribute the pass does
    // not convert: a collective's replica_group_mesh_axes, a composite's
    // attributes) is kept: never a dangling @mesh. References inside string
    // literals (the round-trip form's sdy originals) are text, not symbols.
    std::vector<std::pair<std::string, size_t>> dangling;  // name, first offset in the output
    // Only an output that still holds `@NAME` of one of them can (the
    // parse that tells is as costly as the export itself).
    bool mentioned = std::any_of(meshes.begin(), meshes.end(), [&](const std::string& m) {
      return out->text.find("@" + m) != std::string::npos || out->text.find("@\"" + m) != std::string::npos;
    });
    if (mentioned) {
      auto tree = parseOpTree(out->text);
      if (!tree)
        return makeError(ErrorCode::kInternal,
                         "the exported module does not parse (" + tree.error().message + "); please report it",
                         span.begin);
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
        if (t[p] == '/' && p + 1 < t.size() && t[p + 1] == '/') {
          while (p < t.size() && t[p] != '\n') ++p;
          continue;
        }
        if (t[p] != '@') continue;
        std::string_view name = module_lex::symbolAt(t, p);
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
      if (at != std::string_view::npos) {
        at += p - b;
      } else {
        // The export rewrote the bytes around it (a sharding added to the
        // same dictionary): the attribute entry alone, `key = @name`.
        size_t q = p;
        while (q > 0 && p - q < 64 && t[q - 1] != ',' && t[q - 1] != '{' && t[q - 1] != '\n') --q;
        while (q < p && module_lex::isBlank(t[q])) ++q;
        size_t end = p + 1 + name.size();
        at = q < p ? text.find(t.substr(q, end - q)) : std::string_view::npos;
        at = at == std::string_view::npos ? 0 : at + (p - q);
      }
      bool replicaGroups = t.substr(0, p).ends_with("mesh = ") &&
                           t.rfind("replica_group_mesh_axes", p) != std::string_view::npos &&
                           p - t.rfind("replica_group_mesh_axes", p) < 40;
      if (!replicaGroups)
        ctx.warn(span.begin + at, "sdy.mesh @" + name + " kept: it is still referred to here after the export");
    }
  }
  return makeError(ErrorCode::kInternal, "export of the module did not settle");
}

// What export_shardings.cc does upstream after converting each sharding:
//   add-missing-sharding-to-control-flow: a stablehlo.while / case / if
//     without a sharding gets `{replicated}` (V2 and V3 alike at the pin);
//   `@mhlo.erf` / `@mhlo.topk` custom calls: the mhlo.sharding moves into
//     their `mhlo.attributes` dictionary.
//   simplify-replicated-shardings (V3): a fully replicated, closed sharding
//     without unreduced or manual axes is written `{replicated}`.
bool isControlFlow(std::string_view name) {
  return name == "stablehlo.while" || name == "stablehlo.case" || name == "stablehlo.if";
}

// Whether a rule of finishExport can apply to the ops of `tree` within
// `span`: the export adds no op, so the ops its rules act on are those of
// the pass's own tree, and a module without one is not parsed again.
bool finishApplies(const OpTree& tree, TextSpan span, bool addMissing, bool simplify) {
  if (simplify) return true;
  for (const OpNode& op : tree.ops) {
    if (op.whole.begin < span.begin || op.whole.end > span.end) continue;
    if (op.name == "stablehlo.custom_call" && (op.symbolName == "mhlo.erf" || op.symbolName == "mhlo.topk"))
      return true;
    if (addMissing && isControlFlow(op.name)) return true;
  }
  return false;
}

Result<std::string> finishExport(std::string text, bool addMissing, bool simplify) {
  SB_ASSIGN_OR_RETURN(OpTree tree, parseOpTree(text));
  Rewriter rw(text);
  if (simplify) {
    static const std::regex replicated(
        R"(\{mesh\[[^\]]*\](, device_ids=\([0-9,]*\))?, \[(\{\}(, \{\})*)?\](, replicated=\{[^{}]*\})?\})");
    auto simplifyIn = [&](const AttrDictNode& d) {
      const AttrEntry* e = d.find("mhlo.sharding");
      if (!e) return;
      std::string value(e->value.in(text));
      std::string out = std::regex_replace(value, replicated, "{replicated}");
      if (out != value) rw.replace(e->value, std::move(out));
    };
    for (const OpNode& op : tree.ops) {
      simplifyIn(op.dict);
      for (const ValueDef& a : op.funcArgs()) simplifyIn(a.dict);
      for (const FuncResult& r : op.funcResults()) simplifyIn(r.dict);
    }
  }
  for (const OpNode& op : tree.ops) {
    bool control = isControlFlow(op.name);
    if (addMissing && control && !op.dict.find("mhlo.sharding")) {
      // (a dictionary simplified above has a sharding already)
      std::string value = "\"{replicated}\"";
      if (op.dict.present()) {
        DictEditor ed(text, op.dict);
        ed.set("mhlo.sharding", value);
        ed.commit(rw, 0);
      } else {
        insertDict(rw, tree, op, "{mhlo.sharding = " + value + "}");
      }
      continue;
    }
    if (op.name != "stablehlo.custom_call" || (op.symbolName != "mhlo.erf" && op.symbolName != "mhlo.topk"))
      continue;
    const AttrEntry* sharding = op.dict.find("mhlo.sharding");
    const AttrEntry* attrs = op.dict.find("mhlo.attributes");
    if (!sharding || !attrs) continue;
    SB_ASSIGN_OR_RETURN(AttrDictNode inner, parseAttrDict(text, attrs->value.begin));
    DictEditor innerEd(text, inner);
    innerEd.set("mhlo.sharding", std::string(sharding->value.in(text)));
    DictEditor outer(text, op.dict);
    outer.set("mhlo.attributes", innerEd.render());
    outer.remove("mhlo.sharding");
    outer.commit(rw, 0);
  }
  if (rw.empty()) return text;
  return rw.apply();
}

}  // namespace

Status runExportShardings(PassContext& ctx) {
  std::vector<int> modules = ctx.tree.modules();
  bool addMissing = ctx.flag("add-missing-sharding-to-control-flow");
  bool simplify = ctx.flag("enable-hlo-sharding-v3") && ctx.flag("simplify-replicated-shardings");
  auto exportSpan = [&](TextSpan span) -> Status {
    SB_ASSIGN_OR_RETURN(ConvertedModule out, exportOne(ctx, span));
    for (ModuleWarning& w : out.warnings) ctx.warnings.push_back(std::move(w));
    if (finishApplies(ctx.tree, span, addMissing, simplify)) {
      SB_ASSIGN_OR_RETURN(out.text, finishExport(std::move(out.text), addMissing, simplify));
    }
    if (out.text != span.in(ctx.text())) ctx.rw.replace(span, std::move(out.text));
    return okStatus();
  };
  if (modules.empty()) return exportSpan({0, ctx.text().size()});
  for (int m : modules) SB_TRY(exportSpan(ctx.tree.ops[m].whole));
  return okStatus();
}

}  // namespace shardbridge::module
