// The recursive-descent parser of the sdy attribute syntax (text.h),
// private to the sdy floor: the token helpers and one method per
// production. parser.cc holds the integer, mesh and entry-point productions,
// parser_sharding.cc the sharding ones; each method's comment says which text
// it accepts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sdy/lexer.h"
#include "sdy/parser_diagnostics.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::sdy::parser {

using lexer::Token;
using lexer::TokenKind;
using Part = AttrPath::Part;

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

}  // namespace shardbridge::sdy::parser
