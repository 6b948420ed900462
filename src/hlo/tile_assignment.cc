// TileAssignment, iota or explicit, and the lookups, comparison and printing
// of IotaTileAssignment that TileAssignment's call on hot paths.
// IotaTileAssignment's construction, canonicalisation, transpose and
// materialisation are in iota_tile_assignment.cc.
#include "shardbridge/hlo/tile_assignment.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <mutex>
#include <numeric>
#include <utility>

#include "tile_assignment_detail.h"

namespace shardbridge::hlo {

using namespace detail;

namespace {

// Row-major transpose of `in` (shape `dims`) by `perm` into a new array.
std::vector<int64_t> transposeArray(std::span<const int64_t> in, std::span<const int64_t> dims,
                                    std::span<const int> perm) {
  const size_t rank = dims.size();
  std::vector<int64_t> oldStrides(rank, 1);
  for (size_t i = rank; i-- > 1;) oldStrides[i - 1] = oldStrides[i] * dims[i];
  std::vector<int64_t> newDims(rank), strides(rank);
  for (size_t i = 0; i < rank; ++i) {
    newDims[i] = dims[static_cast<size_t>(perm[i])];
    strides[i] = oldStrides[static_cast<size_t>(perm[i])];
  }
  std::vector<int64_t> out(in.size());
  std::vector<int64_t> index(rank, 0);
  int64_t src = 0;
  for (size_t flat = 0; flat < out.size(); ++flat) {
    out[flat] = in[static_cast<size_t>(src)];
    // Advance the odometer over the new shape, keeping `src` in step.
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < newDims[k]) {
        src += strides[k];
        break;
      }
      src -= strides[k] * (newDims[k] - 1);
      index[k] = 0;
    }
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// IotaTileAssignment

bool operator==(const IotaTileAssignment& a, const IotaTileAssignment& b) {
  // Sizes first: unequal iotas usually differ there, and equal ones then
  // compare three short arrays.
  if (a.ndims_ != b.ndims_ || a.reshapeRank_ != b.reshapeRank_ ||
      a.numElements_ != b.numElements_) {
    return false;
  }
  // Plain loops: the arrays are a few entries long, shorter than a memcmp
  // call's setup.
  const auto ad = a.dims(), bd = b.dims();
  for (size_t i = 0; i < ad.size(); ++i) {
    if (ad[i] != bd[i]) return false;
  }
  for (size_t i = 0; i < a.reshapeRank_; ++i) {
    if (a.reshape_[i] != b.reshape_[i] || a.perm_[i] != b.perm_[i]) return false;
  }
  return true;
}

int64_t IotaTileAssignment::valueAt(std::span<const int64_t> index) const {
  int64_t flat = 0;
  const auto dims = this->dims();
  for (size_t i = 0; i < dims.size(); ++i) flat = flat * dims[i] + index[i];
  return valueAtFlat(flat);
}

int64_t IotaTileAssignment::valueAtFlat(int64_t flat) const {
  // De-linearise over the transposed reshape shape (minor dim last), which
  // gives each reshape dim's coordinate, then linearise over the reshape.
  const size_t r = reshapeRank_;
  int64_t coords[64];
  std::vector<int64_t> heap;
  int64_t* c = coords;
  if (r > 64) {
    heap.resize(r);
    c = heap.data();
  }
  for (size_t i = r; i-- > 0;) {
    const size_t d = static_cast<size_t>(perm_[i]);
    c[d] = flat % reshape_[d];
    flat /= reshape_[d];
  }
  int64_t value = 0;
  for (size_t i = 0; i < r; ++i) value = value * reshape_[i] + c[i];
  return value;
}

void IotaTileAssignment::printArray(std::string& out) const {
  const auto reshape = reshapeDims();
  const auto tperm = transposePerm();
  out += '[';
  appendInts(out, reshape);
  out += ']';
  if (reshape.size() > 1) {
    out += "T(";
    for (size_t i = 0; i < tperm.size(); ++i) {
      if (i) out += ',';
      // Perm entries are < kMaxReshapeRank (32): at most two digits.
      if (tperm[i] >= 10) out += static_cast<char>('0' + tperm[i] / 10);
      out += static_cast<char>('0' + tperm[i] % 10);
    }
    out += ')';
  }
}

void IotaTileAssignment::print(std::string& out) const {
  out += '[';
  appendInts(out, dims());
  out += "]<=";
  printArray(out);
}

std::string IotaTileAssignment::toString() const {
  std::string out;
  print(out);
  return out;
}

// ---------------------------------------------------------------------------
// TileAssignment

// One immutable tile assignment. `devices` is filled at construction for an
// explicit array and on first request for an iota; the once_flag makes a
// concurrent first materialisation safe.
// An iota's list lives in `iotaDevices`, allocated without the zero fill a
// std::vector would do first (the fill writes every element anyway).
struct TileAssignment::Impl {
  // User-provided, so make_shared does not zero the ~570 bytes first (value
  // initialisation of a class without one does); every member has its own
  // initialiser.
  Impl() {}
  std::optional<IotaTileAssignment> iota;
  std::vector<int64_t> dims;  // explicit arrays only
  std::vector<int64_t> devices;  // explicit arrays only
  mutable std::unique_ptr<int64_t[]> iotaDevices;
  mutable std::once_flag once;
  mutable std::atomic<bool> materialized{false};

  // The device list: the explicit one, or an iota's once materialised.
  std::span<const int64_t> list() const {
    if (!iota) return devices;
    return {iotaDevices.get(), static_cast<size_t>(iota->numElements())};
  }
};

namespace {
const std::optional<IotaTileAssignment> kNoIota;
const int64_t kEmptyDims[1] = {0};
}  // namespace

TileAssignment::TileAssignment() = default;

TileAssignment TileAssignment::fromIota(IotaTileAssignment iota) {
  auto impl = std::make_shared<Impl>();
  impl->iota = std::move(iota);
  return TileAssignment(std::move(impl));
}

Result<TileAssignment> TileAssignment::iota(std::span<const int64_t> dims) {
  int64_t n = validDimsProduct(dims);
  if (n < 0) {
    SB_ASSIGN_OR_RETURN(n, checkedDimsProduct(dims, "tile assignment dimensions"));
  }
  // `[dims]<=[n]` is canonical as it stands (docs/performance.md, fifth pass).
  return plainIota(dims, n);
}

TileAssignment TileAssignment::plainIota(std::span<const int64_t> dims, int64_t n) {
  auto impl = std::make_shared<Impl>();
  impl->iota.emplace(IotaTileAssignment::InPlaceTag(), dims, n);
  return TileAssignment(std::move(impl));
}

TileAssignment TileAssignment::canonicalIota(std::span<const int64_t> dims,
                                             std::span<const int64_t> reshape,
                                             std::span<const int> perm) {
  auto impl = std::make_shared<Impl>();
  impl->iota.emplace(IotaTileAssignment::InPlaceTag(), dims, reshape, perm);
  return TileAssignment(std::move(impl));
}

Result<TileAssignment> TileAssignment::iota(std::span<const int64_t> dims,
                                            std::span<const int64_t> reshapeDims,
                                            std::span<const int> transposePerm) {
  // IotaTileAssignment::create's checks and messages, then built in place.
  SB_TRY(IotaTileAssignment::check(dims, reshapeDims, transposePerm));
  return canonicalIota(dims, reshapeDims, transposePerm);
}

Result<TileAssignment> TileAssignment::fromDevices(std::span<const int64_t> dims,
                                                   std::vector<int64_t> devices) {
  SB_ASSIGN_OR_RETURN(int64_t n, checkedDimsProduct(dims, "tile assignment dimensions"));
  if (n != static_cast<int64_t>(devices.size())) {
    return invalidError("tile assignment dimensions [" + joinInts(dims) + "] hold " +
                   std::to_string(n) + " devices but " + std::to_string(devices.size()) +
                   " were given");
  }
  auto impl = std::make_shared<Impl>();
  impl->dims.assign(dims.begin(), dims.end());
  impl->devices = std::move(devices);
  impl->materialized = true;
  return TileAssignment(std::move(impl));
}

TileAssignment TileAssignment::singleDevice(int64_t device) {
  auto impl = std::make_shared<Impl>();
  impl->dims = {1};
  impl->devices = {device};
  impl->materialized = true;
  return TileAssignment(std::move(impl));
}

bool TileAssignment::isIota() const { return impl_ && impl_->iota.has_value(); }

const std::optional<IotaTileAssignment>& TileAssignment::iotaForm() const {
  return impl_ ? impl_->iota : kNoIota;
}

std::span<const int64_t> TileAssignment::dimensions() const {
  if (!impl_) return kEmptyDims;
  if (impl_->iota) return impl_->iota->dims();
  return impl_->dims;
}

int64_t TileAssignment::numElements() const {
  if (!impl_) return 0;
  if (impl_->iota) return impl_->iota->numElements();
  return static_cast<int64_t>(impl_->devices.size());
}

int64_t TileAssignment::valueAt(std::span<const int64_t> index) const {
  if (impl_->iota) return impl_->iota->valueAt(index);
  int64_t flat = 0;
  for (size_t i = 0; i < index.size(); ++i) flat = flat * impl_->dims[i] + index[i];
  return impl_->devices[static_cast<size_t>(flat)];
}

int64_t TileAssignment::valueAtFlat(int64_t flat) const {
  if (impl_->iota) return impl_->iota->valueAtFlat(flat);
  return impl_->devices[static_cast<size_t>(flat)];
}

int64_t TileAssignment::first() const {
  if (!impl_ || impl_->iota || impl_->devices.empty()) return 0;
  return impl_->devices.front();
}

Result<std::span<const int64_t>> TileAssignment::devices() const {
  if (!impl_) return std::span<const int64_t>();
  if (!impl_->iota) return std::span<const int64_t>(impl_->devices);
  if (impl_->iota->numElements() > kMaxMaterializedDevices) {
    return makeError(ErrorCode::kUnsupported,
                     "refusing to materialise " + std::to_string(impl_->iota->numElements()) +
                         " device ids (limit " + std::to_string(kMaxMaterializedDevices) +
                         "): " + toString());
  }
  const Impl& impl = *impl_;
  std::call_once(impl.once, [&impl] {
    const size_t n = static_cast<size_t>(impl.iota->numElements());
    impl.iotaDevices.reset(new int64_t[n]);
    impl.iota->materialize(impl.iotaDevices.get());
    impl.materialized.store(true, std::memory_order_release);
  });
  return impl.list();
}

bool TileAssignment::isMaterialized() const {
  return !impl_ || impl_->materialized.load(std::memory_order_acquire);
}

Result<TileAssignment> TileAssignment::reshape(std::span<const int64_t> newDims) const {
  SB_ASSIGN_OR_RETURN(int64_t n, checkedDimsProduct(newDims, "tile assignment dimensions"));
  if (n != numElements()) {
    return invalidError("cannot reshape " + std::to_string(numElements()) + " devices to [" +
                   joinInts(newDims) + "]");
  }
  if (impl_->iota) {
    return canonicalIota(newDims, impl_->iota->reshapeDims(), impl_->iota->transposePerm());
  }
  return fromDevices(newDims, impl_->devices);
}

Result<TileAssignment> TileAssignment::transpose(std::span<const int> perm) const {
  const auto dims = dimensions();
  if (!isPermutation(perm, dims.size())) {
    return invalidError("transpose permutation is not a permutation of the " +
                   std::to_string(dims.size()) + " tile assignment dimensions");
  }
  const TransposeKind kind = transposeKind(dims, perm);
  if (kind == TransposeKind::kNoop) return *this;
  if (impl_->iota) {
    if (auto t = impl_->iota->transpose(perm)) return fromIota(std::move(*t));
  }
  SB_ASSIGN_OR_RETURN(auto values, devices());
  std::vector<int64_t> newDims(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) newDims[i] = dims[static_cast<size_t>(perm[i])];
  return fromDevices(newDims, transposeArray(values, dims, perm));
}

bool TileAssignment::usesDevice(int64_t device) const {
  if (!impl_) return false;
  if (impl_->iota) return device < impl_->iota->numElements();
  return std::find(impl_->devices.begin(), impl_->devices.end(), device) !=
         impl_->devices.end();
}

void TileAssignment::print(std::string& out) const {
  out += "devices=";
  if (impl_ && impl_->iota) {
    impl_->iota->print(out);
    return;
  }
  out += '[';
  appendInts(out, dimensions());
  out += ']';
  if (!impl_) return;
  const auto& devs = impl_->devices;
  // ~7 bytes per id: reserve once for long lists.
  out.reserve(out.size() + devs.size() * 7);
  appendInts(out, devs);
}

std::string TileAssignment::toString() const {
  std::string out;
  print(out);
  return out;
}

bool operator==(const TileAssignment& a, const TileAssignment& b) {
  if (a.impl_ == b.impl_) return true;
  if (a.isIota() && b.isIota()) return *a.impl_->iota == *b.impl_->iota;
  const auto da = a.dimensions();
  const auto db = b.dimensions();
  if (!std::equal(da.begin(), da.end(), db.begin(), db.end())) return false;
  if (!a.impl_ || !b.impl_) return a.numElements() == 0 && b.numElements() == 0;
  if (!a.isIota() && !b.isIota()) return a.impl_->devices == b.impl_->devices;
  // One iota, one explicit: compare value by value without materialising.
  const TileAssignment& iota = a.isIota() ? a : b;
  const TileAssignment& array = a.isIota() ? b : a;
  const auto& values = array.impl_->devices;
  if (iota.isMaterialized()) {
    const auto list = iota.impl_->list();
    return std::equal(list.begin(), list.end(), values.begin(), values.end());
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (iota.impl_->iota->valueAtFlat(static_cast<int64_t>(i)) != values[i]) return false;
  }
  return true;
}

}  // namespace shardbridge::hlo
