// The definitions and uses of a function's values, indexed: for passes that
// ask many questions about the values of one function (the StableHLO
// shard_map import asks half a dozen per manual computation). A walk over
// opsInside per question costs the function's length, so a function of N
// manual computations cost N^2 (4,000 of them in one
// function took 12 s to import). Here each function is walked once, on its
// first question; the answers are exactly those of the walks (the
// first definition in text order; every use in text order).
// Internal to src/module/.
#pragma once

#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

class FuncValueIndex {
 public:
  explicit FuncValueIndex(const OpTree& tree) : tree_(tree) {}
  // The op defining value `name#index` (results only, nested block
  // arguments excluded): the first op inside `func` (any depth, text
  // order) with a result group `name` of more than `index` values, and in
  // `*resultIndex` the value's index among the op's results; -1 when none
  // (or func < 0).
  int definingOp(int func, std::string_view name, int index, int* resultIndex = nullptr);
  // The ops inside `func` (any depth, text order) using `name#index`
  // (`index` -1: `name` with any index) outside their regions, an op once
  // per such use, as a walk over opsInside(tree, func) finds them; empty
  // for func < 0.
  std::vector<int> users(int func, std::string_view name, int index);
  // Whether users(func, name, index) is not empty, without building it.
  bool used(int func, std::string_view name, int index);

 private:
  // Flat and sorted by name, length first (stable, so text order within a name): no
  // allocation per value, as the bench's many small functions need.
  struct Def {
    std::string_view name;
    int op;
    int base;   // the group's first value among the op's results
    int count;  // values in the group
  };
  struct Use {
    std::string_view name;
    int index;  // the `#i`
    int op;
  };
  struct Func {
    bool defsBuilt = false, usesBuilt = false;
    std::vector<Def> defs;
    std::vector<Use> uses;
  };
  Func& func(int f) { return funcs_[f]; }
  // The uses of `name` (any index) in func, in text order.
  std::pair<const Use*, const Use*> usesNamed(int func, std::string_view name);

  const OpTree& tree_;
  std::unordered_map<int, Func> funcs_;
};

}  // namespace shardbridge::module
