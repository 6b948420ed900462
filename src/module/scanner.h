// The single-pass MLIR text scanner behind mlir_scan.h and convert_module.h.
//
// Not an MLIR parser: it walks the text once, understands string literals,
// `//` comments and bracket nesting, and reports to a visitor only the
// constructs the module conversions rewrite (sdy.mesh ops, the module's
// attribute dictionary, func arguments and results, op attribute
// dictionaries holding a sharding, sdy.sharding_constraint and
// sdy.manual_computation). Everything is reported as byte ranges into the
// text so that callers can splice replacements and leave every other byte
// as it is. Nothing is allocated per op that carries no sharding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/base/result.h"

namespace shardbridge::module_detail {

// [begin, end) byte range.
struct Span {
  size_t begin = 0;
  size_t end = 0;
  bool empty() const { return begin == end; }
  std::string_view in(std::string_view text) const { return text.substr(begin, end - begin); }
};

// One `key = value` (or unit `key`) entry of an attribute dictionary.
struct DictEntry {
  Span whole;             // key through the end of the value
  Span key;               // as written (quotes included for a string key)
  std::string_view name;  // the key without quotes
  Span value;             // empty for a unit attribute
  int nested = -1;        // index into AttrDict::children when the value is a dictionary we looked into
};

struct AttrDict {
  Span whole;  // `{` through `}`
  std::vector<DictEntry> entries;
  std::vector<AttrDict> children;  // dictionaries nested in entries (mhlo.frontend_attributes)

  const DictEntry* find(std::string_view name) const {
    for (const DictEntry& e : entries)
      if (e.name == name) return &e;
    return nullptr;
  }
  // The `xla.sdy.*` entry `name` inside `mhlo.frontend_attributes`, with the
  // frontend entry itself in `frontend` (null when absent).
  const DictEntry* findFrontend(std::string_view name, const DictEntry** frontend = nullptr,
                                const AttrDict** inner = nullptr) const;
};

enum class SiteKind : uint8_t { kArg, kResult, kOp, kModule };

// The manual axes in scope at a value: those of every enclosing
// sdy.manual_computation, outermost first.
struct ManualScope {
  std::vector<std::string> axes;
  int computation = -1;  // index of the innermost manual computation (scan order), -1 outside
};

// An attribute dictionary that holds at least one of sdy.sharding,
// mhlo.sharding, mhlo.frontend_attributes = {xla.sdy.sharding | xla.sdy.meshes}
// or xla.sdy.meshes.
struct ValueDict {
  SiteKind kind = SiteKind::kOp;
  const AttrDict* dict = nullptr;
  // kArg / kResult: the function's symbol (without '@'), the index, and for
  // an argument its SSA name (`%arg0`, empty in a declaration).
  std::string_view funcName;
  int index = 0;
  std::string_view argName;
  // kOp: the result list as written (`%3`, `%1:2`, empty) and the op name.
  std::string_view opResults;
  std::string_view opName;
  size_t opOffset = 0;  // where the op's statement starts
  // The types of the values the dictionary is attached to, when written
  // there: the argument/result type, or the results of an op's trailing
  // `: (operands) -> results` / `: type` signature.
  bool typesKnown = false;
  std::vector<Span> types;
  // kModule: where ` attributes {...}` starts (the blank before the keyword).
  size_t attributesKeyword = 0;
  const ManualScope* manual = nullptr;
};

struct MeshOp {
  std::string_view name;  // without '@' (quotes stripped)
  Span statement;         // `sdy.mesh` through the end of the op
  Span body;              // `<...>`
};

struct ConstraintOp {
  Span op;           // from the op name through the end of its type
  std::string_view results;  // `%2`
  Span operand;      // `%1`
  Span sharding;     // `<@mesh, [...]>`
  Span type;         // the type after `:`
  const ManualScope* manual = nullptr;
};

struct ManualComputationOp {
  size_t offset = 0;  // the op name
  std::string_view results;
  std::vector<Span> inShardings;   // each `<...>`
  std::vector<Span> outShardings;
  std::vector<std::string> manualAxes;  // this op's own
  Span manualAxesSpan;
};

struct ModuleInfo {
  bool explicitModule = false;
  size_t bodyStart = 0;  // just after the module's `{` (0 for an implicit module)
};

class ScanVisitor {
 public:
  virtual ~ScanVisitor() = default;
  // False: attribute dictionaries of values and ops are skipped unread
  // (onDict is then only called for the module's dictionary).
  virtual bool wantsValueDicts() const { return true; }
  virtual Status onModule(const ModuleInfo&) { return okStatus(); }
  virtual Status onMesh(const MeshOp&) { return okStatus(); }
  virtual Status onDict(const ValueDict&) { return okStatus(); }
  virtual Status onConstraint(const ConstraintOp&) { return okStatus(); }
  virtual Status onManualComputation(const ManualComputationOp&) { return okStatus(); }
  // An sdy op other than mesh, sharding_constraint, manual_computation and
  // return (sdy.reshard, sdy.all_gather, ...): left as it is.
  virtual Status onOtherSdyOp(std::string_view, size_t) { return okStatus(); }
};

struct ScanSummary {
  // The first op of the module body (of the explicit top-level module, else
  // of the file), where inserted sdy.mesh ops go; npos when there is none.
  size_t firstStatement = std::string_view::npos;
  bool explicitModule = false;
  size_t moduleBodyStart = 0;
};

inline constexpr size_t kMaxNesting = 4096;

// Walks `text` once, calling `visitor` in text order. Stops at the first
// error (the visitor's or a syntax error: an unterminated string, an
// unbalanced bracket, a truncated construct), located by byte offset.
Result<ScanSummary> scanText(std::string_view text, ScanVisitor& visitor);

// Reads, for the ops of one text, the types of the values an op's
// dictionary is attached to, exactly as scanText reads them for onDict.
class OpTypeReader {
 public:
  explicit OpTypeReader(std::string_view text);
  ~OpTypeReader();
  // The types after a dictionary ending at `pos`: vd.types and
  // vd.typesKnown are set. `opResults` is the op's result list as written
  // (`%0`, `%1:2`). Errors (kParse) as scanText's on a malformed type.
  Status read(size_t pos, std::string_view opResults, ValueDict& vd);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// Whether scanText reports dictionary `d` to onDict: it holds sdy.sharding,
// mhlo.sharding, xla.sdy.meshes or xla.sdy.manual_axes, or an xla.sdy.sharding
// / xla.sdy.meshes inside mhlo.frontend_attributes.
bool isInterestingDict(const AttrDict& d);

// Decodes an MLIR string literal (with its quotes): \22 \" \\ \n \t \XX.
// Errors (kParse) are located at the offending escape (offset into `literal`).
Result<std::string> decodeStringLiteral(std::string_view literal);
// The offset in `literal` of byte `decodedOffset` of its decoded value.
size_t rawOffsetInLiteral(std::string_view literal, size_t decodedOffset);
// A round-trip string attribute (`xla.sdy.sharding`, `xla.sdy.meshes`, ...):
// decoded once, and once more when it is doubly escaped (every quote of the
// attribute text is `\"` after the first decoding, as JAX's exports of early
// 2025 wrote them; upstream's round-trip import reads both). `once`, when
// given, receives the first decoding if a second one was made (else it is
// cleared). Errors (kParse) are located in `literal`.
Result<std::string> decodeRoundTripLiteral(std::string_view literal, std::string* once = nullptr);
// rawOffsetInLiteral through both decodings of decodeRoundTripLiteral
// (`once` as it returned it; empty for a singly escaped literal).
size_t rawOffsetInRoundTripLiteral(std::string_view literal, const std::string& once, size_t decodedOffset);
// `value` as an MLIR string literal, quotes included, escaped as MLIR's
// printer does: `"` as \22, `\` as \\, other non-printable bytes as \XX.
std::string encodeStringLiteral(std::string_view value);

// Splits the decoded `{name = #sdy.mesh<...>, ...}` value of the round-trip
// xla.sdy.meshes attribute into (name, (mesh text, offset in `decoded`)).
Result<std::vector<std::pair<std::string, std::pair<std::string, size_t>>>> splitMeshDict(
    std::string_view decoded);

}  // namespace shardbridge::module_detail
