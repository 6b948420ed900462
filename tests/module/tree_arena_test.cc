// Tests for the op tree's arena (tree_arena.h): where a TreeVec's storage
// comes from inside and outside a TreeArenaScope, alignment, large blocks,
// and that a parsed tree's vectors live in its arena and survive the tree
// being moved, while copies made outside a parse own heap storage.
#include "shardbridge/module/tree_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {
namespace {

TEST(TreeArena, AllocationsAreAlignedAndDistinct) {
  TreeArena arena;
  void* a = arena.allocate(1);
  void* b = arena.allocate(24);
  void* c = arena.allocate(16);
  for (void* p : {a, b, c}) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
    EXPECT_TRUE(arena.owns(p));
  }
  int outside = 0;
  EXPECT_FALSE(arena.owns(&outside));
  // Rounded to 16 bytes: 1 takes 16, 24 takes 32.
  EXPECT_EQ(static_cast<char*>(b) - static_cast<char*>(a), 16);
  EXPECT_EQ(static_cast<char*>(c) - static_cast<char*>(b), 32);
  EXPECT_EQ(arena.bytesHeld(), size_t{64} << 10);
}

TEST(TreeArena, LargeRequestsGetTheirOwnChunkAndSmallOnesKeepTheCurrentOne) {
  TreeArena arena;
  char* small = static_cast<char*>(arena.allocate(32));
  void* large = arena.allocate(100000);
  char* next = static_cast<char*>(arena.allocate(32));
  EXPECT_NE(large, nullptr);
  EXPECT_EQ(next - small, 32);  // still the first chunk
  EXPECT_EQ(arena.bytesHeld(), (size_t{64} << 10) + 100000);
  // A chunk that cannot hold the next small request is replaced.
  for (int i = 0; i < 5000; ++i) arena.allocate(16);
  EXPECT_EQ(arena.bytesHeld(), 2 * (size_t{64} << 10) + 100000);
}

TEST(TreeArena, VectorsGrowInTheInnermostScopeAndCopiesChooseAnew) {
  TreeArena outer, inner;
  TreeVec<int> heap = {7};
  EXPECT_TRUE(heap.ownsStorage());
  EXPECT_FALSE(outer.owns(heap.data()));
  {
    TreeArenaScope s1(&outer);
    TreeVec<int> a;
    {
      TreeArenaScope s2(&inner);
      TreeVec<int> b = {1};
      EXPECT_TRUE(inner.owns(b.data()));
      EXPECT_FALSE(b.ownsStorage());
      // Where a vector grows, not where it was made, picks the storage.
      a.push_back(1);
      EXPECT_TRUE(inner.owns(a.data()));
    }
    EXPECT_EQ(currentTreeArena(), &outer);
    a.assign({1, 2, 3, 4, 5});  // outgrows its storage in `inner`
    EXPECT_TRUE(outer.owns(a.data()));
    heap = TreeVec<int>(a);  // a copy made in the scope: the scope's arena
    EXPECT_TRUE(outer.owns(heap.data()));
    EXPECT_FALSE(heap.ownsStorage());
    heap = TreeVec<int>();
  }
  EXPECT_EQ(currentTreeArena(), nullptr);
  // Outside any scope: the heap, freed with the vector (ASan checks).
  heap.push_back(3);
  EXPECT_TRUE(heap.ownsStorage());
}

// The vector's own operations, on heap and arena storage alike.
TEST(TreeArena, TreeVecBehavesAsAVector) {
  for (bool inArena : {false, true}) {
    TreeArena arena;
    std::optional<TreeArenaScope> scope;
    if (inArena) scope.emplace(&arena);
    TreeVec<std::string> v;
    for (int i = 0; i < 40; ++i) v.push_back(std::to_string(i));
    ASSERT_EQ(v.size(), 40u);
    EXPECT_EQ(v.front(), "0");
    EXPECT_EQ(v.back(), "39");
    // Its own elements pushed, through regrowths (the argument names
    // storage that moves).
    v.push_back(v[0]);
    for (int i = 0; i < 30; ++i) v.push_back(v.back());
    EXPECT_EQ(v.back(), "0");
    v.erase(v.begin() + 1, v.begin() + 3);
    EXPECT_EQ(v[1], "3");
    v.insert(v.begin() + 1, std::string("x"));
    EXPECT_EQ(v[1], "x");
    EXPECT_EQ(v[2], "3");
    std::vector<std::string> more = {"a", "b"};
    v.insert(v.begin(), more.begin(), more.end());
    EXPECT_EQ(v[0], "a");
    EXPECT_EQ(v[1], "b");
    EXPECT_EQ(v[2], "0");
    v.resize(3);
    EXPECT_EQ(v.size(), 3u);
    TreeVec<std::string> copy = v, moved = std::move(copy);
    EXPECT_TRUE(copy.empty());
    EXPECT_TRUE(moved == v);
    v.pop_back();
    EXPECT_FALSE(moved == v);
    v.clear();
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(inArena, arena.owns(moved.data()));
    EXPECT_THROW((void)moved.at(3), std::out_of_range);
  }
}

TEST(TreeArena, AParsedTreeKeepsItsVectorsInItsArenaThroughAMove) {
  std::string text =
      "func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.add %a, %b {x = 1, y = 2} : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n";
  auto r = parseOpTree(text);
  ASSERT_TRUE(r.has_value());
  OpTree tree = std::move(*r);
  ASSERT_NE(tree.arena, nullptr);
  EXPECT_EQ(currentTreeArena(), nullptr);  // the parse's scope is closed
  const OpNode& add = tree.ops[1];
  ASSERT_EQ(add.name, "stablehlo.add");
  EXPECT_FALSE(add.uses.ownsStorage());
  EXPECT_TRUE(tree.arena->owns(add.uses.data()));
  EXPECT_TRUE(tree.arena->owns(add.dict.entries.data()));
  // Each vector is filled at its final size.
  EXPECT_EQ(add.uses.capacity(), 2u);
  EXPECT_EQ(add.dict.entries.capacity(), 2u);
  EXPECT_EQ(tree.ops[0].regions[0].blocks[0].ops.capacity(), 2u);
  ASSERT_EQ(add.uses.size(), 2u);
  EXPECT_EQ(add.uses[1].name, "%b");

  // A copy outside a parse owns heap storage and outlives the tree.
  TreeVec<ValueUse> copy = add.uses;
  EXPECT_TRUE(copy.ownsStorage());
  EXPECT_FALSE(tree.arena->owns(copy.data()));
  tree = OpTree{};  // the old nodes go before their arena (ASan checks)
  ASSERT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy[0].span.size(), 2u);

  // A parsed tree moved over another parsed tree.
  auto a = parseOpTree(text);
  auto b = parseOpTree("func.func private @g() {\n  return\n}\n");
  ASSERT_TRUE(a.has_value() && b.has_value());
  *a = std::move(*b);
  ASSERT_EQ(a->ops.size(), 2u);
  EXPECT_EQ(a->ops[0].symbolName, "g");
  EXPECT_EQ(std::string_view(a->ops[0].funcVisibility().in(a->text)), "private");
}

// The parse sizes its vectors as it fills them, so the arena holds no
// outgrown storage for the common shapes: one region of one block, a single
// region argument, a function's arguments and results (a region or block
// vector grown from empty took four slots, which were a tenth of a tree's
// arena). The ops array's reserve skips lines that only close a region.
TEST(TreeArena, AParseLeavesNoSpareRoomInTheCommonVectors) {
  const std::string text =
      "func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32> {x.y = 1 : i32}) {\n"
      "  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{}]>] out_shardings=[<@m, [{}]>] "
      "manual_axes={} (%c: tensor<4xf32>) {\n"
      "    sdy.return %c : tensor<4xf32>\n"
      "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n"
      "func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  return %a : tensor<4xf32>\n"
      "}\n";
  auto tree = parseOpTree(text);
  ASSERT_TRUE(tree.has_value()) << tree.error().message;
  ASSERT_EQ(tree->ops.size(), 6u);
  // Six ops on nine lines, three of which only close a region.
  EXPECT_LE(tree->ops.capacity(), 6u + 2u);
  for (const OpNode& op : tree->ops) {
    EXPECT_EQ(op.regions.capacity(), op.regions.size()) << op.name;
    for (const Region& r : op.regions) {
      EXPECT_EQ(r.blocks.capacity(), r.blocks.size()) << op.name;
      for (const Block& b : r.blocks) EXPECT_EQ(b.arguments.capacity(), b.arguments.size()) << op.name;
    }
    if (op.func) {
      EXPECT_EQ(op.funcArgs().capacity(), op.funcArgs().size()) << op.symbolName;
      EXPECT_EQ(op.funcResults().capacity(), op.funcResults().size()) << op.symbolName;
    }
  }
  EXPECT_EQ(tree->ops[0].funcArgs().size(), 2u);
  EXPECT_EQ(tree->ops[1].regions[0].blocks[0].arguments.size(), 1u);
  EXPECT_EQ(tree->ops[4].funcResults().size(), 1u);
}

}  // namespace
}  // namespace shardbridge::module
