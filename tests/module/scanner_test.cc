// module/scanner.h's OpTypeReader: the types after an op's dictionary, read
// as scanText reads them for onDict. One reader memoises what it found on
// the bytes it read (scanner.cc); a property checks that a reader that has
// seen many ops answers every one as a fresh reader does.
#include "module/scanner.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace shardbridge::module_detail {
namespace {

struct Read {
  bool ok = false;
  bool known = false;
  std::vector<std::string> types;
  bool operator==(const Read&) const = default;
};

Read readAt(OpTypeReader& reader, std::string_view text, size_t pos, std::string_view results) {
  ValueDict vd;
  Read r;
  r.ok = static_cast<bool>(reader.read(pos, results, vd));
  r.known = vd.typesKnown;
  for (const Span& s : vd.types) r.types.emplace_back(s.in(text));
  return r;
}

// The tails a dictionary is followed by: one type, a function type, a
// select's two types, a constant's literal, a type that goes on on the next
// line, a comment, nothing, and malformed ones.
const std::vector<std::string> kTails = {
    " : tensor<16x64xf32>",
    " : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>",
    " : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>)",
    " : tensor<4xi1>, tensor<4xf32>",
    " dense<0.000000e+00> : tensor<f32>",
    " : tensor<4xf32>,",
    " : tensor<4xf32> // a comment",
    "",
    " : (tensor<4xf32>",
    " : tensor<4x",
    " : !alias",
};
// What the next line starts with: another op, a continued type list, a
// comment, a region's end.
const std::vector<std::string> kNext = {"    %9 = stablehlo.abs %8 : tensor<4xf32>", "      tensor<4xf32>",
                                        "    , tensor<4xf32>", "    // note", "  }", ""};
const std::vector<std::string> kResults = {"%0", "%1:2", "%a, %b", ""};

RC_GTEST_PROP(OpTypeReader, AReaderThatHasSeenOtherOpsReadsAsAFreshOne, ()) {
  int lines = *rc::gen::inRange(1, 40);
  std::string text;
  struct Site {
    size_t pos;
    std::string results;
  };
  std::vector<Site> sites;
  for (int i = 0; i < lines; ++i) {
    std::string results = kResults[*rc::gen::inRange<size_t>(0, kResults.size())];
    text += "    " + (results.empty() ? std::string() : results + " = ") + "stablehlo.op %x {a = 1}";
    sites.push_back({text.size(), results});
    text += kTails[*rc::gen::inRange<size_t>(0, kTails.size())];
    text += "\n" + kNext[*rc::gen::inRange<size_t>(0, kNext.size())] + "\n";
  }
  if (*rc::gen::arbitrary<bool>()) text.pop_back();  // the last line without its '\n'
  OpTypeReader shared(text);
  // Each site twice over, so that the second reading of each is a memo hit.
  for (int round = 0; round < 2; ++round) {
    for (const Site& s : sites) {
      OpTypeReader fresh(text);
      RC_ASSERT(readAt(shared, text, s.pos, s.results) == readAt(fresh, text, s.pos, s.results));
    }
  }
}

TEST(OpTypeReader, ASelectsTypesAndAResultsTypeAreToldApartByTheResultCount) {
  // The same tail after a one-result op (a select: the last type is the
  // result's) and after a two-result op (one type each).
  std::string text =
      "%0 = stablehlo.select %p, %a, %b {a = 1} : tensor<4xi1>, tensor<4xf32>\n"
      "%1:2 = stablehlo.op %a {a = 1} : tensor<4xi1>, tensor<4xf32>\n";
  OpTypeReader reader(text);
  size_t first = text.find("} :") + 1;
  size_t second = text.find("} :", first) + 1;
  Read one = readAt(reader, text, first, "%0");
  EXPECT_TRUE(one.known);
  EXPECT_EQ(one.types, (std::vector<std::string>{"tensor<4xf32>"}));
  Read two = readAt(reader, text, second, "%1:2");
  EXPECT_TRUE(two.known);
  EXPECT_EQ(two.types, (std::vector<std::string>{"tensor<4xi1>", "tensor<4xf32>"}));
}

}  // namespace
}  // namespace shardbridge::module_detail
