#include "shardbridge/sdy/attrs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace shardbridge::sdy {
namespace {

// Reads a T stored at byte `offset` of an attribute's storage.
template <typename T>
T fieldAt(const void* storage, size_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char*>(storage) + offset, sizeof(T));
  return value;
}

class AttrsTest : public ::testing::Test {
 protected:
  MeshAxisAttr axis(const char* name, int64_t size) { return MeshAxisAttr::get(ctx_, name, size); }
  MeshAttr mesh(std::vector<MeshAxisAttr> axes, std::vector<int64_t> ids = {}) {
    return MeshAttr::get(ctx_, axes, ids);
  }
  AxisRefAttr full(const char* name) { return AxisRefAttr::get(ctx_, name); }
  AxisRefAttr sub(const char* name, int64_t pre, int64_t size) {
    return AxisRefAttr::get(ctx_, name, pre, size);
  }
  DimensionShardingAttr dim(std::vector<AxisRefAttr> axes, bool closed = true,
                            std::optional<int64_t> priority = std::nullopt) {
    return DimensionShardingAttr::get(ctx_, axes, closed, priority);
  }
  Context ctx_;
};

// ---------------------------------------------------------------------------
// Uniquing: equal inputs give the same pointer, any difference another one.

TEST_F(AttrsTest, MeshAxisUniquing) {
  EXPECT_EQ(axis("x", 4), axis("x", 4));
  EXPECT_NE(axis("x", 4), axis("x", 2));
  EXPECT_NE(axis("x", 4), axis("y", 4));
  EXPECT_NE(axis("x", 4), axis("xx", 4));
  EXPECT_EQ(MeshAxisAttr::get(ctx_, "", 1), MeshAxisAttr::get(ctx_, "", 1));
}

TEST_F(AttrsTest, StringsAreCopiedIntoTheContext) {
  std::string name = "abc";
  MeshAxisAttr a = MeshAxisAttr::get(ctx_, name, 3);
  AxisRefAttr r = AxisRefAttr::get(ctx_, name);
  MeshOrRef s = MeshOrRef::ref(ctx_, name);
  name[0] = 'z';
  EXPECT_EQ(a.name(), "abc");
  EXPECT_EQ(r.name(), "abc");
  EXPECT_EQ(s.refName(), "abc");
  EXPECT_EQ(a, MeshAxisAttr::get(ctx_, "abc", 3));
  EXPECT_NE(a, MeshAxisAttr::get(ctx_, name, 3));
}

TEST_F(AttrsTest, MeshUniquing) {
  MeshAxisAttr x = axis("x", 2), y = axis("y", 2);
  EXPECT_EQ(mesh({x, y}), mesh({x, y}));
  EXPECT_NE(mesh({x, y}), mesh({y, x}));
  EXPECT_NE(mesh({x}), mesh({x, y}));
  EXPECT_EQ(mesh({x, y}, {0, 2, 1, 3}), mesh({x, y}, {0, 2, 1, 3}));
  EXPECT_NE(mesh({x, y}, {0, 2, 1, 3}), mesh({x, y}, {1, 0, 3, 2}));
  EXPECT_NE(mesh({x, y}, {0, 2, 1, 3}), mesh({x, y}));
  EXPECT_EQ(mesh({}), mesh({}));
  EXPECT_EQ(mesh({}, {3}), mesh({}, {3}));
  EXPECT_NE(mesh({}, {3}), mesh({}, {4}));
  EXPECT_NE(mesh({}, {3}), mesh({}));
}

// MeshAttr::get drops device_ids only when the mesh has axes and the ids are
// exactly iota(product of sizes) (docs/upstream.md § Meshes, mesh_parse_print.mlir).
TEST_F(AttrsTest, MeshDropsIotaDeviceIds) {
  MeshAxisAttr a2 = axis("a", 2), b2 = axis("b", 2), a1 = axis("a", 1);
  const struct {
    std::vector<MeshAxisAttr> axes;
    std::vector<int64_t> ids;
    size_t keptIds;
  } rows[] = {
      {{a2, b2}, {0, 1, 2, 3}, 0},     // iota: dropped
      {{a1}, {0}, 0},                  // `<["a"=1], device_ids=[0]>` prints without ids
      {{a2, b2}, {0, 2, 1, 3}, 4},     // a permutation is kept
      {{a2, b2}, {0, 1}, 2},           // iota prefix of the wrong length is kept
      {{a2, b2}, {0, 1, 2, 3, 4}, 5},  // too long
      {{a2}, {1, 0}, 2},
      {{}, {0}, 1},                    // no axes: a maximal mesh keeps its id
      {{}, {0, 1}, 2},                 // no axes: kept for the verifier to reject
  };
  for (const auto& row : rows) {
    MeshAttr m = MeshAttr::get(ctx_, row.axes, row.ids);
    EXPECT_EQ(m.deviceIds().size(), row.keptIds);
    if (row.keptIds == 0) {
      EXPECT_EQ(m, MeshAttr::get(ctx_, row.axes));
    }
  }
  // Axis sizes whose product overflows: nothing is dropped, nothing aborts.
  MeshAxisAttr big = axis("big", int64_t{1} << 62);
  MeshAttr overflow = mesh({big, axis("c", 4)}, {0, 1});
  EXPECT_EQ(overflow.deviceIds().size(), 2u);
}

TEST_F(AttrsTest, SubAxisInfoUniquing) {
  auto s = [&](int64_t pre, int64_t size) { return SubAxisInfoAttr::get(ctx_, pre, size); };
  EXPECT_EQ(s(2, 4), s(2, 4));
  EXPECT_NE(s(2, 4), s(4, 2));
  EXPECT_NE(s(1, 2), s(1, 4));
  EXPECT_EQ(s(2, 4).preSize(), 2);
  EXPECT_EQ(s(2, 4).size(), 4);
  EXPECT_EQ(s(2, 4).nextPreSize(), 8);
  EXPECT_EQ(s(int64_t{1} << 40, int64_t{1} << 40).nextPreSize(),
            std::numeric_limits<int64_t>::max());
}

TEST_F(AttrsTest, AxisRefUniquing) {
  EXPECT_EQ(full("x"), full("x"));
  EXPECT_NE(full("x"), full("y"));
  EXPECT_EQ(sub("x", 2, 4), sub("x", 2, 4));
  EXPECT_EQ(sub("x", 2, 4), AxisRefAttr::get(ctx_, "x", SubAxisInfoAttr::get(ctx_, 2, 4)));
  EXPECT_NE(sub("x", 2, 4), sub("x", 4, 2));
  EXPECT_NE(sub("x", 2, 4), sub("y", 2, 4));
  EXPECT_NE(sub("x", 1, 4), full("x"));
  EXPECT_EQ(AxisRefAttr::get(ctx_, "x", SubAxisInfoAttr()), full("x"));
}

TEST_F(AttrsTest, DimensionShardingUniquing) {
  AxisRefAttr x = full("x"), y = full("y");
  EXPECT_EQ(dim({x, y}), dim({x, y}));
  EXPECT_NE(dim({x, y}), dim({y, x}));
  EXPECT_NE(dim({x}), dim({x, y}));
  EXPECT_NE(dim({x}, true), dim({x}, false));
  EXPECT_NE(dim({}, true), dim({}, false));
  // Priority: absent, engaged with 0, engaged with 1 are three attributes.
  EXPECT_NE(dim({x}, true, std::nullopt), dim({x}, true, 0));
  EXPECT_NE(dim({x}, true, 0), dim({x}, true, 1));
  EXPECT_EQ(dim({x}, true, 0), dim({x}, true, 0));
  EXPECT_EQ(dim({x}, false, 3), dim({x}, false, 3));
  EXPECT_EQ(dim({x}, true, 0).priority(), std::optional<int64_t>(0));
  EXPECT_EQ(dim({x}, true).priority(), std::nullopt);
  EXPECT_TRUE(dim({x}, false).isOpen());
  EXPECT_TRUE(dim({}, true).emptyAxes());
}

TEST_F(AttrsTest, MeshOrRefUniquing) {
  MeshAttr m = mesh({axis("x", 2)});
  EXPECT_EQ(MeshOrRef::ref(ctx_, "mesh"), MeshOrRef::ref(ctx_, "mesh"));
  EXPECT_FALSE(MeshOrRef::ref(ctx_, "mesh") == MeshOrRef::ref(ctx_, "mesh2"));
  EXPECT_EQ(MeshOrRef::inlineMesh(m), MeshOrRef::inlineMesh(mesh({axis("x", 2)})));
  EXPECT_FALSE(MeshOrRef::ref(ctx_, "mesh") == MeshOrRef::inlineMesh(m));
  EXPECT_TRUE(MeshOrRef::ref(ctx_, "m").isRef());
  EXPECT_EQ(MeshOrRef::ref(ctx_, "m").refName(), "m");
  EXPECT_TRUE(MeshOrRef::ref(ctx_, "m").inlineMeshAttr().isNull());
  EXPECT_TRUE(MeshOrRef::inlineMesh(m).isInline());
  EXPECT_EQ(MeshOrRef::inlineMesh(m).inlineMeshAttr(), m);
  EXPECT_EQ(MeshOrRef::inlineMesh(m).refName(), "");
  EXPECT_EQ(MeshOrRef::inlineMesh(MeshAttr()).impl(), nullptr);
}

TEST_F(AttrsTest, TensorShardingUniquing) {
  MeshOrRef ref = MeshOrRef::ref(ctx_, "mesh");
  MeshOrRef inl = MeshOrRef::inlineMesh(mesh({axis("x", 2), axis("y", 2)}));
  std::vector<DimensionShardingAttr> dims = {dim({full("x")}), dim({})};
  std::vector<AxisRefAttr> ys = {full("y")};
  auto ts = [&](MeshOrRef m, std::vector<DimensionShardingAttr> d, std::vector<AxisRefAttr> r,
                std::vector<AxisRefAttr> u, ReductionOp op = ReductionOp::kSum) {
    return TensorShardingAttr::get(ctx_, m, d, r, u, op);
  };
  EXPECT_EQ(ts(ref, dims, {}, {}), ts(ref, dims, {}, {}));
  EXPECT_EQ(ts(ref, dims, {}, {}), TensorShardingAttr::get(ctx_, ref, dims));
  EXPECT_NE(ts(ref, dims, {}, {}), ts(inl, dims, {}, {}));
  EXPECT_NE(ts(ref, dims, {}, {}), ts(MeshOrRef::ref(ctx_, "other"), dims, {}, {}));
  EXPECT_NE(ts(ref, dims, {}, {}), ts(ref, {dims[1], dims[0]}, {}, {}));
  EXPECT_NE(ts(ref, dims, ys, {}), ts(ref, dims, {}, ys));  // replicated vs unreduced
  EXPECT_NE(ts(ref, dims, ys, {}), ts(ref, dims, {}, {}));
  EXPECT_NE(ts(ref, dims, {}, ys, ReductionOp::kSum), ts(ref, dims, {}, ys, ReductionOp::kMax));
  EXPECT_NE(ts(ref, dims, {}, ys, ReductionOp::kMax), ts(ref, dims, {}, ys, ReductionOp::kMin));
  EXPECT_EQ(ts(ref, dims, {}, ys, ReductionOp::kMin), ts(ref, dims, {}, ys, ReductionOp::kMin));
  EXPECT_NE(ts(ref, {}, {}, {}), ts(ref, {dims[1]}, {}, {}));  // rank 0 vs rank 1
}

TEST_F(AttrsTest, TensorShardingPerValueUniquing) {
  MeshOrRef ref = MeshOrRef::ref(ctx_, "mesh");
  TensorShardingAttr a = TensorShardingAttr::getFullyClosed(ctx_, ref, 1);
  TensorShardingAttr b = TensorShardingAttr::getFullyOpen(ctx_, ref, 1);
  auto pv = [&](std::vector<TensorShardingAttr> s) {
    return TensorShardingPerValueAttr::get(ctx_, s);
  };
  EXPECT_EQ(pv({a, b}), pv({a, b}));
  EXPECT_NE(pv({a, b}), pv({b, a}));
  EXPECT_NE(pv({a}), pv({a, a}));
  EXPECT_EQ(pv({}), pv({}));
  EXPECT_EQ(pv({a, b}).shardings().size(), 2u);
}

TEST_F(AttrsTest, KindsNeverCollide) {
  // A symbol ref and an axis ref with the same name are different storage.
  MeshOrRef s = MeshOrRef::ref(ctx_, "x");
  AxisRefAttr r = full("x");
  EXPECT_NE(s.impl(), &r.impl()->header);
  EXPECT_EQ(s.impl()->kind, detail::AttrKind::kSymbolRef);
  EXPECT_EQ(r.impl()->header.kind, detail::AttrKind::kAxisRef);
}

// ---------------------------------------------------------------------------
// Accessors

TEST_F(AttrsTest, MeshAccessors) {
  MeshAttr empty = mesh({});
  MeshAttr maximal = mesh({}, {7});
  MeshAttr xy = mesh({axis("x", 4), axis("y", 2)});
  MeshAttr one = mesh({axis("a", 1)});
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty.isMaximal());
  EXPECT_EQ(empty.getMaximalDeviceId(), std::nullopt);
  EXPECT_EQ(empty.getTotalSize(), 1);

  EXPECT_FALSE(maximal.empty());
  EXPECT_TRUE(maximal.isMaximal());
  EXPECT_EQ(maximal.getMaximalDeviceId(), 7);
  EXPECT_EQ(maximal.getTotalSize(), 1);

  EXPECT_FALSE(xy.empty());
  EXPECT_FALSE(xy.isMaximal());
  EXPECT_EQ(xy.getMaximalDeviceId(), std::nullopt);
  EXPECT_EQ(xy.getTotalSize(), 8);
  EXPECT_EQ(xy.getAxisSize("x"), 4);
  EXPECT_EQ(xy.getAxisSize("y"), 2);
  EXPECT_EQ(xy.getAxisSize("z"), std::nullopt);
  EXPECT_EQ(xy.getAxisIndex("y"), 1u);
  EXPECT_TRUE(xy.hasAxis("x"));
  EXPECT_FALSE(xy.hasAxis("z"));

  // A mesh with axes is never maximal, even with total size 1 (docs/upstream.md § Meshes).
  EXPECT_FALSE(one.isMaximal());
  EXPECT_EQ(one.getTotalSize(), 1);

  MeshAttr overflow = mesh({axis("x", int64_t{1} << 32), axis("y", int64_t{1} << 31)});
  EXPECT_EQ(overflow.getTotalSize(), std::nullopt);
  MeshAttr justFits = mesh({axis("x", int64_t{1} << 31), axis("y", int64_t{1} << 31)});
  EXPECT_EQ(justFits.getTotalSize(), int64_t{1} << 62);
}

// Upstream MeshAttr::equals (dialect.cc): with ignoreDeviceIds, meshes are
// equal when they have the same axes and are both maximal or both not.
TEST_F(AttrsTest, MeshEquals) {
  MeshAxisAttr x = axis("x", 2), y = axis("y", 2);
  MeshAttr plain = mesh({x, y});
  MeshAttr permuted = mesh({x, y}, {3, 2, 1, 0});
  EXPECT_TRUE(plain.equals(plain));
  EXPECT_FALSE(plain.equals(permuted));
  EXPECT_TRUE(plain.equals(permuted, /*ignoreDeviceIds=*/true));
  EXPECT_FALSE(plain.equals(mesh({y, x}), true));
  EXPECT_TRUE(mesh({}, {1}).equals(mesh({}, {2}), true));
  EXPECT_FALSE(mesh({}, {1}).equals(mesh({}, {2})));
  // The empty mesh `<[]>` is not maximal, `<[], device_ids=[1]>` is.
  EXPECT_FALSE(mesh({}).equals(mesh({}, {1}), true));
  EXPECT_FALSE(mesh({}, {1}).equals(mesh({}), true));
  EXPECT_FALSE(plain.equals(MeshAttr(), true));
}

TEST_F(AttrsTest, AxisRefAccessors) {
  MeshAttr m = mesh({axis("x", 8)});
  const struct {
    AxisRefAttr ref;
    const char* text;
    std::optional<int64_t> size;
    int64_t pre;
    std::optional<int64_t> next;
  } rows[] = {
      {full("x"), "\"x\"", 8, 1, 8},
      {sub("x", 2, 2), "\"x\":(2)2", 2, 2, 4},
      {sub("x", 1, 4), "\"x\":(1)4", 4, 1, 4},
      {full("z"), "\"z\"", std::nullopt, 1, std::nullopt},
      {sub("z", 4, 2), "\"z\":(4)2", 2, 4, 8},
      {sub("x", 1, -3), "\"x\":(1)-3", -3, 1, -3},
      {AxisRefAttr::get(ctx_, "weird name"), "\"weird name\"", std::nullopt, 1, std::nullopt},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.text);
    EXPECT_EQ(row.ref.toString(), row.text);
    EXPECT_EQ(row.ref.getSize(m), row.size);
    EXPECT_EQ(row.ref.getSubAxisPreSize(), row.pre);
    EXPECT_EQ(row.ref.getNextPreSizeOrFullSize(m), row.next);
  }
  EXPECT_EQ(full("x").getSize(MeshAttr()), std::nullopt);
  EXPECT_FALSE(full("x").isSubAxis());
  EXPECT_TRUE(full("x").subAxisInfo().isNull());
  EXPECT_TRUE(sub("x", 2, 2).isSubAxis());
}

TEST_F(AttrsTest, DimensionShardingShardedSize) {
  // dialect_test.cc DimensionShardingAttrGetShardedSize: x=4, y=2, z=3.
  MeshAttr m = mesh({axis("x", 4), axis("y", 2), axis("z", 3)});
  EXPECT_EQ(dim({full("x"), full("y")}).getShardedSize(m), 8);
  EXPECT_EQ(dim({full("z")}).getShardedSize(m), 3);
  EXPECT_EQ(dim({}).getShardedSize(m), 1);
  EXPECT_EQ(dim({sub("x", 1, 2), full("z")}).getShardedSize(m), 6);
  EXPECT_EQ(dim({full("w")}).getShardedSize(m), std::nullopt);
  EXPECT_EQ(dim({sub("x", 1, int64_t{1} << 40), sub("y", 1, int64_t{1} << 40)}).getShardedSize(m),
            std::nullopt);
}

TEST_F(AttrsTest, TensorShardingAccessors) {
  MeshAttr m = mesh({axis("x", 2)});
  MeshOrRef ref = MeshOrRef::ref(ctx_, "mesh");
  TensorShardingAttr closed = TensorShardingAttr::getFullyClosed(ctx_, ref, 3);
  TensorShardingAttr open = TensorShardingAttr::getFullyOpen(ctx_, ref, 2);
  EXPECT_EQ(closed.rank(), 3);
  for (DimensionShardingAttr d : closed.dimShardings()) EXPECT_EQ(d, dim({}, true));
  for (DimensionShardingAttr d : open.dimShardings()) EXPECT_EQ(d, dim({}, false));
  EXPECT_TRUE(closed.isFullyReplicated());
  EXPECT_EQ(TensorShardingAttr::getFullyClosed(ctx_, ref, -1).rank(), 0);

  auto lookup = [&](std::string_view name) { return name == "mesh" ? m : MeshAttr(); };
  EXPECT_EQ(closed.getMesh(lookup), m);
  EXPECT_TRUE(closed.getMesh(nullptr).isNull());
  TensorShardingAttr other =
      TensorShardingAttr::getFullyClosed(ctx_, MeshOrRef::ref(ctx_, "no"), 1);
  EXPECT_TRUE(other.getMesh(lookup).isNull());
  TensorShardingAttr inl = TensorShardingAttr::getFullyClosed(ctx_, MeshOrRef::inlineMesh(m), 1);
  EXPECT_EQ(inl.getMesh(nullptr), m);

  std::vector<AxisRefAttr> xs = {full("x")};
  std::vector<DimensionShardingAttr> noDims;
  EXPECT_FALSE(TensorShardingAttr::get(ctx_, ref, noDims, xs).isFullyReplicated());
  EXPECT_FALSE(TensorShardingAttr::get(ctx_, ref, noDims, {}, xs).isFullyReplicated());
  std::vector<DimensionShardingAttr> sharded = {dim({full("x")})};
  EXPECT_FALSE(TensorShardingAttr::get(ctx_, ref, sharded).isFullyReplicated());
  EXPECT_EQ(TensorShardingAttr::get(ctx_, ref, noDims, {}, xs, ReductionOp::kMax).reductionOp(),
            ReductionOp::kMax);
}

TEST(ReductionOpNameTest, Names) {
  EXPECT_STREQ(reductionOpName(ReductionOp::kSum), "sum");
  EXPECT_STREQ(reductionOpName(ReductionOp::kMax), "max");
  EXPECT_STREQ(reductionOpName(ReductionOp::kMin), "min");
}

// ---------------------------------------------------------------------------
// Layout (attr_storage.h, docs/upstream.md § Attribute storage layout): every documented field read at
// its raw offset equals what the accessor returns.

TEST_F(AttrsTest, LayoutMeshAxis) {
  MeshAxisAttr a = axis("axis", 6);
  const void* p = a.impl();
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x00), static_cast<uint32_t>(detail::AttrKind::kMeshAxis));
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x04), a.impl()->header.hash);
  EXPECT_EQ(fieldAt<const char*>(p, 0x08), a.name().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x10), 4u);
  EXPECT_EQ(fieldAt<int64_t>(p, 0x18), a.size());
  EXPECT_EQ(*reinterpret_cast<const int64_t*>(reinterpret_cast<const char*>(a.impl()) + 0x18),
            6);
}

TEST_F(AttrsTest, LayoutMesh) {
  MeshAttr m = mesh({axis("x", 2), axis("y", 2)}, {3, 2, 1, 0});
  const void* p = m.impl();
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x00), static_cast<uint32_t>(detail::AttrKind::kMesh));
  EXPECT_EQ(fieldAt<const MeshAxisAttr*>(p, 0x08), m.axes().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x10), 2u);
  EXPECT_EQ(fieldAt<const int64_t*>(p, 0x18), m.deviceIds().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x20), 4u);
  EXPECT_EQ(fieldAt<const MeshAxisAttr*>(p, 0x08)[1], axis("y", 2));
  EXPECT_EQ(fieldAt<const int64_t*>(p, 0x18)[0], 3);
}

TEST_F(AttrsTest, LayoutSubAxisInfoAndAxisRef) {
  AxisRefAttr r = sub("xy", 2, 4);
  const void* p = r.impl();
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x00), static_cast<uint32_t>(detail::AttrKind::kAxisRef));
  EXPECT_EQ(fieldAt<const char*>(p, 0x08), r.name().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x10), 2u);
  const void* info = fieldAt<const void*>(p, 0x18);
  EXPECT_EQ(info, r.subAxisInfo().impl());
  EXPECT_EQ(fieldAt<uint32_t>(info, 0x00), static_cast<uint32_t>(detail::AttrKind::kSubAxisInfo));
  EXPECT_EQ(fieldAt<int64_t>(info, 0x08), 2);
  EXPECT_EQ(fieldAt<int64_t>(info, 0x10), 4);
  EXPECT_EQ(fieldAt<const void*>(full("xy").impl(), 0x18), nullptr);
}

TEST_F(AttrsTest, LayoutDimensionSharding) {
  DimensionShardingAttr d = dim({full("x"), full("y")}, false, 5);
  const void* p = d.impl();
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x00),
            static_cast<uint32_t>(detail::AttrKind::kDimensionSharding));
  EXPECT_EQ(fieldAt<const AxisRefAttr*>(p, 0x08), d.axes().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x10), 2u);
  EXPECT_EQ(fieldAt<bool>(p, 0x18), false);
  EXPECT_EQ(fieldAt<int64_t>(p, 0x20), 5);
  EXPECT_EQ(fieldAt<uint64_t>(p, 0x28), 1u);
  DimensionShardingAttr noPriority = dim({}, true);
  EXPECT_EQ(fieldAt<bool>(noPriority.impl(), 0x18), true);
  EXPECT_EQ(fieldAt<uint64_t>(noPriority.impl(), 0x28), 0u);
  DimensionShardingAttr p0 = dim({}, true, 0);
  EXPECT_EQ(fieldAt<int64_t>(p0.impl(), 0x20), 0);
  EXPECT_EQ(fieldAt<uint64_t>(p0.impl(), 0x28), 1u);
}

TEST_F(AttrsTest, LayoutTensorShardingAndPerValue) {
  MeshOrRef ref = MeshOrRef::ref(ctx_, "mesh");
  std::vector<DimensionShardingAttr> dims = {dim({full("x")}), dim({}), dim({full("z")})};
  std::vector<AxisRefAttr> rep = {full("y")}, unr = {full("u"), full("v")};
  TensorShardingAttr t = TensorShardingAttr::get(ctx_, ref, dims, rep, unr, ReductionOp::kMin);
  const void* p = t.impl();
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x00), static_cast<uint32_t>(detail::AttrKind::kTensorSharding));
  EXPECT_EQ(fieldAt<const void*>(p, 0x08), ref.impl());
  EXPECT_EQ(fieldAt<const DimensionShardingAttr*>(p, 0x10), t.dimShardings().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x18), 3u);
  EXPECT_EQ(fieldAt<const AxisRefAttr*>(p, 0x20), t.replicatedAxes().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x28), 1u);
  EXPECT_EQ(fieldAt<const AxisRefAttr*>(p, 0x30), t.unreducedAxes().data());
  EXPECT_EQ(fieldAt<size_t>(p, 0x38), 2u);
  EXPECT_EQ(fieldAt<uint32_t>(p, 0x40), static_cast<uint32_t>(ReductionOp::kMin));

  // The symbol ref behind meshOrRef: {kind, hash, name data, name size}.
  const void* s = ref.impl();
  EXPECT_EQ(fieldAt<uint32_t>(s, 0x00), static_cast<uint32_t>(detail::AttrKind::kSymbolRef));
  EXPECT_EQ(fieldAt<const char*>(s, 0x08), ref.refName().data());
  EXPECT_EQ(fieldAt<size_t>(s, 0x10), 4u);

  std::vector<TensorShardingAttr> list = {t, t};
  TensorShardingPerValueAttr pv = TensorShardingPerValueAttr::get(ctx_, list);
  EXPECT_EQ(fieldAt<uint32_t>(pv.impl(), 0x00),
            static_cast<uint32_t>(detail::AttrKind::kTensorShardingPerValue));
  EXPECT_EQ(fieldAt<const TensorShardingAttr*>(pv.impl(), 0x08), pv.shardings().data());
  EXPECT_EQ(fieldAt<size_t>(pv.impl(), 0x10), 2u);
}

TEST_F(AttrsTest, HandlesAreOnePointerAndHashByAddress) {
  static_assert(sizeof(AxisRefAttr) == sizeof(void*));
  static_assert(sizeof(TensorShardingAttr) == sizeof(void*));
  AxisRefAttr x = full("x");
  EXPECT_EQ(std::hash<AxisRefAttr>()(x), std::hash<const void*>()(x.opaque()));
  EXPECT_TRUE(AxisRefAttr().isNull());
  EXPECT_FALSE(static_cast<bool>(AxisRefAttr()));
}

// ---------------------------------------------------------------------------
// Concurrency: 8 threads intern one overlapping universe of attributes, each
// in its own shuffled order and building every attribute from its parts.
// All must see the same pointers, and the Context must hold each attribute
// exactly once.

enum Kind { kMeshAxisK, kMeshK, kSubAxisK, kAxisRefK, kDimK, kSymbolK, kShardingK, kPerValueK };
constexpr int kCounts[] = {18, 6, 6, 42, 128, 4, 128, 32};
constexpr int kNumKinds = 8;
const char* const kNames[] = {"a", "b", "c", "d", "e", "f"};

struct Builder {
  Context& ctx;

  MeshAxisAttr meshAxis(int i) {
    const int64_t sizes[] = {2, 4, 8};
    return MeshAxisAttr::get(ctx, std::string(kNames[i / 3]), sizes[i % 3]);
  }
  MeshAttr mesh(int k) {
    std::vector<MeshAxisAttr> axes;
    for (int j = 0; j <= k; ++j) axes.push_back(meshAxis(j * 3 + 1));  // size 4
    return MeshAttr::get(ctx, axes);
  }
  SubAxisInfoAttr subAxis(int i) {
    const int64_t pres[] = {1, 2, 4};
    const int64_t sizes[] = {2, 4};
    return SubAxisInfoAttr::get(ctx, pres[i / 2], sizes[i % 2]);
  }
  AxisRefAttr axisRef(int i) {
    if (i < 6) return AxisRefAttr::get(ctx, std::string(kNames[i]));
    int j = i - 6;
    SubAxisInfoAttr info = subAxis(j % 6);
    return AxisRefAttr::get(ctx, std::string(kNames[j / 6]), info.preSize(), info.size());
  }
  DimensionShardingAttr dim(int i) {
    if (i >= 126) return DimensionShardingAttr::get(ctx, {}, i == 126);
    std::vector<AxisRefAttr> axes = {axisRef(i / 3)};
    switch (i % 3) {
      case 0: return DimensionShardingAttr::get(ctx, axes, true);
      case 1: return DimensionShardingAttr::get(ctx, axes, false);
      default: return DimensionShardingAttr::get(ctx, axes, true, 0);
    }
  }
  MeshOrRef symbol(int i) { return MeshOrRef::ref(ctx, "mesh" + std::to_string(i)); }
  TensorShardingAttr sharding(int i) {
    std::vector<DimensionShardingAttr> dims = {dim(i), dim((i + 1) % 128)};
    std::vector<AxisRefAttr> replicated = {axisRef(i % 6)};
    return TensorShardingAttr::get(ctx, symbol(i % 4), dims, replicated, {},
                                   static_cast<ReductionOp>(i % 3));
  }
  TensorShardingPerValueAttr perValue(int i) {
    std::vector<TensorShardingAttr> list = {sharding(i), sharding((i + 1) % 128)};
    return TensorShardingPerValueAttr::get(ctx, list);
  }
  const void* build(int kind, int i) {
    switch (kind) {
      case kMeshAxisK: return meshAxis(i).opaque();
      case kMeshK: return mesh(i).opaque();
      case kSubAxisK: return subAxis(i).opaque();
      case kAxisRefK: return axisRef(i).opaque();
      case kDimK: return dim(i).opaque();
      case kSymbolK: return symbol(i).impl();
      case kShardingK: return sharding(i).opaque();
      default: return perValue(i).opaque();
    }
  }
};

TEST(AttrsConcurrencyTest, EightThreadsSeeIdenticalPointers) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 40;
  Context ctx;
  std::vector<std::pair<int, int>> tasks;
  for (int k = 0; k < kNumKinds; ++k)
    for (int i = 0; i < kCounts[k]; ++i) tasks.push_back({k, i});

  std::vector<std::vector<const void*>> seen(kThreads,
                                             std::vector<const void*>(tasks.size(), nullptr));
  std::atomic<int> unstable{0};
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Builder b{ctx};
      std::mt19937 rng(1000 + t);
      std::vector<size_t> order(tasks.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      // Start together so the first interning of each attribute races.
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      for (int round = 0; round < kRounds; ++round) {
        std::shuffle(order.begin(), order.end(), rng);
        if (t % 2 == 1 && round == 0) std::reverse(order.begin(), order.end());
        for (size_t idx : order) {
          const void* p = b.build(tasks[idx].first, tasks[idx].second);
          if (seen[t][idx] == nullptr) {
            seen[t][idx] = p;
          } else if (seen[t][idx] != p) {
            unstable.fetch_add(1);
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();

  EXPECT_EQ(unstable.load(), 0);
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]) << "thread " << t;
  std::vector<const void*> distinct = seen[0];
  std::sort(distinct.begin(), distinct.end());
  EXPECT_EQ(std::unique(distinct.begin(), distinct.end()) - distinct.begin(),
            static_cast<std::ptrdiff_t>(tasks.size()));
  EXPECT_EQ(ctx.size(), tasks.size());
  EXPECT_EQ(tasks.size(), 364u);
}

}  // namespace
}  // namespace shardbridge::sdy
