// MLIR's parse diagnostics, for the sdy parser (parser.cc).
//
// An sdy parse error carries MLIR's own first diagnostic as its message, at
// the place MLIR puts it, and the first parameter context Shardy's parsers
// add on the way out as its note. Where the messages come from:
// - MLIR's AsmParser (mlir/lib/AsmParser/AsmParserImpl.h, Parser.cpp,
//   mlir/include/mlir/IR/OpImplementation.h): `expected ','`,
//   `expected string`, `expected integer value`, ...;
// - the parsers mlir-tblgen writes from Shardy's assembly formats
//   (mlir/tools/mlir-tblgen/AttrOrTypeFormatGen.cpp): "failed to parse
//   <Def> parameter '<name>' which is to be a `<C++ type>`";
// - Shardy's hand-written parsers (shardy/dialect/sdy/ir/parsers.cc):
//   priorities, the mesh-or-ref and the replicated/unreduced lists.
// docs/sdy_parse_errors.md lists which input gets which error and note.
//
// Private to src/sdy.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "sdy/lexer.h"
#include "shardbridge/base/result.h"

namespace shardbridge::sdy::diag {

// The notes: the parameter contexts of the mesh, sharding and
// sharding_per_value attributes (tablegen'd, AttrOrTypeFormatGen.cpp's
// variableParser, for the attribute defs of shardy/dialect/sdy/ir/attrs.td)
// and of Shardy's custom parsers (parsers.cc). The contexts MLIR prints in
// between for the inner attributes (Sdy_MeshAxis, Sdy_AxisRef,
// Sdy_SubAxisInfo, Shardy's "failed to parse axis list ...") are not kept.
inline constexpr std::string_view kMeshAxes =
    "failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`";
inline constexpr std::string_view kMeshDeviceIds =
    "failed to parse Sdy_Mesh parameter 'device_ids' which is to be a `::llvm::ArrayRef<int64_t>`";
inline constexpr std::string_view kDimShardings =
    "failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
    "`::llvm::ArrayRef<DimensionShardingAttr>`";
inline constexpr std::string_view kPerValueShardings =
    "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' which is to be a "
    "`::llvm::ArrayRef<TensorShardingAttr>`";
// parsers.cc, parseReplicatedAndUnreducedAxes.
inline constexpr std::string_view kReplicatedAxes =
    "failed to parse Sdy_TensorSharding parameter 'replicated_axes'";
inline constexpr std::string_view kUnreducedAxes =
    "failed to parse Sdy_TensorSharding parameter 'unreduced_axes'";
inline constexpr std::string_view kNamedListAfterComma =
    "failed to parse Sdy_TensorSharding, expected valid named axis list after comma";
// parsers.cc, parseMeshOrRef. The second one streams the still-null
// attribute, which MLIR prints as <<NULL ATTRIBUTE>>.
inline constexpr std::string_view kMeshAttr = "failed to parse MeshAttr";
inline constexpr std::string_view kMeshOrRef =
    "expecting MeshAttr or FlatSymbolRefAttr, got: <<NULL ATTRIBUTE>>";

// AsmParserImpl's message for a missing punctuation token: "expected '<'",
// "expected ','", ... (parseLess, parseComma, ...).
std::string expectedToken(lexer::TokenKind kind);

// Where MLIR's Parser::emitWrongTokenError reports an error about the token
// at `tokenBegin` in `text` (every Parser::parseToken failure): just after
// the last non-blank byte before it, skipping blank lines and `//` comments
// on earlier lines; an error at the end of the input first moves back one
// byte. Only when nothing but blanks precede the token is it the token.
size_t wrongTokenOffset(std::string_view text, size_t tokenBegin, bool atEof);

// MLIR's Parser::parseDialectSymbolBody, which runs before the dialect sees
// `#sdy.xxx<...>` (mlir/lib/AsmParser/DialectSymbolParser.cpp): the '<' at
// `less` must open a body in which <>, [], (), {} nest, strings lexed as
// tokens. Fails with "unbalanced 'C' character in pretty dialect name"
// (C the innermost open bracket) located at the '<' or at the last string
// scanned, or with the lexer's error for a bad string (`lexFailed` is set
// then). A NUL byte ends the input, as in MLIR.
Status checkPrettyBody(std::string_view text, size_t less, bool& lexFailed);

// Whether MLIR's generic attribute parser reads the token `spelling` of kind
// `kind` as an attribute that is not a symbol reference (a string, a number,
// true/false/unit, a builtin type): parseMeshOrRef then reports "invalid kind
// of attribute specified" at it rather than "expected attribute value".
bool isOtherAttribute(lexer::TokenKind kind, std::string_view spelling);

// "found trailing characters: '<rest>'" (DialectSymbolParser.cpp,
// parseSymbol), the rest cut at 64 bytes.
std::string trailingCharacters(std::string_view rest);

}  // namespace shardbridge::sdy::diag
