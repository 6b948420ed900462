// The sdy parser's errors as people see them: MLIR's first diagnostic, its
// source line and caret, then the parameter context as a note. Every case
// compares the whole rendered text and names where upstream's message (and
// its place) comes from; docs/sdy_parse_errors.md is the same table.
#include <gtest/gtest.h>

#include <string>

#include "sdy/parser_diagnostics.h"
#include "shardbridge/base/diagnostic.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

struct DiagnosticCase {
  std::string input;
  std::string rendered;  // renderDiagnostic's text
  const char* source;    // the upstream source of the message (for people)
};

class ParseDiagnosticTest : public ::testing::TestWithParam<DiagnosticCase> {};

TEST_P(ParseDiagnosticTest, RendersMlirFirstDiagnosticAndTheParameterNote) {
  const DiagnosticCase& c = GetParam();
  Context ctx;
  auto parsed = parseAttribute(ctx, c.input);
  ASSERT_FALSE(parsed.has_value()) << c.input;
  EXPECT_EQ(parsed.error().code, ErrorCode::kParse);
  EXPECT_EQ(renderDiagnostic(parsed.error(), c.input), c.rendered)
      << c.input << "\n(upstream: " << c.source << ")";
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ParseDiagnosticTest,
    ::testing::Values(
        // The example. AsmParserImpl::parseComma in
        // DimensionShardingAttr::parse (parsers.cc), placed by
        // Parser::emitWrongTokenError just after "x"; the tablegen'd
        // variableParser's context at the current token.
        DiagnosticCase{"#sdy.sharding<@mesh, [{\"x\" \"y\"}]>",
                       "<input>:1:27: error: expected ','\n"
                       "#sdy.sharding<@mesh, [{\"x\" \"y\"}]>\n"
                       "                          ^\n"
                       "<input>:1:28: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "AsmParserImpl.h parseComma; AttrOrTypeFormatGen.cpp variableParser"},
        // Sdy_MeshAxis's format `` $name `` `=` `` $size: parseEqual.
        DiagnosticCase{"#sdy.mesh<[\"x\" 2]>",
                       "<input>:1:15: error: expected '='\n"
                       "#sdy.mesh<[\"x\" 2]>\n"
                       "              ^\n"
                       "<input>:1:16: note: failed to parse Sdy_Mesh parameter 'axes' which is to "
                       "be a `::llvm::ArrayRef<MeshAxisAttr>`\n",
                       "AsmParserImpl.h parseEqual; attrs.td Sdy_MeshAxis"},
        // FieldParser<std::string> for the StringRefParameter name:
        // AsmParser::parseString, at the token.
        DiagnosticCase{"#sdy.mesh<[x=2]>",
                       "<input>:1:12: error: expected string\n"
                       "#sdy.mesh<[x=2]>\n"
                       "           ^\n"
                       "<input>:1:12: note: failed to parse Sdy_Mesh parameter 'axes' which is to "
                       "be a `::llvm::ArrayRef<MeshAxisAttr>`\n",
                       "OpImplementation.h parseString; DialectImplementation.h FieldParser"},
        // AsmParser::parseInteger: a float literal is no integer.
        DiagnosticCase{"#sdy.mesh<[\"a\"=1.5]>",
                       "<input>:1:16: error: expected integer value\n"
                       "#sdy.mesh<[\"a\"=1.5]>\n"
                       "               ^\n"
                       "<input>:1:16: note: failed to parse Sdy_Mesh parameter 'axes' which is to "
                       "be a `::llvm::ArrayRef<MeshAxisAttr>`\n",
                       "OpImplementation.h parseInteger"},
        // The `]` literal after $axes: no parameter context.
        DiagnosticCase{"#sdy.mesh<[\"a\"=2 \"b\"=2]>",
                       "<input>:1:17: error: expected ']'\n"
                       "#sdy.mesh<[\"a\"=2 \"b\"=2]>\n"
                       "                ^\n",
                       "attrs.td Sdy_Mesh format; AsmParserImpl.h parseRSquare"},
        // The `device_ids` keyword literal: AsmParserImpl::parseKeyword.
        DiagnosticCase{"#sdy.mesh<[\"a\"=2], devices=[1, 0]>",
                       "<input>:1:20: error: expected 'device_ids'\n"
                       "#sdy.mesh<[\"a\"=2], devices=[1, 0]>\n"
                       "                   ^\n",
                       "AsmParserImpl.h parseKeyword"},
        // At least one device id: the list parser wants an integer.
        DiagnosticCase{"#sdy.mesh<[], device_ids=[]>",
                       "<input>:1:27: error: expected integer value\n"
                       "#sdy.mesh<[], device_ids=[]>\n"
                       "                          ^\n"
                       "<input>:1:27: note: failed to parse Sdy_Mesh parameter 'device_ids' which "
                       "is to be a `::llvm::ArrayRef<int64_t>`\n",
                       "DialectImplementation.h FieldParser<SmallVector>"},
        // parseMeshOrRef: the generic attribute parser reads "mesh" as a
        // string attribute; Shardy's message follows, past it.
        DiagnosticCase{"#sdy.sharding<\"mesh\", [{}]>",
                       "<input>:1:15: error: invalid kind of attribute specified\n"
                       "#sdy.sharding<\"mesh\", [{}]>\n"
                       "              ^\n"
                       "<input>:1:21: note: expecting MeshAttr or FlatSymbolRefAttr, got: "
                       "<<NULL ATTRIBUTE>>\n",
                       "OpImplementation.h parseAttribute<AttrType>; parsers.cc parseMeshOrRef"},
        // `mesh` without its `<...>`: MeshAttr's parseLess, then Shardy.
        DiagnosticCase{"#sdy.sharding<mesh, [{}]>",
                       "<input>:1:19: error: expected '<'\n"
                       "#sdy.sharding<mesh, [{}]>\n"
                       "                  ^\n"
                       "<input>:1:19: note: failed to parse MeshAttr\n",
                       "attrs.td Sdy_Mesh format; parsers.cc parseMeshOrRef"},
        DiagnosticCase{"#sdy.sharding<@mesh [{}]>",
                       "<input>:1:20: error: expected ','\n"
                       "#sdy.sharding<@mesh [{}]>\n"
                       "                   ^\n",
                       "attrs.td Sdy_TensorSharding format"},
        DiagnosticCase{"#sdy.sharding<@mesh, [\"a\"]>",
                       "<input>:1:23: error: expected '{'\n"
                       "#sdy.sharding<@mesh, [\"a\"]>\n"
                       "                      ^\n"
                       "<input>:1:23: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "parsers.cc DimensionShardingAttr::parse parseLBrace"},
        // Sdy_AxisRef's name: parseString.
        DiagnosticCase{"#sdy.sharding<@mesh, [{a}]>",
                       "<input>:1:24: error: expected string\n"
                       "#sdy.sharding<@mesh, [{a}]>\n"
                       "                       ^\n"
                       "<input>:1:24: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "attrs.td Sdy_AxisRef; OpImplementation.h parseString"},
        // `?` must close the dimension: parseRBrace.
        DiagnosticCase{"#sdy.sharding<@mesh, [{?, \"a\"}]>",
                       "<input>:1:25: error: expected '}'\n"
                       "#sdy.sharding<@mesh, [{?, \"a\"}]>\n"
                       "                        ^\n"
                       "<input>:1:25: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "parsers.cc DimensionShardingAttr::parse"},
        // Sdy_SubAxisInfo's format `(` $pre_size `)` `` $size.
        DiagnosticCase{"#sdy.sharding<@mesh, [{\"a\":2}]>",
                       "<input>:1:28: error: expected '('\n"
                       "#sdy.sharding<@mesh, [{\"a\":2}]>\n"
                       "                           ^\n"
                       "<input>:1:28: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "attrs.td Sdy_SubAxisInfo"},
        // Priorities: Shardy's wording, just past the word it consumed.
        DiagnosticCase{"#sdy.sharding<@foo, [{\"a\"}, {\"b\"}phigh]>",
                       "<input>:1:39: error: expecting priority in format 'p<number>', got: phigh\n"
                       "#sdy.sharding<@foo, [{\"a\"}, {\"b\"}phigh]>\n"
                       "                                      ^\n"
                       "<input>:1:39: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "parsers.cc DimensionShardingAttr::parse"},
        // parseEqualsAxisList's parseEqual, then Shardy's context.
        DiagnosticCase{"#sdy.sharding<@m, [{}], replicated{\"a\"}>",
                       "<input>:1:35: error: expected '='\n"
                       "#sdy.sharding<@m, [{}], replicated{\"a\"}>\n"
                       "                                  ^\n"
                       "<input>:1:35: note: failed to parse Sdy_TensorSharding parameter "
                       "'replicated_axes'\n",
                       "parsers.cc parseReplicatedAndUnreducedAxes"},
        // An empty list: the first axis is no string.
        DiagnosticCase{"#sdy.sharding<@m, [{}], replicated={}>",
                       "<input>:1:37: error: expected string\n"
                       "#sdy.sharding<@m, [{}], replicated={}>\n"
                       "                                    ^\n"
                       "<input>:1:37: note: failed to parse Sdy_TensorSharding parameter "
                       "'replicated_axes'\n",
                       "parsers.cc parseEqualsAxisList"},
        // An unknown reduction is not consumed: the '{' is what is missing.
        DiagnosticCase{"#sdy.sharding<@m, [{}], unreduced=avg{\"a\"}>",
                       "<input>:1:35: error: expected '{'\n"
                       "#sdy.sharding<@m, [{}], unreduced=avg{\"a\"}>\n"
                       "                                  ^\n"
                       "<input>:1:35: note: failed to parse Sdy_TensorSharding parameter "
                       "'unreduced_axes'\n",
                       "parsers.cc parseReplicatedAndUnreducedAxes, parseAxisList"},
        // Shardy's one-diagnostic error: no note.
        DiagnosticCase{"#sdy.sharding<@m, [{}],>",
                       "<input>:1:24: error: failed to parse Sdy_TensorSharding, expected valid "
                       "named axis list after comma\n"
                       "#sdy.sharding<@m, [{}],>\n"
                       "                       ^\n",
                       "parsers.cc parseReplicatedAndUnreducedAxes"},
        // A stripped sharding in a sharding_per_value must start with '<'.
        DiagnosticCase{"#sdy.sharding_per_value<[@m, []]>",
                       "<input>:1:26: error: expected '<'\n"
                       "#sdy.sharding_per_value<[@m, []]>\n"
                       "                         ^\n"
                       "<input>:1:26: note: failed to parse Sdy_TensorShardingPerValue parameter "
                       "'shardings' which is to be a `::llvm::ArrayRef<TensorShardingAttr>`\n",
                       "attrs.td Sdy_TensorShardingPerValue"},
        // The inner sharding's own context wins over the list's.
        DiagnosticCase{"#sdy.sharding_per_value<[<@m, [{\"a\" \"b\"}]>]>",
                       "<input>:1:36: error: expected ','\n"
                       "#sdy.sharding_per_value<[<@m, [{\"a\" \"b\"}]>]>\n"
                       "                                   ^\n"
                       "<input>:1:37: note: failed to parse Sdy_TensorSharding parameter "
                       "'dim_shardings' which is to be a `::llvm::ArrayRef<DimensionShardingAttr>`\n",
                       "AttrOrTypeFormatGen.cpp variableParser"},
        // MLIR scans the pretty body before the dialect parses it.
        DiagnosticCase{"#sdy.sharding<@mesh, [{}]",
                       "<input>:1:14: error: unbalanced '<' character in pretty dialect name\n"
                       "#sdy.sharding<@mesh, [{}]\n"
                       "             ^\n",
                       "DialectSymbolParser.cpp parseDialectSymbolBody"},
        // ... located at the last string it lexed.
        DiagnosticCase{"#sdy.sharding<@mesh, [{\"a\"]>",
                       "<input>:1:24: error: unbalanced '{' character in pretty dialect name\n"
                       "#sdy.sharding<@mesh, [{\"a\"]>\n"
                       "                       ^\n",
                       "DialectSymbolParser.cpp parseDialectSymbolBody"},
        DiagnosticCase{"#sdy.mesh<[\"a\"=2]>>",
                       "<input>:1:19: error: found trailing characters: '>'\n"
                       "#sdy.mesh<[\"a\"=2]>>\n"
                       "                  ^\n",
                       "DialectSymbolParser.cpp parseSymbol"},
        // The op's symbol name (OpAsmParser::parseSymbolName).
        DiagnosticCase{"sdy.mesh mesh = <[]>",
                       "<input>:1:10: error: expected valid '@'-identifier for symbol name\n"
                       "sdy.mesh mesh = <[]>\n"
                       "         ^\n",
                       "OpImplementation.h parseSymbolName; ops.td Sdy_MeshOp"},
        // A wrong token at the start of a line is reported at the end of the
        // line before.
        DiagnosticCase{"<[\"a\"=2\n  \"b\"=2]>",
                       "<input>:1:8: error: expected ']'\n"
                       "<[\"a\"=2\n"
                       "       ^\n",
                       "Parser.cpp emitWrongTokenError"},
        // Lexer errors stand alone (Parser::emitError abandons the rest).
        DiagnosticCase{"#sdy.mesh<[\"a=2]>",
                       "<input>:1:18: error: expected '\"' in string literal\n"
                       "#sdy.mesh<[\"a=2]>\n"
                       "                 ^\n",
                       "Lexer.cpp lexString; Parser.cpp emitError"}));

TEST(ParseDiagnosticTest, NotesShiftWithTheirError) {
  // A sub-parse at offset 10 of a larger text (tools/mesh_args.cc).
  Context ctx;
  auto parsed = parseMesh(ctx, "<[\"x\" 2]>");
  ASSERT_FALSE(parsed.has_value());
  Error e = parsed.error().shifted(10);
  EXPECT_EQ(e.offset, 15u);
  EXPECT_EQ(e.noteOffset, 16u);
}

TEST(WrongTokenOffsetTest, SkipsBlanksLinesAndComments) {
  // After the last non-blank byte before the token.
  EXPECT_EQ(diag::wrongTokenOffset("a   b", 4, false), 1u);
  // Nothing before it: the token itself.
  EXPECT_EQ(diag::wrongTokenOffset("   b", 3, false), 3u);
  // Across blank lines and a trailing comment to the end of the code.
  EXPECT_EQ(diag::wrongTokenOffset("ab // c \"//\"\n\n  x", 16, false), 2u);
  // A `//` inside a string is no comment.
  EXPECT_EQ(diag::wrongTokenOffset("\"a//b\"\nx", 7, false), 6u);
  // At the end of the input, one byte back first.
  EXPECT_EQ(diag::wrongTokenOffset("ab", 2, true), 1u);
  EXPECT_EQ(diag::wrongTokenOffset("ab\n", 3, true), 2u);
}

}  // namespace
}  // namespace shardbridge::sdy
