// The passes' prefilters (pipelines.cc's PassDef::needsAny and needs): the
// words without which a pass has nothing to do, so that runPasses can skip
// it, and the parse it would need, after a text change. A list holds the
// words every op or attribute the pass rewrites must contain, one of them
// being enough.
#pragma once

#include <string_view>
#include <vector>

#include "module/word_presence.h"

namespace shardbridge::module::prefilters {

inline const std::vector<std::string_view> kNeedsManual = {"sdy.manual_computation"};
inline const std::vector<std::string_view> kNeedsReduction = {"unreduced", "sdy.reduce_scatter"};
inline const std::vector<std::string_view> kNeedsCallback = {"_callback"};
inline const std::vector<std::string_view> kNeedsPrivate = {"private"};
inline const std::vector<std::string_view> kNeedsCall = {"call @", "func.call\""};
inline const std::vector<std::string_view> kNeedsWhile = {"stablehlo.while"};
inline const std::vector<std::string_view> kNeedsFoldable = {"stablehlo.reshape", "stablehlo.tuple"};
inline const std::vector<std::string_view> kNeedsOriginal = {"sdy.original_func_name", "sdy.func_manual_axes"};
// A tuple type is spelled `tuple<` where it is written or where its alias is
// defined (`!t = tuple<...>`).
inline const std::vector<std::string_view> kNeedsTuple = {"tuple<"};
// What round_trip_import_shardy_attrs.cc reads or removes: the xla.sdy.*
// attributes and custom calls, mhlo.sharding, and sparse-offload calls.
inline const std::vector<std::string_view> kNeedsShardyAttrs = {"xla.sdy.", "mhlo.sharding", "sparseoffload"};
// The custom calls import_sdy_custom_calls.cc rewrites: @Sharding,
// @xla.sdy.ShardingGroup, @xla.sdy.PropagationBarrier.
inline const std::vector<std::string_view> kNeedsSdyCustomCalls = {"Sharding", "PropagationBarrier"};

// The round-trip shard-map import: its custom calls and bodies (all named
// xla.sdy.*), or the sdy.func_manual_axes its last step may write
// (mayNeedFuncManualAxes, func_manual_axes.cc), asking `words` of `text`.
bool roundTripShardMapImportNeeded(std::string_view text, WordPresence& words);
// The words roundTripShardMapImportNeeded asks, for WordPresence.
inline const std::vector<std::string_view> kRoundTripShardMapImportWords = {
    "xla.sdy.", "sdy.func_manual_axes", "sdy.manual_computation", "func.call", "call @"};

}  // namespace shardbridge::module::prefilters
