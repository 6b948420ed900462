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

}  // namespace shardbridge::sdy::parser
