// The old scanner's events (scanner.h) read off an op tree that a pass has
// already parsed, so that the conversion of a module's shardings does not
// scan its text again (twice: once to collect the meshes, once to rewrite).
// Internal to src/module/.
#pragma once

#include <memory>

#include "module/scanner.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/op_tree.h"

namespace shardbridge::module_detail {

// Calls `visitor` as scanText(span.in(tree.text), visitor) would, with every
// offset relative to span.begin: onModule and onDict(kModule) for the first
// top-level `module` op, onMesh, onDict for the interesting dictionaries
// (isInterestingDict) of func arguments, func results and ops, and
// onOtherSdyOp, onConstraint and onManualComputation (custom form), in
// text order, each dictionary with the manual scope the scanner gives it.
//
// Returns false, having called nothing, when the span holds a construct
// whose events this walk does not reproduce exactly; the caller then scans
// the text: an sdy.sharding_constraint or sdy.manual_computation not in the
// common spelling (a dictionary, a function type, a comment or line break
// inside its brackets, not at a line's start, anything the scanner would
// reject), an op with more than one dictionary outside its regions, or a
// `mhlo.frontend_attributes` dictionary that nests another one.
// `summary`, when given, receives what scanText returns.
// Errors: the visitor's, and OpTypeReader's on a malformed type.
//
// `plan`, when given, keeps what the walk reads off the tree for `span`, so
// that a second visitor of the same tree and span (a conversion's collect,
// then its rewrite) is replayed the same events without walking the ops
// again. The tree must outlive the plan's use. With `keepOpTypes`, the op
// types read for the first visitor that wants value dictionaries are kept
// for the next one (an import's collect and rewrite both read them; an
// export's collect does not, and keeping them would only add to its peak).
class TreeScanPlan {
 public:
  explicit TreeScanPlan(bool keepOpTypes = false);
  ~TreeScanPlan();
  TreeScanPlan(TreeScanPlan&&) noexcept;
  TreeScanPlan& operator=(TreeScanPlan&&) noexcept;
  struct Impl;  // what the walk read (tree_scan.cc)

 private:
  friend Result<bool> scanTree(const module::OpTree&, module::TextSpan, ScanVisitor&, ScanSummary*, TreeScanPlan*);
  std::unique_ptr<Impl> impl_;
  bool keepOpTypes_ = false;
};
Result<bool> scanTree(const module::OpTree& tree, module::TextSpan span, ScanVisitor& visitor,
                      ScanSummary* summary = nullptr, TreeScanPlan* plan = nullptr);

// Whether `span` of `tree` holds a top-level alias definition, whose lines
// collectTypeAliases must read: only the implicit module of a file without
// `module` does, since the parser refuses an alias inside a module. The
// lines' search was about 1 % of a conversion.
inline bool aliasLinesIn(const module::OpTree& tree, module::TextSpan span) {
  for (const module::TextSpan& a : tree.aliases)
    if (a.begin >= span.begin && a.end <= span.end) return true;
  return false;
}


}  // namespace shardbridge::module_detail

namespace shardbridge::module {

// exportModule(span.in(tree.text), options) (convert_module.h), with the
// events read off `tree` when scanTree can, else by scanning the text as
// exportModule does. Output, warnings and errors are exportModule's, with
// offsets relative to span.begin.
Result<ConvertedModule> exportModuleOnTree(const OpTree& tree, TextSpan span, const ExportModuleOptions& options);
struct ImportSeed;
// importModule (convert_module.h) likewise; with a seed (a part of a
// module, import_seed.h), its mesh is the one the seed's shardings infer,
// and a sharding the seed lacks is an error.
Result<ConvertedModule> importModuleOnTree(const OpTree& tree, TextSpan span, const ImportModuleOptions& options,
                                           const ImportSeed* seed = nullptr);

}  // namespace shardbridge::module
