// The op tree's parser, the parts for func.func headers (arguments with
// their dictionaries, results), symbols, types and `loc(...)` tails.
#include "module/op_tree_parser.h"

namespace shardbridge::module::op_tree_detail {

// A type up to one of the stop bytes at depth 0 (`,` `)` `{` or `loc(`).
Result<TextSpan> TreeParser::typeRun() {
  skipWs();
  size_t b = p_;
  while (p_ < t_.size()) {
    char c = t_[p_];
    if (c == ',' || c == ')' || c == '{' || c == '}' || c == '\n' || c == '\r') break;
    if (c == 'l' && atWord("loc") && p_ + 3 < t_.size() && t_[p_ + 3] == '(') break;
    if (c == '<' || c == '(' || c == '[') {
      SB_TRY(skipBal());
    } else if (c == '"') {
      SB_TRY(skipStr());
    } else {
      // Identifier bytes other than 'l' (where `loc(` may start, even
      // inside a word) stop nothing: `tensor`, `f32`, `x` in one run.
      ++p_;
      while (p_ < t_.size() && isIdentChar(t_[p_]) && t_[p_] != 'l') ++p_;
    }
  }
  size_t e = p_;
  while (e > b && isBlank(t_[e - 1])) --e;
  if (e == b) return parseError("expected a type, got " + describe(t_, p_), p_);
  return TextSpan{b, e};
}

void TreeParser::maybeLoc(TextSpan* out) {
  size_t save = p_;
  skipWs();
  if (atWord("loc") && p_ + 3 < t_.size() && t_[p_ + 3] == '(') {
    size_t b = p_;
    p_ += 3;
    if (skipBal().has_value()) {
      if (out) *out = {b, p_};
      return;
    }
  }
  p_ = save;
}

// `(%a: type {dict} loc(..), ...)` or, in a declaration, `(type {dict}, ...)`.
Status TreeParser::funcArgs(FuncParts& parts) {
  ++p_;  // '('
  skipWs();
  if (at(')')) {
    ++p_;
    return okStatus();
  }
  // Gathered in a scratch and taken exactly sized: a vector grown in the
  // arena leaves its outgrown storage there.
  const size_t mark = argScratch_.size();
  ScratchMark<ValueDef> guard{argScratch_, mark};
  while (true) {
    skipWs();
    ValueDef a;
    if (at('%')) {
      size_t b = p_;
      p_ = skipValueName(t_, p_);
      a.name = {b, p_};
      skipWs();
      if (!at(':')) return parseError("expected ':' after argument name, got " + describe(t_, p_), p_);
      ++p_;
    }
    SB_ASSIGN_OR_RETURN(a.type, typeRun());
    skipWs();
    if (at('{')) SB_TRY(dict(a.dict));
    maybeLoc(&a.loc);
    argScratch_.push_back(std::move(a));
    skipWs();
    if (at(',')) {
      ++p_;
      continue;
    }
    if (!at(')')) return parseError("expected ',' or ')' in argument list, got " + describe(t_, p_), p_);
    ++p_;
    take(argScratch_, mark, parts.args);
    return okStatus();
  }
}

// `-> type` or `-> (type {dict}, ...)`.
Status TreeParser::funcResults(FuncParts& parts) {
  skipWs();
  if (!at('(')) {
    FuncResult r;
    SB_ASSIGN_OR_RETURN(r.type, typeRun());
    parts.results.reserve(1);
    parts.results.push_back(std::move(r));
    return okStatus();
  }
  // `(` may also open a function type result `((a) -> b)`; read entries.
  ++p_;
  skipWs();
  if (at(')')) {
    ++p_;
    return okStatus();
  }
  const size_t mark = funcResultScratch_.size();
  ScratchMark<FuncResult> guard{funcResultScratch_, mark};
  while (true) {
    FuncResult r;
    SB_ASSIGN_OR_RETURN(r.type, typeRun());
    skipWs();
    if (at('{')) SB_TRY(dict(r.dict));
    maybeLoc(nullptr);
    funcResultScratch_.push_back(std::move(r));
    skipWs();
    if (at(',')) {
      ++p_;
      continue;
    }
    if (!at(')')) return parseError("expected ',' or ')' in result list, got " + describe(t_, p_), p_);
    ++p_;
    take(funcResultScratch_, mark, parts.results);
    return okStatus();
  }
}

// The func.func header after its name: visibility, symbol, signature.
Status TreeParser::funcHeader(OpNode& op) {
  FuncParts& parts = tree_.funcParts.emplace_back();
  op.func = &parts;
  skipWs();
  for (std::string_view v : {"private", "public", "nested"}) {
    if (atWord(v)) {
      parts.visibility = {p_, p_ + v.size()};
      p_ += v.size();
      skipWs();
      break;
    }
  }
  if (!at('@')) return parseError("expected '@' function name, got " + describe(t_, p_), p_);
  SB_TRY(symbol(op));
  skipWs();
  if (!at('(')) return parseError("expected '(' to begin the argument list, got " + describe(t_, p_), p_);
  parts.signature.begin = p_;
  SB_TRY(funcArgs(parts));
  parts.signature.end = p_;
  size_t save = p_;
  skipWs();
  if (at('-') && p_ + 1 < t_.size() && t_[p_ + 1] == '>') {
    p_ += 2;
    SB_TRY(funcResults(parts));
    parts.signature.end = p_;
    save = p_;
  } else {
    p_ = save;
  }
  // After the signature MLIR's func.func has only `attributes {...}`, its
  // body, a location, or (a declaration) nothing: other text there would
  // be read as part of the op, and the shard-map import then inlined a
  // body made of it (mlir_import_fuzz: `@f(%a: t) !!!-> (t {...}) {`, an
  // output that did not parse again).
  size_t q = blanksFrom(p_);
  bool newline = t_.substr(p_, q - p_).find_first_of("\n\r") != std::string_view::npos;
  p_ = q;
  bool fine = q >= t_.size() || at('{') || at('}') || atWord("attributes") || atWord("loc") ||
              (newline && !continuesOnNextLine(q));
  p_ = save;
  if (!fine)
    return parseError("expected '->', 'attributes' or the body '{' after the arguments of func.func, got " +
                          describe(t_, q),
                      q);
  return okStatus();
}

Status TreeParser::symbol(OpNode& op) {
  size_t b = p_;
  ++p_;
  if (at('"')) {
    SB_TRY(skipStr());
    op.symbolName = t_.substr(b + 2, p_ - b - 3);
  } else {
    p_ = identEnd(p_);
    op.symbolName = t_.substr(b + 1, p_ - b - 1);
  }
  op.symbol = {b, p_};
  return okStatus();
}

// After a newline inside an op at depth 0: does the next line continue
// it? It does unless it starts what only a new statement (or the end of
// the block) starts: a result `%`, a generic op name `"`, a block label,
// a closer, a dialect-qualified op name, or one of the undotted op names
// MLIR prints (`return`, `call`, `module`, ...). So `cond {`, `} do {`,
// `reducer(...)`, `attributes {...}`, `: type` and `(types) -> type` lines
// of hand-wrapped ops stay in the op.
bool TreeParser::continuesOnNextLine(size_t q, bool afterRegion) const {
  q = blanksFrom(q);
  if (q >= t_.size()) return false;
  char c = t_[q];
  if (c == '%' || c == '"' || c == '^' || c == '}' || c == ')' || c == ']' || c == '#' || c == '!') return false;
  if (c == '{') return !(q + 1 < t_.size() && t_[q + 1] == '-');
  if (!isIdentStart(c)) return true;
  size_t e = q;
  bool dotted = false;
  while (e < t_.size() && isIdentChar(t_[e])) dotted |= t_[e++] == '.';
  if (dotted) return false;
  std::string_view word = t_.substr(q, e - q);
  if (afterRegion) {
    // After a region's `}` ends a line, what continues an op is one of its
    // keywords (`do {` of a while, `else {`, a trailing `loc(...)` or
    // `attributes {...}`); any other word starts the next statement, so
    // that a stray word there is refused as an op name rather than taken
    // into the op (mlir_import_fuzz: a round-trip import then wrote
    // unbalanced braces).
    for (std::string_view k : {"do", "else", "cond", "loc", "attributes", "reducer"})
      if (word == k) return true;
    return false;
  }
  return !isUndottedOpName(word);
}

// `sdy.mesh @name = <...>`, then at most an attribute dictionary and a
// location: what the passes that remove mesh ops may rely on.
Status TreeParser::checkMesh(const OpNode& node) {
  // A brace that opens no dictionary is a region to the tree; MLIR reads
  // it as the mesh's attribute dictionary and fails.
  if (!node.regions.empty())
    return parseError("expected an attribute dictionary or a new line after the mesh, got a block",
                      node.regions[0].whole.begin);
  size_t q = skipBlanks(t_, node.symbol.empty() ? node.nameSpan.end : node.symbol.end);
  if (node.symbol.empty() || q >= t_.size() || t_[q] != '=')
    return parseError("expected 'sdy.mesh @name = <...>', got " + describe(t_, q), q);
  q = skipBlanks(t_, q + 1);
  if (q >= t_.size() || t_[q] != '<') return parseError("expected '<' to begin the mesh, got " + describe(t_, q), q);
  SB_ASSIGN_OR_RETURN(q, skipBalanced(t_, q));
  q = skipBlanks(t_, q);
  if (q < node.whole.end && t_[q] == '{') {
    SB_ASSIGN_OR_RETURN(q, skipBalanced(t_, q));
    q = skipBlanks(t_, q);
  }
  if (!node.loc.empty() && q == node.loc.begin) q = skipBlanks(t_, node.loc.end);
  if (q < node.whole.end)
    return parseError("expected the end of the sdy.mesh op after its mesh, got " + describe(t_, q), q);
  return okStatus();
}

}  // namespace shardbridge::module::op_tree_detail
