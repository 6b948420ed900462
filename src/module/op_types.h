// The types written in an op's trailing signature, as the passes need them:
// `: T` (one type for all results), `: T1, T2` (one per result) and the
// functional `: (operands) -> results` forms.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/module/op_tree.h"

namespace shardbridge::module {

// Splits `a, b<c, d>, (e) -> f` at its top-level commas, blanks trimmed.
std::vector<std::string> splitTypeList(std::string_view text);

// Views of the tree's text (valid while it is).
struct OpTypes {
  bool known = false;
  std::vector<std::string_view> operands;  // only for the functional form
  std::vector<std::string_view> results;
};

// The types of `op`'s signature (known=false without one, or when its
// brackets do not match, as in `(tensoprivatxf32>) -> tensor<2xf32>`).
OpTypes opTypes(const OpTree& tree, const OpNode& op);
// OpTypes' views as strings of their own.
std::vector<std::string> typeStrings(const std::vector<std::string_view>& types);

// The number of values `op` defines (`%0:2, %1` -> 3).
int resultCount(const OpNode& op);

// The rank of a type: that of a ranked tensor, else 0 (tokens, scalars).
int64_t typeRank(std::string_view type);

// The `[i]` of a `stablehlo.get_tuple_element` (`{index = i : i32}` in the
// generic form), or -1 for any other op or an unreadable index.
int tupleElementIndex(std::string_view t, const OpNode& op);

// Whether `type` is a tensor type (what the shard_map lowering copies).
bool isShapedType(std::string_view type);

}  // namespace shardbridge::module
