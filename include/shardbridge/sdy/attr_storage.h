// The immutable storage behind the sdy attribute handles.
//
// Each struct mirrors the layout of upstream Shardy's attribute storage as
// compiled into an XLA binary (docs/upstream.md § Attribute storage layout): an 8-byte header at +0x00, an
// array as {pointer, length}, a string as {pointer, length}. The layouts are
// pinned by static_asserts in attrs.cc, so the structs are standard-layout
// with the header as a member (not a base class). Storage is created only by
// Context and never changes after creation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace shardbridge::sdy {

class MeshAxisAttr;
class AxisRefAttr;
class DimensionShardingAttr;
class TensorShardingAttr;

// How the unreduced axes of a tensor are to be reduced.
enum class ReductionOp : uint32_t { kSum = 0, kMax = 1, kMin = 2 };

namespace detail {

enum class AttrKind : uint32_t {
  kMeshAxis = 1,
  kMesh,
  kSubAxisInfo,
  kAxisRef,
  kDimensionSharding,
  kSymbolRef,
  kTensorSharding,
  kTensorShardingPerValue,
};

// +0x00 of every storage: the kind (so a type-erased pointer such as
// TensorShardingAttr::meshOrRef can be told apart) and the uniquing hash.
struct StorageHeader {
  AttrKind kind;
  uint32_t hash;
};
static_assert(sizeof(StorageHeader) == 8);

// {pointer, length}, like llvm::StringRef / ArrayRef (std::string_view and
// std::span are not used in storage: their member order is unspecified).
struct StrRef {
  const char* data;
  size_t size;
  std::string_view view() const { return {data, size}; }
};

template <typename T>
struct ArrayRefT {
  const T* data;
  size_t size;
  std::span<const T> view() const { return {data, size}; }
};

struct MeshAxisStorage {
  StorageHeader header;
  StrRef name;   // +0x08 / +0x10
  int64_t size;  // +0x18
};

struct MeshStorage {
  StorageHeader header;
  ArrayRefT<MeshAxisAttr> axes;  // +0x08 / +0x10
  ArrayRefT<int64_t> deviceIds;  // +0x18 / +0x20, empty = iota order
};

struct SubAxisInfoStorage {
  StorageHeader header;
  int64_t preSize;  // +0x08
  int64_t size;     // +0x10
};

struct AxisRefStorage {
  StorageHeader header;
  StrRef name;                             // +0x08 / +0x10
  const SubAxisInfoStorage* subAxisInfo;   // +0x18, null = the full axis
};

struct DimensionShardingStorage {
  StorageHeader header;
  ArrayRefT<AxisRefAttr> axes;  // +0x08 / +0x10
  bool isClosed;                // +0x18
  int64_t priority;             // +0x20
  uint64_t hasPriority;         // +0x28, the engaged flag of the priority
};

// A flat symbol reference (`@mesh`), one of the two things meshOrRef holds.
struct SymbolRefStorage {
  StorageHeader header;
  StrRef name;  // +0x08 / +0x10, without the '@'
};

struct TensorShardingStorage {
  StorageHeader header;
  const StorageHeader* meshOrRef;                   // +0x08 SymbolRef or Mesh
  ArrayRefT<DimensionShardingAttr> dimShardings;    // +0x10 / +0x18
  ArrayRefT<AxisRefAttr> replicatedAxes;            // +0x20 / +0x28
  ArrayRefT<AxisRefAttr> unreducedAxes;             // +0x30 / +0x38
  ReductionOp reductionOp;                          // +0x40
};

struct TensorShardingPerValueStorage {
  StorageHeader header;
  ArrayRefT<TensorShardingAttr> shardings;  // +0x08 / +0x10
};

}  // namespace detail
}  // namespace shardbridge::sdy
