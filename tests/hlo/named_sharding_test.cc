// The V3 model and the V2 <-> V3 conversions. Golden vectors cite their
// upstream source: xla/hlo/utils/hlo_sharding_util_test.cc (V3ToV2),
// xla/service/spmd/spmd_partitioner_util_test.cc (ToNamedSharding via
// CanonicalizeSharding), docs/upstream.md § HloSharding semantics and § Worked import examples.
#include "shardbridge/hlo/named_sharding.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "shardbridge/hlo/text.h"
#include "hlo/test_helpers.h"

namespace shardbridge::hlo {
namespace {

using test_helpers::parse;


struct Conversion {
  const char* v2;
  const char* v3;
};

class ToNamed : public ::testing::TestWithParam<Conversion> {};

TEST_P(ToNamed, ConvertsAndBack) {
  HloSharding v2 = parse(GetParam().v2);
  auto v3 = toNamedSharding(v2);
  ASSERT_TRUE(v3.has_value()) << v3.error().message;
  EXPECT_EQ(v3->toString(), GetParam().v3);
  auto printed = printAsV3(v2);
  ASSERT_TRUE(printed.has_value());
  EXPECT_EQ(*printed, GetParam().v3);
  auto back = toV2Sharding(*v3);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == v2) << back->toString();
  EXPECT_TRUE(*v3 == v2);  // docs/upstream.md § HloSharding semantics: V3 vs V2 compares after V3 -> V2
}

INSTANTIATE_TEST_SUITE_P(
    Golden, ToNamed,
    ::testing::Values(
        // spmd_partitioner_util_test.cc CanonicalizeShardingV2Transposed / Trivial / V1*.
        Conversion{"{devices=[2,4]<=[4,2]T(1,0)}",
                   "{mesh['axis_0'=4,'axis_1'=2], [{'axis_1'}, {'axis_0'}]}"},
        Conversion{"{devices=[2,2]<=[4]}", "{mesh['axis_0'=2,'axis_1'=2], [{'axis_0'}, {'axis_1'}]}"},
        Conversion{"{devices=[2,2]0,1,2,3}",
                   "{mesh['axis_0'=2,'axis_1'=2], [{'axis_0'}, {'axis_1'}]}"},
        Conversion{"{devices=[2,2]0,2,1,3}",
                   "{mesh['axis_0'=2,'axis_1'=2], device_ids=(0,2,1,3), [{'axis_0'}, {'axis_1'}]}"},
        // shardy_bridge.md §5.5 example 5 (factor order by reshape dim).
        Conversion{"{devices=[6,35]<=[7,10,3]T(2,1,0)}",
                   "{mesh['axis_0'=7,'axis_1'=2,'axis_2'=5,'axis_3'=3], [{'axis_3', 'axis_1'}, "
                   "{'axis_2', 'axis_0'}]}"},
        // As upstream's ToNamedSharding behaves (docs/upstream.md § HloSharding semantics): explicit lists keep size-1 axes; unreduced ascending.
        Conversion{"{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dims={unreduced}}",
                   "{mesh['axis_0'=1,'axis_1'=4,'axis_2'=2], device_ids=(0,4,1,5,2,6,3,7), "
                   "[{'axis_0'}, {'axis_1'}], unreduced={'axis_2'}}"},
        // XLA aborts here (docs/upstream.md § HloSharding semantics); shardbridge uses device_ids.
        Conversion{"{devices=[4,2,5]<=[2,2,2,5]T(1,3,0,2)}",
                   "{mesh['axis_0'=4,'axis_1'=2,'axis_2'=5], device_ids=([2,2,2,5]T(1,3,0,2)), "
                   "[{'axis_0'}, {'axis_1'}, {'axis_2'}]}"},
        Conversion{"{devices=[2,1,4]<=[8] last_tile_dims={unreduced}}",
                   "{mesh['axis_0'=2,'axis_1'=4], [{'axis_0'}, {}], unreduced={'axis_1'}}"},
        Conversion{"{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}",
                   "{mesh['axis_0'=2,'axis_1'=2,'axis_2'=2], [{'axis_0'}], manual={'axis_1'}}"},
        Conversion{"{devices=[2,1,2]<=[4] last_tile_dim_replicate}",
                   "{mesh['axis_0'=2,'axis_1'=2], [{'axis_0'}, {}]}"},
        Conversion{"{replicated}", "{mesh[], replicated}"},
        Conversion{"{maximal device=5}", "{maximal_mesh[device_id=5]}"},
        Conversion{"{{replicated}, {devices=[2]<=[2]}}",
                   "{{mesh[], replicated}, {mesh['axis_0'=2], [{'axis_0'}]}}"}));

TEST(ToNamed, NoV3Form) {
  for (const char* text : {"{manual}", "{unknown}", "{unreduced}"}) {
    auto v3 = toNamedSharding(parse(text));
    ASSERT_FALSE(v3.has_value()) << text;
    EXPECT_EQ(v3.error().code, ErrorCode::kUnsupported);
    EXPECT_EQ(v3.error().message, std::string(text) +
                                      " has no V3 form (no mesh to name; XLA's ToNamedSharding "
                                      "aborts on it)");
  }
  auto dup = toNamedSharding(parse("{devices=[2]3,3}"));
  ASSERT_FALSE(dup.has_value());
  EXPECT_EQ(dup.error().message,
            "{devices=[2]3,3} has no V3 form: its devices cannot be a mesh (Device ids must be a "
            "permutation of [0,1,2,3...].)");
  auto maximal = toNamedSharding(parse("{devices=[2,2]<=[4] last_tile_dims={maximal}}"));
  ASSERT_FALSE(maximal.has_value());
  auto tuple = toNamedSharding(parse("{{replicated}, {manual}}"));
  ASSERT_FALSE(tuple.has_value());
  EXPECT_EQ(tuple.error().message.rfind("tuple element 1: {manual}", 0), 0u);
}

struct ToV2Case {
  const char* v3;
  const char* v2;
};
class ToV2 : public ::testing::TestWithParam<ToV2Case> {};

TEST_P(ToV2, Converts) {
  auto v2 = toV2Sharding(parse(GetParam().v3));
  ASSERT_TRUE(v2.has_value()) << v2.error().message;
  EXPECT_EQ(v2->toString(), GetParam().v2);
}

INSTANTIATE_TEST_SUITE_P(
    Golden, ToV2,
    ::testing::Values(
        // hlo_sharding_util_test.cc TileShapeWithMixedUnreducedSubgroupSharding.
        ToV2Case{"{mesh['a'=2,'b'=2], [{}, {}], unreduced={'b'}}",
                 "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={unreduced, replicated}}"},
        ToV2Case{"{mesh['a'=2,'b'=2], [{'a'}, {}], unreduced={'b'}}",
                 "{devices=[2,1,2]<=[4] last_tile_dims={unreduced}}"},
        // V3ToV2Sharding Replicated / Maximal.
        ToV2Case{"{mesh['a'=2,'b'=4,'c'=3,'d'=8], replicated}", "{replicated}"},
        ToV2Case{"{maximal_mesh[device_id=5]}", "{maximal device=5}"},
        ToV2Case{"{mesh['x'=8,'y'=4], [{'x':(1)2, 'x':(4)2}, {}]}",
                 "{devices=[4,1,8]<=[2,2,2,4]T(0,2,1,3) last_tile_dim_replicate}"},
        ToV2Case{"{mesh['a'=2,'b'=2], manual}", "{manual}"},
        ToV2Case{"{mesh['a'=2,'b'=2], unreduced}", "{unreduced}"},
        ToV2Case{"{mesh['x'=2,'y'=2], device_ids=(0,2,1,3), [{'y'}, {'x'}]}",
                 "{devices=[2,2]0,1,2,3}"},
        ToV2Case{"{mesh['a'=2,'b'=4], [{'b'}, {'a'}]}", "{devices=[4,2]<=[2,4]T(1,0)}"}));

TEST(NamedEquality, IgnoresNamesAndMetadataComparesV2) {
  EXPECT_TRUE(parse("{mesh['a'=2], [{'a'}]}") == parse("{mesh['b'=2], [{'b'}]}"));
  EXPECT_FALSE(parse("{mesh['a'=2], [{'a'}]}") == parse("{mesh['a'=2], [{'a', ?}]}"));
  EXPECT_TRUE(parse("{mesh['a'=2], [{'a'}], metadata={{op_name=\"x\"}}}") ==
              parse("{mesh['a'=2], [{'a'}]}"));
  EXPECT_TRUE(parse("{mesh['a'=2,'b'=2], [{'a'}]}") ==
              parse("{devices=[2,2]<=[4] last_tile_dim_replicate}"));
  EXPECT_TRUE(parse("{mesh[], replicated}") == parse("{replicated}"));
  EXPECT_TRUE(parse("{replicated}") == parse("{mesh['a'=4], replicated}"));
  EXPECT_FALSE(parse("{mesh['a'=2], [{'a'}]}") == parse("{devices=[2]1,0}"));
  EXPECT_TRUE(parse("{{mesh['a'=2], [{'a'}]}, {replicated}}") ==
              parse("{{devices=[2]<=[2]}, {mesh[], replicated}}"));
}

TEST(NamedPredicates, AnswerForTheV2Form) {
  HloSharding s = parse("{mesh['a'=2,'b'=2], [{'a'}]}");
  EXPECT_TRUE(s.isNamed());
  EXPECT_TRUE(s.isTiled());
  EXPECT_TRUE(s.hasPartialReplication());
  EXPECT_EQ(s.tiledDataRank(), 1);
  EXPECT_EQ(s.numTiles(), 2);
  EXPECT_EQ(s.replicationFactor(), 2);
  EXPECT_TRUE(parse("{mesh['a'=2], manual}").isManual());
  EXPECT_TRUE(parse("{maximal_mesh[device_id=3]}").isSingleDevice());
  EXPECT_EQ(parse("{maximal_mesh[device_id=3]}").uniqueDevice(), 3);
  EXPECT_TRUE(parse("{mesh[], replicated}").isReplicated());
  auto shape = parseShape("f32[4,6]");
  ASSERT_TRUE(shape.has_value());
  EXPECT_TRUE(parse("{mesh['a'=2], [{'a'}, {}]}").validate(*shape, 2).has_value());
  auto bad = parse("{mesh['a'=2], [{'a'}, {}]}").validate(*shape, 4);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message,
            "sharding should have 4 devices but has 2\n\tNote: While validating sharding "
            "{mesh['a'=2], [{'a'}, {}]} against shape f32[4,6]");
  auto tiles = parse("{mesh['a'=2], [{}, {'a'}]}").tileShape(*shape);
  ASSERT_TRUE(tiles.has_value());
  EXPECT_EQ(tiles->toString(), "f32[4,3]");
}

TEST(NamedModel, MetadataLivesInTheNamedSharding) {
  HloSharding s = parse("{mesh['a'=2], [{'a'}]}");
  OpMetadata md;
  md.opName = "x";
  HloSharding with = s.withMetadata({md}, false);
  EXPECT_EQ(with.metadata().size(), 1u);
  EXPECT_EQ(with.toString(true), "{mesh['a'=2], [{'a'}], metadata={{op_name=\"x\"}}}");
  EXPECT_TRUE(with.withoutMetadata().metadata().empty());
}

TEST(NamedModel, Errors) {
  auto mesh = Mesh::create({"a", "b"}, std::vector<int64_t>{2, 2});
  ASSERT_TRUE(mesh.has_value());
  auto outOfRange = NamedSharding::create(*mesh, {DimSharding{{AxisRef::full(2)}, true}});
  ASSERT_FALSE(outOfRange.has_value());
  EXPECT_EQ(outOfRange.error().message,
            "Axis index must be less than number of axes. Axis index: 2, Number of axes: 2");
  auto quote = Mesh::create({"a'b"}, std::vector<int64_t>{2});
  ASSERT_FALSE(quote.has_value());
  EXPECT_EQ(quote.error().message, "Mesh axis name cannot contain a single quote: a'b");
  auto big = Mesh::create({"a", "b"}, std::vector<int64_t>{int64_t{1} << 40, int64_t{1} << 40});
  ASSERT_FALSE(big.has_value());
  auto empty = Mesh::create({}, std::vector<int64_t>{});
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().message, "Mesh must have at least one axis.");
}

// toV2(toNamed(s)) == s for generated tiled V2 shardings.
RC_GTEST_PROP(NamedConversionProperty, V2RoundTrips, ()) {
  const int rank = *rc::gen::inRange(1, 4);
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i) dims.push_back(*rc::gen::element<int64_t>(1, 2, 3, 4, 6));
  const int64_t n = [&] {
    int64_t p = 1;
    for (int64_t d : dims) p *= d;
    return p;
  }();
  RC_PRE(n > 1);
  // A random reshape of n into 1-3 factors and a random perm.
  std::vector<int64_t> reshape{n};
  if (n % 2 == 0 && *rc::gen::arbitrary<bool>()) reshape = {2, n / 2};
  std::vector<int> perm(reshape.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
  if (perm.size() == 2 && *rc::gen::arbitrary<bool>()) std::swap(perm[0], perm[1]);
  auto tiles = TileAssignment::iota(dims, reshape, perm);
  RC_ASSERT(tiles.has_value());
  const int kind = *rc::gen::inRange(0, 4);
  std::vector<OpShardingType> types;
  if (rank >= 2 && kind == 1) types = {OpShardingType::kReplicated};
  if (rank >= 2 && kind == 2) types = {OpShardingType::kManual};
  if (rank >= 3 && kind == 3) types = {OpShardingType::kUnreduced, OpShardingType::kReplicated};
  auto s = HloSharding::subgroup(*tiles, types);
  RC_ASSERT(s.has_value());
  RC_PRE(s->isTiled());
  // With no data dim sharded, upstream's canonical V3 form has no dims at all
  // (CanonicalizedDimShardings), so the data rank cannot come back.
  RC_PRE(s->numTiles().value_or(1) > 1);
  auto v3 = toNamedSharding(*s);
  RC_ASSERT(v3.has_value());
  RC_LOG() << s->toString() << " -> " << v3->toString() << "\n";
  auto back = toV2Sharding(*v3);
  RC_ASSERT(back.has_value());
  RC_LOG() << back->toString() << "\n";
  RC_ASSERT(*back == *s);
  auto reparsed = parseSharding(v3->toString());
  RC_ASSERT(reparsed.has_value());
  RC_ASSERT(*reparsed == *v3);
}

}  // namespace
}  // namespace shardbridge::hlo
