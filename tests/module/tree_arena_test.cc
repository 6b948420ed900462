// Tests for the op tree's arena (tree_arena.h): where a TreeVec's storage
// comes from inside and outside a TreeArenaScope, alignment, large blocks,
// and that a parsed tree's vectors live in its arena and survive the tree
// being moved, while copies made outside a parse own heap storage.
#include "shardbridge/module/tree_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

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

TEST(TreeArena, AllocatorsTakeTheInnermostScopeAndCopiesChooseAnew) {
  TreeArena outer, inner;
  TreeVec<int> heap;
  EXPECT_EQ(heap.get_allocator().arena, nullptr);
  {
    TreeArenaScope s1(&outer);
    TreeVec<int> a;
    EXPECT_EQ(a.get_allocator().arena, &outer);
    {
      TreeArenaScope s2(&inner);
      TreeVec<int> b;
      EXPECT_EQ(b.get_allocator().arena, &inner);
    }
    EXPECT_EQ(currentTreeArena(), &outer);
    a.assign({1, 2, 3});
    heap = TreeVec<int>(a);  // a copy made in the scope: the scope's arena
    EXPECT_EQ(heap.get_allocator().arena, &outer);
    heap = TreeVec<int>();
  }
  EXPECT_EQ(currentTreeArena(), nullptr);
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
  EXPECT_EQ(add.uses.get_allocator().arena, tree.arena.get());
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
  EXPECT_EQ(copy.get_allocator().arena, nullptr);
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

}  // namespace
}  // namespace shardbridge::module
