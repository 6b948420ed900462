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
bool Parser::parseInteger(int64_t& out) {
  if (!is(TokenKind::kInteger) && !is(TokenKind::kMinus)) {
    return fail(atToken(diag::expectedToken(TokenKind::kInteger)));
  }
  bool negative = false;
  if (!consumeIf(TokenKind::kMinus, negative)) return false;
  if (!is(TokenKind::kInteger)) return fail(wrongToken(diag::expectedToken(TokenKind::kInteger)));
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
      return fail(makeError(ErrorCode::kParse, "integer value too large", start));
    }
    magnitude = magnitude * base + d;
  }
  if (!advance()) return false;
  if (!negative) {
    out = static_cast<int64_t>(magnitude);
  } else if (magnitude == uint64_t{1} << 63) {
    out = std::numeric_limits<int64_t>::min();
  } else {
    out = -static_cast<int64_t>(magnitude);
  }
  return true;
}

// Any attribute, chosen by its first token:
//   #sdy.mesh<...> | sdy.mesh @name = <...> | #sdy.sharding<...>
//   | #sdy.sharding_per_value<[...]> | <[...]> (mesh body) | [...] (bare mesh)
//   | <@name, ...> or <mesh<...>, ...> (stripped sharding)
//   | <[<...>, ...]> (stripped sharding_per_value)
bool Parser::parseAny(AnyAttr& out) {
  auto asMesh = [&] {
    MeshAttr mesh;
    if (!parseMeshTop(mesh)) return false;
    out = mesh;
    return true;
  };
  auto asSharding = [&] {
    TensorShardingAttr sharding;
    if (!parseSharding(sharding)) return false;
    out = sharding;
    return true;
  };
  auto asPerValue = [&] {
    TensorShardingPerValueAttr perValue;
    if (!parsePerValue(perValue)) return false;
    out = perValue;
    return true;
  };
  if (is(TokenKind::kHashIdent)) {
    if (spelling() == "#sdy.mesh") return asMesh();
    if (spelling() == "#sdy.sharding") return asSharding();
    if (spelling() == "#sdy.sharding_per_value") return asPerValue();
  } else if (isKeyword("sdy.mesh")) {
    MeshSymbol symbol;
    if (!parseMeshSymbol(symbol)) return false;
    out = std::move(symbol);
    return true;
  } else if (is(TokenKind::kLSquare)) {
    return asMesh();
  } else if (is(TokenKind::kLess)) {
    // Look past '<' (and '[') without consuming: a second lexer peeks.
    lexer::Lexer peek(text_);
    peek.seek(tok_.end);
    Token second;
    bool haveSecond = peek.lex(second);
    if (haveSecond && (second.kind == TokenKind::kAtIdent ||
                       (second.kind == TokenKind::kBareIdent &&
                        text_.substr(second.begin, second.end - second.begin) == "mesh"))) {
      return asSharding();
    }
    if (haveSecond && second.kind == TokenKind::kLSquare) {
      Token third;
      if (peek.lex(third) && third.kind == TokenKind::kLess) return asPerValue();
    }
    return asMesh();
  }
  // MLIR has no such entry point; shardbridge's own wording.
  return fail(atToken(
      "expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh', got " +
      lexer::describeToken(text_, tok_)));
}

// '#sdy.mesh' '<' body '>' | '<' body '>' | body
bool Parser::parseMeshTop(MeshAttr& out) {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
    if (!checkPrettyBody() || !advance()) return false;
    return parseMeshAngled(out);
  }
  if (is(TokenKind::kLess)) return parseMeshAngled(out);
  if (is(TokenKind::kLSquare)) return parseMeshBody(out);
  return fail(atToken("expected '#sdy.mesh<', '<[' or '[' to start a mesh, got " +
                      lexer::describeToken(text_, tok_)));
}

// '<' body '>'
bool Parser::parseMeshAngled(MeshAttr& out) {
  return expect(TokenKind::kLess) && parseMeshBody(out) && expect(TokenKind::kGreater);
}

// '[' (axis (',' axis)*)? ']' (',' 'device_ids' '=' '[' int (',' int)* ']')?
//   e.g. ["a"=2, "b"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]
// Upstream's format: `[` (`]`):($axes^ `]`)? (`,` `device_ids` `=` `[`
// $device_ids^ `]`)? (attrs.td, Sdy_Mesh).
bool Parser::parseMeshBody(MeshAttr& out) {
  if (!expect(TokenKind::kLSquare)) return false;
  const size_t mark = meshAxes_.size();
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      MeshAxisAttr axis;
      if (!inContext(parseMeshAxis(meshAxes_.size() - mark, axis), diag::kMeshAxes)) return false;
      meshAxes_.push(axis);
      bool more = false;
      if (!consumeIf(TokenKind::kComma, more)) return false;
      if (!more) break;
    }
  }
  if (!expect(TokenKind::kRSquare)) return false;
  std::vector<int64_t> ids;
  if (is(TokenKind::kComma)) {
    if (!advance()) return false;
    // AsmParser::parseKeyword: at the token, not the wrong-token place.
    if (!isKeyword("device_ids")) return fail(atToken("expected 'device_ids'"));
    if (!advance() || !expect(TokenKind::kEqual) || !parseDeviceIds(ids)) return false;
  }
  out = MeshAttr::get(ctx_, meshAxes_.from(mark), ids);
  meshAxes_.popTo(mark);
  return true;
}

// STRING '=' INTEGER, e.g. "x"=4 (Sdy_MeshAxis: `` $name `` `=` `` $size).
bool Parser::parseMeshAxis(size_t index, MeshAxisAttr& out) {
  // AsmParser::parseString, for the StringRefParameter.
  if (!is(TokenKind::kString)) return fail(atToken(diag::expectedToken(TokenKind::kString)));
  record(Part::kMeshAxis, index32(index), -1, tok_.begin);
  // A view of the text or of the lexer's decoded copy: it outlives the tokens.
  std::string_view name = tok_.value;
  if (!advance() || !expect(TokenKind::kEqual)) return false;
  record(Part::kMeshAxisSize, index32(index), -1, tok_.begin);
  int64_t size = 0;
  if (!parseInteger(size)) return false;
  out = MeshAxisAttr::get(ctx_, name, size);
  return true;
}

// '[' INTEGER (',' INTEGER)* ']'; upstream requires at least one id.
bool Parser::parseDeviceIds(std::vector<int64_t>& ids) {
  record(Part::kDeviceIds, -1, -1, tok_.begin);
  if (!expect(TokenKind::kLSquare)) return false;
  while (true) {
    record(Part::kDeviceId, index32(ids.size()), -1, tok_.begin);
    int64_t id = 0;
    if (!inContext(parseInteger(id), diag::kMeshDeviceIds)) return false;
    ids.push_back(id);
    bool more = false;
    if (!consumeIf(TokenKind::kComma, more)) return false;
    if (!more) break;
  }
  return expect(TokenKind::kRSquare);
}

// 'sdy.mesh' AT_IDENT '=' ('<' body '>' | '#sdy.mesh' '<' body '>') attr-dict?
//   e.g. sdy.mesh @mesh = <["x"=8]>
// Upstream's op format: $sym_name `=` $mesh attr-dict (ops.td, Sdy_MeshOp).
bool Parser::parseMeshSymbol(MeshSymbol& out) {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (!isKeyword("sdy.mesh")) return fail(atToken("expected 'sdy.mesh'"));
  if (!advance()) return false;
  // OpAsmParser::parseSymbolName's message.
  if (!is(TokenKind::kAtIdent)) {
    return fail(atToken("expected valid '@'-identifier for symbol name"));
  }
  record(Part::kMeshOrRef, -1, -1, tok_.begin);
  std::string_view name = tok_.value;
  if (!advance() || !expect(TokenKind::kEqual)) return false;
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
    if (!checkPrettyBody() || !advance()) return false;
  }
  MeshAttr mesh;
  if (!parseMeshAngled(mesh)) return false;
  if (is(TokenKind::kLBrace) && !skipAttrDict()) return false;
  out = MeshSymbol{std::string(name), mesh};
  return true;
}

// An MLIR attribute dictionary after the mesh, which sdy does not interpret.
bool Parser::skipAttrDict() {
  Result<size_t> end = lexer::skipAttrDict(text_, tok_.begin, kMaxAttrDictDepth);
  if (!end) return fail(std::move(end).error());
  lexer_.seek(*end);
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
  T value{};
  if (!parser.start() || !production(parser, value) || !parser.expectEnd()) {
    return Unexpected(parser.takeError());
  }
  return value;
}

}  // namespace

Result<MeshAttr> parseMesh(Context& ctx, std::string_view text, SourceMap* locations,
                           const ParseOptions& options) {
  return parseWhole<MeshAttr>(ctx, text, locations, options,
                              [](Parser& p, MeshAttr& out) { return p.parseMeshTop(out); });
}

Result<MeshSymbol> parseMeshSymbol(Context& ctx, std::string_view text, SourceMap* locations,
                                   const ParseOptions& options) {
  return parseWhole<MeshSymbol>(ctx, text, locations, options,
                                [](Parser& p, MeshSymbol& out) { return p.parseMeshSymbol(out); });
}

Result<TensorShardingAttr> parseTensorSharding(Context& ctx, std::string_view text,
                                               SourceMap* locations,
                                               const ParseOptions& options) {
  return parseWhole<TensorShardingAttr>(ctx, text, locations, options,
                                        [](Parser& p, TensorShardingAttr& out) {
                                          return p.parseSharding(out);
                                        });
}

Result<TensorShardingPerValueAttr> parseTensorShardingPerValue(Context& ctx,
                                                               std::string_view text,
                                                               SourceMap* locations,
                                                               const ParseOptions& options) {
  return parseWhole<TensorShardingPerValueAttr>(ctx, text, locations, options,
                                                [](Parser& p, TensorShardingPerValueAttr& out) {
                                                  return p.parsePerValue(out);
                                                });
}

Result<AnyAttr> parseAttribute(Context& ctx, std::string_view text, SourceMap* locations,
                               const ParseOptions& options) {
  return parseWhole<AnyAttr>(ctx, text, locations, options,
                             [](Parser& p, AnyAttr& out) { return p.parseAny(out); });
}

}  // namespace shardbridge::sdy
