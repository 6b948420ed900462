// sdy-lift-inlined-meshes (upstream Shardy shardy/dialect/sdy/transforms/
// import/lift_inlined_meshes.cc), the first step of the round-trip export:
//   identical `sdy.mesh` symbols merge: a later duplicate is erased and the
//     shardings naming it name the first;
//   every mesh written inline in a sharding (`<mesh<["a"=2]>, [...]>`)
//     becomes a reference to a mesh symbol with that mesh: an existing one,
//     or one inserted after the last `sdy.mesh` (else before the module's
//     first op), named `mesh`, `maximal_mesh_<device>` or `empty_mesh`, a
//     clash renamed as MLIR's symbol table does (`_0`, `_1`, ...).
// Skipped when keep-meshes-inlined is set (as the round-trip pipeline does).
// Not done: upstream also lifts the meshes of `replica_groups` and attaches
// a `stablehlo.mesh` attribute to each mesh; neither survives the export.
// See docs/module.md "Round-trip export".
#include <map>
#include <set>
#include <string>

#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {

Status runLiftInlinedMeshes(PassContext& ctx) {
  if (ctx.flag("keep-meshes-inlined")) return okStatus();
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  std::vector<int> modules = tree.modules();
  if (modules.empty()) modules.push_back(-1);
  sdy::Context sctx;
  for (int module : modules) {
    const TreeVec<int>* body = tree.bodyOps(module);
    if (!body || body->empty()) continue;
    std::map<const void*, std::string> nameOf;          // mesh -> symbol
    std::map<std::string, std::string, std::less<>> redirect;  // erased duplicate -> kept
    std::set<std::string, std::less<>> taken;
    int lastMesh = -1;
    for (int i : *body) {
      const OpNode& op = tree.ops[i];
      if (!op.symbolName.empty()) taken.insert(std::string(op.symbolName));
      if (op.name != "sdy.mesh") continue;
      auto mesh = sdy::parseMeshSymbol(sctx, meshOpText(t, op));
      if (!mesh) return mesh.error().shifted(op.whole.begin);
      auto [it, inserted] = nameOf.emplace(mesh->mesh.opaque(), mesh->name);
      if (inserted) {
        lastMesh = i;
        continue;
      }
      redirect[mesh->name] = it->second;
      ctx.rw.erase(op.line);
    }
    std::string created;
    int counter = 0;
    auto symbolFor = [&](sdy::MeshAttr mesh) {
      std::string base = mesh.isMaximal()  ? "maximal_mesh_" + std::to_string(*mesh.getMaximalDeviceId())
                         : mesh.empty()    ? std::string("empty_mesh")
                                           : std::string("mesh");
      std::string name = base;
      while (taken.count(name)) name = base + "_" + std::to_string(counter++);
      taken.insert(name);
      nameOf[mesh.opaque()] = name;
      created += "sdy.mesh @" + name + " = " + sdy::printMesh(mesh, [] {
        sdy::PrintOptions po;
        po.withPrefix = false;
        return po;
      }()) + "\n";
      return name;
    };
    SB_ASSIGN_OR_RETURN(std::vector<ShardingSite> sites, shardingSites(tree, module));
    SB_TRY(transformShardings(
        sctx, t, sites, ctx.rw, [&](sdy::TensorShardingAttr s) -> Result<sdy::TensorShardingAttr> {
          sdy::MeshOrRef m = s.meshOrRef();
          std::string name;
          if (m.isRef()) {
            auto it = redirect.find(m.refName());
            if (it == redirect.end()) return s;
            name = it->second;
          } else if (m.isInline()) {
            auto it = nameOf.find(m.inlineMeshAttr().opaque());
            name = it != nameOf.end() ? it->second : symbolFor(m.inlineMeshAttr());
          } else {
            return s;
          }
          std::vector<sdy::DimensionShardingAttr> dims(s.dimShardings().begin(), s.dimShardings().end());
          std::vector<sdy::AxisRefAttr> rep(s.replicatedAxes().begin(), s.replicatedAxes().end());
          std::vector<sdy::AxisRefAttr> unr(s.unreducedAxes().begin(), s.unreducedAxes().end());
          return sdy::TensorShardingAttr::get(sctx, sdy::MeshOrRef::ref(sctx, name), dims, rep, unr, s.reductionOp());
        }));
    if (created.empty()) continue;
    // One mesh per line, with the indentation of the ops around.
    size_t at;
    std::string_view indent;
    if (lastMesh >= 0) {
      const OpNode& last = tree.ops[lastMesh];
      at = last.line.end;
      indent = module_lex::indentationAt(t, last.whole.begin);
      if (last.line.end == last.whole.end) created.insert(0, "\n");  // not alone on its line
    } else {
      const OpNode& first = tree.ops[body->front()];
      at = first.line.begin;
      indent = module_lex::indentationAt(t, first.whole.begin);
    }
    std::string text;
    size_t p = 0;
    while (p < created.size()) {
      size_t e = created.find('\n', p);
      std::string_view line(created.data() + p, e - p);
      if (!line.empty()) text += std::string(indent) + std::string(line);
      text += "\n";
      p = e + 1;
    }
    if (lastMesh >= 0 && tree.ops[lastMesh].line.end == tree.ops[lastMesh].whole.end) {
      text.pop_back();
    }
    ctx.rw.insert(at, std::move(text));
  }
  return okStatus();
}

}  // namespace shardbridge::module
