#include "module/value_index.h"

#include <algorithm>

namespace shardbridge::module {
namespace {

// The order of the per-function lists: by length, then bytes, a total order
// of names that lookups ask with the same comparison. Value names are short
// (`%12`, `%arg0`), and this is a third of std::string_view's compare with
// its memcmp call; the sorts were a twentieth of an import.
bool nameBefore(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size();
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  return false;
}

// Calls `visit(i)` for each op inside `func`: the ops after it in the tree
// up to its end, in text order (opsInside).
template <typename Visit>
void eachOpInside(const OpTree& tree, int func, Visit&& visit) {
  const uint32_t end = tree.ops[func].whole.end;
  for (int i = func + 1; i < static_cast<int>(tree.ops.size()) && tree.ops[i].whole.begin < end; ++i) visit(i);
}

}  // namespace

int FuncValueIndex::definingOp(int func, std::string_view name, int index, int* resultIndex) {
  if (func < 0) return -1;
  Func& f = this->func(func);
  if (!f.defsBuilt) {
    f.defsBuilt = true;
    eachOpInside(tree_, func, [&](int i) {
      int base = 0;
      for (const ResultDef& d : tree_.ops[i].resultDefs) {
        f.defs.push_back({d.name.in(tree_.text), i, base, d.count});
        base += d.count;
      }
    });
    std::stable_sort(f.defs.begin(), f.defs.end(), [](const Def& a, const Def& b) { return nameBefore(a.name, b.name); });
  }
  auto lo = std::lower_bound(f.defs.begin(), f.defs.end(), name,
                             [](const Def& d, std::string_view n) { return nameBefore(d.name, n); });
  for (auto it = lo; it != f.defs.end() && it->name == name; ++it) {
    if (index < it->count) {
      if (resultIndex) *resultIndex = it->base + index;
      return it->op;
    }
  }
  return -1;
}

std::pair<const FuncValueIndex::Use*, const FuncValueIndex::Use*> FuncValueIndex::usesNamed(int func,
                                                                                            std::string_view name) {
  Func& f = this->func(func);
  if (!f.usesBuilt) {
    f.usesBuilt = true;
    eachOpInside(tree_, func, [&](int i) {
      for (const ValueUse& u : tree_.ops[i].uses) f.uses.push_back({u.name, u.index, i});
    });
    std::stable_sort(f.uses.begin(), f.uses.end(), [](const Use& a, const Use& b) { return nameBefore(a.name, b.name); });
  }
  auto byName = [](const Use& u, std::string_view n) { return nameBefore(u.name, n); };
  const Use* begin = f.uses.data();
  const Use* end = begin + f.uses.size();
  const Use* lo = std::lower_bound(begin, end, name, byName);
  const Use* hi = lo;
  while (hi != end && hi->name == name) ++hi;
  return {lo, hi};
}

std::vector<int> FuncValueIndex::users(int func, std::string_view name, int index) {
  std::vector<int> out;
  if (func < 0) return out;
  auto [lo, hi] = usesNamed(func, name);
  for (const Use* it = lo; it != hi; ++it)
    if (index < 0 || it->index == index) out.push_back(it->op);
  return out;
}

bool FuncValueIndex::used(int func, std::string_view name, int index) {
  if (func < 0) return false;
  auto [lo, hi] = usesNamed(func, name);
  for (const Use* it = lo; it != hi; ++it)
    if (index < 0 || it->index == index) return true;
  return false;
}

}  // namespace shardbridge::module
