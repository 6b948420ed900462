#include "base/huge_pages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace shardbridge::base {

#if defined(__linux__)
namespace {

// madvise(`advice`) on the pages of `page` bytes wholly inside
// [p, p + bytes): the advice must not reach memory the caller does not own
// (a neighbour in the same mapping).
bool adviseWholePages(void* p, std::size_t bytes, std::uintptr_t page, int advice) noexcept {
  if (p == nullptr) return false;
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  const std::uintptr_t last = (begin + bytes) & ~(page - 1);
  if (first >= last) return false;
  return madvise(reinterpret_cast<void*>(first), last - first, advice) == 0;
}

}  // namespace
#endif

bool adviseHugePages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < kHugePageAdviceMin) return false;
  return adviseWholePages(p, bytes, std::uintptr_t{2} << 20, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

bool prefaultPages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  return adviseWholePages(p, bytes, 4096, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

}  // namespace shardbridge::base
