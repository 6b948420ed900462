// Tests for TileAssignment / IotaTileAssignment. Golden vectors come from
// upstream xla/hlo/ir/tile_assignment_test.cc (test names cited per row) and
// the canonicalisation / transpose examples of docs/upstream.md § Iota tile assignments.
#include "shardbridge/hlo/tile_assignment.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>
#include <string>
#include <vector>

namespace shardbridge::hlo {
namespace {

using I64s = std::vector<int64_t>;
using Ints = std::vector<int>;

std::string iotaText(const I64s& dims, const I64s& reshape, const Ints& perm) {
  auto r = IotaTileAssignment::create(dims, reshape, perm);
  if (!r.has_value()) return "error: " + r.error().message;
  return r->toString();
}

struct CanonRow {
  I64s dims, reshape;
  Ints perm;
  std::string expected;
};

TEST(IotaTileAssignmentTest, Canonicalization) {
  const CanonRow rows[] = {
      // IotaTileAssignmentTest.Create
      {{2, 6}, {3, 4}, {0, 1}, "[2,6]<=[12]"},
      {{1, 3, 1, 4, 1, 5}, {1, 3, 1, 4, 1, 5}, {4, 3, 2, 5, 1, 0}, "[1,3,1,4,1,5]<=[3,20]T(1,0)"},
      {{2, 3, 4}, {2, 3, 4}, {0, 1, 2}, "[2,3,4]<=[24]"},
      {{2, 3, 4}, {2, 3, 4}, {1, 0, 2}, "[2,3,4]<=[2,3,4]T(1,0,2)"},
      // IotaTileAssignmentTest.ToString
      {{3, 4, 5}, {3, 4, 5}, {2, 0, 1}, "[3,4,5]<=[12,5]T(1,0)"},
      // Facts, section c
      {{60}, {3, 4, 5}, {1, 2, 0}, "[60]<=[3,20]T(1,0)"},
      {{60}, {3, 4, 5}, {2, 1, 0}, "[60]<=[3,4,5]T(2,1,0)"},
      {{60}, {3, 4, 5}, {1, 0, 2}, "[60]<=[3,4,5]T(1,0,2)"},
      {{4}, {2, 2}, {0, 1}, "[4]<=[4]"},
      {{1}, {1, 1}, {1, 0}, "[1]<=[1]"},
      {{60}, {3, 4, 5}, {0, 1, 2}, "[60]<=[60]"},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(iotaText(row.dims, row.reshape, row.perm), row.expected);
  }
}

TEST(IotaTileAssignmentTest, CreateErrors) {
  struct Row {
    I64s dims, reshape;
    Ints perm;
    std::string message;
  } rows[] = {
      {{}, {1}, {0}, "tile assignment dimensions must not be empty"},
      {{2, 0}, {2}, {0}, "tile assignment dimensions must be positive, got 0"},
      {{4}, {2, 2}, {0}, "iota_transpose_perm should have the same rank as iota_reshape_dims : "
                         "expected 2, saw 1."},
      {{4}, {2, 2}, {0, 0}, "iota transpose T(0,0) is not a permutation of the 2 reshape dimensions"},
      {{4}, {2, 2}, {0, 2}, "iota transpose T(0,2) is not a permutation of the 2 reshape dimensions"},
      {{4}, {2, 3}, {0, 1},
       "iota reshape dimensions [2,3] hold 6 devices but the tile assignment dimensions [4] hold 4"},
      {{1000000000, 1000000000}, {1000000000000000000}, {0},
       "tile assignment dimensions [1000000000,1000000000] describe more than 2^31 devices"},
      {{3037000500, 3037000500}, {1}, {0},
       "tile assignment dimensions [3037000500,3037000500] describe more than 2^31 devices"},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(iotaText(row.dims, row.reshape, row.perm), "error: " + row.message);
  }
}

TEST(IotaTileAssignmentTest, ValueAt) {
  // IotaTileAssignmentTest.ValueAt
  auto a = IotaTileAssignment::create(I64s{2, 3}).value();
  EXPECT_EQ(a.valueAt(I64s{0, 0}), 0);
  EXPECT_EQ(a.valueAt(I64s{0, 1}), 1);
  EXPECT_EQ(a.valueAt(I64s{1, 0}), 3);
  EXPECT_EQ(a.valueAt(I64s{1, 2}), 5);
  auto b = IotaTileAssignment::create(I64s{3, 2}, I64s{2, 3}, Ints{1, 0}).value();
  EXPECT_EQ(b.valueAt(I64s{0, 0}), 0);
  EXPECT_EQ(b.valueAt(I64s{0, 1}), 3);
  EXPECT_EQ(b.valueAt(I64s{1, 0}), 1);
  EXPECT_EQ(b.valueAt(I64s{2, 1}), 5);
}

TEST(IotaTileAssignmentTest, Materialize) {
  // IotaTileAssignmentTest.ToArray
  I64s out;
  IotaTileAssignment::create(I64s{3, 2}, I64s{2, 3}, Ints{1, 0}).value().materialize(out);
  EXPECT_EQ(out, (I64s{0, 3, 1, 4, 2, 5}));
}

struct TransposeRow {
  std::string input;  // as built below
  I64s dims, reshape;
  Ints perm, by;
  std::string expected;
};

TEST(IotaTileAssignmentTest, Transpose) {
  const TransposeRow rows[] = {
      // IotaTileAssignmentTest.Transpose
      {"noop", {2, 3}, {6}, {0}, {0, 1}, "[2,3]<=[6]"},
      {"reshape", {2, 1, 3}, {6}, {0}, {0, 2, 1}, "[2,3,1]<=[6]"},
      {"regular", {2, 3}, {2, 3}, {0, 1}, {1, 0}, "[3,2]<=[2,3]T(1,0)"},
      // Facts, section c (from upstream's regrouping test cases)
      {"regroup", {4, 5, 24}, {15, 4, 8}, {1, 0, 2}, {0, 2, 1}, "[4,24,5]<=[5,3,4,8]T(2,1,3,0)"},
      {"split", {4, 4, 2}, {32}, {0}, {2, 0, 1}, "[2,4,4]<=[16,2]T(1,0)"},
  };
  for (const auto& row : rows) {
    auto iota = IotaTileAssignment::create(row.dims, row.reshape, row.perm).value();
    auto t = iota.transpose(row.by);
    ASSERT_TRUE(t.has_value()) << row.input;
    EXPECT_EQ(t->toString(), row.expected) << row.input;
  }
  // [2,3]<=[2,3]T(1,0) transposed cannot be regrouped as an iota: the
  // TileAssignment falls back to an explicit array.
  auto ta = TileAssignment::iota(I64s{6, 1}, I64s{2, 3}, Ints{1, 0}).value();
  auto tr = ta.reshape(I64s{2, 3}).value().transpose(Ints{1, 0}).value();
  EXPECT_EQ(tr.toString(), "devices=[3,2]0,4,3,2,1,5");
}

TEST(TileAssignmentTest, FromIotaAndArray) {
  // TileAssignmentTest.FromIota / FromArray
  auto iota = TileAssignment::iota(I64s{2, 3}).value();
  EXPECT_EQ(iota.toString(), "devices=[2,3]<=[6]");
  EXPECT_EQ(iota.numElements(), 6);
  EXPECT_EQ(iota.valueAt(I64s{1, 1}), 4);
  auto array = TileAssignment::fromDevices(I64s{2, 2}, {0, 1, 2, 3}).value();
  EXPECT_EQ(array.toString(), "devices=[2,2]0,1,2,3");
  EXPECT_EQ(array.valueAt(I64s{1, 1}), 3);
  EXPECT_EQ(TileAssignment().numElements(), 0);
  EXPECT_EQ(TileAssignment::singleDevice(-3).first(), -3);
}

TEST(TileAssignmentTest, FromDevicesErrors) {
  EXPECT_EQ(TileAssignment::fromDevices(I64s{2, 2}, {0, 1, 2}).error().message,
            "tile assignment dimensions [2,2] hold 4 devices but 3 were given");
  EXPECT_EQ(TileAssignment::fromDevices(I64s{-1}, {0}).error().message,
            "tile assignment dimensions must be positive, got -1");
}

TEST(TileAssignmentTest, Equality) {
  // TileAssignmentTest.Equality
  auto ta1 = TileAssignment::iota(I64s{2, 3}).value();
  auto ta3 = TileAssignment::iota(I64s{3, 2}).value();
  EXPECT_EQ(ta1, TileAssignment::iota(I64s{2, 3}).value());
  EXPECT_NE(ta1, ta3);
  auto ta4 = TileAssignment::fromDevices(I64s{2, 2}, {0, 1, 2, 3}).value();
  auto ta6 = TileAssignment::fromDevices(I64s{2, 2}, {0, 1, 2, 4}).value();
  EXPECT_EQ(ta4, TileAssignment::fromDevices(I64s{2, 2}, {0, 1, 2, 3}).value());
  EXPECT_NE(ta4, ta6);
  auto ta7 = TileAssignment::fromDevices(I64s{2, 3}, {0, 1, 2, 3, 4, 5}).value();
  EXPECT_EQ(ta1, ta7);
  EXPECT_FALSE(ta1.isMaterialized());  // compared without materialising
  // Dims matter (docs/upstream.md § Iota tile assignments).
  EXPECT_NE(TileAssignment::iota(I64s{4}).value(), TileAssignment::iota(I64s{2, 2}).value());
  // Issue 3: {devices=[2,2]0,2,1,3} == {devices=[2,2]<=[2,2]T(1,0)}.
  EXPECT_EQ(TileAssignment::fromDevices(I64s{2, 2}, {0, 2, 1, 3}).value(),
            TileAssignment::iota(I64s{2, 2}, I64s{2, 2}, Ints{1, 0}).value());
}

TEST(TileAssignmentTest, ReshapeTranspose) {
  // TileAssignmentTest.Reshape / Transpose
  auto r = TileAssignment::iota(I64s{2, 6}).value().reshape(I64s{3, 4}).value();
  EXPECT_EQ(r.valueAt(I64s{1, 1}), 5);
  auto r2 = TileAssignment::fromDevices(I64s{3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
                .value()
                .reshape(I64s{6, 2})
                .value();
  EXPECT_EQ(r2.valueAt(I64s{1, 1}), 3);
  auto t = TileAssignment::iota(I64s{2, 3}).value().transpose(Ints{1, 0}).value();
  EXPECT_EQ(t.toString(), "devices=[3,2]<=[2,3]T(1,0)");
  EXPECT_EQ(t.valueAt(I64s{1, 0}), 1);
  auto t2 = TileAssignment::fromDevices(I64s{2, 2}, {0, 1, 2, 3}).value().transpose(Ints{1, 0});
  EXPECT_EQ(t2->toString(), "devices=[2,2]0,2,1,3");
  EXPECT_EQ(TileAssignment::iota(I64s{4}).value().reshape(I64s{3}).error().message,
            "cannot reshape 4 devices to [3]");
  EXPECT_EQ(TileAssignment::iota(I64s{2, 2}).value().transpose(Ints{0, 0}).error().message,
            "transpose permutation is not a permutation of the 2 tile assignment dimensions");
}

TEST(TileAssignmentTest, UsesDevice) {
  // TileAssignmentTest.UsesDevice
  auto ta = TileAssignment::iota(I64s{2, 3}).value();
  EXPECT_TRUE(ta.usesDevice(0));
  EXPECT_TRUE(ta.usesDevice(5));
  EXPECT_FALSE(ta.usesDevice(6));
  auto ta2 = TileAssignment::fromDevices(I64s{2, 2}, {1, 2, 3, 4}).value();
  EXPECT_TRUE(ta2.usesDevice(1));
  EXPECT_FALSE(ta2.usesDevice(0));
}

TEST(TileAssignmentTest, LazyMaterialization) {
  // 2^20 devices: nothing is allocated until devices() is called.
  auto ta = TileAssignment::iota(I64s{1024, 1024}, I64s{1024, 1024}, Ints{1, 0}).value();
  EXPECT_FALSE(ta.isMaterialized());
  EXPECT_EQ(ta.valueAt(I64s{3, 5}), 5 * 1024 + 3);
  EXPECT_EQ(ta.toString(), "devices=[1024,1024]<=[1024,1024]T(1,0)");
  auto copy = ta;
  EXPECT_FALSE(ta.isMaterialized());
  auto list = ta.devices().value();
  EXPECT_EQ(list.size(), size_t{1} << 20);
  EXPECT_EQ(list[1], 1024);
  EXPECT_TRUE(copy.isMaterialized());  // copies share the list
  // Above the materialisation limit: an error, not an allocation.
  auto huge = TileAssignment::iota(I64s{int64_t{1} << 31}).value();
  EXPECT_EQ(huge.devices().error().message,
            "refusing to materialise 2147483648 device ids (limit 16777216): "
            "devices=[2147483648]<=[2147483648]");
}

// A random permutation of [0, n) (Fisher-Yates driven by RapidCheck).
Ints genPerm(size_t n) {
  Ints perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = n; i > 1; --i) {
    const size_t j = *rc::gen::inRange<size_t>(0, i);
    std::swap(perm[i - 1], perm[j]);
  }
  return perm;
}

// Generates a random iota: dims and an arbitrary factorisation of the same
// device count into reshape dims, with a random perm.
struct RandomIota {
  I64s dims, reshape;
  Ints perm;
};

rc::Gen<RandomIota> genIota() {
  return rc::gen::exec([] {
    const auto factors = *rc::gen::container<I64s>(*rc::gen::inRange<size_t>(1, 5),
                                                   rc::gen::element<int64_t>(1, 2, 2, 3, 4, 5));
    // Group the factors into dims (in order) and, shuffled, into reshape dims.
    auto group = [](const I64s& f, int parts) {
      I64s out(static_cast<size_t>(parts), 1);
      for (size_t i = 0; i < f.size(); ++i) out[i % static_cast<size_t>(parts)] *= f[i];
      return out;
    };
    RandomIota r;
    r.dims = group(factors, *rc::gen::inRange(1, 4));
    const auto shuffled = *rc::gen::arbitrary<std::vector<bool>>();
    I64s f2 = factors;
    if (!shuffled.empty() && shuffled[0]) std::reverse(f2.begin(), f2.end());
    r.reshape = group(f2, *rc::gen::inRange(1, 4));
    r.perm = genPerm(r.reshape.size());
    return r;
  });
}

// Row-major transpose reference.
I64s referenceTranspose(const I64s& values, const I64s& dims, const Ints& perm) {
  I64s newDims(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) newDims[i] = dims[static_cast<size_t>(perm[i])];
  I64s out(values.size());
  I64s idx(dims.size(), 0);
  for (size_t flat = 0; flat < out.size(); ++flat) {
    I64s src(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) src[static_cast<size_t>(perm[i])] = idx[i];
    int64_t s = 0;
    for (size_t i = 0; i < dims.size(); ++i) s = s * dims[i] + src[i];
    out[flat] = values[static_cast<size_t>(s)];
    for (size_t k = dims.size(); k-- > 0;) {
      if (++idx[k] < newDims[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

RC_GTEST_PROP(TileAssignmentProps, ValueAtMatchesMaterialized, ()) {
  const auto r = *genIota();
  auto ta = TileAssignment::iota(r.dims, r.reshape, r.perm);
  RC_ASSERT(ta.has_value());
  const I64s list(ta->devices().value().begin(), ta->devices().value().end());
  for (size_t i = 0; i < list.size(); ++i) {
    RC_ASSERT(ta->valueAtFlat(static_cast<int64_t>(i)) == list[i]);
  }
  // The canonical form means the same array as the raw triple.
  I64s sorted = list;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) RC_ASSERT(sorted[i] == static_cast<int64_t>(i));
  // An iota equals its materialised explicit form, both ways.
  auto explicitForm = TileAssignment::fromDevices(r.dims, list).value();
  RC_ASSERT(explicitForm == *ta);
  RC_ASSERT(*ta == explicitForm);
}

RC_GTEST_PROP(TileAssignmentProps, TransposeMatchesReference, ()) {
  const auto r = *genIota();
  auto ta = TileAssignment::iota(r.dims, r.reshape, r.perm).value();
  const Ints perm = genPerm(r.dims.size());
  const I64s list(ta.devices().value().begin(), ta.devices().value().end());
  auto t = ta.transpose(perm).value();
  const I64s got(t.devices().value().begin(), t.devices().value().end());
  RC_ASSERT(got == referenceTranspose(list, r.dims, perm));
}

}  // namespace
}  // namespace shardbridge::hlo
