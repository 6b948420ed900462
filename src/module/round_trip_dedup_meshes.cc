// xla-sdy-round-trip-dedup-meshes (upstream xla/service/spmd/shardy/
// sdy_round_trip/dedup_meshes.cc): meshes of a module over the same devices
// become one. Meshes are grouped by (device count, device_ids), a mesh
// without axes counting -1 devices so that it never joins an all-size-1
// mesh. In each group the main mesh is the first one with the most axes of
// size > 1, a mesh whose first axis name starts with `_` (an inferred one)
// losing to any other. Every other mesh of the group whose axes map onto
// (sub-)axes of the main one (walking both axis lists, size-1 axes skipped,
// sizes dividing) is replaced in every sharding and manual computation by
// the main mesh with its axes translated (consecutive sub-axes merged), and
// its `sdy.mesh` goes. Inlined meshes are left alone. As upstream, a
// translated sharding gets the default reduction (sum).
// See docs/module.md "Round-trip export".
#include <algorithm>
#include <map>
#include <string>

#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using AxisMap = std::map<std::string, std::vector<sdy::AxisRefAttr>, std::less<>>;

struct MeshInfo {
  int op = -1;
  std::string name;
  sdy::MeshAttr mesh;
};

// A mesh to remove: the main mesh of its group and where its axes go.
struct Dup {
  size_t main;
  AxisMap axes;
};

bool hasFakeAxis(sdy::MeshAttr m) { return !m.axes().empty() && m.axes()[0].name().starts_with("_"); }

int nonSizeOneAxes(sdy::MeshAttr m) {
  return static_cast<int>(std::count_if(m.axes().begin(), m.axes().end(), [](auto a) { return a.size() > 1; }));
}

// Target axis -> the main mesh's (sub-)axes it covers; false when the axis
// sizes do not divide each other.
bool mapAxes(sdy::Context& ctx, sdy::MeshAttr target, sdy::MeshAttr main, AxisMap& map) {
  struct State {
    size_t index = 0;
    int64_t pre = 1, remaining = 1;
  };
  auto advance = [](std::span<const sdy::MeshAxisAttr> axes, State& s, bool first) {
    if (!first) ++s.index;
    while (s.index < axes.size() && axes[s.index].size() == 1) ++s.index;
    s.pre = 1;
    if (s.index < axes.size()) s.remaining = axes[s.index].size();
  };
  auto mainAxes = main.axes();
  auto targetAxes = target.axes();
  State m, t;
  advance(mainAxes, m, true);
  advance(targetAxes, t, true);
  while (m.index < mainAxes.size() && t.index < targetAxes.size()) {
    int64_t consume = std::min(m.remaining, t.remaining), larger = std::max(m.remaining, t.remaining);
    if (consume <= 0 || larger % consume != 0) return false;
    const sdy::MeshAxisAttr& ma = mainAxes[m.index];
    sdy::AxisRefAttr ref = ma.size() == consume ? sdy::AxisRefAttr::get(ctx, ma.name())
                                                : sdy::AxisRefAttr::get(ctx, ma.name(), m.pre, consume);
    map[std::string(targetAxes[t.index].name())].push_back(ref);
    auto update = [&](std::span<const sdy::MeshAxisAttr> axes, State& s) {
      s.remaining /= consume;
      if (s.remaining == 1) {
        advance(axes, s, false);
      } else {
        s.pre *= consume;
      }
    };
    update(mainAxes, m);
    update(targetAxes, t);
  }
  // Both lists used up (equal device counts make this hold; checked rather than assumed).
  return m.index >= mainAxes.size() && t.index >= targetAxes.size();
}

void addOrMerge(sdy::Context& ctx, std::vector<sdy::AxisRefAttr>& out, sdy::AxisRefAttr a, sdy::MeshAttr mesh) {
  if (!out.empty())
    if (auto merged = sdy::merge(ctx, out.back(), a, mesh)) {
      out.back() = *merged;
      return;
    }
  out.push_back(a);
}

Status translate(sdy::Context& ctx, sdy::AxisRefAttr old, std::vector<sdy::AxisRefAttr>& out, sdy::MeshAttr main,
                 const AxisMap& map) {
  auto it = map.find(old.name());
  if (it == map.end()) return okStatus();
  if (!old.isSubAxis()) {
    for (sdy::AxisRefAttr r : it->second) addOrMerge(ctx, out, r, main);
    return okStatus();
  }
  int64_t pre = old.subAxisInfo().preSize(), size = old.subAxisInfo().size();
  for (sdy::AxisRefAttr r : it->second) {
    int64_t full = r.getSize(main).value_or(1);
    if (pre >= full) {
      if (pre % full != 0) break;
      pre /= full;
      continue;
    }
    if (full % pre != 0)
      return makeError(ErrorCode::kUnsupported, "sub-axis " + old.toString() + " does not map onto the main mesh");
    int64_t consumed = std::min(size, full / pre);
    sdy::AxisRefAttr n = consumed == full ? r : sdy::AxisRefAttr::get(ctx, r.name(), pre * r.getSubAxisPreSize(), consumed);
    addOrMerge(ctx, out, n, main);
    if (size % consumed != 0)
      return makeError(ErrorCode::kUnsupported, "sub-axis " + old.toString() + " does not map onto the main mesh");
    pre = 1;
    size /= consumed;
    if (size == 1) break;
  }
  return okStatus();
}

// `replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [...]>`
// of a removed mesh: the axes translated onto the main mesh.
Status replicaGroups(PassContext& ctx, int module, const std::vector<MeshInfo>& meshes,
                     const std::map<std::string, Dup, std::less<>>& dups) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  constexpr std::string_view kAttr = "#stablehlo.replica_group_mesh_axes<";
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (tree.enclosingModule(i) != module) continue;
    const AttrEntry* e = op.dict.find("replica_groups");
    if (!e || !e->value.in(t).starts_with(kAttr)) continue;
    std::string_view v = e->value.in(t);
    size_t at = v.find("mesh = @");
    if (at == std::string_view::npos) continue;
    size_t nb = at + 8, ne = nb;
    while (ne < v.size() && module_lex::isIdentChar(v[ne])) ++ne;
    auto it = dups.find(v.substr(nb, ne - nb));
    if (it == dups.end()) continue;
    std::string axes;
    for (size_t q = v.find("name = \"", ne); q != std::string_view::npos; q = v.find("name = \"", q + 1)) {
      size_t b = q + 8, end = v.find('"', b);
      if (end == std::string_view::npos) break;
      if (v.substr(b, end - b).find("sub_axis") != std::string_view::npos) break;
      std::vector<sdy::AxisRefAttr> out;
      auto found = it->second.axes.find(v.substr(b, end - b));
      if (found == it->second.axes.end()) continue;
      for (sdy::AxisRefAttr r : found->second) {
        if (r.isSubAxis())
          return makeError(ErrorCode::kUnsupported,
                           "replica_group_mesh_axes of @" + it->first + " would name a sub-axis of @" +
                               meshes[it->second.main].name + ", which is not supported",
                           e->value.begin);
        axes += std::string(axes.empty() ? "" : ", ") + "#stablehlo.axis_ref<name = \"" + std::string(r.name()) + "\">";
      }
    }
    ctx.rw.replace(e->value, std::string(kAttr) + "mesh = @" + meshes[it->second.main].name + ", axes = [" + axes + "]>");
  }
  return okStatus();
}

}  // namespace

Status runRoundTripDedupMeshes(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  std::vector<int> modules = tree.modules();
  if (modules.empty()) modules.push_back(-1);
  sdy::Context sctx;
  for (int module : modules) {
    const TreeVec<int>* body = tree.bodyOps(module);
    if (!body) continue;
    std::vector<MeshInfo> meshes;
    for (int i : *body) {
      const OpNode& op = tree.ops[i];
      if (op.name != "sdy.mesh") continue;
      auto mesh = sdy::parseMeshSymbol(sctx, meshOpText(t, op));
      if (!mesh) return mesh.error().shifted(op.whole.begin);
      meshes.push_back({i, mesh->name, mesh->mesh});
    }
    auto key = [](sdy::MeshAttr m) {
      int64_t count = m.axes().empty() ? -1 : m.getTotalSize().value_or(-2);
      return std::make_pair(count, std::vector<int64_t>(m.deviceIds().begin(), m.deviceIds().end()));
    };
    std::map<std::pair<int64_t, std::vector<int64_t>>, size_t> mainOf;
    for (size_t k = 0; k < meshes.size(); ++k) {
      auto [it, inserted] = mainOf.emplace(key(meshes[k].mesh), k);
      if (inserted) continue;
      sdy::MeshAttr cur = meshes[k].mesh, main = meshes[it->second].mesh;
      bool curFake = hasFakeAxis(cur), mainFake = hasFakeAxis(main);
      if (curFake && !mainFake) continue;
      if (curFake == mainFake && nonSizeOneAxes(cur) <= nonSizeOneAxes(main)) continue;
      it->second = k;
    }
    std::map<std::string, Dup, std::less<>> dups;
    for (size_t k = 0; k < meshes.size(); ++k) {
      size_t main = mainOf[key(meshes[k].mesh)];
      if (main == k) continue;
      AxisMap axes;
      if (mapAxes(sctx, meshes[k].mesh, meshes[main].mesh, axes)) dups[meshes[k].name] = {main, std::move(axes)};
    }
    if (dups.empty()) continue;
    SB_ASSIGN_OR_RETURN(std::vector<ShardingSite> sites, shardingSites(tree, module));
    SB_TRY(transformShardings(sctx, t, sites, ctx.rw, [&](sdy::TensorShardingAttr s) -> Result<sdy::TensorShardingAttr> {
      if (!s.meshOrRef().isRef()) return s;
      auto it = dups.find(s.meshOrRef().refName());
      if (it == dups.end()) return s;
      sdy::MeshAttr main = meshes[it->second.main].mesh;
      auto list = [&](std::span<const sdy::AxisRefAttr> axes) -> Result<std::vector<sdy::AxisRefAttr>> {
        std::vector<sdy::AxisRefAttr> out;
        for (sdy::AxisRefAttr a : axes) SB_TRY(translate(sctx, a, out, main, it->second.axes));
        return out;
      };
      std::vector<sdy::DimensionShardingAttr> dims;
      for (sdy::DimensionShardingAttr d : s.dimShardings()) {
        SB_ASSIGN_OR_RETURN(std::vector<sdy::AxisRefAttr> axes, list(d.axes()));
        dims.push_back(sdy::DimensionShardingAttr::get(sctx, axes, d.isClosed(), d.priority()));
      }
      SB_ASSIGN_OR_RETURN(std::vector<sdy::AxisRefAttr> rep, list(s.replicatedAxes()));
      SB_ASSIGN_OR_RETURN(std::vector<sdy::AxisRefAttr> unr, list(s.unreducedAxes()));
      return sdy::TensorShardingAttr::get(sctx, sdy::MeshOrRef::ref(sctx, meshes[it->second.main].name), dims, rep,
                                          unr);
    }));
    // Manual axes of manual computations on a duplicate mesh.
    // (The mesh of its first in/out sharding, as upstream's common mesh.)
    int lastManual = -1;
    for (const ShardingSite& site : sites) {
      const OpNode& op = tree.ops[site.op];
      if (op.name != "sdy.manual_computation" || site.op == lastManual) continue;
      lastManual = site.op;
      auto first = sdy::parseTensorSharding(sctx, site.span.in(t));
      if (!first || !first->meshOrRef().isRef()) continue;
      auto it = dups.find(first->meshOrRef().refName());
      if (it == dups.end()) continue;
      size_t limit = op.regions.empty() ? op.whole.end : op.regions[0].whole.begin;
      size_t k = t.substr(0, limit).find("manual_axes", op.nameSpan.end);  // within the op
      if (k == std::string_view::npos || k >= limit) continue;
      size_t b = t.find('{', k);
      if (b == std::string_view::npos || b >= limit) continue;
      SB_ASSIGN_OR_RETURN(size_t e, module_lex::skipBalanced(t, b));
      sdy::MeshAttr main = meshes[it->second.main].mesh;
      std::vector<sdy::AxisRefAttr> out;
      std::string_view v = t.substr(b, e - b);
      for (size_t q = 0; q < v.size(); ++q) {
        if (v[q] != '"') continue;
        size_t end = v.find('"', q + 1);
        if (end == std::string_view::npos) break;
        SB_TRY(translate(sctx, sdy::AxisRefAttr::get(sctx, v.substr(q + 1, end - q - 1)), out, main, it->second.axes));
        q = end;
      }
      std::string axes = "{";
      for (size_t i = 0; i < out.size(); ++i) {
        if (out[i].isSubAxis())
          return makeError(ErrorCode::kUnsupported,
                           "Manual sub-axis isn't supported. Please file a bug with a reproducer.", b);
        axes += (i ? ", \"" : "\"") + std::string(out[i].name()) + "\"";
      }
      ctx.rw.replace({b, e}, axes + "}");
    }
    SB_TRY(replicaGroups(ctx, module, meshes, dups));
    // Every other reference to a removed mesh names the main one (MLIR's
    // SymbolTable::replaceAllSymbolUses); those inside rewritten shardings
    // are already covered by their rewrite.
    TextSpan scope = module < 0 ? TextSpan{0, t.size()} : tree.ops[module].whole;
    for (size_t p = scope.begin; p < scope.end; ++p) {
      if (t[p] == '"') {
        auto end = module_lex::skipString(t, p);
        if (!end) break;
        p = *end - 1;
        continue;
      }
      if (t[p] != '@') continue;
      size_t e = p + 1;
      while (e < t.size() && module_lex::isIdentChar(t[e])) ++e;
      auto it = dups.find(t.substr(p + 1, e - p - 1));
      if (it == dups.end() || (e < t.size() && t[e] == ' ' && t.substr(0, p).ends_with("sdy.mesh "))) continue;
      ctx.rw.replace({p + 1, e}, meshes[it->second.main].name);
    }
    for (const MeshInfo& m : meshes)
      if (dups.count(m.name)) ctx.rw.erase(tree.ops[m.op].line);
  }
  return okStatus();
}

}  // namespace shardbridge::module
