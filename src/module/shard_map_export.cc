// xla-sdy-stablehlo-round-trip-shard-map-export (upstream xla/service/spmd/
// shardy/stablehlo_round_trip/shard_map_export.cc): every
// `sdy.manual_computation` becomes
//   per tensor operand:  mhlo.copy (the in-sharding), then
//                        @SPMDFullToShardShape (the in-sharding without the manual axes)
//   one call to the body, outlined as
//                        func.func private @xla.sdy.inlinable_manual_computation_body[_N]
//   per tensor result:   mhlo.copy, then @SPMDShardToFullShape (the out-sharding)
// with `xla.sdy.manual_axes = #sdy<manual_axes{...}>` on everything inside,
// which the export-shardings pass turns into the MANUAL subgroup. Bodies are
// numbered by one counter per module in post-order (inner first) and
// appended at the end of the module. A manual computation without in/out
// shardings is inlined. See docs/module.md "shard-map-export".
#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <unordered_map>

#include "module/edit_compose.h"
#include "module/manual_computation.h"
#include "module/op_types.h"
#include "module/pass.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {
namespace {

using module_lex::indentationAt;
using module_lex::skipBalanced;
using module_lex::skipBlanks;

constexpr std::string_view kBodyName = "xla.sdy.inlinable_manual_computation_body";

struct Manual {
  int op = -1;
  std::vector<TextSpan> in, out;    // each `<...>`
  std::vector<std::string> own;     // manual_axes
  std::vector<std::string> parent;  // of the enclosing manual computations, outer first
  std::vector<std::string> region;  // parent ++ own
  std::string mesh;                 // the mesh of its first sharding, as written
  // Planned before rendering (planResults).
  std::string base;               // stem of the values it creates
  std::string call;               // the call's result name
  std::vector<std::string> full;  // the value replacing each result
  bool hasShardings() const { return !in.empty() || !out.empty(); }
};

// Appends each part to `s` (no temporary for the whole).
template <typename... Parts>
void appendAll(std::string& s, const Parts&... parts) {
  (s.append(std::string_view(parts)), ...);
}

bool isTerminator(std::string_view n) {
  return n == "stablehlo.return" || n == "mhlo.return" || n == "return" || n == "func.return" ||
         n == "sdy.return";
}

class ShardMapExport {
 public:
  explicit ShardMapExport(PassContext& ctx) : ctx_(ctx), t_(ctx.text()), tree_(ctx.tree), names_(ctx.tree) {}

  Status run() {
    SB_TRY(collect());
    if (manuals_.empty()) return okStatus();
    SB_TRY(plan());
    return emit();
  }

  // run() over `pending` (runShardMapExportOver): their edits join this
  // pass's, rendered into the outlined bodies where they fall inside one.
  // Besides the manual computations (moved), this pass reads the ops it
  // marks or whose uses it redirects, each of which gets an edit, and every
  // value name (FreshNames), which the deferring pass keeps; so
  // editsCompose's premise holds.
  Result<bool> runOver(const Rewriter& pending) {
    SB_TRY(collect());
    if (!manuals_.empty()) {
      SB_TRY(plan());
      std::vector<int> moved;
      moved.reserve(manuals_.size());
      for (const Manual& m : manuals_) moved.push_back(m.op);
      if (!editsCompose(tree_, pending, leaf_, moved)) return false;
    }
    Rewriter& into = manuals_.empty() ? ctx_.rw : leaf_;
    for (const Rewriter::Edit& e : pending.edits()) into.add(e);
    if (!manuals_.empty()) SB_TRY(emit());
    return true;
  }

  Status plan() {
    for (const Manual& m : manuals_)
      if (m.hasShardings() && !m.region.empty()) SB_TRY(markBody(m));
    SB_TRY(commitMarks());
    planResults();
    return okStatus();
  }



  // The rewrites as separate edits, so that offsets outside the manual
  // computations stay mapped to the input: each outermost manual
  // computation replaced by its lowering (which renders the nested ones),
  // the leaf edits outside them, and the outlined bodies before each
  // module's closing brace.
  Status emit() {
    // manuals_ is in text order (the op tree's), so the outermost ones are
    // the manual computations that start after the previous outer one ends;
    // both lists stay sorted and a binary search places each leaf edit.
    std::vector<TextSpan> outer;
    std::vector<const Manual*> outerManuals;
    for (const Manual& m : manuals_) {
      TextSpan s = tree_.ops[m.op].line;
      if (outer.empty() || s.begin >= outer.back().end) {
        outer.push_back(s);
        outerManuals.push_back(&m);
      }
    }
    for (const Rewriter::Edit& e : leaf_.edits()) {
      auto it = std::upper_bound(outer.begin(), outer.end(), e.span.begin,
                                 [](size_t v, const TextSpan& o) { return v < o.begin; });
      bool inside = it != outer.begin() && e.span.end <= std::prev(it)->end;
      if (!inside) ctx_.rw.replace(e.span, e.text);
    }
    renderRangeInit();
    for (const Manual* m : outerManuals) {
      const OpNode& op = tree_.ops[m->op];
      bool wholeLine = op.line.begin != op.whole.begin;
      SB_ASSIGN_OR_RETURN(std::string lowered, lowerManual(*m, wholeLine ? indentationAt(t_, op.whole.begin) : ""));
      if (!wholeLine && !lowered.empty() && lowered.back() == '\n') lowered.pop_back();
      ctx_.rw.replace(op.line, std::move(lowered));
    }
    // Each outlined body maps back to its manual computation, so that what a
    // later pass finds in it is located there, not at the module's end.
    for (auto& [module, funcs] : outlined_) {
      AppendPoint end = moduleAppendPoint(tree_, module);
      for (auto& [f, origin] : funcs) {
        if (f.empty()) continue;
        if (end.newlineFirst) f.insert(0, "\n");
        end.newlineFirst = false;
        ctx_.rw.insertFrom(end.at, std::move(f), origin);
      }
    }
    return okStatus();
  }

  Status collect() {
    std::map<int, size_t> byOp;
    SB_TRY(checkManualResultNames(t_, tree_));
    for (int i = 0; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& op = tree_.ops[i];
      if (op.name != "sdy.manual_computation") continue;
      if (op.regions.size() != 1 || op.regions[0].blocks.empty())
        return makeError(ErrorCode::kParse, "expected one region in sdy.manual_computation", op.nameSpan.begin);
      Manual m;
      m.op = i;
      SB_ASSIGN_OR_RETURN(ManualComputationParts parts, readManualComputation(t_, op));
      m.in = std::move(parts.in);
      m.out = std::move(parts.out);
      m.own = std::move(parts.axes);
      for (int p = op.parent; p >= 0; p = tree_.ops[p].parent) {
        auto it = byOp.find(p);
        if (it != byOp.end()) {
          m.parent = manuals_[it->second].region;
          break;
        }
      }
      m.region = m.parent;
      m.region.insert(m.region.end(), m.own.begin(), m.own.end());
      const std::vector<TextSpan>& any = m.in.empty() ? m.out : m.in;
      if (!any.empty()) m.mesh = std::string(shardingMesh(any[0].in(t_)));
      byOp[i] = manuals_.size();
      manuals_.push_back(std::move(m));
    }
    for (size_t k = 0; k < manuals_.size(); ++k) manualAt_[manuals_[k].op] = k;
    return okStatus();
  }

  // --- marking: shardings and manual axes on everything inside ----------------
  DictEditor& editorFor(const AttrDictNode& d) {
    auto it = editors_.find(&d);
    if (it == editors_.end()) it = editors_.emplace(&d, DictEditor(t_, d)).first;
    return it->second;
  }

  // manualAxesAttr(axes), memoised: every op inside a manual computation
  // gets the same few.
  const std::string& axesAttr(const std::vector<std::string>& axes) {
    auto it = axesAttrs_.find(axes);
    if (it == axesAttrs_.end()) it = axesAttrs_.emplace(axes, manualAxesAttr(axes)).first;
    return it->second;
  }

  // The replicated, closed sharding of a value of `type` on `mesh`.
  static std::string replicated(const std::string& mesh, std::string_view type) {
    std::string s = "<" + mesh + ", [";
    int64_t rank = typeRank(type);
    for (int64_t i = 0; i < rank; ++i) s += i ? ", {}" : "{}";
    return s + "]>";
  }

  void markOp(int index, const std::string& mesh, const std::vector<std::string>& axes,
              std::set<int>& visitedFuncs) {
    const OpNode& op = tree_.ops[index];
    if (op.name == "sdy.return" || op.name == "func.return" || op.name == "return" ||
        op.name == "sdy.manual_computation")
      return;
    DictEditor& ed = editorFor(op.dict);
    dictOwner_[&op.dict] = index;
    bool terminator = isTerminator(op.name);
    if (!terminator) {
      const AttrEntry* existing = op.dict.find("sdy.sharding");
      bool keep = existing && existing->value.in(t_).find(mesh + ",") != std::string_view::npos;
      if (existing && !keep) {
        // Upstream: a sharding on another (empty or maximal) mesh is dropped.
        ed.remove("sdy.sharding");
      }
      if (!keep) {
        OpTypes types = opTypes(tree_, op);
        int n = resultCount(op);
        std::string s = "#sdy.sharding_per_value<[";
        if (n == 0) {
          s += "<" + mesh + ", []>";
        } else {
          // One type per result; a single result with several types written
          // (`stablehlo.select ... : pred_type, result_type`) has the last.
          if (n == 1 && types.results.size() > 1) types.results.erase(types.results.begin(), types.results.end() - 1);
          for (int r = 0; r < n; ++r) {
            std::string_view type = r < static_cast<int>(types.results.size()) ? types.results[r]
                                    : types.results.empty() ? std::string_view()
                                                            : types.results.back();
            s += (r ? ", " : "") + replicated(mesh, type);
          }
        }
        ed.set("sdy.sharding", s + "]>");
      }
    }
    ed.set("xla.sdy.manual_axes", axesAttr(axes));
    if ((op.name == "call" || op.name == "func.call") && !op.symbol.empty()) {
      int module = tree_.enclosingModule(index);
      int callee = tree_.lookupSymbol(module, op.symbolName);
      if (callee >= 0 && visitedFuncs.insert(callee).second) markFunc(callee, mesh, axes, visitedFuncs);
    }
  }

  void markFunc(int func, const std::string& mesh, const std::vector<std::string>& axes,
                std::set<int>& visitedFuncs) {
    const OpNode& f = tree_.ops[func];
    for (size_t i = 0; i < f.funcArgs().size(); ++i) {
      const ValueDef& a = f.funcArgs()[i];
      if (!a.dict.present()) {
        argInserts_.push_back({a.type.end, "{sdy.sharding = #sdy.sharding" + replicated(mesh, a.type.in(t_)) +
                                               ", xla.sdy.manual_axes = " + axesAttr(axes) + "}"});
        continue;
      }
      DictEditor& ed = editorFor(a.dict);
      if (!a.dict.find("sdy.sharding")) ed.set("sdy.sharding", "#sdy.sharding" + replicated(mesh, a.type.in(t_)));
      ed.set("xla.sdy.manual_axes", axesAttr(axes));
    }
    for (const FuncResult& r : f.funcResults()) {
      std::string attrs = "{sdy.sharding = #sdy.sharding" + replicated(mesh, r.type.in(t_)) +
                          ", xla.sdy.manual_axes = " + axesAttr(axes) + "}";
      if (!r.dict.present()) {
        size_t before = r.type.begin;
        while (before > 0 && module_lex::isBlank(t_[before - 1])) --before;
        bool parenthesized = before > 0 && (t_[before - 1] == '(' || t_[before - 1] == ',');
        if (parenthesized) {
          argInserts_.push_back({r.type.end, attrs});
        } else {
          resultWraps_.push_back({r.type, "(" + std::string(r.type.in(t_)) + " " + attrs + ")"});
        }
        continue;
      }
      DictEditor& ed = editorFor(r.dict);
      if (!r.dict.find("sdy.sharding")) ed.set("sdy.sharding", "#sdy.sharding" + replicated(mesh, r.type.in(t_)));
      ed.set("xla.sdy.manual_axes", axesAttr(axes));
    }
    for (int op : opsInside(tree_, func)) markOp(op, mesh, axes, visitedFuncs);
  }

  Status markBody(const Manual& m) {
    std::set<int> visitedFuncs;
    const OpNode& op = tree_.ops[m.op];
    // Every op inside, except those inside nested manual computations.
    int skipUntil = -1;
    for (int i = m.op + 1; i < static_cast<int>(tree_.ops.size()); ++i) {
      const OpNode& inner = tree_.ops[i];
      if (inner.whole.begin >= op.whole.end) break;
      if (skipUntil >= 0 && inner.whole.begin < tree_.ops[skipUntil].whole.end) continue;
      skipUntil = -1;
      if (inner.name == "sdy.manual_computation") {
        skipUntil = i;
        continue;
      }
      markOp(i, m.mesh, m.region, visitedFuncs);
    }
    return okStatus();
  }

  // The op's dictionary edits become leaf edits; a new dictionary goes
  // before the signature (after the name of a constant, as MLIR prints it).
  Status commitMarks() {
    for (auto& [dict, ed] : editors_) {
      if (dict->present()) {
        ed.commit(leaf_, 0);
        continue;
      }
      // An op without a dictionary gets one where MLIR prints it.
      auto owner = dictOwner_.find(dict);
      if (owner == dictOwner_.end()) continue;
      const OpNode& op = tree_.ops[owner->second];
      std::string body = ed.render();
      if (body.empty()) continue;
      insertDict(leaf_, tree_, op, body);
    }
    for (auto& [at, text] : argInserts_) leaf_.insert(at, " " + text);
    for (auto& [span, text] : resultWraps_) leaf_.replace(span, text);
    return okStatus();
  }

  // Before rendering: the names of the values replacing each manual
  // computation's results, the uses of `%r#j` redirected to them, and the
  // body terminators turned into `return`.
  void planResults() {
    for (Manual& m : manuals_) {
      const OpNode& op = tree_.ops[m.op];
      if (!m.hasShardings() || op.regions[0].blocks.empty() || op.regions[0].blocks[0].ops.empty()) continue;
      const OpNode& ret = tree_.ops[op.regions[0].blocks[0].ops.back()];
      if (ret.name == "sdy.return") leaf_.replace(ret.nameSpan, "return");
      OpTypes retTypes = opTypes(tree_, ret);
      size_t n = m.out.size();
      std::string resultName = op.resultDefs.empty() ? "" : std::string(op.resultDefs[0].name.in(t_));
      m.base = op.resultDefs.empty() ? "shmap" : resultName.substr(1);
      auto shaped = [&](size_t j) { return j < retTypes.results.size() && isShapedType(retTypes.results[j]); };
      bool singleTensor = n == 1 && shaped(0);
      m.call = n == 0 ? "" : (n == 1 && !singleTensor ? resultName : names_.next(m.base + "_body", m.op));
      int func = tree_.enclosingFunc(m.op);
      for (size_t j = 0; j < n; ++j) {
        std::string callResult = n == 1 ? m.call : m.call + "#" + std::to_string(j);
        std::string full = !shaped(j) ? callResult : n == 1 ? resultName : names_.next(m.base + "_full" + std::to_string(j), m.op);
        m.full.push_back(full);
        if (n > 1 && !resultName.empty()) uses_.replace(leaf_, func, resultName, static_cast<int>(j), full);
      }
    }
  }

  // --- rendering ---------------------------------------------------------------
  // A sharding `<@m, [...]>` without the axes in `drop`, printed twice: the
  // stripped form (`<@m, [...]>`, for sdy.sharding_per_value) and the
  // prefixed one (`#sdy.sharding<@m, [...]>`). One parse serves both.
  struct Stripped {
    std::string bare, prefixed;
  };
  // Memoised on the sharding's text and the axes: a module's manual
  // computations mostly repeat a few in/out shardings.
  Result<const Stripped*> withoutAxes(TextSpan s, const std::vector<std::string>& drop) {
    // Length-prefixed parts: unambiguous.
    std::string& key = strippedKey_;
    key.clear();
    key += std::to_string(s.size());
    key += ':';
    key += s.in(t_);
    for (const std::string& a : drop) {
      key += std::to_string(a.size());
      key += ':';
      key += a;
    }
    if (auto hit = stripped_.find(key); hit != stripped_.end()) return &hit->second;
    auto sharding = sdy::parseTensorSharding(ctx_sdy_, s.in(t_));
    if (!sharding) return sharding.error().shifted(s.begin);
    auto keep = [&](sdy::AxisRefAttr a) { return std::find(drop.begin(), drop.end(), a.name()) == drop.end(); };
    std::vector<sdy::DimensionShardingAttr> dims;
    for (sdy::DimensionShardingAttr d : sharding->dimShardings()) {
      std::vector<sdy::AxisRefAttr> axes;
      for (sdy::AxisRefAttr a : d.axes())
        if (keep(a)) axes.push_back(a);
      dims.push_back(sdy::DimensionShardingAttr::get(ctx_sdy_, axes, d.isClosed(), d.priority()));
    }
    std::vector<sdy::AxisRefAttr> replicatedAxes;
    for (sdy::AxisRefAttr a : sharding->replicatedAxes())
      if (keep(a)) replicatedAxes.push_back(a);
    std::vector<sdy::AxisRefAttr> unreduced(sharding->unreducedAxes().begin(), sharding->unreducedAxes().end());
    auto out = sdy::TensorShardingAttr::get(ctx_sdy_, sharding->meshOrRef(), dims, replicatedAxes, unreduced,
                                            sharding->reductionOp());
    sdy::PrintOptions po;
    po.withPrefix = false;
    Stripped r;
    r.bare = sdy::printTensorSharding(out, po);
    r.prefixed = "#sdy.sharding" + r.bare;  // what withPrefix prints (src/sdy/printer.cc)
    return &stripped_.emplace(key, std::move(r)).first->second;
  }

  // The text replacing manual computation `m`: the copies and custom calls
  // around a call of its outlined body (or the inlined body).
  Result<std::string> lowerManual(const Manual& m, std::string_view indent) {
    const OpNode& op = tree_.ops[m.op];
    const Block& body = op.regions[0].blocks[0];
    if (body.ops.empty()) return makeError(ErrorCode::kParse, "empty sdy.manual_computation body", op.whole.begin);
    const OpNode& ret = tree_.ops[body.ops.back()];
    // The body's lines: from the line after the region's `{` to the line of
    // its `}`, so comments before the first op or after the terminator move
    // with it.
    size_t bodyBegin = op.regions[0].whole.begin + 1;
    size_t nl = t_.find('\n', bodyBegin);
    bodyBegin = nl == std::string_view::npos || nl > tree_.ops[body.ops.front()].whole.begin
                    ? tree_.ops[body.ops.front()].line.begin
                    : nl + 1;
    size_t bodyEnd = op.regions[0].whole.end - 1;
    while (bodyEnd > ret.line.end && (t_[bodyEnd - 1] == ' ' || t_[bodyEnd - 1] == '\t')) --bodyEnd;
    if (bodyEnd < ret.line.end) bodyEnd = ret.line.end;
    TextSpan inner{bodyBegin, bodyEnd};
    if (!m.hasShardings()) {
      // Inlined: the lines before the terminator and those after it.
      SB_ASSIGN_OR_RETURN(std::string before, renderRange({bodyBegin, ret.line.begin}));
      SB_ASSIGN_OR_RETURN(std::string after, renderRange({ret.line.end, bodyEnd}));
      if (!body.arguments.empty() || !op.resultDefs.empty())
        return makeError(ErrorCode::kUnsupported,
                         "sdy.manual_computation without in/out shardings but with operands or results",
                         op.nameSpan.begin);
      return module_lex::reindent(before + after, indentationAt(t_, tree_.ops[body.ops.front()].whole.begin), indent);
    }
    OpTypes types = opTypes(tree_, op);
    OpTypes retTypes = opTypes(tree_, ret);
    if (types.operands.size() != op.uses.size() || types.results.size() != m.out.size() ||
        m.in.size() != op.uses.size() || body.arguments.size() != op.uses.size() ||
        retTypes.results.size() != m.out.size())
      return makeError(ErrorCode::kParse,
                       "sdy.manual_computation: operands, in_shardings, body arguments, out_shardings and "
                       "results do not match in number",
                       op.nameSpan.begin);
    // The body first: nested manual computations are numbered before this one.
    SB_ASSIGN_OR_RETURN(std::string bodyText, renderRange(inner));
    int module = tree_.enclosingModule(m.op);
    std::string name = bodyNames_.next(module);
    const std::string& base = m.base;
    const bool constraints = ctx_.flag("create-hlo-sharding-constraints");
    const std::string manualRegion = m.region.empty() ? "" : axesAttr(m.region);
    const std::string manualParent = m.parent.empty() ? "" : axesAttr(m.parent);
    // Everything is appended to two buffers, the lines replacing the op and
    // the outlined function: building each line from temporaries made most
    // of this pass's cost (docs/performance.md "The prefilters' words, memos
    // and needless sorts").
    std::string out;
    std::string fnArgs, fnResults, callArgList;
    auto perValueDict = [](std::string& s, std::string_view sharding, std::string_view manual) {
      s += "{sdy.sharding = #sdy.sharding_per_value<[";
      s += sharding;
      s += "]>";
      if (!manual.empty()) {
        s += ", xla.sdy.manual_axes = ";
        s += manual;
      }
      s += '}';
    };
    auto valueDict = [&](std::string& s, std::string_view sharding) {
      s += "{sdy.sharding = ";
      s += sharding;
      if (!manualRegion.empty()) {
        s += ", xla.sdy.manual_axes = ";
        s += manualRegion;
      }
      s += '}';
    };
    // `result = stablehlo.custom_call @TARGET(operand) {dict} : (from) -> to`.
    auto customCallLine = [&](std::string_view result, std::string_view target, std::string_view operand,
                              std::string_view sharding, std::string_view manual, std::string_view from,
                              std::string_view to) {
      appendAll(out, indent, result, " = stablehlo.custom_call @", target, "(", operand, ") ");
      perValueDict(out, sharding, manual);
      appendAll(out, " : (", from, ") -> ", to, "\n");
    };
    // `result = mhlo.copy operand {dict} : type` (or the @Sharding custom call).
    auto copyLine = [&](std::string_view result, std::string_view operand, std::string_view sharding,
                        std::string_view manual, std::string_view type) {
      if (constraints) return customCallLine(result, "Sharding", operand, sharding, manual, type, type);
      appendAll(out, indent, result, " = mhlo.copy ", operand, " ");
      perValueDict(out, sharding, manual);
      appendAll(out, " : ", type, "\n");
    };
    for (size_t i = 0; i < op.uses.size(); ++i) {
      // An operand may itself be a redirected use (`%5#1` of an earlier manual computation).
      SB_ASSIGN_OR_RETURN(std::string operand, renderRange(op.uses[i].span));
      std::string_view local = body.arguments[i].type.in(t_);
      SB_ASSIGN_OR_RETURN(const Stripped* stripped, withoutAxes(m.in[i], m.region));
      if (i) fnArgs += ", ";
      fnArgs += body.arguments[i].name.in(t_);
      fnArgs += ": ";
      fnArgs += local;
      fnArgs += ' ';
      valueDict(fnArgs, stripped->prefixed);
      if (i) callArgList += ", ";
      if (!isShapedType(local)) {
        callArgList += operand;
        continue;
      }
      std::string c = names_.next(base + "_in" + std::to_string(i), m.op);
      std::string f = names_.next(base + "_local" + std::to_string(i), m.op);
      copyLine(c, operand, m.in[i].in(t_), manualParent, types.operands[i]);
      customCallLine(f, "SPMDFullToShardShape", c, stripped->bare, manualRegion, types.operands[i], local);
      callArgList += f;
    }
    std::vector<const Stripped*> innerOut;
    for (size_t j = 0; j < m.out.size(); ++j) {
      SB_ASSIGN_OR_RETURN(const Stripped* stripped, withoutAxes(m.out[j], m.region));
      innerOut.push_back(stripped);
      if (j) fnResults += ", ";
      fnResults += retTypes.results[j];
      fnResults += ' ';
      valueDict(fnResults, stripped->prefixed);
    }
    const size_t n = m.out.size();
    const std::string& call = m.call;
    out += indent;
    if (!call.empty()) {
      out += call;
      if (n > 1) {
        out += ':';
        out += std::to_string(n);
      }
      out += " = ";
    }
    out += "call @";
    out += name;
    out += '(';
    out += callArgList;
    out += ')';
    if (n > 0 || !manualRegion.empty()) {
      out += " {";
      if (n > 0) {
        out += "sdy.sharding = #sdy.sharding_per_value<[";
        for (size_t j = 0; j < n; ++j) {
          if (j) out += ", ";
          out += innerOut[j]->bare;
        }
        out += "]>";
      }
      if (!manualRegion.empty()) {
        if (n > 0) out += ", ";
        out += "xla.sdy.manual_axes = ";
        out += manualRegion;
      }
      out += '}';
    }
    out += " : (";
    for (size_t i = 0; i < body.arguments.size(); ++i) {
      if (i) out += ", ";
      out += body.arguments[i].type.in(t_);
    }
    out += ") -> ";
    if (n != 1) out += '(';
    for (size_t j = 0; j < n; ++j) {
      if (j) out += ", ";
      out += retTypes.results[j];
    }
    if (n != 1) out += ')';
    out += '\n';
    // Results: copy and ShardToFull per tensor (uses were redirected by planResults).
    for (size_t j = 0; j < n; ++j) {
      if (!isShapedType(retTypes.results[j])) continue;
      std::string callResult = n == 1 ? call : call + "#" + std::to_string(j);
      std::string o = names_.next(base + "_out" + std::to_string(j), m.op);
      copyLine(o, callResult, innerOut[j]->bare, manualRegion, retTypes.results[j]);
      customCallLine(m.full[j], "SPMDShardToFullShape", o, m.out[j].in(t_), manualParent, retTypes.results[j],
                types.results[j]);
    }
    // The outlined body, at the end of the module.
    std::string_view moduleIndent = module::moduleIndent(tree_, module);
    std::string bodyIndent = std::string(moduleIndent) + "  ";
    std::string reindented =
        module_lex::reindent(bodyText, indentationAt(t_, tree_.ops[body.ops.front()].whole.begin), bodyIndent);
    std::string fn;
    fn.reserve(2 * moduleIndent.size() + name.size() + fnArgs.size() + fnResults.size() + reindented.size() + 48);
    fn += moduleIndent;
    fn += "func.func private @";
    fn += name;
    fn += '(';
    fn += fnArgs;
    fn += ") -> (";
    fn += fnResults;
    fn += ") {\n";
    fn += reindented;
    if (fn.back() != '\n') fn += '\n';
    fn += moduleIndent;
    fn += "}\n";
    outlined_[module].push_back({std::move(fn), op.whole.begin});
    return out;
  }


  // `range` of the text with the leaf edits applied and the manual
  // computations inside it replaced by their lowering.
  void renderRangeInit() {
    for (const Rewriter::Edit& e : leaf_.edits()) sortedLeaves_.push_back(&e);
    std::stable_sort(sortedLeaves_.begin(), sortedLeaves_.end(), [](const Rewriter::Edit* a, const Rewriter::Edit* b) {
      return a->span.begin != b->span.begin ? a->span.begin < b->span.begin : a->seq < b->seq;
    });
  }

  Result<std::string> renderRange(TextSpan range) {
    std::string out;
    size_t p = range.begin;
    size_t li = std::lower_bound(sortedLeaves_.begin(), sortedLeaves_.end(), range.begin,
                                 [](const Rewriter::Edit* e, size_t v) { return e->span.begin < v; }) -
                sortedLeaves_.begin();
    // Manual computations directly in the range, and module ends for the outlined bodies.
    // manuals_ is in text order: start at the first one in the range, and
    // stop at the first one past it (each call costs what the range holds).
    size_t k = std::lower_bound(manuals_.begin(), manuals_.end(), range.begin,
                                [&](const Manual& m, size_t v) { return tree_.ops[m.op].line.begin < v; }) -
               manuals_.begin();
    for (; k <= manuals_.size(); ++k) {
      size_t mcBegin = range.end, mcEnd = range.end;
      const Manual* m = nullptr;
      for (; k < manuals_.size(); ++k) {
        const OpNode& op = tree_.ops[manuals_[k].op];
        TextSpan s = op.line;
        if (s.begin >= range.end) {
          k = manuals_.size();
          break;
        }
        if (s.begin >= p && s.end <= range.end) {
          m = &manuals_[k];
          mcBegin = s.begin;
          mcEnd = s.end;
          break;
        }
      }
      // Leaf edits (and module ends) before this manual computation.
      SB_TRY(copyUntil(out, p, mcBegin, li));
      if (!m) break;
      const OpNode& op = tree_.ops[m->op];
      bool wholeLine = op.line.begin != op.whole.begin;
      std::string_view indent = indentationAt(t_, op.whole.begin);
      SB_ASSIGN_OR_RETURN(std::string lowered, lowerManual(*m, wholeLine ? indent : ""));
      if (!wholeLine && !lowered.empty() && lowered.back() == '\n') lowered.pop_back();
      out += lowered;
      p = mcEnd;
      while (li < sortedLeaves_.size() && sortedLeaves_[li]->span.begin < p) ++li;
    }
    return out;
  }

  // Copies [p, until) with the leaf edits in it.
  Status copyUntil(std::string& out, size_t& p, size_t until, size_t& li) {
    while (true) {
      size_t next = until;
      const Rewriter::Edit* e = nullptr;
      if (li < sortedLeaves_.size() && sortedLeaves_[li]->span.begin < until) {
        e = sortedLeaves_[li];
        next = e->span.begin;
      }
      if (!e) break;
      if (next < p) return makeError(ErrorCode::kInternal, "overlapping rewrites in shard-map export", next);
      out.append(t_.substr(p, next - p));
      out += e->text;
      p = e->span.end;
      ++li;
    }
    out.append(t_.substr(p, until - p));
    p = until;
    return okStatus();
  }

  PassContext& ctx_;
  std::string_view t_;
  const OpTree& tree_;
  FreshNames names_;
  UseIndex uses_{tree_};
  sdy::Context ctx_sdy_;
  std::unordered_map<std::string, Stripped> stripped_;  // node-based: the pointers handed out stay valid
  std::string strippedKey_;
  std::vector<Manual> manuals_;
  std::map<int, size_t> manualAt_;
  std::map<const AttrDictNode*, DictEditor> editors_;
  std::map<const AttrDictNode*, int> dictOwner_;
  std::map<std::vector<std::string>, std::string> axesAttrs_;
  std::vector<std::pair<size_t, std::string>> argInserts_;
  std::vector<std::pair<TextSpan, std::string>> resultWraps_;
  Rewriter leaf_{""};
  std::vector<const Rewriter::Edit*> sortedLeaves_;
  BodyNames bodyNames_{tree_, kBodyName};
  std::map<int, std::vector<std::pair<std::string, size_t>>> outlined_;  // body, manual computation
};

}  // namespace

Status runShardMapExport(PassContext& ctx) {
  ShardMapExport pass(ctx);
  SB_TRY(pass.run());
  return okStatus();
}

Result<bool> runShardMapExportOver(PassContext& ctx, const Rewriter& pending) {
  ShardMapExport pass(ctx);
  return pass.runOver(pending);
}

}  // namespace shardbridge::module
