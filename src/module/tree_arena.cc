#include "shardbridge/module/tree_arena.h"

#include <functional>

namespace shardbridge::module {
namespace {

constexpr std::size_t kChunk = std::size_t{64} << 10;
thread_local TreeArena* tCurrent = nullptr;

}  // namespace

void* TreeArena::grow(std::size_t bytes) {
  // A large request gets a chunk of its own, and the current chunk keeps
  // serving the small ones.
  if (bytes > kChunk / 4) {
    chunks_.push_back({std::make_unique_for_overwrite<std::byte[]>(bytes), bytes});
    held_ += bytes;
    return chunks_.back().data.get();
  }
  chunks_.push_back({std::make_unique_for_overwrite<std::byte[]>(kChunk), kChunk});
  held_ += kChunk;
  cur_ = chunks_.back().data.get();
  size_ = kChunk;
  used_ = bytes;
  return cur_;
}

bool TreeArena::owns(const void* p) const {
  auto* b = static_cast<const std::byte*>(p);
  for (const Chunk& c : chunks_)
    if (std::less_equal<const std::byte*>()(c.data.get(), b) && std::less<const std::byte*>()(b, c.data.get() + c.size))
      return true;
  return false;
}

TreeArena* currentTreeArena() noexcept { return tCurrent; }

TreeArenaScope::TreeArenaScope(TreeArena* arena) noexcept : previous_(tCurrent) { tCurrent = arena; }

TreeArenaScope::~TreeArenaScope() { tCurrent = previous_; }

}  // namespace shardbridge::module
