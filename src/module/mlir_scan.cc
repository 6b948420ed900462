#include "shardbridge/module/mlir_scan.h"

#include <algorithm>
#include <map>

#include "module/manual_computation.h"
#include "module/op_types.h"
#include "module/scanner.h"
#include "module/sharding_sites.h"
#include "module/text_lex.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
namespace {

using module_lex::skipBlanks;

// Line and column of increasing offsets, in one pass over the text.
class LineTracker {
 public:
  explicit LineTracker(std::string_view text) : t_(text) {}
  void at(size_t offset, int& line, int& column) {
    if (offset < pos_) {
      pos_ = 0;
      line_ = 1;
      lineStart_ = 0;
    }
    for (; pos_ < offset && pos_ < t_.size(); ++pos_) {
      if (t_[pos_] == '\n') {
        ++line_;
        lineStart_ = pos_ + 1;
      }
    }
    line = line_;
    column = static_cast<int>(offset - lineStart_) + 1;
  }

 private:
  std::string_view t_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t lineStart_ = 0;
};

// The types written at a site, when every one is readable; a type this
// reader does not know leaves them unchecked rather than rejected.
std::optional<std::vector<MlirType>> readTypes(const std::vector<std::string>& texts) {
  std::vector<MlirType> types;
  for (const std::string& s : texts) {
    auto type = parseMlirType(s);
    if (!type) return std::nullopt;
    types.push_back(std::move(*type));
  }
  return types;
}

class TreeScan {
 public:
  TreeScan(std::string_view text, const OpTree& tree) : t_(text), tree_(tree) {}

  Result<MlirScan> run() {
    std::vector<int> modules = tree_.modules();
    for (int m : modules) {
      scopeOf_[m] = scan_.modules.size();
      scan_.modules.push_back({std::string(tree_.ops[m].symbolName), tree_.ops[m].whole.begin});
    }
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) SB_TRY(visit(i));
    if (scan_.modules.empty()) scan_.modules.push_back({});
    std::stable_sort(scan_.shardings.begin(), scan_.shardings.end(),
                     [](const MlirShardingSite& a, const MlirShardingSite& b) { return a.offset < b.offset; });
    LineTracker lines(t_);
    for (MlirShardingSite& s : scan_.shardings) lines.at(s.offset, s.line, s.column);
    LineTracker meshLines(t_);
    for (MlirMeshDef& m : scan_.meshes) meshLines.at(m.offset, m.line, m.column);
    return std::move(scan_);
  }

 private:
  // The scope of op `i`: its top-level module's, or one shared scope for
  // ops outside every module.
  size_t scopeOf(int i) {
    int top = i;
    while (tree_.ops[top].parent >= 0) top = tree_.ops[top].parent;
    auto it = scopeOf_.find(top);
    if (it != scopeOf_.end()) return it->second;
    if (!looseScope_) {
      looseScope_ = scan_.modules.size();
      scan_.modules.push_back({"", 0});
    }
    return *looseScope_;
  }

  // The manual axes in scope inside op `i`'s regions (those of `i` itself
  // when it is a manual computation included).
  const std::vector<std::string>& axesAround(int i) {
    static const std::vector<std::string> kNone;
    for (int p = tree_.ops[i].parent; p >= 0; p = tree_.ops[p].parent) {
      auto it = regionAxes_.find(p);
      if (it != regionAxes_.end()) return it->second;
    }
    return kNone;
  }

  Status visit(int i) {
    const OpNode& op = tree_.ops[i];
    Site where;
    where.scope = scopeOf(i);
    where.manual = &axesAround(i);
    if (op.name == "module") return moduleDict(op, where.scope);
    if (op.name == "sdy.mesh") return mesh(op, where.scope);
    if (op.name == "func.func") {
      std::string f = "@" + std::string(op.symbolName) + " ";
      for (size_t a = 0; a < op.funcArgs().size(); ++a) {
        const ValueDef& arg = op.funcArgs()[a];
        where.types = readTypes({std::string(arg.type.in(t_))});
        SB_TRY(dict(arg.dict, f + (arg.name.empty() ? "argument " + std::to_string(a) : std::string(arg.name.in(t_))),
                    where));
      }
      for (size_t r = 0; r < op.funcResults().size(); ++r) {
        where.types = readTypes({std::string(op.funcResults()[r].type.in(t_))});
        SB_TRY(dict(op.funcResults()[r].dict, f + "result " + std::to_string(r), where));
      }
      return okStatus();
    }
    OpTypes types = opTypes(tree_, op);
    where.types = resultTypes(op, types);
    if (op.name == "sdy.manual_computation") {
      SB_ASSIGN_OR_RETURN(ManualComputationParts parts, readManualComputation(t_, op));
      std::vector<std::string> region = *where.manual;
      region.insert(region.end(), parts.axes.begin(), parts.axes.end());
      regionAxes_[i] = std::move(region);
      Site in = where, out = where;
      in.types = types.known && types.operands.size() == parts.in.size() ? readTypes(typeStrings(types.operands)) : std::nullopt;
      out.types = types.known && types.results.size() == parts.out.size() ? readTypes(typeStrings(types.results)) : std::nullopt;
      for (size_t k = 0; k < parts.in.size(); ++k)
        add("sdy.manual_computation in_shardings[" + std::to_string(k) + "]", "in_shardings", parts.in[k], false,
            one(in, k));
      for (size_t k = 0; k < parts.out.size(); ++k)
        add("sdy.manual_computation out_shardings[" + std::to_string(k) + "]", "out_shardings", parts.out[k], false,
            one(out, k));
    } else if (op.name == "sdy.sharding_constraint" || op.name == "sdy.reshard" || isSdyCollective(op.name)) {
      SB_ASSIGN_OR_RETURN(TextSpan s, opShardingSpan(t_, op));
      std::string place(op.name);
      if (!op.uses.empty()) place += " " + std::string(op.uses[0].span.in(t_));
      add(std::move(place), isSdyCollective(op.name) ? "out_sharding" : std::string(op.name), s, false, where);
    }
    where.onOp = true;
    std::string place = op.results.empty() ? std::string(op.name)
                                           : std::string(op.results.in(t_)) + " = " + std::string(op.name);
    return dict(op.dict, place, where);
  }

  // The op's result types: the signature's results when they are one per
  // result (`: (A) -> B`, `: B1, B2` for two results) or one for all
  // (`: T`); otherwise (`stablehlo.select`'s `: tensor<i1>, tensor<f32>`,
  // an op without results) not known.
  static std::optional<std::vector<MlirType>> resultTypes(const OpNode& op, const OpTypes& types) {
    if (!types.known) return std::nullopt;
    size_t n = static_cast<size_t>(resultCount(op));
    if (types.results.size() == n) return readTypes(typeStrings(types.results));
    if (types.operands.empty() && types.results.size() == 1 && n > 1)
      return readTypes(std::vector<std::string>(n, std::string(types.results[0])));
    return std::nullopt;
  }

  struct Site {
    size_t scope = 0;
    const std::vector<std::string>* manual = nullptr;
    std::optional<std::vector<MlirType>> types;
    bool onOp = false;
  };

  // `site` narrowed to its `k`-th type.
  static Site one(const Site& site, size_t k) {
    Site s = site;
    if (s.types) s.types = std::vector<MlirType>{(*s.types)[k]};
    return s;
  }

  Status dict(const AttrDictNode& d, const std::string& place, const Site& where) {
    for (const AttrEntry& e : d.entries) {
      if (e.name == "sdy.sharding") {
        add(place, "sdy.sharding", e.value, false, where);
      } else if (e.name == "mhlo.sharding") {
        SB_TRY(addString(place, "mhlo.sharding", e.value, where));
      } else if (e.name == "mhlo.frontend_attributes" && !e.value.empty() && t_[e.value.begin] == '{') {
        SB_ASSIGN_OR_RETURN(AttrDictNode inner, parseAttrDict(t_, e.value.begin));
        if (const AttrEntry* f = inner.find("xla.sdy.sharding")) SB_TRY(addString(place, "xla.sdy.sharding", f->value, where));
      }
    }
    return okStatus();
  }

  Status moduleDict(const OpNode& op, size_t scope) {
    const AttrDictNode& d = op.dict;
    Site where;
    where.scope = scope;
    where.manual = &noAxes_;
    const AttrEntry* meshes = d.find("xla.sdy.meshes");
    std::optional<AttrDictNode> frontend;
    if (const AttrEntry* f = d.find("mhlo.frontend_attributes"); f && !f->value.empty() && t_[f->value.begin] == '{') {
      SB_ASSIGN_OR_RETURN(frontend, parseAttrDict(t_, f->value.begin));
      if (!meshes) meshes = frontend->find("xla.sdy.meshes");
    }
    if (meshes) SB_TRY(addMeshes(*meshes, scope));
    for (std::string_view key : {"mhlo.spmd_output_sharding", "mhlo.spmd_parameters_shardings"}) {
      const AttrEntry* e = d.find(key);
      if (!e || e->value.empty()) continue;
      std::string what = key == "mhlo.spmd_output_sharding" ? "output" : "parameter";
      if (t_[e->value.begin] == '"') {
        SB_TRY(addString("module " + what, std::string(key), e->value, where));
        continue;
      }
      if (t_[e->value.begin] != '[') continue;
      // An array of strings: one sharding per parameter (or, as some
      // producers write it, per output).
      size_t p = skipBlanks(t_, e->value.begin + 1);
      for (int k = 0; p < e->value.end && t_[p] == '"'; ++k) {
        SB_ASSIGN_OR_RETURN(size_t end, module_lex::skipString(t_, p));
        SB_TRY(addString("module " + what + " " + std::to_string(k), std::string(key), {p, end}, where));
        p = skipBlanks(t_, end);
        if (p < e->value.end && t_[p] == ',') p = skipBlanks(t_, p + 1);
      }
    }
    return okStatus();
  }

  Status mesh(const OpNode& op, size_t scope) {
    std::string_view text = meshOpText(t_, op);
    size_t p = skipBlanks(t_, op.symbol.empty() ? op.nameSpan.end : op.symbol.end);
    size_t end = op.whole.begin + text.size();
    if (p >= end || t_[p] != '=')
      return makeError(ErrorCode::kParse, "expected '=' after the mesh name, got " + module_lex::describe(t_, p), p);
    p = skipBlanks(t_, p + 1);
    MlirMeshDef m;
    m.name = std::string(op.symbolName);
    m.text = std::string(t_.substr(p, end - p));
    m.offset = op.whole.begin;
    m.module = scope;
    scan_.meshes.push_back(std::move(m));
    return okStatus();
  }

  void add(std::string place, std::string attribute, TextSpan value, bool decoded, const Site& where,
           std::string text = {}) {
    MlirShardingSite s;
    s.offset = value.begin;
    s.length = value.size();
    s.place = std::move(place);
    s.attribute = std::move(attribute);
    s.value = decoded ? std::move(text) : std::string(value.in(t_));
    s.module = where.scope;
    s.types = where.types;
    s.onOp = where.onOp;
    if (where.manual) s.manualAxes = *where.manual;
    scan_.shardings.push_back(std::move(s));
  }

  Status addString(std::string place, std::string attribute, TextSpan value, const Site& where) {
    if (value.empty() || t_[value.begin] != '"') {
      add(std::move(place), std::move(attribute), value, false, where);
      return okStatus();
    }
    auto decoded = module_detail::decodeStringLiteral(value.in(t_));
    if (!decoded) return decoded.error().shifted(value.begin);
    add(std::move(place), std::move(attribute), value, true, where, std::move(*decoded));
    return okStatus();
  }

  // `xla.sdy.meshes = "{mesh = #sdy.mesh<...>, other = #sdy.mesh<...>}"`.
  Status addMeshes(const AttrEntry& e, size_t scope) {
    std::string_view literal = e.value.in(t_);
    if (literal.empty() || literal.front() != '"')
      return makeError(ErrorCode::kParse, "expected a string for xla.sdy.meshes", e.value.begin);
    auto decoded = module_detail::decodeStringLiteral(literal);
    if (!decoded) return decoded.error().shifted(e.value.begin);
    auto parts = module_detail::splitMeshDict(*decoded);
    if (!parts) {
      Error err = parts.error();
      err.offset =
          e.value.begin + (err.hasOffset() ? module_detail::rawOffsetInLiteral(literal, err.offset) : 0);
      return err;
    }
    for (auto& [name, mesh] : *parts) {
      MlirMeshDef m;
      m.name = name;
      m.text = mesh.first;
      m.offset = e.value.begin;
      m.module = scope;
      scan_.meshes.push_back(std::move(m));
    }
    return okStatus();
  }

  std::string_view t_;
  const OpTree& tree_;
  MlirScan scan_;
  std::map<int, size_t> scopeOf_;
  std::optional<size_t> looseScope_;
  std::map<int, std::vector<std::string>> regionAxes_;
  const std::vector<std::string> noAxes_;
};

}  // namespace

Result<MlirScan> scanMlir(std::string_view text) {
  SB_ASSIGN_OR_RETURN(OpTree tree, parseOpTree(text));
  return TreeScan(text, tree).run();
}

}  // namespace shardbridge::module
