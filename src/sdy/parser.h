// The recursive-descent parser of the sdy attribute syntax (text.h),
// private to the sdy floor: the token helpers and one method per
// production. parser.cc holds the integer, mesh and entry-point productions,
// parser_sharding.cc the sharding ones; each method's comment says which text
// it accepts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
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

// The elements of the lists being parsed (a dimension's axes, a sharding's
// dims, ...): a production pushes its list's elements, hands them to the
// attribute's `get` as a span, and pops them, so nested lists share one
// stack. Room for N inline means a typical parse allocates nothing; past
// that it moves to the heap. Only handles (trivially copyable) are stored.
template <typename T, size_t N>
class ScratchStack {
 public:
  ScratchStack() = default;
  ScratchStack(const ScratchStack&) = delete;
  ScratchStack& operator=(const ScratchStack&) = delete;

  size_t size() const { return size_; }
  void push(T value) {
    if (size_ == capacity_) grow();
    std::construct_at(data_ + size_, value);
    ++size_;
  }
  // The elements in [begin, end).
  std::span<const T> slice(size_t begin, size_t end) const { return {data_ + begin, end - begin}; }
  std::span<const T> from(size_t begin) const { return slice(begin, size_); }
  void popTo(size_t mark) { size_ = mark; }

 private:
  void grow() {
    if (data_ != inlineData()) {
      heap_.resize(capacity_ * 2);
    } else {
      heap_.resize(N * 2);
      std::copy(data_, data_ + size_, heap_.data());
    }
    data_ = heap_.data();
    capacity_ = heap_.size();
  }
  T* inlineData() { return reinterpret_cast<T*>(inline_); }

  // Raw bytes, so that a Parser does not fill N handles it may not use.
  alignas(T) unsigned char inline_[N * sizeof(T)];
  std::vector<T> heap_;
  T* data_ = inlineData();
  size_t size_ = 0;
  size_t capacity_ = N;
};

// Every production returns true on success, its result in an out-parameter,
// or false with the error in err_: no Result or Status (each of which holds
// an Error, two strings) is built or moved on the way of a successful
// parse. The first error ends the parse; nothing backtracks past one.
class Parser {
 public:
  Parser(Context& ctx, std::string_view text, SourceMap* locations, const ParseOptions& options)
      : ctx_(ctx), text_(text), lexer_(text), locations_(locations), options_(options) {}

  // Checks the input size and reads the first token.
  bool start() {
    if (text_.size() > options_.maxInputBytes) {
      return fail(makeError(ErrorCode::kParse,
                            "input is too large: " + std::to_string(text_.size()) +
                                " bytes, the limit is " + std::to_string(options_.maxInputBytes),
                            options_.maxInputBytes));
    }
    return advance();
  }

  bool parseAny(AnyAttr& out);
  bool parseMeshTop(MeshAttr& out);
  bool parseMeshSymbol(MeshSymbol& out);
  bool parseSharding(TensorShardingAttr& out);
  bool parsePerValue(TensorShardingPerValueAttr& out);

  // Accepts only the end of the input (mlir::parseAttribute's check).
  bool expectEnd() {
    if (tok_.kind == TokenKind::kEof) return true;
    return fail(atToken(diag::trailingCharacters(text_.substr(tok_.begin))));
  }

  // The error after a production returned false.
  Error takeError() { return std::move(err_); }

 private:
  // A range of axes_ (a replicated or unreduced list).
  struct AxisRange {
    size_t begin = 0;
    size_t end = 0;
    bool empty() const { return begin == end; }
  };

  // --- token helpers -------------------------------------------------------
  bool fail(Error error) {
    err_ = std::move(error);
    return false;
  }
  bool advance() {
    if (lexer_.lex(tok_)) return true;
    lexFailed_ = true;
    err_ = lexer_.takeError();
    return false;
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
  bool expect(TokenKind kind) {
    if (!is(kind)) return fail(wrongToken(diag::expectedToken(kind)));
    return advance();
  }
  // Consumes a token of `kind` when it is next and says so in `took`; false
  // only when reading the token after it fails.
  bool consumeIf(TokenKind kind, bool& took) {
    took = is(kind);
    return !took || advance();
  }
  // `ok`; when false, `context` becomes the note of the error, at the
  // current token (where MLIR emits a parameter context), unless the error
  // has a note already or came from the lexer.
  bool inContext(bool ok, std::string_view context) {
    if (ok || lexFailed_ || err_.hasNote()) return ok;
    err_.note = std::string(context);
    err_.noteOffset = tok_.begin;
    return false;
  }
  // At a `#sdy.xxx` token directly followed by '<': MLIR's scan of the
  // pretty body, which runs before the attribute's own parser.
  bool checkPrettyBody() {
    if (!is(TokenKind::kHashIdent) || tok_.end >= text_.size() || text_[tok_.end] != '<') {
      return true;
    }
    Status scanned = diag::checkPrettyBody(text_, tok_.end, lexFailed_);
    return scanned.has_value() || fail(std::move(scanned).error());
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
  bool parseInteger(int64_t& out);
  bool parseMeshAngled(MeshAttr& out);
  bool parseMeshBody(MeshAttr& out);
  bool parseMeshAxis(size_t index, MeshAxisAttr& out);
  bool parseDeviceIds(std::vector<int64_t>& ids);
  bool parseAxisRef(AxisRefAttr& out);
  bool parseShardingAngled(TensorShardingAttr& out);
  bool parseMeshOrRef(MeshOrRef& out);
  bool parseDimSharding(size_t index, DimensionShardingAttr& out);
  bool parsePriority(std::optional<int64_t>& out);
  bool parseNamedAxisLists(AxisRange& replicated, AxisRange& unreduced, ReductionOp& reductionOp);
  bool parseAxisList(AxisRange& axes, Part part);
  bool skipAttrDict();

  Context& ctx_;
  std::string_view text_;
  lexer::Lexer lexer_;
  Token tok_;
  SourceMap* locations_;
  const ParseOptions& options_;
  int32_t value_ = -1;  // index of the sharding inside a sharding_per_value
  bool lexFailed_ = false;  // the last error came from the lexer
  Error err_;               // the error, once a production returned false
  ScratchStack<AxisRefAttr, 32> axes_;
  ScratchStack<DimensionShardingAttr, 16> dims_;
  ScratchStack<MeshAxisAttr, 8> meshAxes_;
  ScratchStack<TensorShardingAttr, 8> shardings_;
};

}  // namespace shardbridge::sdy::parser
