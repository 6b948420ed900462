#include "shardbridge/module/convert_module.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "module/scanner.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/sharding_input.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::module_detail {

Result<std::vector<std::pair<std::string, std::pair<std::string, size_t>>>> splitMeshDict(
    std::string_view d) {
  std::vector<std::pair<std::string, std::pair<std::string, size_t>>> out;
  size_t p = 0;
  auto ws = [&] {
    while (p < d.size() && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\r')) ++p;
  };
  auto err = [&](std::string what) {
    return makeError(ErrorCode::kParse, "expected " + what + " in xla.sdy.meshes", p);
  };
  ws();
  if (p >= d.size() || d[p] != '{') return err("'{'");
  ++p;
  ws();
  if (p < d.size() && d[p] == '}') return out;
  while (true) {
    ws();
    std::string name;
    if (p < d.size() && d[p] == '"') {
      size_t b = ++p;
      while (p < d.size() && d[p] != '"') ++p;
      if (p >= d.size()) return err("'\"'");
      name = std::string(d.substr(b, p - b));
      ++p;
    } else {
      size_t b = p;
      while (p < d.size() && (std::isalnum(static_cast<unsigned char>(d[p])) || d[p] == '_' ||
                              d[p] == '.' || d[p] == '$' || d[p] == '-'))
        ++p;
      if (p == b) return err("a mesh name");
      name = std::string(d.substr(b, p - b));
    }
    ws();
    if (p >= d.size() || d[p] != '=') return err("'='");
    ++p;
    ws();
    size_t b = p;
    int depth = 0;
    bool inString = false;
    for (; p < d.size(); ++p) {
      char c = d[p];
      if (inString) {
        if (c == '\\') ++p;
        else if (c == '"') inString = false;
        continue;
      }
      if (c == '"') inString = true;
      else if (c == '<' || c == '[' || c == '(' || c == '{') ++depth;
      else if (c == '>' || c == ']' || c == ')' || (c == '}' && depth > 0)) --depth;
      else if (depth == 0 && (c == ',' || c == '}')) break;
      if (depth > 64) return err("less nesting");
    }
    if (p >= d.size()) return err("',' or '}'");
    size_t e = p;
    while (e > b && (d[e - 1] == ' ' || d[e - 1] == '\t' || d[e - 1] == '\n')) --e;
    out.push_back({std::move(name), {std::string(d.substr(b, e - b)), b}});
    if (d[p] == '}') break;
    ++p;
  }
  return out;
}

}  // namespace shardbridge::module_detail

namespace shardbridge::module {
namespace {

using module_detail::AttrDict;
using module_detail::ConstraintOp;
using module_detail::DictEntry;
using module_detail::ManualComputationOp;
using module_detail::MeshOp;
using module_detail::ScanSummary;
using module_detail::SiteKind;
using module_detail::Span;
using module_detail::ValueDict;

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

struct Edit {
  size_t begin;
  size_t end;
  std::string text;
};

// Builds the output by copying the input and splicing edits, which must come
// in text order; one pending insertion (the mesh ops) is placed when the
// copy reaches its position.
class Emitter {
 public:
  // Generous: the pages a conversion never writes are never touched, and a
  // reallocation of a large module would briefly need both copies.
  explicit Emitter(std::string_view text) : t_(text) { out_.reserve(text.size() + text.size() / 2 + 4096); }
  void setInsertion(size_t at, std::string text) {
    insertAt_ = at;
    insert_ = std::move(text);
  }
  Status edit(size_t begin, size_t end, std::string_view text) {
    if (begin < cursor_ || end < begin || end > t_.size())
      return makeError(ErrorCode::kInternal, "overlapping rewrites", begin);
    flushInsert(begin);
    out_.append(t_.data() + cursor_, begin - cursor_);
    out_.append(text);
    cursor_ = end;
    return okStatus();
  }
  Status edits(std::vector<Edit>& es) {
    std::stable_sort(es.begin(), es.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    for (const Edit& e : es) SB_TRY(edit(e.begin, e.end, e.text));
    return okStatus();
  }
  std::string finish() {
    flushInsert(t_.size());
    out_.append(t_.data() + cursor_, t_.size() - cursor_);
    cursor_ = t_.size();
    return std::move(out_);
  }

 private:
  void flushInsert(size_t upTo) {
    if (insertAt_ == std::string_view::npos || insertAt_ > upTo || insertAt_ < cursor_) return;
    out_.append(t_.data() + cursor_, insertAt_ - cursor_);
    out_.append(insert_);
    cursor_ = insertAt_;
    insertAt_ = std::string_view::npos;
  }
  std::string_view t_;
  std::string out_;
  size_t cursor_ = 0;
  size_t insertAt_ = std::string_view::npos;
  std::string insert_;
};

// What to do with each entry of a dictionary.
enum class Action : uint8_t { kKeep, kReplace, kDelete };
struct EntryAction {
  Action action = Action::kKeep;
  std::string text;  // kReplace: the whole new entry
};

// Edits turning `d` per `actions`. At least one entry must stay (the caller
// removes a dictionary that empties itself). Deleting entries takes the
// separator after them (before them for trailing ones).
void dictEdits(const AttrDict& d, const std::vector<EntryAction>& actions, std::vector<Edit>& out) {
  size_t n = d.entries.size();
  for (size_t i = 0; i < n;) {
    if (actions[i].action == Action::kReplace) {
      out.push_back({d.entries[i].whole.begin, d.entries[i].whole.end, actions[i].text});
    }
    if (actions[i].action != Action::kDelete) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < n && actions[j + 1].action == Action::kDelete) ++j;
    if (j + 1 < n) {
      out.push_back({d.entries[i].whole.begin, d.entries[j + 1].whole.begin, ""});
    } else if (i > 0) {
      out.push_back({d.entries[i - 1].whole.end, d.entries[j].whole.end, ""});
    }
    i = j + 1;
  }
}

bool allDeleted(const std::vector<EntryAction>& actions) {
  return std::all_of(actions.begin(), actions.end(),
                     [](const EntryAction& a) { return a.action == Action::kDelete; });
}

// The span that removes the op at `s` together with its line, when nothing
// else is on that line.
Span lineOf(std::string_view t, Span s) {
  size_t b = s.begin;
  while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t')) --b;
  bool startOfLine = b == 0 || t[b - 1] == '\n';
  size_t e = s.end;
  while (e < t.size() && (t[e] == ' ' || t[e] == '\t' || t[e] == '\r')) ++e;
  if (e + 1 < t.size() && t[e] == '/' && t[e + 1] == '/') return s;  // keep a trailing comment's line
  bool endOfLine = e >= t.size() || t[e] == '\n';
  if (!startOfLine || !endOfLine) return s;
  return {b, e < t.size() ? e + 1 : e};
}

std::optional<std::vector<MlirType>> parseTypes(std::string_view t, const ValueDict& vd) {
  if (!vd.typesKnown) return std::nullopt;
  std::vector<MlirType> types;
  for (const Span& s : vd.types) {
    auto type = parseMlirType(s.in(t));
    // A type this reader does not know is not checked rather than rejected.
    if (!type) return std::nullopt;
    types.push_back(std::move(*type));
  }
  return types;
}


// The offset in the module of an error inside a sharding text: directly for
// an attribute written in the module, through the escapes for a string.
struct TextOrigin {
  std::string_view raw;  // the attribute, or the string literal with quotes
  size_t base = 0;       // where `raw` starts in the module
  bool literal = false;
  size_t map(const Error& e) const {
    if (!e.hasOffset()) return base;
    if (!literal) return base + e.offset;
    return base + module_detail::rawOffsetInLiteral(raw, e.offset);
  }
  Error locate(Error e) const {
    e.offset = map(e);
    return e;
  }
};

Result<sdy::MeshAttr> parseMeshText(sdy::Context& ctx, std::string_view body, const TextOrigin& at) {
  auto mesh = sdy::parseMesh(ctx, body);
  if (!mesh) return at.locate(mesh.error());
  sdy::SourceMap where;
  auto again = sdy::parseMesh(ctx, body, &where);
  if (Status ok = sdy::verifyMesh(*mesh, &where); !ok) return at.locate(ok.error());
  return *mesh;
}

// Meshes of a module's round-trip `xla.sdy.meshes` attribute.
Result<std::vector<std::pair<std::string, sdy::MeshAttr>>> roundTripMeshes(sdy::Context& ctx,
                                                                          std::string_view t,
                                                                          const DictEntry& e) {
  std::string_view literal = e.value.in(t);
  if (literal.empty() || literal.front() != '"')
    return makeError(ErrorCode::kParse, "expected a string for xla.sdy.meshes", e.value.begin);
  auto decoded = module_detail::decodeStringLiteral(literal);
  if (!decoded) return decoded.error().shifted(e.value.begin);
  TextOrigin origin{literal, e.value.begin, true};
  auto parts = module_detail::splitMeshDict(*decoded);
  if (!parts) return origin.locate(parts.error());
  std::vector<std::pair<std::string, sdy::MeshAttr>> out;
  for (auto& [name, mesh] : *parts) {
    auto parsed = sdy::parseMesh(ctx, mesh.first);
    if (!parsed) {
      Error err = parsed.error();
      err.offset = (err.hasOffset() ? err.offset : 0) + mesh.second;
      return origin.locate(err);
    }
    out.push_back({name, *parsed});
  }
  return out;
}

const DictEntry* moduleMeshesEntry(const AttrDict& d, const DictEntry** frontend,
                                   const AttrDict** inner) {
  *frontend = nullptr;
  *inner = nullptr;
  if (const DictEntry* e = d.find("xla.sdy.meshes")) return e;
  return d.findFrontend("xla.sdy.meshes", frontend, inner);
}

// =============================================================================
// Export
// =============================================================================

struct ExportState {
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
    std::vector<Edit> edits;
    // `xla.sdy.manual_axes = #sdy<manual_axes{"a"}>`, written by the
    // shard-map export on everything inside a manual computation: the axes
    // the sharding is exported with (as a MANUAL subgroup); the entry goes.
    const DictEntry* manualEntry = d.find("xla.sdy.manual_axes");
    module_detail::ManualScope written;
    const module_detail::ManualScope* manual = vd.manual;
    if (manualEntry) {
      std::string_view v = manualEntry->value.in(t_);
      if (!v.starts_with("#sdy<manual_axes{"))
        return makeError(ErrorCode::kParse, "expected #sdy<manual_axes{...}> for xla.sdy.manual_axes",
                         manualEntry->value.begin);
      for (size_t q = 0; q < v.size(); ++q) {
        if (v[q] != '"') continue;
        size_t e = v.find('"', q + 1);
        if (e == std::string_view::npos) break;
        written.axes.emplace_back(v.substr(q + 1, e - q - 1));
        q = e;
      }
      manual = &written;
      if (!sdyEntry && !roundTrip) {
        // Only the manual axes (a terminator): the entry, or the dictionary, goes.
        std::vector<EntryAction> actions(d.entries.size());
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
      std::vector<EntryAction> actions(d.entries.size());
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
      auto decoded = module_detail::decodeStringLiteral(literal);
      if (!decoded) return decoded.error().shifted(roundTrip->value.begin);
      TextOrigin origin{literal, roundTrip->value.begin, true};
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
    std::optional<std::vector<MlirType>> types = parseTypes(t_, vd);
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
};

// =============================================================================
// Import
// =============================================================================

// `mhlo.sharding` contents, located in the module.
Result<hlo::HloSharding> parseMhloSharding(const std::string& decoded, const TextOrigin& origin) {
  auto s = readMhloSharding(decoded);
  if (!s) return origin.locate(s.error());
  return std::move(*s);
}

struct ImportState {
  std::vector<hlo::HloSharding> shardings;             // distinct, first-seen order
  std::unordered_map<std::string, int> index;           // decoded text -> shardings index
  std::unordered_map<std::string_view, int> rawIndex;   // string literal (a view of the input) -> index
  std::map<std::string, size_t, std::less<>> existing;  // sdy.mesh ops and round-trip meshes -> offset
  std::map<std::string, sdy::MeshAttr, std::less<>> meshes;  // every mesh known by name
  std::vector<std::pair<std::string, sdy::MeshAttr>> roundTrip;
};

class ImportCollect : public module_detail::ScanVisitor {
 public:
  ImportCollect(std::string_view t, sdy::Context& ctx, ImportState& st) : t_(t), ctx_(ctx), st_(st) {}

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
    std::vector<Edit> edits;
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
      edits.push_back({attributesKeyword, d.whole.end, ""});
      return;
    }
    dictEdits(d, actions, edits);
  }

  Result<std::string> canonicalSdy(const TextOrigin& origin, const std::string& text, bool perValue,
                                   const ValueDict& vd) {
    std::optional<std::vector<MlirType>> types = parseTypes(t_, vd);
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
    for (const Span& sp : vd.types) {
      key += sp.in(t_);
      key += '\x1f';
    }
    if (auto it = cache_.find(key); it != cache_.end()) return &it->second;

    const hlo::HloSharding& s = st_.shardings[static_cast<size_t>(index)];
    std::vector<const hlo::HloSharding*> leaves = hlo::leavesOf(s);
    std::optional<std::vector<MlirType>> types = parseTypes(t_, vd);
    std::vector<int64_t> ranks;
    auto rankOf = [](const MlirType& type, const hlo::HloSharding& leaf) -> int64_t {
      if (type.kind == MlirType::Kind::kRankedTensor) return type.rank();
      if (type.kind == MlirType::Kind::kUnrankedTensor) return convert::ownRank(leaf);
      return 0;
    };
    if (!perValue) {
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

  static Error located(Error e, const TextOrigin& origin) {
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

// The types and manual axes of each sharding site, in scanMlir's order.
class ContextCollect : public module_detail::ScanVisitor {
 public:
  explicit ContextCollect(std::string_view t) : t_(t) {}
  std::vector<SiteContext> sites;

  Status onDict(const ValueDict& vd) override {
    if (vd.kind == SiteKind::kModule) return okStatus();
    const AttrDict& d = *vd.dict;
    for (const DictEntry& e : d.entries) {
      if (e.name == "sdy.sharding" || e.name == "mhlo.sharding") {
        add(vd, e.value.begin);
      } else if (e.nested >= 0) {
        if (const DictEntry* f = d.children[e.nested].find("xla.sdy.sharding")) add(vd, f->value.begin);
      }
    }
    return okStatus();
  }

  Status onConstraint(const ConstraintOp& op) override {
    ValueDict vd;
    vd.kind = SiteKind::kArg;  // one value with its type
    vd.typesKnown = true;
    vd.types.push_back(op.type);
    vd.manual = op.manual;
    add(vd, op.sharding.begin);
    return okStatus();
  }

 private:
  void add(const ValueDict& vd, size_t offset) {
    SiteContext c;
    c.offset = offset;
    c.types = parseTypes(t_, vd);
    c.onOp = vd.kind == SiteKind::kOp;
    if (vd.manual) c.manualAxes = vd.manual->axes;
    sites.push_back(std::move(c));
  }

  std::string_view t_;
};

}  // namespace

Result<std::vector<SiteContext>> scanSiteContexts(std::string_view text) {
  ContextCollect collect(text);
  SB_TRY(module_detail::scanText(text, collect));
  return std::move(collect.sites);
}

Result<hlo::HloSharding> readMhloSharding(std::string_view value) {
  size_t i = 0;
  while (i < value.size() && isBlank(value[i])) ++i;
  if (i < value.size() && value[i] == '{') return hlo::parseSharding(value);
  auto s = proto::readSharding(value, proto::ShardingFormat::kProtoBinary);
  if (!s) {
    Error e = s.error();
    e.message = "mhlo.sharding is neither HLO sharding text nor a serialized OpSharding: " + e.message;
    e.offset = Error::kNoOffset;
    return e;
  }
  return std::move(s->sharding);
}

Result<ConvertedModule> exportModule(std::string_view text, const ExportModuleOptions& options) {
  sdy::Context ctx;
  ExportState state;
  ExportCollect collect(text, ctx, state, options.readRoundTrip);
  SB_TRY(module_detail::scanText(text, collect));
  Emitter out(text);
  ExportRewrite rewrite(text, ctx, state, out, options);
  SB_TRY(module_detail::scanText(text, rewrite));
  ConvertedModule result;
  result.text = out.finish();
  result.warnings = std::move(state.warnings);
  return result;
}

Result<ConvertedModule> importModule(std::string_view text, const ImportModuleOptions& options) {
  sdy::Context ctx;
  ImportState state;
  ImportCollect collect(text, ctx, state);
  SB_ASSIGN_OR_RETURN(ScanSummary summary, module_detail::scanText(text, collect));

  std::vector<std::string> lines;
  for (const auto& [name, mesh] : state.roundTrip)
    lines.push_back(sdy::printMeshSymbol(sdy::MeshSymbol{name, mesh}));
  sdy::MeshAttr mesh = sdy::MeshAttr::get(ctx, {});
  std::map<int64_t, std::string> singleDevice;
  std::string meshName = "mesh";
  if (!state.shardings.empty()) {
    auto inferred = convert::inferModuleMesh(ctx, state.shardings, options.anyOrder);
    if (!inferred) {
      Error e = inferred.error();
      e.offset = Error::kNoOffset;
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
  SB_TRY(module_detail::scanText(text, rewrite));
  ConvertedModule result;
  result.text = out.finish();
  return result;
}

}  // namespace shardbridge::module
