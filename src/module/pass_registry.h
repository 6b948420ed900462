// The registry of passes and pipelines (pipelines.cc), as the driver
// (run_passes.cc) reads it: each name's pass function or steps, its
// prefilter and how it may share a rewrite with the step after it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "module/pass.h"
#include "module/word_presence.h"
#include "shardbridge/base/result.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::module {

// One registered name: a pass (run set) or a pipeline (steps set).
struct PassDef {
  PassInfo info;
  PassFn run = nullptr;  // null for a pipeline
  // A pipeline's passes, each given the pipeline options it declares; a
  // step may fix options of its own (`NAME{opt=v}`), which win.
  std::vector<std::string> steps;
  // Words without which the pass has nothing to do: when the text holds
  // none of them the pass is skipped, and with it the parse the pass would
  // need (the tree of the last edited text is only built when a pass runs).
  std::vector<std::string_view> needsAny = {};
  // A test of the whole text for passes whose prefilter is not one word of
  // a list; when set, the pass runs only if it holds (and needsAny, if any).
  // It asks its words of `words`, which lists them (needsWords).
  bool (*needs)(std::string_view text, WordPresence& words) = nullptr;
  std::vector<std::string_view> needsWords = {};
  // A pass whose edits may be left unapplied for a later step that takes
  // them (runOver), when this holds of its tree.
  bool (*defers)(const OpTree&) = nullptr;
  // A pass that can run over the unapplied edits of an earlier step, one
  // of the passes named in runsOver (pass.h runShardMapExportOver): one
  // rewrite and one parse fewer (docs/module.md "Two passes in one rewrite").
  Result<bool> (*runOver)(PassContext&, const Rewriter& pending) = nullptr;
  std::vector<std::string_view> runsOver = {};
  // The pass's edits of a function depend only on that function, the
  // functions it names and the module's text outside its functions (the
  // names it gives are fresh per function, fresh_names.h), so a module cut
  // between its functions may run part by part when every step is partable
  // (module_parts.h; docs/module.md "Large modules in parts").
  bool partable = false;
  // The same where a module is cut into groups of functions that name each
  // other, each part some groups (module_parts.h runInGroups): the pass's
  // edits of a function depend only on its group and the text outside the
  // functions (for xla-sdy-import-shardings, with the whole module's
  // shardings, import_seed.h), and its prefilter, if any, lets it run on
  // every part whose functions it edits.
  bool groupable = false;
  // A pass that may run in groups where it edits nothing: an edit of the
  // whole module's run would have been an edit of the part that holds the
  // functions it reads (sdy-flatten-call-graph clones a function called
  // from two sites, which are in one group; only its clones' names read the
  // whole module).
  bool groupableUnedited = false;
};

// The pass or pipeline named `name`; null when there is none.
const PassDef* findPass(std::string_view name);
// Every registered name, comma-separated (for "unknown pass" errors).
std::string knownPassNames();
// Pipeline options that reach a pass under another name, as (pipeline
// option, pass option): upstream's stablehlo_export.cc feeds
// keep-hlo-sharding-constraints to the shard-map export's
// create-hlo-sharding-constraints.
const std::vector<std::pair<const char*, const char*>>& passOptionAliases();

}  // namespace shardbridge::module
