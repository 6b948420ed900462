// The JAX `PartitionSpec` of an sdy sharding, or why it has none.
//
//   mesh <["x"=2, "y"=2, "z"=2]>, <@mesh, [{"x"}, {}, {"y", "z"}]>
//     -> P('x', None, ('y', 'z'))
//   mesh <["x"=8, "y"=4]>, <@mesh, [{"y"}, {"x":(2)2}]>
//     -> none: dimension 1 is sharded over the sub-axis "x":(2)2, which a
//        PartitionSpec cannot name (JAX mesh axes are whole axes)
//
// A PartitionSpec names whole mesh axes only (jax/_src/partition_spec.py: JAX mesh
// axes are whole axes, a spec cannot express sub-axes); the device order lives in the jax Mesh's device
// array, so a mesh with device_ids still has a spec, with a note saying the
// Mesh must list its devices in that order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "shardbridge/sdy/attrs.h"

namespace shardbridge::view {

struct PartitionSpec {
  // Set when a PartitionSpec exists.
  bool exists = false;
  // One entry per tensor dim: the axis names (empty = None); `unconstrained`
  // marks an open dim without axes (P.UNCONSTRAINED).
  std::vector<std::vector<std::string>> dims;
  std::vector<bool> unconstrained;
  std::vector<std::string> unreduced;  // P(..., unreduced={...})
  // The Python text, e.g. "P('x', None, ('y', 'z'))"; empty when none.
  std::string text;
  // Why there is none (when !exists).
  std::string reason;
  // Caveats that do not prevent a spec: device order, replicated axes that
  // JAX leaves implicit, the reduction op.
  std::vector<std::string> notes;
};

// Returns the PartitionSpec of `sharding` on `mesh` (the sharding's mesh,
// resolved by the caller). Never fails; the reasons for "none" are, first
// found wins: a maximal mesh (single device), a dim sharded over a sub-axis,
// an open dim with axes (no spec form), a dimension priority, an unreduced
// sub-axis.
PartitionSpec toPartitionSpec(sdy::TensorShardingAttr sharding, sdy::MeshAttr mesh);

// A Python string literal of `s` in single quotes ('x', 'it\'s').
std::string pythonString(const std::string& s);

}  // namespace shardbridge::view
