#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sdy/lexer.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

struct RoundTripCase {
  std::string input;
  std::string canonical;  // empty: the input is already canonical
};

class ParseRoundTripTest : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(ParseRoundTripTest, PrintsCanonicalForm) {
  const RoundTripCase& c = GetParam();
  Context ctx;
  auto parsed = parseAttribute(ctx, c.input);
  ASSERT_TRUE(parsed.has_value()) << c.input << "\n" << parsed.error().message << " at "
                                  << parsed.error().offset;
  std::string expected = c.canonical.empty() ? c.input : c.canonical;
  std::string printed = printAttribute(*parsed);
  EXPECT_EQ(printed, expected);
  // The canonical text parses back to the very same (uniqued) attribute.
  auto again = parseAttribute(ctx, printed);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_TRUE(*again == *parsed);
}

INSTANTIATE_TEST_SUITE_P(
    Forms, ParseRoundTripTest,
    ::testing::Values(
        // Meshes.
        RoundTripCase{"#sdy.mesh<[]>", ""},
        RoundTripCase{"#sdy.mesh<[], device_ids=[3]>", ""},
        RoundTripCase{"#sdy.mesh<[\"a\"=2, \"b\"=2], device_ids=[3, 2, 1, 0]>", ""},
        RoundTripCase{"#sdy.mesh<[\"a\"=2,\"b\"=4]>", "#sdy.mesh<[\"a\"=2, \"b\"=4]>"},
        RoundTripCase{"  #sdy.mesh < [ \"a\" = 2 ] , device_ids = [ 1 , 0 ] >  ",
                      "#sdy.mesh<[\"a\"=2], device_ids=[1, 0]>"},
        RoundTripCase{"<[\"a\"=2, \"b\"=2], device_ids=[0, 1, 2, 3]>",
                      "#sdy.mesh<[\"a\"=2, \"b\"=2]>"},
        RoundTripCase{"<[\"a\"=1], device_ids=[0]>", "#sdy.mesh<[\"a\"=1]>"},
        RoundTripCase{"[\"x\"=8]", "#sdy.mesh<[\"x\"=8]>"},
        RoundTripCase{"#sdy.mesh<[\"a\"=-2], device_ids=[-1, 0x1F]>",
                      "#sdy.mesh<[\"a\"=-2], device_ids=[-1, 31]>"},
        RoundTripCase{"#sdy.mesh<[\"a\"=9223372036854775807]>", ""},
        RoundTripCase{"#sdy.mesh<[], device_ids=[-9223372036854775808]>", ""},
        // Mesh symbols.
        RoundTripCase{"sdy.mesh @mesh = <[\"a\"=2]>", ""},
        RoundTripCase{"sdy.mesh @empty = <[]>", ""},
        RoundTripCase{"sdy.mesh @m = #sdy.mesh<[\"a\"=2]> {foo = \"}\", bar = {baz}}",
                      "sdy.mesh @m = <[\"a\"=2]>"},
        RoundTripCase{"sdy.mesh @\"my mesh\" = <[\"a\"=2]>", ""},
        RoundTripCase{"sdy.mesh @\"plain\" = <[\"a\"=2]>", "sdy.mesh @plain = <[\"a\"=2]>"},
        RoundTripCase{"sdy.mesh @_m.1$ = <[]>", ""},
        // Shardings.
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"c\"}>", ""},
        RoundTripCase{"#sdy.sharding<@mesh, []>", ""},
        RoundTripCase{"#sdy.sharding<@mesh, [{?}, {\"a\", \"b\", ?}, {}p0]>", ""},
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\":(2)2, \"b\"}p3]>", ""},
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\" : ( 2 ) 2}] >",
                      "#sdy.sharding<@mesh, [{\"a\":(2)2}]>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\"} p1]>", "#sdy.sharding<@mesh, [{\"a\"}p1]>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{}], unreduced={\"b\"}, replicated={\"a\"}>",
                      "#sdy.sharding<@mesh, [{}], replicated={\"a\"}, unreduced={\"b\"}>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{}], unreduced=max{\"w\"}>", ""},
        RoundTripCase{"#sdy.sharding<@mesh, [{}], unreduced=min{\"w\"}>", ""},
        RoundTripCase{"#sdy.sharding<@mesh, [{}], unreduced=sum{\"w\"}>",
                      "#sdy.sharding<@mesh, [{}], unreduced={\"w\"}>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{}], unreduced{\"w\"}>",
                      "#sdy.sharding<@mesh, [{}], unreduced={\"w\"}>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{}], replicated={\"a\", \"b\":(1)2}, "
                      "unreduced=max{\"c\"}>",
                      ""},
        RoundTripCase{"#sdy.sharding<mesh<[\"x\"=2]>, [{\"x\"}]>", ""},
        RoundTripCase{"#sdy.sharding<mesh<[], device_ids=[3]>, []>", ""},
        RoundTripCase{"<@mesh, [{\"a\"}]>", "#sdy.sharding<@mesh, [{\"a\"}]>"},
        RoundTripCase{"<mesh<[\"x\"=2]>, [{\"x\"}]>", "#sdy.sharding<mesh<[\"x\"=2]>, [{\"x\"}]>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\"}p9223372036854775807]>", ""},
        // Per value.
        RoundTripCase{"#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>, <@mesh, []>]>", ""},
        RoundTripCase{"#sdy.sharding_per_value<[]>", ""},
        RoundTripCase{"#sdy.sharding_per_value<[#sdy.sharding<@m, [{}]>]>",
                      "#sdy.sharding_per_value<[<@m, [{}]>]>"},
        RoundTripCase{"<[<@mesh, [{\"a\"}]>]>", "#sdy.sharding_per_value<[<@mesh, [{\"a\"}]>]>"},
        RoundTripCase{"#sdy.sharding_per_value<[<mesh<[\"a\"=2, \"b\"=4]>, [{\"a\"}, {}]>, "
                      "<@foo, [{\"a\"}, {}]>]>",
                      ""},
        // Names: MLIR escapes in, MLIR escaping out.
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\\\"b\"}]>",
                      "#sdy.sharding<@mesh, [{\"a\\22b\"}]>"},
        RoundTripCase{"#sdy.sharding<@mesh, [{\"a\\\\b\\n\\t\\7f\"}]>",
                      "#sdy.sharding<@mesh, [{\"a\\\\b\\0A\\09\\7F\"}]>"},
        RoundTripCase{std::string("#sdy.mesh<[\"a\0b\"=2]>", 20), "#sdy.mesh<[\"a\\00b\"=2]>"},
        RoundTripCase{"#sdy.mesh<[\"\xc3\xa9\"=2]>", "#sdy.mesh<[\"\\C3\\A9\"=2]>"},
        RoundTripCase{"#sdy.mesh<[\"\"=2]>", ""},
        // The escaped form found in frontend attributes.
        RoundTripCase{"#sdy.sharding<@mesh, [{\\22a\\22, ?}, {}], replicated={\\22c\\22}>",
                      "#sdy.sharding<@mesh, [{\"a\", ?}, {}], replicated={\"c\"}>"},
        RoundTripCase{"#sdy.mesh<[\\22a\\22=2, \"b\"=2]>", "#sdy.mesh<[\"a\"=2, \"b\"=2]>"},
        RoundTripCase{"sdy.mesh @\\22m m\\22 = <[]>", "sdy.mesh @\"m m\" = <[]>"},
        RoundTripCase{"#sdy.mesh<[\\22a\\\\22b\\22=2]>", "#sdy.mesh<[\"a\\22b\"=2]>"},
        // Comments are whitespace, as in MLIR.
        RoundTripCase{"#sdy.mesh<[\"a\"=2] // the mesh\n>", "#sdy.mesh<[\"a\"=2]>"}));

// Messages and places are MLIR's (docs/sdy_parse_errors.md);
// parser_diagnostics_test.cc renders a selection in full.
constexpr std::string_view kAxes =
    "failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`";
constexpr std::string_view kIds =
    "failed to parse Sdy_Mesh parameter 'device_ids' which is to be a `::llvm::ArrayRef<int64_t>`";
constexpr std::string_view kDims =
    "failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
    "`::llvm::ArrayRef<DimensionShardingAttr>`";
constexpr std::string_view kRepl = "failed to parse Sdy_TensorSharding parameter 'replicated_axes'";
constexpr std::string_view kUnred = "failed to parse Sdy_TensorSharding parameter 'unreduced_axes'";
constexpr std::string_view kNamed =
    "failed to parse Sdy_TensorSharding, expected valid named axis list after comma";
constexpr std::string_view kShardings =
    "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' which is to be a "
    "`::llvm::ArrayRef<TensorShardingAttr>`";
constexpr std::string_view kUnbalancedLess = "unbalanced '<' character in pretty dialect name";

struct ErrorCase {
  std::string input;
  std::string message;
  size_t offset;
  std::string note = "";  // "" for no note
  size_t noteOffset = Error::kNoOffset;
};

ErrorCase noted(std::string input, std::string message, size_t offset, std::string_view note,
                size_t noteOffset) {
  return ErrorCase{std::move(input), std::move(message), offset, std::string(note), noteOffset};
}

class ParseErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParseErrorTest, ReportsLocatedError) {
  const ErrorCase& c = GetParam();
  Context ctx;
  auto parsed = parseAttribute(ctx, c.input);
  ASSERT_FALSE(parsed.has_value()) << c.input;
  EXPECT_EQ(parsed.error().code, ErrorCode::kParse);
  EXPECT_EQ(parsed.error().message, c.message) << c.input;
  EXPECT_EQ(parsed.error().offset, c.offset) << c.input;
  EXPECT_EQ(parsed.error().note, c.note) << c.input;
  EXPECT_EQ(parsed.error().noteOffset, c.noteOffset) << c.input;
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ParseErrorTest,
    ::testing::Values(
        ErrorCase{"", "expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or "
                      "'sdy.mesh', got end of input", 0},
        ErrorCase{"#sdy.foo<>", "expected '#sdy.mesh', '#sdy.sharding', "
                                "'#sdy.sharding_per_value' or 'sdy.mesh', got '#sdy.foo'", 0},
        // Meshes.
        ErrorCase{"#sdy.mesh[]", "expected '<'", 9},
        ErrorCase{"#sdy.mesh<[\"a\"=2 \"b\"=2]>", "expected ']'", 16},
        noted("#sdy.mesh<[a=2]>", "expected string", 11, kAxes, 11),
        noted("#sdy.mesh<[\"a\"2]>", "expected '='", 14, kAxes, 14),
        noted("#sdy.mesh<[\"a\"=]>", "expected integer value", 15, kAxes, 15),
        noted("#sdy.mesh<[\"a\"=99999999999999999999]>", "integer value too large", 15, kAxes,
              15),
        noted("#sdy.mesh<[\"a\"=9223372036854775808]>", "integer value too large", 15, kAxes, 15),
        // After a '-', MLIR points at the digits.
        noted("#sdy.mesh<[], device_ids=[-9223372036854775809]>", "integer value too large", 27,
              kIds, 27),
        ErrorCase{"#sdy.mesh<[\"a\"=2],>", "expected 'device_ids'", 18},
        ErrorCase{"#sdy.mesh<[\"a\"=2], device_ids[0]>", "expected '='", 29},
        ErrorCase{"#sdy.mesh<[\"a\"=2], device_ids=0>", "expected '['", 30},
        noted("#sdy.mesh<[], device_ids=[]>", "expected integer value", 26, kIds, 26),
        ErrorCase{"#sdy.mesh<[], device_ids=[0 1]>", "expected ']'", 27},
        noted("#sdy.mesh<[], device_ids=[0, 1,]>", "expected integer value", 31, kIds, 31),
        // The pretty body is scanned first; the caret is at the last string.
        ErrorCase{"#sdy.mesh<[\"a\"=2]", std::string(kUnbalancedLess), 11},
        ErrorCase{"#sdy.mesh<[\"a\"=2]> x", "found trailing characters: 'x'", 19},
        noted("#sdy.mesh<[\"a\"=1.5]>", "expected integer value", 15, kAxes, 15),
        // The stripped form has no such scan.
        ErrorCase{"<[\"a\"=2]", "expected '>'", 7},
        // Strings and bytes.
        ErrorCase{"#sdy.mesh<[\"a=2]>", "expected '\"' in string literal", 17},
        ErrorCase{"#sdy.mesh<[\"a\n\"=2]>", "expected '\"' in string literal", 13},
        ErrorCase{"#sdy.mesh<[\"a\\q\"=2]>", "unknown escape in string literal", 13},
        ErrorCase{"#sdy.mesh<[\"a\\4\"=2]>", "unknown escape in string literal", 13},
        // A NUL ends MLIR's scan of the body, as the end of the input does.
        ErrorCase{std::string("#sdy.mesh<[\0]>", 14),
                  "unbalanced '[' character in pretty dialect name", 9},
        ErrorCase{std::string("<[\0]>", 5), "unexpected character '\\00'", 2},
        ErrorCase{"#sdy.mesh<[$]>", "unexpected character '$'", 11},
        ErrorCase{"#sdy.mesh<[\\23]>", "unexpected character '\\'", 11},
        ErrorCase{"#sdy.mesh<[\\22a=2]>", "expected '\"' in string literal", 19},
        ErrorCase{"#sdy.mesh<[\\22a\"=2]>",
                  "expected '\\22' to close the escaped string literal, got '\"'", 15},
        ErrorCase{"#", "expected an attribute name after '#'", 0},
        ErrorCase{"sdy.mesh @1 = <[]>", "@ identifier expected to start with letter or '_'", 10},
        // Mesh symbols.
        ErrorCase{"sdy.mesh mesh = <[]>", "expected valid '@'-identifier for symbol name", 9},
        ErrorCase{"sdy.mesh @m <[]>", "expected '='", 11},
        ErrorCase{"sdy.mesh @m = [\"a\"=2]", "expected '<'", 13},
        ErrorCase{"sdy.mesh @m = <[]> {a = {}", "expected '}' to close the attribute dictionary",
                  19},
        // Shardings.
        noted("#sdy.sharding<mesh, [{}]>", "expected '<'", 18, "failed to parse MeshAttr", 18),
        noted("#sdy.sharding<mesh<[\"a\" 2]>, [{}]>", "expected '='", 23, kAxes, 24),
        noted("#sdy.sharding<\"mesh\", [{}]>", "invalid kind of attribute specified", 14,
              "expecting MeshAttr or FlatSymbolRefAttr, got: <<NULL ATTRIBUTE>>", 20),
        noted("#sdy.sharding<i32, [{}]>", "invalid kind of attribute specified", 14,
              "expecting MeshAttr or FlatSymbolRefAttr, got: <<NULL ATTRIBUTE>>", 17),
        noted("#sdy.sharding<, [{}]>", "expected attribute value", 14,
              "expecting MeshAttr or FlatSymbolRefAttr, got: <<NULL ATTRIBUTE>>", 14),
        ErrorCase{"#sdy.sharding<@mesh [{}]>", "expected ','", 19},
        ErrorCase{"#sdy.sharding<@mesh, {}>", "expected '['", 20},
        ErrorCase{"#sdy.sharding<@mesh, [{} {}]>", "expected ']'", 24},
        noted("#sdy.sharding<@mesh, [\"a\"]>", "expected '{'", 22, kDims, 22),
        noted("#sdy.sharding<@mesh, [{\"a\" \"b\"}]>", "expected ','", 26, kDims, 27),
        noted("#sdy.sharding<@mesh, [{?, \"a\"}]>", "expected '}'", 24, kDims, 24),
        noted("#sdy.sharding<@mesh, [{a}]>", "expected string", 23, kDims, 23),
        noted("#sdy.sharding<@mesh, [{\"a\",}]>", "expected string", 27, kDims, 27),
        noted("#sdy.sharding<@mesh, [{\"a\":2}]>", "expected '('", 27, kDims, 27),
        noted("#sdy.sharding<@mesh, [{\"a\":(x)2}]>", "expected integer value", 28, kDims, 28),
        // MLIR's scan of the body sees the '(' closed by '}'; the stripped
        // form reaches the parser.
        ErrorCase{"#sdy.sharding<@mesh, [{\"a\":(1 2}]>",
                  "unbalanced '(' character in pretty dialect name", 23},
        noted("<@mesh, [{\"a\":(1 2}]>", "expected ')'", 16, kDims, 17),
        noted("#sdy.sharding<@mesh, [{\"a\":(1)}]>", "expected integer value", 30, kDims, 30),
        noted("#sdy.sharding<@mesh, [{\"a\":(1)99999999999999999999}]>",
              "integer value too large", 30, kDims, 30),
        ErrorCase{"#sdy.sharding<@mesh, [{}]", std::string(kUnbalancedLess), 13},
        ErrorCase{"<@mesh, [{}]", "expected '>'", 11},
        // Priorities (upstream wording), just past the word.
        noted("#sdy.sharding<@foo, [{\"a\"}, {\"b\"}phigh]>",
              "expecting priority in format 'p<number>', got: phigh", 38, kDims, 38),
        noted("#sdy.sharding<@foo, [{\"a\"}p]>",
              "expecting priority in format 'p<number>', got: p", 27, kDims, 27),
        noted("#sdy.sharding<@foo, [{\"a\"}q1]>",
              "expecting priority in format 'p<number>', got: q1", 28, kDims, 28),
        noted("#sdy.sharding<@foo, [{\"a\"}p1.5]>",
              "expecting priority in format 'p<number>', got: p1.5", 30, kDims, 30),
        noted("#sdy.sharding<@foo, [{\"a\"}p01, {\"b\"}]>",
              "priorities with leading zeros are not allowed, got: p01", 29, kDims, 29),
        noted("#sdy.sharding<@foo, [{\"a\"}, {\"b\"}p9999999999999999999]>",
              "expecting integer priority, got: p9999999999999999999", 53, kDims, 53),
        noted("#sdy.sharding<@foo, [{\"a\"}p9223372036854775808]>",
              "expecting integer priority, got: p9223372036854775808", 46, kDims, 46),
        // Named axis lists.
        noted("#sdy.sharding<@m, [{}], replicated{\"a\"}>", "expected '='", 34, kRepl, 34),
        noted("#sdy.sharding<@m, [{}], replicated=\"a\">", "expected '{'", 35, kRepl, 35),
        noted("#sdy.sharding<@m, [{}], replicated={\"a\" \"b\"}>", "expected '}'", 39, kRepl,
              40),
        noted("#sdy.sharding<@m, [{}], replicated={}>", "expected string", 36, kRepl, 36),
        noted("#sdy.sharding<@m, [{}], replicated={\"a\", ?}>", "expected string", 41, kRepl,
              41),
        ErrorCase{"#sdy.sharding<@m, [{}], replicated={\"a\":(1}>",
                  "unbalanced '(' character in pretty dialect name", 36},
        noted("<@m, [{}], replicated={\"a\":(1}>", "expected ')'", 29, kRepl, 29),
        ErrorCase{"#sdy.sharding<@m, [{}], replicated={\"a}>", "expected '\"' in string literal",
                  40},
        noted("#sdy.sharding<@m, [{}], unreduced=avg{\"a\"}>", "expected '{'", 34, kUnred, 34),
        noted("#sdy.sharding<@m, [{}], unreduced max{\"a\"}>", "expected '{'", 33, kUnred, 34),
        // MLIR's scan finds the '{' closed by '>' before the parser runs.
        ErrorCase{"#sdy.sharding<@m, [{}], unreduced={\"a\">",
                  "unbalanced '{' character in pretty dialect name", 35},
        noted("<@m, [{}], unreduced={\"a\">", "expected '}'", 25, kUnred, 25),
        ErrorCase{"#sdy.sharding<@m, [{}],>", std::string(kNamed), 23},
        ErrorCase{"#sdy.sharding<@m, [{}], foo={\"a\"}>", std::string(kNamed), 24},
        ErrorCase{"#sdy.sharding<@m, [{}], replicated={\"a\"}, replicated={\"b\"}>",
                  std::string(kNamed), 42},
        ErrorCase{"#sdy.sharding<@m, [{}], unreduced={\"a\"}, unreduced={\"b\"}>",
                  std::string(kNamed), 41},
        // Per value.
        ErrorCase{"#sdy.sharding_per_value<@m, []>", "expected '['", 24},
        noted("#sdy.sharding_per_value<[@m, []]>", "expected '<'", 25, kShardings, 25),
        noted("#sdy.sharding_per_value<[<@m, []>, <@m [{}]>]>", "expected ','", 38, kShardings,
              39),
        noted("#sdy.sharding_per_value<[<@m, [{\"a\" \"b\"}]>]>", "expected ','", 35, kDims, 36),
        ErrorCase{"#sdy.sharding_per_value<[<@m, []> <@m, []>]>", "expected ']'", 33},
        ErrorCase{"#sdy.sharding_per_value<[]", std::string(kUnbalancedLess), 23}));

TEST(ParserTest, SpecificEntryPointsAcceptTheirForms) {
  Context ctx;
  auto mesh = parseMesh(ctx, "[\"a\"=2], device_ids=[1, 0]");
  ASSERT_TRUE(mesh.has_value());
  EXPECT_EQ(printMesh(*mesh), "#sdy.mesh<[\"a\"=2], device_ids=[1, 0]>");
  auto angled = parseMesh(ctx, "<[\"a\"=2], device_ids=[1, 0]>");
  ASSERT_TRUE(angled.has_value());
  EXPECT_TRUE(*angled == *mesh);

  auto symbol = parseMeshSymbol(ctx, "sdy.mesh @m = <[\"a\"=2]> {}");
  ASSERT_TRUE(symbol.has_value());
  EXPECT_EQ(symbol->name, "m");

  auto sharding = parseTensorSharding(ctx, "<@m, [{\"a\"}]>");
  ASSERT_TRUE(sharding.has_value());
  EXPECT_EQ(sharding->meshOrRef().refName(), "m");

  auto perValue = parseTensorShardingPerValue(ctx, "<[<@m, [{\"a\"}]>]>");
  ASSERT_TRUE(perValue.has_value());
  ASSERT_EQ(perValue->shardings().size(), 1u);
  EXPECT_TRUE(perValue->shardings()[0] == *sharding);

  // Each entry point rejects the others' forms.
  EXPECT_FALSE(parseMesh(ctx, "#sdy.sharding<@m, []>").has_value());
  EXPECT_FALSE(parseTensorSharding(ctx, "#sdy.mesh<[]>").has_value());
  EXPECT_FALSE(parseMeshSymbol(ctx, "#sdy.mesh<[]>").has_value());
  EXPECT_FALSE(parseTensorShardingPerValue(ctx, "#sdy.sharding<@m, []>").has_value());
}

TEST(ParserTest, NegativeValuesParseForTheVerifierToReject) {
  Context ctx;
  auto mesh = parseMesh(ctx, "#sdy.mesh<[\"a\"=-2, \"b\"=0], device_ids=[-1]>");
  ASSERT_TRUE(mesh.has_value());
  EXPECT_EQ(mesh->axes()[0].size(), -2);
  EXPECT_EQ(mesh->axes()[1].size(), 0);
  EXPECT_EQ(mesh->deviceIds()[0], -1);
  auto sharding = parseTensorSharding(ctx, "#sdy.sharding<@m, [{\"a\":(-1)-2}]>");
  ASSERT_TRUE(sharding.has_value());
  AxisRefAttr axis = sharding->dimShardings()[0].axes()[0];
  EXPECT_EQ(axis.subAxisInfo().preSize(), -1);
  EXPECT_EQ(axis.subAxisInfo().size(), -2);
}

TEST(ParserTest, ParsesTheModel) {
  Context ctx;
  auto parsed = parseTensorSharding(
      ctx, "#sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"c\"}, unreduced=min{\"d\"}>");
  ASSERT_TRUE(parsed.has_value());
  TensorShardingAttr s = *parsed;
  ASSERT_EQ(s.rank(), 2);
  EXPECT_TRUE(s.dimShardings()[0].isOpen());
  EXPECT_EQ(s.dimShardings()[0].priority(), std::optional<int64_t>(1));
  EXPECT_TRUE(s.dimShardings()[1].isClosed());
  EXPECT_FALSE(s.dimShardings()[1].priority().has_value());
  ASSERT_EQ(s.replicatedAxes().size(), 1u);
  EXPECT_EQ(s.replicatedAxes()[0].name(), "c");
  ASSERT_EQ(s.unreducedAxes().size(), 1u);
  EXPECT_EQ(s.reductionOp(), ReductionOp::kMin);
  std::vector<DimensionShardingAttr> dims = {
      DimensionShardingAttr::get(ctx, std::vector<AxisRefAttr>{AxisRefAttr::get(ctx, "a")},
                                 false, 1),
      DimensionShardingAttr::get(ctx, {}, true)};
  std::vector<AxisRefAttr> replicated = {AxisRefAttr::get(ctx, "c")};
  std::vector<AxisRefAttr> unreduced = {AxisRefAttr::get(ctx, "d")};
  EXPECT_TRUE(s == TensorShardingAttr::get(ctx, MeshOrRef::ref(ctx, "mesh"), dims, replicated,
                                           unreduced, ReductionOp::kMin));
}

TEST(ParserTest, RecordsSourceLocations) {
  Context ctx;
  //                  0         1         2         3         4         5
  //                  0123456789012345678901234567890123456789012345678901234567
  std::string text = "#sdy.sharding<@mesh, [{\"a\", \"b\":(1)2}p1, {}], replicated={\"c\"}, "
                     "unreduced={\"d\", \"e\"}>";
  SourceMap map;
  ASSERT_TRUE(parseTensorSharding(ctx, text, &map).has_value());
  using P = AttrPath::Part;
  EXPECT_EQ(map.find({P::kWhole}), 0u);
  EXPECT_EQ(map.find({P::kMeshOrRef}), 14u);
  EXPECT_EQ(map.find({P::kDim, -1, 0}), 22u);
  EXPECT_EQ(map.find({P::kDimAxis, -1, 0, 0}), 23u);
  EXPECT_EQ(map.find({P::kDimAxis, -1, 0, 1}), 28u);
  EXPECT_EQ(map.find({P::kDimPriority, -1, 0}), 37u);
  EXPECT_EQ(map.find({P::kDim, -1, 1}), 41u);
  EXPECT_EQ(map.find({P::kReplicatedAxis, -1, 0}), 58u);
  EXPECT_EQ(map.find({P::kUnreducedAxis, -1, 0}), 75u);
  EXPECT_EQ(map.find({P::kUnreducedAxis, -1, 1}), 80u);
  // Unrecorded parts fall back to the enclosing one.
  EXPECT_EQ(map.find({P::kDimPriority, -1, 1}), 41u);
}

TEST(ParserTest, RecordsMeshLocations) {
  Context ctx;
  //                  0         1         2         3         4
  //                  01234567890123456789012345678901234567890123456
  std::string text = "#sdy.mesh<[\"a\"=2, \"b\"=-3], device_ids=[5, 4]>";
  SourceMap map;
  ASSERT_TRUE(parseMesh(ctx, text, &map).has_value());
  using P = AttrPath::Part;
  EXPECT_EQ(map.find({P::kMeshAxis, -1, 0}), 11u);
  EXPECT_EQ(map.find({P::kMeshAxisSize, -1, 0}), 15u);
  EXPECT_EQ(map.find({P::kMeshAxis, -1, 1}), 18u);
  EXPECT_EQ(map.find({P::kMeshAxisSize, -1, 1}), 22u);
  EXPECT_EQ(map.find({P::kDeviceIds}), 38u);
  EXPECT_EQ(map.find({P::kDeviceId, -1, 0}), 39u);
  EXPECT_EQ(map.find({P::kDeviceId, -1, 1}), 42u);

  SourceMap symbolMap;
  ASSERT_TRUE(parseMeshSymbol(ctx, "sdy.mesh @m = <[\"x\"=2]>", &symbolMap).has_value());
  EXPECT_EQ(symbolMap.find({P::kWhole}), 0u);
  EXPECT_EQ(symbolMap.find({P::kMeshAxis, -1, 0}), 16u);
}

TEST(ParserTest, RecordsPerValueAndInlineMeshLocations) {
  Context ctx;
  //                  0         1         2         3         4         5
  //                  012345678901234567890123456789012345678901234567890123456
  std::string text = "#sdy.sharding_per_value<[<@m, [{\"a\"}]>, <mesh<[\"x\"=2]>, [{\"x\"}]>]>";
  SourceMap map;
  ASSERT_TRUE(parseAttribute(ctx, text, &map).has_value());
  using P = AttrPath::Part;
  EXPECT_EQ(map.find({P::kWhole}), 0u);
  EXPECT_EQ(map.find({P::kWhole, 0}), 25u);
  EXPECT_EQ(map.find({P::kDimAxis, 0, 0, 0}), 32u);
  EXPECT_EQ(map.find({P::kWhole, 1}), 40u);
  EXPECT_EQ(map.find({P::kMeshOrRef, 1}), 41u);
  EXPECT_EQ(map.find({P::kMeshAxis, 1, 0}), 47u);
  EXPECT_EQ(map.find({P::kMeshAxisSize, 1, 0}), 51u);
  EXPECT_EQ(map.find({P::kDimAxis, 1, 0, 0}), 58u);
}

TEST(ParserTest, LocationsPointIntoTheEscapedText) {
  Context ctx;
  //                  0         1         2         3
  //                  0123456789012345678901234567890123456
  std::string text = "#sdy.sharding<@m, [{\\22a\\22}, {\\22b\\22}]>";
  SourceMap map;
  ASSERT_TRUE(parseTensorSharding(ctx, text, &map).has_value());
  EXPECT_EQ(map.find({AttrPath::Part::kDimAxis, -1, 1, 0}), 31u);
}

TEST(ParserTest, EnforcesInputSizeLimit) {
  Context ctx;
  ParseOptions options;
  options.maxInputBytes = 10;
  auto parsed = parseAttribute(ctx, "#sdy.mesh<[\"a\"=2]>", nullptr, options);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().message, "input is too large: 18 bytes, the limit is 10");
  EXPECT_EQ(parsed.error().offset, 10u);
}

TEST(ParserTest, HostileInputsFailCleanly) {
  Context ctx;
  std::string braces(1 << 20, '{');
  auto a = parseAttribute(ctx, "#sdy.sharding<@m, [" + braces);
  ASSERT_FALSE(a.has_value());
  // MLIR's scan of the pretty body finds the innermost '{' unclosed.
  EXPECT_EQ(a.error().message, "unbalanced '{' character in pretty dialect name");
  EXPECT_EQ(a.error().offset, 13u);
  // The stripped form reaches the parser: one dimension, then '{' again.
  auto a2 = parseAttribute(ctx, "<@m, [" + braces);
  ASSERT_FALSE(a2.has_value());
  EXPECT_EQ(a2.error().message, "expected string");
  EXPECT_EQ(a2.error().offset, 7u);

  auto b = parseAttribute(ctx, "sdy.mesh @m = <[]> " + braces);
  ASSERT_FALSE(b.has_value());
  EXPECT_EQ(b.error().message, "attribute dictionary nested too deeply");

  std::string longString = "#sdy.mesh<[\"" + std::string(1 << 20, 'a');
  auto c = parseAttribute(ctx, longString);
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().offset, longString.size());

  std::string digits(1 << 20, '9');
  auto d = parseAttribute(ctx, "#sdy.mesh<[\"a\"=" + digits + "]>");
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().message, "integer value too large");

  std::string many = "#sdy.mesh<[], device_ids=[";
  for (int i = 0; i < 100000; ++i) many += "1,";
  many += "1]>";
  EXPECT_TRUE(parseAttribute(ctx, many).has_value());
}

TEST(ParserTest, ErrorsLeaveTheLocationsOfWhatParsed) {
  Context ctx;
  SourceMap map;
  map.add({AttrPath::Part::kWhole}, 99);
  EXPECT_FALSE(parseTensorSharding(ctx, "#sdy.sharding<@m, [{\"a\"}, x]>", &map).has_value());
  // The map is reset on entry, so no stale entry survives.
  EXPECT_EQ(map.find({AttrPath::Part::kWhole}), 0u);
}

// The lexer is private to the parser; these pin its token boundaries and the
// decoding of both string spellings.
TEST(LexerTest, SplitsTokensAndDecodesStrings) {
  using lexer::TokenKind;
  std::string text = "#sdy.mesh< \"a\\22\" \\22b\\5C22\\22 @x.y @\"q q\" p01 0x1F 1.5e3 - ?";
  lexer::Lexer lex(text);
  struct Expected {
    TokenKind kind;
    std::string value;
    std::string spelling;
  };
  std::vector<Expected> want = {
      {TokenKind::kHashIdent, "", "#sdy.mesh"},
      {TokenKind::kLess, "", "<"},
      {TokenKind::kString, "a\"", "\"a\\22\""},
      {TokenKind::kString, "b\"", "\\22b\\5C22\\22"},
      {TokenKind::kAtIdent, "x.y", "@x.y"},
      {TokenKind::kAtIdent, "q q", "@\"q q\""},
      {TokenKind::kBareIdent, "", "p01"},
      {TokenKind::kInteger, "", "0x1F"},
      {TokenKind::kFloat, "", "1.5e3"},
      {TokenKind::kMinus, "", "-"},
      {TokenKind::kQuestion, "", "?"},
      {TokenKind::kEof, "", ""},
  };
  for (const Expected& w : want) {
    auto tok = lex.next();
    ASSERT_TRUE(tok.has_value()) << tok.error().message;
    EXPECT_EQ(tok->kind, w.kind) << w.spelling;
    EXPECT_EQ(tok->value, w.value) << w.spelling;
    EXPECT_EQ(text.substr(tok->begin, tok->end - tok->begin), w.spelling);
  }
}

TEST(LexerTest, DescribesTokensPrintably) {
  std::string text = std::string("\"\x01\"", 3) + " " + std::string(40, 'x');
  lexer::Lexer lex(text);
  auto first = lex.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(lexer::describeToken(text, *first), "'\"\\01\"'");
  auto second = lex.next();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(lexer::describeToken(text, *second), "'" + std::string(24, 'x') + "...'");
  auto end = lex.next();
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(lexer::describeToken(text, *end), "end of input");
}

}  // namespace
}  // namespace shardbridge::sdy
