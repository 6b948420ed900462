#include "shardbridge/module/mlir_scan.h"

#include "module/scanner.h"

namespace shardbridge::module {
namespace {

using module_detail::AttrDict;
using module_detail::ConstraintOp;
using module_detail::DictEntry;
using module_detail::ManualComputationOp;
using module_detail::MeshOp;
using module_detail::SiteKind;
using module_detail::Span;
using module_detail::ValueDict;

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

class Collector : public module_detail::ScanVisitor {
 public:
  explicit Collector(std::string_view text) : t_(text), lines_(text) {}
  MlirScan scan;

  Status onMesh(const MeshOp& op) override {
    MlirMeshDef m;
    m.name = std::string(op.name);
    m.text = std::string(op.body.in(t_));
    m.offset = op.statement.begin;
    lines_.at(m.offset, m.line, m.column);
    scan.meshes.push_back(std::move(m));
    return okStatus();
  }

  Status onDict(const ValueDict& vd) override {
    const AttrDict& d = *vd.dict;
    if (vd.kind == SiteKind::kModule) {
      const DictEntry* meshes = d.find("xla.sdy.meshes");
      if (!meshes) meshes = d.findFrontend("xla.sdy.meshes");
      if (meshes) return addMeshes(*meshes);
      return okStatus();
    }
    std::string place = placeOf(vd);
    for (const DictEntry& e : d.entries) {
      if (e.name == "sdy.sharding") {
        SB_TRY(add(place, "sdy.sharding", e.value, false));
      } else if (e.name == "mhlo.sharding") {
        SB_TRY(add(place, "mhlo.sharding", e.value, true));
      } else if (e.nested >= 0) {
        if (const DictEntry* f = d.children[e.nested].find("xla.sdy.sharding"))
          SB_TRY(add(place, "xla.sdy.sharding", f->value, true));
      }
    }
    return okStatus();
  }

  Status onConstraint(const ConstraintOp& op) override {
    return add("sdy.sharding_constraint " + std::string(op.operand.in(t_)), "sdy.sharding_constraint",
               op.sharding, false);
  }

  Status onManualComputation(const ManualComputationOp& op) override {
    for (size_t i = 0; i < op.inShardings.size(); ++i)
      SB_TRY(add("sdy.manual_computation in_shardings[" + std::to_string(i) + "]", "in_shardings",
                 op.inShardings[i], false));
    for (size_t i = 0; i < op.outShardings.size(); ++i)
      SB_TRY(add("sdy.manual_computation out_shardings[" + std::to_string(i) + "]", "out_shardings",
                 op.outShardings[i], false));
    return okStatus();
  }

 private:
  std::string placeOf(const ValueDict& vd) const {
    switch (vd.kind) {
      case SiteKind::kArg:
        return "@" + std::string(vd.funcName) + " " +
               (vd.argName.empty() ? "argument " + std::to_string(vd.index) : std::string(vd.argName));
      case SiteKind::kResult:
        return "@" + std::string(vd.funcName) + " result " + std::to_string(vd.index);
      case SiteKind::kOp:
        if (vd.opResults.empty()) return std::string(vd.opName);
        return std::string(vd.opResults) + " = " + std::string(vd.opName);
      case SiteKind::kModule:
        break;
    }
    return "module";
  }

  Status add(std::string place, const char* attribute, Span value, bool isString) {
    MlirShardingSite s;
    s.offset = value.begin;
    s.length = value.end - value.begin;
    lines_.at(s.offset, s.line, s.column);
    s.place = std::move(place);
    s.attribute = attribute;
    if (isString && !value.empty() && t_[value.begin] == '"') {
      auto decoded = module_detail::decodeStringLiteral(value.in(t_));
      if (!decoded) return decoded.error().shifted(value.begin);
      s.value = std::move(*decoded);
    } else {
      s.value = std::string(value.in(t_));
    }
    scan.shardings.push_back(std::move(s));
    return okStatus();
  }

  // `xla.sdy.meshes = "{mesh = #sdy.mesh<...>, other = #sdy.mesh<...>}"`.
  Status addMeshes(const DictEntry& e);

  std::string_view t_;
  LineTracker lines_;
};

}  // namespace


Status Collector::addMeshes(const DictEntry& e) {
  std::string_view literal = e.value.in(t_);
  if (literal.empty() || literal.front() != '"')
    return makeError(ErrorCode::kParse, "expected a string for xla.sdy.meshes", e.value.begin);
  auto decoded = module_detail::decodeStringLiteral(literal);
  if (!decoded) return decoded.error().shifted(e.value.begin);
  auto parts = module_detail::splitMeshDict(*decoded);
  if (!parts) {
    Error err = parts.error();
    err.offset = e.value.begin + (err.hasOffset() ? module_detail::rawOffsetInLiteral(literal, err.offset) : 0);
    return err;
  }
  for (auto& [name, mesh] : *parts) {
    MlirMeshDef m;
    m.name = name;
    m.text = mesh.first;
    m.offset = e.value.begin;
    lines_.at(m.offset, m.line, m.column);
    scan.meshes.push_back(std::move(m));
  }
  return okStatus();
}

Result<MlirScan> scanMlir(std::string_view text) {
  Collector c(text);
  SB_TRY(module_detail::scanText(text, c));
  return std::move(c.scan);
}

}  // namespace shardbridge::module
