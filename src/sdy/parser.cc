// Recursive-descent parser for the sdy attribute syntax (text.h).
//
// One method per production; each says in its comment which text it accepts.
// The grammar is that of upstream Shardy's assembly formats and custom
// parsers (attrs.td, parsers.cc). Where upstream has its own wording for an
// error the message is exactly upstream's; where upstream would report a
// cascade of errors for one bad token, only the first (most specific) one is
// kept; everything else reads `expected X, got 'Y'`.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sdy/lexer.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy {
namespace {

using lexer::Token;
using lexer::TokenKind;
using Part = AttrPath::Part;

constexpr std::string_view kReplicatedError =
    "failed to parse Sdy_TensorSharding parameter 'replicated_axes'";
constexpr std::string_view kUnreducedError =
    "failed to parse Sdy_TensorSharding parameter 'unreduced_axes'";
constexpr std::string_view kAxisListError =
    "failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`";
constexpr std::string_view kNamedListError =
    "failed to parse Sdy_TensorSharding, expected valid named axis list after comma";

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

  // Accepts only the end of the input.
  Status expectEnd() {
    if (tok_.kind == TokenKind::kEof) return okStatus();
    return fail("expected end of input after the attribute");
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
  // `what, got '<current token>'` at the current token.
  Error fail(std::string_view what) const {
    return makeError(ErrorCode::kParse,
                     std::string(what) + ", got " + lexer::describeToken(text_, tok_), tok_.begin);
  }
  Error failExact(std::string_view message) const {
    return makeError(ErrorCode::kParse, std::string(message), tok_.begin);
  }
  // Consumes a token of `kind`, else fails with `what`.
  Status expect(TokenKind kind, std::string_view what) {
    if (!is(kind)) return fail(what);
    return advance();
  }
  // Consumes a token of `kind` when it is next; says whether it did.
  Result<bool> consumeIf(TokenKind kind) {
    if (!is(kind)) return false;
    SB_TRY(advance());
    return true;
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
  Result<int64_t> parseInteger(std::string_view what);
  Result<MeshAttr> parseMeshAngled();
  Result<MeshAttr> parseMeshBody();
  Result<MeshAxisAttr> parseMeshAxis(size_t index);
  Status parseDeviceIds(std::vector<int64_t>& ids);
  Result<AxisRefAttr> parseAxisRef(std::string_view what);
  Result<TensorShardingAttr> parseShardingAngled();
  Result<MeshOrRef> parseMeshOrRef();
  Result<DimensionShardingAttr> parseDimSharding(size_t index);
  Result<std::optional<int64_t>> parsePriority();
  Status parseNamedAxisLists(std::vector<AxisRefAttr>& replicated,
                             std::vector<AxisRefAttr>& unreduced, ReductionOp& reductionOp);
  Status parseAxisList(std::vector<AxisRefAttr>& axes, Part part, std::string_view listError);
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

// INTEGER | '-' INTEGER, as an int64 (decimal or 0x hex).
Result<int64_t> Parser::parseInteger(std::string_view what) {
  size_t start = tok_.begin;
  SB_ASSIGN_OR_RETURN(bool negative, consumeIf(TokenKind::kMinus));
  if (!is(TokenKind::kInteger)) return fail(what);
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
  return fail(
      "expected '#sdy.mesh', '#sdy.sharding', '#sdy.sharding_per_value' or 'sdy.mesh'");
}

// '#sdy.mesh' '<' body '>' | '<' body '>' | body
Result<MeshAttr> Parser::parseMeshTop() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") {
    SB_TRY(advance());
    return parseMeshAngled();
  }
  if (is(TokenKind::kLess)) return parseMeshAngled();
  if (is(TokenKind::kLSquare)) return parseMeshBody();
  return fail("expected '#sdy.mesh<', '<[' or '[' to start a mesh");
}

// '<' body '>'
Result<MeshAttr> Parser::parseMeshAngled() {
  SB_TRY(expect(TokenKind::kLess, "expected '<' to open mesh"));
  SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshBody());
  SB_TRY(expect(TokenKind::kGreater, "expected '>' to close mesh"));
  return mesh;
}

// '[' (axis (',' axis)*)? ']' (',' 'device_ids' '=' '[' int (',' int)* ']')?
//   e.g. ["a"=2, "b"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]
Result<MeshAttr> Parser::parseMeshBody() {
  SB_TRY(expect(TokenKind::kLSquare, "expected '[' to open mesh axes"));
  std::vector<MeshAxisAttr> axes;
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      SB_ASSIGN_OR_RETURN(MeshAxisAttr axis, parseMeshAxis(axes.size()));
      axes.push_back(axis);
      SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
      if (!more) break;
    }
  }
  SB_TRY(expect(TokenKind::kRSquare, "expected ']' to close mesh axes"));
  std::vector<int64_t> ids;
  if (is(TokenKind::kComma)) {
    SB_TRY(advance());
    if (!isKeyword("device_ids")) return fail("expected 'device_ids' after ',' in mesh");
    SB_TRY(advance());
    SB_TRY(expect(TokenKind::kEqual, "expected '=' after 'device_ids'"));
    SB_TRY(parseDeviceIds(ids));
  }
  return MeshAttr::get(ctx_, axes, ids);
}

// STRING '=' INTEGER, e.g. "x"=4
Result<MeshAxisAttr> Parser::parseMeshAxis(size_t index) {
  if (!is(TokenKind::kString)) return fail("expected quoted mesh axis name");
  record(Part::kMeshAxis, index32(index), -1, tok_.begin);
  std::string name = std::move(tok_.value);
  SB_TRY(advance());
  SB_TRY(expect(TokenKind::kEqual, "expected '=' after mesh axis name"));
  record(Part::kMeshAxisSize, index32(index), -1, tok_.begin);
  SB_ASSIGN_OR_RETURN(int64_t size, parseInteger("expected integer mesh axis size"));
  return MeshAxisAttr::get(ctx_, name, size);
}

// '[' INTEGER (',' INTEGER)* ']'; upstream requires at least one id.
Status Parser::parseDeviceIds(std::vector<int64_t>& ids) {
  record(Part::kDeviceIds, -1, -1, tok_.begin);
  SB_TRY(expect(TokenKind::kLSquare, "expected '[' to open device list"));
  while (true) {
    record(Part::kDeviceId, index32(ids.size()), -1, tok_.begin);
    SB_ASSIGN_OR_RETURN(int64_t id, parseInteger("expected integer device id"));
    ids.push_back(id);
    SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
    if (!more) break;
  }
  return expect(TokenKind::kRSquare, "expected ']' to close device list");
}

// 'sdy.mesh' AT_IDENT '=' ('<' body '>' | '#sdy.mesh' '<' body '>') attr-dict?
//   e.g. sdy.mesh @mesh = <["x"=8]>
Result<MeshSymbol> Parser::parseMeshSymbol() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (!isKeyword("sdy.mesh")) return fail("expected 'sdy.mesh'");
  SB_TRY(advance());
  if (!is(TokenKind::kAtIdent)) return fail("expected '@' mesh name after 'sdy.mesh'");
  record(Part::kMeshOrRef, -1, -1, tok_.begin);
  std::string name = std::move(tok_.value);
  SB_TRY(advance());
  SB_TRY(expect(TokenKind::kEqual, "expected '=' after mesh name"));
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") SB_TRY(advance());
  SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshAngled());
  if (is(TokenKind::kLBrace)) SB_TRY(skipAttrDict());
  return MeshSymbol{std::move(name), mesh};
}

// '{' ... '}' with balanced braces and strings: an MLIR attribute dictionary,
// whose contents sdy does not interpret. Scanned by bytes because it may hold
// any MLIR syntax, not just sdy tokens.
Status Parser::skipAttrDict() {
  size_t open = tok_.begin;
  size_t p = tok_.begin;
  int depth = 0;
  while (p < text_.size()) {
    char c = text_[p];
    if (c == '"') {
      ++p;
      while (p < text_.size() && text_[p] != '"') p += text_[p] == '\\' ? 2 : 1;
      if (p >= text_.size()) break;
    } else if (c == '{') {
      if (++depth > kMaxAttrDictDepth) {
        return makeError(ErrorCode::kParse, "attribute dictionary nested too deeply", p);
      }
    } else if (c == '}') {
      if (--depth == 0) {
        lexer_.seek(p + 1);
        return advance();
      }
    }
    ++p;
  }
  return makeError(ErrorCode::kParse, "expected '}' to close the attribute dictionary", open);
}

// '#sdy.sharding' '<' body '>' | '<' body '>'
Result<TensorShardingAttr> Parser::parseSharding() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding") SB_TRY(advance());
  return parseShardingAngled();
}

// '<' mesh-or-ref ',' '[' (dim (',' dim)*)? ']' named-axis-lists '>'
//   e.g. <@mesh, [{"x", ?}p1, {}], replicated={"z"}>
Result<TensorShardingAttr> Parser::parseShardingAngled() {
  SB_TRY(expect(TokenKind::kLess, "expected '<' to open sharding"));
  SB_ASSIGN_OR_RETURN(MeshOrRef meshOrRef, parseMeshOrRef());
  SB_TRY(expect(TokenKind::kComma, "expected ',' after the mesh of a sharding"));
  SB_TRY(expect(TokenKind::kLSquare, "expected '[' to open dimension shardings"));
  std::vector<DimensionShardingAttr> dims;
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      SB_ASSIGN_OR_RETURN(DimensionShardingAttr dim, parseDimSharding(dims.size()));
      dims.push_back(dim);
      SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
      if (!more) break;
    }
  }
  SB_TRY(expect(TokenKind::kRSquare, "expected ']' to close dimension shardings"));
  std::vector<AxisRefAttr> replicated, unreduced;
  ReductionOp reductionOp = ReductionOp::kSum;
  SB_TRY(parseNamedAxisLists(replicated, unreduced, reductionOp));
  SB_TRY(expect(TokenKind::kGreater, "expected '>' to close sharding"));
  return TensorShardingAttr::get(ctx_, meshOrRef, dims, replicated, unreduced, reductionOp);
}

// AT_IDENT | 'mesh' '<' body '>'  (also 'mesh' '#sdy.mesh' '<' body '>')
Result<MeshOrRef> Parser::parseMeshOrRef() {
  record(Part::kMeshOrRef, -1, -1, tok_.begin);
  if (is(TokenKind::kAtIdent)) {
    MeshOrRef ref = MeshOrRef::ref(ctx_, tok_.value);
    SB_TRY(advance());
    return ref;
  }
  if (isKeyword("mesh")) {
    SB_TRY(advance());
    if (is(TokenKind::kHashIdent) && spelling() == "#sdy.mesh") SB_TRY(advance());
    SB_ASSIGN_OR_RETURN(MeshAttr mesh, parseMeshAngled());
    return MeshOrRef::inlineMesh(mesh);
  }
  return fail("expected '@' mesh name or 'mesh<...>'");
}

// '{' (axis (',' axis)* (',' '?')? | '?')? '}' priority?
//   e.g. {}, {?}, {"x", "y":(2)2, ?}p0
Result<DimensionShardingAttr> Parser::parseDimSharding(size_t index) {
  int32_t d = index32(index);
  record(Part::kDim, d, -1, tok_.begin);
  SB_TRY(expect(TokenKind::kLBrace, "expected '{' to open dimension sharding"));
  std::vector<AxisRefAttr> axes;
  bool isClosed = true;
  while (!is(TokenKind::kRBrace)) {
    if (!axes.empty()) {
      SB_TRY(expect(TokenKind::kComma, "expected ',' or '}' in dimension sharding"));
    }
    if (is(TokenKind::kQuestion)) {
      // `?` marks the dimension open and must be the last element.
      isClosed = false;
      SB_TRY(advance());
      if (!is(TokenKind::kRBrace)) return fail("expected '}' after '?' in dimension sharding");
      break;
    }
    record(Part::kDimAxis, d, index32(axes.size()), tok_.begin);
    SB_ASSIGN_OR_RETURN(AxisRefAttr axis,
                        parseAxisRef("expected quoted axis name or '?' in dimension sharding"));
    axes.push_back(axis);
  }
  SB_TRY(advance());  // '}'
  if (is(TokenKind::kBareIdent)) record(Part::kDimPriority, d, -1, tok_.begin);
  SB_ASSIGN_OR_RETURN(std::optional<int64_t> priority, parsePriority());
  return DimensionShardingAttr::get(ctx_, axes, isClosed, priority);
}

// ('p' DIGITS)?  — any identifier directly after '}' is taken as a priority,
// so `{"a"}high` is an error rather than a missing comma, as upstream.
Result<std::optional<int64_t>> Parser::parsePriority() {
  if (!is(TokenKind::kBareIdent)) return std::optional<int64_t>();
  std::string word(spelling());
  std::string_view digits = std::string_view(word).substr(1);
  bool allDigits = true;
  for (char c : digits) allDigits = allDigits && c >= '0' && c <= '9';
  if (word.size() < 2 || word[0] != 'p' || !allDigits) {
    return failExact("expecting priority in format 'p<number>', got: " + word);
  }
  if (digits.size() > 1 && digits[0] == '0') {
    return failExact("priorities with leading zeros are not allowed, got: " + word);
  }
  int64_t value = 0;
  for (char c : digits) {
    if (value > (std::numeric_limits<int64_t>::max() - (c - '0')) / 10) {
      return failExact("expecting integer priority, got: " + word);
    }
    value = value * 10 + (c - '0');
  }
  SB_TRY(advance());
  return std::optional<int64_t>(value);
}

// STRING (':' '(' INTEGER ')' INTEGER)?, e.g. "x" or "x":(2)4
Result<AxisRefAttr> Parser::parseAxisRef(std::string_view what) {
  if (!is(TokenKind::kString)) return fail(what);
  std::string name = std::move(tok_.value);
  SB_TRY(advance());
  SB_ASSIGN_OR_RETURN(bool isSubAxis, consumeIf(TokenKind::kColon));
  if (!isSubAxis) return AxisRefAttr::get(ctx_, name);
  SB_TRY(expect(TokenKind::kLParen, "expected '(' after ':' in sub-axis"));
  SB_ASSIGN_OR_RETURN(int64_t preSize, parseInteger("expected integer sub-axis pre-size"));
  SB_TRY(expect(TokenKind::kRParen, "expected ')' after sub-axis pre-size"));
  SB_ASSIGN_OR_RETURN(int64_t size, parseInteger("expected integer sub-axis size"));
  return AxisRefAttr::get(ctx_, name, preSize, size);
}

// (',' ('replicated' '=' '{' axes '}'
//      | 'unreduced' ('=' ('sum' | 'max' | 'min')?)? '{' axes '}'))*
// Each list at most once, in either order; `unreduced{...}` without '=' is
// accepted as upstream does.
Status Parser::parseNamedAxisLists(std::vector<AxisRefAttr>& replicated,
                                   std::vector<AxisRefAttr>& unreduced,
                                   ReductionOp& reductionOp) {
  while (is(TokenKind::kComma)) {
    SB_TRY(advance());
    if (replicated.empty() && isKeyword("replicated")) {
      SB_TRY(advance());
      if (!is(TokenKind::kEqual)) return failExact(kReplicatedError);
      SB_TRY(advance());
      SB_TRY(parseAxisList(replicated, Part::kReplicatedAxis, kReplicatedError));
    } else if (unreduced.empty() && isKeyword("unreduced")) {
      SB_TRY(advance());
      SB_ASSIGN_OR_RETURN(bool hasEqual, consumeIf(TokenKind::kEqual));
      if (hasEqual && is(TokenKind::kBareIdent)) {
        if (spelling() == "max") {
          reductionOp = ReductionOp::kMax;
        } else if (spelling() == "min") {
          reductionOp = ReductionOp::kMin;
        } else if (spelling() == "sum") {
          reductionOp = ReductionOp::kSum;
        } else {
          return failExact(kUnreducedError);
        }
        SB_TRY(advance());
      }
      SB_TRY(parseAxisList(unreduced, Part::kUnreducedAxis, kUnreducedError));
    } else {
      return failExact(kNamedListError);
    }
  }
  return okStatus();
}

// '{' axis (',' axis)* '}' — upstream requires at least one axis.
Status Parser::parseAxisList(std::vector<AxisRefAttr>& axes, Part part,
                             std::string_view listError) {
  if (!is(TokenKind::kLBrace)) return failExact(listError);
  SB_TRY(advance());
  while (true) {
    record(part, index32(axes.size()), -1, tok_.begin);
    if (!is(TokenKind::kString)) return failExact(kAxisListError);
    auto axis = parseAxisRef("");
    if (!axis) {
      // A malformed token keeps the lexer's message; a malformed sub-axis
      // suffix is reported as upstream reports a bad list element.
      if (lexFailed_) return Unexpected(axis.error());
      return makeError(ErrorCode::kParse, std::string(kAxisListError), axis.error().offset);
    }
    axes.push_back(*axis);
    SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
    if (!more) break;
  }
  if (!is(TokenKind::kRBrace)) return failExact(listError);
  return advance();
}

// '#sdy.sharding_per_value' '<' '[' (sharding (',' sharding)*)? ']' '>'
//   | '<' '[' ... ']' '>'; each sharding is `<...>` or `#sdy.sharding<...>`.
Result<TensorShardingPerValueAttr> Parser::parsePerValue() {
  record(Part::kWhole, -1, -1, tok_.begin);
  if (is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding_per_value") SB_TRY(advance());
  SB_TRY(expect(TokenKind::kLess, "expected '<' to open sharding_per_value"));
  SB_TRY(expect(TokenKind::kLSquare, "expected '[' to open the list of shardings"));
  std::vector<TensorShardingAttr> shardings;
  if (!is(TokenKind::kRSquare)) {
    while (true) {
      value_ = index32(shardings.size());
      if (!is(TokenKind::kLess) && !(is(TokenKind::kHashIdent) && spelling() == "#sdy.sharding")) {
        return fail("expected '<' to open sharding");
      }
      SB_ASSIGN_OR_RETURN(TensorShardingAttr sharding, parseSharding());
      shardings.push_back(sharding);
      value_ = -1;
      SB_ASSIGN_OR_RETURN(bool more, consumeIf(TokenKind::kComma));
      if (!more) break;
    }
  }
  SB_TRY(expect(TokenKind::kRSquare, "expected ']' to close the list of shardings"));
  SB_TRY(expect(TokenKind::kGreater, "expected '>' to close sharding_per_value"));
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
