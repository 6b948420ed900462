// Recursive-descent parser for the sdy attribute syntax (text.h): the
// integer, mesh and any-attribute productions and the entry points; the
// sharding productions are in parser_sharding.cc, the class in parser.h.
//
// One method per production; each says in its comment which text it accepts.
// The grammar is that of upstream Shardy's assembly formats and custom
// parsers (attrs.td, parsers.cc). An error's message is the first
// diagnostic MLIR would print for the input, at MLIR's place, and its note
// the first parameter context Shardy's parsers add after it
// (parser_diagnostics.h; the table is docs/sdy_parse_errors.md). Lexer
// errors, after which MLIR prints nothing more, have no note.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sdy/lexer.h"
#include "sdy/parser.h"
#include "sdy/parser_diagnostics.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy::parser {
namespace {

// Nesting depth allowed inside the attribute dictionary that may follow an
// `sdy.mesh` line. The sdy grammar itself nests at most four levels deep.
constexpr int kMaxAttrDictDepth = 256;

}  // namespace

// INTEGER | '-' INTEGER, as an int64 (decimal or 0x hex): AsmParser's
// parseInteger. A token that is neither is "expected integer value" at it; a
// '-' not followed by an integer fails in Parser::parseOptionalInteger's
// parseToken, at the wrong-token place.
Result<int64_t> Parser::parseInteger() {
  if (!is(TokenKind::kInteger) && !is(TokenKind::kMinus)) {
    return atToken(diag::expectedToken(TokenKind::kInteger));
  }
  SB_ASSIGN_OR_RETURN(bool negative, consumeIf(TokenKind::kMinus));
  if (!is(TokenKind::kInteger)) return wrongToken(diag::expectedToken(TokenKind::kInteger));
  size_t start = tok_.begin;
  std::string_view digits = spelling();
  uint64_t base = 10;
  if (digits.size() > 2 && digits[1] == 'x') {
    base = 16;
    digits.remove_prefix(2);
  }
  // The magnitude may reach 2^63 for a negative number.
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t magnitude = 0;
  for (char c : digits) {
    uint64_t d = c >= '0' && c <= '9' ? uint64_t(c - '0')
                 : c >= 'a' && c <= 'f' ? uint64_t(c - 'a' + 10)
                                        : uint64_t(c - 'A' + 10);
    if (magnitude > (limit - d) / base) {
      return makeError(ErrorCode::kParse, "integer value too large", start);
    }
    magnitude = magnitude * base + d;
  }
  SB_TRY(advance());
  if (!negative) return static_cast<int64_t>(magnitude);
  if (magnitude == uint64_t{1} << 63) return std::numeric_limits<int64_t>::min();
  return -static_cast<int64_t>(magnitude);
}

// Any attribute, chosen by its first token:
//   #sdy.mesh<...> | sdy.mesh @name = <...> | #sdy.sharding<...>
//   | #sdy.sharding_per_value<[...]> | <[...]> (mesh body) | [...] (bare mesh)
//   | <@name, ...> or <mesh<...>, ...> (stripped sharding)
//   | <[<...>, ...]> (stripped sharding_per_value)
Result<AnyAttr> Parser::parseAny() {
  if (is(TokenKind::kHashIdent)) {
    if (spelling() == "#sdy.mesh") {
      SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshTop());
      return AnyAttr(mesh);
    }
    if (spelling() == "#sdy.sharding") {
      SB_ASSIGN_OR_RETURN(TensorShardingAttr sharding, parseSharding());
      return AnyAttr(sharding);
    }
    if (spelling() == "#sdy.sharding_per_value") {
      SB_ASSIGN_OR_RETURN(TensorShardingPerValueAttr perValue, parsePerValue());
      return AnyAttr(perValue);
    }
  } else if (isKeyword("sdy.mesh")) {
    SB_ASSIGN_OR_RETURN(MeshSymbol symbol, parseMeshSymbol());
    return AnyAttr(std::move(symbol));
  } else if (is(TokenKind::kLSquare)) {
    SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshTop());
    return AnyAttr(mesh);
  } else if (is(TokenKind::kLess)) {
    // Look past '<' (and '[') without consuming: a copy of the lexer peeks.
    lexer::Lexer peek(text_);
    peek.seek(tok_.end);
    auto second = peek.next();
    if (second && (second->kind == TokenKind::kAtIdent ||
                   (second->kind == TokenKind::kBareIdent &&
                    text_.substr(second->begin, second->end - second->begin) == "mesh"))) {
      SB_ASSIGN_OR_RETURN(TensorShardingAttr sharding, parseSharding());
      return AnyAttr(sharding);
    }
    if (second && second->kind == TokenKind::kLSquare) {
      auto third = peek.next();
      if (third && third->kind == TokenKind::kLess) {
        SB_ASSIGN_OR_RETURN(TensorShardingPerValueAttr perValue, parsePerValue());
        return AnyAttr(perValue);
      }
    }
    SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshTop());
    return AnyAttr(mesh);
  }
  // MLIR has no such entry point; shardbridge's own wording.
  return atToken(
      "expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh', got " +
      lexer::describeToken(text_, tok_));
}

// '#sdy.mesh' '<' body '>' | '<' body '>' | body
Result<MeshAttr> Parser::parseMeshTop() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
    SB_TRY(checkPrettyBody());
    SB_TRY(advance());
    return parseMeshAngled();
  }
  if (is(TokenKind::kLess)) return parseMeshAngled();
  if (is(TokenKind::kLSquare)) return parseMeshBody();
  return atToken("expected '#sdy.mesh<', '<[' or '[' to start a mesh, got " +
                 lexer::describeToken(text_, tok_));
}

// '<' body '>'
Result<MeshAttr> Parser::parseMeshAngled() {
  SB_TRY(expect(TokenKind::kLess));
  SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshBody());
  SB_TRY(expect(TokenKind::kGreater));
  return mesh;
}

// '[' (axis (',' axis)*)? ']' (',' 'device_ids' '=' '[' int (',' int)* ']')?
//   e.g. ["a"=2, "b"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]
// Upstream's format: `[` (`]`):($axes^ `]`)? (`,` `device_ids` `=` `[`
// $device_ids^ `]`)? (attrs.td, Sdy_Mesh).
Result<MeshAttr> Parser::parseMeshBody() {
  SB_TRY(expect(TokenKind::kLSquare));
  std::vector<MeshAxisAttr> axes;
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      SB_ASSIGN_OR_RETURN(MeshAxisAttr axis, inContext(parseMeshAxis(axes.size()), diag::kMeshAxes));
      axes.push_back(axis);
      SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
      if (!more) break;
    }
  }
  SB_TRY(expect(TokenKind::kRSquare));
  std::vector<int64_t> ids;
  if (is(TokenKind::kComma)) {
    SB_TRY(advance());
    // AsmParser::parseKeyword: at the token, not the wrong-token place.
    if (!isKeyword("device_ids")) return atToken("expected 'device_ids'");
    SB_TRY(advance());
    SB_TRY(expect(TokenKind::kEqual));
    SB_TRY(parseDeviceIds(ids));
  }
  return MeshAttr::get(ctx_, axes, ids);
}

// STRING '=' INTEGER, e.g. "x"=4 (Sdy_MeshAxis: `` $name `` `=` `` $size).
Result<MeshAxisAttr> Parser::parseMeshAxis(size_t index) {
  // AsmParser::parseString, for the StringRefParameter.
  if (!is(TokenKind::kString)) return atToken(diag::expectedToken(TokenKind::kString));
  record(Part::kMeshAxis, index32(index), -1, tok_.begin);
  std::string name = std::move(tok_.value);
  SB_TRY(advance());
  SB_TRY(expect(TokenKind::kEqual));
  record(Part::kMeshAxisSize, index32(index), -1, tok_.begin);
  SB_ASSIGN_OR_RETURN(int64_t size, parseInteger());
  return MeshAxisAttr::get(ctx_, name, size);
}

// '[' INTEGER (',' INTEGER)* ']'; upstream requires at least one id.
Status Parser::parseDeviceIds(std::vector<int64_t>& ids) {
  record(Part::kDeviceIds, -1, -1, tok_.begin);
  SB_TRY(expect(TokenKind::kLSquare));
  while (true) {
    record(Part::kDeviceId, index32(ids.size()), -1, tok_.begin);
    SB_ASSIGN_OR_RETURN(int64_t id, inContext(parseInteger(), diag::kMeshDeviceIds));
    ids.push_back(id);
    SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
    if (!more) break;
  }
  return expect(TokenKind::kRSquare);
}

// 'sdy.mesh' AT_IDENT '=' ('<' body '>' | '#sdy.mesh' '<' body '>') attr-dict?
//   e.g. sdy.mesh @mesh = <["x"=8]>
// Upstream's op format: $sym_name `=` $mesh attr-dict (ops.td, Sdy_MeshOp).
Result<MeshSymbol> Parser::parseMeshSymbol() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (!isKeyword("sdy.mesh")) return atToken("expected 'sdy.mesh'");
  SB_TRY(advance());
  // OpAsmParser::parseSymbolName's message.
  if (!is(TokenKind::kAtIdent)) return atToken("expected valid '@'-identifier for symbol name");
  record(Part::kMeshOrRef, -1, -1, tok_.begin);
  std::string name = std::move(tok_.value);
  SB_TRY(advance());
  SB_TRY(expect(TokenKind::kEqual));
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
    SB_TRY(checkPrettyBody());
    SB_TRY(advance());
  }
  SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshAngled());
  if (is(TokenKind::kLBrace)) SB_TRY(skipAttrDict());
  return MeshSymbol{std::move(name), mesh};
}

// An MLIR attribute dictionary after the mesh, which sdy does not interpret.
Status Parser::skipAttrDict() {
  SB_ASSIGN_OR_RETURN(size_t end, lexer::skipAttrDict(text_, tok_.begin, kMaxAttrDictDepth));
  lexer_.seek(end);
  return advance();
}

}  // namespace shardbridge::sdy::parser

namespace shardbridge::sdy {
namespace {

using parser::Parser;

// Runs one top-level production over the whole text.
template <typename T, typename Fn>
Result<T> parseWhole(Context& ctx, std::string_view text, SourceMap* locations,
                     const ParseOptions& options, Fn production) {
  if (locations) locations->clear();
  Parser parser(ctx, text, locations, options);
  SB_TRY(parser.start());
  SB_ASSIGN_OR_RETURN(T value, production(parser));
  SB_TRY(parser.expectEnd());
  return value;
}

}  // namespace

Result<MeshAttr> parseMesh(Context& ctx, std::string_view text, SourceMap* locations,
                           const ParseOptions& options) {
  return parseWhole<MeshAttr>(ctx, text, locations, options,
                              [](Parser& p) { return p.parseMeshTop(); });
}

Result<MeshSymbol> parseMeshSymbol(Context& ctx, std::string_view text, SourceMap* locations,
                                   const ParseOptions& options) {
  return parseWhole<MeshSymbol>(ctx, text, locations, options,
                                [](Parser& p) { return p.parseMeshSymbol(); });
}

Result<TensorShardingAttr> parseTensorSharding(Context& ctx, std::string_view text,
                                               SourceMap* locations,
                                               const ParseOptions& options) {
  return parseWhole<TensorShardingAttr>(ctx, text, locations, options,
                                        [](Parser& p) { return p.parseSharding(); });
}

Result<TensorShardingPerValueAttr> parseTensorShardingPerValue(Context& ctx,
                                                               std::string_view text,
                                                               SourceMap* locations,
                                                               const ParseOptions& options) {
  return parseWhole<TensorShardingPerValueAttr>(ctx, text, locations, options,
                                                [](Parser& p) { return p.parsePerValue(); });
}

Result<AnyAttr> parseAttribute(Context& ctx, std::string_view text, SourceMap* locations,
                               const ParseOptions& options) {
  return parseWhole<AnyAttr>(ctx, text, locations, options,
                             [](Parser& p) { return p.parseAny(); });
}

}  // namespace shardbridge::sdy
