// Transparent huge pages for the few large buffers a module pipeline fills
// (op-tree nodes and chunks, the texts each pass writes). Each of them is a
// fresh allocation that the kernel backs one 4 KiB page at a time, on its
// first write; on a virtual machine those faults were about a third of a
// large export's CPU time (docs/performance.md "Huge pages for the large
// buffers"). Asking for 2 MiB pages cuts the faults by up to 512x. It is
// advice only: the contents, the sizes and what the caller may do with the
// memory do not change, and where the kernel has no transparent huge pages
// (or has them off) nothing happens.
#pragma once

#include <cstddef>

namespace shardbridge::base {

// Buffers smaller than this are left alone: the pages they would gain are
// few, and the system call costs more than their faults.
inline constexpr std::size_t kHugePageAdviceMin = std::size_t{4} << 20;

// Advises the kernel to back the 2 MiB-aligned pages wholly inside
// [p, p + bytes) with huge pages (madvise MADV_HUGEPAGE on Linux). Call it
// before the buffer is first written, on memory the caller owns. Returns
// whether advice was given: false for a null pointer, a buffer under
// kHugePageAdviceMin, a platform without the call, or a kernel that refused
// it. Never fails otherwise, and never touches the bytes.
bool adviseHugePages(void* p, std::size_t bytes) noexcept;

// Has the kernel map, writable, the pages wholly inside [p, p + bytes) that
// are not mapped yet (madvise MADV_POPULATE_WRITE, Linux 5.14 and later),
// as a first write to each would, without changing any byte. For a thread
// with nothing else to do: the pages of a buffer another thread is about to
// fill (the op tree's two-thread parse, op_tree_split.cc). Returns whether
// it was done; false where the call is missing or refused (nothing then
// changes).
bool prefaultPages(void* p, std::size_t bytes) noexcept;

}  // namespace shardbridge::base
