// runPasses (pipeline.h): expands pipelines into their steps (run_steps.h), runs each pass
// on the op tree of the current text, skips a pass whose prefilter finds
// nothing for it, and applies each pass's edits as one rewrite (or, where
// two passes compose, one rewrite for both). See docs/module.md.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "module/edit_compose.h"
#include "module/pass.h"
#include "module/pass_registry.h"
#include "module/module_parts.h"
#include "module/run_steps.h"
#include "module/word_presence.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {

Result<std::vector<Step>> expandSteps(const std::vector<PassSpec>& passes) {
  // Expand pipelines into passes, each with its defaults and the options given.
  std::vector<Step> steps;
  for (const PassSpec& spec : passes) {
    const PassDef* def = findPass(spec.name);
    if (!def) return makeError(ErrorCode::kNotFound, "unknown pass '" + spec.name + "'; known: " + knownPassNames());
    std::vector<PassSpec> expanded;
    if (def->run) expanded.push_back({spec.name, {}});
    // Every option given must be supported with its value.
    std::map<std::string, std::string, std::less<>> given;
    for (const PassOptionInfo& o : def->info.options) given[o.name] = o.defaultValue;
    for (const auto& [k, v] : spec.options) given[k] = v;
    for (std::string_view s : def->steps) {
      if (s.starts_with("if:")) {
        size_t colon = s.find(':', 3);
        std::string_view conds = s.substr(3, colon - 3);
        bool on = false;
        while (!conds.empty()) {
          size_t bar = conds.find('|');
          auto it = given.find(conds.substr(0, bar));
          if (it != given.end() && (it->second == "true" || it->second == "1")) on = true;
          conds = bar == std::string_view::npos ? std::string_view() : conds.substr(bar + 1);
        }
        if (!on) continue;
        s = s.substr(colon + 1);
      }
      SB_ASSIGN_OR_RETURN(PassSpec fixed, parsePassSpec(s));
      expanded.push_back(std::move(fixed));
    }
    for (const PassOptionInfo& o : def->info.options) {
      bool isDefault = (given[o.name] == "true" || given[o.name] == "1") == (o.defaultValue == "true");
      if (!o.onlyDefault.empty() && !isDefault)
        return makeError(ErrorCode::kUnsupported,
                         "option " + o.name + "=" + given[o.name] + " of " + spec.name + " is not supported: " +
                             o.onlyDefault);
    }
    for (const PassSpec& fixed : expanded) {
      Step step{findPass(fixed.name), {}};
      // The pass's defaults, the pipeline's values for the options it
      // shares, then the options the pipeline fixes for this step.
      for (const PassOptionInfo& o : step.def->info.options) step.options[o.name] = o.defaultValue;
      for (const auto& [k, v] : given) {
        if (step.options.count(k)) step.options[k] = v;
        for (const auto& [from, to] : passOptionAliases())
          if (k == from && step.options.count(to)) step.options[to] = v;
      }
      for (const auto& [k, v] : fixed.options) step.options[k] = v;
      steps.push_back(std::move(step));
    }
  }
  return steps;
}

Result<ConvertedModule> runSteps(std::string_view input, const std::vector<Step>& steps, const ImportSeed* seed) {
  ConvertedModule out;
  // The text the next pass reads: the input itself until a pass changes it
  // (no copy of a module that may be hundreds of megabytes), then the
  // latest pass's output, held in out.text.
  std::string_view current = input;
  bool changed = false;
  // Offsets found in the text a later pass reads are mapped back to `input`.
  std::vector<OffsetMap> maps;
  auto toInput = [&](size_t offset) {
    for (auto it = maps.rbegin(); it != maps.rend(); ++it) offset = it->toOld(offset);
    return offset;
  };
  // The op tree of `current`, kept while a pass leaves the text unchanged
  // (most import passes have nothing to do on most modules).
  std::optional<OpTree> tree;
  bool parsedOnce = false;
  // The prefilters' answers, carried from text to text (word_presence.h);
  // before step k only the words of steps k and later are looked for.
  std::vector<std::vector<std::string_view>> wordsFrom(steps.size() + 1);
  for (size_t k = steps.size(); k-- > 0;) {
    wordsFrom[k] = wordsFrom[k + 1];
    const PassDef& def = *steps[k].def;
    wordsFrom[k].insert(wordsFrom[k].end(), def.needsAny.begin(), def.needsAny.end());
    wordsFrom[k].insert(wordsFrom[k].end(), def.needsWords.begin(), def.needsWords.end());
  }
  WordPresence presence(wordsFrom[0]);
  // Whether a step's prefilter lets it run on `current`.
  auto wanted = [&](const Step& step) {
    const std::vector<std::string_view>& needs = step.def->needsAny;
    if (!needs.empty() &&
        std::none_of(needs.begin(), needs.end(), [&](std::string_view w) { return presence.contains(current, w); }))
      return false;
    return !step.def->needs || step.def->needs(current, presence);
  };
  // Whether a step's prefilter skips it on the text with `pending` applied
  // (edit_compose.h wordsAbsentAfter, without building that text). Its
  // words are looked for here, not asked of `presence`: its first question
  // about a text finds every later step's words at once, and the answers
  // would not outlive this rewrite's many edits. Where `presence` already
  // knows them absent from this text, only the edits' surroundings are
  // searched.
  auto skippedAfter = [&](const Step& step, const Rewriter& pending) {
    const std::vector<std::string_view>& words = step.def->needsAny;
    if (step.def->needs || words.empty()) return false;
    bool absent = std::all_of(words.begin(), words.end(), [&](std::string_view w) { return presence.knownAbsent(w); });
    return wordsAbsentAfter(current, pending, words, absent);
  };
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& step = steps[k];
    out.timings.push_back({step.def->info.name, true});
    PassTiming* timing = &out.timings.back();
    Clock::time_point asked = Clock::now();
    presence.wantOnly(wordsFrom[k]);
    // A pass its prefilter skips has nothing to do; it is skipped with the
    // tree at hand too (the words' presence is known for the text by then),
    // so that whether it runs does not hang on what ran before it. Run on
    // the tree, a pass could still refuse what it does not rewrite (a
    // malformed frontend dictionary the round-trip import of shardy
    // attributes reads), where the same pass alone, skipped, passed the
    // text through (mlir_import_fuzz).
    bool runs = wanted(step);
    timing->prefilter = since(asked);
    if (!runs) continue;
    timing->skipped = false;
    std::vector<ModuleWarning> warnings;
    Rewriter rw(current);
    Status ran = [&]() -> Status {
      if (!tree) {
        Clock::time_point t0 = Clock::now();
        SB_ASSIGN_OR_RETURN(OpTree parsed, parseOpTree(current));
        tree = std::move(parsed);
        parsedOnce = true;
        timing->parse = since(t0);
        timing->parsed = true;
      }
      PassContext ctx{*tree, rw, step.options, warnings, seed};
      Clock::time_point t0 = Clock::now();
      Status status = step.def->run(ctx);
      timing->run = since(t0);
      return status;
    }();
    for (ModuleWarning& w : warnings) out.warnings.push_back({toInput(w.offset), std::move(w.message)});
    if (!ran) {
      Error e = ran.error();
      e.mapOffsets(toInput);
      return e;
    }
    if (rw.empty()) continue;
    // A later step on this tree, over these edits unapplied, when it takes
    // this pass's edits and the two compose here; else (or on its error,
    // which the two-step path then reports as it finds it) the usual steps.
    // Steps between the two are passed over only when their prefilter would
    // skip them on the rewritten text. The later step's own prefilter is
    // asked of this text: when it lets the pass run for nothing, the pass
    // finds nothing to do.
    if (step.def->defers && step.def->defers(*tree)) {
      size_t j = k + 1;
      auto takes = [&](const Step& later) {
        const std::vector<std::string_view>& from = later.def->runsOver;
        return later.def->runOver && std::find(from.begin(), from.end(), step.def->info.name) != from.end();
      };
      Clock::time_point asked = Clock::now();
      while (j < steps.size() && !takes(steps[j]) && skippedAfter(steps[j], rw)) ++j;
      bool compose = j < steps.size() && takes(steps[j]) && wanted(steps[j]);
      timing->prefilter += since(asked);
      if (compose) {
        const Step& next = steps[j];
        std::vector<ModuleWarning> nextWarnings;
        Rewriter both(current);
        PassContext ctx{*tree, both, next.options, nextWarnings, seed};
        Clock::time_point t0 = Clock::now();
        Result<bool> composed = next.def->runOver(ctx, rw);
        double took = since(t0);
        if (composed && *composed) {
          for (ModuleWarning& w : nextWarnings) out.warnings.push_back({toInput(w.offset), std::move(w.message)});
          rw = std::move(both);
          // The steps passed over were skipped; the one that took the edits ran.
          for (size_t s = k + 1; s <= j; ++s) out.timings.push_back({steps[s].def->info.name, true});
          timing = &out.timings.back();
          timing->skipped = false;
          timing->run = took;
          k = j;
        }
      }
    }
    // The edits own their text, so the tree can go before the new text is
    // built (the two are the largest things held at once).
    tree.reset();
    OffsetMap map;
    Clock::time_point t0 = Clock::now();
    SB_ASSIGN_OR_RETURN(std::string next, rw.take(&map));
    out.text = std::move(next);
    timing->apply = since(t0);
    timing->applied = true;
    current = out.text;
    changed = true;
    presence.rewritten(current, map);
    maps.push_back(std::move(map));
  }
  // When every pass was skipped by its prefilter nothing has read the text:
  // it is still parsed once, so that malformed input is an error rather than
  // passed through unchanged.
  if (!parsedOnce) SB_TRY(parseOpTree(current));
  if (!changed) out.text = std::string(input);
  return out;
}

Result<ConvertedModule> runPasses(std::string_view input, const std::vector<PassSpec>& passes) {
  SB_ASSIGN_OR_RETURN(std::vector<Step> steps, expandSteps(passes));
  // A large module whose steps allow it runs cut between its functions
  // (module_parts.h), else whole; the output is the same.
  if (std::optional<ConvertedModule> parts = runInParts(input, steps, partOptionsFromEnv())) return std::move(*parts);
  return runSteps(input, steps);
}

}  // namespace shardbridge::module
