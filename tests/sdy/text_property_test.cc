// Property: printing any attribute and parsing the text back yields the very
// same uniqued attribute (pointer equality), in the plain and the escaped
// (`\22`) spelling alike.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

// Mostly short familiar names, sometimes arbitrary bytes (quotes, backslashes,
// NUL, non-ASCII) to exercise escaping.
rc::Gen<std::string> genName() {
  return rc::gen::weightedOneOf<std::string>(
      {{6, rc::gen::element<std::string>("a", "b", "x", "y", "axis_0", "")},
       {1, rc::gen::container<std::string>(rc::gen::arbitrary<char>())},
       {1, rc::gen::container<std::string>(
               rc::gen::element<char>('"', '\\', '2', 'a', ' ', '\n', '\0', '\x80', '@'))}});
}

rc::Gen<int64_t> genInt() {
  return rc::gen::weightedOneOf<int64_t>(
      {{4, rc::gen::inRange<int64_t>(-2, 17)},
       {1, rc::gen::arbitrary<int64_t>()},
       {1, rc::gen::element<int64_t>(std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::max())}});
}

MeshAttr genMesh(Context& ctx) {
  auto count = *rc::gen::inRange<size_t>(0, 4);
  std::vector<MeshAxisAttr> axes;
  for (size_t i = 0; i < count; ++i) axes.push_back(MeshAxisAttr::get(ctx, *genName(), *genInt()));
  auto ids = *rc::gen::resize(6, rc::gen::container<std::vector<int64_t>>(genInt()));
  return MeshAttr::get(ctx, axes, ids);
}

AxisRefAttr genAxisRef(Context& ctx) {
  std::string name = *genName();
  if (*rc::gen::arbitrary<bool>()) return AxisRefAttr::get(ctx, name);
  return AxisRefAttr::get(ctx, name, *genInt(), *genInt());
}

std::vector<AxisRefAttr> genAxisRefs(Context& ctx, size_t max) {
  auto count = *rc::gen::inRange<size_t>(0, max + 1);
  std::vector<AxisRefAttr> out;
  for (size_t i = 0; i < count; ++i) out.push_back(genAxisRef(ctx));
  return out;
}

TensorShardingAttr genSharding(Context& ctx) {
  MeshOrRef meshOrRef = *rc::gen::arbitrary<bool>() ? MeshOrRef::ref(ctx, *genName())
                                                    : MeshOrRef::inlineMesh(genMesh(ctx));
  auto rank = *rc::gen::inRange<size_t>(0, 4);
  std::vector<DimensionShardingAttr> dims;
  for (size_t i = 0; i < rank; ++i) {
    std::optional<int64_t> priority;
    // Priorities are non-negative in text (`p<digits>`); negative ones are
    // the verifier's business and have no spelling.
    if (*rc::gen::arbitrary<bool>()) {
      priority = *rc::gen::weightedOneOf<int64_t>(
          {{3, rc::gen::inRange<int64_t>(0, 10)},
           {1, rc::gen::inRange<int64_t>(0, std::numeric_limits<int64_t>::max())}});
    }
    dims.push_back(DimensionShardingAttr::get(ctx, genAxisRefs(ctx, 3),
                                              *rc::gen::arbitrary<bool>(), priority));
  }
  auto replicated = genAxisRefs(ctx, 2);
  auto unreduced = genAxisRefs(ctx, 2);
  auto op = *rc::gen::element(ReductionOp::kSum, ReductionOp::kMax, ReductionOp::kMin);
  // Without unreduced axes the op is not printed, so only SUM survives.
  if (unreduced.empty()) op = ReductionOp::kSum;
  return TensorShardingAttr::get(ctx, meshOrRef, dims, replicated, unreduced, op);
}

template <typename T>
void checkRoundTrip(Context& ctx, const AnyAttr& attr) {
  for (bool escape : {false, true}) {
    PrintOptions options;
    options.escapeQuotes = escape;
    std::string text = printAttribute(attr, options);
    auto parsed = parseAttribute(ctx, text);
    RC_ASSERT(parsed.has_value());
    RC_ASSERT(std::holds_alternative<T>(*parsed));
    RC_ASSERT(std::get<T>(*parsed) == std::get<T>(attr));
  }
}

RC_GTEST_PROP(TextProperty, MeshRoundTrips, ()) {
  Context ctx;
  checkRoundTrip<MeshAttr>(ctx, AnyAttr(genMesh(ctx)));
}

RC_GTEST_PROP(TextProperty, MeshSymbolRoundTrips, ()) {
  Context ctx;
  checkRoundTrip<MeshSymbol>(ctx, AnyAttr(MeshSymbol{*genName(), genMesh(ctx)}));
}

RC_GTEST_PROP(TextProperty, ShardingRoundTrips, ()) {
  Context ctx;
  checkRoundTrip<TensorShardingAttr>(ctx, AnyAttr(genSharding(ctx)));
}

RC_GTEST_PROP(TextProperty, PerValueRoundTrips, ()) {
  Context ctx;
  auto count = *rc::gen::inRange<size_t>(0, 4);
  std::vector<TensorShardingAttr> list;
  for (size_t i = 0; i < count; ++i) list.push_back(genSharding(ctx));
  checkRoundTrip<TensorShardingPerValueAttr>(
      ctx, AnyAttr(TensorShardingPerValueAttr::get(ctx, list)));
}

RC_GTEST_PROP(TextProperty, StrippedFormsRoundTrip, ()) {
  Context ctx;
  TensorShardingAttr sharding = genSharding(ctx);
  auto parsed = parseTensorSharding(ctx, printTensorSharding(sharding, {.withPrefix = false}));
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(*parsed == sharding);
  MeshAttr mesh = genMesh(ctx);
  auto parsedMesh = parseMesh(ctx, printMesh(mesh, {.withPrefix = false}));
  RC_ASSERT(parsedMesh.has_value());
  RC_ASSERT(*parsedMesh == mesh);
}

// Whatever the bytes, parsing returns a value or a located error: never a
// crash, and the offset stays inside the text.
RC_GTEST_PROP(TextProperty, ArbitraryBytesNeverCrash, (const std::string& junk)) {
  Context ctx;
  for (std::string text : {junk, "#sdy.sharding<@m, [{" + junk, "#sdy.mesh<[" + junk}) {
    auto parsed = parseAttribute(ctx, text);
    if (!parsed) {
      RC_ASSERT(parsed.error().code == ErrorCode::kParse);
      RC_ASSERT(parsed.error().offset <= text.size());
    }
  }
}

}  // namespace
}  // namespace shardbridge::sdy
