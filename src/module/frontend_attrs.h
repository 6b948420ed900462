// `mhlo.frontend_attributes = {key = "value", ...}`: the dictionary of
// strings the round-trip export (xla/service/spmd/shardy/sdy_round_trip/)
// stores the Shardy originals in, edited as MLIR prints it (keys sorted,
// values escaped by module_detail::encodeStringLiteral: `"` as \22).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "module/rewriter.h"
#include "shardbridge/base/result.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

inline constexpr std::string_view kFrontendAttrs = "mhlo.frontend_attributes";

// The attribute dictionary `{...}` starting at `p` of `t` (at '{').
// Errors (kParse, located): a malformed dictionary.
Result<AttrDictNode> parseDictAt(std::string_view t, size_t p);

// `{k1 = v1, k2 = v2}` with the keys sorted as MLIR prints a dictionary;
// values are written as given (already attribute text).
std::string sortedDict(std::vector<std::pair<std::string, std::string>> entries);

// Records on `ed` (the editor of `dict`) that its frontend attributes get
// `key = "value"` for each of `strings` (decoded values; escaped here),
// merged into the existing frontend dictionary when there is one.
// Errors: the existing frontend attributes do not parse as a dictionary.
Status setFrontendStrings(std::string_view t, const AttrDictNode& dict, DictEditor& ed,
                          const std::vector<std::pair<std::string, std::string>>& strings);

// The value text `{key = "escaped", ...}` of a new frontend dictionary.
std::string frontendDict(std::vector<std::pair<std::string, std::string>> strings);

}  // namespace shardbridge::module
