// Iota and explicit tile assignments. The canonicalisation and the iota
// transpose follow the observable behaviour of XLA's
// xla/hlo/ir/tile_assignment.cc (CanonicalizeIotaDims, Transpose).
#include "shardbridge/hlo/tile_assignment.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <mutex>
#include <numeric>
#include <utility>

#include "shardbridge/base/checked_math.h"

namespace shardbridge::hlo {

namespace {

Error invalid(std::string message) { return makeError(ErrorCode::kInvalid, std::move(message)); }

// Appends `values` joined by ',' (to_chars: no temporaries).
void appendInts(std::string& out, std::span<const int64_t> values) {
  char buf[24];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, values[i]);
    (void)ec;
    out.append(buf, end);
  }
}

std::string joinInts(std::span<const int64_t> values) {
  std::string out;
  appendInts(out, values);
  return out;
}

// The product of a valid dims list (non-empty, every entry >= 1, product <=
// kMaxDevices), or -1: the allocation-free test in front of the checks
// below, which build the messages.
int64_t validDimsProduct(std::span<const int64_t> dims) {
  if (dims.empty()) return -1;
  int64_t product = 1;
  for (int64_t d : dims) {
    // Both factors are <= 2^31, so the product cannot overflow.
    if (d < 1 || d > kMaxDevices) return -1;
    product *= d;
    if (product > kMaxDevices) return -1;
  }
  return product;
}

// Checks a dims list: non-empty, every entry >= 1, product <= kMaxDevices.
// Returns the product. `what` names the list in the message.
Result<int64_t> checkedDimsProduct(std::span<const int64_t> dims, const char* what) {
  if (const int64_t n = validDimsProduct(dims); n >= 0) return n;
  if (dims.empty()) return invalid(std::string(what) + " must not be empty");
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d < 1) {
      return invalid(std::string(what) + " must be positive, got " + std::to_string(d));
    }
    auto p = checkedMul(product, d);
    if (!p || *p > kMaxDevices) {
      return invalid(std::string(what) + " [" + joinInts(dims) +
                     "] describe more than 2^31 devices");
    }
    product = *p;
  }
  return product;
}

// Whether `perm` is a permutation of [0, n).
bool isPermutation(std::span<const int> perm, size_t n) {
  if (perm.size() != n) return false;
  if (n <= 64) {
    uint64_t seen = 0;
    for (int p : perm) {
      if (p < 0 || static_cast<size_t>(p) >= n || (seen >> p & 1)) return false;
      seen |= uint64_t{1} << p;
    }
    return true;
  }
  std::vector<bool> seen(n, false);
  for (int p : perm) {
    if (p < 0 || static_cast<size_t>(p) >= n || seen[static_cast<size_t>(p)]) return false;
    seen[static_cast<size_t>(p)] = true;
  }
  return true;
}

// Canonicalises an iota's reshape dims and perm in place: repeatedly drop
// size-1 reshape dims and fuse runs of perm entries that are consecutive and
// increasing (they keep the iota order, so one dim of their product says the
// same). An all-ones reshape ends as [1] with perm [0]. Mirrors XLA's
// CanonicalizeIotaDims, including leaving a 0- or 1-entry reshape alone.
void canonicalizeIota(int64_t* reshape, int* perm, size_t& n) {
  if (n <= 1) return;
  // Already canonical (the usual case: parsed or stored iotas are): no
  // size-1 dim and no perm entry that continues its predecessor's run.
  bool canonical = reshape[0] != 1;
  for (size_t i = 1; canonical && i < n; ++i) {
    canonical = reshape[i] != 1 && perm[i] != perm[i - 1] + 1;
  }
  if (canonical) return;
  int small[64];
  std::vector<int> big;
  int* oldToNew = small;
  if (n > 64) {
    big.resize(n);
    oldToNew = big.data();
  }
  while (true) {
    // Drop size-1 dims and renumber the perm (compacting in place).
    size_t kept = 0;
    for (size_t i = 0; i < n; ++i) oldToNew[i] = reshape[i] == 1 ? -1 : static_cast<int>(kept++);
    if (kept != n) {
      size_t r = 0, q = 0;
      for (size_t i = 0; i < n; ++i) {
        if (reshape[i] != 1) reshape[r++] = reshape[i];
        const int mapped = oldToNew[static_cast<size_t>(perm[i])];
        if (mapped >= 0) perm[q++] = mapped;
      }
      n = kept;
    }
    // Fuse runs perm[base], perm[base]+1, ... into the run's first dim.
    bool changed = false;
    for (size_t i = 1, base = 0; i < n; ++i) {
      const int baseDim = perm[base];
      const int dim = perm[i];
      if (baseDim + static_cast<int>(i - base) == dim) {
        reshape[static_cast<size_t>(baseDim)] *= reshape[static_cast<size_t>(dim)];
        reshape[static_cast<size_t>(dim)] = 1;
        changed = true;
      } else {
        base = i;
      }
    }
    if (!changed) break;
  }
  if (n == 0) {
    reshape[0] = 1;
    perm[0] = 0;
    n = 1;
  }
}

enum class TransposeKind { kNoop, kReshape, kTranspose };

// Classifies a transpose of an array with `dims` by `perm`: nothing moves,
// only size-1 dims move (the flat order is unchanged), or a real transpose.
TransposeKind transposeKind(std::span<const int64_t> dims, std::span<const int> perm) {
  TransposeKind kind = TransposeKind::kNoop;
  int prevNonOne = -1;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int d = perm[i];
    if (dims[static_cast<size_t>(d)] == 1) {
      if (static_cast<size_t>(d) != i && dims[i] != 1) kind = TransposeKind::kReshape;
      continue;
    }
    if (d <= prevNonOne) return TransposeKind::kTranspose;
    prevNonOne = d;
  }
  return kind;
}

// Splits `n` (>= 1) into its prime factors, ascending.
void appendPrimeFactors(int64_t n, std::vector<int64_t>& out) {
  while (n % 2 == 0) {
    out.push_back(2);
    n /= 2;
  }
  for (int64_t f = 3; f * f <= n; f += 2) {
    while (n % f == 0) {
      out.push_back(f);
      n /= f;
    }
  }
  if (n > 1) out.push_back(n);
}

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

IotaTileAssignment IotaTileAssignment::makeCanonical(std::span<const int64_t> dims,
                                                     std::span<const int64_t> reshape,
                                                     std::span<const int> perm) {
  IotaTileAssignment iota;
  iota.assignCanonical(dims, reshape, perm);
  return iota;
}

void IotaTileAssignment::assignCanonical(std::span<const int64_t> dims,
                                         std::span<const int64_t> reshape,
                                         std::span<const int> perm) {
  IotaTileAssignment& iota = *this;
  iota.ndims_ = dims.size();
  if (dims.size() <= kInlineDims) {
    // Plain loops: a few entries, shorter than a memmove call's setup.
    for (size_t i = 0; i < dims.size(); ++i) iota.inlineDims_[i] = dims[i];
  } else {
    iota.heapDims_.assign(dims.begin(), dims.end());
  }
  int64_t n = 1;
  for (int64_t d : dims) n *= d;  // validated by every caller
  iota.numElements_ = n;
  size_t rank = reshape.size();
  if (rank <= kMaxReshapeRank) {
    for (size_t i = 0; i < rank; ++i) {
      iota.reshape_[i] = reshape[i];
      iota.perm_[i] = perm[i];
    }
    canonicalizeIota(iota.reshape_.data(), iota.perm_.data(), rank);
  } else {
    // Only long lists of size-1 dims get here; they canonicalise to <= 31.
    std::vector<int64_t> r(reshape.begin(), reshape.end());
    std::vector<int> p(perm.begin(), perm.end());
    canonicalizeIota(r.data(), p.data(), rank);
    std::copy(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(rank), iota.reshape_.begin());
    std::copy(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(rank), iota.perm_.begin());
  }
  iota.reshapeRank_ = rank;
}

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

Result<IotaTileAssignment> IotaTileAssignment::create(std::span<const int64_t> dims) {
  SB_ASSIGN_OR_RETURN(int64_t n, checkedDimsProduct(dims, "tile assignment dimensions"));
  const int64_t reshape[1] = {n};
  const int perm[1] = {0};
  return makeCanonical(dims, reshape, perm);
}

Result<IotaTileAssignment> IotaTileAssignment::create(std::span<const int64_t> dims,
                                                      std::span<const int64_t> reshapeDims,
                                                      std::span<const int> transposePerm) {
  SB_TRY(check(dims, reshapeDims, transposePerm));
  return makeCanonical(dims, reshapeDims, transposePerm);
}

Status IotaTileAssignment::check(std::span<const int64_t> dims,
                                 std::span<const int64_t> reshapeDims,
                                 std::span<const int> transposePerm) {
  // The valid case without Result temporaries; any failure takes the path
  // below, which finds the first rule broken and says which.
  const int64_t product = validDimsProduct(dims);
  if (product >= 0 && validDimsProduct(reshapeDims) == product &&
      isPermutation(transposePerm, reshapeDims.size())) {
    return okStatus();
  }
  SB_ASSIGN_OR_RETURN(int64_t n, checkedDimsProduct(dims, "tile assignment dimensions"));
  SB_ASSIGN_OR_RETURN(int64_t r, checkedDimsProduct(reshapeDims, "iota reshape dimensions"));
  if (transposePerm.size() != reshapeDims.size()) {
    return invalid("iota_transpose_perm should have the same rank as iota_reshape_dims : expected " +
                   std::to_string(reshapeDims.size()) + ", saw " +
                   std::to_string(transposePerm.size()) + ".");
  }
  if (!isPermutation(transposePerm, reshapeDims.size())) {
    std::string perm;
    for (size_t i = 0; i < transposePerm.size(); ++i) {
      if (i) perm += ',';
      perm += std::to_string(transposePerm[i]);
    }
    return invalid("iota transpose T(" + perm + ") is not a permutation of the " +
                   std::to_string(reshapeDims.size()) + " reshape dimensions");
  }
  if (n != r) {
    return invalid("iota reshape dimensions [" + joinInts(reshapeDims) + "] hold " +
                   std::to_string(r) + " devices but the tile assignment dimensions [" +
                   joinInts(dims) + "] hold " + std::to_string(n));
  }
  return okStatus();
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

void IotaTileAssignment::materialize(std::vector<int64_t>& out) const {
  out.resize(static_cast<size_t>(numElements_));
  materialize(out.data());
}

void IotaTileAssignment::materialize(int64_t* out) const {
  const size_t n = static_cast<size_t>(numElements_);
  const size_t r = reshapeRank_;
  // A plain iota (one reshape dim; canonical form of every untransposed
  // one) is 0, 1, 2, ...: a sequential fill, which the compiler vectorises.
  if (r == 1) {
    std::iota(out, out + n, int64_t{0});
    return;
  }
  // Otherwise walk the transposed reshape shape in row-major order; each step
  // adds the stride of the reshape dim that moved. The innermost dim is a
  // run of values `step` apart, written without the odometer.

  std::vector<int64_t> strides(r, 1);
  for (size_t i = r; i-- > 1;) strides[i - 1] = strides[i] * reshape_[i];
  std::vector<int64_t> shape(r), step(r), index(r, 0);
  for (size_t i = 0; i < r; ++i) {
    shape[i] = reshape_[static_cast<size_t>(perm_[i])];
    step[i] = strides[static_cast<size_t>(perm_[i])];
  }
  const int64_t inner = shape[r - 1];
  const int64_t innerStep = step[r - 1];
  int64_t value = 0;
  for (size_t flat = 0; flat < n; flat += static_cast<size_t>(inner)) {
    int64_t* row = out + flat;
    for (int64_t j = 0; j < inner; ++j) row[j] = value + j * innerStep;
    // Advance the odometer over the outer dims.
    for (size_t k = r - 1; k-- > 0;) {
      if (++index[k] < shape[k]) {
        value += step[k];
        break;
      }
      value -= step[k] * (shape[k] - 1);
      index[k] = 0;
    }
  }
}

std::optional<IotaTileAssignment> IotaTileAssignment::transpose(std::span<const int> perm) const {
  const std::span<const int64_t> dims = this->dims();
  const std::span<const int64_t> reshape = reshapeDims();
  const std::span<const int> tperm = transposePerm();
  const TransposeKind kind = transposeKind(dims, perm);
  if (kind == TransposeKind::kNoop) return *this;
  std::vector<int64_t> newDims(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) newDims[i] = dims[static_cast<size_t>(perm[i])];
  if (kind == TransposeKind::kReshape) {
    // Only size-1 dims moved: the flat order, hence the iota, is unchanged.
    return makeCanonical(newDims, reshape, tperm);
  }
  if (reshape.size() == 1) {
    // A plain iota: its dims become the reshape and `perm` the transpose.
    return makeCanonical(newDims, std::vector<int64_t>(dims.begin(), dims.end()),
                         std::vector<int>(perm.begin(), perm.end()));
  }
  // If the non-1 dims are exactly the transposed reshape dims, compose perms.
  std::vector<int64_t> nonOneDims;
  std::vector<int> oneToNonOne(dims.size(), -1);
  bool pureTranspose = true;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    const size_t k = nonOneDims.size();
    if (k >= reshape.size() ||
        reshape[static_cast<size_t>(tperm[k])] != dims[i]) {
      pureTranspose = false;
    }
    oneToNonOne[i] = static_cast<int>(k);
    nonOneDims.push_back(dims[i]);
  }
  if (pureTranspose && nonOneDims.size() == reshape.size()) {
    std::vector<int> newPerm;
    for (size_t i = 0; i < dims.size(); ++i) {
      const size_t src = static_cast<size_t>(perm[i]);
      if (dims[src] == 1) continue;
      newPerm.push_back(tperm[static_cast<size_t>(oneToNonOne[src])]);
    }
    return makeCanonical(newDims, reshape, std::move(newPerm));
  }

  // General case: split every reshape dim into prime factors, then try to
  // regroup consecutive (in transposed order) factors so that each group
  // multiplies to one non-1 tile dim. A factor that does not divide the
  // current target may be swapped with a later factor of the same original
  // reshape dim (the factors of one dim can be listed in any order).
  std::vector<int64_t> factors;
  std::vector<size_t> firstFactor(reshape.size() + 1, 0);
  for (size_t i = 0; i < reshape.size(); ++i) {
    appendPrimeFactors(reshape[i], factors);
    firstFactor[i + 1] = factors.size();
  }
  std::vector<int> factorPerm;            // transposed order of factor dims
  std::vector<int> factorPosToOriginal;   // position in factorPerm -> reshape dim
  std::vector<std::vector<size_t>> originalToPositions(reshape.size());
  for (int original : tperm) {
    const size_t o = static_cast<size_t>(original);
    for (size_t j = firstFactor[o]; j < firstFactor[o + 1]; ++j) {
      factorPerm.push_back(static_cast<int>(j));
      factorPosToOriginal.push_back(original);
      originalToPositions[o].push_back(factorPerm.size() - 1);
    }
  }
  auto candidate = [&](int64_t target, size_t pos) -> std::optional<int> {
    const int dimIdx = factorPerm[pos];
    if (target % factors[static_cast<size_t>(dimIdx)] == 0) return dimIdx;
    const size_t original = static_cast<size_t>(factorPosToOriginal[pos]);
    for (size_t later : originalToPositions[original]) {
      if (later <= pos) continue;
      const int laterIdx = factorPerm[later];
      if (target % factors[static_cast<size_t>(laterIdx)] == 0) {
        std::swap(factors[static_cast<size_t>(dimIdx)], factors[static_cast<size_t>(laterIdx)]);
        return dimIdx;
      }
    }
    return std::nullopt;
  };
  std::vector<std::vector<int>> groups(nonOneDims.size());
  size_t pos = 0;
  for (size_t i = 0; i < nonOneDims.size() && pos < factors.size(); ++i) {
    int64_t target = nonOneDims[i];
    std::optional<int> next = candidate(target, pos);
    while (next) {
      target /= factors[static_cast<size_t>(*next)];
      groups[i].push_back(*next);
      if (++pos >= factors.size()) break;
      next = candidate(target, pos);
    }
    if (target != 1) return std::nullopt;  // XLA falls back to an array here
  }
  std::vector<int> newPerm;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int g = oneToNonOne[static_cast<size_t>(perm[i])];
    if (g < 0) continue;
    const auto& group = groups[static_cast<size_t>(g)];
    newPerm.insert(newPerm.end(), group.begin(), group.end());
  }
  if (newPerm.size() != factorPerm.size()) return std::nullopt;
  return makeCanonical(newDims, std::move(factors), std::move(newPerm));
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
  const int64_t reshape[1] = {n};
  const int perm[1] = {0};
  return canonicalIota(dims, reshape, perm);
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
    return invalid("tile assignment dimensions [" + joinInts(dims) + "] hold " +
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
    return invalid("cannot reshape " + std::to_string(numElements()) + " devices to [" +
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
    return invalid("transpose permutation is not a permutation of the " +
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
