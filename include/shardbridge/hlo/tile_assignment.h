// Tile assignments: the N-d array of device ids behind a tiled HloSharding.
//
// Two representations, as in XLA (xla/hlo/ir/tile_assignment.h):
//   * iota ("V2"): `arange(prod(dims)).reshape(reshape_dims)
//     .transpose(transpose_perm).reshape(dims)`, stored as the three small
//     vectors only, canonicalised exactly as XLA does;
//   * explicit ("V1"): the row-major device list.
// An iota is materialised into a device list only when `devices()` is called
// (and then once, shared between copies): an iota over 1,048,576 devices costs
// a few dozen bytes until somebody asks for the list.
//
//   auto ta = TileAssignment::iota({4, 2}, {2, 4}, {1, 0}).value();
//   ta.toString()            -> "devices=[4,2]<=[2,4]T(1,0)"
//   ta.valueAt({1, 1})       -> 5
//   ta == TileAssignment::fromDevices({4, 2}, {0,4,1,5,2,6,3,7}).value() -> true
//
// Limits (documented so that no input allocates without bound): every
// dimension is >= 1 and the device count is at most kMaxDevices (2^31);
// materialising more than kMaxMaterializedDevices (2^24) ids is refused with
// an error instead of allocating.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge::hlo {

// Largest device count a tile assignment may describe.
inline constexpr int64_t kMaxDevices = int64_t{1} << 31;
// Largest device list shardbridge will build from an iota (8 bytes each).
inline constexpr int64_t kMaxMaterializedDevices = int64_t{1} << 24;

// The iota triple (dims, reshape_dims, transpose_perm), always canonical.
class IotaTileAssignment {
 public:
  // Returns the iota `[dims]<=[prod(dims)]`. Rejects an empty `dims`, a
  // dimension < 1 and a product above kMaxDevices.
  //   create({2, 3})->toString() == "[2,3]<=[6]"
  static Result<IotaTileAssignment> create(std::span<const int64_t> dims);

  // Returns the canonical form of `[dims]<=[reshapeDims]T(transposePerm)`.
  // Rejects: empty dims or reshape, sizes < 1, products above kMaxDevices,
  // differing products, a perm of another length or that is not a
  // permutation of [0, reshapeDims.size()).
  //   create({12}, {3,4}, {1,0})->toString() == "[12]<=[3,4]T(1,0)"
  //   create({4}, {2,2}, {0,1})->toString()  == "[4]<=[4]"
  static Result<IotaTileAssignment> create(std::span<const int64_t> dims,
                                           std::span<const int64_t> reshapeDims,
                                           std::span<const int> transposePerm);
  // create's checks alone: okStatus() exactly when create would succeed,
  // else its error.
  static Status check(std::span<const int64_t> dims, std::span<const int64_t> reshapeDims,
                      std::span<const int> transposePerm);

  std::span<const int64_t> dims() const {
    return {ndims_ <= kInlineDims ? inlineDims_.data() : heapDims_.data(), ndims_};
  }
  std::span<const int64_t> reshapeDims() const { return {reshape_.data(), reshapeRank_}; }
  std::span<const int> transposePerm() const { return {perm_.data(), reshapeRank_}; }
  int64_t ndims() const { return static_cast<int64_t>(ndims_); }
  int64_t dim(int64_t i) const { return dims()[static_cast<size_t>(i)]; }
  int64_t numElements() const { return numElements_; }

  // Returns the device at `index` (one entry per dim, each in range; the
  // caller's contract, not checked).
  int64_t valueAt(std::span<const int64_t> index) const;
  // Returns the device at row-major position `flat` (0 <= flat < numElements).
  int64_t valueAtFlat(int64_t flat) const;

  // XLA's IotaTileAssignment::Transpose: the transposed iota, or nullopt when
  // it cannot be written as an iota (the caller then materialises). `perm`
  // must be a permutation of [0, ndims()).
  std::optional<IotaTileAssignment> transpose(std::span<const int> perm) const;

  // Writes all devices row-major into `out` (resized to numElements()).
  void materialize(std::vector<int64_t>& out) const;
  // The same into `out[0, numElements())`, which the caller allocated.
  void materialize(int64_t* out) const;

  // "[4,2]<=[2,4]T(1,0)"; "T(...)" only when the reshape has >1 entries.
  std::string toString() const;
  void print(std::string& out) const;
  // "[2,4]T(1,0)" (reshape and perm only).
  void printArray(std::string& out) const;

  // Compares the canonical triples (XLA's IotaTileAssignment::operator==).
  friend bool operator==(const IotaTileAssignment& a, const IotaTileAssignment& b);

  // Only TileAssignment can name this tag: it builds its iota in place with
  // it (std::optional::emplace needs a public constructor).
  class InPlaceTag {
    friend class TileAssignment;
    InPlaceTag() = default;
  };
  // The canonical form of validated parts (see assignCanonical).
  IotaTileAssignment(InPlaceTag, std::span<const int64_t> dims, std::span<const int64_t> reshape,
                     std::span<const int> perm) {
    assignCanonical(dims, reshape, perm);
  }
  // The plain iota `[dims]<=[n]` from valid dims whose product is n: a
  // one-entry reshape is already canonical, so nothing is canonicalised.
  IotaTileAssignment(InPlaceTag, std::span<const int64_t> dims, int64_t n) {
    assignPlain(dims, n);
  }

  // A canonical reshape has one entry or only entries >= 2, so with at most
  // 2^31 devices it never has more than 31: it is stored inline.
  static constexpr size_t kMaxReshapeRank = 32;

  // Copies carry the entries in use only: the inline arrays (about 450
  // bytes) are not zero-filled at construction, which was a large part of
  // building a tile assignment (docs/performance.md, third pass).
  IotaTileAssignment(const IotaTileAssignment& other) { copyFrom(other); }
  IotaTileAssignment(IotaTileAssignment&& other) noexcept
      : heapDims_(std::move(other.heapDims_)) {
    copyFrom(other, /*withHeap=*/false);
  }
  IotaTileAssignment& operator=(const IotaTileAssignment& other) {
    if (this != &other) copyFrom(other);
    return *this;
  }
  IotaTileAssignment& operator=(IotaTileAssignment&& other) noexcept {
    if (this != &other) {
      heapDims_ = std::move(other.heapDims_);
      copyFrom(other, /*withHeap=*/false);
    }
    return *this;
  }
  ~IotaTileAssignment() = default;

 private:
  friend class TileAssignment;
  friend class HloSharding;
  IotaTileAssignment() {}  // entries past ndims_ / reshapeRank_ stay unset
  void copyFrom(const IotaTileAssignment& other, bool withHeap = true) {
    ndims_ = other.ndims_;
    reshapeRank_ = other.reshapeRank_;
    numElements_ = other.numElements_;
    if (withHeap) heapDims_ = other.heapDims_;
    if (ndims_ <= kInlineDims) {
      for (size_t i = 0; i < ndims_; ++i) inlineDims_[i] = other.inlineDims_[i];
    }
    for (size_t i = 0; i < reshapeRank_; ++i) {
      reshape_[i] = other.reshape_[i];
      perm_[i] = other.perm_[i];
    }
  }
  // Builds without checks from already-validated parts and canonicalises.
  static IotaTileAssignment makeCanonical(std::span<const int64_t> dims,
                                          std::span<const int64_t> reshape,
                                          std::span<const int> perm);
  // The same into `*this` (freshly default-constructed), so a TileAssignment
  // can build its iota in place instead of copying ~500 bytes through
  // Result, fromIota and make_shared.
  void assignCanonical(std::span<const int64_t> dims, std::span<const int64_t> reshape,
                       std::span<const int> perm);
  // `[dims]<=[n]` into `*this` (freshly default-constructed), for valid
  // dims with product n: what assignCanonical makes of reshape [n], perm
  // [0] (canonicalizeIota leaves a one-entry reshape as it is). Inline, as
  // it is a few stores (docs/performance.md, fifth pass).
  void assignPlain(std::span<const int64_t> dims, int64_t n) {
    ndims_ = dims.size();
    if (dims.size() <= kInlineDims) {
      for (size_t i = 0; i < dims.size(); ++i) inlineDims_[i] = dims[i];
    } else {
      heapDims_.assign(dims.begin(), dims.end());
    }
    numElements_ = n;
    reshape_[0] = n;
    perm_[0] = 0;
    reshapeRank_ = 1;
  }

  // Tile dims: inline up to kInlineDims (the common case), else on the heap.
  static constexpr size_t kInlineDims = 8;
  // Only the first ndims_ (inline case) and reshapeRank_ entries are set.
  std::array<int64_t, kInlineDims> inlineDims_;
  std::vector<int64_t> heapDims_;
  size_t ndims_ = 0;
  std::array<int64_t, kMaxReshapeRank> reshape_;
  std::array<int, kMaxReshapeRank> perm_;
  size_t reshapeRank_ = 0;
  int64_t numElements_ = 0;
};

// An iota or an explicit device array with its dimensions. Immutable; copies
// are cheap (an explicit or materialised array is shared).
class TileAssignment {
 public:
  // The empty array of replicated/manual/unknown/unreduced shardings: rank 1,
  // size 0 (XLA's default TileAssignment).
  TileAssignment();

  // `[dims]<=[prod(dims)]`; see IotaTileAssignment::create for rejections.
  static Result<TileAssignment> iota(std::span<const int64_t> dims);
  // Canonicalised `[dims]<=[reshapeDims]T(transposePerm)`.
  static Result<TileAssignment> iota(std::span<const int64_t> dims,
                                     std::span<const int64_t> reshapeDims,
                                     std::span<const int> transposePerm);
  static TileAssignment fromIota(IotaTileAssignment iota);
  // An explicit row-major device array. Rejects empty dims, dims < 1, a
  // product above kMaxDevices and a device count differing from the product.
  // Device ids are not checked (that is HloSharding::validate's business).
  //   fromDevices({2, 2}, {3, 2, 1, 0})->toString() == "devices=[2,2]3,2,1,0"
  static Result<TileAssignment> fromDevices(std::span<const int64_t> dims,
                                            std::vector<int64_t> devices);
  // The rank-1 array `[1]` holding `device` (single-device shardings).
  static TileAssignment singleDevice(int64_t device);

  bool isIota() const;
  const std::optional<IotaTileAssignment>& iotaForm() const;

  std::span<const int64_t> dimensions() const;
  int64_t numDimensions() const { return static_cast<int64_t>(dimensions().size()); }
  int64_t dim(int64_t i) const { return dimensions()[static_cast<size_t>(i)]; }
  int64_t numElements() const;

  // The device at `index` (in range: caller's contract).
  int64_t valueAt(std::span<const int64_t> index) const;
  // The device at row-major position `flat` (in range: caller's contract).
  int64_t valueAtFlat(int64_t flat) const;
  // Element 0 of an explicit array; 0 for an iota (XLA's first()).
  int64_t first() const;

  // The row-major device list; materialises an iota on first use. Fails when
  // that would exceed kMaxMaterializedDevices.
  Result<std::span<const int64_t>> devices() const;
  // Whether a device list exists in memory (always for explicit arrays).
  bool isMaterialized() const;

  // Same devices with new dimensions (an iota stays an iota, re-canonicalised).
  // Rejects a product different from numElements() and dims < 1.
  Result<TileAssignment> reshape(std::span<const int64_t> newDims) const;
  // Transposed by `perm` (a permutation of [0, numDimensions()), else an
  // error). Stays an iota where XLA's does; otherwise materialises.
  Result<TileAssignment> transpose(std::span<const int> perm) const;

  // XLA's UsesDevice: an iota uses [0, n) (and, as upstream, any negative id);
  // an explicit array uses what it lists.
  bool usesDevice(int64_t device) const;

  // "devices=[2,2]<=[4]" or "devices=[2,2]0,1,2,3".
  std::string toString() const;
  void print(std::string& out) const;

  // XLA's TileAssignment::operator==: two iotas compare their canonical
  // triples; otherwise dimensions and every value (without materialising
  // the iota side).
  friend bool operator==(const TileAssignment& a, const TileAssignment& b);

 private:
  // The iota or explicit array plus the lazily built device list; immutable
  // once built and shared by all copies (null for the default array).
  struct Impl;
  explicit TileAssignment(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  friend class HloSharding;
  // The canonical iota `[dims]<=[reshape]T(perm)` from validated parts (the
  // product of dims equals that of reshape, perm is a permutation), built in
  // place.
  static TileAssignment canonicalIota(std::span<const int64_t> dims,
                                      std::span<const int64_t> reshape,
                                      std::span<const int> perm);
  // `[dims]<=[n]` from valid dims (validDimsProduct(dims) == n), built in
  // place without the canonicalising pass.
  static TileAssignment plainIota(std::span<const int64_t> dims, int64_t n);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace shardbridge::hlo
