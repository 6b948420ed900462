// Recursive-descent parser for one V3 named-sharding leaf (the text XLA's
// NamedSharding::ToString prints). Character level, because V3 uses
// `'quoted'` names, `?` and `:(pre)size`, which the V2 token rules lack;
// whitespace and comments are skipped between tokens as HloLexer does.
// Metadata is handed to the V2 parser so both read it the same way.
#include <algorithm>

#include "hlo/sharding_lexer.h"
#include "shardbridge/base/checked_math.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"

namespace shardbridge::hlo {

namespace {

using sharding_text::isDigit;
using sharding_text::isIdentChar;
using sharding_text::isIdentStart;
using sharding_text::isSpace;

// Everything a leaf says, before the NamedSharding is built and verified.
struct NamedParts {
  bool maximal = false;
  int64_t device = 0;
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  bool hasDeviceIds = false, idsIota = false;
  std::vector<int64_t> ids, reshape;
  std::vector<int> perm;
  bool seenKeyword = false, seenDims = false, seenRepl = false, seenUnred = false,
       seenManual = false, seenMetadata = false;
  bool replicatedKw = false, manualKw = false, unreducedKw = false;
  std::vector<DimSharding> dims;
  std::vector<AxisRef> replicated, unreduced, manual;
  std::string reduction;  // "MAX", "MIN" or "SUM" from `unreduced=max{...}`; empty: none
  std::vector<OpMetadata> metadata;
};

class NamedLeafParser {
 public:
  NamedLeafParser(std::string_view text, size_t pos) : text_(text), pos_(pos) {}

  // leaf ::= mesh-decl (',' item)* '}'
  Result<HloSharding> run(size_t& end) {
    const size_t start = pos_;
    NamedParts p;
    SB_TRY(parseMeshDecl(p));
    while (true) {
      skip();
      if (peek('}')) break;
      SB_TRY(expectChar(',', "expected ',' or '}' in named sharding"));
      SB_TRY(parseItem(p));
    }
    const size_t close = pos_++;
    SB_ASSIGN_OR_RETURN(HloSharding leaf, build(p, start, close));
    end = pos_;
    return leaf;
  }

 private:
  Error errorAt(size_t at, std::string message) const {
    return makeError(ErrorCode::kParse, std::move(message), at);
  }
  Error error(std::string message) const { return errorAt(pos_, std::move(message)); }

  // Whitespace and `/* */`, `//` comments.
  Status skipChecked() {
    while (pos_ < text_.size()) {
      if (isSpace(text_[pos_])) {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const size_t e = text_.find("*/", pos_ + 2);
        if (e == std::string_view::npos) return error("unterminated comment");
        pos_ = e + 2;
      } else if (text_.substr(pos_, 2) == "//") {
        const size_t e = text_.find('\n', pos_);
        pos_ = e == std::string_view::npos ? text_.size() : e + 1;
      } else {
        break;
      }
    }
    return okStatus();
  }
  void skip() {
    if (!skipChecked().has_value()) {
      // Leave pos_ at the comment; the next expectation reports it.
    }
  }
  bool peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  std::string describe() const {
    if (pos_ >= text_.size()) return "end of input";
    return std::string("'") + text_[pos_] + "'";
  }
  Status expectChar(char c, const std::string& message) {
    SB_TRY(skipChecked());
    if (!peek(c)) return error(message + ", got " + describe());
    ++pos_;
    return okStatus();
  }
  bool eatChar(char c) {
    skip();
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  std::string_view ident() {
    skip();
    const size_t s = pos_;
    if (pos_ < text_.size() && isIdentStart(text_[pos_])) {
      while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
    }
    return text_.substr(s, pos_ - s);
  }
  Result<int64_t> parseInt() {
    SB_TRY(skipChecked());
    sharding_text::Lexer lexer(text_.substr(pos_));
    sharding_text::Token tok;
    if (!lexer.next(tok) || tok.kind != sharding_text::Tok::kInt) return error("expects integer");
    // The integer token ends where the digits end.
    size_t e = pos_ + (text_[pos_] == '-' ? 1 : 0);
    while (e < text_.size() && isDigit(text_[e])) ++e;
    pos_ = e;
    return tok.intValue;
  }

  // NAME ::= "'" [^']* "'" | IDENT       (unquoted: the older printer's form)
  Result<std::string> parseName() {
    SB_TRY(skipChecked());
    if (peek('\'')) {
      const size_t e = text_.find('\'', pos_ + 1);
      if (e == std::string_view::npos) return error("unterminated axis name");
      std::string name(text_.substr(pos_ + 1, e - pos_ - 1));
      pos_ = e + 1;
      return name;
    }
    std::string_view id = ident();
    if (id.empty()) return error("expected axis name, got " + describe());
    return std::string(id);
  }

  // mesh-decl ::= 'mesh' '[' [NAME '=' INT (',' NAME '=' INT)*] ']'
  //                 [',' 'device_ids' '=' '(' ids ')']
  //             | ('maximal_mesh' | 'single_device') '[' 'device_id' '=' INT ']'
  Status parseMeshDecl(NamedParts& p) {
    const std::string_view kw = ident();
    if (kw == "maximal_mesh" || kw == "single_device") {
      p.maximal = true;
      SB_TRY(expectChar('[', "expected '[' after " + std::string(kw)));
      if (ident() != "device_id") return error("expected device_id= in " + std::string(kw));
      SB_TRY(expectChar('=', "expected '=' after device_id"));
      SB_ASSIGN_OR_RETURN(p.device, parseInt());
      return expectChar(']', "expected ']' to end " + std::string(kw));
    }
    SB_TRY(expectChar('[', "expected '[' to start mesh axes"));
    if (!eatChar(']')) {
      while (true) {
        SB_ASSIGN_OR_RETURN(std::string name, parseName());
        SB_TRY(expectChar('=', "expected '=' after mesh axis name"));
        SB_ASSIGN_OR_RETURN(int64_t size, parseInt());
        p.names.push_back(std::move(name));
        p.sizes.push_back(size);
        if (eatChar(']')) break;
        SB_TRY(expectChar(',', "expected ',' or ']' in mesh axes"));
      }
    }
    // `, device_ids=` belongs to the mesh; look ahead past the comma.
    const size_t save = pos_;
    if (eatChar(',') && ident() == "device_ids") {
      SB_TRY(expectChar('=', "expected '=' after device_ids"));
      return parseDeviceIds(p);
    }
    pos_ = save;
    return okStatus();
  }

  // ids ::= '(' INT (',' INT)* ')' | '(' '[' INT,... ']' ['T' '(' INT,... ')'] ')'
  Status parseDeviceIds(NamedParts& p) {
    p.hasDeviceIds = true;
    SB_TRY(expectChar('(', "expected '(' to start device_ids"));
    if (eatChar('[')) {
      p.idsIota = true;
      while (true) {
        SB_ASSIGN_OR_RETURN(int64_t d, parseInt());
        p.reshape.push_back(d);
        if (eatChar(']')) break;
        SB_TRY(expectChar(',', "expected ',' or ']' in device_ids reshape dims"));
      }
      skip();
      if (peek('T')) {
        ++pos_;
        SB_TRY(expectChar('(', "expected '(' after T"));
        while (true) {
          const size_t at = (skip(), pos_);
          SB_ASSIGN_OR_RETURN(int64_t d, parseInt());
          if (d < 0 || d >= static_cast<int64_t>(p.reshape.size())) {
            return errorAt(at, "Out of range iota minor_to_major value " + std::to_string(d) +
                                   ", expecting value in range [0, " +
                                   std::to_string(p.reshape.size()) + ")");
          }
          p.perm.push_back(static_cast<int>(d));
          if (eatChar(')')) break;
          SB_TRY(expectChar(',', "expected ',' or ')' in device_ids transpose"));
        }
      } else if (p.reshape.size() == 1) {
        p.perm.push_back(0);
      } else {
        return error("expected 'T(' after a device_ids reshape with more than one dim");
      }
      return expectChar(')', "expected ')' to end device_ids");
    }
    while (true) {
      SB_ASSIGN_OR_RETURN(int64_t d, parseInt());
      p.ids.push_back(d);
      if (eatChar(')')) return okStatus();
      SB_TRY(expectChar(',', "expected ',' or ')' in device_ids"));
    }
  }

  // item ::= 'replicated' | 'manual' | 'unreduced'
  //        | '[' [dim (',' dim)*] ']'
  //        | ('replicated' | 'unreduced' | 'manual') '=' '{' [axis (',' axis)*] '}'
  //        | 'unreduced' '=' ('max' | 'min' | 'sum') '{' [axis (',' axis)*] '}'
  //        | 'metadata' '=' MD
  Status parseItem(NamedParts& p) {
    skip();
    const size_t at = pos_;
    if (peek('[')) {
      if (p.seenDims) return error("dimension shardings given twice");
      p.seenDims = true;
      ++pos_;
      if (eatChar(']')) return okStatus();
      while (true) {
        SB_TRY(parseDim(p));
        if (eatChar(']')) return okStatus();
        SB_TRY(expectChar(',', "expected ',' or ']' in dimension shardings"));
      }
    }
    const std::string_view word = ident();
    skip();
    const bool assign = peek('=');
    if (!assign) {
      bool* kw = word == "replicated"  ? &p.replicatedKw
                 : word == "manual"    ? &p.manualKw
                 : word == "unreduced" ? &p.unreducedKw
                                       : nullptr;
      if (!kw) return errorAt(at, "unexpected token in named sharding");
      if (p.seenKeyword) return errorAt(at, "more than one of replicated, manual, unreduced");
      p.seenKeyword = *kw = true;
      return okStatus();
    }
    ++pos_;
    if (word == "metadata") {
      if (p.seenMetadata) return errorAt(at, "metadata given twice");
      p.seenMetadata = true;
      return parseMetadata(p.metadata);
    }
    bool* seen = word == "replicated"  ? &p.seenRepl
                 : word == "unreduced" ? &p.seenUnred
                 : word == "manual"    ? &p.seenManual
                                       : nullptr;
    if (!seen) {
      return errorAt(at, "unknown attribute in named sharding: expected replicated=, unreduced=, "
                         "manual= or metadata=");
    }
    if (*seen) return errorAt(at, std::string(word) + "= given twice");
    *seen = true;
    std::vector<AxisRef>& list = word == "replicated"  ? p.replicated
                                 : word == "unreduced" ? p.unreduced
                                                       : p.manual;
    // The reduction kind of unreduced axes, as sdy writes it
    // (`unreduced=max{"x"}`).
    if (&list == &p.unreduced) {
      skip();
      const size_t kindAt = pos_;
      const std::string_view kind = ident();
      if (kind == "max" || kind == "min" || kind == "sum") {
        p.reduction = kind == "max" ? "MAX" : kind == "min" ? "MIN" : "SUM";
      } else if (!kind.empty()) {
        return errorAt(kindAt, "unknown reduction '" + std::string(kind) +
                                   "': expected max, min or sum before the unreduced axes");
      }
    }
    SB_TRY(expectChar('{', "expected '{' to start axis list"));
    if (eatChar('}')) return okStatus();
    while (true) {
      SB_ASSIGN_OR_RETURN(AxisRef ref, parseAxisRef(p));
      list.push_back(ref);
      if (eatChar('}')) return okStatus();
      SB_TRY(expectChar(',', "expected ',' or '}' in axis list"));
    }
  }

  // dim ::= '{' [axis (',' axis)*] [','? '?'] '}'    ('?' comes last)
  Status parseDim(NamedParts& p) {
    SB_TRY(expectChar('{', "expected '{' to start a dimension sharding"));
    DimSharding dim;
    if (!eatChar('}')) {
      while (true) {
        if (eatChar('?')) {
          dim.isClosed = false;
          SB_TRY(expectChar('}', "expected '}' after '?' (it comes last in a dimension)"));
          break;
        }
        SB_ASSIGN_OR_RETURN(AxisRef ref, parseAxisRef(p));
        dim.axes.push_back(ref);
        if (eatChar('}')) break;
        SB_TRY(expectChar(',', "expected ',' or '}' in a dimension sharding"));
      }
    }
    p.dims.push_back(std::move(dim));
    return okStatus();
  }

  // axis ::= NAME [':' '(' INT ')' INT]
  Result<AxisRef> parseAxisRef(const NamedParts& p) {
    SB_TRY(skipChecked());
    const size_t at = pos_;
    SB_ASSIGN_OR_RETURN(std::string name, parseName());
    auto it = std::find(p.names.begin(), p.names.end(), name);
    if (it == p.names.end()) return errorAt(at, "unknown axis name: '" + name + "'");
    AxisRef ref = AxisRef::full(it - p.names.begin());
    if (eatChar(':')) {
      SB_TRY(expectChar('(', "expected '(' after ':' in a sub-axis"));
      SB_ASSIGN_OR_RETURN(int64_t pre, parseInt());
      SB_TRY(expectChar(')', "expected ')' after a sub-axis pre-size"));
      SB_ASSIGN_OR_RETURN(int64_t size, parseInt());
      ref = AxisRef::sub(ref.meshAxisIndex, pre, size);
    }
    return ref;
  }

  // MD ::= '{' ... '}' as V2 reads it (one entry or a list). The extent is
  // found with the V2 lexer (strings and comments may hold braces), then
  // the V2 parser reads it inside a `{replicated metadata=...}` wrapper.
  Status parseMetadata(std::vector<OpMetadata>& out) {
    SB_TRY(skipChecked());
    const size_t start = pos_;
    if (!peek('{')) return error("expects '{' to start sub attributes");
    sharding_text::Lexer lexer(text_.substr(start));
    sharding_text::Token tok;
    int depth = 0;
    size_t end = 0;
    while (true) {
      if (!lexer.next(tok)) return lexer.error().shifted(start);
      if (tok.kind == sharding_text::Tok::kEof) return error("unterminated metadata");
      if (tok.kind == sharding_text::Tok::kLBrace) ++depth;
      if (tok.kind == sharding_text::Tok::kRBrace && --depth == 0) {
        end = start + tok.offset + 1;
        break;
      }
    }
    static constexpr std::string_view kPrefix = "{replicated metadata=";
    std::string wrapped(kPrefix);
    wrapped += text_.substr(start, end - start);
    wrapped += '}';
    Result<HloSharding> md = parseSharding(wrapped);
    if (!md) {
      Error e = std::move(md).error();
      if (e.hasOffset()) e.offset = e.offset >= kPrefix.size() ? e.offset - kPrefix.size() + start : start;
      return e;
    }
    out = md->metadata();
    pos_ = end;
    return okStatus();
  }

  // Checks what the grammar cannot and builds the leaf (errors at `start`).
  Result<HloSharding> build(NamedParts& p, size_t start, size_t close) {
    auto located = [&](Error e) {
      e.code = ErrorCode::kParse;
      if (!e.hasOffset()) e.offset = start;
      return e;
    };
    const bool hasBody = p.seenDims || p.seenRepl || p.seenUnred || p.seenManual;
    if (p.maximal) {
      if (hasBody || p.seenKeyword) {
        return errorAt(start, "a maximal mesh takes no dimension shardings or axis lists");
      }
      return HloSharding::named(NamedSharding::maximal(p.device, std::move(p.metadata)));
    }
    if (p.seenKeyword && hasBody) {
      return errorAt(start, "replicated, manual or unreduced excludes dimension shardings and "
                            "axis lists");
    }
    for (int64_t s : p.sizes) {
      if (s <= 0) return located(invalid_("Mesh axis size must be positive."));
    }
    Result<Mesh> mesh = Mesh();
    if (p.names.empty()) {
      if (p.hasDeviceIds) return errorAt(start, "an empty mesh has no device_ids");
    } else if (!p.hasDeviceIds) {
      mesh = Mesh::create(p.names, p.sizes);
    } else if (p.idsIota) {
      mesh = Mesh::create(p.names, p.sizes, p.reshape, p.perm);
    } else {
      mesh = Mesh::createWithDeviceIds(p.names, p.sizes, std::move(p.ids));
    }
    if (!mesh) return located(std::move(mesh).error());
    Result<NamedSharding> ns = NamedSharding::replicate();
    if (p.manualKw) {
      ns = NamedSharding::manual(std::move(*mesh), std::move(p.metadata));
    } else if (p.unreducedKw) {
      ns = NamedSharding::unreduced(std::move(*mesh), std::move(p.metadata));
    } else {
      // A reduction kind rides in the metadata, as the V2 form carries it;
      // one written before the axes replaces any the metadata list names.
      if (!p.reduction.empty()) {
        std::erase_if(p.metadata, [](const OpMetadata& md) {
          OpMetadata only;
          only.opType = "sdy::reduction_op";
          only.opName = md.opName;
          return md == only;
        });
        OpMetadata md;
        md.opType = "sdy::reduction_op";
        md.opName = p.reduction;
        p.metadata.push_back(std::move(md));
      }
      ns = NamedSharding::create(std::move(*mesh), std::move(p.dims), std::move(p.replicated),
                                 std::move(p.unreduced), std::move(p.manual),
                                 std::move(p.metadata));
    }
    (void)close;
    if (!ns) return located(std::move(ns).error());
    return HloSharding::named(std::move(*ns));
  }

  static Error invalid_(std::string m) { return makeError(ErrorCode::kInvalid, std::move(m)); }

  std::string_view text_;
  size_t pos_;
};

}  // namespace

Result<HloSharding> parseNamedShardingLeaf(std::string_view text, size_t& pos) {
  NamedLeafParser parser(text, pos);
  size_t end = pos;
  SB_ASSIGN_OR_RETURN(HloSharding leaf, parser.run(end));
  pos = end;
  return leaf;
}

}  // namespace shardbridge::hlo
