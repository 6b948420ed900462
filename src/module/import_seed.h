// The shardings of a whole module, for the import of one of its parts
// (module_parts.h runInGroups): each part infers its mesh from all of the
// module's shardings rather than from its own, so that every part writes
// the meshes, and the shardings on them, that one import of the whole
// module writes.
#pragma once
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "shardbridge/hlo/hlo_sharding.h"

namespace shardbridge::module {

struct ImportSeed {
  std::vector<hlo::HloSharding> shardings;          // distinct, in order of their first string in the text
  std::unordered_map<std::string, size_t> index;    // decoded string -> shardings index
  // Set by the parts' imports for each sharding they read (any thread), so
  // that the runner can tell that the parts read all of them.
  std::unique_ptr<std::atomic<bool>[]> used;
};

// The seed of `text`: every `mhlo.sharding = "..."` string of it, decoded
// and read. nullopt when the mesh the whole module infers might not be the
// seed's for every part: a string that does not read (the whole run reports
// it), a V3 leaf (its mesh is the first one's), or shardings upstream's
// inference does not fold (the any-order fallback depends on their order).
std::optional<ImportSeed> importSeedOf(std::string_view text);

}  // namespace shardbridge::module
