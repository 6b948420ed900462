// The op tree's arena (op_tree.h): the small vectors of a parsed tree (each
// op's uses, results, dictionary entries, regions, blocks) are carved out of
// large chunks that the tree owns and frees at once, instead of one heap
// allocation each. A module of a few megabytes has hundreds of thousands of
// them; their malloc/free was about a seventh of every module pipeline's
// instructions (docs/performance.md, "The op tree's arena").
//
// How a vector finds the arena: a TreeAlloc made while a TreeArenaScope is
// alive on the thread draws from that scope's arena; one made outside any
// scope uses the heap like std::allocator. The parser opens a scope around
// its run, so every vector it builds (however deeply nested in the structs
// it fills) lands in the tree's arena without being told. A copy of an
// arena vector made outside a scope goes to the heap, so a copy may outlive
// its tree; a vector moved out of a tree keeps pointing into the arena and
// must not outlive the tree.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace shardbridge::module {

// Bump allocation from chunks (a request larger than 16 KiB gets a chunk of
// its own), sizes rounded up to 16 bytes. The chunks start at 64 KiB and
// grow with the arena, to an eighth of what it holds, up to 8 MiB; those of
// 4 MiB and more are given to the kernel as huge pages (base/huge_pages.h),
// since a large tree's page faults were a good part of its parse. Nothing
// is given back before the arena goes: the parser copies each node's
// vectors in at their final size (op_tree_parser.h), so little is ever
// outgrown. Not thread-safe: one parse fills one arena.
class TreeArena {
 public:
  TreeArena() = default;
  ~TreeArena();
  TreeArena(const TreeArena&) = delete;
  TreeArena& operator=(const TreeArena&) = delete;

  // `bytes` aligned to 16. Throws std::bad_alloc when the heap refuses a chunk.
  void* allocate(std::size_t bytes) {
    std::size_t need = (bytes + kUnit - 1) & ~(kUnit - 1);
    if (need > size_ - used_ || need == 0) return grow(need ? need : kUnit);
    void* p = cur_ + used_;
    used_ += need;
    return p;
  }
  // Heap bytes held by the chunks (an adopted arena's included).
  std::size_t bytesHeld() const { return held_ + adoptedHeld_; }
  // Keeps `other` (the arena of a part of the tree parsed on another
  // thread) alive as long as this one: the vectors moved in from it keep
  // their storage there.
  void adopt(std::shared_ptr<TreeArena> other);
  // How many arenas it has adopted (for tests and checks).
  std::size_t adoptedCount() const { return adopted_.size(); }
  // Whether `p` points into one of the chunks (a walk over them: for tests
  // and checks, not for hot paths).
  bool owns(const void* p) const;

 private:
  static constexpr std::size_t kUnit = 16;
  void* grow(std::size_t bytes);
  struct Chunk {
    std::byte* data;
    std::size_t size;
  };
  std::byte* newChunk(std::size_t bytes);
  std::vector<Chunk> chunks_;
  std::vector<std::shared_ptr<TreeArena>> adopted_;
  std::byte* cur_ = nullptr;
  std::size_t used_ = 0;
  std::size_t size_ = 0;
  std::size_t held_ = 0;         // this arena's chunks (which size the next chunk)
  std::size_t adoptedHeld_ = 0;  // the adopted arenas' bytes
};

namespace tree_arena_detail {
// Set by TreeArenaScope (tree_arena.cc).
extern thread_local TreeArena* current;
}  // namespace tree_arena_detail

// The arena of the innermost TreeArenaScope alive on this thread, or null.
// Inline: every tree vector's allocator asks it when it is made (five per
// op node), and a call each time was 4 % of a parse.
inline TreeArena* currentTreeArena() noexcept { return tree_arena_detail::current; }

// While alive, TreeAllocs made on this thread draw from `arena`. Scopes nest.
class TreeArenaScope {
 public:
  explicit TreeArenaScope(TreeArena* arena) noexcept;
  ~TreeArenaScope();
  TreeArenaScope(const TreeArenaScope&) = delete;
  TreeArenaScope& operator=(const TreeArenaScope&) = delete;

 private:
  TreeArena* previous_;
};

template <class T>
struct TreeAlloc {
  using value_type = T;
  // Moves and swaps carry the arena with the storage; copies choose anew.
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using propagate_on_container_copy_assignment = std::false_type;
  using is_always_equal = std::false_type;

  TreeArena* arena;
  TreeAlloc() noexcept : arena(currentTreeArena()) {}
  template <class U>
  TreeAlloc(const TreeAlloc<U>& other) noexcept : arena(other.arena) {}

  T* allocate(std::size_t n) {
    if (!arena) return std::allocator<T>().allocate(n);
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    static_assert(alignof(T) <= 16, "the arena aligns to 16 bytes");
    return static_cast<T*>(arena->allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (!arena) std::allocator<T>().deallocate(p, n);
  }
  // A copy (of a tree, a node, one vector) uses the scope it is made in:
  // the heap outside a parse.
  TreeAlloc select_on_container_copy_construction() const noexcept { return TreeAlloc(); }

  template <class U>
  bool operator==(const TreeAlloc<U>& other) const noexcept {
    return arena == other.arena;
  }
};

// The vector type of the op tree's nodes.
template <class T>
using TreeVec = std::vector<T, TreeAlloc<T>>;

}  // namespace shardbridge::module
