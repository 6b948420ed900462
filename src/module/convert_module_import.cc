// importModule (convert_module.h): the import pass over the old scanner.
#include "module/convert_module_detail.h"

#include <span>

#include "module/import_seed.h"
#include "module/tree_scan.h"

namespace shardbridge::module {
namespace {

using namespace convert_detail;

// `mhlo.sharding` contents, located in the module.
Result<hlo::HloSharding> parseMhloSharding(const std::string& decoded, const TextOrigin& origin) {
  auto s = readMhloSharding(decoded);
  if (!s) return origin.locate(s.error());
  return std::move(*s);
}

struct ImportState {
  TypeAliases aliases;  // the file's `!t = ...` definitions
  std::vector<hlo::HloSharding> shardings;             // distinct, first-seen order
  std::unordered_map<std::string, int> index;           // decoded text -> shardings index
  std::unordered_map<std::string_view, int> rawIndex;   // string literal (a view of the input) -> index
  std::map<std::string, size_t, std::less<>> existing;  // sdy.mesh ops and round-trip meshes -> offset
  std::map<std::string, sdy::MeshAttr, std::less<>> meshes;  // every mesh known by name
  std::vector<std::pair<std::string, sdy::MeshAttr>> roundTrip;
};

class ImportCollect : public module_detail::ScanVisitor {
 public:
  ImportCollect(std::string_view t, sdy::Context& ctx, ImportState& st, const ImportSeed* seed)
      : t_(t), ctx_(ctx), st_(st), seed_(seed) {}

  Status onMesh(const MeshOp& op) override {
    std::string name(op.name);
    if (st_.existing.count(name))
      return makeError(ErrorCode::kInvalid, "redefinition of symbol named '" + name + "'", op.statement.begin);
    TextOrigin origin{op.body.in(t_), op.body.begin, false};
    SB_ASSIGN_OR_RETURN(sdy::MeshAttr mesh, parseMeshText(ctx_, op.body.in(t_), origin));
    st_.existing[name] = op.statement.begin;
    st_.meshes[name] = mesh;
    return okStatus();
  }

  Status onDict(const ValueDict& vd) override {
    const AttrDict& d = *vd.dict;
    if (vd.kind == SiteKind::kModule) {
      const DictEntry* frontend;
      const AttrDict* inner;
      const DictEntry* e = moduleMeshesEntry(d, &frontend, &inner);
      if (!e) return okStatus();
      SB_ASSIGN_OR_RETURN(auto meshes, roundTripMeshes(ctx_, t_, *e));
      for (auto& [name, mesh] : meshes) {
        if (st_.existing.count(name))
          return makeError(ErrorCode::kInvalid, "redefinition of symbol named '" + name + "'", e->value.begin);
        st_.existing[name] = e->value.begin;
        st_.meshes[name] = mesh;
        st_.roundTrip.push_back({name, mesh});
      }
      return okStatus();
    }
    if (d.findFrontend("xla.sdy.sharding")) return okStatus();
    const DictEntry* mhlo = d.find("mhlo.sharding");
    if (!mhlo) return okStatus();
    std::string_view literal = mhlo->value.in(t_);
    if (st_.rawIndex.count(literal)) return okStatus();
    if (literal.empty() || literal.front() != '"')
      return makeError(ErrorCode::kParse, "expected a string for mhlo.sharding", mhlo->value.begin);
    auto decoded = module_detail::decodeStringLiteral(literal);
    if (!decoded) return decoded.error().shifted(mhlo->value.begin);
    if (auto it = st_.index.find(*decoded); it != st_.index.end()) {
      st_.rawIndex.emplace(literal, it->second);
      return okStatus();
    }
    if (seed_) {
      // A part of a module (import_seed.h): its shardings must be the
      // module's, which give its mesh.
      auto it = seed_->index.find(*decoded);
      if (it == seed_->index.end())
        return makeError(ErrorCode::kInternal, "a sharding the module's seed lacks", mhlo->value.begin);
      seed_->used[it->second].store(true, std::memory_order_relaxed);
    }
    TextOrigin origin{literal, mhlo->value.begin, true};
    SB_ASSIGN_OR_RETURN(hlo::HloSharding s, parseMhloSharding(*decoded, origin));
    int index = static_cast<int>(st_.shardings.size());
    st_.index.emplace(std::move(*decoded), index);
    st_.rawIndex.emplace(literal, index);
    st_.shardings.push_back(std::move(s));
    return okStatus();
  }

 private:
  std::string_view t_;
  sdy::Context& ctx_;
  ImportState& st_;
  const ImportSeed* seed_;
};


class ImportRewrite : public module_detail::ScanVisitor {
 public:
  ImportRewrite(std::string_view t, sdy::Context& ctx, ImportState& st, Emitter& out,
                const ImportModuleOptions& options, sdy::MeshAttr mesh,
                std::map<int64_t, std::string> singleDevice)
      : t_(t), ctx_(ctx), st_(st), out_(out), options_(options), mesh_(mesh),
        singleDevice_(std::move(singleDevice)) {
    lookup_ = [this](std::string_view name) -> sdy::MeshAttr {
      auto it = st_.meshes.find(name);
      return it == st_.meshes.end() ? sdy::MeshAttr() : it->second;
    };
  }

  Status onDict(const ValueDict& vd) override {
    const AttrDict& d = *vd.dict;
    std::vector<Edit>& edits = edits_;  // reused: one allocation, not one a dictionary
    edits.clear();
    if (vd.kind == SiteKind::kModule) {
      const DictEntry* frontend;
      const AttrDict* inner;
      const DictEntry* e = moduleMeshesEntry(d, &frontend, &inner);
      if (!e) return okStatus();
      removeEntry(d, frontend, inner, e, /*replacement=*/"", edits, vd.attributesKeyword);
      return out_.edits(edits);
    }
    const DictEntry* frontend = nullptr;
    const AttrDict* inner = nullptr;
    const DictEntry* roundTrip = d.findFrontend("xla.sdy.sharding", &frontend, &inner);
    const DictEntry* mhlo = d.find("mhlo.sharding");
    bool perValue = vd.kind == SiteKind::kOp;
    if (roundTrip) {
      std::string_view literal = roundTrip->value.in(t_);
      if (literal.empty() || literal.front() != '"')
        return makeError(ErrorCode::kParse, "expected a string for xla.sdy.sharding", roundTrip->value.begin);
      auto decoded = module_detail::decodeStringLiteral(literal);
      if (!decoded) return decoded.error().shifted(roundTrip->value.begin);
      TextOrigin origin{literal, roundTrip->value.begin, true};
      SB_ASSIGN_OR_RETURN(std::string canonical, canonicalSdy(origin, *decoded, perValue, vd));
      std::string entry = "sdy.sharding = " + canonical;
      // xla.sdy.sharding leaves the frontend attributes; sdy.sharding takes
      // mhlo.sharding's place (or the frontend attributes', when they empty).
      std::vector<EntryAction> innerActions(inner->entries.size());
      innerActions[static_cast<size_t>(roundTrip - inner->entries.data())] = {Action::kDelete, ""};
      std::vector<EntryAction> actions(d.entries.size());
      size_t frontendIndex = static_cast<size_t>(frontend - d.entries.data());
      bool placed = false;
      if (mhlo) {
        actions[static_cast<size_t>(mhlo - d.entries.data())] = {Action::kReplace, entry};
        placed = true;
      }
      if (allDeleted(innerActions)) {
        actions[frontendIndex] = placed ? EntryAction{Action::kDelete, ""} : EntryAction{Action::kReplace, entry};
        placed = true;
      } else {
        dictEdits(*inner, innerActions, edits);
      }
      dictEdits(d, actions, edits);
      if (!placed) edits.push_back({d.entries.back().whole.end, d.entries.back().whole.end, ", " + entry});
      return out_.edits(edits);
    }
    if (!mhlo) return okStatus();
    std::string_view literal = mhlo->value.in(t_);
    auto it = st_.rawIndex.find(literal);
    if (it == st_.rawIndex.end()) return makeError(ErrorCode::kInternal, "sharding not collected", mhlo->value.begin);
    TextOrigin origin{literal, mhlo->value.begin, true};
    SB_ASSIGN_OR_RETURN(const std::string* sdyText, importText(origin, it->second, perValue, vd));
    entry_.assign("sdy.sharding = ");
    entry_ += *sdyText;
    return out_.edit(mhlo->whole.begin, mhlo->whole.end, entry_);
  }

 private:
  // Removes entry `e` of `d` (or of the frontend dictionary `inner` inside
  // entry `frontend` of `d`); a module dictionary left empty goes with its
  // `attributes` keyword.
  void removeEntry(const AttrDict& d, const DictEntry* frontend, const AttrDict* inner,
                   const DictEntry* e, const std::string&, std::vector<Edit>& edits,
                   size_t attributesKeyword) {
    std::vector<EntryAction> actions(d.entries.size());
    if (frontend) {
      std::vector<EntryAction> innerActions(inner->entries.size());
      innerActions[static_cast<size_t>(e - inner->entries.data())] = {Action::kDelete, ""};
      if (!allDeleted(innerActions)) {
        dictEdits(*inner, innerActions, edits);
        return;
      }
      actions[static_cast<size_t>(frontend - d.entries.data())] = {Action::kDelete, ""};
    } else {
      actions[static_cast<size_t>(e - d.entries.data())] = {Action::kDelete, ""};
    }
    if (allDeleted(actions)) {
      // A word right after the dictionary keeps a blank before it, or it
      // would join the op's name (mlir_import_fuzz).
      edits.push_back({attributesKeyword, d.whole.end, std::string(module_lex::gapBefore(t_, d.whole.end))});
      return;
    }
    dictEdits(d, actions, edits);
  }

  Result<std::string> canonicalSdy(const TextOrigin& origin, const std::string& text, bool perValue,
                                   const ValueDict& vd) {
    std::optional<std::vector<MlirType>> types = parseTypes(t_, vd, st_.aliases);
    sdy::SourceMap where;
    sdy::VerifyOptions verify;
    verify.locations = &where;
    if (perValue) {
      auto parsed = sdy::parseTensorShardingPerValue(ctx_, text, &where);
      if (!parsed) return origin.locate(parsed.error());
      if (Status ok = sdy::verifyTensorShardingPerValue(*parsed, lookup_, types, verify); !ok)
        return origin.locate(ok.error());
      return sdy::printTensorShardingPerValue(*parsed);
    }
    auto parsed = sdy::parseTensorSharding(ctx_, text, &where);
    if (!parsed) return origin.locate(parsed.error());
    std::optional<MlirType> type;
    if (types && types->size() == 1) type = (*types)[0];
    if (Status ok = sdy::verifyTensorSharding(*parsed, lookup_, type, verify); !ok)
      return origin.locate(ok.error());
    return sdy::printTensorSharding(*parsed);
  }

  // The sdy attribute text of sharding `index` at this value; cached by
  // sharding and value types.
  Result<const std::string*> importText(const TextOrigin& origin, int index, bool perValue, const ValueDict& vd) {
    std::string& key = key_;
    key.assign(std::to_string(index));
    key += perValue ? 'v' : 's';
    key += vd.typesKnown ? 'k' : 'u';
    key += vd.opName == "stablehlo.custom_call" ? 'c' : 'o';
    for (const Span& sp : vd.types) {
      key += sp.in(t_);
      key += '\x1f';
    }
    if (auto it = cache_.find(key); it != cache_.end()) return &it->second;

    const hlo::HloSharding& s = st_.shardings[static_cast<size_t>(index)];
    std::vector<const hlo::HloSharding*> leaves = hlo::leavesOf(s);
    std::optional<std::vector<MlirType>> types = parseTypes(t_, vd, st_.aliases);
    std::vector<int64_t> ranks;
    auto rankOf = [](const MlirType& type, const hlo::HloSharding& leaf) -> int64_t {
      if (type.kind == MlirType::Kind::kRankedTensor) return type.rank();
      if (type.kind == MlirType::Kind::kUnrankedTensor) return convert::ownRank(leaf);
      return 0;
    };
    // A custom call's single tuple-typed result with a tuple sharding of as
    // many leaves: one sharding per leaf. Upstream's import pairs a tuple
    // sharding's elements with the op's results; the tuple result becomes
    // one result per leaf in stablehlo-ext-canonicalize-from-hlo-import,
    // which keeps the sharding (docs/module.md "Import").
    std::vector<const MlirType*> tupleLeaves;
    if (perValue && s.isTuple() && types && types->size() == 1 && (*types)[0].kind == MlirType::Kind::kTuple &&
        vd.opName == "stablehlo.custom_call") {
      flattenTuple((*types)[0], tupleLeaves);
      if (tupleLeaves.size() != leaves.size()) tupleLeaves.clear();
    }
    if (!tupleLeaves.empty()) {
      for (size_t i = 0; i < leaves.size(); ++i) ranks.push_back(rankOf(*tupleLeaves[i], *leaves[i]));
    } else if (!perValue) {
      // An empty tuple has no leaf: convertToSdySharding rejects the tuple.
      const hlo::HloSharding& first = leaves.empty() ? s : *leaves[0];
      ranks.push_back(types && types->size() == 1 ? rankOf((*types)[0], first) : convert::ownRank(first));
    } else if (types && types->size() == leaves.size()) {
      for (size_t i = 0; i < leaves.size(); ++i) ranks.push_back(rankOf((*types)[i], *leaves[i]));
    } else if (types && !(types->empty() && leaves.size() == 1)) {
      // A count mismatch: reported by convertToSdyShardingPerValue.
      for (const MlirType& type : *types) ranks.push_back(type.kind == MlirType::Kind::kRankedTensor ? type.rank() : 0);
    } else {
      // No written types (or a zero-result op with one sharding): each
      // sharding's own rank, 0 for the zero-result op.
      for (const hlo::HloSharding* leaf : leaves) ranks.push_back(types ? 0 : convert::ownRank(*leaf));
    }
    sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx_, meshName_);
    std::string printed;
    if (perValue) {
      auto r = convert::convertToSdyShardingPerValue(ctx_, s, mesh_, ref, singleDevice_, ranks,
                                                     /*openDims=*/false, options_.anyOrder);
      if (!r) return located(r.error(), origin);
      printed = sdy::printTensorShardingPerValue(*r);
    } else {
      auto r = convert::convertToSdySharding(ctx_, s, mesh_, ref, singleDevice_, ranks[0],
                                             /*openDims=*/false, options_.anyOrder);
      if (!r) return located(r.error(), origin);
      printed = sdy::printTensorSharding(*r);
    }
    return &cache_.emplace(key, std::move(printed)).first->second;
  }

  // The leaves of a tuple type, depth first (nesting is bounded by parseMlirType).
  static void flattenTuple(const MlirType& type, std::vector<const MlirType*>& out) {
    if (type.kind != MlirType::Kind::kTuple) {
      out.push_back(&type);
      return;
    }
    for (const MlirType& e : type.elements) flattenTuple(e, out);
  }

  static Error located(Error e, const TextOrigin& origin) {
    e.dropOffsets();
    e.offset = origin.base;
    return e;
  }

  std::string_view t_;
  sdy::Context& ctx_;
  ImportState& st_;
  Emitter& out_;
  const ImportModuleOptions& options_;
  sdy::MeshAttr mesh_;
  std::map<int64_t, std::string> singleDevice_;
 public:
  std::string meshName_ = "mesh";
  std::vector<Edit> edits_;

 private:
  sdy::MeshLookup lookup_;
  std::unordered_map<std::string, std::string> cache_;
  std::string key_;
  std::string entry_;
};

// Where inserted sdy.mesh ops go and the text to insert there: each line
// with the indentation of the module body's first op.
std::pair<size_t, std::string> insertion(std::string_view t, const ScanSummary& summary,
                                         const std::vector<std::string>& lines) {
  std::string text;
  if (summary.firstStatement == std::string_view::npos) {
    size_t at = summary.explicitModule ? summary.moduleBodyStart : t.size();
    for (const std::string& l : lines) text += "\n  " + l;
    if (!summary.explicitModule) {
      text.clear();
      for (const std::string& l : lines) text += l + "\n";
    } else {
      text += "\n";
    }
    return {at, text};
  }
  size_t first = summary.firstStatement;
  size_t lineStart = first;
  while (lineStart > 0 && (t[lineStart - 1] == ' ' || t[lineStart - 1] == '\t')) --lineStart;
  std::string indent(t.substr(lineStart, first - lineStart));
  if (lineStart == 0 || t[lineStart - 1] == '\n') {
    for (const std::string& l : lines) text += indent + l + "\n";
    return {lineStart, text};
  }
  for (const std::string& l : lines) text += l + " ";
  return {first, text};
}

}  // namespace

namespace {

// The import over `scan`, which reports a module's events to a visitor and
// returns the scan's summary (scanText, or scanTree over a pass's tree).
template <typename Scan>
Result<ConvertedModule> importWith(std::string_view text, const ImportModuleOptions& options, Scan&& scan,
                                   bool readAliasLines = true, const ImportSeed* seed = nullptr) {
  sdy::Context ctx;
  ImportState state;
  state.aliases = collectTypeAliases(text, options.typeAliases, readAliasLines);
  ImportCollect collect(text, ctx, state, seed);
  SB_ASSIGN_OR_RETURN(ScanSummary summary, scan(collect));

  std::vector<std::string> lines;
  for (const auto& [name, mesh] : state.roundTrip)
    lines.push_back(sdy::printMeshSymbol(sdy::MeshSymbol{name, mesh}));
  sdy::MeshAttr mesh = sdy::MeshAttr::get(ctx, {});
  std::map<int64_t, std::string> singleDevice;
  std::string meshName = "mesh";
  // A part infers the whole module's mesh (import_seed.h).
  std::span<const hlo::HloSharding> inferFrom = seed ? std::span(seed->shardings) : std::span(state.shardings);
  if (!inferFrom.empty()) {
    auto inferred = convert::inferModuleMesh(ctx, inferFrom, options.anyOrder);
    if (!inferred) {
      Error e = inferred.error();
      e.dropOffsets();
      return e;
    }
    mesh = inferred->mesh;
    std::vector<std::pair<std::string, sdy::MeshAttr>> created{{"mesh", mesh}};
    for (const auto& [id, name] : inferred->singleDevice) {
      int64_t ids[] = {id};
      std::string n = options.maximalMeshNames ? "maximal_mesh_" + std::to_string(id) : name;
      created.push_back({n, sdy::MeshAttr::get(ctx, {}, ids)});
    }
    for (size_t i = 0; i < created.size(); ++i) {
      auto [name, m] = created[i];
      if (auto it = state.existing.find(name); it != state.existing.end()) {
        auto known = state.meshes.find(name);
        if (options.renameOnClash && known != state.meshes.end() && known->second == m) {
          // The module already defines this very mesh: its shardings use it.
          if (i == 0) meshName = name;
          else singleDevice[inferred->singleDevice[i - 1].first] = name;
          continue;
        }
        if (!options.renameOnClash)
          return makeError(ErrorCode::kInvalid,
                           "the module already defines a mesh named '" + name +
                               "'; the imported shardings need that name for their inferred mesh",
                           it->second);
        // Imported around the clash, as `shardbridge list` does: the first
        // free NAME_1, NAME_2, ...
        std::string base = name;
        for (int k = 1; state.existing.count(name) || state.meshes.count(name); ++k) name = base + "_" + std::to_string(k);
      }
      if (i == 0) meshName = name;
      else singleDevice[inferred->singleDevice[i - 1].first] = name;
      state.meshes[name] = m;
      lines.push_back(sdy::printMeshSymbol(sdy::MeshSymbol{name, m}));
    }
  }
  Emitter out(text);
  if (!lines.empty()) {
    auto [at, insert] = insertion(text, summary, lines);
    out.setInsertion(at, std::move(insert));
  }
  ImportRewrite rewrite(text, ctx, state, out, options, mesh, std::move(singleDevice));
  rewrite.meshName_ = meshName;
  SB_TRY(scan(rewrite));
  ConvertedModule result;
  result.text = out.finish();
  return result;
}

}  // namespace

Result<ConvertedModule> importModule(std::string_view text, const ImportModuleOptions& options) {
  return importWith(text, options,
                    [&](module_detail::ScanVisitor& v) { return module_detail::scanText(text, v); });
}

Result<ConvertedModule> importModuleOnTree(const OpTree& tree, TextSpan span, const ImportModuleOptions& options,
                                           const ImportSeed* seed) {
  std::string_view text = span.in(tree.text);
  bool onTree = true;  // scanTree answers the same for both visitors
  // The collect's walk and op types, replayed for the rewrite.
  module_detail::TreeScanPlan plan(/*keepOpTypes=*/true);
  return importWith(text, options, [&](module_detail::ScanVisitor& v) -> Result<ScanSummary> {
    if (onTree) {
      ScanSummary summary;
      SB_ASSIGN_OR_RETURN(bool done, module_detail::scanTree(tree, span, v, &summary, &plan));
      if (done) return summary;
      onTree = false;
    }
    return module_detail::scanText(text, v);
  }, module_detail::aliasLinesIn(tree, span), seed);
}

}  // namespace shardbridge::module
