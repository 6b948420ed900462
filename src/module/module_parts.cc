// runInParts (module_parts.h): the module cut between its functions, the
// parts run on worker threads, their outputs joined in order. Every check
// here guards one way in which a part's output could differ from the same
// functions' output in one run; docs/module.md "Large modules in parts"
// lists them.
#include "module/module_parts.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "base/huge_pages.h"
#include "module/op_tree_parser.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// The outlined manual computation bodies (shard_map_export.cc), numbered by
// one counter per module: `@...body`, `@...body_0`, `@...body_1`, ...
constexpr std::string_view kBodyRef = "@xla.sdy.inlinable_manual_computation_body";
constexpr std::string_view kBodyLine = "\n  func.func private @xla.sdy.inlinable_manual_computation_body";
constexpr std::string_view kFuncLine = "\n  func.func ";

// Words of an input that parts cannot reproduce: outlined bodies already in
// the module (the counter skips their names), and the collectives the
// manual reduction export lowers (an sdy.all_reduce of an unreduced value,
// any sdy.reduce_scatter), whose channel handles follow the largest handle
// in the whole module.
constexpr std::string_view kRefused[] = {"inlinable_manual_computation_body", "channel_handle", "sdy.reduce_scatter"};
constexpr std::string_view kRefusedTogether[] = {"sdy.all_reduce", "unreduced"};

bool symbolChar(char c) { return module_lex::isIdentChar(c) || c == '$' || c == '.' || c == '-'; }

// The symbol named at `at` (just after an `@`): a bare name, or a quoted
// one without its quotes (`@"f"` is `@f`).
std::string_view symbolAt(std::string_view t, size_t at) {
  if (at < t.size() && t[at] == '"') {
    size_t close = t.find('"', at + 1);
    return close == std::string_view::npos ? std::string_view() : t.substr(at + 1, close - at - 1);
  }
  size_t e = at;
  while (e < t.size() && symbolChar(t[e])) ++e;
  return t.substr(at, e - at);
}

// The symbol a `  func.func [visibility] @name` line defines.
std::string_view definedSymbol(std::string_view t, size_t line) {
  size_t p = line + kFuncLine.size();
  for (std::string_view v : {"private ", "public ", "nested "})
    if (t.substr(p, v.size()) == v) p += v.size();
  if (p >= t.size() || t[p] != '@') return {};
  return symbolAt(t, p + 1);
}

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
    if (q < src.size() && symbolChar(src[q])) return false;
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
  if (out.size() < suffix.size() || out.substr(out.size() - suffix.size()) != suffix) return r;
  size_t middleEnd = out.size() - suffix.size();
  size_t first = out.find(kFuncLine);
  r.funcsBegin = first == std::string_view::npos || first + 1 > middleEnd ? middleEnd : first + 1;
  if (r.funcsBegin == 0) return r;
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
  if (partBytes == 0 || t.size() > kMaxTreeText) return {};
  size_t first = t.find(kFuncLine);
  if (first == std::string_view::npos) return {};
  size_t begin = first + 1;
  // The module's closing `}`: the last line that starts with one.
  size_t close = t.rfind("\n}");
  if (close == std::string_view::npos || close + 1 < begin) return {};
  size_t end = close + 1;
  std::string_view prefix = t.substr(0, begin), region = t.substr(begin, end - begin), suffix = t.substr(end);
  // Outside the functions: no function, and after the `}` only `#` alias
  // lines (`#loc1 = loc(...)`) and blank lines.
  if (prefix.find("func.func") != std::string_view::npos || suffix.find("func.func") != std::string_view::npos) return {};
  for (size_t p = suffix.find('\n'); p != std::string_view::npos && p + 1 < suffix.size(); p = suffix.find('\n', p + 1))
    if (char c = suffix[p + 1]; c != '#' && c != '\n' && c != '\r' && c != ' ') return {};
  for (std::string_view w : kRefused)
    if (t.find(w) != std::string_view::npos) return {};
  if (std::all_of(std::begin(kRefusedTogether), std::end(kRefusedTogether),
                  [&](std::string_view w) { return t.find(w) != std::string_view::npos; }))
    return {};
  // The function lines; any line at column 0 between them (a second module,
  // a `}` closing something else) refuses the cut.
  std::vector<size_t> funcs{begin};
  for (size_t p = region.find('\n'); p != std::string_view::npos && p + 1 < region.size(); p = region.find('\n', p + 1)) {
    char c = region[p + 1];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return {};
    if (region.compare(p, kFuncLine.size(), kFuncLine) == 0) funcs.push_back(begin + p + 1);
  }
  if (funcs.size() < 2 || region.size() < 2 * std::max<size_t>(partBytes, 1)) return {};
  std::unordered_map<std::string_view, size_t> defined;
  defined.reserve(funcs.size() * 2);
  for (size_t i = 0; i < funcs.size(); ++i) {
    std::string_view name = definedSymbol(t, funcs[i] - 1);
    if (name.empty() || !defined.emplace(name, i).second) return {};
  }
  // No reference to a function from outside the functions; a reference
  // between functions i < j keeps them in one part (no cut at i+1..j).
  auto refersToFunction = [&](std::string_view s) {
    for (size_t p = s.find('@'); p != std::string_view::npos; p = s.find('@', p + 1))
      if (defined.count(symbolAt(s, p + 1))) return true;
    return false;
  };
  if (refersToFunction(prefix) || refersToFunction(suffix)) return {};
  std::vector<int> held(funcs.size() + 1, 0);
  size_t owner = 0;
  for (size_t p = t.find('@', begin); p != std::string_view::npos && p < end; p = t.find('@', p + 1)) {
    while (owner + 1 < funcs.size() && funcs[owner + 1] <= p) ++owner;
    auto it = defined.find(symbolAt(t, p + 1));
    if (it == defined.end() || it->second == owner) continue;
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

std::optional<ConvertedModule> runInParts(std::string_view input, const std::vector<Step>& steps,
                                          const PartOptions& options) {
  if (steps.empty() || input.size() < options.minBytes) return std::nullopt;
  for (const Step& s : steps)
    if (!s.def->partable) return std::nullopt;
  std::vector<size_t> cuts = partCuts(input, options.partBytes);
  if (cuts.empty()) return std::nullopt;
  size_t parts = cuts.size() - 1;  // cuts: each part's start, then the end
  unsigned threads = options.threads ? options.threads : op_tree_detail::defaultParseThreads();
  threads = static_cast<unsigned>(std::min<size_t>(threads, parts));

  // Workers run parts in order, at most `window` ahead of the join.
  const size_t window = 2 * static_cast<size_t>(threads);
  std::mutex m;
  std::condition_variable cv;
  size_t next = 0, joined = 0;
  bool stop = false;
  std::vector<std::optional<PartResult>> results(parts);
  auto work = [&] {
    while (true) {
      size_t k;
      {
        std::unique_lock lock(m);
        cv.wait(lock, [&] { return stop || next >= parts || next < joined + window; });
        if (stop || next >= parts) return;
        k = next++;
      }
      PartResult r = runPart(input, cuts, k, steps);
      std::lock_guard lock(m);
      if (!r.ok) stop = true;
      results[k] = std::move(r);
      cv.notify_all();
    }
  };
  std::vector<std::thread> workers;
  if (threads > 1)
    for (unsigned i = 0; i < threads; ++i) workers.emplace_back(work);

  ConvertedModule out;
  std::string bodies;
  std::string prefixOut;
  size_t base = 0;
  bool ok = true;
  for (size_t k = 0; k < parts && ok; ++k) {
    PartResult r;
    if (threads > 1) {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return results[k].has_value() || stop; });
      if (!results[k]) {
        ok = false;
        break;
      }
      r = std::move(*results[k]);
      results[k].reset();
      joined = k + 1;
      cv.notify_all();
    } else {
      r = runPart(input, cuts, k, steps);
    }
    if (!r.ok) {
      ok = false;
      break;
    }
    std::string_view o = r.out;
    std::string_view before = o.substr(0, r.funcsBegin);
    if (k == 0) {
      prefixOut = std::string(before);
      // The output is about as much larger than the input as the first
      // part's is: reserved once, so that it is not copied as it grows.
      double ratio = static_cast<double>(o.size()) / static_cast<double>(cuts[1] - cuts[0] + cuts.front() +
                                                                          (input.size() - cuts.back()));
      out.text.reserve(static_cast<size_t>(ratio * 1.05 * static_cast<double>(input.size())) + (size_t{1} << 16));
      base::adviseHugePages(out.text.data(), out.text.capacity());
      out.text.append(prefixOut);
      out.timings = r.timings;
    } else {
      if (before != prefixOut || r.timings.size() != out.timings.size()) {
        ok = false;
        break;
      }
      for (size_t s = 0; s < r.timings.size(); ++s) {
        PassTiming& sum = out.timings[s];
        const PassTiming& t = r.timings[s];
        sum.skipped = sum.skipped && t.skipped;
        sum.parsed = sum.parsed || t.parsed;
        sum.applied = sum.applied || t.applied;
        sum.prefilter += t.prefilter;
        sum.parse += t.parse;
        sum.run += t.run;
        sum.apply += t.apply;
      }
    }
    ok = appendRenumbered(out.text, o.substr(r.funcsBegin, r.bodiesBegin - r.funcsBegin), base) &&
         appendRenumbered(bodies, o.substr(r.bodiesBegin, r.bodiesEnd - r.bodiesBegin), base);
    base += r.bodies;
  }
  if (threads > 1) {
    {
      std::lock_guard lock(m);
      stop = true;
      cv.notify_all();
    }
    for (std::thread& w : workers) w.join();
  }
  if (!ok) return std::nullopt;
  out.text.append(bodies);
  out.text.append(input.substr(cuts.back()));
  out.parts = parts;
  out.partThreads = threads;
  return out;
}

}  // namespace shardbridge::module
