// The old scanner's constructs (scanner_impl.h): the module header,
// func.func signatures, sdy.mesh, sdy.sharding_constraint and
// sdy.manual_computation.
#include "module/scanner_impl.h"

namespace shardbridge::module_detail::scan_impl {

Status Scanner::parseModule() {
  bool topLevel = stack_.empty() && !sawModule_;
  skipWs();
  if (at('@')) {
    auto symbol = readSymbol();
    if (!symbol) return symbol.error();
  }
  skipWs();
  size_t beforeKeyword = p_;
  // The blank before `attributes`, so that removing the dictionary removes
  // ` attributes {...}` whole.
  while (beforeKeyword > 0 && isBlank(t_[beforeKeyword - 1])) --beforeKeyword;
  if (p_ + 10 <= t_.size() && t_.substr(p_, 10) == "attributes" &&
      (p_ + 10 == t_.size() || !isIdentChar(t_[p_ + 10]))) {
    p_ += 10;
    skipWs();
    if (!at('{')) return parseError("expected '{' after 'attributes', got " + describe(t_, p_), p_);
    AttrDict dict;
    SB_TRY(parseDict(dict, 0));
    if (interesting(dict)) {
      ValueDict vd;
      vd.kind = SiteKind::kModule;
      vd.dict = &dict;
      vd.attributesKeyword = beforeKeyword;
      vd.manual = &scopes_.back();
      SB_TRY(v_.onDict(vd));
    }
    skipWs();
  }
  if (p_ + 3 <= t_.size() && t_.substr(p_, 3) == "loc") {
    p_ += 3;
    skipWs();
    if (at('(')) SB_TRY(skipBalanced());
    skipWs();
  }
  if (!at('{')) return parseError("expected '{' to begin the module body, got " + describe(t_, p_), p_);
  if (topLevel) {
    sawModule_ = true;
    moduleDepth_ = static_cast<int>(stack_.size());
    summary_.explicitModule = true;
    summary_.moduleBodyStart = p_ + 1;
    ModuleInfo info{true, p_ + 1};
    SB_TRY(v_.onModule(info));
  }
  return push('{', true);
}

Status Scanner::parseFunc() {
  skipWs();
  if (p_ < t_.size() && isIdentStart(t_[p_])) {
    size_t save = p_;
    Span vis = readIdent();
    std::string_view w = vis.in(t_);
    if (w != "public" && w != "private" && w != "nested") p_ = save;
  }
  SB_ASSIGN_OR_RETURN(std::string_view name, readSymbol());
  SB_TRY(expect('(', "'(' to begin the argument list"));
  // One argument or result: `%name: type {attrs} loc(...)` (or a bare type).
  auto readValue = [&](SiteKind kind, int index, bool named) -> Status {
    skipWs();
    ValueDict& vd = value_;
    vd.kind = kind;
    vd.dict = nullptr;
    vd.argName = {};
    vd.types.clear();
    vd.funcName = name;
    vd.index = index;
    vd.manual = &scopes_.back();
    if (named && at('%')) {
      vd.argName = readValueId().in(t_);
      SB_TRY(expect(':', "':' after the argument name"));
    }
    SB_ASSIGN_OR_RETURN(Span type, readType());
    vd.types.push_back(type);
    vd.typesKnown = true;
    skipWs();
    if (at('{')) {
      if (!v_.wantsValueDicts()) {
        SB_TRY(skipBalanced());
      } else {
        AttrDict& dict = dict_;
        resetDict(dict);
        SB_TRY(parseDict(dict, 0));
        if (interesting(dict)) {
          vd.dict = &dict;
          SB_TRY(v_.onDict(vd));
        }
      }
      skipWs();
    }
    if (p_ + 3 <= t_.size() && t_.substr(p_, 3) == "loc" && p_ + 3 < t_.size() && t_[p_ + 3] == '(') {
      p_ += 3;
      SB_TRY(skipBalanced());
      skipWs();
    }
    return okStatus();
  };
  // The values of a parenthesised list up to its ')'. `open` (the '('), when
  // given, names where an unclosed list began.
  auto readValueList = [&](SiteKind kind, bool named, const char* what,
                           std::optional<size_t> open) -> Status {
    int index = 0;
    if (at(')')) {
      ++p_;
      return okStatus();
    }
    while (true) {
      SB_TRY(readValue(kind, index++, named));
      skipWs();
      if (at(',')) {
        ++p_;
        continue;
      }
      if (at(')')) {
        ++p_;
        return okStatus();
      }
      if (open && p_ >= t_.size())
        return parseError("unexpected end of input: '(' opened here is not closed", *open);
      return parseError(std::string("expected ',' or ')' in the ") + what + ", got " +
                            describe(t_, p_),
                        p_);
    }
  };
  skipWs();
  SB_TRY(readValueList(SiteKind::kArg, true, "argument list", std::nullopt));
  size_t end = p_;  // of the header so far: a declaration ends there
  skipWs();
  if (atArrow()) {
    p_ += 2;
    skipWs();
    if (at('(')) {
      size_t open = p_;
      ++p_;
      skipWs();
      // `(tensor<...>) -> ...` would be a function-typed single result; MLIR
      // prints result lists in parentheses, so read a list.
      SB_TRY(readValueList(SiteKind::kResult, false, "result list", open));
    } else {
      SB_ASSIGN_OR_RETURN(Span type, readType());
      (void)type;
    }
    end = p_;
    skipWs();
  }
  if (p_ + 10 <= t_.size() && t_.substr(p_, 10) == "attributes") {
    p_ += 10;
    skipWs();
    if (!at('{')) return parseError("expected '{' after 'attributes', got " + describe(t_, p_), p_);
    SB_TRY(skipBalanced());
    end = p_;
    skipWs();
  }
  if (at('{')) return push('{', true);
  // A declaration: the line break after it must still start the next
  // statement (a sharded function after a declaration was read as part of
  // the declaration's line).
  p_ = end;
  return okStatus();
}

Status Scanner::parseMesh(size_t start) {
  MeshOp op;
  SB_ASSIGN_OR_RETURN(op.name, readSymbol());
  SB_TRY(expect('=', "'=' after the mesh name"));
  skipWs();
  if (!at('<')) return parseError("expected '<' to begin the mesh, got " + describe(t_, p_), p_);
  size_t b = p_;
  SB_TRY(skipBalanced());
  op.body = {b, p_};
  size_t end = p_;
  size_t save = p_;
  skipWs();
  if (at('{')) {
    // sdy.mesh's format ends in attr-dict: a brace that does not open a
    // dictionary (a block) is an error in MLIR too, never silently removed
    // with the mesh.
    if (!looksLikeDict())
      return parseError("expected an attribute dictionary or a new line after the mesh, got a block", p_);
    SB_TRY(skipBalanced());
    end = p_;
  } else {
    p_ = save;
  }
  op.statement = {start, end};
  return v_.onMesh(op);
}

Status Scanner::parseConstraint(size_t nameBegin) {
  ConstraintOp op;
  op.results = opResults_;
  op.manual = &scopes_.back();
  skipWs();
  if (!at('%')) return parseError("expected operand, got " + describe(t_, p_), p_);
  op.operand = readValueId();
  skipWs();
  if (!at('<')) return parseError("expected '<' to begin the sharding, got " + describe(t_, p_), p_);
  size_t b = p_;
  SB_TRY(skipBalanced());
  op.sharding = {b, p_};
  skipWs();
  if (at('{')) {
    SB_TRY(skipBalanced());
    skipWs();
  }
  SB_TRY(expect(':', "':' before the type"));
  SB_ASSIGN_OR_RETURN(op.type, readType());
  op.op = {nameBegin, op.type.end};
  return v_.onConstraint(op);
}

Status Scanner::parseManualComputation(size_t nameBegin) {
  ManualComputationOp op;
  op.offset = nameBegin;
  op.results = opResults_;
  skipWs();
  if (!at('(')) return parseError("expected '(' to begin the operands, got " + describe(t_, p_), p_);
  SB_TRY(skipBalanced());
  auto keyword = [&](std::string_view word) -> Status {
    skipWs();
    Span s = readIdent();
    if (s.in(t_) != word)
      return parseError("expected '" + std::string(word) + "', got " + describe(t_, s.begin), s.begin);
    return expect('=', "'='");
  };
  auto shardingList = [&](std::vector<Span>& out) -> Status {
    SB_TRY(expect('[', "'['"));
    skipWs();
    if (at(']')) {
      ++p_;
      return okStatus();
    }
    while (true) {
      skipWs();
      if (!at('<')) return parseError("expected '<' to begin a sharding, got " + describe(t_, p_), p_);
      size_t b = p_;
      SB_TRY(skipBalanced());
      out.push_back({b, p_});
      skipWs();
      if (at(',')) {
        ++p_;
        continue;
      }
      return expect(']', "',' or ']'");
    }
  };
  SB_TRY(keyword("in_shardings"));
  SB_TRY(shardingList(op.inShardings));
  SB_TRY(keyword("out_shardings"));
  SB_TRY(shardingList(op.outShardings));
  SB_TRY(keyword("manual_axes"));
  SB_TRY(expect('{', "'{'"));
  op.manualAxesSpan.begin = p_ - 1;
  skipWs();
  if (at('}')) {
    ++p_;
  } else {
    while (true) {
      skipWs();
      if (!at('"')) return parseError("expected a quoted axis name, got " + describe(t_, p_), p_);
      size_t b = p_;
      SB_TRY(skipString());
      auto name = decodeStringLiteral(t_.substr(b, p_ - b));
      if (!name) return name.error().shifted(b);
      op.manualAxes.push_back(std::move(*name));
      skipWs();
      if (at(',')) {
        ++p_;
        continue;
      }
      SB_TRY(expect('}', "',' or '}'"));
      break;
    }
  }
  op.manualAxesSpan.end = p_;
  skipWs();
  if (!at('(')) return parseError("expected '(' to begin the body arguments, got " + describe(t_, p_), p_);
  SB_TRY(skipBalanced());
  skipWs();
  if (!at('{')) return parseError("expected '{' to begin the body, got " + describe(t_, p_), p_);
  SB_TRY(v_.onManualComputation(op));
  ManualScope scope;
  scope.axes = scopes_.back().axes;
  scope.axes.insert(scope.axes.end(), op.manualAxes.begin(), op.manualAxes.end());
  scope.computation = manualCount_++;
  scopes_.push_back(std::move(scope));
  return push('{', true, true);
}

}  // namespace shardbridge::module_detail::scan_impl
