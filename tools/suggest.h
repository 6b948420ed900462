// "did you mean ...?" for mistyped subcommands and options.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace shardbridge::tools {

// The candidate closest to `typed` by edit distance (insertions, deletions,
// substitutions and swaps of neighbours each cost 1), when it is close
// enough to be a typo: at most 1 edit for names up to 4 characters, 2 up
// to 8, else 3. Empty when none is.
//   closestName("hol", {"hlo", "sdy"}) -> "hlo"
std::string closestName(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace shardbridge::tools
