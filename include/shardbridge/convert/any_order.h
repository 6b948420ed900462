// Beyond upstream — any device order (issue 4 item 4): what the import does
// where OpenXLA's importer aborts, namely on tile assignments whose device
// order is not an iota it can factor, and on modules whose shardings have no
// common factorisation.
//
// The idea: a mesh with `device_ids=P` numbers its devices by "mesh-linear
// index" (device P[i] has index i). A tile assignment D can be written with
// axis refs on that mesh exactly when D read through P's inverse is an iota
// the upstream analysis can factor (factorization.h).
//
//   findIotaForm([2,2], {0,2,1,3})                 -> [2,2]<=[2,2]T(1,0)
//   meshLinearTileAssignment(devices=[4,2]0,1,2,3,6,7,4,5,
//       <["a"=4, "b"=2], device_ids=[0,1,2,3,6,7,4,5]>)  -> devices=[4,2]<=[8]
//   inferAnyOrderMesh({devices=[2,3]<=[2,3]T(1,0)})
//       -> <["_axis_0"=2, "_axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/tile_assignment.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::convert {

// Whether the import and the module mesh inference use the fallbacks of
// this file. Off (the default), they behave as upstream does, with an error
// where upstream aborts.
struct AnyOrderOptions {
  bool enabled = false;
};

// Returns the canonical iota `[dims]<=[reshape]T(perm)` whose row-major
// device list is `devices`, or nullopt when no iota lists them in that order
// (including lists that are not a permutation of [0, n)). `dims` must
// multiply to devices.size() (else nullopt). Linear in the device count.
//   findIotaForm({2, 2}, {0, 2, 1, 3})          -> [2,2]<=[2,2]T(1,0)
//   findIotaForm({2, 3}, {0, 3, 1, 4, 2, 5})    -> [2,3]<=[2,3]T(1,0)
//   findIotaForm({4, 2}, {0,1,2,3,6,7,4,5})     -> nullopt (a ring order)
std::optional<hlo::IotaTileAssignment> findIotaForm(std::span<const int64_t> dims,
                                                    std::span<const int64_t> devices);

// Returns the tile assignment `tiles` as an array of mesh-linear indices of
// `mesh` (device P[i] -> i for `device_ids=P`; the identity without
// device_ids), as an iota. On a mesh without device_ids an iota `tiles` is
// returned as it is (never materialised); an explicit list is turned into
// its iota form (findIotaForm).
//   devices=[2,2]0,2,1,3 on <["x"=2, "y"=2]>      -> devices=[2,2]<=[2,2]T(1,0)
//   devices=[2,2]<=[4] on <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>
//                                                 -> devices=[2,2]<=[2,2]T(1,0)
// Errors (kUnsupported), as the reason after "cannot be expressed on mesh":
//   `the mesh has 8 devices but the sharding uses 4`;
//   `mesh device_ids are not a permutation of [0, 4)`;
//   `its devices in mesh order, devices=[2,2]0,1,3,2, are not an iota`;
// and the tile-assignment layer's error when a list is too large to build.
// With `replicationDim` >= 0 (the sharding's subgroupReplicationDim()),
// each replication group (the entries along that dim) is sorted by
// mesh-linear index first: XLA keeps each group sorted by device id, which
// in another device order is not an iota's order although the sharding is
// expressible — e.g. `[{"y"}, {}]` on a mesh with device_ids exports to
// such a list.
// Cost: linear, reading the list in place; with device_ids one scratch
// inverse of 4 bytes a device, allocated per call and freed on return
// (about 1.2 ns a device at 2^20 devices); the mesh-linear list is only
// built to sort replication groups or to show it in an error.
Result<hlo::TileAssignment> meshLinearTileAssignment(const hlo::TileAssignment& tiles,
                                                     sdy::MeshAttr mesh,
                                                     int64_t replicationDim = -1);

// Returns one mesh on which every one of `tiledLeaves` (tiled HloShardings
// over more than one device, in module order) can be imported, for the
// modules upstream aborts on. A deterministic search over candidate device
// orders in three tiers (docs/import.md): the iota order; each distinct
// leaf's own device list; each distinct leaf's list re-read along its non-1
// tile dims in another order (at most 24 per leaf). An order serves when
// every leaf is a factorable iota in it; the axes `_axis_0, ...` are the
// coarsest common refinement of the local meshes, or one axis over all
// devices when there is none. The first tier with a serving order wins;
// within it fewest axes, then largest (sorted descending), then earliest.
// Guarantee: a mesh is found whenever some order serves all leaves and
// shows at least one of them as the iota of its tile dims in some order.
// Cost: at most 1 + 24 D candidates for D distinct leaves, each charged
// against a budget of 2^30 device reads (error when exhausted); O(n) memory.
//   {devices=[2,3]<=[6]}, {devices=[3,2]<=[6]}  -> <["_axis_0"=6]>
//   {devices=[4,2]0,1,2,3,6,7,4,5}
//       -> <["_axis_0"=4, "_axis_1"=2], device_ids=[0, 1, 2, 3, 6, 7, 4, 5]>
// Errors (kUnsupported): leaves over different device counts; a leaf whose
// devices are not [0, n) once each; more than kMaxMaterializedDevices
// devices; the budget; no order serving all: `no single mesh for shardings
// {devices=[2,2]0,1,2,3} and {devices=[2,2]0,1,3,2}: no device order tried
// (the iota order or the order of either sharding) lists both as factorable
// iotas, nor does either one's device list read along its tile dims in
// another order` (the first leaf no factorable iota in the iota order, and
// the first other leaf the pair search fails with), or, when every such
// pair has a mesh, `no single mesh for the tiled shardings: ...`.
Result<sdy::MeshAttr> inferAnyOrderMesh(sdy::Context& ctx,
                                        std::span<const hlo::HloSharding* const> tiledLeaves);

}  // namespace shardbridge::convert
