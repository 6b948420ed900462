// What listing.cc (HLO dumps, sharding files, printing) and listing_mlir.cc
// (MLIR modules) share: lexing helpers and the naming of HLO shardings on
// an inferred mesh.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/dump/listing.h"

namespace shardbridge::dump::detail {

bool isBlank(char c);

// Offset of the first byte after blanks and `//` / `/* */` comments (and
// `#` comments, for pbtxt).
size_t firstSignificant(std::string_view data, bool hashComments = false);

// Whether `s` starts with `word` followed by a non-identifier byte.
bool startsWithWord(std::string_view s, std::string_view word);

// Tabs and line breaks as blanks (one field of the text output).
std::string oneLine(std::string s);

// A row to import: the sharding to import, the ranks of its values and
// whether it is named as a sharding_per_value.
struct Pending {
  size_t row = 0;
  hlo::HloSharding form;
  bool perValue = false;
};

// Fills the named form of the `pending` rows of `listing`: mesh inference
// over all of them (or options.mesh), then the import of each. The meshes go
// after those already listed (an MLIR module's own); a name already taken by
// a different mesh is renamed NAME_1, NAME_2, ... (an error for every
// pending row when it is --mesh's).
void nameShardings(sdy::Context& ctx, Listing& listing, const ListOptions& options,
                   std::vector<Pending>& pending);

// The rows of an MLIR file (one or several modules) into `listing`.
// Errors: scanMlir's, a module mesh that does not parse or verify, a mesh
// name defined twice in one module (located).
Status listMlir(sdy::Context& ctx, std::string_view data, const ListOptions& options, Listing& listing);

}  // namespace shardbridge::dump::detail
