#include "shardbridge/convert/mesh_inference.h"

#include <algorithm>
#include <map>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "shardbridge/convert/factorization.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::convert {
namespace {

using hlo::HloSharding;

std::string joinSizes(std::span<const int64_t> sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(sizes[i]);
  }
  return out + "]";
}

// A tiled leaf that took part in the fold, kept to name conflicts.
struct Contribution {
  const HloSharding* sharding;
  std::vector<int64_t> localMesh;
};

Result<sdy::MeshAttr> meshFromNamed(sdy::Context& ctx, const hlo::Mesh& mesh) {
  std::vector<sdy::MeshAxisAttr> axes;
  axes.reserve(mesh.axisNames().size());
  for (int64_t i = 0; i < mesh.numAxes(); ++i) {
    axes.push_back(sdy::MeshAxisAttr::get(ctx, mesh.axisNames()[static_cast<size_t>(i)],
                                          mesh.axisSize(i)));
  }
  if (!mesh.hasExplicitDeviceOrder()) return sdy::MeshAttr::get(ctx, axes);
  SB_ASSIGN_OR_RETURN(auto ids, mesh.deviceAssignment().devices());
  return sdy::MeshAttr::get(ctx, axes, ids);
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// A hash of a tile assignment for finding repeats (equal assignments hash
// equally; an iota is hashed by its form, never listed).
uint64_t hashTiles(const hlo::TileAssignment& tiles) {
  uint64_t h = 0;
  for (int64_t d : tiles.dimensions()) h = mix(h, static_cast<uint64_t>(d));
  if (const auto& iota = tiles.iotaForm()) {
    for (int64_t d : iota->reshapeDims()) h = mix(h, static_cast<uint64_t>(d));
    for (int p : iota->transposePerm()) h = mix(h, static_cast<uint64_t>(p));
    return mix(h, 1);
  }
  auto devices = tiles.devices();
  if (devices.has_value()) {
    for (int64_t d : *devices) h = mix(h, static_cast<uint64_t>(d));
  }
  return mix(h, 2);
}



// The mesh inferModuleMesh gives for `leaves`, when every one of them
// imports onto it.
Result<sdy::MeshAttr> meshServingAll(sdy::Context& ctx, std::span<const HloSharding> leaves,
                                     const AnyOrderOptions& anyOrder) {
  SB_ASSIGN_OR_RETURN(InferredMeshes inferred, inferModuleMesh(ctx, leaves, anyOrder));
  const std::map<int64_t, std::string> singleDevice(inferred.singleDevice.begin(),
                                                    inferred.singleDevice.end());
  const sdy::MeshOrRef ref = sdy::MeshOrRef::ref(ctx, "mesh");
  for (const HloSharding& leaf : leaves) {
    auto imported = convertToSdySharding(ctx, leaf, inferred.mesh, ref, singleDevice,
                                         ownRank(leaf), false, anyOrder);
    if (!imported.has_value()) return std::move(imported).error();
  }
  return inferred.mesh;
}

}  // namespace

Result<InferredMeshes> inferModuleMesh(sdy::Context& ctx,
                                       std::span<const hlo::HloSharding> shardings,
                                       const AnyOrderOptions& anyOrder) {
  std::vector<const HloSharding*> leaves;
  for (const HloSharding& sharding : shardings) {
    if (sharding.isTuple()) {
      for (const HloSharding& element : sharding.tupleElements()) leaves.push_back(&element);
    } else {
      leaves.push_back(&sharding);
    }
  }

  std::set<int64_t> singleDevices;
  const hlo::NamedSharding* firstNamed = nullptr;
  std::vector<Contribution> contributions;
  std::vector<int64_t> axes;
  std::vector<const HloSharding*> tiledLeaves;
  std::optional<Error> upstreamError;
  bool countsDiffer = false;
  std::unordered_map<uint64_t, std::vector<const HloSharding*>> folded;
  for (const HloSharding* leaf : leaves) {
    if (leaf->isSingleDevice()) {
      if (auto device = leaf->uniqueDevice()) singleDevices.insert(*device);
      continue;
    }
    if (leaf->isNamed()) {
      if (!firstNamed && leaf->namedSharding()->mesh().numAxes() > 0) {
        firstNamed = leaf->namedSharding();
      }
      continue;
    }
    if (leaf->kind() != HloSharding::Kind::kTiled) continue;
    tiledLeaves.push_back(leaf);
    // After the first failure only the V3 and single-device scan goes on.
    if (upstreamError) continue;
    // A repeat of a tile assignment already folded changes nothing.
    {
      const hlo::TileAssignment& tiles = leaf->tileAssignment();
      std::vector<const HloSharding*>& same = folded[hashTiles(tiles)];
      bool repeat = false;
      for (const HloSharding* other : same) {
        repeat = repeat || other->tileAssignment() == tiles;
      }
      if (repeat) continue;
      same.push_back(leaf);
    }
    auto analyzed = analyzeTileAssignment(leaf->tileAssignment());
    if (!analyzed.has_value()) {
      upstreamError = std::move(analyzed).error();
      continue;
    }
    TileAssignmentAnalysis analysis = std::move(analyzed).value();
    // A one-device tile assignment has nothing to factor.
    if (analysis.localMesh.empty()) continue;
    if (contributions.empty()) {
      axes = analysis.localMesh;
    } else {
      std::vector<int64_t> common = extractCommonFactorSequence(analysis.localMesh, axes);
      if (common.empty()) {
        // The fold fails exactly when two cut points (each from one leaf) do
        // not divide one another, or the device counts differ; either way
        // some earlier leaf conflicts with this one on its own.
        const Contribution* other = &contributions.front();
        for (const Contribution& c : contributions) {
          if (extractCommonFactorSequence(c.localMesh, analysis.localMesh).empty()) {
            other = &c;
            break;
          }
        }
        countsDiffer = other->sharding->tileAssignment().numElements() !=
                       leaf->tileAssignment().numElements();
        upstreamError = makeError(
            ErrorCode::kUnsupported,
            "no common mesh for shardings " + other->sharding->toString() + " and " +
                leaf->toString() + ": local meshes " + joinSizes(other->localMesh) + " and " +
                joinSizes(analysis.localMesh) + " have no common factorisation");
        continue;
      }
      axes = std::move(common);
    }
    contributions.push_back(Contribution{leaf, std::move(analysis.localMesh)});
  }

  // Upstream aborts on all of these. Beyond upstream, a search over device
  // orders may still find one mesh; a V3 mesh is never second-guessed, and
  // leaves over different device counts fit no mesh at all.
  std::optional<sdy::MeshAttr> anyOrderMesh;
  if (upstreamError) {
    if (!anyOrder.enabled || firstNamed || countsDiffer) return *std::move(upstreamError);
    std::vector<const HloSharding*> searched;
    for (const HloSharding* leaf : tiledLeaves) {
      if (leaf->tileAssignment().numElements() > 1) searched.push_back(leaf);
    }
    SB_ASSIGN_OR_RETURN(anyOrderMesh, inferAnyOrderMesh(ctx, searched));
  }

  InferredMeshes result;
  if (anyOrderMesh) {
    result.mesh = *anyOrderMesh;
  } else if (firstNamed) {
    SB_ASSIGN_OR_RETURN(result.mesh, meshFromNamed(ctx, firstNamed->mesh()));
  } else {
    std::vector<sdy::MeshAxisAttr> meshAxes;
    meshAxes.reserve(axes.size());
    for (size_t i = 0; i < axes.size(); ++i) {
      meshAxes.push_back(sdy::MeshAxisAttr::get(ctx, "_axis_" + std::to_string(i), axes[i]));
    }
    result.mesh = sdy::MeshAttr::get(ctx, meshAxes);
  }
  for (int64_t device : singleDevices) {
    result.singleDevice.emplace_back(device, "single_device_" + std::to_string(device));
  }
  return result;
}

Result<GroupedMeshes> inferModuleMeshes(sdy::Context& ctx,
                                        std::span<const hlo::HloSharding> shardings,
                                        const AnyOrderOptions& anyOrder) {
  struct Group {
    std::vector<HloSharding> leaves;  // distinct, in order of arrival
    std::unordered_set<std::string> keys;
    sdy::MeshAttr mesh;
  };
  std::vector<Group> groups;
  GroupedMeshes result;
  std::set<int64_t> singleDevices;
  for (size_t i = 0; i < shardings.size(); ++i) {
    std::vector<std::string> keys;
    std::vector<HloSharding> leaves;
    for (const HloSharding* leaf : hlo::leavesOf(shardings[i])) {
      if (leaf->isSingleDevice()) {
        if (auto device = leaf->uniqueDevice()) singleDevices.insert(*device);
      }
      std::string key = leaf->toString();
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      keys.push_back(std::move(key));
      leaves.push_back(*leaf);
    }
    bool placed = false;
    for (size_t g = 0; g < groups.size() && !placed; ++g) {
      Group& group = groups[g];
      std::vector<HloSharding> joined = group.leaves;
      std::vector<size_t> fresh;
      for (size_t k = 0; k < keys.size(); ++k) {
        if (group.keys.count(keys[k]) == 0) {
          fresh.push_back(k);
          joined.push_back(leaves[k]);
        }
      }
      if (!fresh.empty()) {
        auto mesh = meshServingAll(ctx, joined, anyOrder);
        if (!mesh.has_value()) continue;
        group.mesh = *mesh;
        group.leaves = std::move(joined);
        for (size_t k : fresh) group.keys.insert(keys[k]);
      }
      result.meshOf.push_back(g);
      placed = true;
    }
    if (placed) continue;
    auto mesh = meshServingAll(ctx, leaves, anyOrder);
    if (!mesh.has_value()) {
      Error error = std::move(mesh).error();
      error.message = "sharding " + std::to_string(i + 1) + " (" + shardings[i].toString() +
                      "): " + error.message;
      return error;
    }
    Group group{std::move(leaves), {}, *mesh};
    for (std::string& key : keys) group.keys.insert(std::move(key));
    result.meshOf.push_back(groups.size());
    groups.push_back(std::move(group));
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    result.meshes.emplace_back(g == 0 ? std::string("mesh") : "mesh_" + std::to_string(g),
                               groups[g].mesh);
  }
  for (int64_t device : singleDevices) {
    result.singleDevice.emplace_back(device, "single_device_" + std::to_string(device));
  }
  return result;
}

}  // namespace shardbridge::convert
