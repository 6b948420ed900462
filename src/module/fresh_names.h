// Fresh SSA value names for the ops a pass writes.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

// Value names not yet used where a new op goes: `%<stem>`, `%<stem>_0`,
// `%<stem>_1`... Names are unique per function (the outermost `func.func`
// around the op the new one is written beside; ops outside every function
// share one scope), which is what MLIR needs: a func.func is isolated from
// above, so its value names are its own. Because no choice depends on
// another function's names, a module cut between its functions gets the same
// names part by part as whole (docs/module.md "Large modules in parts").
// The tree (its text) must outlive this object: the names it holds are
// views of it.
class FreshNames {
 public:
  explicit FreshNames(const OpTree& tree) : tree_(&tree) {}
  // Not copyable: a copy's views would point into the original's strings.
  FreshNames(const FreshNames&) = delete;
  FreshNames& operator=(const FreshNames&) = delete;
  FreshNames(FreshNames&&) = default;
  FreshNames& operator=(FreshNames&&) = default;

  // A name unused in the scope of op `nearOp` (an op of the tree, or -1 for
  // the scope outside functions), which it then holds.
  std::string next(std::string_view stem, int nearOp);
  // Marks `name` (`%x`) used in the scope of `nearOp`: a value a pass moves
  // there from another function under its own name.
  void reserve(std::string_view name, int nearOp);

 private:
  int scopeOf(int op) const;
  void collect(int scope);
  bool claim(int scope, const std::string& name);  // false if taken
  bool insert(int scope, std::string_view name);   // into slots_; false if there already

  const OpTree* tree_;
  // The scopes whose names are in `slots_` (read when first asked about:
  // most passes that hold a FreshNames find nothing to rewrite).
  std::vector<bool> collected_;
  bool collectedOutside_ = false;
  // The names of the collected scopes as views of the tree's text, and the
  // names handed out (kept in `given_`, whose strings do not move), in one
  // open-addressing table keyed by (scope, name): a power of two of slots,
  // at most half full; an empty view is a free slot (no value name is
  // empty). A module has tens of thousands of names: std::unordered_set
  // spent a node allocation on each.
  struct Slot {
    std::string_view name;
    int scope = 0;
  };
  std::vector<Slot> slots_;
  size_t used_ = 0;
  std::deque<std::string> given_;
  // The next suffix to try per (scope, stem), so that the k-th `%3_in0` of
  // a function costs one probe, not k.
  std::unordered_map<std::string, int> nextSuffix_;
};

}  // namespace shardbridge::module
