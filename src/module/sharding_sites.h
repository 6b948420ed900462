// Every place of a module's text that holds a Shardy sharding, in the order
// Shardy's sharding walker (shardy/dialect/sdy/transforms/common/
// sharding_walker.cc) visits them: pre-order over the ops, a function's
// argument then result shardings, an op's `sdy.sharding`, the sharding of
// `sdy.sharding_constraint` / `sdy.reshard`, the `out_sharding` of the sdy
// collectives, a manual computation's in then out shardings. Used by the
// passes that rewrite shardings (sdy-lift-inlined-meshes,
// xla-sdy-round-trip-dedup-meshes).
#pragma once

#include <functional>
#include <vector>

#include "module/pass.h"
#include "shardbridge/sdy/attrs.h"

namespace shardbridge::module {

struct ShardingSite {
  enum Form { kSharding, kStripped, kPerValue };
  Form form = kSharding;  // `#sdy.sharding<...>`, `<...>`, `#sdy.sharding_per_value<[...]>`
  TextSpan span;
  int op = -1;  // the op holding it
};

// The sites of the ops in `tree` inside module `module` (-1: the implicit
// top-level module), in walk order. Errors (kParse, located): a
// constraint, reshard, collective or manual computation whose sharding
// cannot be found.
Result<std::vector<ShardingSite>> shardingSites(const OpTree& tree, int module);

// sdy.all_gather, sdy.all_slice, sdy.all_to_all, sdy.collective_permute,
// sdy.reduce_scatter, sdy.all_reduce, sdy.sharded_to_unreduced,
// sdy.replicated_to_unreduced: the ops with an `out_sharding` (Shardy's
// CollectiveOpInterface).
bool isSdyCollective(std::string_view name);

// The `<...>` sharding of an sdy.sharding_constraint or sdy.reshard (after
// its operand) or the `out_sharding=<...>` of a collective. Errors (kParse,
// located at the op): no operand, no `out_sharding`, no `<...>`.
Result<TextSpan> opShardingSpan(std::string_view t, const OpNode& op);

// An `sdy.mesh` op's text without its trailing `loc(...)`, for
// sdy::parseMeshSymbol.
std::string_view meshOpText(std::string_view text, const OpNode& op);

using ShardingFn = std::function<Result<sdy::TensorShardingAttr>(sdy::TensorShardingAttr)>;

// Applies `fn` to every sharding at `sites`, in order; a site whose
// shardings change is rewritten (printed canonically, sdy/text.h) in `rw`.
// Errors: a sharding that does not parse (located), `fn`'s.
Status transformShardings(sdy::Context& ctx, std::string_view text, const std::vector<ShardingSite>& sites,
                          Rewriter& rw, const ShardingFn& fn);

}  // namespace shardbridge::module
