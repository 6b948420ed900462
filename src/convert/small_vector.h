// A vector that keeps its first N elements inline (private to the convert
// floor). The export and import of one sharding handle a few axes, factors
// and dims; with std::vector every one of those short lists cost a heap
// allocation, which dominated the per-sharding cost (issue 4, bench/
// convert_bench.cc). Lists longer than N (meshes with many axes, tensors of
// high rank) spill to the heap and behave the same.
//
// The inline storage is left uninitialised (only the first size() slots
// hold values), and the vector can be neither copied nor moved: either
// would touch all N slots, which costs more than the short lists it holds.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace shardbridge::convert::detail {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_destructible_v<T> && std::is_default_constructible_v<T>,
                "SmallVector holds plain values only");

 public:
  SmallVector() = default;
  SmallVector(size_t count, const T& value) { resize(count, value); }
  SmallVector(const SmallVector&) = delete;
  SmallVector& operator=(const SmallVector&) = delete;

  void push_back(const T& value) {
    if (size_ < N && heap_.empty()) {
      std::construct_at(inlineData() + size_, value);
      ++size_;
      return;
    }
    pushBackOnHeap(value);
  }
  // Appends a default-constructed element and returns it, for filling in
  // place (GCC copies a struct built on the side through the stack, in
  // pieces the store buffer cannot forward).
  T& emplace_back() {
    if (size_ < N && heap_.empty()) return *std::construct_at(inlineData() + size_++);
    pushBackOnHeap(T{});
    return back();
  }
  template <typename It>
  void append(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  void resize(size_t count, const T& value) {
    while (size_ > count) pop_back();
    while (size_ < count) push_back(value);
  }
  void pop_back() {
    --size_;
    if (!heap_.empty()) heap_.pop_back();
  }
  void clear() {
    size_ = 0;
    heap_.clear();
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_.empty() ? inlineData() : heap_.data(); }
  const T* data() const { return heap_.empty() ? inlineData() : heap_.data(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  std::span<T> span() { return {data(), size_}; }
  std::span<const T> span() const { return {data(), size_}; }
  operator std::span<const T>() const { return span(); }  // NOLINT: used like a vector

 private:
  // Kept out of line so that push_back stays small enough to inline. The
  // first push past N moves the (full) inline storage to the heap; from
  // then on heap_ holds every element.
  [[gnu::noinline]] void pushBackOnHeap(const T& value) {
    if (heap_.empty()) {
      heap_.reserve(2 * N);
      heap_.assign(inlineData(), inlineData() + N);
    }
    heap_.push_back(value);
    ++size_;
  }

  T* inlineData() { return std::launder(reinterpret_cast<T*>(inline_)); }
  const T* inlineData() const { return std::launder(reinterpret_cast<const T*>(inline_)); }

  alignas(T) std::byte inline_[N * sizeof(T)];
  std::vector<T> heap_;
  size_t size_ = 0;
};

}  // namespace shardbridge::convert::detail
