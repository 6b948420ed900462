// scanTree (tree_scan.h): the scanner's events from an op tree. Each event
// is placed where the scanner meets it (its dictionary, its name, the
// module's body), so sorting by that offset gives the scanner's order.
#include "module/tree_scan.h"

#include <algorithm>
#include <deque>

#include "module/text_lex.h"

namespace shardbridge::module_detail {

// Named, not in the anonymous namespace: TreeScanPlan::Impl holds them.
namespace tree_scan_events {

enum class EventKind : uint8_t {
  kModuleDict, kModuleBody, kMesh, kArg, kResult, kOpDict, kOtherSdy, kConstraint, kManual
};

struct Event {
  size_t pos;
  EventKind kind;
  int op;
  int index;  // kArg / kResult; kConstraint / kManual: into the read ops
  int scope;  // the manual scope in force (index into the scopes), 0 outside
};

}  // namespace tree_scan_events

// What scanTree reads off the tree for one span, whichever the visitor.
struct TreeScanPlan::Impl {
  const module::OpTree* tree = nullptr;
  module::TextSpan span;
  bool onTree = false;  // false: the scanner must read the text
  std::vector<tree_scan_events::Event> events;
  std::vector<size_t> order;  // events in the scanner's order
  // The manual scopes as the scanner pushes them (Scanner::
  // parseManualComputation, src/module/scanner_ops.cc): one per custom-form
  // manual computation, holding the axes of the enclosing ones then its
  // own, in force inside its body only; 0 is the scope outside. A deque, so
  // that the events' pointers stay put.
  std::deque<ManualScope> scopes;
  std::vector<ConstraintOp> constraints;  // absolute offsets
  std::vector<ManualComputationOp> manuals;
  ScanSummary found;
  // The types OpTypeReader read for an op's dictionary (kOpDict events), by
  // event: the first visitor that wants them reads them, the next reuses.
  // typeState: 0 not read, 1 known, 2 not known.
  std::vector<uint8_t> typeState;
  std::vector<uint32_t> typeFirst;
  std::vector<uint32_t> typeCount;
  std::vector<Span> typeSpans;
};

namespace {

using module::AttrDictNode;
using module::OpNode;
using module::OpTree;
using module::TextSpan;
using tree_scan_events::Event;
using tree_scan_events::EventKind;
using Plan = TreeScanPlan::Impl;

Span relative(TextSpan s, size_t base) { return {s.begin - base, s.end - base}; }

// Whether any key of `d` can make it interesting (isInterestingDict), so
// that only those dictionaries are converted.
bool mayInterest(const AttrDictNode& d) {
  for (const module::AttrEntry& e : d.entries)
    if (e.name == "sdy.sharding" || e.name == "mhlo.sharding" || e.name == "xla.sdy.meshes" ||
        e.name == "xla.sdy.manual_axes" || e.name == "mhlo.frontend_attributes")
      return true;
  return false;
}

// `d` as the scanner's AttrDict, offsets relative to `base`; the dictionary
// of `mhlo.frontend_attributes` read as its child, as the scanner does.
// False when that child nests another frontend dictionary (the scanner
// reads one more level; this walk does not).
Result<bool> convertDict(std::string_view full, const AttrDictNode& d, size_t base, int depth, AttrDict& out) {
  out.whole = relative(d.whole, base);
  out.entries.clear();
  out.children.clear();
  out.entries.reserve(d.entries.size());
  for (const module::AttrEntry& e : d.entries) {
    DictEntry x;
    x.whole = relative(e.whole, base);
    x.key = relative(e.key, base);
    x.name = e.name;
    x.value = relative(e.value, base);
    if (e.name == "mhlo.frontend_attributes" && !e.value.empty() && full[e.value.begin] == '{') {
      if (depth > 0) return false;
      SB_ASSIGN_OR_RETURN(AttrDictNode child, module::parseAttrDict(full, e.value.begin));
      AttrDict converted;
      SB_ASSIGN_OR_RETURN(bool ok, convertDict(full, child, base, depth + 1, converted));
      if (!ok) return false;
      x.nested = static_cast<int>(out.children.size());
      out.children.push_back(std::move(converted));
    }
    out.entries.push_back(x);
  }
  return true;
}

// The dictionaries the tree counts inside an sdy collective's brackets are
// its axis lists (`sdy.all_gather [{"x"}, {}] %0 out_sharding=<...>`): the
// scanner reads them too and reports none of them, as none can be an
// interesting dictionary (isInterestingDict) when the op's text names none
// of the keys that make one.
bool onlyAxisLists(std::string_view full, const OpNode& op) {
  if (op.generic || !op.name.starts_with("sdy.") || op.dict.present() || !op.regions.empty()) return false;
  std::string_view text = op.whole.in(full);
  for (std::string_view key : {"sdy.sharding", "mhlo.sharding", "frontend_attributes", "xla.sdy.meshes",
                                "xla.sdy.manual_axes"})
    if (text.find(key) != std::string_view::npos) return false;
  return true;
}

bool within(const OpNode& op, TextSpan span) { return op.whole.begin >= span.begin && op.whole.end <= span.end; }

// The `sdy.mesh @name = <...>` body and the statement's end as the scanner
// reads them (a dictionary after the body belongs to the statement).
bool meshSpans(std::string_view t, const OpNode& op, TextSpan& body, size_t& end) {
  size_t p = module_lex::skipBlanks(t, op.symbol.end);
  if (p >= t.size() || t[p] != '=') return false;
  p = module_lex::skipBlanks(t, p + 1);
  if (p >= t.size() || t[p] != '<') return false;
  auto close = module_lex::skipBalanced(t, p);
  if (!close) return false;
  body = {p, *close};
  end = *close;
  size_t q = module_lex::skipBlanks(t, end);
  if (q < t.size() && t[q] == '{') {
    auto dictEnd = module_lex::skipBalanced(t, q);
    if (!dictEnd) return false;
    end = *dictEnd;
  }
  return true;
}

// Where ` attributes` starts before a module's dictionary at `dictBegin`,
// blanks before the keyword included, or npos.
size_t attributesKeyword(std::string_view t, size_t dictBegin) {
  size_t p = module_lex::wordBefore(t, dictBegin, "attributes");
  if (p == std::string_view::npos) return p;
  while (p > 0 && module_lex::isBlank(t[p - 1])) --p;
  return p;
}


// A bracketed span both the scanner's and module_lex's skipBalanced read
// alike: only the scanner's skips `//` comments, and it rejects a string
// literal broken across lines, so spans holding `//` or a line break are
// left to the scanner.
bool balancedAt(std::string_view t, size_t p, size_t& end) {
  auto close = module_lex::skipBalanced(t, p);
  if (!close) return false;
  for (size_t i = p; i < *close; ++i) {
    char c = t[i];
    if (c == '\n' || c == '\r' || (c == '/' && i + 1 < *close && t[i + 1] == '/')) return false;
  }
  end = *close;
  return true;
}

// Whether only spaces and tabs lie between the line's start and `p`: the
// scanner reads a statement only at a line's start (or after a `{` / `}`,
// not relied on here).
bool startsLine(std::string_view t, size_t p) {
  while (p > 0 && (t[p - 1] == ' ' || t[p - 1] == '\t')) --p;
  return p == 0 || t[p - 1] == '\n' || t[p - 1] == '\r';
}

// After the type or signature ending at `p`: only a `loc(...)` up to the
// op's end, so that the scanner's main loop meets nothing more of the op.
bool onlyLocAfter(std::string_view t, const OpNode& op, size_t p) {
  size_t q = module_lex::skipBlanks(t, p);
  if (q >= op.whole.end) return true;
  if (t.substr(q, 4) != "loc(") return false;
  size_t end = 0;
  return balancedAt(t, q + 3, end) && end == op.whole.end;
}

// The custom form `sdy.sharding_constraint %x <sharding> : type`, read as
// Scanner::parseConstraint (src/module/scanner_ops.cc) does, absolute
// offsets; false for anything else (a dictionary, a function type,
// anything the scanner would reject), which the scanner then reads.
bool readConstraint(std::string_view t, const OpNode& op, ConstraintOp& out) {
  if (op.dict.present() || op.dictCount != 0 || !op.regions.empty()) return false;
  size_t p = module_lex::skipBlanks(t, op.nameSpan.end);
  if (p >= t.size() || t[p] != '%') return false;
  size_t b = p++;
  while (p < t.size() && (module_lex::isIdentChar(t[p]) || t[p] == '#')) ++p;
  out.operand = {b, p};
  p = module_lex::skipBlanks(t, p);
  if (p >= t.size() || t[p] != '<') return false;
  size_t end = 0;
  if (!balancedAt(t, p, end)) return false;
  out.sharding = {p, end};
  p = module_lex::skipBlanks(t, end);
  if (p >= t.size() || t[p] != ':') return false;
  p = module_lex::skipBlanks(t, p + 1);
  // Scanner::readType on a plain type: `!`, identifier, optional `<...>`.
  b = p;
  if (p < t.size() && t[p] == '!') ++p;
  while (p < t.size() && module_lex::isIdentChar(t[p])) ++p;
  if (p == b || t[b] == '(') return false;
  if (p < t.size() && t[p] == '<') {
    if (!balancedAt(t, p, end)) return false;
    p = end;
  }
  out.type = {b, p};
  out.op = {op.nameSpan.begin, p};
  return onlyLocAfter(t, op, p);
}

// The custom form `sdy.manual_computation(ops) in_shardings=[...]
// out_shardings=[...] manual_axes={...} (args) {body}`, read as
// Scanner::parseManualComputation does, absolute offsets; false otherwise.
bool readManual(std::string_view t, const OpNode& op, ManualComputationOp& out) {
  // The tree reads `manual_axes={...}` as the op's dictionary; any other
  // dictionary (one after the body) is the scanner's to attribute.
  if (op.dictCount > (op.dict.present() ? 1 : 0) || op.regions.size() != 1) return false;
  size_t p = module_lex::skipBlanks(t, op.nameSpan.end);
  size_t end = 0;
  if (p >= t.size() || t[p] != '(' || !balancedAt(t, p, end)) return false;
  p = end;
  auto keyword = [&](std::string_view word) {
    p = module_lex::skipBlanks(t, p);
    size_t b = p;
    while (p < t.size() && module_lex::isIdentChar(t[p])) ++p;
    if (t.substr(b, p - b) != word) return false;
    p = module_lex::skipBlanks(t, p);
    if (p >= t.size() || t[p] != '=') return false;
    ++p;
    return true;
  };
  auto shardings = [&](std::vector<Span>& list) {
    p = module_lex::skipBlanks(t, p);
    if (p >= t.size() || t[p] != '[') return false;
    p = module_lex::skipBlanks(t, p + 1);
    if (p < t.size() && t[p] == ']') {
      ++p;
      return true;
    }
    while (true) {
      p = module_lex::skipBlanks(t, p);
      if (p >= t.size() || t[p] != '<' || !balancedAt(t, p, end)) return false;
      list.push_back({p, end});
      p = module_lex::skipBlanks(t, end);
      if (p < t.size() && t[p] == ',') {
        ++p;
        continue;
      }
      if (p >= t.size() || t[p] != ']') return false;
      ++p;
      return true;
    }
  };
  if (!keyword("in_shardings") || !shardings(out.inShardings)) return false;
  if (!keyword("out_shardings") || !shardings(out.outShardings)) return false;
  if (!keyword("manual_axes")) return false;
  p = module_lex::skipBlanks(t, p);
  if (p >= t.size() || t[p] != '{') return false;
  out.manualAxesSpan.begin = p;
  p = module_lex::skipBlanks(t, p + 1);
  if (p < t.size() && t[p] == '}') {
    ++p;
  } else {
    while (true) {
      p = module_lex::skipBlanks(t, p);
      if (p >= t.size() || t[p] != '"') return false;
      auto close = module_lex::skipString(t, p);
      if (!close) return false;
      std::string_view literal = t.substr(p, *close - p);
      if (literal.find_first_of("\n\r") != std::string_view::npos) return false;
      auto name = decodeStringLiteral(literal);
      if (!name) return false;
      out.manualAxes.push_back(std::move(*name));
      p = module_lex::skipBlanks(t, *close);
      if (p < t.size() && t[p] == ',') {
        ++p;
        continue;
      }
      if (p >= t.size() || t[p] != '}') return false;
      ++p;
      break;
    }
  }
  out.manualAxesSpan.end = p;
  if (op.dict.present() && (op.dict.whole.begin != out.manualAxesSpan.begin || op.dict.whole.end != p)) return false;
  p = module_lex::skipBlanks(t, p);
  if (p >= t.size() || t[p] != '(' || !balancedAt(t, p, end)) return false;
  p = module_lex::skipBlanks(t, end);
  out.offset = op.nameSpan.begin;
  return p == op.regions[0].whole.begin;
}


// The events of `span`, in the order the scanner meets them; false where
// the walk does not reproduce the scanner's (scanTree, tree_scan.h).
bool buildPlan(const OpTree& tree, TextSpan span, Plan& plan) {
  std::string_view full = tree.text;
  size_t base = span.begin;
  std::vector<Event>& events = plan.events;
  bool sawModule = false;
  int firstModule = -1;
  // The scanner's summary: the first op of the first top-level module's
  // body, or a top-level op before any module.
  ScanSummary& found = plan.found;
  auto topInSpanOf = [&](const OpNode& op) {
    return op.parent < 0 || !within(tree.ops[static_cast<size_t>(op.parent)], span);
  };
  auto noteFirst = [&](const OpNode& op) {
    if (found.firstStatement == std::string_view::npos) found.firstStatement = op.whole.begin - base;
  };
  std::deque<ManualScope>& scopes = plan.scopes;
  scopes.resize(1);
  // The scope in force in each op's regions: a manual computation's own,
  // else the one its events see.
  std::vector<int> bodyScope(tree.ops.size(), 0);
  std::vector<ConstraintOp>& constraints = plan.constraints;
  std::vector<ManualComputationOp>& manuals = plan.manuals;
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[static_cast<size_t>(i)];
    if (!within(op, span)) continue;
    int scope = op.parent >= 0 ? bodyScope[static_cast<size_t>(op.parent)] : 0;
    bodyScope[static_cast<size_t>(i)] = scope;
    bool custom = !op.generic;
    if (custom && op.name == "sdy.sharding_constraint") {
      ConstraintOp c;
      if (!startsLine(full, op.whole.begin) || !readConstraint(full, op, c)) return false;
      events.push_back({op.nameSpan.begin, EventKind::kConstraint, i, static_cast<int>(constraints.size()), scope});
      constraints.push_back(c);
      if ((topInSpanOf(op) && !sawModule) || (firstModule >= 0 && op.parent == firstModule)) noteFirst(op);
      continue;
    }
    if (custom && op.name == "sdy.manual_computation") {
      ManualComputationOp m;
      if (!startsLine(full, op.whole.begin) || !readManual(full, op, m)) return false;
      ManualScope inner;
      inner.axes = scopes[static_cast<size_t>(scope)].axes;
      inner.axes.insert(inner.axes.end(), m.manualAxes.begin(), m.manualAxes.end());
      inner.computation = static_cast<int>(manuals.size());
      bodyScope[static_cast<size_t>(i)] = static_cast<int>(scopes.size());
      scopes.push_back(std::move(inner));
      events.push_back({op.nameSpan.begin, EventKind::kManual, i, static_cast<int>(manuals.size()), scope});
      manuals.push_back(std::move(m));
      if ((topInSpanOf(op) && !sawModule) || (firstModule >= 0 && op.parent == firstModule)) noteFirst(op);
      continue;
    }
    if (op.dictCount > (op.dict.present() ? 1 : 0) && !onlyAxisLists(full, op)) return false;
    // The generic form's dictionary after a region: the scanner attributes
    // it to the region's last op.
    if (op.generic && op.dict.present() && !op.regions.empty() && op.dict.whole.begin > op.regions[0].whole.begin)
      return false;
    bool topInSpan = topInSpanOf(op);
    bool isModule = custom && op.name == "module" && op.resultDefs.empty();
    if ((topInSpan && !sawModule && !isModule) || (firstModule >= 0 && op.parent == firstModule)) noteFirst(op);
    if (isModule) {
      if (op.dict.present()) {
        if (attributesKeyword(full, op.dict.whole.begin) == std::string_view::npos) return false;
        events.push_back({op.dict.whole.begin, EventKind::kModuleDict, i, 0, scope});
      }
      if (topInSpan && !sawModule && !op.regions.empty()) {
        sawModule = true;
        firstModule = i;
        found.explicitModule = true;
        found.moduleBodyStart = op.regions[0].whole.begin + 1 - base;
        events.push_back({op.regions[0].whole.begin, EventKind::kModuleBody, i, 0, scope});
      }
      continue;
    }
    if (custom && op.name == "func.func" && op.resultDefs.empty()) {
      for (size_t a = 0; a < op.funcArgs().size(); ++a)
        if (op.funcArgs()[a].dict.present() && mayInterest(op.funcArgs()[a].dict))
          events.push_back({op.funcArgs()[a].dict.whole.begin, EventKind::kArg, i, static_cast<int>(a), scope});
      for (size_t r = 0; r < op.funcResults().size(); ++r)
        if (op.funcResults()[r].dict.present() && mayInterest(op.funcResults()[r].dict))
          events.push_back({op.funcResults()[r].dict.whole.begin, EventKind::kResult, i, static_cast<int>(r), scope});
      continue;
    }
    if (custom && op.name == "sdy.mesh" && op.resultDefs.empty()) {
      // Where the scanner's mesh statement would run past the tree's op (a
      // dictionary it finds on a later line), it would cover ops the tree
      // reports too: the scanner reads such a module alone. (A block after
      // the mesh, a region to the tree, is refused by parseOpTree.)
      TextSpan body;
      size_t end = 0;
      if (meshSpans(full, op, body, end) && end > op.whole.end) return false;
      events.push_back({op.whole.begin, EventKind::kMesh, i, 0, scope});
      continue;
    }
    if (custom && op.name.starts_with("sdy.") && op.name != "sdy.return")
      events.push_back({op.nameSpan.begin, EventKind::kOtherSdy, i, 0, scope});
    if (op.dict.present() && mayInterest(op.dict))
      events.push_back({op.dict.whole.begin, EventKind::kOpDict, i, 0, scope});
  }
  plan.order.resize(events.size());
  for (size_t e = 0; e < events.size(); ++e) plan.order[e] = e;
  // The walk meets most events in text order already; sorting a sorted
  // list was a sixth of the export's conversion.
  auto byPos = [&](size_t a, size_t b) { return events[a].pos < events[b].pos; };
  if (!std::is_sorted(plan.order.begin(), plan.order.end(), byPos))
    std::stable_sort(plan.order.begin(), plan.order.end(), byPos);
  return true;
}

}  // namespace

TreeScanPlan::TreeScanPlan(bool keepOpTypes) : keepOpTypes_(keepOpTypes) {}
TreeScanPlan::~TreeScanPlan() = default;
TreeScanPlan::TreeScanPlan(TreeScanPlan&&) noexcept = default;
TreeScanPlan& TreeScanPlan::operator=(TreeScanPlan&&) noexcept = default;

Result<bool> scanTree(const OpTree& tree, TextSpan span, ScanVisitor& visitor, ScanSummary* summary,
                      TreeScanPlan* reuse) {
  std::string_view full = tree.text;
  std::string_view text = span.in(full);
  size_t base = span.begin;
  // A plan is built once per span and replayed for each visitor.
  TreeScanPlan local;
  TreeScanPlan& kept = reuse ? *reuse : local;
  if (!kept.impl_ || kept.impl_->tree != &tree || kept.impl_->span.begin != span.begin ||
      kept.impl_->span.end != span.end) {
    kept.impl_ = std::make_unique<TreeScanPlan::Impl>();
    kept.impl_->tree = &tree;
    kept.impl_->span = span;
    kept.impl_->onTree = buildPlan(tree, span, *kept.impl_);
  }
  Plan& plan = *kept.impl_;
  if (!plan.onTree) return false;
  const std::vector<Event>& events = plan.events;
  const std::deque<ManualScope>& scopes = plan.scopes;

  bool values = visitor.wantsValueDicts();
  auto dictOf = [&](const Event& ev) -> const AttrDictNode* {
    const OpNode& op = tree.ops[static_cast<size_t>(ev.op)];
    switch (ev.kind) {
      case EventKind::kModuleDict:
      case EventKind::kOpDict:
        return &op.dict;
      case EventKind::kArg:
        return &op.funcArgs()[static_cast<size_t>(ev.index)].dict;
      case EventKind::kResult:
        return &op.funcResults()[static_cast<size_t>(ev.index)].dict;
      default:
        return nullptr;
    }
  };
  // Only a frontend dictionary can make the conversion give up: those are
  // converted before any event goes out, so that a fallback reports
  // nothing twice; the others as they are reported.
  std::vector<AttrDict> early;
  std::vector<int> earlyIndex(events.size(), -1);
  for (size_t e = 0; e < events.size(); ++e) {
    const AttrDictNode* d = dictOf(events[e]);
    if (!d || !d->find("mhlo.frontend_attributes")) continue;
    if (!values && events[e].kind != EventKind::kModuleDict) continue;
    earlyIndex[e] = static_cast<int>(early.size());
    early.emplace_back();
    SB_ASSIGN_OR_RETURN(bool ok, convertDict(full, *d, base, 0, early.back()));
    if (!ok) return false;
  }

  AttrDict scratch;  // the dictionary being reported, when not converted early
  module_detail::OpTypeReader types(text);
  ValueDict vd;
  for (size_t e : plan.order) {
    const Event& ev = events[e];
    const OpNode& op = tree.ops[static_cast<size_t>(ev.op)];
    bool valueEvent = ev.kind == EventKind::kArg || ev.kind == EventKind::kResult || ev.kind == EventKind::kOpDict;
    if (valueEvent && !values) continue;
    const AttrDict* converted = nullptr;
    if (earlyIndex[e] >= 0) {
      converted = &early[static_cast<size_t>(earlyIndex[e])];
    } else if (const AttrDictNode* d = dictOf(ev)) {
      SB_ASSIGN_OR_RETURN(bool ok, convertDict(full, *d, base, 0, scratch));
      (void)ok;  // without a frontend dictionary it cannot give up
      converted = &scratch;
    }
    const AttrDict& dict = converted ? *converted : scratch;
    // A fresh ValueDict for each event, but the storage of its types kept
    // from the last (an allocation and a free an event otherwise).
    std::vector<Span> typeStorage = std::move(vd.types);
    typeStorage.clear();
    vd = ValueDict();
    vd.types = std::move(typeStorage);
    vd.dict = &dict;
    vd.manual = &scopes[static_cast<size_t>(ev.scope)];
    switch (ev.kind) {
      case EventKind::kModuleDict:
        if (!isInterestingDict(dict)) break;
        vd.kind = SiteKind::kModule;
        vd.attributesKeyword = attributesKeyword(full, op.dict.whole.begin) - base;
        SB_TRY(visitor.onDict(vd));
        break;
      case EventKind::kModuleBody:
        SB_TRY(visitor.onModule(ModuleInfo{true, op.regions[0].whole.begin + 1 - base}));
        break;
      case EventKind::kMesh: {
        TextSpan body;
        size_t end = 0;
        if (!meshSpans(full, op, body, end))
          return makeError(ErrorCode::kParse, "malformed sdy.mesh", op.whole.begin - base);
        MeshOp mesh;
        mesh.name = op.symbolName;
        mesh.statement = {op.whole.begin - base, end - base};
        mesh.body = relative(body, base);
        SB_TRY(visitor.onMesh(mesh));
        break;
      }
      case EventKind::kArg:
      case EventKind::kResult: {
        if (!isInterestingDict(dict)) break;
        bool arg = ev.kind == EventKind::kArg;
        vd.kind = arg ? SiteKind::kArg : SiteKind::kResult;
        vd.funcName = op.symbolName;
        vd.index = ev.index;
        TextSpan type = arg ? op.funcArgs()[static_cast<size_t>(ev.index)].type
                            : op.funcResults()[static_cast<size_t>(ev.index)].type;
        if (arg) vd.argName = op.funcArgs()[static_cast<size_t>(ev.index)].name.in(full);
        vd.types.push_back(relative(type, base));
        vd.typesKnown = true;
        SB_TRY(visitor.onDict(vd));
        break;
      }
      case EventKind::kOpDict: {
        if (!isInterestingDict(dict)) break;
        vd.kind = SiteKind::kOp;
        vd.opResults = op.results.in(full);
        vd.opName = op.name;
        vd.opOffset = op.whole.begin - base;
        if (!kept.keepOpTypes_) {
          SB_TRY(types.read(op.dict.whole.end - base, vd.opResults, vd));
          SB_TRY(visitor.onDict(vd));
          break;
        }
        if (plan.typeState.empty()) {
          plan.typeState.assign(events.size(), 0);
          plan.typeFirst.assign(events.size(), 0);
          plan.typeCount.assign(events.size(), 0);
        }
        if (plan.typeState[e] == 0) {
          SB_TRY(types.read(op.dict.whole.end - base, vd.opResults, vd));
          plan.typeState[e] = vd.typesKnown ? 1 : 2;
          plan.typeFirst[e] = static_cast<uint32_t>(plan.typeSpans.size());
          plan.typeCount[e] = static_cast<uint32_t>(vd.types.size());
          plan.typeSpans.insert(plan.typeSpans.end(), vd.types.begin(), vd.types.end());
        } else {
          vd.typesKnown = plan.typeState[e] == 1;
          auto first = plan.typeSpans.begin() + plan.typeFirst[e];
          vd.types.assign(first, first + plan.typeCount[e]);
        }
        SB_TRY(visitor.onDict(vd));
        break;
      }
      case EventKind::kOtherSdy:
        SB_TRY(visitor.onOtherSdyOp(op.name, op.nameSpan.begin - base));
        break;
      case EventKind::kConstraint: {
        const ConstraintOp& c = plan.constraints[static_cast<size_t>(ev.index)];
        ConstraintOp out;
        out.op = relative(TextSpan{c.op.begin, c.op.end}, base);
        out.results = op.results.in(full);
        out.operand = relative(TextSpan{c.operand.begin, c.operand.end}, base);
        out.sharding = relative(TextSpan{c.sharding.begin, c.sharding.end}, base);
        out.type = relative(TextSpan{c.type.begin, c.type.end}, base);
        out.manual = vd.manual;
        SB_TRY(visitor.onConstraint(out));
        break;
      }
      case EventKind::kManual: {
        // A copy: the plan's offsets stay absolute for the next visitor.
        ManualComputationOp m = plan.manuals[static_cast<size_t>(ev.index)];
        m.offset -= base;
        m.results = op.results.in(full);
        for (Span& s : m.inShardings) s = {s.begin - base, s.end - base};
        for (Span& s : m.outShardings) s = {s.begin - base, s.end - base};
        m.manualAxesSpan = {m.manualAxesSpan.begin - base, m.manualAxesSpan.end - base};
        SB_TRY(visitor.onManualComputation(m));
        break;
      }
    }
  }
  if (summary) *summary = plan.found;
  return true;
}

}  // namespace shardbridge::module_detail
