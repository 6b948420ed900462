// Uniquing storage for sdy attributes.
//
// The Context is split into shards keyed by hash so that threads interning
// different attributes rarely wait on one another. Each shard owns a bump
// arena; storage is never freed before the Context dies, which is what lets
// handles be bare pointers.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "shardbridge/sdy/attrs.h"

namespace shardbridge::sdy {
namespace detail {
namespace {

// One multiply per mixed-in word (the FxHash step); hashStorage finishes
// with a full avalanche, so that the low bits (the slot in a shard's table)
// and the top ones (the shard) both depend on every word.
uint64_t mix(uint64_t h, uint64_t v) {
  return (((h << 5) | (h >> 59)) ^ v) * 0x517cc1b727220a95ULL;
}

uint64_t mixBytes(uint64_t h, const char* data, size_t size) {
  // FNV-1a over the bytes, then mixed in with the length.
  uint64_t f = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < size; ++i) {
    f ^= static_cast<unsigned char>(data[i]);
    f *= 0x100000001b3ULL;
  }
  return mix(mix(h, f), size);
}

template <typename T>
uint64_t mixPointers(uint64_t h, ArrayRefT<T> a) {
  h = mix(h, a.size);
  for (size_t i = 0; i < a.size; ++i) h = mix(h, reinterpret_cast<uintptr_t>(a.data[i].opaque()));
  return h;
}

uint64_t mixInts(uint64_t h, ArrayRefT<int64_t> a) {
  h = mix(h, a.size);
  for (size_t i = 0; i < a.size; ++i) h = mix(h, static_cast<uint64_t>(a.data[i]));
  return h;
}

uint32_t hashStorage(const StorageHeader& s) {
  uint64_t h = mix(0, static_cast<uint64_t>(s.kind));
  switch (s.kind) {
    case AttrKind::kMeshAxis: {
      auto& m = reinterpret_cast<const MeshAxisStorage&>(s);
      h = mix(mixBytes(h, m.name.data, m.name.size), static_cast<uint64_t>(m.size));
      break;
    }
    case AttrKind::kMesh: {
      auto& m = reinterpret_cast<const MeshStorage&>(s);
      h = mixInts(mixPointers(h, m.axes), m.deviceIds);
      break;
    }
    case AttrKind::kSubAxisInfo: {
      auto& m = reinterpret_cast<const SubAxisInfoStorage&>(s);
      h = mix(mix(h, static_cast<uint64_t>(m.preSize)), static_cast<uint64_t>(m.size));
      break;
    }
    case AttrKind::kAxisRef: {
      auto& m = reinterpret_cast<const AxisRefStorage&>(s);
      h = mix(mixBytes(h, m.name.data, m.name.size), reinterpret_cast<uintptr_t>(m.subAxisInfo));
      break;
    }
    case AttrKind::kDimensionSharding: {
      auto& m = reinterpret_cast<const DimensionShardingStorage&>(s);
      h = mixPointers(h, m.axes);
      h = mix(h, m.isClosed);
      h = mix(h, m.hasPriority);
      if (m.hasPriority) h = mix(h, static_cast<uint64_t>(m.priority));
      break;
    }
    case AttrKind::kSymbolRef: {
      auto& m = reinterpret_cast<const SymbolRefStorage&>(s);
      h = mixBytes(h, m.name.data, m.name.size);
      break;
    }
    case AttrKind::kTensorSharding: {
      auto& m = reinterpret_cast<const TensorShardingStorage&>(s);
      h = mix(h, reinterpret_cast<uintptr_t>(m.meshOrRef));
      h = mixPointers(h, m.dimShardings);
      h = mixPointers(h, m.replicatedAxes);
      h = mixPointers(h, m.unreducedAxes);
      h = mix(h, static_cast<uint64_t>(m.reductionOp));
      break;
    }
    case AttrKind::kTensorShardingPerValue: {
      auto& m = reinterpret_cast<const TensorShardingPerValueStorage&>(s);
      h = mixPointers(h, m.shardings);
      break;
    }
  }
  // splitmix64's finaliser.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return static_cast<uint32_t>(h ^ (h >> 32));
}

bool sameStr(StrRef a, StrRef b) {
  return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
}

template <typename T>
bool sameArray(ArrayRefT<T> a, ArrayRefT<T> b) {
  if (a.size != b.size) return false;
  for (size_t i = 0; i < a.size; ++i)
    if (!(a.data[i] == b.data[i])) return false;
  return true;
}

bool equalStorage(const StorageHeader& a, const StorageHeader& b) {
  if (a.kind != b.kind || a.hash != b.hash) return false;
  switch (a.kind) {
    case AttrKind::kMeshAxis: {
      auto& x = reinterpret_cast<const MeshAxisStorage&>(a);
      auto& y = reinterpret_cast<const MeshAxisStorage&>(b);
      return x.size == y.size && sameStr(x.name, y.name);
    }
    case AttrKind::kMesh: {
      auto& x = reinterpret_cast<const MeshStorage&>(a);
      auto& y = reinterpret_cast<const MeshStorage&>(b);
      return sameArray(x.axes, y.axes) && sameArray(x.deviceIds, y.deviceIds);
    }
    case AttrKind::kSubAxisInfo: {
      auto& x = reinterpret_cast<const SubAxisInfoStorage&>(a);
      auto& y = reinterpret_cast<const SubAxisInfoStorage&>(b);
      return x.preSize == y.preSize && x.size == y.size;
    }
    case AttrKind::kAxisRef: {
      auto& x = reinterpret_cast<const AxisRefStorage&>(a);
      auto& y = reinterpret_cast<const AxisRefStorage&>(b);
      return x.subAxisInfo == y.subAxisInfo && sameStr(x.name, y.name);
    }
    case AttrKind::kDimensionSharding: {
      auto& x = reinterpret_cast<const DimensionShardingStorage&>(a);
      auto& y = reinterpret_cast<const DimensionShardingStorage&>(b);
      return x.isClosed == y.isClosed && x.hasPriority == y.hasPriority &&
             (!x.hasPriority || x.priority == y.priority) && sameArray(x.axes, y.axes);
    }
    case AttrKind::kSymbolRef: {
      auto& x = reinterpret_cast<const SymbolRefStorage&>(a);
      auto& y = reinterpret_cast<const SymbolRefStorage&>(b);
      return sameStr(x.name, y.name);
    }
    case AttrKind::kTensorSharding: {
      auto& x = reinterpret_cast<const TensorShardingStorage&>(a);
      auto& y = reinterpret_cast<const TensorShardingStorage&>(b);
      return x.meshOrRef == y.meshOrRef && x.reductionOp == y.reductionOp &&
             sameArray(x.dimShardings, y.dimShardings) &&
             sameArray(x.replicatedAxes, y.replicatedAxes) &&
             sameArray(x.unreducedAxes, y.unreducedAxes);
    }
    case AttrKind::kTensorShardingPerValue: {
      auto& x = reinterpret_cast<const TensorShardingPerValueStorage&>(a);
      auto& y = reinterpret_cast<const TensorShardingPerValueStorage&>(b);
      return sameArray(x.shardings, y.shardings);
    }
  }
  return false;
}

}  // namespace

// The shard's parts are named (not anonymous-namespace) types because
// Context::Impl, which has external linkage, holds them: GCC refuses an
// anonymous-namespace member type there once the file shares a unity batch
// (-Wsubobject-linkage).
namespace context_store {

// A shard's set of stored attributes: open addressing with linear probing
// over a power-of-two array of {hash, storage} slots, at most half full.
// Cheaper per look-up than std::unordered_set (no modulo, no node chase, the
// hash compared before the storage is touched); entries are never removed.
class InternTable {
 public:
  size_t size() const { return size_; }

  const StorageHeader* find(const StorageHeader& probe) const {
    if (size_ == 0) return nullptr;
    for (size_t i = probe.hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.storage == nullptr) return nullptr;
      if (slot.hash == probe.hash && equalStorage(*slot.storage, probe)) return slot.storage;
    }
  }

  // `stored` must not be in the table yet.
  void insert(const StorageHeader* stored) {
    if ((size_ + 1) * 2 > capacity()) grow();
    place(slots_.get(), mask_, stored);
    ++size_;
  }

 private:
  struct Slot {
    uint32_t hash = 0;
    const StorageHeader* storage = nullptr;
  };
  static constexpr size_t kFirstCapacity = 16;

  size_t capacity() const { return slots_ ? mask_ + 1 : 0; }
  static void place(Slot* slots, size_t mask, const StorageHeader* stored) {
    size_t i = stored->hash & mask;
    while (slots[i].storage != nullptr) i = (i + 1) & mask;
    slots[i] = Slot{stored->hash, stored};
  }
  void grow() {
    size_t newCapacity = slots_ ? capacity() * 2 : kFirstCapacity;
    auto slots = std::make_unique<Slot[]>(newCapacity);
    for (size_t i = 0; i < capacity(); ++i) {
      if (slots_[i].storage != nullptr) place(slots.get(), newCapacity - 1, slots_[i].storage);
    }
    slots_ = std::move(slots);
    mask_ = newCapacity - 1;
  }

  std::unique_ptr<Slot[]> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

// A bump allocator: memory lives until the arena dies. Chunks start small
// and double up to kChunk, and are not zero-filled: a context that interns
// a handful of attributes (one per converted module or Python call, 16
// shards each) must not pay for touching a megabyte of fresh pages.
class Arena {
 public:
  void* allocate(size_t bytes) {
    bytes = (bytes + 7) & ~size_t{7};
    if (bytes > kChunk / 4) {
      chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(bytes));
      return chunks_.back().get();
    }
    if (used_ + bytes > size_ || !current_) {
      if (current_) size_ = std::min(size_ * 2, kChunk);
      while (size_ < bytes) size_ *= 2;
      chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size_));
      current_ = chunks_.back().get();
      used_ = 0;
    }
    void* p = current_ + used_;
    used_ += bytes;
    return p;
  }

  template <typename T>
  T* copyArray(const T* data, size_t size) {
    if (size == 0) return nullptr;
    T* out = static_cast<T*>(allocate(sizeof(T) * size));
    std::memcpy(static_cast<void*>(out), data, sizeof(T) * size);
    return out;
  }

 private:
  static constexpr size_t kChunk = 64 * 1024;
  static constexpr size_t kFirstChunk = 1024;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::byte* current_ = nullptr;
  size_t size_ = kFirstChunk;  // of the current chunk
  size_t used_ = 0;
};

// A shard's lock. What it guards is a table probe and, for a new attribute,
// a copy into the arena: shorter than a pthread mutex's own lock and unlock
// calls, which were a third of an intern's instructions (docs/performance.md,
// "The sdy attribute parser"). Uncontended it is one exchange and one store;
// a waiter yields instead of spinning hot, so that a holder preempted on a
// busy machine gets its core back.
class ShardLock {
 public:
  void lock() {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace context_store

namespace {

using context_store::Arena;
using context_store::InternTable;
using context_store::ShardLock;

template <typename S>
S* cloneInto(Arena& arena, const S& probe) {
  S* s = static_cast<S*>(arena.allocate(sizeof(S)));
  std::memcpy(static_cast<void*>(s), &probe, sizeof(S));
  return s;
}

StrRef copyStr(Arena& arena, StrRef s) {
  return StrRef{arena.copyArray(s.data, s.size), s.size};
}

template <typename T>
ArrayRefT<T> copyArr(Arena& arena, ArrayRefT<T> a) {
  return ArrayRefT<T>{arena.copyArray(a.data, a.size), a.size};
}

// Deep-copies the probe's out-of-line parts (strings, arrays) into the arena.
const StorageHeader* persist(Arena& arena, const StorageHeader& probe) {
  switch (probe.kind) {
    case AttrKind::kMeshAxis: {
      auto* s = cloneInto(arena, reinterpret_cast<const MeshAxisStorage&>(probe));
      s->name = copyStr(arena, s->name);
      return &s->header;
    }
    case AttrKind::kMesh: {
      auto* s = cloneInto(arena, reinterpret_cast<const MeshStorage&>(probe));
      s->axes = copyArr(arena, s->axes);
      s->deviceIds = copyArr(arena, s->deviceIds);
      return &s->header;
    }
    case AttrKind::kSubAxisInfo:
      return &cloneInto(arena, reinterpret_cast<const SubAxisInfoStorage&>(probe))->header;
    case AttrKind::kAxisRef: {
      auto* s = cloneInto(arena, reinterpret_cast<const AxisRefStorage&>(probe));
      s->name = copyStr(arena, s->name);
      return &s->header;
    }
    case AttrKind::kDimensionSharding: {
      auto* s = cloneInto(arena, reinterpret_cast<const DimensionShardingStorage&>(probe));
      s->axes = copyArr(arena, s->axes);
      return &s->header;
    }
    case AttrKind::kSymbolRef: {
      auto* s = cloneInto(arena, reinterpret_cast<const SymbolRefStorage&>(probe));
      s->name = copyStr(arena, s->name);
      return &s->header;
    }
    case AttrKind::kTensorSharding: {
      auto* s = cloneInto(arena, reinterpret_cast<const TensorShardingStorage&>(probe));
      s->dimShardings = copyArr(arena, s->dimShardings);
      s->replicatedAxes = copyArr(arena, s->replicatedAxes);
      s->unreducedAxes = copyArr(arena, s->unreducedAxes);
      return &s->header;
    }
    case AttrKind::kTensorShardingPerValue: {
      auto* s = cloneInto(arena, reinterpret_cast<const TensorShardingPerValueStorage&>(probe));
      s->shardings = copyArr(arena, s->shardings);
      return &s->header;
    }
  }
  return nullptr;
}

}  // namespace
}  // namespace detail

struct Context::Impl {
  static constexpr size_t kShards = 16;
  struct Shard {
    detail::context_store::ShardLock mu;
    detail::context_store::InternTable set;
    detail::context_store::Arena arena;
  };
  Shard shards[kShards];
};

Context::Context() : impl_(std::make_unique<Impl>()) {}
Context::~Context() = default;

size_t Context::size() const {
  size_t n = 0;
  for (auto& shard : impl_->shards) {
    std::lock_guard<detail::ShardLock> lock(shard.mu);
    n += shard.set.size();
  }
  return n;
}

namespace detail {

const StorageHeader* intern(Context& ctx, StorageHeader& probe) {
  probe.hash = hashStorage(probe);
  // The low bits pick the bucket inside a shard; take the shard from the top.
  auto& shard = ctx.impl_->shards[(probe.hash >> 28) % Context::Impl::kShards];
  std::lock_guard<detail::ShardLock> lock(shard.mu);
  if (const StorageHeader* found = shard.set.find(probe)) return found;
  const StorageHeader* stored = persist(shard.arena, probe);
  shard.set.insert(stored);
  return stored;
}

}  // namespace detail
}  // namespace shardbridge::sdy
