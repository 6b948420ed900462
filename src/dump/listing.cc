// `shardbridge list`: every sharding of a file with its place, HLO string
// and named form (listing.h).
#include "shardbridge/dump/listing.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <utility>

#include "dump/listing_detail.h"
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
#include "shardbridge/proto/sharding_input.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::dump {
namespace detail {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Offset of the first byte after blanks and `//` / `/* */` comments (and
// `#` comments, for pbtxt).
size_t firstSignificant(std::string_view data, bool hashComments) {
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

}  // namespace detail
namespace {

using namespace detail;

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

}  // namespace

namespace detail {

std::string oneLine(std::string s) {
  for (char& c : s) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

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
    created.push_back({options.meshName, mesh, ""});
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
    created.push_back({options.meshName, mesh, ""});
    for (const auto& [id, name] : inferred->singleDevice) singleDevice[id] = name;
  }
  for (const auto& [id, name] : singleDevice) {
    int64_t ids[] = {id};
    created.push_back({name, sdy::MeshAttr::get(ctx, {}, ids), ""});
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

}  // namespace detail

namespace {

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

std::string placeOf(const hlo::DumpSharding& s) {
  if (s.parameterNumber) {
    return "parameter " + std::to_string(*s.parameterNumber) + " (" + s.instruction + ") in " +
           s.computation;
  }
  return (s.root ? "ROOT " : "") + s.instruction + " in " + s.computation;
}

}  // namespace
using namespace detail;

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
  auto row = [&out](const ListedSharding& row) {
    if (row.offset) {
      out += std::to_string(row.line) + ":" + std::to_string(row.column);
    } else {
      out += "-";
    }
    out += "\t" + oneLine(row.place) + "\t" + oneLine(row.hlo) + "\t";
    out += row.error.empty() ? oneLine(row.sdy) : "error: " + oneLine(row.error);
    out += "\n";
  };
  std::vector<std::string> ordered = listing.modules;
  if (ordered.empty()) ordered.push_back("");
  for (const std::string& module : ordered) {
    if (!module.empty()) out += "// module " + module + "\n";
    for (const ListedMesh& m : listing.meshes)
      if (m.module == module) out += sdy::printMeshSymbol(sdy::MeshSymbol{m.name, m.mesh}) + "\n";
    for (const ListedSharding& r : listing.shardings)
      if (r.module == module) row(r);
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
    if (!listing.modules.empty()) w.key("module").value(m.module);
    w.endObject();
  }
  w.endArray();
  w.key("mesh_error");
  if (listing.meshError.empty()) {
    w.null();
  } else {
    w.value(listing.meshError);
  }
  if (!listing.modules.empty()) {
    w.key("modules").beginArray(JsonWriter::kInline);
    for (const std::string& m : listing.modules) w.value(m);
    w.endArray();
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
    if (!listing.modules.empty()) w.key("module").value(row.module);
    w.endObject();
  }
  w.endArray();
  w.endObject();
  return w.finish();
}

}  // namespace shardbridge::dump
