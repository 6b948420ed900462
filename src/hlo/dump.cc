// The HLO module dump scanner (dump.h): one forward pass over the text,
// token based like XLA's HloParser, recording the `sharding={...}`
// attributes of instructions.
#include "shardbridge/hlo/dump.h"

#include <cctype>
#include <utility>

#include "shardbridge/hlo/text.h"

namespace shardbridge::hlo {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-' ||
         c == '$';
}

char closerOf(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

// What a token looks like in a message: up to 20 bytes of it, or "end of input".
std::string describeAt(std::string_view text, size_t p) {
  if (p >= text.size()) return "end of input";
  size_t end = p;
  while (end < text.size() && end - p < 20 && !isBlank(text[end])) ++end;
  if (end == p) end = p + 1;
  std::string out = "'";
  for (char c : text.substr(p, end - p)) {
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  return out + "'";
}

class Scanner {
 public:
  Scanner(std::string_view text, const DumpScanOptions& options) : t_(text), options_(options) {}

  Result<HloDump> run() {
    HloDump dump;
    SB_TRY(skipBlanks());
    if (peekWord("HloModule")) {
      p_ += 9;
      SB_TRY(skipBlanks());
      dump.moduleName = std::string(readName());
      if (dump.moduleName.empty()) return error("expected a module name, got " + describeAt(t_, p_));
      SB_TRY(attributes(nullptr));
    }
    while (true) {
      SB_TRY(skipBlanks());
      if (p_ >= t_.size()) break;
      SB_TRY(computation());
    }
    dump.shardings = std::move(shardings_);
    return dump;
  }

 private:
  Error error(std::string message) const { return error(std::move(message), p_); }
  Error error(std::string message, size_t at) const {
    return makeError(ErrorCode::kParse, std::move(message), at);
  }

  bool peekWord(std::string_view word) const {
    return t_.substr(p_, word.size()) == word &&
           (p_ + word.size() == t_.size() || !isNameChar(t_[p_ + word.size()]));
  }

  // Skips a comment at p_ if there is one; returns whether it did.
  Result<bool> skipComment() {
    if (p_ + 1 >= t_.size() || t_[p_] != '/') return false;
    if (t_[p_ + 1] == '/') {
      size_t nl = t_.find('\n', p_);
      p_ = nl == std::string_view::npos ? t_.size() : nl + 1;
      return true;
    }
    if (t_[p_ + 1] == '*') {
      size_t end = t_.find("*/", p_ + 2);
      if (end == std::string_view::npos) return error("unterminated comment");
      p_ = end + 2;
      return true;
    }
    return false;
  }

  Status skipBlanks() {
    while (p_ < t_.size()) {
      if (isBlank(t_[p_])) {
        ++p_;
        continue;
      }
      SB_ASSIGN_OR_RETURN(bool skipped, skipComment());
      if (!skipped) break;
    }
    return okStatus();
  }

  // A name with an optional `%` prefix, as written; empty when none.
  std::string_view readName() {
    size_t start = p_;
    if (p_ < t_.size() && t_[p_] == '%') ++p_;
    size_t body = p_;
    while (p_ < t_.size() && isNameChar(t_[p_])) ++p_;
    if (p_ == body) {
      p_ = start;
      return {};
    }
    return t_.substr(start, p_ - start);
  }

  Status skipString() {
    size_t start = p_++;
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == '\\') {
        p_ += 2;
        continue;
      }
      ++p_;
      if (c == '"') return okStatus();
    }
    return error("unterminated string", start);
  }

  // At an opening bracket: skips to just after its matching closer.
  Status skipBalanced() {
    stack_.clear();
    stackAt_.clear();
    do {
      if (p_ >= t_.size()) {
        return error(std::string("unexpected end of input: '") + t_[stackAt_.back()] +
                         "' is not closed",
                     stackAt_.back());
      }
      char c = t_[p_];
      if (c == '"') {
        SB_TRY(skipString());
        continue;
      }
      if (c == '/') {
        SB_ASSIGN_OR_RETURN(bool skipped, skipComment());
        if (skipped) continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        if (stack_.size() >= options_.maxNesting) {
          return error("brackets nested deeper than " + std::to_string(options_.maxNesting));
        }
        stack_.push_back(closerOf(c));
        stackAt_.push_back(p_);
      } else if (c == ')' || c == ']' || c == '}') {
        if (c != stack_.back()) {
          return error(std::string("expected '") + stack_.back() + "', got '" + c + "'");
        }
        stack_.pop_back();
        stackAt_.pop_back();
      }
      ++p_;
    } while (!stack_.empty());
    return okStatus();
  }

  // An attribute value: a string, or bytes with balanced brackets up to a
  // top-level ',', blank, comment or closing bracket.
  Status skipValue(std::string_view key) {
    size_t start = p_;
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c == ',' || isBlank(c) || c == ')' || c == ']' || c == '}') break;
      if (c == '/' && p_ + 1 < t_.size() && (t_[p_ + 1] == '/' || t_[p_ + 1] == '*')) break;
      if (c == '"') {
        SB_TRY(skipString());
      } else if (c == '(' || c == '[' || c == '{') {
        SB_TRY(skipBalanced());
      } else {
        ++p_;
      }
    }
    if (p_ == start) {
      return error("expected a value after '" + std::string(key) + "=', got " + describeAt(t_, p_));
    }
    return okStatus();
  }

  // `(',' KEY '=' VALUE)*`; `instr` receives the shardings (null: the module
  // header, whose attributes are skipped).
  Status attributes(const DumpSharding* instr) {
    while (true) {
      SB_TRY(skipBlanks());
      if (p_ >= t_.size() || t_[p_] != ',') return okStatus();
      ++p_;
      SB_TRY(skipBlanks());
      size_t keyAt = p_;
      while (p_ < t_.size() && isNameChar(t_[p_])) ++p_;
      std::string_view key = t_.substr(keyAt, p_ - keyAt);
      if (key.empty()) return error("expected an attribute name, got " + describeAt(t_, p_));
      SB_TRY(skipBlanks());
      if (p_ >= t_.size() || t_[p_] != '=') {
        return error("expected '=' after attribute '" + std::string(key) + "', got " +
                     describeAt(t_, p_));
      }
      ++p_;
      SB_TRY(skipBlanks());
      if (instr != nullptr && key == "sharding") {
        if (p_ >= t_.size() || t_[p_] != '{') {
          return error("expected '{' to start the sharding, got " + describeAt(t_, p_));
        }
        size_t start = p_;
        SB_TRY(skipBalanced());
        SB_TRY(record(*instr, start, p_ - start));
      } else {
        SB_TRY(skipValue(key));
      }
    }
  }

  Status record(const DumpSharding& instr, size_t offset, size_t length) {
    auto parsed = parseSharding(t_.substr(offset, length));
    if (!parsed) return Unexpected(parsed.error().shifted(offset));
    DumpSharding s = instr;
    s.offset = offset;
    s.length = length;
    // Lines are counted incrementally: shardings come in text order.
    for (; lineScan_ < offset; ++lineScan_) {
      if (t_[lineScan_] == '\n') {
        ++line_;
        lineStart_ = lineScan_ + 1;
      }
    }
    s.line = line_;
    s.column = offset - lineStart_ + 1;
    s.sharding = std::move(*parsed);
    shardings_.push_back(std::move(s));
    return okStatus();
  }

  Status computation() {
    size_t start = p_;
    bool entry = false;
    std::string_view name = readName();
    if (name == "ENTRY") {
      entry = true;
      SB_TRY(skipBlanks());
      name = readName();
    }
    if (name.empty()) return error("expected a computation, got " + describeAt(t_, p_));
    // The signature, up to the body's `{`.
    while (true) {
      if (p_ >= t_.size()) {
        return error("unexpected end of input: expected '{' to open computation " +
                         std::string(name),
                     start);
      }
      char c = t_[p_];
      if (c == '"') {
        SB_TRY(skipString());
      } else if (c == '(' || c == '[') {
        SB_TRY(skipBalanced());
      } else if (c == '{') {
        if (p_ > 0 && t_[p_ - 1] == ']') {
          SB_TRY(skipBalanced());  // a layout
        } else {
          break;
        }
      } else if (c == ')' || c == ']' || c == '}') {
        return error(std::string("unexpected '") + c + "'");
      } else if (c == '/') {
        SB_ASSIGN_OR_RETURN(bool skipped, skipComment());
        if (!skipped) ++p_;
      } else {
        ++p_;
      }
    }
    size_t open = p_++;
    DumpSharding instr;
    instr.computation = std::string(name);
    instr.entry = entry;
    while (true) {
      SB_TRY(skipBlanks());
      if (p_ >= t_.size()) {
        return error("unexpected end of input: computation " + std::string(name) +
                         " is not closed",
                     open);
      }
      if (t_[p_] == '}') {
        ++p_;
        return okStatus();
      }
      SB_TRY(instruction(instr));
    }
  }

  Status instruction(DumpSharding& instr) {
    instr.root = false;
    instr.parameterNumber.reset();
    instr.shape.reset();
    std::string_view name = readName();
    if (name == "ROOT") {
      size_t afterRoot = p_;
      SB_TRY(skipBlanks());
      if (p_ < t_.size() && t_[p_] == '=') {
        p_ = afterRoot;  // an instruction named ROOT
      } else {
        instr.root = true;
        name = readName();
      }
    }
    if (name.empty()) return error("expected an instruction, got " + describeAt(t_, p_));
    instr.instruction = std::string(name);
    SB_TRY(skipBlanks());
    if (p_ >= t_.size() || t_[p_] != '=') {
      return error("expected '=' after instruction " + instr.instruction + ", got " +
                   describeAt(t_, p_));
    }
    ++p_;
    SB_TRY(skipBlanks());
    // The shape: `(...)` or TYPE `[...]` [`{layout}`].
    size_t shapeAt = p_;
    if (p_ < t_.size() && t_[p_] == '(') {
      SB_TRY(skipBalanced());
    } else {
      while (p_ < t_.size() && isNameChar(t_[p_])) ++p_;
      if (p_ == shapeAt || p_ >= t_.size() || t_[p_] != '[') {
        return error("expected the shape of " + instr.instruction + ", got " +
                         describeAt(t_, shapeAt),
                     shapeAt);
      }
      SB_TRY(skipBalanced());
      if (p_ < t_.size() && t_[p_] == '{') SB_TRY(skipBalanced());
    }
    instr.shapeText = std::string(t_.substr(shapeAt, p_ - shapeAt));
    SB_TRY(skipBlanks());
    size_t opAt = p_;
    while (p_ < t_.size() && isNameChar(t_[p_])) ++p_;
    if (p_ == opAt) return error("expected an opcode, got " + describeAt(t_, p_));
    instr.opcode = std::string(t_.substr(opAt, p_ - opAt));
    SB_TRY(skipBlanks());
    if (p_ >= t_.size() || t_[p_] != '(') {
      return error("expected '(' after opcode " + instr.opcode + ", got " + describeAt(t_, p_));
    }
    size_t operandsAt = p_ + 1;
    SB_TRY(skipBalanced());
    if (instr.opcode == "parameter") instr.parameterNumber = parseNumber(operandsAt, p_ - 1);
    return attributes(&instr);
  }

  std::optional<int64_t> parseNumber(size_t begin, size_t end) const {
    while (begin < end && isBlank(t_[begin])) ++begin;
    while (end > begin && isBlank(t_[end - 1])) --end;
    if (begin == end || end - begin > 18) return std::nullopt;
    int64_t n = 0;
    for (size_t i = begin; i < end; ++i) {
      if (t_[i] < '0' || t_[i] > '9') return std::nullopt;
      n = n * 10 + (t_[i] - '0');
    }
    return n;
  }

  std::string_view t_;
  const DumpScanOptions& options_;
  size_t p_ = 0;
  std::vector<char> stack_;
  std::vector<size_t> stackAt_;
  std::vector<DumpSharding> shardings_;
  size_t lineScan_ = 0, line_ = 1, lineStart_ = 0;
};

}  // namespace

bool looksLikeHloDump(std::string_view text) {
  size_t p = 0;
  while (p < text.size()) {
    if (isBlank(text[p])) {
      ++p;
    } else if (text.substr(p, 2) == "//") {
      size_t nl = text.find('\n', p);
      if (nl == std::string_view::npos) return false;
      p = nl + 1;
    } else if (text.substr(p, 2) == "/*") {
      size_t end = text.find("*/", p + 2);
      if (end == std::string_view::npos) return false;
      p = end + 2;
    } else {
      break;
    }
  }
  for (std::string_view word : {std::string_view("HloModule"), std::string_view("ENTRY")}) {
    if (text.substr(p, word.size()) == word && p + word.size() < text.size() &&
        isBlank(text[p + word.size()])) {
      return true;
    }
  }
  return false;
}

Result<HloDump> scanHloDump(std::string_view text, const DumpScanOptions& options) {
  if (text.size() > options.maxInputBytes) {
    return makeError(ErrorCode::kParse,
                     "input of " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                         std::to_string(options.maxInputBytes),
                     0);
  }
  SB_ASSIGN_OR_RETURN(HloDump dump, Scanner(text, options).run());
  // Shapes are parsed once per sharding, outside the scan.
  for (DumpSharding& s : dump.shardings) {
    auto shape = parseShape(s.shapeText);
    if (shape) s.shape = std::move(*shape);
  }
  return dump;
}

}  // namespace shardbridge::hlo
