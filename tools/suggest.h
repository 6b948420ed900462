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

// Help text with every line longer than `width` broken at spaces: an option
// line's continuation lines start under its description, any other line's
// under its own first character. A word longer than the width stays whole.
std::string wrapHelp(std::string_view text, size_t width = 80);

}  // namespace shardbridge::tools
