// UseIndex (module/pass.h): the value uses of a tree by function, so that
// redirecting the uses of one value costs those uses, not a walk over every
// op of its function (which made passes that forward many values quadratic
// in the function's length).
#include <algorithm>
#include <tuple>

#include "module/pass.h"

namespace shardbridge::module {

UseIndex::UseIndex(const OpTree& tree) : tree_(tree) {}

void UseIndex::build() const {
  built_ = true;
  // The op tree is in text order with every op before the ops of its
  // regions, so one forward walk knows each op's function.
  std::vector<int> funcOf(tree_.ops.size(), -1);
  size_t count = 0;
  for (size_t i = 0; i < tree_.ops.size(); ++i) {
    int p = tree_.ops[i].parent;
    if (p >= 0) funcOf[i] = tree_.ops[p].name == "func.func" ? p : funcOf[p];
    if (funcOf[i] >= 0) count += tree_.ops[i].uses.size();
  }
  entries_.reserve(count);
  for (size_t i = 0; i < tree_.ops.size(); ++i) {
    if (funcOf[i] < 0) continue;
    for (const ValueUse& u : tree_.ops[i].uses) entries_.push_back({funcOf[i], u.name, u.index, &u});
  }
  // Stable: the uses of one value stay in text order.
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.func, a.name, a.index) < std::tie(b.func, b.name, b.index);
  });
}

std::span<const UseIndex::Entry> UseIndex::uses(int func, std::string_view name, int index) const {
  if (!built_) build();
  auto key = [](const Entry& e) { return std::tie(e.func, e.name, e.index); };
  auto lo = std::lower_bound(entries_.begin(), entries_.end(), std::tie(func, name, index),
                             [&](const Entry& e, const auto& k) { return key(e) < k; });
  auto hi = std::upper_bound(lo, entries_.end(), std::tie(func, name, index),
                             [&](const auto& k, const Entry& e) { return k < key(e); });
  return {lo, hi};
}

void UseIndex::replace(Rewriter& rw, int func, std::string_view name, int index, std::string_view to) const {
  if (func < 0) return;
  for (const Entry& e : uses(func, name, index)) rw.replace(e.use->span, std::string(to));
}

}  // namespace shardbridge::module
