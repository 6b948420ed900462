// exportModule (convert_module.h): the export pass over the old scanner.
#include "module/convert_module_detail.h"
#include "module/tree_scan.h"

namespace shardbridge::module {
namespace {

using namespace convert_detail;

struct ExportState {
  TypeAliases aliases;  // the file's `!t = ...` definitions
  std::map<std::string, sdy::MeshAttr, std::less<>> meshes;
  std::map<std::string, Span, std::less<>> meshOps;  // name -> statement
  std::set<std::string, std::less<>> keep;
  bool keepAll = false;
  std::vector<ModuleWarning> warnings;
};

class ExportCollect : public module_detail::ScanVisitor {
 public:
  ExportCollect(std::string_view t, sdy::Context& ctx, ExportState& st, bool readRoundTrip)
      : t_(t), ctx_(ctx), st_(st), readRoundTrip_(readRoundTrip) {}
  // Only meshes and the ops left in sdy form matter before the rewrite.
  bool wantsValueDicts() const override { return false; }

  Status onMesh(const MeshOp& op) override {
    TextOrigin origin{op.body.in(t_), op.body.begin, false};
    SB_ASSIGN_OR_RETURN(sdy::MeshAttr mesh, parseMeshText(ctx_, op.body.in(t_), origin));
    std::string name(op.name);
    if (st_.meshes.count(name))
      return makeError(ErrorCode::kInvalid, "redefinition of symbol named '" + name + "'",
                       op.statement.begin);
    st_.meshes[name] = mesh;
    st_.meshOps[name] = op.statement;
    return okStatus();
  }

  Status onDict(const ValueDict& vd) override {
    if (vd.kind != SiteKind::kModule || !readRoundTrip_) return okStatus();
    const DictEntry* frontend;
    const AttrDict* inner;
    const DictEntry* e = moduleMeshesEntry(*vd.dict, &frontend, &inner);
    if (!e) return okStatus();
    SB_ASSIGN_OR_RETURN(auto meshes, roundTripMeshes(ctx_, t_, *e));
    for (auto& [name, mesh] : meshes) {
      if (st_.meshes.count(name))
        return makeError(ErrorCode::kInvalid, "redefinition of symbol named '" + name + "'",
                         e->value.begin);
      st_.meshes[name] = mesh;
    }
    return okStatus();
  }

  Status onManualComputation(const ManualComputationOp& op) override {
    std::set<std::string> names;
    for (const auto* list : {&op.inShardings, &op.outShardings}) {
      for (const Span& s : *list) {
        auto sharding = sdy::parseTensorSharding(ctx_, s.in(t_));
        if (!sharding) return sharding.error().shifted(s.begin);
        sdy::MeshOrRef ref = sharding->meshOrRef();
        if (ref.isRef()) names.insert(std::string(ref.refName()));
      }
    }
    std::string list;
    for (const std::string& n : names) {
      st_.keep.insert(n);
      list += (list.empty() ? "@" : ", @") + n;
    }
    st_.warnings.push_back(
        {op.offset, "sdy.manual_computation left in sdy form (its lowering to XLA's "
                    "@SPMDFullToShardShape/@SPMDShardToFullShape custom calls is not supported)" +
                        (list.empty() ? std::string() : "; keeping sdy.mesh " + list)});
    return okStatus();
  }

  Status onOtherSdyOp(std::string_view name, size_t offset) override {
    st_.keepAll = true;
    st_.warnings.push_back({offset, std::string(name) + " left in sdy form (not converted); keeping every sdy.mesh"});
    return okStatus();
  }

 private:
  std::string_view t_;
  sdy::Context& ctx_;
  ExportState& st_;
  bool readRoundTrip_;
};

class ExportRewrite : public module_detail::ScanVisitor {
 public:
  ExportRewrite(std::string_view t, sdy::Context& ctx, ExportState& st, Emitter& out,
                const ExportModuleOptions& options)
      : t_(t), ctx_(ctx), st_(st), out_(out), options_(options) {
    lookup_ = [this](std::string_view name) -> sdy::MeshAttr {
      auto it = st_.meshes.find(name);
      return it == st_.meshes.end() ? sdy::MeshAttr() : it->second;
    };
  }

  Status onMesh(const MeshOp& op) override {
    if (st_.keepAll || st_.keep.count(std::string(op.name)) ||
        std::find(options_.keepMeshes.begin(), options_.keepMeshes.end(), op.name) != options_.keepMeshes.end())
      return okStatus();
    // A trailing `loc(...)` goes with the op (real dumps carry one).
    Span statement = op.statement;
    size_t p = statement.end;
    while (p < t_.size() && (t_[p] == ' ' || t_[p] == '\t')) ++p;
    if (t_.substr(p, 4) == "loc(") {
      int depth = 0;
      for (size_t q = p + 3; q < t_.size(); ++q) {
        if (t_[q] == '"') {
          ++q;
          while (q < t_.size() && t_[q] != '"') q += t_[q] == '\\' ? 2 : 1;
        } else if (t_[q] == '(') {
          ++depth;
        } else if (t_[q] == ')' && --depth == 0) {
          statement.end = q + 1;
          break;
        }
      }
    }
    Span s = lineOf(t_, statement);
    return out_.edit(s.begin, s.end, "");
  }

  Status onDict(const ValueDict& vd) override {
    if (vd.kind == SiteKind::kModule) return okStatus();
    const AttrDict& d = *vd.dict;
    const DictEntry* sdyEntry = d.find("sdy.sharding");
    const DictEntry* mhloEntry = d.find("mhlo.sharding");
    const DictEntry* frontend = nullptr;
    const DictEntry* roundTrip =
        options_.readRoundTrip ? d.findFrontend("xla.sdy.sharding", &frontend) : nullptr;
    bool perValue = vd.kind == SiteKind::kOp;
    std::vector<Edit>& edits = edits_;  // reused: one allocation, not one a dictionary
    edits.clear();
    // `xla.sdy.manual_axes = #sdy<manual_axes{"a"}>`, written by the
    // shard-map export on everything inside a manual computation: the axes
    // the sharding is exported with (as a MANUAL subgroup); the entry goes.
    const DictEntry* manualEntry = d.find("xla.sdy.manual_axes");
    const module_detail::ManualScope* manual = vd.manual;
    if (manualEntry) {
      std::string_view v = manualEntry->value.in(t_);
      if (!v.starts_with("#sdy<manual_axes{"))
        return makeError(ErrorCode::kParse, "expected #sdy<manual_axes{...}> for xla.sdy.manual_axes",
                         manualEntry->value.begin);
      // Every op of an outlined body carries the same attribute: the axes
      // of the last one read are kept (a vector of strings a dictionary).
      if (v != writtenText_) {
        written_.axes.clear();
        for (size_t q = 0; q < v.size(); ++q) {
          if (v[q] != '"') continue;
          size_t e = v.find('"', q + 1);
          if (e == std::string_view::npos) break;
          written_.axes.emplace_back(v.substr(q + 1, e - q - 1));
          q = e;
        }
        writtenText_ = v;
      }
      manual = &written_;
      if (!sdyEntry && !roundTrip) {
        // Only the manual axes (a terminator): the entry, or the dictionary, goes.
        std::vector<EntryAction>& actions = actions_;  // reused: no allocation a dictionary
        actions.assign(d.entries.size(), EntryAction());
        actions[static_cast<size_t>(manualEntry - d.entries.data())] = {Action::kDelete, ""};
        if (allDeleted(actions)) {
          size_t b = d.whole.begin;
          while (b > 0 && (t_[b - 1] == ' ' || t_[b - 1] == '\t')) --b;
          return out_.edit(b, d.whole.end, "");
        }
        dictEdits(d, actions, edits);
        return out_.edits(edits);
      }
    }
    if (sdyEntry) {
      TextOrigin origin{sdyEntry->value.in(t_), sdyEntry->value.begin, false};
      SB_ASSIGN_OR_RETURN(const std::string* encoded, exportText(origin, origin.raw, perValue, vd, manual));
      if (!mhloEntry && !manualEntry) {
        // The common case, without temporaries.
        entry_.assign("mhlo.sharding = ");
        entry_ += *encoded;
        return out_.edit(sdyEntry->whole.begin, sdyEntry->whole.end, entry_);
      }
      const std::string& value = *encoded;
      std::vector<EntryAction>& actions = actions_;
      actions.assign(d.entries.size(), EntryAction());
      size_t sdyIndex = static_cast<size_t>(sdyEntry - d.entries.data());
      if (mhloEntry) {
        // Both present: the export wins, in mhlo.sharding's place.
        size_t mhloIndex = static_cast<size_t>(mhloEntry - d.entries.data());
        actions[mhloIndex] = {Action::kReplace, "mhlo.sharding = " + value};
        actions[sdyIndex] = {Action::kDelete, ""};
      } else {
        actions[sdyIndex] = {Action::kReplace, "mhlo.sharding = " + value};
      }
      if (manualEntry) actions[static_cast<size_t>(manualEntry - d.entries.data())] = {Action::kDelete, ""};
      dictEdits(d, actions, edits);
    } else if (roundTrip) {
      std::string_view literal = roundTrip->value.in(t_);
      if (literal.empty() || literal.front() != '"')
        return makeError(ErrorCode::kParse, "expected a string for xla.sdy.sharding", roundTrip->value.begin);
      std::string once;
      auto decoded = module_detail::decodeRoundTripLiteral(literal, &once);
      if (!decoded) return decoded.error().shifted(roundTrip->value.begin);
      TextOrigin origin{literal, roundTrip->value.begin, true, std::move(once)};
      SB_ASSIGN_OR_RETURN(const std::string* encoded, exportText(origin, *decoded, perValue, vd, manual));
      const std::string& value = *encoded;
      if (mhloEntry) {
        edits.push_back({mhloEntry->value.begin, mhloEntry->value.end, value});
      } else {
        edits.push_back({frontend->whole.end, frontend->whole.end, ", mhlo.sharding = " + value});
      }
    }
    return out_.edits(edits);
  }

  Status onConstraint(const ConstraintOp& op) override {
    TextOrigin origin{op.sharding.in(t_), op.sharding.begin, false};
    ValueDict vd;
    vd.kind = SiteKind::kArg;  // one value with its type
    vd.typesKnown = true;
    vd.types.push_back(op.type);
    SB_ASSIGN_OR_RETURN(const std::string* encoded, exportText(origin, origin.raw, false, vd, op.manual));
    std::string type(op.type.in(t_));
    std::string text = "stablehlo.custom_call @Sharding(" + std::string(op.operand.in(t_)) +
                       ") {mhlo.sharding = " + *encoded + "} : (" + type + ") -> " + type;
    return out_.edit(op.op.begin, op.op.end, text);
  }

 private:
  // The exported HLO sharding string of `text` (a sharding, or a
  // sharding_per_value when `perValue`), verified against the value types,
  // as an MLIR string literal. Cached by text, types and manual axes: real
  // modules repeat a few shardings many times.
  Result<const std::string*> exportText(const TextOrigin& origin, std::string_view text, bool perValue,
                                        const ValueDict& vd, const module_detail::ManualScope* manual) {
    std::string& key = key_;
    key.clear();
    key += perValue ? 'v' : 's';
    key += text;
    key += '\x1e';
    for (const Span& s : vd.types) {
      key += s.in(t_);
      key += '\x1f';
    }
    key += '\x1e';
    if (manual) {
      for (const std::string& a : manual->axes) {
        key += a;
        key += '\x1f';
      }
    }
    if (auto it = cache_.find(key); it != cache_.end()) return &it->second;

    std::span<const std::string> axes;
    if (manual) axes = manual->axes;
    std::optional<std::vector<MlirType>> types = parseTypes(t_, vd, st_.aliases);
    sdy::SourceMap where;
    sdy::VerifyOptions verify;
    verify.locations = &where;
    convert::ExportOptions exportOptions;
    exportOptions.v3 = options_.v3;
    Result<hlo::HloSharding> result = makeError(ErrorCode::kInternal, "not converted");
    if (perValue) {
      auto parsed = sdy::parseTensorShardingPerValue(ctx_, text, &where);
      if (!parsed) return origin.locate(parsed.error());
      if (Status ok = sdy::verifyTensorShardingPerValue(*parsed, lookup_, types, verify); !ok)
        return origin.locate(ok.error());
      result = convert::convertToHloSharding(*parsed, lookup_, axes, exportOptions);
    } else {
      auto parsed = sdy::parseTensorSharding(ctx_, text, &where);
      if (!parsed) return origin.locate(parsed.error());
      std::optional<MlirType> type;
      if (types && types->size() == 1) type = (*types)[0];
      if (Status ok = sdy::verifyTensorSharding(*parsed, lookup_, type, verify); !ok)
        return origin.locate(ok.error());
      result = convert::convertToHloSharding(*parsed, lookup_, axes, exportOptions);
    }
    if (!result) {
      Error e = result.error();
      e.dropOffsets();
      e.offset = origin.base;
      return e;
    }
    std::string printed = module_detail::encodeStringLiteral(hlo::printSharding(*result, /*includeMetadata=*/true));
    return &cache_.emplace(key, std::move(printed)).first->second;
  }

  std::string_view t_;
  sdy::Context& ctx_;
  ExportState& st_;
  Emitter& out_;
  const ExportModuleOptions& options_;
  sdy::MeshLookup lookup_;
  // Node-based: pointers to cached values stay valid as it grows.
  std::unordered_map<std::string, std::string> cache_;
  std::string key_;
  std::string entry_;
  std::vector<Edit> edits_;
  std::vector<EntryAction> actions_;
  // The last xla.sdy.manual_axes value read (a view of t_) and its axes.
  std::string_view writtenText_;
  module_detail::ManualScope written_;
};

// =============================================================================
// Import
// =============================================================================

}  // namespace

namespace {

// The export over `scan`, which reports a module's events to a visitor
// (scanText over the text, or scanTree over a pass's op tree).
template <typename Scan>
Result<ConvertedModule> exportWith(std::string_view text, const ExportModuleOptions& options, Scan&& scan,
                                   bool readAliasLines = true) {
  sdy::Context ctx;
  ExportState state;
  state.aliases = collectTypeAliases(text, options.typeAliases, readAliasLines);
  ExportCollect collect(text, ctx, state, options.readRoundTrip);
  SB_TRY(scan(collect));
  Emitter out(text);
  ExportRewrite rewrite(text, ctx, state, out, options);
  SB_TRY(scan(rewrite));
  ConvertedModule result;
  result.text = out.finish();
  result.warnings = std::move(state.warnings);
  return result;
}

}  // namespace

Result<ConvertedModule> exportModule(std::string_view text, const ExportModuleOptions& options) {
  return exportWith(text, options, [&](module_detail::ScanVisitor& v) -> Status {
    SB_TRY(module_detail::scanText(text, v));
    return okStatus();
  });
}

Result<ConvertedModule> exportModuleOnTree(const OpTree& tree, TextSpan span, const ExportModuleOptions& options) {
  std::string_view text = span.in(tree.text);
  bool onTree = true;  // scanTree answers the same for both visitors
  module_detail::TreeScanPlan plan;  // the collect's walk, replayed for the rewrite
  return exportWith(text, options, [&](module_detail::ScanVisitor& v) -> Status {
    if (onTree) {
      SB_ASSIGN_OR_RETURN(bool done, module_detail::scanTree(tree, span, v, nullptr, &plan));
      if (done) return okStatus();
      onTree = false;
    }
    SB_TRY(module_detail::scanText(text, v));
    return okStatus();
  }, module_detail::aliasLinesIn(tree, span));
}

}  // namespace shardbridge::module
