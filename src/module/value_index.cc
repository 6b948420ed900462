#include "module/value_index.h"

namespace shardbridge::module {

const FuncValueIndex::Func& FuncValueIndex::of(int func) {
  auto [it, fresh] = funcs_.try_emplace(func);
  if (!fresh) return it->second;
  Func& f = it->second;
  // The ops after `func` in the tree up to its end: those inside it, in
  // text order (opsInside).
  const uint32_t end = tree_.ops[func].whole.end;
  for (int i = func + 1; i < static_cast<int>(tree_.ops.size()) && tree_.ops[i].whole.begin < end; ++i) {
    const OpNode& op = tree_.ops[i];
    int base = 0;
    for (const ResultDef& d : op.resultDefs) {
      f.defs[d.name.in(tree_.text)].push_back({i, base, d.count});
      base += d.count;
    }
    for (const ValueUse& u : op.uses) f.uses[u.name].push_back({u.index, i});
  }
  return f;
}

int FuncValueIndex::definingOp(int func, std::string_view name, int index, int* resultIndex) {
  if (func < 0) return -1;
  const Func& f = of(func);
  auto it = f.defs.find(name);
  if (it == f.defs.end()) return -1;
  for (const Def& d : it->second) {
    if (index < d.count) {
      if (resultIndex) *resultIndex = d.base + index;
      return d.op;
    }
  }
  return -1;
}

std::vector<int> FuncValueIndex::users(int func, std::string_view name, int index) {
  std::vector<int> out;
  if (func < 0) return out;
  const Func& f = of(func);
  auto it = f.uses.find(name);
  if (it == f.uses.end()) return out;
  for (const Use& u : it->second)
    if (index < 0 || u.index == index) out.push_back(u.op);
  return out;
}

}  // namespace shardbridge::module
