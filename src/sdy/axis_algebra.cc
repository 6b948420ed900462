#include "shardbridge/sdy/axis_algebra.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <tuple>

#include "shardbridge/base/checked_math.h"

namespace shardbridge::sdy {
namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// A ref seen as the half-open range [pre, next) of its axis's reshaped
// positions. A full axis has no sub-axis info; `full` records that so callers
// can substitute the mesh size when they need the end.
struct Span {
  int64_t pre;
  int64_t next;  // saturated at INT64_MAX on overflow
  bool full;
};

Span spanOf(AxisRefAttr a) {
  if (!a.isSubAxis()) return Span{1, kMaxInt64, true};
  SubAxisInfoAttr info = a.subAxisInfo();
  return Span{info.preSize(), info.nextPreSize(), false};
}

// Well-formed enough to divide by: pre >= 1, size >= 1, pre*size fits.
bool wellFormed(AxisRefAttr a) {
  if (!a.isSubAxis()) return true;
  SubAxisInfoAttr info = a.subAxisInfo();
  return info.preSize() >= 1 && info.size() >= 1 &&
         checkedMul(info.preSize(), info.size()).has_value();
}

bool sameName(AxisRefAttr a, AxisRefAttr b) {
  return a && b && a.name() == b.name();
}

// The ordering key of a ref inside one axis name. A full axis behaves like a
// sub-axis (1, +inf) that sorts after every real (1, k); that reproduces
// upstream's "(1)k < full < (p>1)k" for valid refs and stays a total order
// when pre-sizes are malformed (< 1).
std::tuple<int64_t, int64_t, int> keyWithinName(AxisRefAttr a) {
  if (!a.isSubAxis()) return {1, kMaxInt64, 1};
  return {a.subAxisInfo().preSize(), a.subAxisInfo().size(), 0};
}

bool lessWithinName(AxisRefAttr a, AxisRefAttr b) { return keyWithinName(a) < keyWithinName(b); }

// Upstream's canSubAxesCoexist, over the min/max of the two ranges' ends.
// All inputs are >= 1 (callers check wellFormed), so the modulos are defined.
bool subAxesCoexist(int64_t minPre, int64_t maxPre, int64_t minNext, int64_t maxNext) {
  if (minNext > maxPre) {
    // Overlapping: the shared piece and both leftovers must be whole sub-axes.
    return minNext % maxPre == 0 && maxPre % minPre == 0 && maxNext % minNext == 0;
  }
  // Disjoint: the gap between them must be a whole sub-axis.
  return maxPre % minNext == 0;
}

// Full-axis size from the mesh, or the sub-axis end; nullopt when unknown.
std::optional<int64_t> nextPreSizeOrFullSize(AxisRefAttr a, MeshAttr mesh) {
  if (a.isSubAxis()) return a.subAxisInfo().nextPreSize();
  if (mesh.isNull()) return std::nullopt;
  return mesh.getAxisSize(a.name());
}

}  // namespace

// ---------------------------------------------------------------------------
// Ordering

bool axisRefLess(AxisRefAttr a, AxisRefAttr b) {
  if (!a || !b) return !a && b;
  std::string_view an = a.name(), bn = b.name();
  if (an != bn) return an < bn;
  return lessWithinName(a, b);
}

bool operator<(AxisRefAttr a, AxisRefAttr b) { return axisRefLess(a, b); }

bool MeshAxisRefComparator::operator()(AxisRefAttr a, AxisRefAttr b) const {
  if (!a || !b) return !a && b;
  std::string_view an = a.name(), bn = b.name();
  if (an == bn) return lessWithinName(a, b);
  // Unknown names rank after every mesh axis; among themselves, by name.
  constexpr size_t kUnknown = std::numeric_limits<size_t>::max();
  size_t ai = kUnknown, bi = kUnknown;
  if (!mesh.isNull()) {
    ai = mesh.getAxisIndex(an).value_or(kUnknown);
    bi = mesh.getAxisIndex(bn).value_or(kUnknown);
  }
  if (ai != bi) return ai < bi;
  return an < bn;
}

MeshAxisRefComparator getMeshComparator(MeshAttr mesh) { return MeshAxisRefComparator{mesh}; }

// ---------------------------------------------------------------------------
// Merging

bool canMerge(AxisRefAttr a, AxisRefAttr b) {
  if (!sameName(a, b) || !a.isSubAxis() || !b.isSubAxis()) return false;
  auto next = checkedMul(a.subAxisInfo().preSize(), a.subAxisInfo().size());
  return next && *next == b.subAxisInfo().preSize();
}

std::optional<AxisRefAttr> merge(Context& ctx, AxisRefAttr a, AxisRefAttr b, MeshAttr mesh) {
  if (!canMerge(a, b)) return std::nullopt;
  int64_t pre = a.subAxisInfo().preSize();
  auto size = checkedMul(a.subAxisInfo().size(), b.subAxisInfo().size());
  if (!size) return std::nullopt;
  if (pre == 1 && !mesh.isNull() && mesh.getAxisSize(a.name()) == *size)
    return AxisRefAttr::get(ctx, a.name());
  return AxisRefAttr::get(ctx, a.name(), pre, *size);
}

// ---------------------------------------------------------------------------
// Containment and overlap

bool contains(AxisRefAttr a, AxisRefAttr b) {
  if (!sameName(a, b)) return false;
  if (!a.isSubAxis()) return true;
  if (!b.isSubAxis()) return false;
  Span x = spanOf(a), y = spanOf(b);
  return x.pre <= y.pre && x.next >= y.next;
}

bool strictlyContains(AxisRefAttr a, AxisRefAttr b) { return a != b && contains(a, b); }

bool prefixOf(AxisRefAttr a, AxisRefAttr b) {
  return contains(b, a) && a.getSubAxisPreSize() == b.getSubAxisPreSize();
}

bool strictPrefixOf(AxisRefAttr a, AxisRefAttr b) { return a != b && prefixOf(a, b); }

bool suffixOf(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh) {
  if (!contains(b, a)) return false;
  auto aNext = nextPreSizeOrFullSize(a, mesh);
  auto bNext = nextPreSizeOrFullSize(b, mesh);
  return aNext && bNext && *aNext == *bNext;
}

bool strictSuffixOf(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh) {
  return a != b && suffixOf(a, b, mesh);
}

bool overlaps(AxisRefAttr a, AxisRefAttr b) {
  if (!sameName(a, b)) return false;
  if (!a.isSubAxis() || !b.isSubAxis()) return true;
  Span x = spanOf(a), y = spanOf(b);
  return x.pre < y.next && y.pre < x.next;
}

bool canCoexist(AxisRefAttr a, AxisRefAttr b) {
  if (!a || !b) return false;
  if (a.name() != b.name()) return true;
  if (!a.isSubAxis() || !b.isSubAxis()) return true;
  if (!wellFormed(a) || !wellFormed(b)) return false;
  Span x = spanOf(a), y = spanOf(b);
  return subAxesCoexist(std::min(x.pre, y.pre), std::max(x.pre, y.pre),
                        std::min(x.next, y.next), std::max(x.next, y.next));
}

std::optional<AxisRefAttr> getOverlap(Context& ctx, AxisRefAttr a, AxisRefAttr b) {
  if (!sameName(a, b)) return std::nullopt;
  if (!a.isSubAxis()) return b;
  if (!b.isSubAxis()) return a;
  if (!wellFormed(a) || !wellFormed(b)) return std::nullopt;
  Span x = spanOf(a), y = spanOf(b);
  int64_t minPre = std::min(x.pre, y.pre), maxPre = std::max(x.pre, y.pre);
  int64_t minNext = std::min(x.next, y.next), maxNext = std::max(x.next, y.next);
  if (minNext <= maxPre || !subAxesCoexist(minPre, maxPre, minNext, maxNext))
    return std::nullopt;
  return AxisRefAttr::get(ctx, a.name(), maxPre, minNext / maxPre);
}

std::optional<AxisRefAttr> getPrefixWithoutOverlap(Context& ctx, AxisRefAttr a, AxisRefAttr b) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (!overlaps(a, b)) return a;
  // A full axis paired with a malformed sub-axis passes canCoexist; refuse it
  // here rather than divide by a pre-size below 1.
  if (!wellFormed(a) || !wellFormed(b)) return std::nullopt;
  int64_t aPre = a.getSubAxisPreSize(), bPre = b.getSubAxisPreSize();
  if (aPre >= bPre) return std::nullopt;
  return AxisRefAttr::get(ctx, a.name(), aPre, bPre / aPre);
}

std::optional<AxisRefAttr> getSuffixWithoutOverlap(Context& ctx, AxisRefAttr a, AxisRefAttr b,
                                                   MeshAttr mesh) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (!overlaps(a, b)) return a;
  if (!wellFormed(a) || !wellFormed(b)) return std::nullopt;
  auto aNext = nextPreSizeOrFullSize(a, mesh);
  auto bNext = nextPreSizeOrFullSize(b, mesh);
  if (!aNext || !bNext || *bNext < 1) return std::nullopt;
  if (*aNext <= *bNext) return std::nullopt;
  return AxisRefAttr::get(ctx, a.name(), *bNext, *aNext / *bNext);
}

std::optional<AxisRefAttr> getGreatestCommonPrefix(AxisRefAttr a, AxisRefAttr b) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (prefixOf(a, b)) return a;
  if (prefixOf(b, a)) return b;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Lists

std::optional<int64_t> getShardedSize(std::span<const AxisRefAttr> axes, MeshAttr mesh) {
  int64_t total = 1;
  for (AxisRefAttr a : axes) {
    if (!a) return std::nullopt;
    auto size = a.getSize(mesh);
    if (!size) return std::nullopt;
    auto product = checkedMul(total, *size);
    if (!product) return std::nullopt;
    total = *product;
  }
  return total;
}

void sortAndMergeAxes(Context& ctx, std::vector<AxisRefAttr>& axes, MeshAttr mesh) {
  if (axes.empty()) return;
  std::sort(axes.begin(), axes.end(), getMeshComparator(mesh));
  size_t out = 0;
  for (size_t next = 1; next < axes.size(); ++next) {
    if (auto merged = merge(ctx, axes[out], axes[next], mesh)) {
      axes[out] = *merged;
    } else {
      axes[++out] = axes[next];
    }
  }
  axes.resize(out + 1);
}

namespace {

// The cut points collected for one axis name, in first-seen order (mesh axes
// first), like upstream's MapVector keyed by name.
struct AxisCuts {
  std::string_view name;
  std::vector<int64_t> cuts;
};

AxisCuts& cutsFor(std::vector<AxisCuts>& all, std::string_view name) {
  for (AxisCuts& c : all)
    if (c.name == name) return c;
  all.push_back(AxisCuts{name, {}});
  return all.back();
}

void addSubAxisCuts(std::vector<AxisCuts>& all, std::span<const AxisRefAttr> axes) {
  for (AxisRefAttr a : axes) {
    if (!a || !a.isSubAxis()) continue;
    std::vector<int64_t>& cuts = cutsFor(all, a.name()).cuts;
    cuts.push_back(a.subAxisInfo().preSize());
    cuts.push_back(a.subAxisInfo().nextPreSize());
  }
}

std::vector<AxisCuts> meshCuts(MeshAttr mesh) {
  std::vector<AxisCuts> all;
  if (mesh.isNull()) return all;
  all.reserve(mesh.axes().size());
  for (MeshAxisAttr axis : mesh.axes()) {
    std::vector<int64_t>& cuts = cutsFor(all, axis.name()).cuts;
    cuts.push_back(1);
    cuts.push_back(axis.size());
  }
  return all;
}

std::vector<AxisRefAttr> emitOrdered(Context& ctx, std::vector<AxisCuts>& all) {
  std::vector<AxisRefAttr> out;
  for (AxisCuts& axis : all) {
    // Upstream decides "whole axis" on the raw count, before deduplication:
    // any sub-axis at all makes the axis come out as sub-axes.
    if (axis.cuts.size() == 2) {
      out.push_back(AxisRefAttr::get(ctx, axis.name));
      continue;
    }
    std::vector<int64_t>& cuts = axis.cuts;
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    // Malformed refs can contribute cut points below 1; they would divide by
    // zero or go negative, so they are dropped.
    cuts.erase(cuts.begin(),
               std::find_if(cuts.begin(), cuts.end(), [](int64_t c) { return c >= 1; }));
    for (size_t i = 0; i + 1 < cuts.size(); ++i)
      out.push_back(AxisRefAttr::get(ctx, axis.name, cuts[i], cuts[i + 1] / cuts[i]));
  }
  return out;
}

}  // namespace

std::vector<AxisRefAttr> getOrderedAxisRefs(Context& ctx, TensorShardingAttr sharding,
                                            MeshAttr mesh) {
  std::vector<AxisCuts> all = meshCuts(mesh);
  if (sharding) {
    for (DimensionShardingAttr dim : sharding.dimShardings())
      if (dim) addSubAxisCuts(all, dim.axes());
    addSubAxisCuts(all, sharding.unreducedAxes());
  }
  return emitOrdered(ctx, all);
}

std::vector<AxisRefAttr> getOrderedAxisRefs(Context& ctx, std::span<const AxisRefAttr> axes,
                                            MeshAttr mesh) {
  std::vector<AxisCuts> all = meshCuts(mesh);
  addSubAxisCuts(all, axes);
  return emitOrdered(ctx, all);
}

}  // namespace shardbridge::sdy
