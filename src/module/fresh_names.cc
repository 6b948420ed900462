#include "module/fresh_names.h"

#include <algorithm>

namespace shardbridge::module {
namespace {

size_t freshNameHash(std::string_view s, int scope) {
  uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(static_cast<uint32_t>(scope));  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return static_cast<size_t>(h ^ (h >> 29));
}

}  // namespace

int FreshNames::scopeOf(int op) const {
  int scope = -1;
  for (int o = op; o >= 0; o = tree_->ops[static_cast<size_t>(o)].parent)
    if (tree_->ops[static_cast<size_t>(o)].name == "func.func") scope = o;
  return scope;
}

bool FreshNames::insert(int scope, std::string_view name) {
  if (2 * (used_ + 1) > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{});
    used_ = 0;
    for (const Slot& s : old)
      if (!s.name.empty()) insert(s.scope, s.name);
  }
  size_t mask = slots_.size() - 1;
  for (size_t i = freshNameHash(name, scope) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.name.empty()) {
      s = {name, scope};
      ++used_;
      return true;
    }
    if (s.scope == scope && s.name == name) return false;
  }
}

void FreshNames::collect(int scope) {
  const OpTree& tree = *tree_;
  std::string_view t = tree.text;
  auto add = [&](const OpNode& op) {
    for (const ResultDef& r : op.resultDefs)
      if (!r.name.empty()) insert(scope, r.name.in(t));
    for (const ValueDef& a : op.funcArgs())
      if (!a.name.empty()) insert(scope, a.name.in(t));
    for (const Region& r : op.regions)
      for (const Block& b : r.blocks)
        for (const ValueDef& a : b.arguments)
          if (!a.name.empty()) insert(scope, a.name.in(t));
  };
  size_t n = tree.ops.size();
  if (scope >= 0) {
    if (collected_.empty()) collected_.assign(n, false);
    collected_[static_cast<size_t>(scope)] = true;
    // A function's ops follow it in the tree, up to the end of its text.
    uint32_t end = tree.ops[static_cast<size_t>(scope)].whole.end;
    for (size_t i = static_cast<size_t>(scope); i < n && (i == static_cast<size_t>(scope) || tree.ops[i].whole.begin < end); ++i)
      add(tree.ops[i]);
    return;
  }
  collectedOutside_ = true;
  for (size_t i = 0; i < n; ++i) {
    const OpNode& op = tree.ops[i];
    if (op.name == "func.func") {
      // Skip the function and its ops.
      uint32_t end = op.whole.end;
      while (i + 1 < n && tree.ops[i + 1].whole.begin < end) ++i;
      continue;
    }
    add(op);
  }
}

bool FreshNames::claim(int scope, const std::string& name) {
  // The table holds views: of the tree's text, or of the kept copy.
  if (insert(scope, given_.emplace_back(name))) return true;
  given_.pop_back();
  return false;
}

std::string FreshNames::next(std::string_view stem, int nearOp) {
  int scope = nearOp < 0 ? -1 : scopeOf(nearOp);
  if (scope >= 0 ? collected_.empty() || !collected_[static_cast<size_t>(scope)] : !collectedOutside_) collect(scope);
  std::string base = "%" + std::string(stem);
  if (claim(scope, base)) return base;
  int& i = nextSuffix_[std::to_string(scope) + ":" + base];
  while (true) {
    std::string n = base + "_" + std::to_string(i++);
    if (claim(scope, n)) return n;
  }
}

void FreshNames::reserve(std::string_view name, int nearOp) {
  int scope = nearOp < 0 ? -1 : scopeOf(nearOp);
  if (scope >= 0 ? collected_.empty() || !collected_[static_cast<size_t>(scope)] : !collectedOutside_) collect(scope);
  claim(scope, std::string(name));
}

}  // namespace shardbridge::module
