// IotaTileAssignment's construction: the checks of create, the
// canonicalisation, the iota transpose and materialisation. They follow the
// observable behaviour of XLA's xla/hlo/ir/tile_assignment.cc
// (CanonicalizeIotaDims, Transpose). Its lookups, comparison and printing
// stay in tile_assignment.cc beside TileAssignment's, which call them on
// hot paths (docs/performance.md).
#include "shardbridge/hlo/tile_assignment.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "tile_assignment_detail.h"

namespace shardbridge::hlo {

using namespace detail;

namespace {

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

}  // namespace

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
    return invalidError("iota_transpose_perm should have the same rank as iota_reshape_dims : expected " +
                   std::to_string(reshapeDims.size()) + ", saw " +
                   std::to_string(transposePerm.size()) + ".");
  }
  if (!isPermutation(transposePerm, reshapeDims.size())) {
    std::string perm;
    for (size_t i = 0; i < transposePerm.size(); ++i) {
      if (i) perm += ',';
      perm += std::to_string(transposePerm[i]);
    }
    return invalidError("iota transpose T(" + perm + ") is not a permutation of the " +
                   std::to_string(reshapeDims.size()) + " reshape dimensions");
  }
  if (n != r) {
    return invalidError("iota reshape dimensions [" + joinInts(reshapeDims) + "] hold " +
                   std::to_string(r) + " devices but the tile assignment dimensions [" +
                   joinInts(dims) + "] hold " + std::to_string(n));
  }
  return okStatus();
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

}  // namespace shardbridge::hlo
