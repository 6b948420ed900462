#include "module/scanner.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "module/scanner_impl.h"

namespace shardbridge::module_detail {
namespace scan_impl {

// The number of values a result list as written names (`%0, %1:2`: 3).
size_t resultCount(std::string_view opResults) {
  size_t results = 0;
  for (std::string_view rest = opResults; !rest.empty();) {
    size_t comma = rest.find(',');
    std::string_view group = rest.substr(0, comma);
    size_t colon = group.find(':');
    size_t n = 1;
    if (colon != std::string_view::npos) {
      n = 0;
      for (char c : group.substr(colon + 1))
        if (c >= '0' && c <= '9' && n < (size_t{1} << 40)) n = n * 10 + static_cast<size_t>(c - '0');
    }
    results += n;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return results;
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
  SB_TRY(readOpTypes(vd));
  p_ = save;  // the signature is read again by the main loop
  return v_.onDict(vd);
}

Status Scanner::readOpTypes(ValueDict& vd) {
  vd.types.clear();
  vd.typesKnown = false;
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
      // `: T1, T2`: one type per result, or (stablehlo.select's
      // `: pred_type, result_type`) a single result's type last.
      skipWs();
      while (at(',')) {
        ++p_;
        auto next = readType();
        if (!next) {
          vd.typesKnown = false;
          break;
        }
        vd.types.push_back(*next);
        skipWs();
      }
      if (vd.typesKnown && vd.types.size() > 1) {
        size_t results = resultCount(opResults_);
        if (results == 1) {
          vd.types.erase(vd.types.begin(), vd.types.end() - 1);
        } else if (results != vd.types.size()) {
          vd.typesKnown = false;
        }
      }
    }
  }
  if (!vd.typesKnown) vd.types.clear();
  return okStatus();
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

}  // namespace scan_impl

using scan_impl::parseError;
using scan_impl::Scanner;
using scan_impl::resultCount;
using module_lex::isBlank;

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

// A module's ops repeat a few dictionary-and-type tails (`{...} :
// tensor<16x64xf32>` after the same sharding) many times, and reading the
// types again is most of what a site costs the conversion (about 900
// instructions an op). What the reader finds is memoised on what it reads:
// the bytes from the dictionary's end through the line's '\n', the first
// byte after the blanks that follow (and the one after it), and the number
// of results (it decides between a result's type and a select's operand
// type). A read that went further than that byte is not memoised, and
// neither is an error. Bounded: at most kMemoEntries tails are kept.
struct OpTypeReader::Impl {
  explicit Impl(std::string_view text) : text(text), scanner(text, none) {}
  static constexpr size_t kMemoEntries = 1 << 14;
  static constexpr size_t kMaxTail = 512;
  struct Seen {
    char next0, next1;
    size_t results;
    bool known;
    std::vector<Span> types;  // relative to the dictionary's end
  };
  std::string_view text;
  ScanVisitor none;
  Scanner scanner;
  std::unordered_map<std::string_view, std::vector<Seen>> memo;  // views of `text`
  size_t entries = 0;
};
OpTypeReader::OpTypeReader(std::string_view text) : impl_(std::make_unique<Impl>(text)) {}
OpTypeReader::~OpTypeReader() = default;
Status OpTypeReader::read(size_t pos, std::string_view opResults, ValueDict& vd) {
  Impl& m = *impl_;
  std::string_view t = m.text;
  size_t eol = pos < t.size() ? t.find('\n', pos) : std::string_view::npos;
  if (eol == std::string_view::npos || eol - pos > Impl::kMaxTail) return m.scanner.typesAt(pos, opResults, vd);
  size_t next = eol + 1;
  while (next < t.size() && isBlank(t[next])) ++next;
  char next0 = next < t.size() ? t[next] : '\0';
  char next1 = next + 1 < t.size() ? t[next + 1] : '\0';
  size_t results = resultCount(opResults);
  std::string_view tail = t.substr(pos, eol + 1 - pos);
  auto it = m.memo.find(tail);
  if (it != m.memo.end()) {
    for (const Impl::Seen& seen : it->second) {
      if (seen.next0 != next0 || seen.next1 != next1 || seen.results != results) continue;
      vd.typesKnown = seen.known;
      vd.types.clear();
      for (const Span& s : seen.types) vd.types.push_back({s.begin + pos, s.end + pos});
      return okStatus();
    }
  }
  SB_TRY(m.scanner.typesAt(pos, opResults, vd));
  if (m.scanner.position() > next || m.entries >= Impl::kMemoEntries) return okStatus();
  Impl::Seen seen{next0, next1, results, vd.typesKnown, {}};
  for (const Span& s : vd.types) seen.types.push_back({s.begin - pos, s.end - pos});
  m.memo[tail].push_back(std::move(seen));
  ++m.entries;
  return okStatus();
}

bool isInterestingDict(const AttrDict& d) { return Scanner::interesting(d); }

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

Result<std::string> decodeRoundTripLiteral(std::string_view literal, std::string* once) {
  if (once) once->clear();
  SB_ASSIGN_OR_RETURN(std::string first, decodeStringLiteral(literal));
  if (first.find("\\\"") == std::string::npos) return first;
  auto twice = decodeStringLiteral("\"" + first + "\"");
  if (!twice) {
    Error e = twice.error();
    e.message = "a doubly escaped string whose second decoding fails: " + e.message;
    e.offset = e.hasOffset() && e.offset > 0 ? rawOffsetInLiteral(literal, e.offset - 1) : 0;
    return e;
  }
  if (once) *once = std::move(first);
  return std::move(*twice);
}

size_t rawOffsetInRoundTripLiteral(std::string_view literal, const std::string& once, size_t decodedOffset) {
  if (once.empty()) return rawOffsetInLiteral(literal, decodedOffset);
  std::string quoted = "\"" + once + "\"";
  size_t inOnce = rawOffsetInLiteral(quoted, decodedOffset);
  return rawOffsetInLiteral(literal, inOnce > 0 ? inOnce - 1 : 0);
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
