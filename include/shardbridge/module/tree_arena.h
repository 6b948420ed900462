// The op tree's arena (op_tree.h): the small vectors of a parsed tree (each
// op's uses, results, dictionary entries, regions, blocks) are carved out of
// large chunks that the tree owns and frees at once, instead of one heap
// allocation each. A module of a few megabytes has hundreds of thousands of
// them; their malloc/free was about a seventh of every module pipeline's
// instructions (docs/performance.md, "The op tree's arena").
//
// How a vector finds the arena: a TreeVec that grows while a TreeArenaScope
// is alive on the thread draws from that scope's arena; outside any scope it
// uses the heap. The parser opens a scope around its run, so every vector it
// fills (however deeply nested in the structs it builds) lands in the tree's
// arena without being told. A copy of an arena vector made outside a scope
// goes to the heap, so a copy may outlive its tree; a vector moved out of a
// tree keeps pointing into the arena and must not outlive the tree.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
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

// The vector type of the op tree's nodes: 16 bytes (a pointer, a size and a
// capacity), half a std::vector with an allocator that names its arena. Its
// storage is chosen when it grows: the arena of the innermost
// TreeArenaScope alive on the thread (not given back: the arena frees it
// all at once), else the heap (owned, freed with the vector). So the
// vectors a parse fills live in the tree's arena; a copy, or growth, outside
// a parse goes to the heap and may outlive the tree, while a vector moved
// out of a tree keeps pointing into the arena and must not. At most 2^31 - 1
// elements (a tree's text is under 4 GiB, op_tree.h).
template <class T>
class TreeVec {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  TreeVec() noexcept = default;
  TreeVec(const TreeVec& other) { append(other.begin(), other.end()); }
  TreeVec(TreeVec&& other) noexcept : data_(other.data_), size_(other.size_), cap_(other.cap_) {
    other.data_ = nullptr;
    other.size_ = other.cap_ = 0;
  }
  TreeVec(std::initializer_list<T> items) { append(items.begin(), items.end()); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  TreeVec(It first, It last) {
    append(first, last);
  }
  TreeVec& operator=(const TreeVec& other) {
    if (this != &other) {
      TreeVec copy(other);
      swap(copy);
    }
    return *this;
  }
  TreeVec& operator=(TreeVec&& other) noexcept {
    if (this != &other) {
      TreeVec taken(std::move(other));
      swap(taken);
    }
    return *this;
  }
  ~TreeVec() { release(); }

  void swap(TreeVec& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(cap_, other.cap_);
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t capacity() const noexcept { return cap_ & ~kOwned; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  const T* cbegin() const noexcept { return data_; }
  const T* cend() const noexcept { return data_ + size_; }
  std::reverse_iterator<T*> rbegin() noexcept { return std::reverse_iterator<T*>(end()); }
  std::reverse_iterator<T*> rend() noexcept { return std::reverse_iterator<T*>(begin()); }
  std::reverse_iterator<const T*> rbegin() const noexcept { return std::reverse_iterator<const T*>(end()); }
  std::reverse_iterator<const T*> rend() const noexcept { return std::reverse_iterator<const T*>(begin()); }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& at(std::size_t i) {
    if (i >= size_) throw std::out_of_range("TreeVec::at");
    return data_[i];
  }
  const T& at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("TreeVec::at");
    return data_[i];
  }
  T& front() noexcept { return data_[0]; }
  const T& front() const noexcept { return data_[0]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }
  // Whether the storage is the heap's (owned) rather than an arena's.
  bool ownsStorage() const noexcept { return (cap_ & kOwned) != 0; }

  void reserve(std::size_t n) {
    if (n > capacity()) regrow(n);
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity()) {
      // Made before the storage moves: `args` may name an element.
      T v(std::forward<Args>(args)...);
      regrow(size_ < 4 ? 4 : std::size_t{size_} * 2);
      T* p = ::new (static_cast<void*>(data_ + size_)) T(std::move(v));
      ++size_;
      return *p;
    }
    T* p = ::new (static_cast<void*>(data_ + size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  void pop_back() noexcept { data_[--size_].~T(); }
  void clear() noexcept {
    std::destroy_n(data_, size_);
    size_ = 0;
  }
  template <class It>
  void assign(It first, It last) {
    clear();
    append(first, last);
  }
  void assign(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  void resize(std::size_t n) {
    if (n < size_) {
      std::destroy(data_ + n, data_ + size_);
      size_ = static_cast<uint32_t>(n);
      return;
    }
    reserve(n);
    while (size_ < n) emplace_back();
  }
  // Erases [first, last), moving the elements after it down.
  T* erase(const T* first, const T* last) {
    T* f = data_ + (first - data_);
    T* l = data_ + (last - data_);
    T* out = std::move(l, end(), f);
    std::destroy(out, end());
    size_ = static_cast<uint32_t>(out - data_);
    return f;
  }
  T* erase(const T* at) { return erase(at, at + 1); }
  // Inserts `v` before `at`.
  T* insert(const T* at, T v) {
    std::size_t i = static_cast<std::size_t>(at - data_);
    emplace_back(std::move(v));
    std::rotate(data_ + i, data_ + size_ - 1, data_ + size_);
    return data_ + i;
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  T* insert(const T* at, It first, It last) {
    std::size_t i = static_cast<std::size_t>(at - data_);
    std::size_t before = size_;
    append(first, last);
    std::rotate(data_ + i, data_ + before, data_ + size_);
    return data_ + i;
  }

  friend bool operator==(const TreeVec& a, const TreeVec& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static constexpr uint32_t kOwned = uint32_t{1} << 31;

  // (Not from this vector's own elements, as for std::vector.)
  template <class It>
  void append(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>) {
      std::size_t n = static_cast<std::size_t>(std::distance(first, last));
      if (size_ + n > capacity()) regrow(size_ + n);
      std::uninitialized_copy(first, last, data_ + size_);
      size_ += static_cast<uint32_t>(n);
    } else {
      for (; first != last; ++first) emplace_back(*first);
    }
  }
  // New storage of `n` elements (exactly: the parser fills its vectors once,
  // at their final size), the elements moved in.
  void regrow(std::size_t n) {
    static_assert(alignof(T) <= 16, "the arena and the heap align to 16 bytes");
    if (n >= kOwned) throw std::length_error("TreeVec: more than 2^31 - 1 elements");
    T* fresh;
    bool owned = false;
    if (TreeArena* arena = currentTreeArena()) {
      fresh = static_cast<T*>(arena->allocate(n * sizeof(T)));
    } else {
      fresh = static_cast<T*>(::operator new(n * sizeof(T)));
      owned = true;
    }
    std::uninitialized_move(data_, data_ + size_, fresh);
    std::size_t size = size_;
    release();
    data_ = fresh;
    size_ = static_cast<uint32_t>(size);
    cap_ = static_cast<uint32_t>(n) | (owned ? kOwned : 0);
  }
  void release() noexcept {
    std::destroy_n(data_, size_);
    if (cap_ & kOwned) ::operator delete(static_cast<void*>(data_));
    data_ = nullptr;
    size_ = cap_ = 0;
  }

  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t cap_ = 0;  // kOwned: heap storage
};

}  // namespace shardbridge::module
