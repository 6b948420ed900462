// runInParts (module_parts.h): the module cut between its functions, the
// parts run on worker threads, their outputs joined in order. Every check
// here guards one way in which a part's output could differ from the same
// functions' output in one run; docs/module.md "Large modules in parts"
// lists them.
#include "module/module_parts.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "module/op_tree_parser.h"
#include "module/part_layout.h"
#include "module/part_workers.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// The outlined manual computation bodies (shard_map_export.cc), numbered by
// one counter per module: `@...body`, `@...body_0`, `@...body_1`, ...
constexpr std::string_view kBodyRef = "@xla.sdy.inlinable_manual_computation_body";
constexpr std::string_view kBodyLine = "\n  func.func private @xla.sdy.inlinable_manual_computation_body";

// Words of an input that parts cannot reproduce: outlined bodies already in
// the module (the counter skips their names), and the collectives the
// manual reduction export lowers (an sdy.all_reduce of an unreduced value,
// any sdy.reduce_scatter), whose channel handles follow the largest handle
// in the whole module.
constexpr std::string_view kRefused[] = {"inlinable_manual_computation_body", "channel_handle", "sdy.reduce_scatter"};
constexpr std::string_view kRefusedTogether[] = {"sdy.all_reduce", "unreduced"};

// Counts `what` in `t`.
size_t occurrences(std::string_view t, std::string_view what) {
  size_t n = 0;
  for (size_t p = t.find(what); p != std::string_view::npos; p = t.find(what, p + what.size())) ++n;
  return n;
}

// Appends `src` with each outlined body's local number k (the bare name is
// 0, `_j` is j + 1) replaced by base + k. False on a name it does not read.
bool appendRenumbered(std::string& dst, std::string_view src, size_t base) {
  if (base == 0) {
    dst.append(src);
    return true;
  }
  size_t from = 0;
  for (size_t p = src.find(kBodyRef); p != std::string_view::npos; p = src.find(kBodyRef, p + 1)) {
    size_t q = p + kBodyRef.size();
    size_t local = 0;
    if (q < src.size() && src[q] == '_') {
      size_t e = q + 1, v = 0;
      while (e < src.size() && e - q <= 12 && src[e] >= '0' && src[e] <= '9') v = v * 10 + static_cast<size_t>(src[e++] - '0');
      if (e == q + 1) return false;
      local = v + 1;
      q = e;
    }
    if (q < src.size() && module_lex::isIdentChar(src[q])) return false;
    size_t global = base + local;
    dst.append(src.substr(from, p - from));
    dst.append(kBodyRef);
    if (global > 0) {
      dst += '_';
      dst += std::to_string(global - 1);
    }
    from = q;
  }
  dst.append(src.substr(from));
  return true;
}

struct PartResult {
  bool ok = false;
  std::string out;
  size_t funcsBegin = 0, bodiesBegin = 0, bodiesEnd = 0;  // in `out`
  size_t bodies = 0;                                       // outlined bodies it defines
  std::vector<PassTiming> timings;
};

// One part's run, its output split into the text before its functions,
// its functions and the bodies its run outlined.
PartResult runPart(std::string_view input, const std::vector<size_t>& cuts, size_t k, const std::vector<Step>& steps) {
  PartResult r;
  std::string_view prefix = input.substr(0, cuts.front());
  std::string_view suffix = input.substr(cuts.back());
  std::string_view slice = input.substr(cuts[k], cuts[k + 1] - cuts[k]);
  std::string text;
  text.reserve(prefix.size() + slice.size() + suffix.size());
  text.append(prefix).append(slice).append(suffix);
  Result<ConvertedModule> ran = runSteps(text, steps);
  if (!ran || !ran->warnings.empty()) return r;
  std::string_view out = ran->text;
  std::optional<size_t> funcsBegin = partFunctionsBegin(out, suffix);
  if (!funcsBegin) return r;
  r.funcsBegin = *funcsBegin;
  size_t middleEnd = out.size() - suffix.size();
  size_t bodies = out.find(kBodyLine, r.funcsBegin - 1);
  r.bodiesBegin = bodies == std::string_view::npos || bodies + 1 > middleEnd ? middleEnd : bodies + 1;
  r.bodiesEnd = middleEnd;
  // After the first body only bodies, numbered 0, 1, ... in order; and no
  // mention of a body's name but its `@` references.
  std::string_view tail = out.substr(r.bodiesBegin - 1, middleEnd - (r.bodiesBegin - 1));
  r.bodies = r.bodiesBegin == middleEnd ? 0 : occurrences(tail, kBodyLine);
  if (occurrences(tail, kFuncLine) != r.bodies) return r;
  for (size_t j = 0, p = tail.find(kBodyLine); j < r.bodies; ++j, p = tail.find(kBodyLine, p + 1)) {
    std::string_view after = tail.substr(p + kBodyLine.size());
    std::string want = j == 0 ? "(" : "_" + std::to_string(j - 1) + "(";
    if (after.substr(0, want.size()) != want) return r;
  }
  if (occurrences(out, kBodyRef.substr(1)) != occurrences(out, kBodyRef)) return r;
  r.timings = std::move(ran->timings);
  r.out = std::move(ran->text);
  r.ok = true;
  return r;
}

}  // namespace

PartOptions partOptionsFromEnv() {
  PartOptions o;
  if (const char* env = std::getenv("SHARDBRIDGE_PART_BYTES"); env && *env) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(env, &end, 10);
    if (*end == '\0') {
      o.partBytes = n;
      o.minBytes = 0;
    }
  }
  return o;
}

std::vector<size_t> partCuts(std::string_view t, size_t partBytes) {
  if (partBytes == 0) return {};
  for (std::string_view w : kRefused)
    if (t.find(w) != std::string_view::npos) return {};
  if (std::all_of(std::begin(kRefusedTogether), std::end(kRefusedTogether),
                  [&](std::string_view w) { return t.find(w) != std::string_view::npos; }))
    return {};
  std::optional<FunctionLayout> layout = functionLayout(t);
  if (!layout) return {};
  const std::vector<size_t>& funcs = layout->funcs;
  size_t begin = layout->begin, end = layout->end;
  if (funcs.size() < 2 || end - begin < 2 * std::max<size_t>(partBytes, 1)) return {};
  // A reference between functions i < j keeps them in one part (no cut at
  // i+1..j).
  std::vector<int> held(funcs.size() + 1, 0);
  size_t owner = 0;
  for (size_t p = t.find('@', begin); p != std::string_view::npos && p < end; p = t.find('@', p + 1)) {
    while (owner + 1 < funcs.size() && funcs[owner + 1] <= p) ++owner;
    auto it = layout->index.find(module_lex::symbolAt(t, p));
    if (it == layout->index.end() || it->second == owner) continue;
    size_t lo = std::min(owner, it->second), hi = std::max(owner, it->second);
    ++held[lo + 1];
    --held[hi + 1];
  }
  std::vector<size_t> cuts{begin};
  int open = 0;
  for (size_t i = 1; i < funcs.size(); ++i) {
    open += held[i];
    if (open == 0 && funcs[i] - cuts.back() >= partBytes && end - funcs[i] >= partBytes / 2) cuts.push_back(funcs[i]);
  }
  if (cuts.size() < 2) return {};
  cuts.push_back(end);
  return cuts;
}

namespace {

// The export's way (partCuts): contiguous runs of functions, the outlined
// bodies renumbered and put after every function.
std::optional<ConvertedModule> runInCuts(std::string_view input, const std::vector<Step>& steps,
                                         const PartOptions& options) {
  std::vector<size_t> cuts = partCuts(input, options.partBytes);
  if (cuts.empty()) return std::nullopt;
  size_t parts = cuts.size() - 1;  // cuts: each part's start, then the end
  unsigned threads = options.threads ? options.threads : op_tree_detail::defaultParseThreads();
  threads = static_cast<unsigned>(std::min<size_t>(threads, parts));
  ConvertedModule out;
  std::string bodies;
  std::string prefixOut;
  size_t base = 0;
  bool ok = runPartsInOrder<PartResult>(
      parts, threads, [&](size_t k) { return runPart(input, cuts, k, steps); },
      [&](size_t k, PartResult r) {
        std::string_view o = r.out;
        std::string_view before = o.substr(0, r.funcsBegin);
        if (k == 0) {
          prefixOut = std::string(before);
          reserveOutput(out.text, o.size(), cuts[1] - cuts[0] + cuts.front() + (input.size() - cuts.back()),
                        input.size());
          out.text.append(prefixOut);
          out.timings = std::move(r.timings);
        } else if (before != prefixOut || !addTimings(out.timings, r.timings)) {
          return false;
        }
        if (!appendRenumbered(out.text, o.substr(r.funcsBegin, r.bodiesBegin - r.funcsBegin), base) ||
            !appendRenumbered(bodies, o.substr(r.bodiesBegin, r.bodiesEnd - r.bodiesBegin), base))
          return false;
        base += r.bodies;
        return true;
      });
  if (!ok) return std::nullopt;
  out.text.append(bodies);
  out.text.append(input.substr(cuts.back()));
  out.parts = parts;
  out.partThreads = threads;
  return out;
}

}  // namespace

std::optional<ConvertedModule> runInParts(std::string_view input, const std::vector<Step>& steps,
                                          const PartOptions& options) {
  if (steps.empty() || input.size() < options.minBytes || options.partBytes == 0) return std::nullopt;
  if (std::all_of(steps.begin(), steps.end(), [](const Step& s) { return s.def->partable; }))
    return runInCuts(input, steps, options);
  return runInGroups(input, steps, options);
}

}  // namespace shardbridge::module
