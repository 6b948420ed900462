// Axis algebra (docs/upstream.md § Axis refs: order and merging): ordering, merging, containment and overlap of axis
// refs, and the ordering of a sharding's axes against its mesh.
//
// Every function mirrors the AxisRefAttr method of upstream Shardy with the
// same name, as a free function. Upstream asserts or dies where an axis name
// is missing from the mesh or a merge is not allowed; these functions never
// do: each says what it returns for such input (false, nullopt, or "no
// change"). A sub-axis is "malformed" when its pre-size or size is below 1 or
// pre*size overflows int64; functions that would divide by or build from such
// a value return false/nullopt instead (the verifier rejects those refs
// anyway).
//
// Notation in the examples: "a" is the full axis a, "a":(2)4 the sub-axis of a
// with pre-size 2 and size 4; `a=8` gives the size of a in the mesh.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "shardbridge/sdy/attrs.h"

namespace shardbridge::sdy {

// ---------------------------------------------------------------------------
// Ordering

// Upstream AxisRefAttr::operator<: a strict total order on axis refs.
// Different names compare lexicographically; for one name, a sub-axis with
// pre-size 1 sorts before the full axis, one with pre-size > 1 after it, and
// two sub-axes compare by (pre-size, size). Null handles sort first.
//   "a":(1)4 < "a":(1)8 < "a" < "a":(2)2 < "b":(1)2
bool axisRefLess(AxisRefAttr a, AxisRefAttr b);

// Same as axisRefLess, so std::sort and std::set work on AxisRefAttr.
//   AxisRefAttr::get(ctx, "x", 1, 4) < AxisRefAttr::get(ctx, "x") == true
bool operator<(AxisRefAttr a, AxisRefAttr b);

// Upstream getMeshComparator: orders axis names by their position in `mesh`
// (not alphabetically); refs with the same name by axisRefLess. Names absent
// from the mesh sort after all mesh axes, lexicographically among themselves
// (upstream dies on them). A strict weak order for any input.
//   mesh <["y"=4, "x"=2]>: "y" < "x" < "z" (unknown)
struct MeshAxisRefComparator {
  MeshAttr mesh;
  bool operator()(AxisRefAttr a, AxisRefAttr b) const;
};

// Returns MeshAxisRefComparator{mesh}.
//   std::sort(axes.begin(), axes.end(), getMeshComparator(mesh));
MeshAxisRefComparator getMeshComparator(MeshAttr mesh);

// ---------------------------------------------------------------------------
// Merging

// True when `a` and `b` are sub-axes of the same axis and `a` ends exactly
// where `b` starts (a.pre*a.size == b.pre), i.e. a is immediately major to b.
// Full axes never merge.
//   canMerge("a":(2)4, "a":(8)2) == true; canMerge("c":(1)2, "c":(4)2) == false
bool canMerge(AxisRefAttr a, AxisRefAttr b);

// Merges two refs for which canMerge holds into "name":(a.pre)(a.size*b.size),
// or the full axis when a.pre == 1 and the product equals the size of the axis
// in `mesh`. Returns nullopt when canMerge(a, b) is false or the product
// overflows; with the axis missing from `mesh`, never collapses to the full
// axis.
//   mesh a=16: merge("a":(1)8, "a":(8)2) == "a"; merge("a":(2)2, "a":(4)4) == "a":(2)8
std::optional<AxisRefAttr> merge(Context& ctx, AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

// ---------------------------------------------------------------------------
// Containment and overlap (tables in upstream attrs.td)

// True when `a` equals `b` or can be split so that one piece is `b`.
//   contains("a", "a":(2)2) == true; contains("a":(1)4, "a":(2)4) == false
bool contains(AxisRefAttr a, AxisRefAttr b);

// contains(a, b) && a != b.
//   strictlyContains("a":(1)8, "a":(1)4) == true; strictlyContains("a", "a") == false
bool strictlyContains(AxisRefAttr a, AxisRefAttr b);

// True when `b` equals `a` or splits into two pieces whose major one is `a`.
//   prefixOf("a":(1)2, "a") == true; prefixOf("a":(1)4, "a":(2)8) == false
bool prefixOf(AxisRefAttr a, AxisRefAttr b);

// prefixOf(a, b) && a != b.
//   strictPrefixOf("a":(2)2, "a":(2)4) == true; strictPrefixOf("a", "a") == false
bool strictPrefixOf(AxisRefAttr a, AxisRefAttr b);

// True when `b` equals `a` or splits into two pieces whose minor one is `a`.
// `mesh` gives full-axis sizes; false when a needed axis is not in it.
//   mesh a=8: suffixOf("a":(2)4, "a") == true; suffixOf("a":(1)4, "a") == false
bool suffixOf(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

// suffixOf(a, b, mesh) && a != b.
//   mesh a=8: strictSuffixOf("a":(2)4, "a":(1)8) == true
bool strictSuffixOf(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

// True when `a` and `b` are equal or share a sub-axis.
//   overlaps("a":(1)4, "a":(2)4) == true; overlaps("a":(1)4, "a":(4)2) == false
bool overlaps(AxisRefAttr a, AxisRefAttr b);

// True when `a` and `b` can be used in one mesh: different names or a full
// axis always can; two overlapping sub-axes need the shared and the leftover
// pieces to be whole sub-axes; two disjoint ones need the gap to be one.
// False for malformed sub-axes.
//   canCoexist("a":(1)4, "a":(2)4) == true; canCoexist("a":(1)2, "a":(3)2) == false
bool canCoexist(AxisRefAttr a, AxisRefAttr b);

// The sub-axis shared by `a` and `b`; nullopt when they do not overlap, have
// different names, or cannot coexist. With a full axis, returns the other ref.
//   getOverlap("a":(1)4, "a":(2)4) == "a":(2)2; getOverlap("a":(1)4, "a":(4)2) == nullopt
std::optional<AxisRefAttr> getOverlap(Context& ctx, AxisRefAttr a, AxisRefAttr b);

// `a` itself when it does not overlap `b`; otherwise the largest prefix of `a`
// left after removing what overlaps `b` (never collapsed to a full axis).
// nullopt when no such prefix exists or `a` and `b` cannot coexist.
//   getPrefixWithoutOverlap("a", "a":(2)2) == "a":(1)2
//   getPrefixWithoutOverlap("a":(2)4, "a":(1)4) == nullopt
std::optional<AxisRefAttr> getPrefixWithoutOverlap(Context& ctx, AxisRefAttr a, AxisRefAttr b);

// `a` itself when it does not overlap `b`; otherwise the largest suffix of `a`
// left after removing what overlaps `b`. nullopt when no such suffix exists,
// they cannot coexist, or a full axis involved is not in `mesh`.
//   mesh a=8: getSuffixWithoutOverlap("a", "a":(2)2) == "a":(4)2
std::optional<AxisRefAttr> getSuffixWithoutOverlap(Context& ctx, AxisRefAttr a, AxisRefAttr b,
                                                   MeshAttr mesh);

// Whichever of `a` and `b` is a prefix of the other (the shorter one);
// nullopt when neither is, or they cannot coexist.
//   getGreatestCommonPrefix("a":(1)2, "a":(1)4) == "a":(1)2
//   getGreatestCommonPrefix("a":(1)2, "a":(2)4) == nullopt
std::optional<AxisRefAttr> getGreatestCommonPrefix(AxisRefAttr a, AxisRefAttr b);

// ---------------------------------------------------------------------------
// Lists

// Product of the sizes of `axes` (1 for none). nullopt when a full axis is not
// in `mesh` or the product overflows.
//   mesh x=4, y=2: getShardedSize({"x", "y":(1)2}, mesh) == 8
std::optional<int64_t> getShardedSize(std::span<const AxisRefAttr> axes, MeshAttr mesh);

// Upstream sortAndMergeAxes: sorts `axes` with getMeshComparator(mesh), then
// merges each run of neighbours for which canMerge holds (see merge). Assumes
// the refs do not overlap; overlapping refs are sorted but left unmerged.
//   mesh b=8: {"b":(4)2, "b":(1)2, "b":(2)2} becomes {"b"}
void sortAndMergeAxes(Context& ctx, std::vector<AxisRefAttr>& axes, MeshAttr mesh);

// Upstream getOrderedAxisRefs: every mesh axis, in mesh order, cut at the
// boundaries of the sub-axes that appear in the dimension shardings and the
// unreduced axes of `sharding` (replicated axes are ignored). An axis without
// such sub-axes is emitted whole; otherwise as the sub-axes between its sorted,
// deduplicated cut points {1, size, pre, pre*size, ...}. As upstream, a
// sub-axis of an axis missing from the mesh adds that name after the mesh
// axes. Cut points below 1 (malformed refs) are dropped.
//   mesh x=2, y=16, z=4 and a "y":(2)2 -> x, "y":(1)2, "y":(2)2, "y":(4)4, z
std::vector<AxisRefAttr> getOrderedAxisRefs(Context& ctx, TensorShardingAttr sharding,
                                            MeshAttr mesh);

// The same for a plain axis list (upstream's AxisRefListAttr overload).
//   mesh x=8: {"x":(2)2} -> "x":(1)2, "x":(2)2, "x":(4)2
std::vector<AxisRefAttr> getOrderedAxisRefs(Context& ctx, std::span<const AxisRefAttr> axes,
                                            MeshAttr mesh);

}  // namespace shardbridge::sdy
