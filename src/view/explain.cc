#include "shardbridge/view/explain.h"

#include <algorithm>
#include <map>

#include "shardbridge/base/json_writer.h"
#include "shardbridge/convert/any_order.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/sdy/axis_algebra.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/view/losses.h"

namespace shardbridge::view {
namespace {

const char* kindName(const hlo::HloSharding& v2) {
  switch (v2.kind()) {
    case hlo::HloSharding::Kind::kReplicated: return "replicated";
    case hlo::HloSharding::Kind::kSingleDevice: return "single_device";
    case hlo::HloSharding::Kind::kManual: return "manual";
    case hlo::HloSharding::Kind::kUnknown: return "unknown";
    case hlo::HloSharding::Kind::kUnreduced: return "unreduced";
    case hlo::HloSharding::Kind::kTuple: return "tuple";
    default: return "tiled";
  }
}

std::string dimsText(std::span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

// The data rank an import of `s` (a leaf) needs.
int64_t importRank(const hlo::HloSharding& s, const std::optional<hlo::Shape>& shape) {
  if (s.isNamed()) return static_cast<int64_t>(s.namedSharding()->dimShardings().size());
  if (s.kind() == hlo::HloSharding::Kind::kTiled) return s.tiledDataRank();
  return shape ? shape->rank() : 0;
}

bool isTrivial(sdy::AxisRefAttr axis, sdy::MeshAttr mesh) {
  std::optional<int64_t> size = axis.getSize(mesh);
  return size && *size == 1;
}

// Fills the replicated / manual / unreduced axes of `e` from its sdy form:
// every piece of the mesh (cut at the sub-axes the sharding uses) that no
// dim, replicated or unreduced list covers is implicitly replicated — or
// manual, when the HLO form has a MANUAL subgroup (the import leaves those
// axes out).
// `manualNames`, when given, picks the manual axes among the leftover ones
// by name (sdy input); otherwise `leftoverIsManual` says whether all of
// them are manual (an HLO MANUAL subgroup) or replicated.
void classifyAxes(sdy::Context& ctx, Explanation& e, bool leftoverIsManual,
                  const std::vector<std::string>* manualNames) {
  sdy::TensorShardingAttr s = e.named;
  std::vector<sdy::AxisRefAttr> used;
  for (sdy::DimensionShardingAttr dim : s.dimShardings()) {
    used.insert(used.end(), dim.axes().begin(), dim.axes().end());
  }
  used.insert(used.end(), s.replicatedAxes().begin(), s.replicatedAxes().end());
  used.insert(used.end(), s.unreducedAxes().begin(), s.unreducedAxes().end());
  std::vector<sdy::AxisRefAttr> leftover;
  for (sdy::AxisRefAttr piece : sdy::getOrderedAxisRefs(ctx, used, e.mesh)) {
    if (isTrivial(piece, e.mesh)) continue;
    bool covered = std::any_of(used.begin(), used.end(),
                               [&](sdy::AxisRefAttr u) { return sdy::contains(u, piece); });
    if (!covered) leftover.push_back(piece);
  }
  std::vector<sdy::AxisRefAttr> replicated;
  for (sdy::AxisRefAttr a : s.replicatedAxes()) {
    if (!isTrivial(a, e.mesh)) replicated.push_back(a);
  }
  if (manualNames) {
    for (sdy::AxisRefAttr piece : leftover) {
      bool manual = std::find(manualNames->begin(), manualNames->end(), piece.name()) !=
                    manualNames->end();
      (manual ? e.manualAxes : replicated).push_back(piece);
    }
  } else if (leftoverIsManual) {
    e.manualAxes = leftover;
  } else {
    replicated.insert(replicated.end(), leftover.begin(), leftover.end());
  }
  for (sdy::AxisRefAttr a : s.unreducedAxes()) {
    if (!isTrivial(a, e.mesh)) e.unreducedAxes.push_back(a);
  }
  sdy::sortAndMergeAxes(ctx, replicated, e.mesh);
  sdy::sortAndMergeAxes(ctx, e.manualAxes, e.mesh);
  sdy::sortAndMergeAxes(ctx, e.unreducedAxes, e.mesh);
  e.replicatedAxes = std::move(replicated);
  if (!s.unreducedAxes().empty()) e.reductionOp = s.reductionOp();
}

Status checkShape(const hlo::HloSharding& s, const hlo::Shape& shape) {
  return s.validate(shape);
}

// The common tail of both entry points: axes, then tiles.
Result<Explanation> finish(sdy::Context& ctx, Explanation e, const hlo::HloSharding& v2,
                           const std::optional<hlo::Shape>& shape, bool leftoverIsManual,
                           const std::vector<std::string>* manualNames = nullptr) {
  e.kind = kindName(v2);
  e.shape = shape;
  if (e.named && e.mesh) {
    classifyAxes(ctx, e, leftoverIsManual, manualNames);
    e.partitionSpec = toPartitionSpec(e.named, e.mesh);
  } else {
    e.partitionSpec.reason =
        e.namedError.empty() ? "no named sharding without a mesh (give --mesh)" : e.namedError;
  }

  // Without a shape, one element per tile.
  std::vector<int64_t> dims;
  if (shape) {
    dims = shape->dimensions();
  } else if (v2.kind() == hlo::HloSharding::Kind::kTiled) {
    auto ta = v2.tileAssignment().dimensions();
    dims.assign(ta.begin(), ta.begin() + v2.tiledDataRank());
  } else {
    dims.assign(static_cast<size_t>(e.named ? e.named.rank() : 0), 1);
  }
  if (!shape && v2.kind() == hlo::HloSharding::Kind::kTiled) {
    SB_TRY(checkShape(v2, hlo::Shape::array("f32", dims)));
  }
  std::optional<int64_t> replicatedDevices;
  if (e.mesh && !e.mesh.axes().empty()) replicatedDevices = e.mesh.getTotalSize();
  auto tiles = computeTiles(v2, dims, replicatedDevices);
  if (tiles) {
    e.tiles = std::move(*tiles);
  } else {
    e.tilesNote = tiles.error().message;
  }
  return e;
}

}  // namespace

Result<hlo::Shape> parseViewShape(std::string_view text) {
  std::string owned(text);
  size_t first = owned.find_first_not_of(" \t");
  if (first != std::string::npos && (owned[first] == '[' || (owned[first] >= '0' && owned[first] <= '9'))) {
    owned = owned[first] == '[' ? "f32" + owned.substr(first) : "f32[" + owned.substr(first) + "]";
  }
  SB_ASSIGN_OR_RETURN(hlo::Shape shape, hlo::parseShape(owned));
  if (!shape.isArray()) {
    return makeError(ErrorCode::kInvalid,
                     "expected an array shape like f32[16,32], got " + shape.toString());
  }
  for (int64_t d : shape.dimensions()) {
    if (d == hlo::Shape::kUnboundedSize) {
      return makeError(ErrorCode::kInvalid, "unbounded dynamic dimension '?' in shape " +
                                                shape.toString() + ": give a size");
    }
  }
  return shape;
}

Result<Explanation> explainHloSharding(sdy::Context& ctx, const hlo::HloSharding& sharding,
                                       sdy::MeshAttr mesh, const std::string& meshName,
                                       const std::optional<hlo::Shape>& shape) {
  if (sharding.isTuple()) {
    return makeError(ErrorCode::kUnsupported,
                     "explain takes one sharding, got a tuple of " +
                         std::to_string(sharding.tupleElements().size()) +
                         " (explain its elements one at a time)");
  }
  hlo::HloSharding v2 = sharding;
  if (sharding.isNamed()) {
    SB_ASSIGN_OR_RETURN(v2, hlo::toV2Sharding(sharding));
  }
  if (shape) SB_TRY(checkShape(sharding, *shape));

  constexpr convert::AnyOrderOptions kAnyOrder{true};
  Explanation e;
  e.inputFormat = "hlo";
  e.hlo = sharding;
  e.meshName = meshName;
  e.meshSource = "given";
  if (!mesh) {
    // A V3 sharding carries its mesh; the inference takes it from there.
    e.meshSource = sharding.isNamed() ? "sharding" : "inferred";
    e.meshName = "mesh";
    hlo::HloSharding one[] = {sharding};
    auto inferred = convert::inferModuleMesh(ctx, one, kAnyOrder);
    if (inferred) {
      mesh = inferred->mesh;
    } else {
      e.namedError = inferred.error().message;
    }
  }
  const std::string refName = e.meshName.empty() ? "mesh" : e.meshName;
  std::map<int64_t, std::string> singleDevice;
  std::optional<int64_t> device = v2.isSingleDevice() ? v2.uniqueDevice() : std::nullopt;
  if (device) {
    // A single-device sharding lives on its own maximal mesh, as the module
    // import creates it.
    singleDevice[*device] = "single_device_" + std::to_string(*device);
    int64_t ids[] = {*device};
    e.mesh = sdy::MeshAttr::get(ctx, {}, ids);
    e.meshName = singleDevice[*device];
    e.meshSource = "single_device";
  } else {
    e.mesh = mesh;
  }
  if (mesh) {
    auto named = convert::convertToSdySharding(ctx, sharding, mesh,
                                               sdy::MeshOrRef::ref(ctx, refName),
                                               singleDevice, importRank(sharding, shape),
                                               /*openDims=*/false, kAnyOrder);
    if (named) {
      e.named = *named;
    } else {
      e.namedError = named.error().message;
    }
  }
  // An empty inferred mesh (nothing tiled) is no mesh to show.
  if (e.mesh && e.mesh.empty()) e.mesh = sdy::MeshAttr();
  if (!e.mesh) e.named = sdy::TensorShardingAttr();
  bool manual = v2.isManual() || v2.isManualSubgroup();
  SB_ASSIGN_OR_RETURN(Explanation done, finish(ctx, std::move(e), v2, shape, manual));
  // Said, not dropped in silence: what the named form leaves out.
  done.warnings = importLosses(sharding, done.mesh && !done.mesh.axes().empty(),
                               /*manualShown=*/true);
  return done;
}

Result<Explanation> explainSdySharding(sdy::Context& ctx, sdy::TensorShardingAttr sharding,
                                       const sdy::MeshLookup& lookup,
                                       const std::optional<hlo::Shape>& shape,
                                       const std::vector<std::string>& manualAxes) {
  sdy::MeshAttr mesh = sharding.getMesh(lookup);
  if (!mesh) {
    return makeError(ErrorCode::kNotFound,
                     "unknown mesh: @" + std::string(sharding.meshOrRef().refName()));
  }
  SB_ASSIGN_OR_RETURN(hlo::HloSharding exported,
                      convert::convertToHloSharding(sharding, lookup, manualAxes));
  if (shape && shape->rank() != sharding.rank()) {
    return makeError(ErrorCode::kInvalid,
                     "shape " + shape->toString() + " has rank " + std::to_string(shape->rank()) +
                         " but the sharding has " + std::to_string(sharding.rank()) +
                         " dimensions");
  }
  if (shape) SB_TRY(checkShape(exported, *shape));
  Explanation e;
  e.inputFormat = "sdy";
  e.hlo = exported;
  e.mesh = mesh;
  e.named = sharding;
  if (sharding.meshOrRef().isRef()) {
    e.meshName = std::string(sharding.meshOrRef().refName());
    e.meshSource = "given";
  } else {
    e.meshSource = "sharding";
  }
  return finish(ctx, std::move(e), exported, shape, /*leftoverIsManual=*/false, &manualAxes);
}

// --- text ------------------------------------------------------------------

namespace {

std::string axesText(const std::vector<sdy::AxisRefAttr>& axes) {
  if (axes.empty()) return "-";
  std::string s = "{";
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + sdy::printAxisRef(axes[i]);
  return s + "}";
}

std::string rangesText(const Tile& t) {
  std::string s = "[";
  for (size_t d = 0; d < t.offset.size(); ++d) {
    s += (d ? ", " : "") + std::to_string(t.offset[d]) + ":" +
         std::to_string(t.offset[d] + t.shape[d]);
  }
  return s + "]";
}

std::string padRight(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string meshText(const Explanation& e) {
  std::string text = sdy::printMesh(e.mesh, {.withPrefix = false});
  if (!e.meshName.empty()) text = "@" + e.meshName + " = " + text;
  // The JSON `source` values, said in words.
  std::string source = e.meshSource;
  if (source == "sharding") source = "from the sharding";
  if (source == "single_device") source = "single device";
  return text + " (" + source + ")";
}

}  // namespace

std::string formatExplanation(const Explanation& e) {
  std::string out;
  auto line = [&](const char* label, const std::string& value) {
    out += padRight(label, 15) + value + "\n";
  };
  line("sharding:", e.hlo.toString(/*includeMetadata=*/false));
  std::string kind = e.kind;
  if (e.tiles && e.kind == "tiled") {
    kind += ": " + std::to_string(e.tiles->tiles.size()) + " tiles " + dimsText(e.tiles->tileCounts) +
            " over " + std::to_string(e.tiles->numDevices) + " devices, each tile on " +
            std::to_string(e.tiles->replication) +
            (e.tiles->replication == 1 ? " device" : " devices");
  }
  line("kind:", kind);
  line("mesh:", e.mesh                ? meshText(e)
                : e.kind == "tiled" ? std::string("none (no mesh found for this device order; give --mesh)")
                                    : std::string("none (nothing is tiled; give --mesh)"));
  line("sdy:", e.named ? sdy::printTensorSharding(e.named)
                       : "none" + (e.namedError.empty() ? std::string() : ": " + e.namedError));
  if (e.partitionSpec.exists) {
    line("PartitionSpec:", e.partitionSpec.text);
    for (const std::string& note : e.partitionSpec.notes) line("", "note: " + note);
  } else {
    line("PartitionSpec:", "none: " + e.partitionSpec.reason);
  }
  line("replicated:", axesText(e.replicatedAxes));
  line("manual:", axesText(e.manualAxes));
  std::string unreduced = axesText(e.unreducedAxes);
  if (e.reductionOp && !e.unreducedAxes.empty()) {
    unreduced += std::string(" (reduction: ") + sdy::reductionOpName(*e.reductionOp) + ")";
  }
  line("unreduced:", unreduced);

  if (!e.tiles) {
    line("tiles:", "none: " + e.tilesNote);
    return out;
  }
  const TileLayout& t = *e.tiles;
  if (e.shape) {
    std::string tileShape = e.shape->elementType() + dimsText(t.tiles.front().shape);
    line("shape:", e.shape->toString() + ", tile " + tileShape + " (the first)");
  } else {
    line("shape:", "none given (--shape f32[...] adds offsets and local shapes)");
  }
  if (t.numDevices == 0) {
    out += "\nevery device holds the whole tensor (give --mesh to list them)\n";
    return out;
  }

  // Per device, by id.
  std::vector<std::pair<int64_t, size_t>> byDevice;
  for (size_t i = 0; i < t.tiles.size(); ++i) {
    for (int64_t d : t.tiles[i].devices) byDevice.emplace_back(d, i);
  }
  std::sort(byDevice.begin(), byDevice.end());
  std::vector<std::vector<std::string>> rows;
  rows.push_back(e.shape ? std::vector<std::string>{"device", "tile", "offset", "local shape",
                                                    "elements"}
                         : std::vector<std::string>{"device", "tile"});
  for (const auto& [device, i] : byDevice) {
    const Tile& tile = t.tiles[i];
    std::vector<std::string> row{std::to_string(device), dimsText(tile.index)};
    if (e.shape) {
      row.push_back(dimsText(tile.offset));
      row.push_back(dimsText(tile.shape));
      row.push_back(rangesText(tile));
    }
    rows.push_back(std::move(row));
  }
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  out += "\ndevices (" + std::to_string(byDevice.size()) + "):\n";
  for (const auto& row : rows) {
    std::string text = " ";
    for (size_t c = 0; c < row.size(); ++c) {
      text += " " + (c + 1 < row.size() ? padRight(row[c], widths[c]) : row[c]);
    }
    out += text + "\n";
  }

  // What a group of devices on one tile index is depends on the subgroup:
  // replicas hold the same tile, unreduced devices partial values of it,
  // manual devices each their own shard.
  std::string heading = "replication groups (devices holding the same tile";
  if (!e.manualAxes.empty() || !e.unreducedAxes.empty()) {
    heading = "groups (devices on the same tile index";
    if (!e.manualAxes.empty()) heading += "; along manual axes each holds its own shard";
    if (!e.unreducedAxes.empty()) {
      heading += std::string("; along unreduced axes they hold partial values, combined by ") +
                 sdy::reductionOpName(e.reductionOp.value_or(sdy::ReductionOp::kSum));
    }
    if (!e.replicatedAxes.empty()) heading += "; along replicated axes they hold the same values";
  }
  out += "\n" + heading;
  out += t.replication == 1 ? "; every tile is on one device):\n" : "):\n";
  for (const Tile& tile : t.tiles) {
    out += "  tile " + dimsText(tile.index);
    if (e.shape) out += " " + rangesText(tile);
    out += ": " + formatDeviceList(tile.devices) + "\n";
  }
  return out;
}

// --- JSON ------------------------------------------------------------------

namespace {

void writeAxes(JsonWriter& w, const std::vector<sdy::AxisRefAttr>& axes, sdy::MeshAttr mesh) {
  w.beginArray();
  for (sdy::AxisRefAttr a : axes) {
    w.beginObject();
    w.key("name").value(std::string(a.name()));
    if (a.isSubAxis()) w.key("pre_size").value(a.subAxisInfo().preSize());
    if (auto size = a.getSize(mesh)) w.key("size").value(*size);
    w.key("text").value(sdy::printAxisRef(a));
    w.endObject();
  }
  w.endArray();
}

}  // namespace

std::string explanationJson(const Explanation& e) {
  JsonWriter w;
  w.beginObject();
  w.key("input_format").value(e.inputFormat);
  w.key("hlo").value(e.hlo.toString(/*includeMetadata=*/true));
  w.key("kind").value(e.kind);
  w.key("mesh");
  if (e.mesh) {
    w.beginObject();
    w.key("name");
    if (e.meshName.empty()) w.null(); else w.value(e.meshName);
    w.key("source").value(e.meshSource);
    w.key("text").value(sdy::printMesh(e.mesh, {.withPrefix = false}));
    w.key("axes").beginArray();
    for (sdy::MeshAxisAttr axis : e.mesh.axes()) {
      w.beginObject().key("name").value(std::string(axis.name())).key("size").value(axis.size());
      w.endObject();
    }
    w.endArray();
    w.key("device_ids");
    w.values(e.mesh.deviceIds());
    w.endObject();
  } else {
    w.null();
  }
  w.key("sdy");
  if (e.named) w.value(sdy::printTensorSharding(e.named)); else w.null();
  w.key("sdy_error");
  if (e.namedError.empty()) w.null(); else w.value(e.namedError);
  w.key("dim_shardings");
  if (e.named) {
    w.beginArray();
    for (sdy::DimensionShardingAttr dim : e.named.dimShardings()) {
      std::vector<sdy::AxisRefAttr> axes(dim.axes().begin(), dim.axes().end());
      w.beginObject();
      w.key("axes");
      writeAxes(w, axes, e.mesh);
      w.key("open").value(dim.isOpen());
      w.endObject();
    }
    w.endArray();
  } else {
    w.null();
  }
  const PartitionSpec& p = e.partitionSpec;
  w.key("partition_spec").beginObject();
  w.key("text");
  if (p.exists) w.value(p.text); else w.null();
  w.key("dims");
  if (p.exists) {
    w.beginArray();
    for (size_t d = 0; d < p.dims.size(); ++d) {
      if (p.unconstrained[d]) {
        w.value("UNCONSTRAINED");
      } else if (p.dims[d].empty()) {
        w.null();
      } else {
        w.beginArray();
        for (const std::string& n : p.dims[d]) w.value(n);
        w.endArray();
      }
    }
    w.endArray();
  } else {
    w.null();
  }
  w.key("unreduced").beginArray();
  for (const std::string& n : p.unreduced) w.value(n);
  w.endArray();
  w.key("reason");
  if (p.exists) w.null(); else w.value(p.reason);
  w.key("notes").beginArray();
  for (const std::string& n : p.notes) w.value(n);
  w.endArray();
  w.endObject();
  w.key("replicated_axes");
  writeAxes(w, e.replicatedAxes, e.mesh);
  w.key("manual_axes");
  writeAxes(w, e.manualAxes, e.mesh);
  w.key("unreduced_axes");
  writeAxes(w, e.unreducedAxes, e.mesh);
  w.key("reduction_op");
  if (e.reductionOp) w.value(sdy::reductionOpName(*e.reductionOp)); else w.null();
  w.key("shape");
  if (e.shape) w.value(e.shape->toString()); else w.null();
  w.key("warnings").beginArray();
  for (const std::string& warning : e.warnings) w.value(warning);
  w.endArray();
  if (!e.tiles) {
    w.key("tiles").null();
    w.key("tiles_note").value(e.tilesNote);
    w.endObject();
    return w.finish();
  }
  const TileLayout& t = *e.tiles;
  w.key("tiles").beginObject();
  w.key("tile_counts");
  w.values(t.tileCounts);
  w.key("replication").value(t.replication);
  w.key("num_devices").value(t.numDevices);
  w.key("groups").beginArray();
  for (const Tile& tile : t.tiles) {
    w.beginObject();
    w.key("index");
    w.values(tile.index);
    if (e.shape) {
      w.key("offset");
      w.values(tile.offset);
      w.key("shape");
      w.values(tile.shape);
    }
    w.key("devices");
    w.values(tile.devices);
    w.endObject();
  }
  w.endArray();
  std::vector<std::pair<int64_t, size_t>> byDevice;
  for (size_t i = 0; i < t.tiles.size(); ++i)
    for (int64_t d : t.tiles[i].devices) byDevice.emplace_back(d, i);
  std::sort(byDevice.begin(), byDevice.end());
  w.key("devices").beginArray();
  for (const auto& [device, i] : byDevice) {
    const Tile& tile = t.tiles[i];
    w.beginObject();
    w.key("device").value(device);
    w.key("index");
    w.values(tile.index);
    if (e.shape) {
      w.key("offset");
      w.values(tile.offset);
      w.key("shape");
      w.values(tile.shape);
    }
    w.endObject();
  }
  w.endArray();
  w.endObject();
  w.key("tiles_note").null();
  w.endObject();
  return w.finish();
}

}  // namespace shardbridge::view
