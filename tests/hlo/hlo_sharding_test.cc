// Tests for HloSharding factories, normalisation, predicates, equality and
// printing. Golden strings from upstream xla/service/hlo_sharding_test.cc
// (test names cited) and docs/upstream.md § HLO sharding text and § HloSharding semantics.
#include "shardbridge/hlo/hlo_sharding.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "shardbridge/hlo/text.h"
#include "hlo/test_helpers.h"

namespace shardbridge::hlo {
namespace {

using test_helpers::genPerm;

using I64s = std::vector<int64_t>;
using Ints = std::vector<int>;
using T = OpShardingType;

OpMetadata named(const std::string& name) {
  OpMetadata md;
  md.opName = name;
  return md;
}

TileAssignment devs(I64s dims, I64s devices) {
  return TileAssignment::fromDevices(dims, std::move(devices)).value();
}
TileAssignment iota(I64s dims, I64s reshape = {}, Ints perm = {}) {
  if (reshape.empty()) return TileAssignment::iota(dims).value();
  return TileAssignment::iota(dims, reshape, perm).value();
}

TEST(HloShardingTest, Replicate) {
  // HloShardingRepresentationTest.Replicate
  HloSharding s = HloSharding::replicate();
  EXPECT_TRUE(s.isReplicated());
  EXPECT_TRUE(s.isTileMaximal());
  EXPECT_TRUE(s.usesDevice(0));
  EXPECT_TRUE(s.usesDevice(65535));
  EXPECT_FALSE(s.uniqueDevice().has_value());
  EXPECT_EQ(s, HloSharding());
  EXPECT_EQ(s.numTiles(), 1);
  EXPECT_FALSE(s.isTiled());
}

TEST(HloShardingTest, DevicePlacement) {
  // HloShardingRepresentationTest.DevicePlacement
  HloSharding s = HloSharding::singleDevice(5);
  EXPECT_FALSE(s.isReplicated());
  EXPECT_TRUE(s.isTileMaximal());
  EXPECT_FALSE(s.usesDevice(0));
  EXPECT_TRUE(s.usesDevice(5));
  EXPECT_EQ(s.uniqueDevice(), 5);
  EXPECT_NE(s, HloSharding::replicate());
  EXPECT_EQ(s.toString(), "{maximal device=5}");
}

TEST(HloShardingTest, ToStringWithMetadata) {
  // ToString/HloReplicateShardingWithMetadataTest, ...AssignDevice..., ...Tiled...
  const std::vector<OpMetadata> one = {named("a")};
  const std::vector<OpMetadata> two = {named("b"), named("c")};
  EXPECT_EQ(HloSharding::replicate(one).toString(), "{replicated}");
  EXPECT_EQ(HloSharding::replicate(one).toString(true), "{replicated metadata={op_name=\"a\"}}");
  EXPECT_EQ(HloSharding::replicate(two).toString(true),
            "{replicated metadata={{op_name=\"b\"}, {op_name=\"c\"}}}");
  EXPECT_EQ(HloSharding::singleDevice(7, one).toString(true),
            "{maximal device=7 metadata={op_name=\"a\"}}");
  EXPECT_EQ(HloSharding::singleDevice(7, two).toString(true),
            "{maximal device=7 metadata={{op_name=\"b\"}, {op_name=\"c\"}}}");
  auto tiled = HloSharding::tile(devs({2, 1, 2}, {2, 3, 5, 7}), two).value();
  EXPECT_EQ(tiled.toString(), "{devices=[2,1,2]2,3,5,7}");
  EXPECT_EQ(tiled.toString(true),
            "{devices=[2,1,2]2,3,5,7 metadata={{op_name=\"b\"}, {op_name=\"c\"}}}");
  EXPECT_EQ(HloSharding::manual(one).toString(true), "{manual metadata={op_name=\"a\"}}");
  EXPECT_EQ(HloSharding::unknown().toString(), "{unknown}");
  EXPECT_EQ(HloSharding::unreduced().toString(), "{unreduced}");
}

TEST(HloShardingTest, ToStringIotaAndTuple) {
  // HloShardingTest.ToStringIotaTiledTest
  EXPECT_EQ(HloSharding::iotaTile(I64s{3, 4}, I64s{2, 2, 3}, Ints{2, 1, 0}).value().toString(),
            "{devices=[3,4]<=[2,2,3]T(2,1,0)}");
  // HloShardingTest.ToStringTupleWithMetadataTest
  auto t = HloSharding::tuple({HloSharding::replicate({named("d")}),
                               HloSharding::tile(devs({1, 2}, {3, 5})).value(),
                               HloSharding::singleDevice(3, {named("e")})});
  EXPECT_EQ(t.toString(), "{{replicated}, {devices=[1,2]3,5}, {maximal device=3}}");
  EXPECT_EQ(t.toString(true),
            "{{replicated metadata={op_name=\"d\"}}, {devices=[1,2]3,5}, "
            "{maximal device=3 metadata={op_name=\"e\"}}}");
  // HloShardingTest.OstreamTest
  EXPECT_EQ(HloSharding::tile(devs({1, 1, 2, 2}, {0, 1, 2, 3})).value().toString(),
            "{devices=[1,1,2,2]0,1,2,3}");
  // Facts: every fifth element gets /*index=i*/; the empty tuple is {}.
  std::vector<HloSharding> seven(7, HloSharding::replicate());
  EXPECT_EQ(HloSharding::tuple(seven).toString(),
            "{{replicated}, {replicated}, {replicated}, {replicated}, {replicated}, "
            "/*index=5*/{replicated}, {replicated}}");
  EXPECT_EQ(HloSharding::tuple({}).toString(), "{}");
}

TEST(HloShardingTest, ShardGroupPrinting) {
  auto s = HloSharding::replicate({named("a")}).withShardGroup(ShardGroup::as(2));
  EXPECT_EQ(s.toString(true), "{replicated shard_as 2 metadata={op_name=\"a\"}}");
  auto t = HloSharding::iotaTile(I64s{2, 2}).value().withShardGroup(ShardGroup::like(1));
  EXPECT_EQ(t.toString(), "{devices=[2,2]<=[4] shard_like 1}");
  EXPECT_TRUE(t.isShardLike());
  EXPECT_FALSE(t.isShardAs());
  EXPECT_NE(t, HloSharding::iotaTile(I64s{2, 2}).value());
  // HloShardingRepresentationTest.EmptySingleTupleIsNotShardGroup
  EXPECT_FALSE(HloSharding::tuple({}).isShardGroup());
}

TEST(HloShardingTest, EqualityIgnoresMetadata) {
  EXPECT_EQ(HloSharding::replicate({named("a")}), HloSharding::replicate());
  // HloShardingTest.V1V2TileEquivalence
  EXPECT_EQ(HloSharding::tile(devs({2, 2}, {0, 1, 2, 3})).value(),
            HloSharding::iotaTile(I64s{2, 2}).value());
  EXPECT_EQ(HloSharding::tile(devs({2, 2}, {0, 2, 1, 3})).value(),
            HloSharding::iotaTile(I64s{2, 2}, I64s{2, 2}, Ints{1, 0}).value());
  EXPECT_EQ(HloSharding::tile(devs({2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7})).value(),
            HloSharding::iotaTile(I64s{2, 2, 2}, I64s{2, 2, 2}, Ints{2, 0, 1}).value());
  // HloShardingTest.V1V2PartialTileEquivalence
  EXPECT_EQ(HloSharding::partialTile(devs({2, 2}, {0, 2, 1, 3})).value(),
            HloSharding::partialTile(iota({2, 2}, {2, 2}, {1, 0})).value());
  EXPECT_EQ(HloSharding::partialTile(devs({2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7})).value(),
            HloSharding::partialTile(iota({2, 2, 2}, {2, 2, 2}, {2, 0, 1})).value());
  // HloShardingTest.V1V2SubgroupEquivalence
  const T mr[] = {T::kManual, T::kReplicated};
  EXPECT_EQ(HloSharding::subgroup(devs({2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7}), mr).value(),
            HloSharding::subgroup(iota({2, 2, 2}, {2, 2, 2}, {2, 0, 1}), mr).value());
  EXPECT_NE(HloSharding::tuple({}), HloSharding::replicate());
}

struct NormRow {
  const char* source;  // which upstream test / fact
  Result<HloSharding> sharding;
  std::string expected;
};

TEST(HloShardingTest, PartialTileAndSubgroupNormalization) {
  const T r[] = {T::kReplicated};
  const T m[] = {T::kManual};
  const T u[] = {T::kUnreduced};
  const T rm[] = {T::kReplicated, T::kManual};
  const T mr[] = {T::kManual, T::kReplicated};
  const T rr[] = {T::kReplicated, T::kReplicated};
  const T mx[] = {T::kMaximal};
  NormRow rows[] = {
      {"issue 3 done-when", HloSharding::subgroup(devs({2, 1, 2}, {3, 2, 1, 0}), r),
       "{devices=[2,1,2]2,3,0,1 last_tile_dim_replicate}"},
      {"partial tile: rank 1", HloSharding::partialTile(iota({4})), "{replicated}"},
      {"partial tile: group = all", HloSharding::partialTile(iota({1, 4})), "{replicated}"},
      {"partial tile: group 1", HloSharding::partialTile(devs({2, 1}, {1, 0})),
       "{devices=[2]1,0}"},
      {"partial tile: iota minor group", HloSharding::partialTile(iota({2, 2}, {2, 2}, {1, 0})),
       "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"},
      {"partial tile: split + sort",
       HloSharding::partialTile(iota({4, 4}, {2, 2, 2, 2}, {3, 2, 1, 0})),
       "{devices=[4,4]<=[4,2,2]T(2,1,0) last_tile_dim_replicate}"},
      {"upstream.md § XLA's canonicalisation: iota -> V1 fallback", HloSharding::partialTile(iota({2, 3, 4}, {2, 3, 4}, {2, 1, 0})),
       "{devices=[2,3,4]0,4,12,16,1,8,13,20,5,9,17,21,2,6,14,18,3,10,15,22,7,11,19,23 "
       "last_tile_dim_replicate}"},
      {"subgroup: none", HloSharding::subgroup(iota({2, 2}), {}), "{devices=[2,2]<=[4]}"},
      {"subgroup: manual only", HloSharding::subgroup(iota({1, 4}), m), "{manual}"},
      {"subgroup: unreduced only", HloSharding::subgroup(iota({1, 1, 4}), u), "{unreduced}"},
      {"subgroup: replicated x2 only", HloSharding::subgroup(iota({1, 2, 2}), rr), "{replicated}"},
      // HloShardingTest.NormalizeTrivialSubgroupToManual
      {"trivial subgroup -> manual", HloSharding::subgroup(devs({1, 2, 1}, {0, 1}), mr),
       "{manual}"},
      {"subgroup: merge equal types", HloSharding::subgroup(iota({2, 2, 2}), rr),
       "{devices=[2,4]<=[8] last_tile_dim_replicate}"},
      {"subgroup: order manual first", HloSharding::subgroup(iota({2, 2, 2}), rm),
       "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}"},
      {"subgroup: drop size 1", HloSharding::subgroup(iota({2, 2, 1}), mr),
       "{devices=[2,2]<=[4] last_tile_dims={manual}}"},
      {"subgroup: already normal", HloSharding::subgroup(iota({2, 2, 2}), mr),
       "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}"},
      {"subgroup: maximal kept", HloSharding::subgroup(iota({2, 2}), mx),
       "{devices=[2,2]<=[4] last_tile_dims={maximal}}"},
      {"subgroup: V1 reorder sorts groups", HloSharding::subgroup(devs({1, 2, 2}, {3, 2, 1, 0}), rm),
       "{devices=[1,2,2]1,3,0,2 last_tile_dims={manual, replicated}}"},
  };
  for (const auto& row : rows) {
    ASSERT_TRUE(row.sharding.has_value()) << row.source << ": " << row.sharding.error().message;
    EXPECT_EQ(row.sharding->toString(), row.expected) << row.source;
  }
}

TEST(HloShardingTest, FactoryErrors) {
  EXPECT_EQ(HloSharding::tile(TileAssignment()).error().message,
            "a tiled sharding needs a non-empty tile assignment");
  const T three[] = {T::kManual, T::kManual, T::kManual};
  EXPECT_EQ(HloSharding::subgroup(iota({2, 2}), three).error().message,
            "3 subgroup types for a tile assignment of rank 2");
  const T bad[] = {static_cast<T>(9)};
  EXPECT_EQ(HloSharding::subgroup(iota({2, 2}), bad).error().message, "invalid subgroup type 9");
  // Refuses to materialise a huge iota rather than allocating 16 GiB.
  auto huge = iota({3 << 20, 2, 4}, {2, 3, int64_t{1} << 22}, {2, 1, 0});
  EXPECT_EQ(HloSharding::partialTile(huge).error().code, ErrorCode::kUnsupported);
}

TEST(HloShardingTest, Predicates) {
  const T mr[] = {T::kManual, T::kReplicated};
  auto s = HloSharding::subgroup(iota({2, 3, 2, 2}), mr).value();
  EXPECT_TRUE(s.isTiled());
  EXPECT_TRUE(s.isManualSubgroup());
  EXPECT_FALSE(s.isUnreducedSubgroup());
  EXPECT_TRUE(s.hasPartialReplication());
  EXPECT_EQ(s.tiledDataRank(), 2);
  EXPECT_EQ(s.numTiles(), 6);
  EXPECT_EQ(s.totalNumTiles(), 24);
  EXPECT_EQ(s.replicationFactor(), 2);
  EXPECT_EQ(s.subgroupManualDim(), 2);
  EXPECT_EQ(s.subgroupReplicationDim(), 3);
  EXPECT_EQ(s.subgroupUnreducedDim(), -1);
  EXPECT_EQ(s.dimension(1), 3);

  auto p = HloSharding::partialTile(iota({2, 4})).value();
  EXPECT_TRUE(p.replicateOnLastTileDim());
  EXPECT_EQ(p.tiledDataRank(), 1);
  EXPECT_EQ(p.replicationFactor(), 4);
  EXPECT_EQ(p.subgroupReplicationDim(), 1);

  EXPECT_FALSE(HloSharding::manual().numTiles().has_value());
  EXPECT_TRUE(HloSharding::manual().isManual());
  EXPECT_FALSE(HloSharding::manual().isTiled());
  EXPECT_TRUE(HloSharding::unknown().isUnknown());
  EXPECT_TRUE(HloSharding::unreduced().isUnreduced());

  auto tup = HloSharding::tuple({HloSharding::singleDevice(2), HloSharding::singleDevice(2)});
  EXPECT_EQ(tup.uniqueDevice(), 2);
  EXPECT_TRUE(tup.isSingleDevice());
  auto tup2 = HloSharding::tuple({HloSharding::singleDevice(2), HloSharding::singleDevice(3)});
  EXPECT_FALSE(tup2.uniqueDevice().has_value());
  EXPECT_TRUE(tup2.usesDevice(3));
  EXPECT_FALSE(tup2.usesDevice(4));
  // A nested tuple contributes its leaves.
  EXPECT_EQ(HloSharding::tuple({tup, HloSharding::manual()}).tupleElements().size(), 3u);
}

TEST(HloShardingTest, MetadataHelpers) {
  auto t = HloSharding::tuple({HloSharding::replicate({named("x")}), HloSharding::manual()});
  auto filled = t.withMetadata({named("y")}, /*overwrite=*/false);
  EXPECT_EQ(filled.toString(true),
            "{{replicated metadata={op_name=\"x\"}}, {manual metadata={op_name=\"y\"}}}");
  auto over = t.withMetadata({named("y")}, /*overwrite=*/true);
  EXPECT_EQ(over.toString(true),
            "{{replicated metadata={op_name=\"y\"}}, {manual metadata={op_name=\"y\"}}}");
  EXPECT_EQ(over.withoutMetadata().toString(true), "{{replicated}, {manual}}");
}

// Random tile dims (product <= 64) with a random iota over them.
struct RandomTiles {
  I64s dims, reshape;
  Ints perm;
};


rc::Gen<RandomTiles> genTiles() {
  return rc::gen::exec([] {
    RandomTiles t;
    const size_t rank = *rc::gen::inRange<size_t>(2, 5);
    for (size_t i = 0; i < rank; ++i) t.dims.push_back(*rc::gen::element<int64_t>(1, 2, 2, 3, 4));
    // Reshape: the prime factors of the dims, grouped at random.
    I64s primes;
    for (int64_t d : t.dims) {
      for (int64_t x = d, f = 2; x > 1;) {
        if (x % f == 0) {
          primes.push_back(f);
          x /= f;
        } else {
          ++f;
        }
      }
    }
    if (primes.empty()) primes.push_back(1);
    const size_t parts = *rc::gen::inRange<size_t>(1, primes.size() + 1);
    t.reshape.assign(parts, 1);
    for (size_t i = 0; i < primes.size(); ++i) t.reshape[i % parts] *= primes[i];
    t.perm = genPerm(parts);
    return t;
  });
}

RC_GTEST_PROP(HloShardingProps, IotaAndExplicitNormaliseAlike, ()) {
  const auto t = *genTiles();
  auto ta = TileAssignment::iota(t.dims, t.reshape, t.perm).value();
  const I64s list(ta.devices().value().begin(), ta.devices().value().end());
  auto ex = TileAssignment::fromDevices(t.dims, list).value();
  // PartialTile: same devices whichever representation went in.
  auto a = HloSharding::partialTile(ta).value();
  auto b = HloSharding::partialTile(ex).value();
  RC_ASSERT(a == b);
  // Subgroup with random trailing types.
  const size_t n = *rc::gen::inRange<size_t>(1, t.dims.size());
  std::vector<T> types;
  for (size_t i = 0; i < n; ++i) {
    types.push_back(*rc::gen::element(T::kManual, T::kReplicated, T::kUnreduced, T::kMaximal));
  }
  auto c = HloSharding::subgroup(ta, types).value();
  auto d = HloSharding::subgroup(ex, types).value();
  RC_ASSERT(c == d);
  // Replication groups come out sorted.
  if (c.kind() == HloSharding::Kind::kTiled && c.subgroupReplicationDim() ==
                                                   c.tileAssignment().numDimensions() - 1) {
    const auto v = c.tileAssignment().devices().value();
    const auto g = static_cast<size_t>(c.replicationFactor());
    for (size_t i = 0; i < v.size(); i += g) RC_ASSERT(std::is_sorted(v.begin() + i, v.begin() + i + g));
  }
}

// HloSharding::iotaTile(dims) builds `[dims]<=[n]` without the
// canonicalising pass (docs/performance.md, fifth pass): it must give what
// the general path gives for reshape [n], perm [0], and refuse what
// TileAssignment::iota refuses with its error.
RC_GTEST_PROP(HloShardingProps, PlainIotaTileMatchesGeneralIota, ()) {
  const size_t rank = *rc::gen::inRange<size_t>(0, 11);
  I64s dims;
  for (size_t i = 0; i < rank; ++i) {
    dims.push_back(*rc::gen::weightedOneOf<int64_t>(
        {{8, rc::gen::inRange<int64_t>(1, 9)},
         {1, rc::gen::element<int64_t>(0, -1, int64_t{1} << 31, (int64_t{1} << 31) + 1)}}));
  }
  auto plain = HloSharding::iotaTile(dims);
  auto withMetadata = HloSharding::iotaTile(dims, std::vector<OpMetadata>{});
  auto tiles = TileAssignment::iota(dims);
  if (!tiles) {
    RC_ASSERT(!plain.has_value());
    RC_ASSERT(!withMetadata.has_value());
    RC_ASSERT(plain.error().message == tiles.error().message);
    RC_ASSERT(plain.error().code == tiles.error().code);
    return;
  }
  RC_ASSERT(plain.has_value());
  const int64_t n = tiles->numElements();
  const I64s reshape = {n};
  const Ints perm = {0};
  auto general = HloSharding::tile(TileAssignment::iota(dims, reshape, perm).value()).value();
  RC_ASSERT(*plain == general);
  RC_ASSERT(*plain == *withMetadata);
  RC_ASSERT(plain->toString() == general.toString());
  const auto& a = plain->tileAssignment().iotaForm();
  const auto& b = general.tileAssignment().iotaForm();
  RC_ASSERT(a.has_value() && b.has_value());
  RC_ASSERT(I64s(a->dims().begin(), a->dims().end()) == I64s(b->dims().begin(), b->dims().end()));
  RC_ASSERT(I64s(a->reshapeDims().begin(), a->reshapeDims().end()) ==
            I64s(b->reshapeDims().begin(), b->reshapeDims().end()));
  RC_ASSERT(Ints(a->transposePerm().begin(), a->transposePerm().end()) ==
            Ints(b->transposePerm().begin(), b->transposePerm().end()));
  RC_ASSERT(a->numElements() == b->numElements());
  if (n <= 4096) {
    const auto da = plain->tileAssignment().devices().value();
    const auto db = general.tileAssignment().devices().value();
    RC_ASSERT(I64s(da.begin(), da.end()) == I64s(db.begin(), db.end()));
  }
}

}  // namespace
}  // namespace shardbridge::hlo
