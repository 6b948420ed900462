#include "shardbridge/convert/mesh_inference.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/convert/factorization.h"
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

}  // namespace shardbridge::convert
