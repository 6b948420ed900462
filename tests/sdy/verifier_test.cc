#include "shardbridge/sdy/verifier.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shardbridge::sdy {
namespace {

using Part = AttrPath::Part;

// Builds attributes tersely and keeps a table of hand-made source locations:
// locate() gives every part of an attribute its own offset, so a test can
// check that an error points at exactly the part it names.
class VerifierBuilder {
 public:
  Context ctx;

  AxisRefAttr ax(std::string_view name) { return AxisRefAttr::get(ctx, name); }
  AxisRefAttr ax(std::string_view name, int64_t pre, int64_t size) {
    return AxisRefAttr::get(ctx, name, pre, size);
  }
  DimensionShardingAttr closed(std::initializer_list<AxisRefAttr> axes,
                               std::optional<int64_t> priority = std::nullopt) {
    return DimensionShardingAttr::get(ctx, {axes.begin(), axes.size()}, true, priority);
  }
  DimensionShardingAttr open(std::initializer_list<AxisRefAttr> axes,
                             std::optional<int64_t> priority = std::nullopt) {
    return DimensionShardingAttr::get(ctx, {axes.begin(), axes.size()}, false, priority);
  }
  MeshAttr mesh(std::initializer_list<std::pair<const char*, int64_t>> axes,
                std::initializer_list<int64_t> ids = {}) {
    std::vector<MeshAxisAttr> list;
    for (const auto& [name, size] : axes) list.push_back(MeshAxisAttr::get(ctx, name, size));
    return MeshAttr::get(ctx, list, {ids.begin(), ids.size()});
  }
  MeshOrRef ref(std::string_view name) { return MeshOrRef::ref(ctx, name); }
  TensorShardingAttr sh(MeshOrRef meshOrRef, std::initializer_list<DimensionShardingAttr> dims,
                        std::initializer_list<AxisRefAttr> replicated = {},
                        std::initializer_list<AxisRefAttr> unreduced = {}) {
    return TensorShardingAttr::get(ctx, meshOrRef, {dims.begin(), dims.size()},
                                   {replicated.begin(), replicated.size()},
                                   {unreduced.begin(), unreduced.size()});
  }
  TensorShardingAttr sh(MeshAttr inlineMesh, std::initializer_list<DimensionShardingAttr> dims,
                        std::initializer_list<AxisRefAttr> replicated = {},
                        std::initializer_list<AxisRefAttr> unreduced = {}) {
    return sh(MeshOrRef::inlineMesh(inlineMesh), dims, replicated, unreduced);
  }

  // Records every part of `mesh` (as seen at `value`) under a fresh offset.
  void locateMesh(MeshAttr mesh, int32_t value) {
    for (size_t i = 0; i < mesh.axes().size(); ++i) {
      add(AttrPath{Part::kMeshAxis, value, idx(i), -1});
      add(AttrPath{Part::kMeshAxisSize, value, idx(i), -1});
    }
    add(AttrPath{Part::kDeviceIds, value, -1, -1});
    for (size_t i = 0; i < mesh.deviceIds().size(); ++i)
      add(AttrPath{Part::kDeviceId, value, idx(i), -1});
  }

  // Records every part of `sharding` (the value-th of a per-value list).
  void locate(TensorShardingAttr sharding, int32_t value = -1) {
    add(AttrPath{Part::kWhole, value, -1, -1});
    add(AttrPath{Part::kMeshOrRef, value, -1, -1});
    if (sharding.meshOrRef().isInline()) locateMesh(sharding.meshOrRef().inlineMeshAttr(), value);
    auto dims = sharding.dimShardings();
    for (size_t d = 0; d < dims.size(); ++d) {
      add(AttrPath{Part::kDim, value, idx(d), -1});
      for (size_t i = 0; i < dims[d].axes().size(); ++i)
        add(AttrPath{Part::kDimAxis, value, idx(d), idx(i)});
      if (dims[d].priority()) add(AttrPath{Part::kDimPriority, value, idx(d), -1});
    }
    for (size_t i = 0; i < sharding.replicatedAxes().size(); ++i)
      add(AttrPath{Part::kReplicatedAxis, value, idx(i), -1});
    for (size_t i = 0; i < sharding.unreducedAxes().size(); ++i)
      add(AttrPath{Part::kUnreducedAxis, value, idx(i), -1});
  }

  // The offset recorded for exactly `path` (kNoOffset when none was).
  size_t offsetOf(const AttrPath& path) const {
    for (const auto& [p, offset] : recorded_)
      if (p == path) return offset;
    return Error::kNoOffset;
  }

  SourceMap map;

  void add(const AttrPath& path) {
    size_t offset = 1000 + recorded_.size();
    recorded_.push_back({path, offset});
    map.add(path, offset);
  }

 private:
  static int32_t idx(size_t i) { return static_cast<int32_t>(i); }
  std::vector<std::pair<AttrPath, size_t>> recorded_;
};

AttrPath path(Part part, int32_t index = -1, int32_t sub = -1, int32_t value = -1) {
  return AttrPath{part, value, index, sub};
}

std::string describe(const AttrPath& p) {
  return "part " + std::to_string(static_cast<int>(p.part)) + " value " + std::to_string(p.value) +
         " index " + std::to_string(p.index) + " sub " + std::to_string(p.sub);
}

// ---------------------------------------------------------------------------
// verifyMesh

struct MeshCase {
  const char* name;
  std::function<MeshAttr(VerifierBuilder&)> build;
  std::string message;  // empty: valid
  AttrPath where;
};

TEST(VerifyMesh, Table) {
  const int64_t kBig = int64_t{1} << 32;
  std::vector<MeshCase> cases = {
      {"empty mesh", [](VerifierBuilder& b) { return b.mesh({}); }, "", {}},
      {"maximal mesh", [](VerifierBuilder& b) { return b.mesh({}, {3}); }, "", {}},
      {"axes",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}, {"b", 3}});
       },
       "",
       {}},
      {"size-1 axis",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 1}});
       },
       "",
       {}},
      {"permuted ids",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 3}, {"b", 2}}, {0, 2, 4, 1, 3, 5});
       },
       "",
       {}},
      {"zero axis size",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}, {"b", 0}});
       },
       "axis size must be at least 1, got: 0", path(Part::kMeshAxisSize, 1)},
      {"negative axis size",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", -3}});
       },
       "axis size must be at least 1, got: -3", path(Part::kMeshAxisSize, 0)},
      {"axis size before device ids",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 0}}, {-1});
       },
       "axis size must be at least 1, got: 0", path(Part::kMeshAxisSize, 0)},
      {"negative device id, no axes", [](VerifierBuilder& b) { return b.mesh({}, {-1}); },
       "device id must be non-negative, got: -1", path(Part::kDeviceId, 0)},
      {"negative device id",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}}, {1, -1});
       },
       "device id must be non-negative, got: -1", path(Part::kDeviceId, 1)},
      {"negative id before empty-axes rule",
       [](VerifierBuilder& b) {
         return b.mesh({}, {0, -5});
       },
       "device id must be non-negative, got: -5", path(Part::kDeviceId, 1)},
      {"no axes, two ids",
       [](VerifierBuilder& b) {
         return b.mesh({}, {1, 0});
       },
       "axes is empty and device_ids has more than one element", path(Part::kDeviceIds)},
      {"duplicate axis name",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}, {"b", 2}, {"a", 4}});
       },
       "duplicate axis name: \"a\"", path(Part::kMeshAxis, 2)},
      {"duplicate before device count",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}, {"a", 2}}, {0, 1, 3});
       },
       "duplicate axis name: \"a\"", path(Part::kMeshAxis, 1)},
      {"overflowing total",
       [kBig](VerifierBuilder& b) {
         return b.mesh({{"a", kBig}, {"b", kBig}, {"c", 2}});
       },
       "total product of axis sizes overflows int64 at axis \"b\"", path(Part::kMeshAxisSize, 1)},
      {"too many ids",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}, {"b", 2}}, {0, 2, 1, 3, 4, 5});
       },
       "total product of axis sizes must match total number of device ids, got: 4 != 6",
       path(Part::kDeviceIds)},
      {"too few ids",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}}, {0});
       },
       "total product of axis sizes must match total number of device ids, got: 2 != 1",
       path(Part::kDeviceIds)},
      {"duplicated ids",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}}, {1, 1});
       },
       "sorted device ids must be iota(product(axes)), got: 1, 1", path(Part::kDeviceIds)},
      {"out-of-range ids",
       [](VerifierBuilder& b) {
         return b.mesh({{"a", 2}}, {2, 1});
       },
       "sorted device ids must be iota(product(axes)), got: 1, 2", path(Part::kDeviceIds)},
  };
  for (const MeshCase& c : cases) {
    SCOPED_TRACE(c.name);
    VerifierBuilder b;
    MeshAttr mesh = c.build(b);
    b.locateMesh(mesh, -1);
    Status plain = verifyMesh(mesh);
    Status located = verifyMesh(mesh, &b.map);
    if (c.message.empty()) {
      EXPECT_TRUE(plain.has_value()) << plain.error().message;
      EXPECT_TRUE(located.has_value());
      continue;
    }
    ASSERT_FALSE(plain.has_value());
    EXPECT_EQ(plain.error().code, ErrorCode::kInvalid);
    EXPECT_EQ(plain.error().message, c.message);
    EXPECT_FALSE(plain.error().hasOffset());
    ASSERT_FALSE(located.has_value());
    EXPECT_EQ(located.error().message, c.message);
    EXPECT_EQ(located.error().offset, b.offsetOf(c.where)) << describe(c.where);
  }
}

// The "ids equal iota" rule cannot fire for a mesh built through
// MeshAttr::get: the builder drops such ids, as upstream's does.
TEST(VerifyMesh, ExplicitIotaIsDroppedByTheBuilder) {
  VerifierBuilder b;
  MeshAttr mesh = b.mesh({{"a", 2}, {"b", 2}}, {0, 1, 2, 3});
  EXPECT_TRUE(mesh.deviceIds().empty());
  EXPECT_TRUE(verifyMesh(mesh).has_value());
}

// ---------------------------------------------------------------------------
// verifyTensorSharding

// Meshes every sharding case may name.
std::map<std::string, MeshAttr> standardMeshes(VerifierBuilder& b) {
  return {
      {"mesh", b.mesh({{"a", 2}, {"b", 4}, {"c", 16}})},
      {"cab", b.mesh({{"c", 2}, {"a", 2}, {"b", 2}})},
      {"maximal", b.mesh({}, {3})},
      {"empty", b.mesh({})},
      {"bad", b.mesh({{"x", 0}})},
  };
}

MeshLookup lookupIn(std::map<std::string, MeshAttr> meshes) {
  return [meshes = std::move(meshes)](std::string_view name) {
    auto it = meshes.find(std::string(name));
    return it == meshes.end() ? MeshAttr() : it->second;
  };
}

struct ShardingCase {
  const char* name;
  std::function<TensorShardingAttr(VerifierBuilder&)> build;
  std::optional<std::string> type;
  bool checkDivisibility;
  std::string message;  // empty: valid
  AttrPath where;
};

MlirType parseTypeOrDie(const std::string& text) {
  Result<MlirType> r = parseMlirType(text);
  EXPECT_TRUE(r.has_value()) << text;
  return r.has_value() ? *r : MlirType{};
}

void runShardingCases(const std::vector<ShardingCase>& cases) {
  for (const ShardingCase& c : cases) {
    SCOPED_TRACE(c.name);
    VerifierBuilder b;
    MeshLookup lookup = lookupIn(standardMeshes(b));
    TensorShardingAttr sharding = c.build(b);
    b.locate(sharding);
    std::optional<MlirType> type;
    if (c.type) type = parseTypeOrDie(*c.type);
    VerifyOptions plainOptions;
    plainOptions.checkDivisibility = c.checkDivisibility;
    VerifyOptions locatedOptions = plainOptions;
    locatedOptions.locations = &b.map;
    Status plain = verifyTensorSharding(sharding, lookup, type, plainOptions);
    Status located = verifyTensorSharding(sharding, lookup, type, locatedOptions);
    if (c.message.empty()) {
      EXPECT_TRUE(plain.has_value()) << plain.error().message;
      EXPECT_TRUE(located.has_value());
      continue;
    }
    ASSERT_FALSE(plain.has_value());
    EXPECT_EQ(plain.error().code, ErrorCode::kInvalid);
    EXPECT_EQ(plain.error().message, c.message);
    EXPECT_FALSE(plain.error().hasOffset());
    ASSERT_FALSE(located.has_value());
    EXPECT_EQ(located.error().message, c.message);
    ASSERT_NE(b.offsetOf(c.where), Error::kNoOffset) << "test bug: " << describe(c.where);
    EXPECT_EQ(located.error().offset, b.offsetOf(c.where)) << describe(c.where);
  }
}

const std::optional<std::string> kNoType;

TEST(VerifyTensorSharding, MeshResolution) {
  runShardingCases({
      {"unknown mesh", [](VerifierBuilder& b) { return b.sh(b.ref("missing"), {b.closed({})}); },
       "tensor<8xf32>", false, "unknown mesh: @missing", path(Part::kMeshOrRef)},
      {"unknown mesh with a quoted name", [](VerifierBuilder& b) { return b.sh(b.ref("my mesh"), {}); },
       kNoType, false, "unknown mesh: @\"my mesh\"", path(Part::kMeshOrRef)},
      {"invalid referenced mesh", [](VerifierBuilder& b) { return b.sh(b.ref("bad"), {}); }, kNoType, false,
       "axis size must be at least 1, got: 0", path(Part::kMeshOrRef)},
      {"invalid inline mesh",
       [](VerifierBuilder& b) {
         return b.sh(b.mesh({{"x", 2}, {"x", 2}}), {b.closed({b.ax("x")})});
       },
       "tensor<8xf32>", false, "duplicate axis name: \"x\"", path(Part::kMeshAxis, 1)},
      {"inline mesh checked before the type",
       [](VerifierBuilder& b) {
         return b.sh(b.mesh({{"x", 0}}), {});
       },
       "tensor<8xf32>", false, "axis size must be at least 1, got: 0",
       path(Part::kMeshAxisSize, 0)},
      {"valid inline mesh",
       [](VerifierBuilder& b) {
         return b.sh(b.mesh({{"x", 2}, {"y", 2}}), {b.closed({b.ax("x")}), b.open({})});
       },
       "tensor<8x8xf32>",
       true,
       "",
       {}},
      {"empty mesh, empty dims",
       [](VerifierBuilder& b) { return b.sh(b.ref("empty"), {b.closed({})}); },
       "tensor<8xf32>",
       false,
       "",
       {}},
  });
}

TEST(VerifyTensorSharding, MaximalAndTypeRules) {
  runShardingCases({
      {"maximal, rank 0",
       [](VerifierBuilder& b) { return b.sh(b.ref("maximal"), {}); },
       "tensor<8x8xf32>",
       false,
       "",
       {}},
      {"maximal ignores the type",
       [](VerifierBuilder& b) { return b.sh(b.ref("maximal"), {}); },
       "tuple<f32, f32>",
       false,
       "",
       {}},
      {"maximal with a dim", [](VerifierBuilder& b) { return b.sh(b.ref("maximal"), {b.closed({})}); },
       "tensor<8xf32>", false,
       "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced "
       "axes.",
       path(Part::kDim, 0)},
      {"maximal with replicated axes",
       [](VerifierBuilder& b) { return b.sh(b.ref("maximal"), {}, {b.ax("a")}); }, kNoType, false,
       "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced "
       "axes.",
       path(Part::kReplicatedAxis, 0)},
      {"maximal with unreduced axes",
       [](VerifierBuilder& b) { return b.sh(b.ref("maximal"), {}, {}, {b.ax("a")}); }, kNoType, false,
       "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced "
       "axes.",
       path(Part::kUnreducedAxis, 0)},
      {"tuple of two", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({})}); },
       "tuple<tensor<8xf32>,tensor<8xf32>>", false,
       "ops can only have a sharding for a tuple of size 1: tuple<tensor<8xf32>, tensor<8xf32>>",
       path(Part::kWhole)},
      {"empty tuple", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}); }, "tuple<>", false,
       "ops can only have a sharding for a tuple of size 1: tuple<>", path(Part::kWhole)},
      {"tuple of one tensor",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("a")})}); },
       "tuple<tensor<8xf32>>",
       true,
       "",
       {}},
      {"tuple of one token", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({})}); },
       "tuple<!stablehlo.token>", false,
       "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced "
       "axes. type: tuple<!stablehlo.token>, sharding: #sdy.sharding<@mesh, [{}]>",
       path(Part::kDim, 0)},
      {"token with a dim", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({})}); },
       "!stablehlo.token", false,
       "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced "
       "axes. type: !stablehlo.token, sharding: #sdy.sharding<@mesh, [{}]>",
       path(Part::kDim, 0)},
      {"token with replicated axes",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}, {b.ax("a")}); }, "!stablehlo.token", false,
       "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced "
       "axes. type: !stablehlo.token, sharding: #sdy.sharding<@mesh, [], replicated={\"a\"}>",
       path(Part::kReplicatedAxis, 0)},
      {"scalar with unreduced axes",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}, {}, {b.ax("b")}); }, "f32", false,
       "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced "
       "axes. type: f32, sharding: #sdy.sharding<@mesh, [], unreduced={\"b\"}>",
       path(Part::kUnreducedAxis, 0)},
      {"token, rank 0",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}); },
       "!stablehlo.token",
       false,
       "",
       {}},
      {"unranked", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}); }, "tensor<*xf32>", false,
       "only ranked tensors can have a sharding. type: tensor<*xf32>", path(Part::kWhole)},
      {"too many dims",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({}), b.closed({b.ax("b")})}, {b.ax("a")});
       },
       "tensor<8xf32>", false, "sharding doesn't match tensor rank: 2 != 1", path(Part::kDim, 1)},
      {"too few dims", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({})}); },
       "tensor<?x?xf32>", false, "sharding doesn't match tensor rank: 1 != 2", path(Part::kWhole)},
      {"rank checked before axes",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("z")})}); }, "tensor<f32>",
       false, "sharding doesn't match tensor rank: 1 != 0", path(Part::kDim, 0)},
      // Without a type only the mesh-level rules apply: a fully replicated
      // sharding of any rank is fine, and the axes are still checked.
      {"no type, fully replicated",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({}), b.open({})});
       },
       kNoType,
       false,
       "",
       {}},
      {"no type, unknown axis",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("z")})}); }, kNoType, true,
       "unknown axis name: \"z\"", path(Part::kDimAxis, 0, 0)},
  });
}

TEST(VerifyTensorSharding, DimensionRules) {
  runShardingCases({
      {"negative priority",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("a")}, -1)}); }, "tensor<8xf32>",
       false, "dim 0 has a negative priority", path(Part::kDimPriority, 0)},
      {"empty closed dim with priority",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("a")}), b.closed({}, 3)});
       },
       "tensor<8x8xf32>", false, "dim 1 is empty and closed but has a priority",
       path(Part::kDimPriority, 1)},
      {"empty open dim with priority",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.open({}, 1)}); },
       "tensor<8xf32>",
       false,
       "",
       {}},
      {"priority checked before the axes of its dim",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("z")}, -2)}); }, "tensor<8xf32>",
       false, "dim 0 has a negative priority", path(Part::kDimPriority, 0)},
      {"not divisible",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("b")}), b.closed({})});
       },
       "tensor<6x8xf32>", true, "dim 0 with size 6 is not divisible by its sharded size 4",
       path(Part::kDim, 0)},
      {"not divisible, sub-axes",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({}), b.closed({b.ax("a"), b.ax("c", 2, 4)})});
       },
       "tensor<8x12xf32>", true, "dim 1 with size 12 is not divisible by its sharded size 8",
       path(Part::kDim, 1)},
      {"divisibility off",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("b")}), b.closed({})});
       },
       "tensor<6x8xf32>",
       false,
       "",
       {}},
      {"dynamic dim skipped",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("b")}), b.closed({})});
       },
       "tensor<?x8xf32>",
       true,
       "",
       {}},
      {"dim 0 divisibility before dim 1 axes",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("b")}), b.closed({b.ax("z")})});
       },
       "tensor<6x8xf32>", true, "dim 0 with size 6 is not divisible by its sharded size 4",
       path(Part::kDim, 0)},
      {"dim 0 axes before dim 1 divisibility",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("z")}), b.closed({b.ax("b")})});
       },
       "tensor<8x6xf32>", true, "unknown axis name: \"z\"", path(Part::kDimAxis, 0, 0)},
      {"divisibility deferred for a malformed sub-axis",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 0)})}); },
       "tensor<8xf32>", true, "sub-axis sizes must be greater than 1: \"c\":(1)0",
       path(Part::kDimAxis, 0, 0)},
  });
}

TEST(VerifyTensorSharding, AxisListRules) {
  runShardingCases({
      {"unknown axis in a dim",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({}), b.closed({b.ax("z")})});
       },
       "tensor<8x8xf32>", false, "unknown axis name: \"z\"", path(Part::kDimAxis, 1, 0)},
      {"unknown sub-axis name",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("a"), b.ax("z", 1, 2)})});
       },
       "tensor<8xf32>", false, "unknown axis name: \"z\"", path(Part::kDimAxis, 0, 1)},
      {"unknown replicated axis",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({})}, {b.ax("z")}); }, "tensor<8xf32>",
       false, "unknown axis name: \"z\"", path(Part::kReplicatedAxis, 0)},
      {"unknown unreduced axis",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({})}, {}, {b.ax("z")}); },
       "tensor<8xf32>", false, "unknown axis name: \"z\"", path(Part::kUnreducedAxis, 0)},
      {"duplicate in one dim",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("a"), b.ax("a")})});
       },
       "tensor<8xf32>", false, "duplicate axis ref: \"a\"", path(Part::kDimAxis, 0, 1)},
      {"duplicate across dims",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("a")}), b.closed({b.ax("a")})});
       },
       "tensor<8x8xf32>", false, "duplicate axis ref: \"a\"", path(Part::kDimAxis, 1, 0)},
      {"duplicate dim and replicated",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({}), b.closed({b.ax("a")})}, {b.ax("a")});
       },
       "tensor<8x8xf32>", false, "duplicate axis ref: \"a\"", path(Part::kReplicatedAxis, 0)},
      {"duplicate dim and unreduced",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("a")})}, {}, {b.ax("a")}); },
       "tensor<8xf32>", false, "duplicate axis ref: \"a\"", path(Part::kUnreducedAxis, 0)},
      {"duplicate replicated and unreduced",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}, {b.ax("a")}, {b.ax("a")}); }, kNoType, false,
       "duplicate axis ref: \"a\"", path(Part::kUnreducedAxis, 0)},
      {"duplicate within replicated",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {}, {b.ax("a"), b.ax("a")});
       },
       kNoType, false, "duplicate axis ref: \"a\"", path(Part::kReplicatedAxis, 1)},
      {"duplicate sub-axis",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 2)}), b.closed({b.ax("c", 1, 2)})});
       },
       "tensor<8x8xf32>", false, "duplicate axis ref: \"c\":(1)2", path(Part::kDimAxis, 1, 0)},
      {"mergeable neighbours in a dim",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 2), b.ax("c", 2, 2)})});
       },
       "tensor<8xf32>", false, "two consecutive sub-axes can be merged: \"c\":(1)2, \"c\":(2)2",
       path(Part::kDimAxis, 0, 1)},
      {"mergeable neighbours in replicated",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {}, {b.ax("c", 1, 2), b.ax("c", 2, 4)});
       },
       kNoType, false, "two consecutive sub-axes can be merged: \"c\":(1)2, \"c\":(2)4",
       path(Part::kReplicatedAxis, 1)},
      {"a full axis between mergeable sub-axes",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 2), b.ax("a"), b.ax("c", 2, 2)})});
       },
       "tensor<8xf32>",
       true,
       "",
       {}},
      {"sub-axes in reverse order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 2, 2), b.ax("c", 1, 2)})});
       },
       "tensor<8xf32>",
       true,
       "",
       {}},
      {"sub-axes in different dims",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 4)}), b.closed({b.ax("c", 4, 4)})});
       },
       "tensor<8x8xf32>",
       true,
       "",
       {}},
  });
}

TEST(VerifyTensorSharding, ReplicatedAndUnreducedOrder) {
  runShardingCases({
      {"replicated not in mesh order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("cab"), {}, {b.ax("a"), b.ax("b"), b.ax("c")});
       },
       kNoType, false, "replicated axes are not ordered w.r.t. mesh",
       path(Part::kReplicatedAxis, 2)},
      {"unreduced not in mesh order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("cab"), {}, {}, {b.ax("a"), b.ax("b"), b.ax("c")});
       },
       kNoType, false, "unreduced axes are not ordered w.r.t. mesh", path(Part::kUnreducedAxis, 2)},
      {"mesh order, not alphabetical",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("cab"), {}, {b.ax("c"), b.ax("a")}, {b.ax("b")});
       },
       kNoType,
       false,
       "",
       {}},
      {"sub-axes of one axis out of order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {}, {b.ax("c", 4, 2), b.ax("c", 1, 2)});
       },
       kNoType, false, "replicated axes are not ordered w.r.t. mesh",
       path(Part::kReplicatedAxis, 1)},
      {"order checked before the names",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {}, {b.ax("z"), b.ax("a")});
       },
       kNoType, false, "replicated axes are not ordered w.r.t. mesh",
       path(Part::kReplicatedAxis, 1)},
      {"dims checked before replicated order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("cab"), {b.closed({b.ax("z")})}, {b.ax("b"), b.ax("a")});
       },
       "tensor<8xf32>", false, "unknown axis name: \"z\"", path(Part::kDimAxis, 0, 0)},
      {"replicated checked before unreduced",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("cab"), {}, {b.ax("b"), b.ax("a")}, {b.ax("b"), b.ax("a")});
       },
       kNoType, false, "replicated axes are not ordered w.r.t. mesh",
       path(Part::kReplicatedAxis, 1)},
  });
}

TEST(VerifyTensorSharding, SubAxisRules) {
  const int64_t kHuge = int64_t{1} << 62;
  runShardingCases({
      {"full axis then sub-axis",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c")}), b.closed({b.ax("c", 1, 2)})});
       },
       "tensor<8x8xf32>", false, "both sub-axis and full-axis are used for axis name: \"c\"",
       path(Part::kDimAxis, 1, 0)},
      {"sub-axis then full axis (replicated)",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 2)})}, {b.ax("c")}); },
       "tensor<8xf32>", false, "both sub-axis and full-axis are used for axis name: \"c\"",
       path(Part::kReplicatedAxis, 0)},
      {"pre-size below 1",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 0, 2)})}); },
       "tensor<8xf32>", false, "sub-axis pre-size must be at least 1: \"c\":(0)2",
       path(Part::kDimAxis, 0, 0)},
      {"size 1", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 1)})}); },
       "tensor<8xf32>", false, "sub-axis sizes must be greater than 1: \"c\":(1)1",
       path(Part::kDimAxis, 0, 0)},
      {"negative size", [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {}, {b.ax("c", 2, -2)}); },
       kNoType, false, "sub-axis sizes must be greater than 1: \"c\":(2)-2",
       path(Part::kReplicatedAxis, 0)},
      {"next pre-size does not divide",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 3, 2)})}); },
       "tensor<8xf32>", false,
       "sub-axis next pre-size 6 doesn't divide the size of the full axis 16: \"c\":(3)2",
       path(Part::kDimAxis, 0, 0)},
      {"next pre-size past int64",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", kHuge, 4)})}); },
       "tensor<8xf32>", false,
       "sub-axis next pre-size 18446744073709551616 doesn't divide the size of the full axis "
       "16: \"c\":(4611686018427387904)4",
       path(Part::kDimAxis, 0, 0)},
      {"size equal to the full axis",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 16)})}); },
       "tensor<8xf32>", false, "sub-axis size is equal to the full axis size: \"c\":(1)16",
       path(Part::kDimAxis, 0, 0)},
      {"overlapping across dims",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 1, 4)}), b.closed({b.ax("c", 2, 2)})});
       },
       "tensor<8x8xf32>", false, "overlapping sub-axes: \"c\":(1)4, \"c\":(2)2",
       path(Part::kDimAxis, 1, 0)},
      {"overlap reported in sorted order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 2, 2)}), b.closed({b.ax("c", 1, 4)})});
       },
       "tensor<8x8xf32>", false, "overlapping sub-axes: \"c\":(1)4, \"c\":(2)2",
       path(Part::kDimAxis, 0, 0)},
      {"overlap with an unreduced sub-axis",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 2, 4)})}, {}, {b.ax("c", 4, 4)});
       },
       "tensor<8xf32>", false, "overlapping sub-axes: \"c\":(2)4, \"c\":(4)4",
       path(Part::kUnreducedAxis, 0)},
      {"axes visited in mesh order",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 3, 2)}), b.closed({b.ax("b", 1, 4)})});
       },
       "tensor<8x8xf32>", false, "sub-axis size is equal to the full axis size: \"b\":(1)4",
       path(Part::kDimAxis, 1, 0)},
      {"both-axes rule before the sub-axis checks",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 0, 2)}), b.closed({b.ax("c")})});
       },
       "tensor<8x8xf32>", false, "both sub-axis and full-axis are used for axis name: \"c\"",
       path(Part::kDimAxis, 1, 0)},
      {"list rules before sub-axis rules",
       [](VerifierBuilder& b) { return b.sh(b.ref("mesh"), {b.closed({b.ax("c", 0, 2)})}, {b.ax("z")}); },
       "tensor<8xf32>", false, "unknown axis name: \"z\"", path(Part::kReplicatedAxis, 0)},
      {"valid mix",
       [](VerifierBuilder& b) {
         return b.sh(b.ref("mesh"),
                     {b.closed({b.ax("c", 1, 2), b.ax("a")}, 0), b.open({b.ax("c", 4, 2)}, 1)},
                     {b.ax("c", 2, 2)}, {b.ax("b", 1, 2), b.ax("c", 8, 2)});
       },
       "tensor<8x8xf32>",
       true,
       "",
       {}},
  });
}

// ---------------------------------------------------------------------------
// verifyTensorShardingPerValue

struct PerValueCase {
  const char* name;
  std::function<std::vector<TensorShardingAttr>(VerifierBuilder&)> build;
  std::optional<std::vector<std::string>> types;
  std::string message;  // empty: valid
  AttrPath where;
};

TEST(VerifyTensorShardingPerValue, Table) {
  using Types = std::vector<std::string>;
  std::vector<PerValueCase> cases = {
      {"one per result",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {b.closed({b.ax("a")})}),
                                                b.sh(b.ref("mesh"), {})};
       },
       Types{"tensor<8xf32>", "tensor<f32>"},
       "",
       {}},
      {"too many shardings",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {b.closed({b.ax("a")})}),
                                                b.sh(b.ref("mesh"), {b.closed({b.ax("b")})}),
                                                b.sh(b.ref("mesh"), {b.closed({b.ax("a")})})};
       },
       Types{"tensor<2x13xf32>", "tensor<2x13xf32>"},
       "shardings don't match number of values: 3 shardings vs 2 values",
       path(Part::kWhole, -1, -1, 2)},
      {"too few shardings",
       [](VerifierBuilder& b) { return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {})}; },
       Types{"tensor<f32>", "tensor<f32>"},
       "shardings don't match number of values: 1 shardings vs 2 values", path(Part::kWhole)},
      {"second sharding located by value",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {b.closed({b.ax("a")})}),
                                                b.sh(b.ref("mesh"), {b.closed({b.ax("z")})})};
       },
       Types{"tensor<8xf32>", "tensor<8xf32>"}, "unknown axis name: \"z\"",
       path(Part::kDimAxis, 0, 0, 1)},
      {"unknown mesh located by value",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {}),
                                                b.sh(b.ref("other_mesh"), {b.closed({})})};
       },
       Types{"tensor<f32>", "tensor<8xf32>"}, "unknown mesh: @other_mesh",
       path(Part::kMeshOrRef, -1, -1, 1)},
      {"inline mesh located by value",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.mesh({{"x", 2}, {"x", 4}}), {})};
       },
       Types{"tensor<f32>"}, "duplicate axis name: \"x\"", path(Part::kMeshAxis, 1, -1, 0)},
      {"zero results, maximal mesh",
       [](VerifierBuilder& b) { return std::vector<TensorShardingAttr>{b.sh(b.ref("maximal"), {})}; },
       Types{},
       "",
       {}},
      {"zero results, replicated rank 0",
       [](VerifierBuilder& b) { return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {})}; },
       Types{},
       "",
       {}},
      {"zero results, replicated with dims",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {b.closed({}), b.closed({})})};
       },
       Types{},
       "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced "
       "axes.",
       path(Part::kDim, 0, -1, 0)},
      {"zero results, maximal with a dim",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("maximal"), {b.closed({})})};
       },
       Types{},
       "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced "
       "axes.",
       path(Part::kDim, 0, -1, 0)},
      {"zero results, sharded",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {b.closed({b.ax("a")})})};
       },
       Types{}, "shardings don't match number of values: 1 shardings vs 0 values",
       path(Part::kWhole, -1, -1, 0)},
      {"zero results, two replicated",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {}), b.sh(b.ref("mesh"), {})};
       },
       Types{}, "shardings don't match number of values: 2 shardings vs 0 values",
       path(Part::kWhole, -1, -1, 0)},
      {"zero results, none",
       [](VerifierBuilder&) { return std::vector<TensorShardingAttr>{}; },
       Types{},
       "",
       {}},
      {"no types: each checked without a type",
       [](VerifierBuilder& b) {
         return std::vector<TensorShardingAttr>{b.sh(b.ref("mesh"), {b.closed({}), b.closed({})}),
                                                b.sh(b.ref("mesh"), {}, {b.ax("a"), b.ax("a")})};
       },
       std::nullopt, "duplicate axis ref: \"a\"", path(Part::kReplicatedAxis, 1, -1, 1)},
  };
  for (const PerValueCase& c : cases) {
    SCOPED_TRACE(c.name);
    VerifierBuilder b;
    MeshLookup lookup = lookupIn(standardMeshes(b));
    std::vector<TensorShardingAttr> list = c.build(b);
    b.add(AttrPath{Part::kWhole, -1, -1, -1});  // the sharding_per_value itself
    for (size_t i = 0; i < list.size(); ++i) b.locate(list[i], static_cast<int32_t>(i));
    TensorShardingPerValueAttr perValue = TensorShardingPerValueAttr::get(b.ctx, list);
    std::optional<std::vector<MlirType>> types;
    if (c.types) {
      types.emplace();
      for (const std::string& t : *c.types) types->push_back(parseTypeOrDie(t));
    }
    VerifyOptions options;
    options.locations = &b.map;
    Status plain = verifyTensorShardingPerValue(perValue, lookup, types);
    Status located = verifyTensorShardingPerValue(perValue, lookup, types, options);
    if (c.message.empty()) {
      EXPECT_TRUE(plain.has_value()) << plain.error().message;
      EXPECT_TRUE(located.has_value());
      continue;
    }
    ASSERT_FALSE(plain.has_value());
    EXPECT_EQ(plain.error().code, ErrorCode::kInvalid);
    EXPECT_EQ(plain.error().message, c.message);
    EXPECT_FALSE(plain.error().hasOffset());
    ASSERT_FALSE(located.has_value());
    EXPECT_EQ(located.error().message, c.message);
    EXPECT_EQ(located.error().offset, b.offsetOf(c.where)) << describe(c.where);
  }
}

TEST(VerifyTensorShardingPerValue, DivisibilityOption) {
  VerifierBuilder b;
  MeshLookup lookup = lookupIn(standardMeshes(b));
  std::vector<TensorShardingAttr> list = {b.sh(b.ref("mesh"), {b.closed({b.ax("b")})})};
  auto perValue = TensorShardingPerValueAttr::get(b.ctx, list);
  std::vector<MlirType> types = {parseTypeOrDie("tensor<6xf32>")};
  EXPECT_TRUE(verifyTensorShardingPerValue(perValue, lookup, types).has_value());
  VerifyOptions options;
  options.checkDivisibility = true;
  Status s = verifyTensorShardingPerValue(perValue, lookup, types, options);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message, "dim 0 with size 6 is not divisible by its sharded size 4");
}

// ---------------------------------------------------------------------------
// Locations fall back to the enclosing part when the map lacks the exact one.

TEST(VerifyLocations, FallsBackToEnclosingPart) {
  VerifierBuilder b;
  MeshLookup lookup = lookupIn(standardMeshes(b));
  TensorShardingAttr s = b.sh(b.ref("mesh"), {b.closed({}), b.closed({b.ax("a"), b.ax("z")})});
  SourceMap map;
  map.add(AttrPath{Part::kWhole, -1, -1, -1}, 3);
  map.add(AttrPath{Part::kDim, -1, 1, -1}, 17);
  VerifyOptions options;
  options.locations = &map;
  Status r = verifyTensorSharding(s, lookup, std::nullopt, options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "unknown axis name: \"z\"");
  EXPECT_EQ(r.error().offset, 17u);

  SourceMap empty;
  options.locations = &empty;
  r = verifyTensorSharding(s, lookup, std::nullopt, options);
  ASSERT_FALSE(r.has_value());
  EXPECT_FALSE(r.error().hasOffset());
}

TEST(VerifyTensorSharding, NoLookupMeansUnknownMesh) {
  VerifierBuilder b;
  Status r = verifyTensorSharding(b.sh(b.ref("mesh"), {}), MeshLookup());
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "unknown mesh: @mesh");
}

}  // namespace
}  // namespace shardbridge::sdy
