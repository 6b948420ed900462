// What the old scanner-based module conversions (convert_module.h) share:
// the output emitter, dictionary edits, type and mesh reading, error
// locations. Used by convert_module_export.cc and convert_module_import.cc;
// internal to src/module/.
#pragma once

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "base/huge_pages.h"
#include "module/scanner.h"
#include "module/text_lex.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/sharding_input.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"
#include "shardbridge/module/convert_module.h"

namespace shardbridge::module::convert_detail {

using module_detail::AttrDict;
using module_detail::ConstraintOp;
using module_detail::DictEntry;
using module_detail::ManualComputationOp;
using module_detail::MeshOp;
using module_detail::ScanSummary;
using module_detail::SiteKind;
using module_detail::Span;
using module_detail::ValueDict;

inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

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
  // The text and an eighth: a conversion's output is within a few per cent
  // of its input (the bench modules: export 0.99x, import 1.07x), and the
  // reserve is the largest block a pass holds besides the tree. Beyond it,
  // room() grows once to the size the output so far projects.
  explicit Emitter(std::string_view text) : t_(text) {
    out_.reserve(text.size() + text.size() / 8 + 4096);
    base::adviseHugePages(out_.data(), out_.capacity());
  }
  void setInsertion(size_t at, std::string text) {
    insertAt_ = at;
    insert_ = std::move(text);
  }
  Status edit(size_t begin, size_t end, std::string_view text) {
    if (begin < cursor_ || end < begin || end > t_.size())
      return makeError(ErrorCode::kInternal, "overlapping rewrites", begin);
    flushInsert(begin);
    room(begin - cursor_ + text.size(), end);
    out_.append(t_.data() + cursor_, begin - cursor_);
    out_.append(text);
    cursor_ = end;
    return okStatus();
  }
  Status edits(std::vector<Edit>& es) {
    // Mostly one to three edits, already in order: stable_sort's buffer
    // allocation cost more than the sort.
    auto before = [](const Edit& a, const Edit& b) { return a.begin < b.begin; };
    if (!std::is_sorted(es.begin(), es.end(), before)) std::stable_sort(es.begin(), es.end(), before);
    for (const Edit& e : es) SB_TRY(edit(e.begin, e.end, e.text));
    return okStatus();
  }
  std::string finish() {
    flushInsert(t_.size());
    room(t_.size() - cursor_, t_.size());
    out_.append(t_.data() + cursor_, t_.size() - cursor_);
    cursor_ = t_.size();
    return std::move(out_);
  }

 private:
  // Before `more` bytes are appended that take the input to `consumed`:
  // when they do not fit, one reallocation to what the output so far
  // projects for the whole input (its growth rate, at least 1, with a
  // sixteenth more), not std::string's doubling.
  void room(size_t more, size_t consumed) {
    size_t need = out_.size() + more;
    if (need <= out_.capacity()) return;
    size_t left = t_.size() - std::min(consumed, t_.size());
    double rate = consumed ? static_cast<double>(need) / static_cast<double>(consumed) : 1.0;
    rate = std::clamp(rate, 1.0, 2.0);
    size_t projected = need + static_cast<size_t>(static_cast<double>(left) * rate * 1.0625) + 4096;
    out_.reserve(projected);  // at least `need`
    base::adviseHugePages(out_.data(), out_.capacity());
  }
  void flushInsert(size_t upTo) {
    if (insertAt_ == std::string_view::npos || insertAt_ > upTo || insertAt_ < cursor_) return;
    room(insertAt_ - cursor_ + insert_.size(), insertAt_);
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
inline void dictEdits(const AttrDict& d, const std::vector<EntryAction>& actions, std::vector<Edit>& out) {
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

inline bool allDeleted(const std::vector<EntryAction>& actions) {
  return std::all_of(actions.begin(), actions.end(),
                     [](const EntryAction& a) { return a.action == Action::kDelete; });
}

// The span that removes the op at `s` together with its line, when nothing
// else is on that line.
inline Span lineOf(std::string_view t, Span s) {
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

// Type aliases by name (`!t`, with its '!') -> definition.
using TypeAliases = std::map<std::string, std::string, std::less<>>;

// `given`, then every `!name = definition` that starts a line of `text`
// (the top-level alias definitions; a later one of a name wins, as the last
// definition is the one MLIR would reject anyway).
// `readLines` false: `given` alone, for a module whose text is known to
// define none (aliasLinesIn, tree_scan.h).
inline TypeAliases collectTypeAliases(std::string_view text,
                                      const std::vector<std::pair<std::string, std::string>>& given,
                                      bool readLines = true) {
  TypeAliases out(given.begin(), given.end());
  if (!readLines) return out;
  for (size_t p = 0; p < text.size();) {
    size_t eol = text.find('\n', p);
    if (eol == std::string_view::npos) eol = text.size();
    if (auto alias = module_lex::typeAliasLine(text.substr(p, eol - p)))
      out[std::string(alias->first)] = std::string(alias->second);
    p = eol + 1;
  }
  return out;
}

// `type` with aliases replaced by their definitions (a chain of aliases
// followed a bounded number of steps).
inline std::string_view resolveTypeAlias(std::string_view type, const TypeAliases& aliases) {
  for (int step = 0; step < 16 && type.starts_with('!'); ++step) {
    auto it = aliases.find(type);
    if (it == aliases.end()) break;
    type = it->second;
  }
  return type;
}

inline std::optional<std::vector<MlirType>> parseTypes(std::string_view t, const ValueDict& vd,
                                                       const TypeAliases& aliases) {
  if (!vd.typesKnown) return std::nullopt;
  std::vector<MlirType> types;
  for (const Span& s : vd.types) {
    auto type = parseMlirType(resolveTypeAlias(s.in(t), aliases));
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
  std::string once = {};  // a doubly escaped literal's first decoding (decodeRoundTripLiteral)
  size_t mapOffset(size_t o) const {
    if (!literal) return base + o;
    return base + module_detail::rawOffsetInRoundTripLiteral(raw, once, o);
  }
  size_t map(const Error& e) const { return e.hasOffset() ? mapOffset(e.offset) : base; }
  Error locate(Error e) const {
    size_t at = map(e);
    if (e.noteOffset != Error::kNoOffset) e.noteOffset = mapOffset(e.noteOffset);
    e.offset = at;
    return e;
  }
};

inline Result<sdy::MeshAttr> parseMeshText(sdy::Context& ctx, std::string_view body, const TextOrigin& at) {
  auto mesh = sdy::parseMesh(ctx, body);
  if (!mesh) return at.locate(mesh.error());
  sdy::SourceMap where;
  auto again = sdy::parseMesh(ctx, body, &where);
  if (Status ok = sdy::verifyMesh(*mesh, &where); !ok) return at.locate(ok.error());
  return *mesh;
}

// Meshes of a module's round-trip `xla.sdy.meshes` attribute.
inline Result<std::vector<std::pair<std::string, sdy::MeshAttr>>> roundTripMeshes(sdy::Context& ctx,
                                                                          std::string_view t,
                                                                          const DictEntry& e) {
  std::string_view literal = e.value.in(t);
  if (literal.empty() || literal.front() != '"')
    return makeError(ErrorCode::kParse, "expected a string for xla.sdy.meshes", e.value.begin);
  std::string once;
  auto decoded = module_detail::decodeRoundTripLiteral(literal, &once);
  if (!decoded) return decoded.error().shifted(e.value.begin);
  TextOrigin origin{literal, e.value.begin, true, std::move(once)};
  auto parts = module_detail::splitMeshDict(*decoded);
  if (!parts) return origin.locate(parts.error());
  std::vector<std::pair<std::string, sdy::MeshAttr>> out;
  for (auto& [name, mesh] : *parts) {
    auto parsed = sdy::parseMesh(ctx, mesh.first);
    if (!parsed) {
      Error err = parsed.error();
      if (!err.hasOffset()) err.offset = 0;
      err = err.shifted(mesh.second);
      return origin.locate(err);
    }
    out.push_back({name, *parsed});
  }
  return out;
}

inline const DictEntry* moduleMeshesEntry(const AttrDict& d, const DictEntry** frontend,
                                   const AttrDict** inner) {
  *frontend = nullptr;
  *inner = nullptr;
  if (const DictEntry* e = d.find("xla.sdy.meshes")) return e;
  return d.findFrontend("xla.sdy.meshes", frontend, inner);
}

// =============================================================================
// Export
// =============================================================================

}  // namespace shardbridge::module::convert_detail
