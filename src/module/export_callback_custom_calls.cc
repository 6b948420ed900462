// xla-sdy-stablehlo-round-trip-export-callback-custom-calls (upstream
// xla/service/spmd/shardy/stablehlo_round_trip/export_callback_custom_calls.cc):
// a Python host callback custom call with one non-tuple result that is used
// returns `tuple<T>` instead, and a `stablehlo.get_tuple_element` carrying
// the same sharding takes its place, as XLA's callback lowering expects.
//   %2 = stablehlo.custom_call @xla_python_cpu_callback(%1) {mhlo.sharding = "S", ...} : (A) -> T
// ->
//   %2_tuple = stablehlo.custom_call @xla_python_cpu_callback(%1) {mhlo.sharding = "S", ...} : (A) -> tuple<T>
//   %2 = stablehlo.get_tuple_element %2_tuple[0] {mhlo.sharding = "S"} : (tuple<T>) -> T
// See docs/module.md "export-callback-custom-calls".
#include <string>

#include "module/op_types.h"
#include "module/pass.h"
#include "module/text_lex.h"
#include "module/value_index.h"

namespace shardbridge::module {
namespace {

bool isCallback(std::string_view target) {
  return target == "xla_python_cpu_callback" || target == "xla_ffi_python_cpu_callback" ||
         target == "xla_python_gpu_callback" || target == "xla_ffi_python_gpu_callback";
}

bool used(const OpTree& tree, FuncValueIndex& values, int op, std::string_view name) {
  int func = tree.enclosingFunc(op);
  return func >= 0 && !values.users(func, name, -1).empty();
}

}  // namespace

Status runExportCallbackCustomCalls(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  FreshNames names(tree);
  FuncValueIndex values(tree);
  for (int i = 0; i < static_cast<int>(tree.ops.size()); ++i) {
    const OpNode& op = tree.ops[i];
    if (op.name != "stablehlo.custom_call" || op.generic || !isCallback(op.symbolName)) continue;
    if (op.resultDefs.size() != 1 || op.resultDefs[0].count != 1) continue;
    OpTypes types = opTypes(tree, op);
    if (!types.known || types.results.size() != 1 || types.results[0].starts_with("tuple<")) continue;
    std::string_view result = op.resultDefs[0].name.in(t);
    if (!used(tree, values, i, result)) continue;
    // The result type is the signature's tail after the last top-level `->`.
    std::string_view sig = op.signature.in(t);
    size_t arrow = sig.rfind("->");
    if (arrow == std::string_view::npos) continue;
    size_t typeBegin = op.signature.begin + arrow + 2;
    while (typeBegin < op.signature.end && module_lex::isBlank(t[typeBegin])) ++typeBegin;
    std::string type(types.results[0]);
    std::string tuple = names.next(std::string(result.substr(1)) + "_tuple", i);
    ctx.rw.replace(op.resultDefs[0].name, tuple);
    ctx.rw.replace({typeBegin, op.signature.end}, "tuple<" + type + ">");
    const AttrEntry* sharding = op.dict.find("mhlo.sharding");
    std::string dict = sharding ? " {mhlo.sharding = " + std::string(sharding->value.in(t)) + "}" : "";
    std::string indent(module_lex::indentationAt(t, op.whole.begin));
    ctx.rw.insert(op.whole.end, "\n" + indent + std::string(result) + " = stablehlo.get_tuple_element " + tuple +
                                    "[0]" + dict + " : (tuple<" + type + ">) -> " + type);
  }
  return okStatus();
}

}  // namespace shardbridge::module
