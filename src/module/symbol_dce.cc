// symbol-dce (MLIR's mlir/lib/Transforms/SymbolDCE.cpp), as upstream's
// export pipeline runs it after the shard-map export: a `private` function
// that nothing in its module refers to (by `@name`) is removed, repeatedly,
// so that a private function only called from removed ones goes too.
// Public functions and other symbols stay. See docs/module.md "symbol-dce".
#include <set>
#include <string>

#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {
namespace {

// The symbol name referred to at '@' at `p` (`@name` or `@"name"`).
std::string_view symbolAt(std::string_view t, size_t p) {
  size_t b = p + 1;
  if (b < t.size() && t[b] == '"') {
    size_t e = t.find('"', b + 1);
    return e == std::string_view::npos ? std::string_view() : t.substr(b + 1, e - b - 1);
  }
  size_t e = b;
  while (e < t.size() && module_lex::isIdentChar(t[e])) ++e;
  return t.substr(b, e - b);
}

}  // namespace

Status runSymbolDce(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  std::vector<int> scopes = tree.modules();
  if (scopes.empty()) scopes.push_back(-1);
  for (int module : scopes) {
    const std::vector<int>* body = tree.bodyOps(module);
    if (!body) continue;
    TextSpan scope = module < 0 ? TextSpan{0, t.size()} : tree.ops[module].whole;
    std::set<int> removed;
    bool changed = true;
    while (changed) {
      changed = false;
      for (int f : *body) {
        const OpNode& op = tree.ops[f];
        if (op.name != "func.func" || op.funcVisibility.in(t) != "private" || removed.count(f)) continue;
        // References from ops already removed (and its own name) do not count.
        bool used = false;
        for (size_t at = t.find('@', scope.begin); at != std::string_view::npos && at < scope.end && !used;
             at = t.find('@', at + 1)) {
          if (at >= op.whole.begin && at < op.whole.end) continue;
          bool inRemoved = false;
          for (int r : removed) inRemoved |= at >= tree.ops[r].whole.begin && at < tree.ops[r].whole.end;
          used = !inRemoved && symbolAt(t, at) == op.symbolName;
        }
        if (!used) {
          removed.insert(f);
          changed = true;
        }
      }
    }
    for (int f : removed) ctx.rw.erase(tree.ops[f].line);
  }
  return okStatus();
}

}  // namespace shardbridge::module
