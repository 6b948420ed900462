#include "suggest.h"

#include <algorithm>

namespace shardbridge::tools {
namespace {

// Optimal string alignment distance (Damerau-Levenshtein without repeated
// edits of one substring).
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closestName(std::string_view typed, const std::vector<std::string>& candidates) {
  if (typed.size() > 64) return "";
  const size_t allowed = typed.size() <= 4 ? 1 : typed.size() <= 8 ? 2 : 3;
  std::string best;
  size_t bestDistance = allowed + 1;
  for (const std::string& c : candidates) {
    size_t d = editDistance(typed, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

std::string wrapHelp(std::string_view text, size_t width) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
    start = end == std::string_view::npos ? text.size() : end + 1;
    const bool hadNewline = end != std::string_view::npos;
    if (line.size() <= width) {
      out.append(line);
      if (hadNewline) out += '\n';
      continue;
    }
    // The hanging indent: an option line ("  --name TEXT   description")
    // continues under the description, any other under its first character.
    size_t lead = line.find_first_not_of(' ');
    size_t indent = lead;
    if (lead == 2) {  // CLI11 indents option and positional lines by two
      size_t gap = line.find("  ", lead);
      if (gap != std::string_view::npos) {
        size_t desc = line.find_first_not_of(' ', gap);
        if (desc != std::string_view::npos && desc < width / 2) indent = desc;
      }
    }
    if (indent == std::string_view::npos || indent >= width / 2) indent = 0;
    std::string buffer;
    while (line.size() > width) {
      size_t cut = line.rfind(' ', width);
      if (cut == std::string_view::npos || cut <= indent) {
        cut = line.find(' ', width);
        if (cut == std::string_view::npos) break;
      }
      std::string_view head = line.substr(0, cut);
      while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
      out.append(head);
      out += '\n';
      size_t next = line.find_first_not_of(' ', cut);
      if (next == std::string_view::npos) {
        line = {};
        break;
      }
      std::string rest = std::string(indent, ' ') + std::string(line.substr(next));
      buffer = std::move(rest);
      line = buffer;
    }
    out.append(line);
    if (hadNewline) out += '\n';
  }
  return out;
}

}  // namespace shardbridge::tools
