// Fuzz target for the op tree's parse (op_tree.h) on one thread and on
// several (OpTreeParseOptions; src/module/op_tree_split.cc): arbitrary bytes
// up to 64 KiB never crash it; an error is located inside (or just past) the
// input and is never kInternal; and the parse split over 2 to 4 threads
// (any text size, chosen by the input's length) gives exactly the
// one-thread parse's tree, or its error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shardbridge/module/op_tree.h"

namespace {

using namespace shardbridge;
using namespace shardbridge::module;

void addSpan(std::string& out, TextSpan s) {
  out += std::to_string(s.begin);
  out += '-';
  out += std::to_string(s.end);
  out += ' ';
}

// The tree's structure and spans, or the error, as text.
std::string summary(const Result<OpTree>& r) {
  if (!r.has_value())
    return "error " + std::to_string(static_cast<int>(r.error().code)) + " " +
           std::to_string(r.error().offset) + " " + r.error().message;
  std::string out;
  for (const OpNode& n : r->ops) {
    out += n.name;
    out += ' ';
    addSpan(out, n.whole);
    addSpan(out, n.line);
    addSpan(out, n.signature);
    addSpan(out, n.loc);
    addSpan(out, n.dict.whole);
    out += std::to_string(n.parent) + " " + std::to_string(n.depth) + " " + std::to_string(n.uses.size()) + " " +
           std::to_string(n.dict.entries.size()) + " " + std::to_string(n.funcArgs().size()) + " " +
           std::to_string(n.resultDefs.size());
    for (const Region& reg : n.regions)
      for (const Block& b : reg.blocks) {
        out += " [";
        addSpan(out, b.label);
        for (int op : b.ops) out += std::to_string(op) + ",";
        out += "]";
      }
    out += '\n';
  }
  for (int op : r->topLevel) out += std::to_string(op) + ",";
  for (TextSpan a : r->aliases) addSpan(out, a);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto one = parseOpTree(text, OpTreeParseOptions{1, 0});
  if (!one.has_value() &&
      (one.error().code == ErrorCode::kInternal || (one.error().hasOffset() && one.error().offset > size)))
    __builtin_trap();
  unsigned threads = 2 + static_cast<unsigned>(size % 3);
  auto split = parseOpTree(text, OpTreeParseOptions{threads, 0});
  if (summary(one) != summary(split)) __builtin_trap();
  return 0;
}
