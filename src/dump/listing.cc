// `shardbridge list`: every sharding of a file with its place, HLO string
// and named form (listing.h).
#include "shardbridge/dump/listing.h"

#include <cctype>
#include <map>
#include <utility>

#include "shardbridge/base/diagnostic.h"
#include "shardbridge/base/json_writer.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/dump.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/sharding_input.h"
#include "shardbridge/sdy/text.h"

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

int64_t ownRank(const hlo::HloSharding& leaf) {
  if (leaf.kind() == hlo::HloSharding::Kind::kTiled) return leaf.tiledDataRank();
  if (leaf.isNamed()) return static_cast<int64_t>(leaf.namedSharding()->dimShardings().size());
  return 0;
}

std::vector<const hlo::HloSharding*> leavesOf(const hlo::HloSharding& s) {
  std::vector<const hlo::HloSharding*> leaves;
  if (s.isTuple()) {
    for (const hlo::HloSharding& e : s.tupleElements()) leaves.push_back(&e);
  } else {
    leaves.push_back(&s);
  }
  return leaves;
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
  for (const hlo::HloSharding* leaf : leavesOf(sharding)) ranks.push_back(ownRank(*leaf));
  return {sharding, ranks};
}

std::string oneLine(std::string s) {
  for (char& c : s) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

// Fills the named form of every row: mesh inference over all rows (or the
// given mesh), then the import of each row.
void nameShardings(sdy::Context& ctx, Listing& listing, const ListOptions& options,
                   const std::vector<std::optional<hlo::Shape>>& shapes) {
  if (listing.shardings.empty()) return;
  std::vector<hlo::HloSharding> all;
  std::vector<hlo::HloSharding> forms;
  all.reserve(listing.shardings.size());
  for (size_t i = 0; i < listing.shardings.size(); ++i) {
    all.push_back(listing.shardings[i].sharding);
    auto [form, ranks] = importForm(all.back(), shapes[i]);
    forms.push_back(std::move(form));
    listing.shardings[i].ranks = std::move(ranks);
  }

  sdy::MeshAttr mesh;
  std::map<int64_t, std::string> singleDevice;
  if (options.mesh) {
    mesh = *options.mesh;
    listing.meshes.push_back({options.meshName, mesh});
    for (const hlo::HloSharding& s : all) {
      for (const hlo::HloSharding* leaf : leavesOf(s)) {
        if (auto d = leaf->uniqueDevice(); d && leaf->isSingleDevice()) {
          singleDevice[*d] = "single_device_" + std::to_string(*d);
        }
      }
    }
  } else {
    auto inferred = convert::inferModuleMesh(ctx, all, options.anyOrder);
    if (!inferred) {
      listing.meshError = inferred.error().message;
      for (ListedSharding& row : listing.shardings) {
        row.error = "no module mesh: " + listing.meshError;
      }
      return;
    }
    mesh = inferred->mesh;
    listing.meshes.push_back({options.meshName, mesh});
    for (const auto& [id, name] : inferred->singleDevice) singleDevice[id] = name;
  }
  for (const auto& [id, name] : singleDevice) {
    int64_t ids[] = {id};
    listing.meshes.push_back({name, sdy::MeshAttr::get(ctx, {}, ids)});
  }

  sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, options.meshName);
  for (size_t i = 0; i < listing.shardings.size(); ++i) {
    ListedSharding& row = listing.shardings[i];
    const hlo::HloSharding& sharding = forms[i];
    const std::vector<int64_t>& ranks = row.ranks;
    if (sharding.isTuple()) {
      auto imported = convert::convertToSdyShardingPerValue(ctx, sharding, mesh, ref, singleDevice,
                                                            ranks, false, options.anyOrder);
      if (imported) {
        row.sdy = sdy::printTensorShardingPerValue(*imported);
      } else {
        row.error = imported.error().message;
      }
    } else {
      auto imported = convert::convertToSdySharding(ctx, sharding, mesh, ref, singleDevice,
                                                    ranks[0], false, options.anyOrder);
      if (imported) {
        row.sdy = sdy::printTensorSharding(*imported);
      } else {
        row.error = imported.error().message;
      }
    }
  }
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
      // The hook for the MLIR scanner (module/mlir_scan.h): one row per
      // scanned sharding attribute, `attribute` its name, `sdy` the sdy text
      // itself and `hlo` its export; the module's meshes as `meshes`.
      return makeError(ErrorCode::kUnsupported, "MLIR input is not supported by list yet");
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
  nameShardings(ctx, listing, options, shapes);
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
    w.key("mesh").value(sdy::printMesh(m.mesh));
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
    w.key("hlo").value(row.hlo);
    w.key("ranks").beginArray();
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
