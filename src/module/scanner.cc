#include "module/scanner.h"

#include <optional>
#include <string>

namespace shardbridge::module_detail {
namespace {

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentChar(char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-';
}
bool isValueIdChar(char c) {
  return isIdentChar(c) || c == '#';
}
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

Error parseError(std::string message, size_t offset) {
  return makeError(ErrorCode::kParse, std::move(message), offset);
}

std::string describe(std::string_view text, size_t p) {
  if (p >= text.size()) return "end of input";
  char c = text[p];
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
    return "byte " + std::to_string(static_cast<unsigned char>(c));
  return std::string("'") + c + "'";
}

struct Frame {
  char open;       // '(' '[' '{' '<'
  size_t offset;   // where it opened
  bool block;      // a region / module body: its contents are statements
  bool manual;     // the region of an sdy.manual_computation (pops a scope)
};

class Scanner {
 public:
  Scanner(std::string_view text, ScanVisitor& visitor) : t_(text), v_(visitor) {
    scopes_.emplace_back();
  }

  Result<ScanSummary> run();

 private:
  // --- lexing helpers --------------------------------------------------------
  void skipWs() {
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (isBlank(c)) {
        ++p_;
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
        while (p_ < t_.size() && t_[p_] != '\n') ++p_;
      } else {
        break;
      }
    }
  }
  bool at(char c) const { return p_ < t_.size() && t_[p_] == c; }
  bool atArrow() const { return p_ + 1 < t_.size() && t_[p_] == '-' && t_[p_ + 1] == '>'; }
  Status expect(char c, const char* what) {
    skipWs();
    if (!at(c))
      return parseError(std::string("expected ") + what + ", got " + describe(t_, p_), p_);
    ++p_;
    return okStatus();
  }
  // At '"': moves past the closing quote.
  Status skipString() {
    size_t start = p_;
    ++p_;
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == '"') {
        ++p_;
        return okStatus();
      }
      if (c == '\n') break;
      if (c == '\\') {
        ++p_;
        if (p_ >= t_.size()) break;
      }
      ++p_;
    }
    return parseError("unterminated string literal", start);
  }
  Span readIdent() {
    size_t b = p_;
    while (p_ < t_.size() && isIdentChar(t_[p_])) ++p_;
    return {b, p_};
  }
  // `@name` or `@"name"`: returns the name without quotes.
  Result<std::string_view> readSymbol() {
    skipWs();
    if (!at('@')) return parseError("expected '@' symbol name, got " + describe(t_, p_), p_);
    ++p_;
    if (at('"')) {
      size_t b = p_;
      SB_TRY(skipString());
      return t_.substr(b + 1, p_ - b - 2);
    }
    Span s = readIdent();
    if (s.empty()) return parseError("expected symbol name, got " + describe(t_, p_), p_);
    return s.in(t_);
  }
  Span readValueId() {
    size_t b = p_;
    ++p_;  // '%'
    while (p_ < t_.size() && isValueIdChar(t_[p_])) ++p_;
    return {b, p_};
  }
  // At an opening bracket: moves past its match. `<` closes only with `>`
  // (not the `>` of `->`); `<=` opens nothing.
  Status skipBalanced() {
    std::string& stack = balance_;  // reused: no allocation per call
    stack.clear();
    size_t start = p_;
    while (p_ < t_.size()) {
      char c = t_[p_];
      switch (c) {
        case '"':
          SB_TRY(skipString());
          continue;
        case '/':
          if (p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
            while (p_ < t_.size() && t_[p_] != '\n') ++p_;
            continue;
          }
          break;
        case '(':
        case '[':
        case '{':
          stack.push_back(c);
          break;
        case '<':
          if (p_ + 1 < t_.size() && t_[p_ + 1] == '=') {
            ++p_;
            break;
          }
          stack.push_back(c);
          break;
        case '-':
          if (p_ + 1 < t_.size() && t_[p_ + 1] == '>') {
            p_ += 2;
            continue;
          }
          break;
        case '>':
          if (!stack.empty() && stack.back() == '<') stack.pop_back();
          break;
        case ')':
        case ']':
        case '}': {
          char open = c == ')' ? '(' : c == ']' ? '[' : '{';
          while (!stack.empty() && stack.back() == '<') stack.pop_back();  // a stray '<'
          if (stack.empty() || stack.back() != open)
            return parseError(std::string("unbalanced '") + c + "'", p_);
          stack.pop_back();
          break;
        }
        default:
          break;
      }
      if (stack.size() > kMaxNesting)
        return parseError("nesting deeper than " + std::to_string(kMaxNesting) + " levels", p_);
      ++p_;
      if (stack.empty()) return okStatus();
    }
    return parseError("unexpected end of input: '" + std::string(1, t_[start]) +
                          "' opened here is not closed",
                      start);
  }
  // A type as written before `{attrs}`, `,`, `)` or a blank: a keyword or
  // `!dialect.name` with an optional `<...>` body, or a function type.
  Result<Span> readType() {
    skipWs();
    size_t b = p_;
    if (at('(')) {
      SB_TRY(skipBalanced());
      skipWs();
      if (!atArrow()) return Span{b, p_};
      p_ += 2;
      skipWs();
      if (at('(')) {
        SB_TRY(skipBalanced());
        return Span{b, p_};
      }
      SB_ASSIGN_OR_RETURN(Span r, readType());
      return Span{b, r.end};
    }
    if (at('!')) ++p_;
    while (p_ < t_.size() && (isIdentChar(t_[p_]))) ++p_;
    if (p_ == b) return parseError("expected a type, got " + describe(t_, p_), p_);
    if (at('<')) SB_TRY(skipBalanced());
    return Span{b, p_};
  }

  // --- attribute dictionaries -------------------------------------------------
  // At '{': whether it opens an attribute dictionary (`{name = ...`,
  // `{name,`, `{name}`, `{}`) rather than a region.
  bool looksLikeDict() const {
    size_t q = p_ + 1;
    auto ws = [&] {
      while (q < t_.size()) {
        if (isBlank(t_[q])) {
          ++q;
        } else if (t_[q] == '/' && q + 1 < t_.size() && t_[q + 1] == '/') {
          while (q < t_.size() && t_[q] != '\n') ++q;
        } else {
          break;
        }
      }
    };
    ws();
    if (q >= t_.size()) return false;
    if (t_[q] == '}') return true;
    if (t_[q] == '"') {
      ++q;
      while (q < t_.size() && t_[q] != '"' && t_[q] != '\n') q += t_[q] == '\\' ? 2 : 1;
      if (q >= t_.size() || t_[q] != '"') return false;
      ++q;
    } else if (isIdentStart(t_[q])) {
      while (q < t_.size() && isIdentChar(t_[q])) ++q;
    } else {
      return false;
    }
    ws();
    if (q >= t_.size()) return false;
    if (t_[q] == '=') return q + 1 >= t_.size() || t_[q + 1] != '=';
    return t_[q] == ',' || t_[q] == '}';
  }

  // At '{' of a dictionary: reads it; looks into nested dictionaries of
  // `mhlo.frontend_attributes`.
  Status parseDict(AttrDict& dict, int depth) {
    dict.whole.begin = p_;
    ++p_;
    while (true) {
      skipWs();
      if (at('}')) {
        ++p_;
        break;
      }
      DictEntry e;
      e.whole.begin = p_;
      if (at('"')) {
        size_t b = p_;
        SB_TRY(skipString());
        e.key = {b, p_};
        e.name = t_.substr(b + 1, p_ - b - 2);
      } else if (p_ < t_.size() && isIdentStart(t_[p_])) {
        e.key = readIdent();
        e.name = e.key.in(t_);
      } else {
        return parseError("expected attribute name, got " + describe(t_, p_), p_);
      }
      e.whole.end = p_;
      skipWs();
      if (at('=')) {
        ++p_;
        skipWs();
        e.value.begin = p_;
        if (at('{') && e.name == "mhlo.frontend_attributes" && depth < 2) {
          AttrDict child;
          SB_TRY(parseDict(child, depth + 1));
          e.nested = static_cast<int>(dict.children.size());
          dict.children.push_back(std::move(child));
        } else {
          SB_TRY(skipValue());
        }
        e.value.end = p_;
        // Trailing blanks are not part of the value.
        while (e.value.end > e.value.begin && isBlank(t_[e.value.end - 1])) --e.value.end;
        e.whole.end = e.value.end;
        if (e.value.empty()) return parseError("expected attribute value, got " + describe(t_, p_), p_);
      }
      dict.entries.push_back(e);
      skipWs();
      if (at(',')) {
        ++p_;
        continue;
      }
      if (at('}')) {
        ++p_;
        break;
      }
      return parseError("expected ',' or '}' in attribute dictionary, got " + describe(t_, p_), p_);
    }
    dict.whole.end = p_;
    return okStatus();
  }
  // An attribute value: up to the next top-level ',' or '}'.
  Status skipValue() {
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == ',' || c == '}') return okStatus();
      if (c == '"') {
        SB_TRY(skipString());
      } else if (c == '(' || c == '[' || c == '{' || (c == '<' && !(p_ + 1 < t_.size() && t_[p_ + 1] == '='))) {
        SB_TRY(skipBalanced());
      } else if (c == ')' || c == ']') {
        return parseError(std::string("unbalanced '") + c + "'", p_);
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
        skipWs();
      } else if (c == '-' && p_ + 1 < t_.size() && t_[p_ + 1] == '>') {
        p_ += 2;
      } else {
        ++p_;
      }
    }
    return parseError("unexpected end of input in attribute dictionary", p_);
  }
  static void resetDict(AttrDict& d) {
    d.entries.clear();
    d.children.clear();
    d.whole = {};
  }
  static bool interesting(const AttrDict& d) {
    for (const DictEntry& e : d.entries) {
      if (e.name == "sdy.sharding" || e.name == "mhlo.sharding" || e.name == "xla.sdy.meshes" ||
          e.name == "xla.sdy.manual_axes")
        return true;
      if (e.nested >= 0) {
        for (const DictEntry& f : d.children[e.nested].entries)
          if (f.name == "xla.sdy.sharding" || f.name == "xla.sdy.meshes") return true;
      }
    }
    return false;
  }

  // --- constructs ----------------------------------------------------------------
  Status parseModule();
  Status parseFunc();
  Status parseMesh(size_t start);
  Status parseConstraint(size_t nameBegin);
  Status parseManualComputation(size_t nameBegin);
  Status opDict();
  Status statement();

  Status push(char open, bool block, bool manual = false) {
    if (stack_.size() >= kMaxNesting)
      return parseError("nesting deeper than " + std::to_string(kMaxNesting) + " levels", p_);
    stack_.push_back({open, p_, block, manual});
    ++p_;
    return okStatus();
  }
  bool inBlock() const { return stack_.empty() || stack_.back().block; }
  void noteStatement(size_t offset) {
    if (summary_.firstStatement != std::string_view::npos) return;
    // The module body's first op, or the file's first op without a module.
    if ((moduleDepth_ >= 0 && stack_.size() == static_cast<size_t>(moduleDepth_) + 1) ||
        (moduleDepth_ < 0 && stack_.empty() && !sawModule_))
      summary_.firstStatement = offset;
  }

  std::string_view t_;
  ScanVisitor& v_;
  size_t p_ = 0;
  std::string balance_;
  bool complete_ = false;  // the last statement was read to its end
  // Reused for every dictionary and value, so that scanning allocates
  // nothing per op once warmed up.
  AttrDict dict_;
  ValueDict value_;
  std::vector<Frame> stack_;
  std::vector<ManualScope> scopes_;  // scopes_.back() is the current one
  int manualCount_ = 0;
  ScanSummary summary_;
  int moduleDepth_ = -1;  // stack depth of the top-level module's '{' frame
  bool sawModule_ = false;
  // The op being read: set at each statement start.
  std::string_view opResults_;
  std::string_view opName_;
  size_t opOffset_ = 0;
};

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
    skipWs();
  }
  if (p_ + 10 <= t_.size() && t_.substr(p_, 10) == "attributes") {
    p_ += 10;
    skipWs();
    if (!at('{')) return parseError("expected '{' after 'attributes', got " + describe(t_, p_), p_);
    SB_TRY(skipBalanced());
    skipWs();
  }
  if (at('{')) return push('{', true);
  return okStatus();  // a declaration
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

// At '{' of an op's attribute dictionary: reads it and, when it holds a
// sharding, the op's trailing type signature.
Status Scanner::opDict() {
  if (!v_.wantsValueDicts()) return skipBalanced();
  AttrDict& dict = dict_;
  resetDict(dict);
  SB_TRY(parseDict(dict, 0));
  if (!interesting(dict)) return okStatus();
  ValueDict& vd = value_;
  vd.types.clear();
  vd.typesKnown = false;
  vd.funcName = {};
  vd.index = 0;
  vd.argName = {};
  vd.kind = SiteKind::kOp;
  vd.dict = &dict;
  vd.opResults = opResults_;
  vd.opName = opName_;
  vd.opOffset = opOffset_;
  vd.manual = &scopes_.back();
  size_t save = p_;
  skipWs();
  // A literal between the dictionary and the type (`dense<...>` of constants).
  if (p_ < t_.size() && isIdentStart(t_[p_])) {
    size_t b = p_;
    readIdent();
    if (at('<')) {
      SB_TRY(skipBalanced());
      skipWs();
    } else {
      p_ = b;
    }
  }
  if (at(':') && !(p_ + 1 < t_.size() && t_[p_ + 1] == ':')) {
    ++p_;
    skipWs();
    if (at('(')) {
      SB_TRY(skipBalanced());
      skipWs();
      if (atArrow()) {
        p_ += 2;
        skipWs();
        if (at('(')) {
          ++p_;
          skipWs();
          if (at(')')) {
            ++p_;
            vd.typesKnown = true;
          } else {
            while (true) {
              SB_ASSIGN_OR_RETURN(Span type, readType());
              vd.types.push_back(type);
              skipWs();
              if (at(',')) {
                ++p_;
                continue;
              }
              if (at(')')) {
                ++p_;
                vd.typesKnown = true;
              }
              break;
            }
          }
        } else {
          SB_ASSIGN_OR_RETURN(Span type, readType());
          vd.types.push_back(type);
          vd.typesKnown = true;
        }
      }
    } else {
      SB_ASSIGN_OR_RETURN(Span type, readType());
      vd.types.push_back(type);
      vd.typesKnown = true;
    }
  }
  if (!vd.typesKnown) vd.types.clear();
  p_ = save;  // the signature is read again by the main loop
  return v_.onDict(vd);
}

Status Scanner::statement() {
  size_t start = p_;
  opResults_ = {};
  if (at('%')) {
    // `%a, %b:2 = op`
    size_t save = p_;
    while (true) {
      readValueId();
      if (at(':')) {
        ++p_;
        while (p_ < t_.size() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
      }
      skipWs();
      if (at(',')) {
        ++p_;
        skipWs();
        if (at('%')) continue;
      }
      break;
    }
    if (!at('=') || (p_ + 1 < t_.size() && t_[p_ + 1] == '=')) {
      p_ = save + 1;  // not a statement: a use of a value
      return okStatus();
    }
    size_t resultsEnd = p_;
    while (resultsEnd > start && isBlank(t_[resultsEnd - 1])) --resultsEnd;
    opResults_ = t_.substr(start, resultsEnd - start);
    ++p_;
    skipWs();
  }
  opOffset_ = start;
  size_t nameBegin = p_;
  if (at('"')) {
    SB_TRY(skipString());
    opName_ = t_.substr(nameBegin + 1, p_ - nameBegin - 2);
    noteStatement(start);
    return okStatus();
  }
  if (p_ >= t_.size() || !isIdentStart(t_[p_])) {
    opName_ = {};
    return okStatus();
  }
  opName_ = readIdent().in(t_);
  if (opName_ == "module" && opResults_.empty()) return parseModule();
  noteStatement(start);
  if (opName_ == "func.func" && opResults_.empty()) return parseFunc();
  // These two are read to their end, so another op may follow on the line.
  if (opName_ == "sdy.mesh" && opResults_.empty()) {
    complete_ = true;
    return parseMesh(start);
  }
  if (opName_ == "sdy.sharding_constraint") {
    complete_ = true;
    return parseConstraint(nameBegin);
  }
  if (opName_ == "sdy.manual_computation") return parseManualComputation(nameBegin);
  if (opName_.starts_with("sdy.") && opName_ != "sdy.return") return v_.onOtherSdyOp(opName_, nameBegin);
  return okStatus();
}

Result<ScanSummary> Scanner::run() {
  // The last significant byte before the current token: a statement starts
  // after a newline, '{' or '}' when the innermost bracket is a block.
  bool lineStart = true;
  while (true) {
    // skipWs, noticing newlines.
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == '\n' || c == '\r') {  // a lone CR ends a line too
        lineStart = true;
        ++p_;
      } else if (isBlank(c)) {
        ++p_;
      } else if (c == '/' && p_ + 1 < t_.size() && t_[p_ + 1] == '/') {
        while (p_ < t_.size() && t_[p_] != '\n') ++p_;
      } else {
        break;
      }
    }
    if (p_ >= t_.size()) break;
    char c = t_[p_];
    bool stmt = lineStart && inBlock();
    lineStart = false;
    if (stmt && (c == '%' || c == '"' || isIdentStart(c))) {
      size_t before = p_;
      complete_ = false;
      SB_TRY(statement());
      if (p_ == before) ++p_;
      // A construct parser may stop right after a '{' it pushed.
      if ((p_ > 0 && t_[p_ - 1] == '{') || complete_) lineStart = true;
      continue;
    }
    switch (c) {
      case '"':
        SB_TRY(skipString());
        break;
      case '%':
        readValueId();
        break;
      case '{':
        if (looksLikeDict()) {
          SB_TRY(opDict());
        } else {
          SB_TRY(push('{', true));
          lineStart = true;
        }
        break;
      case '(':
      case '[':
        SB_TRY(push(c, false));
        break;
      case '<':
        if (p_ + 1 < t_.size() && t_[p_ + 1] == '=') {
          p_ += 2;
        } else {
          SB_TRY(skipBalanced());
        }
        break;
      case ')':
      case ']':
      case '}': {
        char open = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (stack_.empty() || stack_.back().open != open)
          return parseError(std::string("unbalanced '") + c + "'", p_);
        if (stack_.back().manual && scopes_.size() > 1) scopes_.pop_back();
        if (moduleDepth_ >= 0 && stack_.size() == static_cast<size_t>(moduleDepth_) + 1) moduleDepth_ = -2;
        stack_.pop_back();
        ++p_;
        if (c == '}') lineStart = true;
        break;
      }
      case '-':
        p_ += (p_ + 1 < t_.size() && t_[p_ + 1] == '>') ? 2 : 1;
        break;
      default:
        if (isIdentStart(c)) {
          readIdent();
        } else {
          ++p_;
        }
        break;
    }
  }
  if (!stack_.empty()) {
    const Frame& f = stack_.back();
    return parseError("unexpected end of input: '" + std::string(1, f.open) +
                          "' opened here is not closed",
                      f.offset);
  }
  return summary_;
}

}  // namespace

const DictEntry* AttrDict::findFrontend(std::string_view name, const DictEntry** frontend,
                                        const AttrDict** inner) const {
  for (const DictEntry& e : entries) {
    if (e.nested < 0 || e.name != "mhlo.frontend_attributes") continue;
    const AttrDict& child = children[e.nested];
    if (const DictEntry* f = child.find(name)) {
      if (frontend) *frontend = &e;
      if (inner) *inner = &child;
      return f;
    }
  }
  return nullptr;
}

Result<ScanSummary> scanText(std::string_view text, ScanVisitor& visitor) {
  Scanner s(text, visitor);
  return s.run();
}

namespace {
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Result<std::string> decodeStringLiteral(std::string_view literal) {
  if (literal.size() < 2 || literal.front() != '"' || literal.back() != '"')
    return parseError("expected a string literal", 0);
  std::string out;
  out.reserve(literal.size() - 2);
  for (size_t i = 1; i + 1 < literal.size(); ++i) {
    char c = literal[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i + 2 >= literal.size()) return parseError("unknown escape in string literal", i);
    char n = literal[i + 1];
    if (n == '"' || n == '\\') {
      out.push_back(n);
      ++i;
    } else if (n == 'n') {
      out.push_back('\n');
      ++i;
    } else if (n == 't') {
      out.push_back('\t');
      ++i;
    } else if (i + 3 < literal.size() && hexValue(n) >= 0 && hexValue(literal[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hexValue(n) * 16 + hexValue(literal[i + 2])));
      i += 2;
    } else {
      return parseError("unknown escape in string literal", i);
    }
  }
  return out;
}

size_t rawOffsetInLiteral(std::string_view literal, size_t decodedOffset) {
  size_t decoded = 0;
  size_t i = 1;
  while (i + 1 < literal.size() && decoded < decodedOffset) {
    if (literal[i] == '\\' && i + 2 < literal.size()) {
      char n = literal[i + 1];
      i += (n == '"' || n == '\\' || n == 'n' || n == 't') ? 2 : 3;
    } else {
      ++i;
    }
    ++decoded;
  }
  return i;
}

std::string encodeStringLiteral(std::string_view value) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (char c : value) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || u < 0x20 || u >= 0x7f) {
      if (c == '\\') {
        out += "\\\\";
      } else {
        out.push_back('\\');
        out.push_back(kHex[u >> 4]);
        out.push_back(kHex[u & 15]);
      }
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace shardbridge::module_detail
