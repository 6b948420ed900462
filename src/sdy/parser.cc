// Recursive-descent parser for the sdy attribute syntax (text.h).
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
#include "sdy/parser_diagnostics.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

using lexer::Token;
using lexer::TokenKind;
using Part = AttrPath::Part;

// Nesting depth allowed inside the attribute dictionary that may follow an
// `sdy.mesh` line. The sdy grammar itself nests at most four levels deep.
constexpr int kMaxAttrDictDepth = 256;

class Parser {
 public:
  Parser(Context& ctx, std::string_view text, SourceMap* locations, const ParseOptions& options)
      : ctx_(ctx), text_(text), lexer_(text), locations_(locations), options_(options) {}

  // Checks the input size and reads the first token.
  Status start() {
    if (text_.size() > options_.maxInputBytes) {
      return makeError(ErrorCode::kParse,
                       "input is too large: " + std::to_string(text_.size()) +
                           " bytes, the limit is " + std::to_string(options_.maxInputBytes),
                       options_.maxInputBytes);
    }
    return advance();
  }

  Result<AnyAttr> parseAny();
  Result<MeshAttr> parseMeshTop();
  Result<MeshSymbol> parseMeshSymbol();
  Result<TensorShardingAttr> parseSharding();
  Result<TensorShardingPerValueAttr> parsePerValue();

  // Accepts only the end of the input (mlir::parseAttribute's check).
  Status expectEnd() {
    if (tok_.kind == TokenKind::kEof) return okStatus();
    return atToken(diag::trailingCharacters(text_.substr(tok_.begin)));
  }

 private:
  // --- token helpers -------------------------------------------------------
  Status advance() {
    auto next = lexer_.next();
    if (!next) {
      lexFailed_ = true;
      return Unexpected(std::move(next).error());
    }
    tok_ = std::move(*next);
    return okStatus();
  }
  bool is(TokenKind kind) const { return tok_.kind == kind; }
  std::string_view spelling() const { return text_.substr(tok_.begin, tok_.end - tok_.begin); }
  bool isKeyword(std::string_view word) const {
    return is(TokenKind::kBareIdent) && spelling() == word;
  }
  // An error at the current token (AsmParser::emitError at
  // getCurrentLocation()).
  Error atToken(std::string_view message) const {
    return makeError(ErrorCode::kParse, std::string(message), tok_.begin);
  }
  // An error where MLIR's Parser::parseToken reports a wrong token.
  Error wrongToken(std::string_view message) const {
    return makeError(ErrorCode::kParse, std::string(message),
                     diag::wrongTokenOffset(text_, tok_.begin, is(TokenKind::kEof)));
  }
  // Consumes a token of `kind`, else fails as AsmParser's parseLess,
  // parseComma, ... do ("expected '<'", at the wrong-token place).
  Status expect(TokenKind kind) {
    if (!is(kind)) return wrongToken(diag::expectedToken(kind));
    return advance();
  }
  // Consumes a token of `kind` when it is next; says whether it did.
  Result<bool> consumeIf(TokenKind kind) {
    if (!is(kind)) return false;
    SB_TRY(advance());
    return true;
  }
  // `result`, with `context` as the note of its error, at the current token
  // (where MLIR emits a parameter context), unless the error has a note
  // already or came from the lexer.
  template <typename T>
  Result<T> inContext(Result<T> result, std::string_view context) const {
    if (result.has_value() || lexFailed_ || result.error().hasNote()) return result;
    return std::move(result).error().withNote(std::string(context), tok_.begin);
  }
  // At a `#sdy.xxx` token directly followed by '<': MLIR's scan of the
  // pretty body, which runs before the attribute's own parser.
  Status checkPrettyBody() {
    if (!is(TokenKind::kHashIdent) || tok_.end >= text_.size() || text_[tok_.end] != '<') {
      return okStatus();
    }
    return diag::checkPrettyBody(text_, tok_.end, lexFailed_);
  }
  void record(Part part, int32_t index, int32_t sub, size_t offset) {
    if (locations_) locations_->add(AttrPath{part, value_, index, sub}, offset);
  }
  static int32_t index32(size_t i) {
    return i > static_cast<size_t>(std::numeric_limits<int32_t>::max())
               ? std::numeric_limits<int32_t>::max()
               : static_cast<int32_t>(i);
  }

  // --- productions ---------------------------------------------------------
  Result<int64_t> parseInteger();
  Result<MeshAttr> parseMeshAngled();
  Result<MeshAttr> parseMeshBody();
  Result<MeshAxisAttr> parseMeshAxis(size_t index);
  Status parseDeviceIds(std::vector<int64_t>& ids);
  Result<AxisRefAttr> parseAxisRef();
  Result<TensorShardingAttr> parseShardingAngled();
  Result<MeshOrRef> parseMeshOrRef();
  Result<DimensionShardingAttr> parseDimSharding(size_t index);
  Result<std::optional<int64_t>> parsePriority();
  Status parseNamedAxisLists(std::vector<AxisRefAttr>& replicated,
                             std::vector<AxisRefAttr>& unreduced, ReductionOp& reductionOp);
  Status parseAxisList(std::vector<AxisRefAttr>& axes, Part part);
  Status skipAttrDict();

  Context& ctx_;
  std::string_view text_;
  lexer::Lexer lexer_;
  Token tok_;
  SourceMap* locations_;
  const ParseOptions& options_;
  int32_t value_ = -1;  // index of the sharding inside a sharding_per_value
  bool lexFailed_ = false;  // the last error came from the lexer
};

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

// '#sdy.sharding' '<' body '>' | '<' body '>'
Result<TensorShardingAttr> Parser::parseSharding() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding") {
    SB_TRY(checkPrettyBody());
    SB_TRY(advance());
  }
  return parseShardingAngled();
}

// '<' mesh-or-ref ',' '[' (dim (',' dim)*)? ']' named-axis-lists '>'
//   e.g. <@mesh, [{"x", ?}p1, {}], replicated={"z"}>
// Upstream's format: `<` custom<MeshOrRef> `,` `[` (`]`):($dim_shardings^
// `]`)? custom<ReplicatedAndUnreducedAxes> `>` (attrs.td, Sdy_TensorSharding).
Result<TensorShardingAttr> Parser::parseShardingAngled() {
  SB_TRY(expect(TokenKind::kLess));
  SB_ASSIGN_OR_RETURN(MeshOrRef meshOrRef, parseMeshOrRef());
  SB_TRY(expect(TokenKind::kComma));
  SB_TRY(expect(TokenKind::kLSquare));
  std::vector<DimensionShardingAttr> dims;
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      SB_ASSIGN_OR_RETURN(DimensionShardingAttr dim,
                          inContext(parseDimSharding(dims.size()), diag::kDimShardings));
      dims.push_back(dim);
      SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
      if (!more) break;
    }
  }
  SB_TRY(expect(TokenKind::kRSquare));
  std::vector<AxisRefAttr> replicated, unreduced;
  ReductionOp reductionOp = ReductionOp::kSum;
  SB_TRY(parseNamedAxisLists(replicated, unreduced, reductionOp));
  SB_TRY(expect(TokenKind::kGreater));
  return TensorShardingAttr::get(ctx_, meshOrRef, dims, replicated, unreduced, reductionOp);
}

// AT_IDENT | 'mesh' '<' body '>'  (also 'mesh' '#sdy.mesh' '<' body '>')
// Upstream: parsers.cc, parseMeshOrRef.
Result<MeshOrRef> Parser::parseMeshOrRef() {
  record(Part::kMeshOrRef, -1, -1, tok_.begin);
  if (is(TokenKind::kAtIdent)) {
    MeshOrRef ref = MeshOrRef::ref(ctx_, tok_.value);
    SB_TRY(advance());
    return ref;
  }
  if (isKeyword("mesh")) {
    SB_TRY(advance());
    auto mesh = [&]() -> Result<MeshAttr> {
      if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
        SB_TRY(checkPrettyBody());
        SB_TRY(advance());
      }
      return parseMeshAngled();
    }();
    SB_ASSIGN_OR_RETURN(MeshAttr parsed, inContext(std::move(mesh), diag::kMeshAttr));
    return MeshOrRef::inlineMesh(parsed);
  }
  // FieldParser<FlatSymbolRefAttr> runs MLIR's generic attribute parser.
  // A string, a number, a keyword attribute or a type parses, and is the
  // wrong kind; the parser stands after it for Shardy's message.
  if (diag::isOtherAttribute(tok_.kind, spelling())) {
    Error wrongKind = atToken("invalid kind of attribute specified");
    SB_TRY(advance());
    return wrongKind.withNote(std::string(diag::kMeshOrRef), tok_.begin);
  }
  return inContext(Result<MeshOrRef>(wrongToken("expected attribute value")), diag::kMeshOrRef);
}

// '{' (axis (',' axis)* (',' '?')? | '?')? '}' priority?
//   e.g. {}, {?}, {"x", "y":(2)2, ?}p0
// Upstream: parsers.cc, DimensionShardingAttr::parse.
Result<DimensionShardingAttr> Parser::parseDimSharding(size_t index) {
  int32_t d = index32(index);
  record(Part::kDim, d, -1, tok_.begin);
  SB_TRY(expect(TokenKind::kLBrace));
  std::vector<AxisRefAttr> axes;
  bool isClosed = true;
  while (!is(TokenKind::kRBrace)) {
    if (!axes.empty()) SB_TRY(expect(TokenKind::kComma));
    if (is(TokenKind::kQuestion)) {
      // `?` marks the dimension open and must be the last element.
      isClosed = false;
      SB_TRY(advance());
      SB_TRY(expect(TokenKind::kRBrace));
      break;
    }
    record(Part::kDimAxis, d, index32(axes.size()), tok_.begin);
    SB_ASSIGN_OR_RETURN(AxisRefAttr axis, parseAxisRef());
    axes.push_back(axis);
  }
  if (isClosed) SB_TRY(advance());  // '}'
  if (is(TokenKind::kBareIdent)) record(Part::kDimPriority, d, -1, tok_.begin);
  SB_ASSIGN_OR_RETURN(std::optional<int64_t> priority, parsePriority());
  return DimensionShardingAttr::get(ctx_, axes, isClosed, priority);
}

// ('p' DIGITS)?  — any identifier directly after '}' is taken as a priority,
// so `{"a"}high` is an error rather than a missing comma, as upstream. The
// word is consumed first, so upstream's errors point just past it.
Result<std::optional<int64_t>> Parser::parsePriority() {
  if (!is(TokenKind::kBareIdent)) return std::optional<int64_t>();
  std::string word(spelling());
  SB_TRY(advance());
  std::string_view digits = std::string_view(word).substr(1);
  bool allDigits = true;
  for (char c : digits) allDigits = allDigits && c >= '0' && c <= '9';
  if (word.size() < 2 || word[0] != 'p' || !allDigits) {
    return atToken("expecting priority in format 'p<number>', got: " + word);
  }
  if (digits.size() > 1 && digits[0] == '0') {
    return atToken("priorities with leading zeros are not allowed, got: " + word);
  }
  int64_t value = 0;
  for (char c : digits) {
    if (value > (std::numeric_limits<int64_t>::max() - (c - '0')) / 10) {
      return atToken("expecting integer priority, got: " + word);
    }
    value = value * 10 + (c - '0');
  }
  return std::optional<int64_t>(value);
}

// STRING (':' '(' INTEGER ')' INTEGER)?, e.g. "x" or "x":(2)4
// (Sdy_AxisRef: `` $name (`` `:` `` $sub_axis_info^)?, Sdy_SubAxisInfo:
// `(` $pre_size `)` `` $size).
Result<AxisRefAttr> Parser::parseAxisRef() {
  if (!is(TokenKind::kString)) return atToken(diag::expectedToken(TokenKind::kString));
  std::string name = std::move(tok_.value);
  SB_TRY(advance());
  SB_ASSIGN_OR_RETURN(bool isSubAxis, consumeIf(TokenKind::kColon));
  if (!isSubAxis) return AxisRefAttr::get(ctx_, name);
  SB_TRY(expect(TokenKind::kLParen));
  SB_ASSIGN_OR_RETURN(int64_t preSize, parseInteger());
  SB_TRY(expect(TokenKind::kRParen));
  SB_ASSIGN_OR_RETURN(int64_t size, parseInteger());
  return AxisRefAttr::get(ctx_, name, preSize, size);
}

// (',' ('replicated' '=' '{' axes '}'
//      | 'unreduced' ('=' ('sum' | 'max' | 'min')?)? '{' axes '}'))*
// Each list at most once, in either order; `unreduced{...}` without '=' is
// accepted as upstream does, and so is a word other than sum/max/min after
// '=' only in that it is then the '{' that is missing. Upstream:
// parsers.cc, parseReplicatedAndUnreducedAxes.
Status Parser::parseNamedAxisLists(std::vector<AxisRefAttr>& replicated,
                                   std::vector<AxisRefAttr>& unreduced,
                                   ReductionOp& reductionOp) {
  while (is(TokenKind::kComma)) {
    SB_TRY(advance());
    if (replicated.empty() && isKeyword("replicated")) {
      SB_TRY(advance());
      auto list = [&]() -> Status {
        SB_TRY(expect(TokenKind::kEqual));
        return parseAxisList(replicated, Part::kReplicatedAxis);
      }();
      SB_TRY(inContext(std::move(list), diag::kReplicatedAxes));
    } else if (unreduced.empty() && isKeyword("unreduced")) {
      SB_TRY(advance());
      auto list = [&]() -> Status {
        SB_ASSIGN_OR_RETURN(bool hasEqual, consumeIf(TokenKind::kEqual));
        if (hasEqual && is(TokenKind::kBareIdent)) {
          std::string_view word = spelling();
          bool known = word == "sum" || word == "max" || word == "min";
          if (word == "max") reductionOp = ReductionOp::kMax;
          if (word == "min") reductionOp = ReductionOp::kMin;
          if (known) SB_TRY(advance());
        }
        return parseAxisList(unreduced, Part::kUnreducedAxis);
      }();
      SB_TRY(inContext(std::move(list), diag::kUnreducedAxes));
    } else {
      return atToken(diag::kNamedListAfterComma);
    }
  }
  return okStatus();
}

// '{' axis (',' axis)* '}' — upstream requires at least one axis.
Status Parser::parseAxisList(std::vector<AxisRefAttr>& axes, Part part) {
  SB_TRY(expect(TokenKind::kLBrace));
  while (true) {
    record(part, index32(axes.size()), -1, tok_.begin);
    SB_ASSIGN_OR_RETURN(AxisRefAttr axis, parseAxisRef());
    axes.push_back(axis);
    SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
    if (!more) break;
  }
  return expect(TokenKind::kRBrace);
}

// '#sdy.sharding_per_value' '<' '[' (sharding (',' sharding)*)? ']' '>'
//   | '<' '[' ... ']' '>'; each sharding is `<...>` or `#sdy.sharding<...>`.
// Upstream's format: `<` `[` (`]`):($shardings^ `]`)? `>` (attrs.td,
// Sdy_TensorShardingPerValue).
Result<TensorShardingPerValueAttr> Parser::parsePerValue() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding_per_value") {
    SB_TRY(checkPrettyBody());
    SB_TRY(advance());
  }
  SB_TRY(expect(TokenKind::kLess));
  SB_TRY(expect(TokenKind::kLSquare));
  std::vector<TensorShardingAttr> shardings;
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      value_ = index32(shardings.size());
      SB_ASSIGN_OR_RETURN(TensorShardingAttr sharding,
                          inContext(parseSharding(), diag::kPerValueShardings));
      shardings.push_back(sharding);
      value_ = -1;
      SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
      if (!more) break;
    }
  }
  SB_TRY(expect(TokenKind::kRSquare));
  SB_TRY(expect(TokenKind::kGreater));
  return TensorShardingPerValueAttr::get(ctx_, shardings);
}

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
