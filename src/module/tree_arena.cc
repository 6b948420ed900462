#include "shardbridge/module/tree_arena.h"

#include <algorithm>
#include <functional>

#include "base/huge_pages.h"

namespace shardbridge::module {
namespace {

constexpr std::size_t kChunk = std::size_t{64} << 10;
constexpr std::size_t kMaxChunk = std::size_t{8} << 20;

}  // namespace

TreeArena::~TreeArena() {
  for (const Chunk& c : chunks_) delete[] c.data;
}

std::byte* TreeArena::newChunk(std::size_t bytes) {
  // Room for the record first, so that a failed push_back leaks nothing.
  chunks_.reserve(chunks_.size() + 1);
  std::byte* data = new std::byte[bytes];
  // Not aligned to 2 MiB (an aligned chunk would hold a quarter more heap
  // for its padding): an 8 MiB chunk still holds three whole huge pages.
  base::adviseHugePages(data, bytes);
  chunks_.push_back({data, bytes});
  held_ += bytes;
  return data;
}

void* TreeArena::grow(std::size_t bytes) {
  // A large request gets a chunk of its own, and the current chunk keeps
  // serving the small ones.
  if (bytes > kChunk / 4) return newChunk(bytes);
  // An eighth of what is held, in whole 64 KiB, between 64 KiB and 8 MiB:
  // a small tree keeps small chunks, a large one few page faults.
  std::size_t size = std::clamp(held_ / 8 / kChunk * kChunk, kChunk, kMaxChunk);
  cur_ = newChunk(size);
  size_ = size;
  used_ = bytes;
  return cur_;
}

void TreeArena::adopt(std::shared_ptr<TreeArena> other) {
  if (!other) return;
  adoptedHeld_ += other->bytesHeld();
  adopted_.push_back(std::move(other));
}

bool TreeArena::owns(const void* p) const {
  for (const auto& a : adopted_)
    if (a->owns(p)) return true;
  auto* b = static_cast<const std::byte*>(p);
  for (const Chunk& c : chunks_)
    if (std::less_equal<const std::byte*>()(c.data, b) && std::less<const std::byte*>()(b, c.data + c.size))
      return true;
  return false;
}

namespace tree_arena_detail {
thread_local TreeArena* current = nullptr;
}  // namespace tree_arena_detail

TreeArenaScope::TreeArenaScope(TreeArena* arena) noexcept : previous_(tree_arena_detail::current) {
  tree_arena_detail::current = arena;
}

TreeArenaScope::~TreeArenaScope() { tree_arena_detail::current = previous_; }

}  // namespace shardbridge::module
