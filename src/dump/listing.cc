// `shardbridge list`: every sharding of a file with its place, HLO string
// and named form (listing.h).
#include "shardbridge/dump/listing.h"

#include <cctype>
#include <functional>
#include <map>
#include <span>
#include <utility>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/base/json_writer.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/json_forms.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/dump.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/mlir_scan.h"
#include "shardbridge/proto/sharding_input.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::dump {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Offset of the first byte after blanks and `//` / `/* */` comments (and
// `#` comments, for pbtxt).
size_t firstSignificant(std::string_view data, bool hashComments = false) {
  size_t p = 0;
  while (p < data.size()) {
    if (isBlank(data[p])) {
      ++p;
    } else if (hashComments && data[p] == '#') {
      size_t nl = data.find('\n', p);
      p = nl == std::string_view::npos ? data.size() : nl + 1;
    } else if (data.substr(p, 2) == "//") {
      size_t nl = data.find('\n', p);
      p = nl == std::string_view::npos ? data.size() : nl + 1;
    } else if (data.substr(p, 2) == "/*") {
      size_t end = data.find("*/", p + 2);
      if (end == std::string_view::npos) return p;
      p = end + 2;
    } else {
      break;
    }
  }
  return p;
}

bool startsWithWord(std::string_view s, std::string_view word) {
  return s.substr(0, word.size()) == word &&
         (s.size() == word.size() || !(std::isalnum(static_cast<unsigned char>(s[word.size()])) ||
                                       s[word.size()] == '_'));
}



int64_t shapeRank(const hlo::Shape& s) { return s.isArray() ? s.rank() : 0; }

// The sharding to import and the ranks of its values. A leaf sharding on a
// tuple-shaped instruction applies to every leaf of the shape (XLA's
// GetTupleSharding), so it becomes a tuple of copies.
std::pair<hlo::HloSharding, std::vector<int64_t>> importForm(const hlo::HloSharding& sharding,
                                                             const std::optional<hlo::Shape>& shape) {
  std::vector<int64_t> ranks;
  if (shape) {
    std::vector<const hlo::Shape*> shapeLeaves;
    shape->collectLeaves(shapeLeaves);
    if (sharding.isTuple()) {
      if (shapeLeaves.size() == sharding.tupleElements().size()) {
        for (const hlo::Shape* leaf : shapeLeaves) ranks.push_back(shapeRank(*leaf));
        return {sharding, ranks};
      }
    } else if (!shape->isTuple()) {
      return {sharding, {shapeRank(*shape)}};
    } else {
      std::vector<hlo::HloSharding> copies(shapeLeaves.size(), sharding);
      for (const hlo::Shape* leaf : shapeLeaves) ranks.push_back(shapeRank(*leaf));
      return {hlo::HloSharding::tuple(std::move(copies)), ranks};
    }
  }
  for (const hlo::HloSharding* leaf : hlo::leavesOf(sharding)) ranks.push_back(convert::ownRank(*leaf));
  return {sharding, ranks};
}

std::string oneLine(std::string s) {
  for (char& c : s) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

// A row to import: the sharding to import (importForm's), the ranks of its
// values and whether it is named as a sharding_per_value.
struct Pending {
  size_t row = 0;
  hlo::HloSharding form;
  bool perValue = false;
};

// Fills the named form of the `pending` rows: mesh inference over all of
// them (or the given mesh), then the import of each. The meshes go after
// those already listed (an MLIR module's own); a name already taken by a
// different mesh is an error for every pending row.
void nameShardings(sdy::Context& ctx, Listing& listing, const ListOptions& options,
                   std::vector<Pending>& pending) {
  if (pending.empty()) return;
  auto failAll = [&](const std::string& message) {
    listing.meshError = message;
    for (const Pending& p : pending) listing.shardings[p.row].error = "no module mesh: " + message;
  };

  sdy::MeshAttr mesh;
  std::map<int64_t, std::string> singleDevice;
  std::vector<ListedMesh> created;
  if (options.mesh) {
    mesh = *options.mesh;
    created.push_back({options.meshName, mesh});
    for (const Pending& p : pending) {
      for (const hlo::HloSharding* leaf : hlo::leavesOf(listing.shardings[p.row].sharding)) {
        if (auto d = leaf->uniqueDevice(); d && leaf->isSingleDevice()) {
          singleDevice[*d] = "single_device_" + std::to_string(*d);
        }
      }
    }
  } else {
    std::vector<hlo::HloSharding> all;
    all.reserve(pending.size());
    for (const Pending& p : pending) all.push_back(listing.shardings[p.row].sharding);
    auto inferred = convert::inferModuleMesh(ctx, all, options.anyOrder);
    if (!inferred) {
      failAll(inferred.error().message);
      return;
    }
    mesh = inferred->mesh;
    created.push_back({options.meshName, mesh});
    for (const auto& [id, name] : inferred->singleDevice) singleDevice[id] = name;
  }
  for (const auto& [id, name] : singleDevice) {
    int64_t ids[] = {id};
    created.push_back({name, sdy::MeshAttr::get(ctx, {}, ids)});
  }
  // Names an MLIR module already gives a different mesh: the inferred
  // meshes take the first free `NAME_1`, `NAME_2`, ...; a --mesh name is
  // an error.
  size_t existing = listing.meshes.size();
  auto owner = [&](const std::string& name) -> const ListedMesh* {
    for (const ListedMesh& m : listing.meshes) {
      if (m.name == name) return &m;
    }
    return nullptr;
  };
  std::string meshName = options.meshName;
  for (size_t i = 0; i < created.size(); ++i) {
    ListedMesh m = created[i];
    const ListedMesh* taken = owner(m.name);
    if (taken && taken->mesh == m.mesh) {
      if (i == 0) meshName = m.name;
      continue;
    }
    if (taken) {
      if (i == 0 && options.mesh) {
        listing.meshes.resize(existing);
        failAll("the module already defines a different mesh named '" + m.name + "'");
        return;
      }
      std::string base = m.name;
      for (int n = 1; owner(m.name); ++n) m.name = base + "_" + std::to_string(n);
    }
    if (i == 0) {
      meshName = m.name;
    } else {
      for (auto& [id, name] : singleDevice) {
        if (name == created[i].name) name = m.name;
      }
    }
    listing.meshes.push_back(std::move(m));
  }

  sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, meshName);
  for (const Pending& p : pending) {
    ListedSharding& row = listing.shardings[p.row];
    const std::vector<int64_t>& ranks = row.ranks;
    if (p.perValue) {
      auto imported = convert::convertToSdyShardingPerValue(ctx, p.form, mesh, ref, singleDevice,
                                                            ranks, false, options.anyOrder);
      if (imported) {
        row.sdy = sdy::printTensorShardingPerValue(*imported);
      } else {
        row.error = imported.error().message;
      }
    } else {
      auto imported = convert::convertToSdySharding(ctx, p.form, mesh, ref, singleDevice,
                                                    ranks.empty() ? 0 : ranks[0], false,
                                                    options.anyOrder);
      if (imported) {
        row.sdy = sdy::printTensorSharding(*imported);
      } else {
        row.error = imported.error().message;
      }
    }
  }
}

// The rows of shardings read from HLO text: each imported at the ranks of
// its shape (importForm).
void nameHloRows(sdy::Context& ctx, Listing& listing, const ListOptions& options,
                 const std::vector<std::optional<hlo::Shape>>& shapes) {
  std::vector<Pending> pending;
  for (size_t i = 0; i < listing.shardings.size(); ++i) {
    auto [form, ranks] = importForm(listing.shardings[i].sharding, shapes[i]);
    listing.shardings[i].ranks = std::move(ranks);
    bool perValue = form.isTuple();
    pending.push_back({i, std::move(form), perValue});
  }
  nameShardings(ctx, listing, options, pending);
}

// --- MLIR modules -----------------------------------------------------------

// `module @NAME` at the start of the text: NAME (unquoted); else empty.
std::string mlirModuleName(std::string_view data) {
  std::string_view rest = data.substr(firstSignificant(data));
  if (!startsWithWord(rest, "module")) return "";
  size_t p = 6;
  while (p < rest.size() && isBlank(rest[p])) ++p;
  if (p >= rest.size() || rest[p] != '@') return "";
  ++p;
  if (p < rest.size() && rest[p] == '"') {
    size_t end = rest.find('"', p + 1);
    return end == std::string_view::npos ? "" : std::string(rest.substr(p + 1, end - p - 1));
  }
  size_t b = p;
  while (p < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[p])) || rest[p] == '_' ||
                             rest[p] == '.' || rest[p] == '$' || rest[p] == '-')) {
    ++p;
  }
  return std::string(rest.substr(b, p - b));
}

// The module's meshes (sdy.mesh ops, then xla.sdy.meshes entries, in text
// order), parsed and verified. Errors are located in `data`.
Result<std::map<std::string, sdy::MeshAttr, std::less<>>> moduleMeshes(
    sdy::Context& ctx, std::string_view data, const module::MlirScan& scan, Listing& listing) {
  std::map<std::string, sdy::MeshAttr, std::less<>> byName;
  for (const module::MlirMeshDef& def : scan.meshes) {
    // An op's `<...>` is written as it is: errors land on their token. A
    // round-trip entry is a decoded string: errors land on the string.
    size_t base = data.find(def.text, def.offset);
    bool written = base != std::string_view::npos;
    auto locate = [&](Error e) {
      e.offset = written ? base + (e.hasOffset() ? e.offset : 0) : def.offset;
      return e;
    };
    sdy::SourceMap where;
    auto mesh = sdy::parseMesh(ctx, def.text, &where);
    if (!mesh) return locate(mesh.error());
    if (Status ok = sdy::verifyMesh(*mesh, &where); !ok) return locate(ok.error());
    if (!byName.emplace(def.name, *mesh).second) {
      return makeError(ErrorCode::kInvalid, "redefinition of symbol named '" + def.name + "'",
                       def.offset);
    }
    listing.meshes.push_back({def.name, *mesh});
  }
  return byName;
}

// The rank of a value: its type's when a ranked tensor, `own` for an
// unranked one, 0 for anything else (as importModule reads types).
int64_t typeRank(const MlirType& type, int64_t own) {
  if (type.kind == MlirType::Kind::kRankedTensor) return type.rank();
  if (type.kind == MlirType::Kind::kUnrankedTensor) return own;
  return 0;
}

// An sdy site: the sdy text itself (canonical) and its export.
void listSdySite(sdy::Context& ctx, const module::MlirShardingSite& site,
                 const module::SiteContext* context, const sdy::MeshLookup& lookup,
                 ListedSharding& row) {
  std::optional<std::vector<MlirType>> types;
  std::span<const std::string> manual;
  if (context) {
    types = context->types;
    manual = context->manualAxes;
  }
  std::string_view text = site.value;
  while (!text.empty() && isBlank(text.front())) text.remove_prefix(1);
  sdy::SourceMap where;
  sdy::VerifyOptions verify;
  verify.locations = &where;
  Result<hlo::HloSharding> exported = makeError(ErrorCode::kInternal, "not exported");
  std::string canonical;
  if (text.starts_with("#sdy.sharding_per_value")) {
    auto parsed = sdy::parseTensorShardingPerValue(ctx, text, &where);
    if (!parsed) {
      row.error = parsed.error().message;
      return;
    }
    for (size_t i = 0; i < parsed->shardings().size(); ++i) {
      int64_t own = static_cast<int64_t>(parsed->shardings()[i].dimShardings().size());
      row.ranks.push_back(types && types->size() == parsed->shardings().size()
                              ? typeRank((*types)[i], own)
                              : own);
    }
    if (Status ok = sdy::verifyTensorShardingPerValue(*parsed, lookup, types, verify); !ok) {
      row.error = ok.error().message;
      return;
    }
    canonical = sdy::printTensorShardingPerValue(*parsed);
    exported = convert::convertToHloSharding(*parsed, lookup, manual);
  } else {
    auto parsed = sdy::parseTensorSharding(ctx, text, &where);
    if (!parsed) {
      row.error = parsed.error().message;
      return;
    }
    std::optional<MlirType> type;
    if (types && types->size() == 1) type = (*types)[0];
    int64_t own = static_cast<int64_t>(parsed->dimShardings().size());
    row.ranks.push_back(type ? typeRank(*type, own) : own);
    if (Status ok = sdy::verifyTensorSharding(*parsed, lookup, type, verify); !ok) {
      row.error = ok.error().message;
      return;
    }
    canonical = sdy::printTensorSharding(*parsed);
    exported = convert::convertToHloSharding(*parsed, lookup, manual);
  }
  if (!exported) {
    row.error = exported.error().message;
    return;
  }
  row.sdy = std::move(canonical);
  row.sharding = std::move(*exported);
  // As XLA writes it into mhlo.sharding: with the export's metadata.
  row.hlo = hlo::printSharding(row.sharding, /*includeMetadata=*/true);
}

// An mhlo.sharding site: the HLO string, imported later (nameShardings) at
// the ranks importModule would use.
std::optional<Pending> listMhloSite(const module::MlirShardingSite& site,
                                    const module::SiteContext* context, const ListOptions& options,
                                    size_t index, ListedSharding& row) {
  auto read = module::readMhloSharding(site.value);
  if (!read) {
    row.error = read.error().message;
    return std::nullopt;
  }
  row.sharding = std::move(*read);
  row.hlo = hlo::printSharding(row.sharding, options.includeMetadata);
  bool perValue = context && context->onOp;
  std::vector<const hlo::HloSharding*> leaves = hlo::leavesOf(row.sharding);
  const std::optional<std::vector<MlirType>>* types = context ? &context->types : nullptr;
  bool typesKnown = types && types->has_value();
  if (!perValue) {
    // An empty tuple has no leaf: convertToSdySharding rejects the tuple.
    const hlo::HloSharding& first = leaves.empty() ? row.sharding : *leaves[0];
    row.ranks.push_back(typesKnown && (*types)->size() == 1 ? typeRank((**types)[0], convert::ownRank(first))
                                                            : convert::ownRank(first));
  } else if (typesKnown && (*types)->size() == leaves.size()) {
    for (size_t i = 0; i < leaves.size(); ++i) row.ranks.push_back(typeRank((**types)[i], convert::ownRank(*leaves[i])));
  } else if (typesKnown && !((*types)->empty() && leaves.size() == 1)) {
    // A count mismatch: reported by convertToSdyShardingPerValue.
    for (const MlirType& type : **types) row.ranks.push_back(typeRank(type, 0));
  } else {
    // No written types (or a zero-result op with one sharding): each
    // sharding's own rank, 0 for the zero-result op.
    for (const hlo::HloSharding* leaf : leaves) row.ranks.push_back(typesKnown ? 0 : convert::ownRank(*leaf));
  }
  return Pending{index, row.sharding, perValue};
}

Status listMlir(sdy::Context& ctx, std::string_view data, const ListOptions& options,
                Listing& listing) {
  SB_ASSIGN_OR_RETURN(module::MlirScan scan, module::scanMlir(data));
  SB_ASSIGN_OR_RETURN(std::vector<module::SiteContext> contexts, module::scanSiteContexts(data));
  std::map<size_t, const module::SiteContext*> contextAt;
  for (const module::SiteContext& c : contexts) contextAt[c.offset] = &c;
  listing.module = mlirModuleName(data);
  SB_ASSIGN_OR_RETURN(auto meshes, moduleMeshes(ctx, data, scan, listing));
  sdy::MeshLookup lookup = [&meshes](std::string_view name) -> sdy::MeshAttr {
    auto it = meshes.find(name);
    return it == meshes.end() ? sdy::MeshAttr() : it->second;
  };
  std::vector<Pending> pending;
  for (const module::MlirShardingSite& site : scan.shardings) {
    ListedSharding row;
    row.offset = site.offset;
    row.length = site.length;
    row.line = static_cast<size_t>(site.line);
    row.column = static_cast<size_t>(site.column);
    row.place = site.place;
    row.attribute = site.attribute;
    auto it = contextAt.find(site.offset);
    const module::SiteContext* context = it == contextAt.end() ? nullptr : it->second;
    size_t index = listing.shardings.size();
    if (site.attribute == "mhlo.sharding") {
      if (auto p = listMhloSite(site, context, options, index, row)) pending.push_back(std::move(*p));
    } else {
      listSdySite(ctx, site, context, lookup, row);
    }
    listing.shardings.push_back(std::move(row));
  }
  nameShardings(ctx, listing, options, pending);
  return okStatus();
}

std::string placeOf(const hlo::DumpSharding& s) {
  if (s.parameterNumber) {
    return "parameter " + std::to_string(*s.parameterNumber) + " (" + s.instruction + ") in " +
           s.computation;
  }
  return (s.root ? "ROOT " : "") + s.instruction + " in " + s.computation;
}

}  // namespace

const char* inputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kHloModule: return "hlo";
    case InputFormat::kMlir: return "mlir";
    case InputFormat::kProtoBinary: return "pb";
    case InputFormat::kProtoText: return "pbtxt";
    case InputFormat::kProtoJson: return "json";
    case InputFormat::kShardingText: return "text";
  }
  return "unknown";
}

InputFormat detectInputFormat(std::string_view data) {
  if (hlo::looksLikeHloDump(data)) return InputFormat::kHloModule;
  std::string_view rest = data.substr(firstSignificant(data));
  if (startsWithWord(rest, "module") || startsWithWord(rest, "func.func") ||
      startsWithWord(rest, "sdy.mesh") ||
      (rest.size() > 1 && rest[0] == '#' && std::isalpha(static_cast<unsigned char>(rest[1])))) {
    return InputFormat::kMlir;
  }
  if (data.find('\0') == std::string_view::npos &&
      data.find("func.func") != std::string_view::npos) {
    return InputFormat::kMlir;
  }
  switch (proto::detectShardingFormat(data)) {
    case proto::ShardingFormat::kHloText: return InputFormat::kShardingText;
    case proto::ShardingFormat::kProtoText: return InputFormat::kProtoText;
    case proto::ShardingFormat::kProtoBinary: return InputFormat::kProtoBinary;
    case proto::ShardingFormat::kProtoJson: return InputFormat::kProtoJson;
  }
  return InputFormat::kProtoBinary;
}

Result<Listing> listShardings(sdy::Context& ctx, std::string_view data,
                              const ListOptions& options) {
  Listing listing;
  listing.format = detectInputFormat(data);
  std::vector<std::optional<hlo::Shape>> shapes;
  switch (listing.format) {
    case InputFormat::kMlir:
      SB_TRY(listMlir(ctx, data, options, listing));
      return listing;
    case InputFormat::kHloModule: {
      SB_ASSIGN_OR_RETURN(hlo::HloDump dump, hlo::scanHloDump(data));
      listing.module = dump.moduleName;
      for (hlo::DumpSharding& s : dump.shardings) {
        ListedSharding row;
        row.offset = s.offset;
        row.length = s.length;
        row.line = s.line;
        row.column = s.column;
        row.place = placeOf(s);
        row.computation = s.computation;
        row.instruction = s.instruction;
        row.opcode = s.opcode;
        row.shape = s.shapeText;
        row.parameter = s.parameterNumber;
        row.root = s.root;
        row.entry = s.entry;
        row.attribute = "sharding";
        row.sharding = std::move(s.sharding);
        row.hlo = hlo::printSharding(row.sharding, options.includeMetadata);
        shapes.push_back(std::move(s.shape));
        listing.shardings.push_back(std::move(row));
      }
      break;
    }
    default: {
      SB_ASSIGN_OR_RETURN(proto::ReadSharding read, proto::readSharding(data));
      switch (read.format) {
        case proto::ShardingFormat::kHloText: listing.format = InputFormat::kShardingText; break;
        case proto::ShardingFormat::kProtoText: listing.format = InputFormat::kProtoText; break;
        case proto::ShardingFormat::kProtoBinary: listing.format = InputFormat::kProtoBinary; break;
        case proto::ShardingFormat::kProtoJson: listing.format = InputFormat::kProtoJson; break;
      }
      ListedSharding row;
      if (listing.format != InputFormat::kProtoBinary) {
        size_t at = firstSignificant(data, listing.format == InputFormat::kProtoText);
        LineCol lc = lineColAt(data, at);
        row.offset = at;
        size_t end = data.size();
        while (end > at && isBlank(data[end - 1])) --end;
        row.length = end - at;
        row.line = lc.line;
        row.column = lc.column;
      } else {
        row.length = data.size();
      }
      row.place = listing.format == InputFormat::kShardingText ? "sharding" : "OpSharding";
      row.sharding = std::move(read.sharding);
      row.hlo = hlo::printSharding(row.sharding, options.includeMetadata);
      shapes.emplace_back();
      listing.shardings.push_back(std::move(row));
      break;
    }
  }
  nameHloRows(ctx, listing, options, shapes);
  return listing;
}

std::string printListingText(const Listing& listing) {
  std::string out;
  for (const ListedMesh& m : listing.meshes) {
    out += sdy::printMeshSymbol(sdy::MeshSymbol{m.name, m.mesh}) + "\n";
  }
  for (const ListedSharding& row : listing.shardings) {
    if (row.offset) {
      out += std::to_string(row.line) + ":" + std::to_string(row.column);
    } else {
      out += "-";
    }
    out += "\t" + oneLine(row.place) + "\t" + oneLine(row.hlo) + "\t";
    out += row.error.empty() ? oneLine(row.sdy) : "error: " + oneLine(row.error);
    out += "\n";
  }
  return out;
}

std::string printListingJson(const Listing& listing, std::string_view file) {
  JsonWriter w;
  w.beginObject();
  w.key("file").value(file);
  w.key("format").value(inputFormatName(listing.format));
  w.key("module");
  if (listing.module.empty()) {
    w.null();
  } else {
    w.value(listing.module);
  }
  w.key("meshes").beginArray();
  for (const ListedMesh& m : listing.meshes) {
    w.beginObject();
    w.key("name").value(m.name);
    w.key("text").value(sdy::printMeshSymbol(sdy::MeshSymbol{m.name, m.mesh}));
    w.key("mesh");
    convert::writeMeshJson(w, m.mesh);
    w.endObject();
  }
  w.endArray();
  w.key("mesh_error");
  if (listing.meshError.empty()) {
    w.null();
  } else {
    w.value(listing.meshError);
  }
  w.key("shardings").beginArray();
  for (const ListedSharding& row : listing.shardings) {
    w.beginObject();
    auto optionalNumber = [&w](bool present, size_t v) {
      if (present) {
        w.value(static_cast<int64_t>(v));
      } else {
        w.null();
      }
    };
    auto optionalString = [&w](const std::string& s) {
      if (s.empty()) {
        w.null();
      } else {
        w.value(s);
      }
    };
    w.key("line");
    optionalNumber(row.offset.has_value(), row.line);
    w.key("column");
    optionalNumber(row.offset.has_value(), row.column);
    w.key("offset");
    optionalNumber(row.offset.has_value(), row.offset.value_or(0));
    w.key("length").value(static_cast<int64_t>(row.length));
    w.key("place").value(row.place);
    w.key("computation");
    optionalString(row.computation);
    w.key("instruction");
    optionalString(row.instruction);
    w.key("opcode");
    optionalString(row.opcode);
    w.key("shape");
    optionalString(row.shape);
    w.key("parameter");
    if (row.parameter) {
      w.value(*row.parameter);
    } else {
      w.null();
    }
    w.key("root").value(row.root);
    w.key("entry").value(row.entry);
    w.key("attribute");
    optionalString(row.attribute);
    w.key("hlo");
    optionalString(row.hlo);
    w.key("ranks").beginArray(JsonWriter::kInline);
    for (int64_t r : row.ranks) w.value(r);
    w.endArray();
    w.key("sdy");
    optionalString(row.sdy);
    w.key("error");
    optionalString(row.error);
    w.endObject();
  }
  w.endArray();
  w.endObject();
  return w.finish();
}

}  // namespace shardbridge::dump
