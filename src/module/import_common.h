// What the import passes (upstream xla/service/spmd/shardy/round_trip_common/,
// sdy_round_trip/ and stablehlo_round_trip/ import side) share: the
// round-trip strings of `mhlo.frontend_attributes` (singly or doubly
// escaped), custom-call targets, the sharding of a value, and edits of a
// module's own dictionary. See docs/module.md "Import".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "module/rewriter.h"
#include "module/value_index.h"
#include "shardbridge/base/result.h"
#include "shardbridge/module/op_tree.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::module {

// The `mhlo.frontend_attributes = {...}` entry of `d` and its dictionary
// (entry null and dict absent when `d` has none).
struct Frontend {
  const AttrEntry* entry = nullptr;
  AttrDictNode dict;
  const AttrEntry* find(std::string_view key) const { return entry ? dict.find(key) : nullptr; }
};
// Errors (kParse, located): frontend attributes that are not a dictionary.
Result<Frontend> frontendOf(std::string_view t, const AttrDictNode& d);

// The decoded value of a string attribute `value` (quotes included). JAX's
// back-compat dumps hold the round-trip strings escaped twice (`\\\22` for
// `"`): a decoded value holding `\"` is decoded once more.
// Errors (kParse, located in `t`): not a string, a bad escape.
Result<std::string> roundTripString(std::string_view t, TextSpan value);
// roundTripString for a value the import writes back verbatim as an
// attribute (`xla.sdy.sharding_rule`): the decoded text must be one
// attribute, `#...` with balanced brackets, on one line and without `//`,
// so that the module written around it parses again.
// Errors (kParse, located at `value`): those of roundTripString, and a
// decoded text that is not one such attribute.
Result<std::string> roundTripAttribute(std::string_view t, TextSpan value, std::string_view key);

// Records on `outer` (the editor of the dictionary holding `f`) that the
// frontend attributes lose `keys`; the frontend entry goes when it empties.
void removeFrontendKeys(std::string_view t, const Frontend& f, DictEditor& outer,
                        const std::vector<std::string_view>& keys);

// Commits `ed`, the editor of module op `module`'s dictionary: an emptied
// dictionary goes with its `attributes` keyword.
void commitModuleDict(Rewriter& rw, std::string_view t, const OpNode& module, const DictEditor& ed);

// The target of a `stablehlo.custom_call` (custom form `@name(...)`, or the
// generic form's `call_target_name = "name"`), empty for any other op.
std::string_view customCallTarget(std::string_view t, const OpNode& op);

// Whether `name` is a Python host callback target (upstream
// isPythonCallbackCustomCall).
bool isPythonCallback(std::string_view name);

// The sharding of value `name#index` of function `func`: a func argument's
// `sdy.sharding`, or element `index` of its defining op's
// `sdy.sharding_per_value`. nullopt when it has none (or it does not parse).
// `values` answers the definition (value_index.h), once per function.
std::optional<sdy::TensorShardingAttr> valueSharding(sdy::Context& ctx, const OpTree& tree, FuncValueIndex& values,
                                                     int func, std::string_view name, int index);

// Every value name defined in function `func` (arguments, results, block
// arguments of nested regions).
std::vector<std::string_view> namesDefinedIn(const OpTree& tree, int func);

// Where new lines go at the top of module `module`'s body (-1: the file):
// the start of its first op's line, with that op's indentation; for an
// empty body, before its closing brace.
std::pair<size_t, std::string> moduleBodyStart(const OpTree& tree, int module);

// The symbol-defining ops of every module of a tree, by (module, name):
// OpTree::lookupSymbol in constant time (the shard-map imports look up one
// callee per call).
class SymbolIndex {
 public:
  explicit SymbolIndex(const OpTree& tree);
  int lookup(int module, std::string_view name) const;

 private:
  std::map<std::pair<int, std::string_view>, int> index_;
};

struct PassContext;
// The sparse-offload propagation barriers of xla-sdy-round-trip-import-shardy-attrs
// (sparse_offload_barriers.cc), for the functions of module `module` (-1: the file).
Status insertSparseOffloadBarriers(PassContext& ctx, int module);

}  // namespace shardbridge::module
