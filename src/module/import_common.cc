#include "module/import_common.h"

#include <algorithm>

#include "module/frontend_attrs.h"
#include "module/scanner.h"
#include "module/text_lex.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module {

Result<Frontend> frontendOf(std::string_view t, const AttrDictNode& d) {
  Frontend f;
  f.entry = d.find(kFrontendAttrs);
  if (!f.entry) return f;
  if (f.entry->value.empty() || t[f.entry->value.begin] != '{')
    return makeError(ErrorCode::kParse, "expected a dictionary for mhlo.frontend_attributes", f.entry->value.begin);
  SB_ASSIGN_OR_RETURN(f.dict, parseDictAt(t, f.entry->value.begin));
  return f;
}

Result<std::string> roundTripString(std::string_view t, TextSpan value) {
  std::string_view literal = value.in(t);
  if (literal.empty() || literal.front() != '"')
    return makeError(ErrorCode::kParse, "expected a string attribute", value.begin);
  auto decoded = module_detail::decodeRoundTripLiteral(literal);
  if (!decoded) return decoded.error().shifted(value.begin);
  return std::move(*decoded);
}

Result<std::string> roundTripAttribute(std::string_view t, TextSpan value, std::string_view key) {
  SB_ASSIGN_OR_RETURN(std::string text, roundTripString(t, value));
  auto bad = [&](const std::string& why) {
    return makeError(ErrorCode::kParse, std::string(key) + " does not hold one attribute: " + why, value.begin);
  };
  if (text.empty() || text.front() != '#') return bad("expected '#', got " + module_lex::describe(text, 0));
  if (text.find_first_of("\n\r") != std::string::npos || text.find("//") != std::string::npos)
    return bad("a line break or '//' in it");
  // skipAttrValue reads up to the `}` that would close a dictionary.
  auto end = module_lex::skipAttrValue(text + "}", 0);
  if (!end) return bad(end.error().message);
  if (*end != text.size()) return bad("unexpected " + module_lex::describe(text, *end) + " after it");
  return text;
}

void removeFrontendKeys(std::string_view t, const Frontend& f, DictEditor& outer,
                        const std::vector<std::string_view>& keys) {
  if (!f.entry) return;
  DictEditor inner(t, f.dict);
  bool any = false;
  for (std::string_view k : keys)
    if (f.dict.find(k)) {
      inner.remove(k);
      any = true;
    }
  if (!any) return;
  std::string body = inner.render();
  if (body.empty()) {
    outer.remove(kFrontendAttrs);
  } else {
    outer.set(kFrontendAttrs, body);
  }
}

void commitModuleDict(Rewriter& rw, std::string_view t, const OpNode& module, const DictEditor& ed) {
  if (!ed.changed()) return;
  std::string body = ed.render();
  if (!body.empty() || !module.dict.present()) {
    ed.commit(rw, module.symbol.empty() ? module.nameSpan.end : module.symbol.end);
    return;
  }
  // `module @m attributes {...}`: the keyword goes with the dictionary, and
  // with the blanks before it, line breaks included (`-> T\n    attributes
  // {...} {` prints `-> T {`).
  size_t b = module.dict.whole.begin;
  size_t k = t.rfind("attributes", b);
  size_t from = (k != std::string_view::npos && k >= module.nameSpan.end) ? k : b;
  while (from > 0 && module_lex::isBlank(t[from - 1])) --from;
  // A word right after the dictionary (a stray token the tree let through)
  // keeps a blank before it, or it would join the op's name (mlir_import_fuzz).
  rw.replace({from, module.dict.whole.end}, std::string(module_lex::gapBefore(t, module.dict.whole.end)));
}

std::string_view customCallTarget(std::string_view t, const OpNode& op) {
  if (op.name != "stablehlo.custom_call") return {};
  if (!op.generic) return op.symbolName;
  // Generic form: call_target_name = "name" in the properties or dictionary.
  for (TextSpan s : {op.properties, op.dict.whole}) {
    std::string_view v = s.in(t);
    size_t k = v.find("call_target_name");
    if (k == std::string_view::npos) continue;
    size_t q = v.find('"', k);
    if (q == std::string_view::npos) continue;
    size_t e = v.find('"', q + 1);
    if (e == std::string_view::npos) continue;
    return v.substr(q + 1, e - q - 1);
  }
  return {};
}

bool isPythonCallback(std::string_view n) {
  return n == "xla_python_cpu_callback" || n == "xla_ffi_python_cpu_callback" || n == "xla_python_gpu_callback" ||
         n == "xla_ffi_python_gpu_callback";
}

std::optional<sdy::TensorShardingAttr> valueSharding(sdy::Context& ctx, const OpTree& tree, FuncValueIndex& values,
                                                     int func, std::string_view name, int index) {
  std::string_view t = tree.text;
  const OpNode& f = tree.ops[func];
  for (const ValueDef& a : f.funcArgs()) {
    if (a.name.in(t) != name) continue;
    const AttrEntry* e = a.dict.find("sdy.sharding");
    if (!e) return std::nullopt;
    auto s = sdy::parseTensorSharding(ctx, e->value.in(t));
    if (!s) return std::nullopt;
    return *s;
  }
  int resultIndex = 0;
  int def = values.definingOp(func, name, index, &resultIndex);
  if (def < 0) return std::nullopt;
  const AttrEntry* e = tree.ops[def].dict.find("sdy.sharding");
  if (!e) return std::nullopt;
  auto s = sdy::parseTensorShardingPerValue(ctx, e->value.in(t));
  if (!s || resultIndex >= static_cast<int>(s->shardings().size())) return std::nullopt;
  return s->shardings()[static_cast<size_t>(resultIndex)];
}

std::vector<std::string_view> namesDefinedIn(const OpTree& tree, int func) {
  std::string_view t = tree.text;
  std::vector<std::string_view> out;
  for (const ValueDef& a : tree.ops[func].funcArgs()) out.push_back(a.name.in(t));
  for (int i = func + 1; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (op.whole.begin >= tree.ops[func].whole.end) break;
    for (const ResultDef& d : op.resultDefs) out.push_back(d.name.in(t));
    for (const Region& r : op.regions)
      for (const Block& b : r.blocks)
        for (const ValueDef& a : b.arguments) out.push_back(a.name.in(t));
  }
  return out;
}

SymbolIndex::SymbolIndex(const OpTree& tree) {
  std::vector<int> modules = tree.modules();
  modules.push_back(-1);
  for (int m : modules) {
    const TreeVec<int>* body = tree.bodyOps(m);
    if (!body) continue;
    for (int i : *body)
      if (!tree.ops[i].symbol.empty()) index_.emplace(std::make_pair(m, tree.ops[i].symbolName), i);
  }
}

int SymbolIndex::lookup(int module, std::string_view name) const {
  auto it = index_.find({module, name});
  return it == index_.end() ? -1 : it->second;
}

std::pair<size_t, std::string> moduleBodyStart(const OpTree& tree, int module) {
  std::string_view t = tree.text;
  const TreeVec<int>* body = tree.bodyOps(module);
  if (body && !body->empty()) {
    size_t b = tree.ops[body->front()].whole.begin;
    std::string indent(module_lex::indentationAt(t, b));
    size_t lineStart = b - indent.size();
    if (lineStart == 0 || t[lineStart - 1] == '\n') return {lineStart, indent};
    return {b, ""};
  }
  if (module < 0) return {0, ""};
  const OpNode& m = tree.ops[module];
  size_t close = m.regions.empty() ? m.whole.end : m.regions[0].whole.end - 1;
  return {close, "  "};
}

}  // namespace shardbridge::module
