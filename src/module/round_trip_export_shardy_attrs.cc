// xla-sdy-round-trip-export-shardy-attrs (upstream xla/service/spmd/shardy/
// sdy_round_trip/export_shardy_attrs.cc): the Shardy originals saved as
// strings in `mhlo.frontend_attributes`, for the round-trip import. For each
// function of a module:
//   an argument's `sdy.sharding = S` -> also `xla.sdy.sharding = "S"`;
//   a result with `sdy.sharding = S`: the returned value passes through
//     `stablehlo.custom_call @xla.sdy.FuncResultSharding(%v) {has_side_effect = true,
//      mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[S]>"}}`;
//   an op's `sdy.sharding` -> also `xla.sdy.sharding = "..."`;
//   `sdy.sharding_rule = R` -> `xla.sdy.sharding_rule = "R"` (moved);
// and the module's `sdy.mesh` ops are saved as its `xla.sdy.meshes =
// "{name = #sdy.mesh<...>, ...}"`. The `sdy.sharding`s stay for
// xla-sdy-stablehlo-export-shardings. Under enable-hlo-sharding-v3 only the
// sharding rules move. Attributes are printed canonically (sdy/text.h).
// See docs/module.md "Round-trip export".
#include <algorithm>
#include <map>
#include <string>

#include "module/frontend_attrs.h"
#include "module/pass.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using module_lex::indentationAt;

class ExportShardyAttrs {
 public:
  explicit ExportShardyAttrs(PassContext& ctx)
      : ctx_(ctx), t_(ctx.text()), tree_(ctx.tree), names_(ctx.tree), v3_(ctx.flag("enable-hlo-sharding-v3")) {}

  Status run() {
    std::vector<int> modules = tree_.modules();
    if (modules.empty()) modules.push_back(-1);
    for (int module : modules) {
      const TreeVec<int>* body = tree_.bodyOps(module);
      if (!body) continue;
      std::vector<std::pair<std::string, std::string>> meshes;
      for (int i : *body) {
        const OpNode& op = tree_.ops[i];
        if (op.name == "func.func") {
          SB_TRY(exportFunc(i));
        } else if (op.name == "sdy.mesh" && !v3_) {
          auto mesh = sdy::parseMeshSymbol(sctx_, meshOpText(t_, op));
          if (!mesh) return mesh.error().shifted(op.whole.begin);
          meshes.push_back({printAttrKey(mesh->name), sdy::printMesh(mesh->mesh)});
        }
      }
      if (!meshes.empty()) SB_TRY(saveMeshes(module, meshes));
    }
    for (auto& [dict, edit] : edits_) {
      DictEditor ed(t_, *dict);
      if (!edit.strings.empty()) SB_TRY(setFrontendStrings(t_, *dict, ed, edit.strings));
      for (const std::string& key : edit.removes) ed.remove(key);
      ed.commit(ctx_.rw, 0);
    }
    return okStatus();
  }

 private:
  struct DictEdit {
    std::vector<std::pair<std::string, std::string>> strings;
    std::vector<std::string> removes;
  };

  Result<std::string> canonicalSharding(const AttrEntry& e) {
    auto s = sdy::parseTensorSharding(sctx_, e.value.in(t_));
    if (!s) return s.error().shifted(e.value.begin);
    return sdy::printTensorSharding(*s);
  }

  Status exportFunc(int func) {
    const OpNode& f = tree_.ops[func];
    if (!v3_) {
      for (const ValueDef& a : f.funcArgs()) {
        const AttrEntry* e = a.dict.find("sdy.sharding");
        if (!e) continue;
        SB_ASSIGN_OR_RETURN(std::string s, canonicalSharding(*e));
        edits_[&a.dict].strings.push_back({"xla.sdy.sharding", s});
      }
      SB_TRY(exportResults(func));
    }
    for (int i : opsInside(tree_, func)) {
      const OpNode& op = tree_.ops[i];
      if (!v3_) {
        if (const AttrEntry* e = op.dict.find("sdy.sharding")) {
          auto s = sdy::parseTensorShardingPerValue(sctx_, e->value.in(t_));
          if (!s) return s.error().shifted(e->value.begin);
          edits_[&op.dict].strings.push_back({"xla.sdy.sharding", sdy::printTensorShardingPerValue(*s)});
        }
      }
      if (const AttrEntry* e = op.dict.find("sdy.sharding_rule")) {
        DictEdit& edit = edits_[&op.dict];
        edit.strings.push_back({"xla.sdy.sharding_rule", std::string(e->value.in(t_))});
        edit.removes.push_back("sdy.sharding_rule");
      }
    }
    return okStatus();
  }

  // Each returned value whose result has a sharding goes through a
  // FuncResultSharding custom call inserted before the terminator.
  Status exportResults(int func) {
    const OpNode& f = tree_.ops[func];
    if (f.regions.empty() || f.regions[0].blocks.empty() || f.regions[0].blocks.back().ops.empty()) return okStatus();
    const OpNode& ret = tree_.ops[f.regions[0].blocks.back().ops.back()];
    if (ret.name != "return" && ret.name != "func.return") return okStatus();
    std::string lines;
    std::string_view indent = indentationAt(t_, ret.whole.begin);
    for (size_t i = 0; i < ret.uses.size() && i < f.funcResults().size(); ++i) {
      const AttrEntry* e = f.funcResults()[i].dict.find("sdy.sharding");
      if (!e) continue;
      auto s = sdy::parseTensorSharding(sctx_, e->value.in(t_));
      if (!s) return s.error().shifted(e->value.begin);
      std::string perValue = sdy::printTensorShardingPerValue(sdy::TensorShardingPerValueAttr::get(sctx_, {&*s, 1}));
      const ValueUse& use = ret.uses[i];
      std::string stem(use.span.in(t_).substr(1));
      std::replace(stem.begin(), stem.end(), '#', '_');
      std::string name = names_.next(stem + "_result", func);
      std::string type(f.funcResults()[i].type.in(t_));
      std::string attrs = sortedDict(
          {{"has_side_effect", "true"}, {std::string(kFrontendAttrs), frontendDict({{"xla.sdy.sharding", perValue}})}});
      lines += name + " = stablehlo.custom_call @xla.sdy.FuncResultSharding(" + std::string(use.span.in(t_)) + ") " +
               attrs + " : (" + type + ") -> " + type + "\n" + std::string(indent);
      ctx_.rw.replace(use.span, name);
    }
    if (!lines.empty()) ctx_.rw.insert(ret.whole.begin, std::move(lines));
    return okStatus();
  }

  Status saveMeshes(int module, std::vector<std::pair<std::string, std::string>>& meshes) {
    std::string value = sortedDict(meshes);
    if (module < 0) {
      // A file without `module {...}`: its ops form the module, which now
      // needs attributes, so it is written out (its body bytes unchanged).
      std::string head = "module attributes {" + std::string(kFrontendAttrs) + " = " +
                         frontendDict({{"xla.sdy.meshes", value}}) + "} {\n";
      ctx_.rw.insert(0, std::move(head));
      ctx_.rw.insert(t_.size(), std::string(!t_.empty() && t_.back() != '\n' ? "\n" : "") + "}\n");
      return okStatus();
    }
    const OpNode& m = tree_.ops[module];
    if (m.dict.present()) {
      edits_[&m.dict].strings.push_back({"xla.sdy.meshes", value});
      return okStatus();
    }
    size_t at = m.symbol.empty() ? m.nameSpan.end : m.symbol.end;
    ctx_.rw.insert(at, " attributes {" + std::string(kFrontendAttrs) + " = " +
                           frontendDict({{"xla.sdy.meshes", value}}) + "}");
    return okStatus();
  }

  PassContext& ctx_;
  std::string_view t_;
  const OpTree& tree_;
  FreshNames names_;
  bool v3_;
  sdy::Context sctx_;
  std::map<const AttrDictNode*, DictEdit> edits_;
};

}  // namespace

Status runRoundTripExportShardyAttrs(PassContext& ctx) {
  ExportShardyAttrs pass(ctx);
  return pass.run();
}

}  // namespace shardbridge::module
