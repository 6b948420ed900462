// runInGroups and partGroups (module_parts.h), and importSeedOf
// (import_seed.h): the import pipelines in parts. The import cannot cut a
// module into contiguous runs of functions: the bodies an export outlined
// sit after every function and each is named from a function near the top.
// So the functions are grouped (a function with every function it names)
// and a part is some groups; each part's output functions go back to their
// places in the module. Every check guards one way in which a part's output
// could differ from the same functions' output in one run; docs/module.md
// "Large modules in parts" lists them.
#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_set>

#include "module/import_seed.h"
#include "module/module_parts.h"
#include "module/op_tree_parser.h"
#include "module/part_layout.h"
#include "module/part_workers.h"
#include "module/pass_registry.h"
#include "module/scanner.h"
#include "module/text_lex.h"
#include "shardbridge/convert/mesh_inference.h"

namespace shardbridge::module {
namespace {

size_t rootOf(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

std::vector<std::vector<size_t>> groupsOf(std::string_view t, const FunctionLayout& l, size_t partBytes) {
  size_t n = l.funcs.size();
  if (n < 2 || partBytes == 0 || l.end - l.begin < 2 * partBytes) return {};
  // A function and each function it names are one group.
  std::vector<size_t> parent(n);
  std::iota(parent.begin(), parent.end(), size_t{0});
  size_t owner = 0;
  for (size_t p = t.find('@', l.begin); p != std::string_view::npos && p < l.end; p = t.find('@', p + 1)) {
    while (owner + 1 < n && l.funcs[owner + 1] <= p) ++owner;
    auto it = l.index.find(module_lex::symbolAt(t, p));
    if (it == l.index.end() || it->second == owner) continue;
    size_t a = rootOf(parent, owner), b = rootOf(parent, it->second);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  // Groups in order of their first function, packed into parts of about
  // partBytes; a last part under half of that joins the one before.
  std::vector<size_t> groupOfRoot(n, SIZE_MAX);
  std::vector<std::vector<size_t>> parts;
  std::vector<size_t> bytes;
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < n; ++i) {
    size_t r = rootOf(parent, i);
    if (groupOfRoot[r] == SIZE_MAX) {
      groupOfRoot[r] = groups.size();
      groups.emplace_back();
    }
    groups[groupOfRoot[r]].push_back(i);
  }
  for (const std::vector<size_t>& g : groups) {
    if (parts.empty() || bytes.back() >= partBytes) {
      parts.emplace_back();
      bytes.push_back(0);
    }
    for (size_t i : g) {
      parts.back().push_back(i);
      bytes.back() += l.funcEnd(i) - l.funcs[i];
    }
  }
  if (parts.size() >= 2 && bytes.back() < partBytes / 2) {
    std::vector<size_t> last = std::move(parts.back());
    parts.pop_back();
    parts.back().insert(parts.back().end(), last.begin(), last.end());
  }
  if (parts.size() < 2) return {};
  for (std::vector<size_t>& p : parts) std::sort(p.begin(), p.end());
  return parts;
}

struct GroupResult {
  bool ok = false;
  std::string out;
  size_t inBytes = 0;    // the part's input text
  size_t funcsBegin = 0;  // in `out`: its first function's line (the end of its functions when none is left)
  std::vector<std::pair<size_t, TextSpan>> funcs;  // each output function: its index in the module, its text
  std::vector<PassTiming> timings;
};

// Part `funcs` (indices in order) of `input`, run; its output functions
// named and checked to be its input functions that remain, in order, each a
// whole `  func.func ... {` to `  }` with nothing after it.
GroupResult runGroup(std::string_view input, const FunctionLayout& l, const std::vector<size_t>& funcs,
                     const std::vector<Step>& steps, const ImportSeed* seed) {
  GroupResult r;
  std::string_view prefix = input.substr(0, l.begin), suffix = input.substr(l.end);
  std::string text(prefix);
  for (size_t i : funcs) text.append(input.substr(l.funcs[i], l.funcEnd(i) - l.funcs[i]));
  text.append(suffix);
  r.inBytes = text.size();
  Result<ConvertedModule> ran = runSteps(text, steps, seed);
  text = std::string();
  if (!ran || !ran->warnings.empty()) return r;
  std::string_view out = ran->text;
  std::optional<size_t> funcsBegin = partFunctionsBegin(out, suffix);
  if (!funcsBegin) return r;
  r.funcsBegin = *funcsBegin;
  size_t middleEnd = out.size() - suffix.size();
  size_t next = 0;  // in `funcs`
  for (size_t at = r.funcsBegin; at < middleEnd;) {
    size_t line = out.find(kFuncLine, at);
    size_t end = line == std::string_view::npos || line + 1 > middleEnd ? middleEnd : line + 1;
    std::string_view name = definedSymbol(out, at - 1);
    auto it = l.index.find(name);
    if (name.empty() || it == l.index.end()) return r;
    while (next < funcs.size() && funcs[next] != it->second) ++next;
    if (next == funcs.size()) return r;
    ++next;
    if (!out.substr(at, end - at).ends_with("\n  }\n")) return r;
    r.funcs.push_back({it->second, {at, end}});
    at = end;
  }
  r.timings = std::move(ran->timings);
  r.out = std::move(ran->text);
  r.ok = true;
  return r;
}

}  // namespace

std::optional<ImportSeed> importSeedOf(std::string_view t) {
  // The round-trip form's shardings win over mhlo.sharding where both are
  // (the collect passes those over), and its meshes are the module's.
  if (t.find("xla.sdy.sharding") != std::string_view::npos || t.find("xla.sdy.meshes") != std::string_view::npos)
    return std::nullopt;
  ImportSeed seed;
  std::unordered_set<std::string_view> literals;
  constexpr std::string_view kKey = "mhlo.sharding = \"";
  for (size_t p = t.find(kKey); p != std::string_view::npos; p = t.find(kKey, p + 1)) {
    size_t b = p + kKey.size() - 1, e = b + 1;
    while (e < t.size() && t[e] != '"') e += t[e] == '\\' ? 2 : 1;
    if (e >= t.size()) return std::nullopt;
    std::string_view literal = t.substr(b, e + 1 - b);
    if (!literals.insert(literal).second) continue;
    Result<std::string> decoded = module_detail::decodeStringLiteral(literal);
    if (!decoded) return std::nullopt;
    if (seed.index.count(*decoded)) continue;
    Result<hlo::HloSharding> s = readMhloSharding(*decoded);
    if (!s) return std::nullopt;
    for (const hlo::HloSharding* leaf : hlo::leavesOf(*s))
      if (leaf->isNamed()) return std::nullopt;
    seed.index.emplace(std::move(*decoded), seed.shardings.size());
    seed.shardings.push_back(std::move(*s));
  }
  // Without V3 leaves and with the upstream fold (no any-order fallback),
  // the inferred mesh does not depend on the shardings' order
  // (convert/mesh_inference.h), so a part's collect order does not matter.
  if (!seed.shardings.empty()) {
    sdy::Context ctx;
    if (!convert::inferModuleMesh(ctx, seed.shardings, convert::AnyOrderOptions{})) return std::nullopt;
  }
  seed.used = std::make_unique<std::atomic<bool>[]>(seed.shardings.size());
  return seed;
}

std::vector<std::vector<size_t>> partGroups(std::string_view input, size_t partBytes) {
  std::optional<FunctionLayout> layout = functionLayout(input);
  if (!layout) return {};
  return groupsOf(input, *layout, partBytes);
}

std::optional<ConvertedModule> runInGroups(std::string_view input, const std::vector<Step>& steps,
                                           const PartOptions& options) {
  if (steps.empty() || input.size() < options.minBytes || options.partBytes == 0) return std::nullopt;
  // A step that is not groupable must be one a word prefilter skips (then
  // skipped in every part, it is skipped in the whole: its words are in no
  // part, so in no function and not outside them), or one that edits
  // nothing in any part (PassDef::groupableUnedited).
  bool seeded = false;
  for (const Step& s : steps) {
    if (!s.def->groupable && !s.def->groupableUnedited && (s.def->needsAny.empty() || s.def->needs))
      return std::nullopt;
    seeded = seeded || s.def->run == runImportShardings;
  }
  std::optional<FunctionLayout> layout = functionLayout(input);
  if (!layout) return std::nullopt;
  const FunctionLayout& l = *layout;
  size_t n = l.funcs.size();
  // Functions printed as MLIR prints them, each ending at its `  }` line, so
  // that a function a part removes leaves nothing the join must place.
  for (size_t i = 0; i < n; ++i)
    if (!input.substr(l.funcs[i], l.funcEnd(i) - l.funcs[i]).ends_with("\n  }\n")) return std::nullopt;
  std::optional<ImportSeed> seed;
  if (seeded) {
    if (input.substr(0, l.begin).find("mhlo.sharding") != std::string_view::npos ||
        input.substr(l.end).find("mhlo.sharding") != std::string_view::npos)
      return std::nullopt;
    seed = importSeedOf(input);
    if (!seed) return std::nullopt;
  }
  std::vector<std::vector<size_t>> parts = groupsOf(input, l, options.partBytes);
  if (parts.empty()) return std::nullopt;
  unsigned threads = options.threads ? options.threads : op_tree_detail::defaultParseThreads();
  threads = static_cast<unsigned>(std::min<size_t>(threads, parts.size()));

  // The join: function i goes out once every part up to its own is in.
  std::vector<size_t> partOf(n);
  for (size_t k = 0; k < parts.size(); ++k)
    for (size_t i : parts[k]) partOf[i] = k;
  std::vector<std::string> outs(parts.size());
  std::vector<size_t> pending(parts.size(), 0);  // a part's functions not yet written
  std::vector<TextSpan> spanOf(n, TextSpan{0, 0});  // empty: removed (a kept function's text is never empty)
  size_t nextOut = 0;
  ConvertedModule out;
  std::string prefixOut;
  bool ok = runPartsInOrder<GroupResult>(
      parts.size(), threads,
      [&](size_t k) { return runGroup(input, l, parts[k], steps, seed ? &*seed : nullptr); },
      [&](size_t k, GroupResult r) {
        std::string_view before = std::string_view(r.out).substr(0, r.funcsBegin);
        if (k == 0) {
          prefixOut = std::string(before);
          reserveOutput(out.text, r.out.size(), r.inBytes, input.size());
          out.text.append(prefixOut);
          out.timings = r.timings;
        } else if (before != prefixOut || !addTimings(out.timings, r.timings)) {
          return false;
        }
        for (size_t s = 0; s < steps.size(); ++s)
          if (!steps[s].def->groupable && !r.timings[s].skipped &&
              !(steps[s].def->groupableUnedited && !r.timings[s].applied))
            return false;
        for (const auto& [i, span] : r.funcs) {
          spanOf[i] = span;
          ++pending[k];
        }
        outs[k] = std::move(r.out);
        if (pending[k] == 0) outs[k] = std::string();
        for (; nextOut < n && partOf[nextOut] <= k; ++nextOut) {
          if (spanOf[nextOut].end == spanOf[nextOut].begin) continue;
          size_t p = partOf[nextOut];
          out.text.append(spanOf[nextOut].in(outs[p]));
          if (--pending[p] == 0) outs[p] = std::string();
        }
        return true;
      });
  if (!ok || nextOut != n) return std::nullopt;
  if (seed)
    for (size_t i = 0; i < seed->shardings.size(); ++i)
      if (!seed->used[i].load(std::memory_order_relaxed)) return std::nullopt;
  out.text.append(input.substr(l.end));
  out.parts = parts.size();
  out.partThreads = threads;
  return out;
}

}  // namespace shardbridge::module
