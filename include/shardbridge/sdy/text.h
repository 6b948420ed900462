// The textual syntax of sdy attributes: parsing and canonical printing.
//
// Accepted forms (whitespace between tokens is free; `\22` is read as `"`
// everywhere, so the escaped text found inside mhlo.frontend_attributes
// strings parses as is):
//   #sdy.mesh<["a"=2, "b"=4]>          <["a"=2], device_ids=[1, 0]>
//   #sdy.mesh<[], device_ids=[3]>      sdy.mesh @mesh = <["x"=8]>
//   #sdy.sharding<@mesh, [{"x", ?}p1, {"y":(2)2}], replicated={"z"}, unreduced=max{"w"}>
//   #sdy.sharding<mesh<["x"=2]>, [{"x"}]>
//   #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, []>]>
//
// Parsing stops at the first error and returns it with the byte offset of the
// offending token. Parsing does not verify: a parsed attribute may still
// break a rule of verifier.h. Nesting, input size and integers are bounded:
// no input makes the parser abort, hang or use unbounded memory.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "shardbridge/base/result.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/source_map.h"

namespace shardbridge::sdy {

// `sdy.mesh @name = <...>`: a mesh symbol.
struct MeshSymbol {
  std::string name;  // without '@'
  MeshAttr mesh;
  friend bool operator==(const MeshSymbol&, const MeshSymbol&) = default;
};

// Any one thing parseAttribute understands.
using AnyAttr = std::variant<MeshAttr, MeshSymbol, TensorShardingAttr, TensorShardingPerValueAttr>;

struct ParseOptions {
  // Inputs longer than this are rejected up front.
  size_t maxInputBytes = size_t{64} << 20;
};

// Parses one mesh: `#sdy.mesh<BODY>`, `<BODY>` or a bare `[...]`-led BODY
// (`["a"=2], device_ids=[...]`). Fills `locations` when given.
Result<MeshAttr> parseMesh(Context& ctx, std::string_view text, SourceMap* locations = nullptr,
                           const ParseOptions& options = {});

// Parses `sdy.mesh @NAME = <BODY>` (a trailing attr-dict `{...}` is accepted
// and ignored, as MLIR allows one).
Result<MeshSymbol> parseMeshSymbol(Context& ctx, std::string_view text,
                                   SourceMap* locations = nullptr,
                                   const ParseOptions& options = {});

// Parses `#sdy.sharding<...>` or the stripped `<...>` form.
Result<TensorShardingAttr> parseTensorSharding(Context& ctx, std::string_view text,
                                               SourceMap* locations = nullptr,
                                               const ParseOptions& options = {});

// Parses `#sdy.sharding_per_value<[...]>` or the stripped `<[...]>` form.
Result<TensorShardingPerValueAttr> parseTensorShardingPerValue(
    Context& ctx, std::string_view text, SourceMap* locations = nullptr,
    const ParseOptions& options = {});

// Parses whichever of the above `text` holds, chosen by its leading keyword
// (`#sdy.mesh`, `sdy.mesh`, `#sdy.sharding`, `#sdy.sharding_per_value`; a
// bare `<[` is a mesh body). Leading and trailing whitespace is allowed;
// anything else after the attribute is an error.
// Stripped forms are told apart by their first tokens: `<@` and `<mesh` are a
// sharding, `<[<` a sharding_per_value, `[` a bare mesh body.
//   parseAttribute(ctx, "<@m, [{\"x\"}]>")  -> TensorShardingAttr
//   parseAttribute(ctx, "<[]>")             -> MeshAttr (the empty mesh)
Result<AnyAttr> parseAttribute(Context& ctx, std::string_view text,
                               SourceMap* locations = nullptr, const ParseOptions& options = {});

struct PrintOptions {
  // Print `#sdy.sharding<...>` / `#sdy.mesh<...>`; false prints the stripped
  // `<...>` form used inside sharding_per_value and sdy.mesh ops.
  bool withPrefix = true;
  // Write `"` as `\22`, the form inside MLIR string attributes.
  bool escapeQuotes = false;
};

// Canonical text, byte-identical to Shardy's printer:
//   printMesh           -> #sdy.mesh<["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
//   printMeshSymbol     -> sdy.mesh @mesh = <["a"=2]>
//   printTensorSharding -> #sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"c"}>
//   printTensorShardingPerValue -> #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>
//   printAxisRef        -> "a":(2)2
std::string printMesh(MeshAttr mesh, const PrintOptions& options = {});
std::string printMeshSymbol(const MeshSymbol& symbol, const PrintOptions& options = {});
std::string printTensorSharding(TensorShardingAttr sharding, const PrintOptions& options = {});
std::string printTensorShardingPerValue(TensorShardingPerValueAttr shardings,
                                        const PrintOptions& options = {});
std::string printAxisRef(AxisRefAttr axis, const PrintOptions& options = {});
std::string printAttribute(const AnyAttr& attr, const PrintOptions& options = {});
// A symbol reference as MLIR prints it: `@mesh`, or `@"my mesh"` (escaped)
// when the name is not a bare identifier.
std::string printSymbolRef(std::string_view name);

}  // namespace shardbridge::sdy
