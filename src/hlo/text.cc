// Recursive-descent parser for XLA's sharding text, and the printer entry
// point. Token rules follow XLA's HloLexer; productions and messages follow
// HloParserImpl::ParseSharding and friends (docs/upstream.md § HLO sharding text).
#include "shardbridge/hlo/text.h"

#include <algorithm>
#include <array>
#include <optional>
#include <span>

#include "hlo/sharding_lexer.h"
#include "shardbridge/base/checked_math.h"
#include "shardbridge/base/input.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::hlo {

namespace {

using sharding_text::Lexer;
using sharding_text::Tok;
using sharding_text::Token;

// A vector with room for N elements inline (dims, perms and subgroup types
// are short); spills to the heap beyond that. For trivially copyable T.
template <typename T, size_t N>
class SmallVec {
 public:
  void push_back(T v) {
    if (heap_.empty()) {
      if (size_ < N) {
        inline_[size_++] = v;
        return;
      }
      heap_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(size_));
    }
    heap_.push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* data() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  operator std::span<const T>() const { return {data(), size_}; }

 private:
  std::array<T, N> inline_{};
  size_t size_ = 0;
  std::vector<T> heap_;
};

// Everything gathered inside one leaf's braces before deciding what it is.
struct LeafParts {
  size_t loc = 0;           // offset of the first token after '{'
  size_t devicesLoc = 0;    // offset of the last `devices=`
  bool maximal = false, replicated = false, manual = false, unknown = false,
       unreduced = false, lastTileDimReplicate = false;
  bool shardAs = false, shardLike = false;
  int64_t shardGroupId = -1;
  std::vector<int64_t> devices;
  SmallVec<int64_t, 8> dims;
  SmallVec<int64_t, 8> reshape;
  SmallVec<int, 8> perm;
  SmallVec<OpShardingType, 4> subgroupTypes;
  std::vector<OpMetadata> metadata;
};

std::string joinInts(std::span<const int64_t> v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(v[i]);
  }
  return out;
}

class ShardingParser {
 public:
  ShardingParser(std::string_view text, size_t maxTupleLeaves)
      : text_(text), maxTupleLeaves_(maxTupleLeaves), lexer_(text) {}

  Result<HloSharding> run() {
    advance();
    SB_ASSIGN_OR_RETURN(HloSharding sharding, parseSharding());
    if (tok_.kind != Tok::kEof) return error("Extra content after sharding");
    return sharding;
  }

 private:
  // A syntax error at the current token, unless that token is a lexical
  // error: then the lexer's message wins (it is what went wrong first).
  Error error(std::string message) const {
    if (tok_.kind == Tok::kError) return lexer_.error().shifted(base_);
    return errorAt(tok_.offset, std::move(message));
  }
  static Error errorAt(size_t offset, std::string message) {
    return makeError(ErrorCode::kParse, std::move(message), offset);
  }

  // Moves to the next token. A lexical error becomes a kError token, which
  // no production accepts, so it surfaces through error() (no per-token
  // Status to build on the hot path).
  void advance() {
    if (!lexer_.next(tok_)) tok_.kind = Tok::kError;
    tok_.offset += base_;
  }

  bool isIdent(std::string_view name) const { return tok_.kind == Tok::kIdent && tok_.text == name; }

  // Consumes a token of `kind` or fails with `message`.
  Status expect(Tok kind, const char* message) {
    if (tok_.kind != kind) return error(message);
    advance();
    return okStatus();
  }

  // Consumes `kind` if it is next.
  bool eatIf(Tok kind) {
    if (tok_.kind != kind) return false;
    advance();
    return true;
  }

  Result<int64_t> parseInt() {
    if (tok_.kind != Tok::kInt) return error("expects integer");
    const int64_t v = tok_.intValue;
    advance();
    return v;
  }

  // sharding ::= '{' leaf-body                 (a single leaf)
  //            | '{' '}'                      (the empty tuple)
  //            | '{' leaf (',' leaf)* '}'     (a flat tuple)
  Result<HloSharding> parseSharding() {
    SB_TRY(expect(Tok::kLBrace, "expected '{' to start sharding attribute"));
    if (tok_.kind != Tok::kLBrace && tok_.kind != Tok::kRBrace) {
      return parseSingleSharding(/*lbraceConsumed=*/true);
    }
    std::vector<HloSharding> leaves;
    if (tok_.kind != Tok::kRBrace) {
      while (true) {
        if (leaves.size() == maxTupleLeaves_) {
          return error("a tuple has more than " + std::to_string(maxTupleLeaves_) + " elements");
        }
        SB_ASSIGN_OR_RETURN(HloSharding leaf, parseSingleSharding(/*lbraceConsumed=*/false));
        leaves.push_back(std::move(leaf));
        const bool more = eatIf(Tok::kComma);
        if (!more) break;
      }
    }
    SB_TRY(expect(Tok::kRBrace, "expected '}' to end sharding attribute"));
    return HloSharding::tuple(std::move(leaves));
  }

  // leaf ::= '{' part* '}'  where the parts come in any order:
  //   replicated | manual | unknown | unreduced | maximal | last_tile_dim_replicate
  //   | shard_as INT | shard_like INT | device=INT | devices=TILE
  //   | metadata=MD | last_tile_dims={TYPE, ...}
  // A leaf starting with `mesh`/`maximal_mesh`/`single_device` is V3.
  Result<HloSharding> parseSingleSharding(bool lbraceConsumed) {
    if (!lbraceConsumed) SB_TRY(expect(Tok::kLBrace, "expected '{' to start sharding attribute"));
    if (isIdent("mesh") || isIdent("maximal_mesh") || isIdent("single_device")) {
      return parseNamedShardingLeaf();
    }
    LeafParts p;
    p.loc = tok_.offset;
    while (tok_.kind != Tok::kRBrace) {
      if (tok_.kind == Tok::kIdent) {
        const std::string_view word = tok_.text;
        bool* flag = word == "maximal"                   ? &p.maximal
                     : word == "replicated"              ? &p.replicated
                     : word == "manual"                  ? &p.manual
                     : word == "unknown"                 ? &p.unknown
                     : word == "unreduced"               ? &p.unreduced
                     : word == "last_tile_dim_replicate" ? &p.lastTileDimReplicate
                                                         : nullptr;
        if (flag) {
          *flag = true;
          advance();
          continue;
        }
        if (word == "shard_as" || word == "shard_like") {
          (word == "shard_as" ? p.shardAs : p.shardLike) = true;
          advance();
          SB_ASSIGN_OR_RETURN(p.shardGroupId, parseInt());
          continue;
        }
        return error("unexpected token");
      }
      if (tok_.kind != Tok::kAttrName) return error("unexpected token");
      const std::string_view name = tok_.text;
      if (name == "device") {
        advance();
        if (tok_.kind != Tok::kInt) return error("device= attribute must be an integer");
        p.devices = {tok_.intValue};  // XLA: device= replaces any earlier list
        advance();
      } else if (name == "devices") {
        p.devicesLoc = tok_.offset;
        advance();
        SB_TRY(parseTileAssignment(p));
      } else if (name == "metadata") {
        advance();
        SB_TRY(parseSingleOrListMetadata(p.metadata));
      } else if (name == "last_tile_dims") {
        advance();
        SB_TRY(parseSubgroupTypes(p.subgroupTypes));
      } else {
        return error(
            "unknown attribute in sharding: expected device=, devices= metadata= or "
            "last_tile_dims= ");
      }
    }
    SB_ASSIGN_OR_RETURN(HloSharding sharding, buildLeaf(p));
    advance();  // the leaf's '}'
    if (p.shardAs || p.shardLike) {
      // As upstream: shard_as wins when both were written; the last id read counts.
      sharding = sharding.withShardGroup(p.shardAs ? ShardGroup::as(p.shardGroupId)
                                                   : ShardGroup::like(p.shardGroupId));
    }
    return sharding;
  }

  // The one place V3 named shardings enter: `{mesh[...], [...], ...}`,
  // `{maximal_mesh[device_id=N]}` (also spelled `single_device[...]`). The
  // current token is the leading identifier; named_text.cc reads the leaf
  // through its '}' at the character level, then lexing resumes after it
  // (on a fresh lexer whose offsets are shifted by base_).
  Result<HloSharding> parseNamedShardingLeaf() {
    size_t pos = tok_.offset;
    SB_ASSIGN_OR_RETURN(HloSharding leaf, hlo::parseNamedShardingLeaf(text_, pos));
    base_ = pos;
    lexer_ = Lexer(text_.substr(pos));
    advance();
    return leaf;
  }

  // Decides what a leaf is, first match wins (XLA's order), and checks what
  // XLA leaves to CHECKs or out-of-bounds accesses.
  Result<HloSharding> buildLeaf(LeafParts& p) {
    if (p.replicated) {
      if (!p.devices.empty()) {
        return errorAt(p.loc, "replicated shardings should not have any devices assigned");
      }
      return HloSharding::replicate(std::move(p.metadata));
    }
    if (p.maximal) {
      if (p.devices.size() != 1) {
        return errorAt(p.loc, "maximal shardings should have exactly one device assigned");
      }
      return HloSharding::singleDevice(p.devices[0], std::move(p.metadata));
    }
    if (p.manual) {
      if (!p.devices.empty()) {
        return errorAt(p.loc, "manual shardings should not have any devices assigned");
      }
      return HloSharding::manual(std::move(p.metadata));
    }
    if (p.unknown) {
      if (!p.devices.empty()) {
        return errorAt(p.loc, "unknown shardings should not have any devices assigned");
      }
      return HloSharding::unknown(std::move(p.metadata));
    }
    if (p.unreduced) {
      if (!p.devices.empty()) {
        return errorAt(p.loc, "unreduced shardings should not have any devices assigned");
      }
      return HloSharding::unreduced(std::move(p.metadata));
    }
    if (p.dims.empty()) {
      return errorAt(p.loc,
                     "non-maximal shardings must have a tile assignment list including dimensions");
    }
    if (p.perm.size() != p.reshape.size()) {
      return errorAt(p.loc, "iota_transpose_perm should have the same rank as iota_reshape_dims : "
                            "expected " +
                                std::to_string(p.reshape.size()) + ", saw " +
                                std::to_string(p.perm.size()) + ".");
    }
    if (p.lastTileDimReplicate) {
      // Upstream CHECK-fails (aborts) on this combination.
      if (!p.subgroupTypes.empty()) {
        return errorAt(p.loc,
                       "last_tile_dim_replicate and last_tile_dims={...} cannot both be given");
      }
      p.subgroupTypes.push_back(OpShardingType::kReplicated);
    }
    Result<TileAssignment> tiles = TileAssignment();
    if (!p.reshape.empty()) {
      if (!p.devices.empty()) {
        // Upstream CHECK-fails here (e.g. `device=1 devices=[2]<=[2]`).
        return errorAt(p.devicesLoc, "devices= mixes an iota tile assignment with device ids");
      }
      tiles = TileAssignment::iota(p.dims, p.reshape, p.perm);
    } else {
      if (p.devices.size() <= 1) {
        return errorAt(p.loc, "non-maximal shardings must have more than one device assigned");
      }
      // Upstream copies the list into the array unchecked (short lists leave
      // garbage, long ones write out of bounds): check the count here.
      auto n = checkedProduct(std::span<const int64_t>(p.dims));
      if (n && *n == static_cast<int64_t>(p.devices.size())) {
        tiles = TileAssignment::fromDevices(p.dims, std::move(p.devices));
      } else if (n && allPositive(p.dims)) {
        return errorAt(p.devicesLoc, "devices=[" + joinInts(p.dims) + "] needs " +
                                         std::to_string(*n) + " device ids, got " +
                                         std::to_string(p.devices.size()));
      } else {
        tiles = TileAssignment::fromDevices(p.dims, std::move(p.devices));
      }
    }
    if (!tiles.has_value()) return located(std::move(tiles).error(), p.devicesLoc);
    Result<HloSharding> built =
        p.subgroupTypes.empty()
            ? HloSharding::tile(std::move(tiles.value()), std::move(p.metadata))
            : HloSharding::subgroup(tiles.value(), p.subgroupTypes, std::move(p.metadata));
    if (!built.has_value()) return located(std::move(built).error(), p.loc);
    return built;
  }

    static bool allPositive(std::span<const int64_t> dims) {
    return std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d > 0; });
  }

  // A model error (no offset) re-reported as a parse error at `offset`.
  static Error located(Error e, size_t offset) {
    if (e.code == ErrorCode::kInvalid) e.code = ErrorCode::kParse;
    if (!e.hasOffset()) e.offset = offset;
    return e;
  }

  // TILE ::= '[' INT (',' INT)* ']' (INT (',' INT)* | '<=' IOTA)
  // Repeated devices= append, as upstream does.
  Status parseTileAssignment(LeafParts& p) {
    SB_TRY(expect(Tok::kLSquare, "expected '[' to start sharding devices shape"));
    do {
      SB_ASSIGN_OR_RETURN(int64_t d, parseInt());
      p.dims.push_back(d);
      const bool more = eatIf(Tok::kComma);
      if (!more) break;
    } while (true);
    SB_TRY(expect(Tok::kRSquare, "expected ']' to end sharding devices shape"));
    const bool iota = eatIf(Tok::kLeq);
    if (iota) return parseIotaArray(p);
    if (tok_.kind != Tok::kInt) return error("expects integer");
    p.devices.push_back(tok_.intValue);
    if (!lexer_.scanIntList(p.devices)) return lexer_.error().shifted(base_);
    advance();
    // Only a ',' the fast path left behind (not followed by an integer).
    while (true) {
      const bool more = eatIf(Tok::kComma);
      if (!more) return okStatus();
      SB_ASSIGN_OR_RETURN(int64_t device, parseInt());
      p.devices.push_back(device);
    }
  }

  // IOTA ::= '[' INT ']' | '[' INT (',' INT)+ ']' 'T' '(' INT (',' INT)* ')'
  Status parseIotaArray(LeafParts& p) {
    SB_TRY(expect(Tok::kLSquare, "expected '[' to start sharding iota_reshape_dims"));
    size_t count = 0;
    while (true) {
      SB_ASSIGN_OR_RETURN(int64_t d, parseInt());
      p.reshape.push_back(d);
      ++count;
      const bool more = eatIf(Tok::kComma);
      if (!more) break;
    }
    SB_TRY(expect(Tok::kRSquare, "expected ']' to end sharding iota_reshape_dims"));
    if (count == 1) {
      p.perm.push_back(0);
      return okStatus();
    }
    if (!isIdent("T")) return error("expected 'T(' to start sharding devices iota_transpose_perm");
    advance();
    SB_TRY(expect(Tok::kLParen, "expected 'T(' to start sharding devices iota_transpose_perm"));
    while (true) {
      const size_t at = tok_.offset;
      SB_ASSIGN_OR_RETURN(int64_t d, parseInt());
      // Upstream only checks the upper bound; a negative entry would index
      // out of bounds there, so it gets the same message here.
      if (d < 0 || d >= static_cast<int64_t>(p.reshape.size())) {
        return errorAt(at, "Out of range iota minor_to_major value " + std::to_string(d) +
                               ", expecting value in range [0, " +
                               std::to_string(p.reshape.size()) + ")");
      }
      p.perm.push_back(static_cast<int>(d));
      const bool more = eatIf(Tok::kComma);
      if (!more) break;
    }
    return expect(Tok::kRParen, "expected ')' to end sharding devices iota_transpose_perm");
  }

  // TYPES ::= '{' [TYPE (',' TYPE)*] '}'   TYPE ::= maximal|replicated|manual|unreduced
  Status parseSubgroupTypes(SmallVec<OpShardingType, 4>& types) {
    SB_TRY(expect(Tok::kLBrace, "expected '{' to start sharding type list"));
    if (tok_.kind != Tok::kRBrace) {
      while (true) {
        if (isIdent("maximal")) {
          types.push_back(OpShardingType::kMaximal);
        } else if (isIdent("replicated")) {
          types.push_back(OpShardingType::kReplicated);
        } else if (isIdent("manual")) {
          types.push_back(OpShardingType::kManual);
        } else if (isIdent("unreduced")) {
          types.push_back(OpShardingType::kUnreduced);
        } else {
          return error("expected sharding type: maximal, replicated, manual or unreduced");
        }
        advance();
        const bool more = eatIf(Tok::kComma);
        if (!more) break;
      }
    }
    return expect(Tok::kRBrace, "expected '}' to end sharding type list");
  }

  // MD ::= '{' '{' ENTRY-BODY '}' (',' '{' ENTRY-BODY '}')* '}'   (a list)
  //      | '{' '}' when followed by nothing else is one empty entry
  //      | ENTRY                                                   (one entry)
  Status parseSingleOrListMetadata(std::vector<OpMetadata>& out) {
    if (tok_.kind != Tok::kLBrace) return error("expects '{' to start sub attributes");
    Lexer peek = lexer_;
    Token next;
    if (!peek.next(next)) return peek.error().shifted(base_);
    if (next.kind != Tok::kLBrace) return parseMetadataEntry(out);
    advance();  // the list's '{'
    if (tok_.kind != Tok::kRBrace) {
      while (true) {
        SB_TRY(parseMetadataEntry(out));
        const bool more = eatIf(Tok::kComma);
        if (!more) break;
      }
    }
    return expect(Tok::kRBrace, "expected '}' to end metadata list");
  }

  // ENTRY ::= '{' [','? KEY=VALUE]* '}'   keys at most once, any order;
  // commas between (and before or after) entries are optional, as in
  // upstream's ParseSubAttributes.
  Status parseMetadataEntry(std::vector<OpMetadata>& out) {
    SB_TRY(expect(Tok::kLBrace, "expects '{' to start sub attributes"));
    OpMetadata md;
    std::vector<std::string_view> seen;
    while (tok_.kind != Tok::kRBrace) {
      eatIf(Tok::kComma);
      if (tok_.kind == Tok::kRBrace) break;
      if (tok_.kind != Tok::kAttrName) return error("expects attribute name");
      const std::string_view key = tok_.text;
      const size_t keyLoc = tok_.offset;
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
        return errorAt(keyLoc, "attribute " + std::string(key) + " already exists");
      }
      seen.push_back(key);
      advance();
      SB_TRY(parseMetadataValue(key, keyLoc, md));
    }
    advance();
    out.push_back(std::move(md));
    return okStatus();
  }

  Status parseMetadataValue(std::string_view key, size_t keyLoc, OpMetadata& md) {
    std::string* str = key == "op_type"             ? &md.opType
                       : key == "op_name"           ? &md.opName
                       : key == "source_file"       ? &md.sourceFile
                       : key == "deduplicated_name" ? &md.deduplicatedName
                       : key == "scheduling_name"   ? &md.schedulingName
                                                    : nullptr;
    if (str || key == "metadata_payload") {
      if (tok_.kind != Tok::kString) return error("expects string");
      // OpMetadata's strings are proto3 `string`s: bytes that are not UTF-8
      // give a proto neither XLA nor protobuf reads back. The payload is
      // `bytes` and takes anything.
      if (size_t bad = firstInvalidUtf8(tok_.stringValue); str && bad != std::string_view::npos) {
        return errorAt(tok_.offset, std::string(key) + " is not valid UTF-8 (byte " +
                                        escapeBytes(tok_.stringValue.substr(bad, 1)) +
                                        " after unescaping); OpMetadata strings must be UTF-8");
      }
      if (str) {
        *str = std::move(tok_.stringValue);
      } else {
        md.metadataPayload = std::move(tok_.stringValue);
      }
      advance();
      return okStatus();
    }
    int32_t* i32 = key == "source_line"         ? &md.sourceLine
                   : key == "source_end_line"   ? &md.sourceEndLine
                   : key == "source_column"     ? &md.sourceColumn
                   : key == "source_end_column" ? &md.sourceEndColumn
                   : key == "stack_frame_id"    ? &md.stackFrameId
                                                : nullptr;
    if (i32) {
      const size_t at = tok_.offset;
      SB_ASSIGN_OR_RETURN(int64_t v, parseInt());
      if (v < INT32_MIN || v > INT32_MAX) return errorAt(at, "value out of range for int32");
      *i32 = static_cast<int32_t>(v);
      return okStatus();
    }
    if (key == "profile_type") {
      SB_TRY(expect(Tok::kLBrace, "expects a list starting with {"));
      if (tok_.kind != Tok::kRBrace) {
        while (true) {
          const size_t at = tok_.offset;
          SB_ASSIGN_OR_RETURN(int64_t v, parseInt());
          if (!isValidProfileType(v)) {
            return errorAt(at, "invalid profile_type " + std::to_string(v) +
                                   " (expected 0 INVALID, 1 WINDOW, 2 FLAG or 3 INTEGER)");
          }
          md.profileType.push_back(static_cast<int32_t>(v));
          const bool more = eatIf(Tok::kComma);
          if (!more) break;
        }
      }
      return expect(Tok::kRBrace, "expects a list to end with }");
    }
    return errorAt(keyLoc, "unexpected attribute \"" + std::string(key) +
                               "\". Allowed attributes: deduplicated_name, metadata_payload, "
                               "op_name, op_type, profile_type, scheduling_name, source_column, "
                               "source_end_column, source_end_line, source_file, source_line, "
                               "stack_frame_id");
  }

  std::string_view text_;
  size_t maxTupleLeaves_;
  size_t base_ = 0;  // offset of lexer_'s input within text_
  Lexer lexer_;
  Token tok_;
};

}  // namespace

Result<HloSharding> parseSharding(std::string_view text, const ShardingParseOptions& options) {
  if (text.size() > options.maxInputBytes) {
    return makeError(ErrorCode::kParse,
                     "input is " + std::to_string(text.size()) + " bytes; the limit is " +
                         std::to_string(options.maxInputBytes),
                     0);
  }
  return ShardingParser(text, options.maxTupleLeaves).run();
}

std::string printSharding(const HloSharding& sharding, bool includeMetadata) {
  return sharding.toString(includeMetadata);
}

}  // namespace shardbridge::hlo
