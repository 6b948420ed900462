// The sharding productions of the sdy parser (parser.h): `#sdy.sharding`,
// its dimension shardings, axis refs and named axis lists, and
// `#sdy.sharding_per_value`. The grammar is that of upstream Shardy's
// assembly formats and custom parsers (attrs.td, parsers.cc).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sdy/parser.h"

namespace shardbridge::sdy::parser {

// '#sdy.sharding' '<' body '>' | '<' body '>'
bool Parser::parseSharding(TensorShardingAttr& out) {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding") {
    if (!checkPrettyBody() || !advance()) return false;
  }
  return parseShardingAngled(out);
}

// '<' mesh-or-ref ',' '[' (dim (',' dim)*)? ']' named-axis-lists '>'
//   e.g. <@mesh, [{"x", ?}p1, {}], replicated={"z"}>
// Upstream's format: `<` custom<MeshOrRef> `,` `[` (`]`):($dim_shardings^
// `]`)? custom<ReplicatedAndUnreducedAxes> `>` (attrs.td, Sdy_TensorSharding).
bool Parser::parseShardingAngled(TensorShardingAttr& out) {
  if (!expect(TokenKind::kLess)) return false;
  MeshOrRef meshOrRef;
  if (!parseMeshOrRef(meshOrRef)) return false;
  if (!expect(TokenKind::kComma) || !expect(TokenKind::kLSquare)) return false;
  const size_t dimMark = dims_.size();
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      DimensionShardingAttr dim;
      if (!inContext(parseDimSharding(dims_.size() - dimMark, dim), diag::kDimShardings)) {
        return false;
      }
      dims_.push(dim);
      bool more = false;
      if (!consumeIf(TokenKind::kComma, more)) return false;
      if (!more) break;
    }
  }
  if (!expect(TokenKind::kRSquare)) return false;
  const size_t axisMark = axes_.size();
  AxisRange replicated{axisMark, axisMark}, unreduced{axisMark, axisMark};
  ReductionOp reductionOp = ReductionOp::kSum;
  if (!parseNamedAxisLists(replicated, unreduced, reductionOp)) return false;
  if (!expect(TokenKind::kGreater)) return false;
  out = TensorShardingAttr::get(ctx_, meshOrRef, dims_.from(dimMark),
                                axes_.slice(replicated.begin, replicated.end),
                                axes_.slice(unreduced.begin, unreduced.end), reductionOp);
  dims_.popTo(dimMark);
  axes_.popTo(axisMark);
  return true;
}

// AT_IDENT | 'mesh' '<' body '>'  (also 'mesh' '#sdy.mesh' '<' body '>')
// Upstream: parsers.cc, parseMeshOrRef.
bool Parser::parseMeshOrRef(MeshOrRef& out) {
  record(Part::kMeshOrRef, -1, -1, tok_.begin);
  if (is(TokenKind::kAtIdent)) {
    out = MeshOrRef::ref(ctx_, tok_.value);
    return advance();
  }
  if (isKeyword("mesh")) {
    if (!advance()) return false;
    MeshAttr parsed;
    bool ok = [&] {
      if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
        if (!checkPrettyBody() || !advance()) return false;
      }
      return parseMeshAngled(parsed);
    }();
    if (!inContext(ok, diag::kMeshAttr)) return false;
    out = MeshOrRef::inlineMesh(parsed);
    return true;
  }
  // FieldParser<FlatSymbolRefAttr> runs MLIR's generic attribute parser.
  // A string, a number, a keyword attribute or a type parses, and is the
  // wrong kind; the parser stands after it for Shardy's message.
  if (diag::isOtherAttribute(tok_.kind, spelling())) {
    Error wrongKind = atToken("invalid kind of attribute specified");
    if (!advance()) return false;
    return fail(wrongKind.withNote(std::string(diag::kMeshOrRef), tok_.begin));
  }
  return inContext(fail(wrongToken("expected attribute value")), diag::kMeshOrRef);
}

// '{' (axis (',' axis)* (',' '?')? | '?')? '}' priority?
//   e.g. {}, {?}, {"x", "y":(2)2, ?}p0
// Upstream: parsers.cc, DimensionShardingAttr::parse.
bool Parser::parseDimSharding(size_t index, DimensionShardingAttr& out) {
  int32_t d = index32(index);
  record(Part::kDim, d, -1, tok_.begin);
  if (!expect(TokenKind::kLBrace)) return false;
  const size_t mark = axes_.size();
  bool isClosed = true;
  while (!is(TokenKind::kRBrace)) {
    if (axes_.size() != mark && !expect(TokenKind::kComma)) return false;
    if (is(TokenKind::kQuestion)) {
      // `?` marks the dimension open and must be the last element.
      isClosed = false;
      if (!advance() || !expect(TokenKind::kRBrace)) return false;
      break;
    }
    record(Part::kDimAxis, d, index32(axes_.size() - mark), tok_.begin);
    AxisRefAttr axis;
    if (!parseAxisRef(axis)) return false;
    axes_.push(axis);
  }
  if (isClosed && !advance()) return false;  // '}'
  if (is(TokenKind::kBareIdent)) record(Part::kDimPriority, d, -1, tok_.begin);
  std::optional<int64_t> priority;
  if (!parsePriority(priority)) return false;
  out = DimensionShardingAttr::get(ctx_, axes_.from(mark), isClosed, priority);
  axes_.popTo(mark);
  return true;
}

// ('p' DIGITS)?  — any identifier directly after '}' is taken as a priority,
// so `{"a"}high` is an error rather than a missing comma, as upstream. The
// word is consumed first, so upstream's errors point just past it.
bool Parser::parsePriority(std::optional<int64_t>& out) {
  if (!is(TokenKind::kBareIdent)) return true;
  std::string_view word = spelling();  // a view of the text: outlives the token
  if (!advance()) return false;
  std::string_view digits = word.substr(1);
  bool allDigits = true;
  for (char c : digits) allDigits = allDigits && c >= '0' && c <= '9';
  if (word.size() < 2 || word[0] != 'p' || !allDigits) {
    return fail(atToken("expecting priority in format 'p<number>', got: " + std::string(word)));
  }
  if (digits.size() > 1 && digits[0] == '0') {
    return fail(
        atToken("priorities with leading zeros are not allowed, got: " + std::string(word)));
  }
  int64_t value = 0;
  for (char c : digits) {
    if (value > (std::numeric_limits<int64_t>::max() - (c - '0')) / 10) {
      return fail(atToken("expecting integer priority, got: " + std::string(word)));
    }
    value = value * 10 + (c - '0');
  }
  out = value;
  return true;
}

// STRING (':' '(' INTEGER ')' INTEGER)?, e.g. "x" or "x":(2)4
// (Sdy_AxisRef: `` $name (`` `:` `` $sub_axis_info^)?, Sdy_SubAxisInfo:
// `(` $pre_size `)` `` $size).
bool Parser::parseAxisRef(AxisRefAttr& out) {
  if (!is(TokenKind::kString)) return fail(atToken(diag::expectedToken(TokenKind::kString)));
  // A view of the text or of the lexer's decoded copy: it outlives the tokens.
  std::string_view name = tok_.value;
  bool isSubAxis = false;
  if (!advance() || !consumeIf(TokenKind::kColon, isSubAxis)) return false;
  if (!isSubAxis) {
    out = AxisRefAttr::get(ctx_, name);
    return true;
  }
  int64_t preSize = 0, size = 0;
  if (!expect(TokenKind::kLParen) || !parseInteger(preSize) || !expect(TokenKind::kRParen) ||
      !parseInteger(size)) {
    return false;
  }
  out = AxisRefAttr::get(ctx_, name, preSize, size);
  return true;
}

// (',' ('replicated' '=' '{' axes '}'
//      | 'unreduced' ('=' ('sum' | 'max' | 'min')?)? '{' axes '}'))*
// Each list at most once, in either order; `unreduced{...}` without '=' is
// accepted as upstream does, and so is a word other than sum/max/min after
// '=' only in that it is then the '{' that is missing. Upstream:
// parsers.cc, parseReplicatedAndUnreducedAxes. A list once parsed is not
// empty (parseAxisList wants an axis), which is how a second one is refused.
bool Parser::parseNamedAxisLists(AxisRange& replicated, AxisRange& unreduced,
                                 ReductionOp& reductionOp) {
  while (is(TokenKind::kComma)) {
    if (!advance()) return false;
    if (replicated.empty() && isKeyword("replicated")) {
      if (!advance()) return false;
      bool ok = expect(TokenKind::kEqual) && parseAxisList(replicated, Part::kReplicatedAxis);
      if (!inContext(ok, diag::kReplicatedAxes)) return false;
    } else if (unreduced.empty() && isKeyword("unreduced")) {
      if (!advance()) return false;
      bool ok = [&] {
        bool hasEqual = false;
        if (!consumeIf(TokenKind::kEqual, hasEqual)) return false;
        if (hasEqual && is(TokenKind::kBareIdent)) {
          std::string_view word = spelling();
          bool known = word == "sum" || word == "max" || word == "min";
          if (word == "max") reductionOp = ReductionOp::kMax;
          if (word == "min") reductionOp = ReductionOp::kMin;
          if (known && !advance()) return false;
        }
        return parseAxisList(unreduced, Part::kUnreducedAxis);
      }();
      if (!inContext(ok, diag::kUnreducedAxes)) return false;
    } else {
      return fail(atToken(diag::kNamedListAfterComma));
    }
  }
  return true;
}

// '{' axis (',' axis)* '}' — upstream requires at least one axis. The axes
// go on axes_, and `axes` becomes their range.
bool Parser::parseAxisList(AxisRange& axes, Part part) {
  if (!expect(TokenKind::kLBrace)) return false;
  axes.begin = axes_.size();
  while (true) {
    record(part, index32(axes_.size() - axes.begin), -1, tok_.begin);
    AxisRefAttr axis;
    if (!parseAxisRef(axis)) return false;
    axes_.push(axis);
    axes.end = axes_.size();
    bool more = false;
    if (!consumeIf(TokenKind::kComma, more)) return false;
    if (!more) break;
  }
  return expect(TokenKind::kRBrace);
}

// '#sdy.sharding_per_value' '<' '[' (sharding (',' sharding)*)? ']' '>'
//   | '<' '[' ... ']' '>'; each sharding is `<...>` or `#sdy.sharding<...>`.
// Upstream's format: `<` `[` (`]`):($shardings^ `]`)? `>` (attrs.td,
// Sdy_TensorShardingPerValue).
bool Parser::parsePerValue(TensorShardingPerValueAttr& out) {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding_per_value") {
    if (!checkPrettyBody() || !advance()) return false;
  }
  if (!expect(TokenKind::kLess) || !expect(TokenKind::kLSquare)) return false;
  const size_t mark = shardings_.size();
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      value_ = index32(shardings_.size() - mark);
      TensorShardingAttr sharding;
      if (!inContext(parseSharding(sharding), diag::kPerValueShardings)) return false;
      shardings_.push(sharding);
      value_ = -1;
      bool more = false;
      if (!consumeIf(TokenKind::kComma, more)) return false;
      if (!more) break;
    }
  }
  if (!expect(TokenKind::kRSquare) || !expect(TokenKind::kGreater)) return false;
  out = TensorShardingPerValueAttr::get(ctx_, shardings_.from(mark));
  shardings_.popTo(mark);
  return true;
}

}  // namespace shardbridge::sdy::parser
