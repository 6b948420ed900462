// `shardbridge list` on MLIR modules (listing.h): the sites module::scanMlir
// finds on the op tree, each module of the file with its own meshes.
#include <map>
#include <span>

#include "dump/listing_detail.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/mlir_scan.h"
#include "shardbridge/sdy/mlir_type.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::dump::detail {
namespace {

// The module's meshes (sdy.mesh ops, then xla.sdy.meshes entries, in text
// order), parsed and verified. Errors are located in `data`.
Result<std::map<std::string, sdy::MeshAttr, std::less<>>> moduleMeshes(
    sdy::Context& ctx, std::string_view data, const module::MlirScan& scan, size_t module, Listing& listing) {
  std::map<std::string, sdy::MeshAttr, std::less<>> byName;
  for (const module::MlirMeshDef& def : scan.meshes) {
    if (def.module != module) continue;
    // An op's `<...>` is written as it is: errors land on their token. A
    // round-trip entry is a decoded string: errors land on the string.
    size_t base = data.find(def.text, def.offset);
    bool written = base != std::string_view::npos;
    auto locate = [&](Error e) {
      if (!written) {
        e.dropOffsets();
        e.offset = def.offset;
        return e;
      }
      if (!e.hasOffset()) e.offset = 0;
      return e.shifted(base);
    };
    sdy::SourceMap where;
    auto mesh = sdy::parseMesh(ctx, def.text, &where);
    if (!mesh) return locate(mesh.error());
    if (Status ok = sdy::verifyMesh(*mesh, &where); !ok) return locate(ok.error());
    if (!byName.emplace(def.name, *mesh).second) {
      return makeError(ErrorCode::kInvalid, "redefinition of symbol named '" + def.name + "'",
                       def.offset);
    }
    listing.meshes.push_back({def.name, *mesh, ""});
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
void listSdySite(sdy::Context& ctx, const module::MlirShardingSite& site, const sdy::MeshLookup& lookup,
                 ListedSharding& row) {
  const std::optional<std::vector<MlirType>>& types = site.types;
  std::span<const std::string> manual = site.manualAxes;
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
std::optional<Pending> listMhloSite(const module::MlirShardingSite& site, const ListOptions& options,
                                    size_t index, ListedSharding& row) {
  auto read = module::readMhloSharding(site.value);
  if (!read) {
    row.error = read.error().message;
    return std::nullopt;
  }
  row.sharding = std::move(*read);
  row.hlo = hlo::printSharding(row.sharding, options.includeMetadata);
  // A module's spmd output (or tuple parameter) sharding names one sharding
  // per value when it is a tuple.
  bool perValue = site.onOp || (site.attribute.starts_with("mhlo.spmd_") && row.sharding.isTuple());
  std::vector<const hlo::HloSharding*> leaves = hlo::leavesOf(row.sharding);
  const std::optional<std::vector<MlirType>>* types = &site.types;
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

// How rows and meshes name their module in a file with several: `@NAME`,
// or `#N` (1-based) for an unnamed one.
std::string moduleLabel(const module::MlirModuleScope& scope, size_t index) {
  return scope.name.empty() ? "#" + std::to_string(index + 1) : "@" + scope.name;
}

}  // namespace

Status listMlir(sdy::Context& ctx, std::string_view data, const ListOptions& options, Listing& listing) {
  SB_ASSIGN_OR_RETURN(module::MlirScan scan, module::scanMlir(data));
  bool several = scan.modules.size() > 1;
  listing.module = scan.modules.front().name;
  for (size_t m = 0; m < scan.modules.size(); ++m) {
    // Each module is listed on its own: its meshes, its sdy rows verified
    // against them, its mhlo.sharding rows on a mesh inferred over its own
    // strings (as the import pass sees one module).
    Listing part;
    SB_ASSIGN_OR_RETURN(auto meshes, moduleMeshes(ctx, data, scan, m, part));
    sdy::MeshLookup lookup = [&meshes](std::string_view name) -> sdy::MeshAttr {
      auto it = meshes.find(name);
      return it == meshes.end() ? sdy::MeshAttr() : it->second;
    };
    std::vector<Pending> pending;
    for (const module::MlirShardingSite& site : scan.shardings) {
      if (site.module != m) continue;
      ListedSharding row;
      row.offset = site.offset;
      row.length = site.length;
      row.line = static_cast<size_t>(site.line);
      row.column = static_cast<size_t>(site.column);
      row.place = site.place;
      row.attribute = site.attribute;
      size_t index = part.shardings.size();
      if (site.attribute == "mhlo.sharding" || site.attribute.starts_with("mhlo.spmd_")) {
        if (auto p = listMhloSite(site, options, index, row)) pending.push_back(std::move(*p));
      } else {
        listSdySite(ctx, site, lookup, row);
      }
      part.shardings.push_back(std::move(row));
    }
    nameShardings(ctx, part, options, pending);
    std::string label = several ? moduleLabel(scan.modules[m], m) : "";
    if (several) listing.modules.push_back(label);
    for (ListedMesh& mesh : part.meshes) {
      mesh.module = label;
      listing.meshes.push_back(std::move(mesh));
    }
    for (ListedSharding& row : part.shardings) {
      row.module = label;
      listing.shardings.push_back(std::move(row));
    }
    if (listing.meshError.empty() && !part.meshError.empty())
      listing.meshError = several ? "module " + label + ": " + part.meshError : part.meshError;
  }
  return okStatus();
}

}  // namespace shardbridge::dump::detail
