// base/huge_pages.h: the advice is given only for buffers it can cover with
// whole 2 MiB pages, never fails on odd arguments, and leaves the bytes and
// the memory's use as they were.
#include "base/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>  // MADV_POPULATE_WRITE, where the headers have it
#endif

namespace shardbridge::base {
namespace {

TEST(HugePages, SmallNullAndUnalignedRangesAreLeftAlone) {
  EXPECT_FALSE(adviseHugePages(nullptr, std::size_t{64} << 20));
  auto small = std::make_unique<std::byte[]>(kHugePageAdviceMin - 1);
  EXPECT_FALSE(adviseHugePages(small.get(), kHugePageAdviceMin - 1));
  EXPECT_FALSE(adviseHugePages(small.get(), 0));
}

TEST(HugePages, AdvisedMemoryKeepsItsBytesAndStaysUsable) {
  constexpr std::size_t kBytes = std::size_t{6} << 20;
  // One byte past a 2 MiB boundary: the advice covers only the whole huge
  // pages inside, and the bytes before and after stay the caller's.
  std::byte* block = static_cast<std::byte*>(::operator new(kBytes + 1, std::align_val_t{std::size_t{2} << 20}));
  std::byte* p = block + 1;
  for (std::size_t i = 0; i < kBytes; i += 4096) p[i] = static_cast<std::byte>(i / 4096 % 251);
  bool advised = adviseHugePages(p, kBytes);
#if defined(__linux__)
  // A kernel with transparent huge pages (even set to `never`) accepts
  // MADV_HUGEPAGE; one without them has no sysfs entry and refuses it.
  if (std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
    EXPECT_TRUE(advised);
  }
#else
  EXPECT_FALSE(advised);
#endif
  for (std::size_t i = 0; i < kBytes; i += 4096) ASSERT_EQ(p[i], static_cast<std::byte>(i / 4096 % 251)) << i;
  std::memset(p, 0x5a, kBytes);
  EXPECT_EQ(p[kBytes - 1], std::byte{0x5a});
  ::operator delete(block, std::align_val_t{std::size_t{2} << 20});
}

TEST(HugePages, PrefaultedPagesKeepTheirBytes) {
  EXPECT_FALSE(prefaultPages(nullptr, 1 << 20));
  constexpr std::size_t kBytes = std::size_t{1} << 20;
  auto buffer = std::make_unique<std::byte[]>(kBytes);
  std::byte* p = buffer.get();
  // Half the pages written before, half not: the written ones keep their
  // bytes, the others read as zero or as whatever the heap left there,
  // and all stay usable.
  for (std::size_t i = 0; i < kBytes / 2; i += 4096) p[i] = static_cast<std::byte>(i / 4096 % 251 + 1);
  EXPECT_FALSE(prefaultPages(p + 1, 100));  // no whole page inside
  bool done = prefaultPages(p, kBytes);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  (void)done;  // kernels before 5.14 refuse the advice: nothing changes then
#else
  EXPECT_FALSE(done);
#endif
  for (std::size_t i = 0; i < kBytes / 2; i += 4096)
    ASSERT_EQ(p[i], static_cast<std::byte>(i / 4096 % 251 + 1)) << i;
  std::memset(p, 0x5a, kBytes);
  EXPECT_EQ(p[kBytes - 1], std::byte{0x5a});
}

}  // namespace
}  // namespace shardbridge::base
