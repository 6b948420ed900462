// symbol-dce (MLIR's mlir/lib/Transforms/SymbolDCE.cpp), as upstream's
// export pipeline runs it after the shard-map export: a `private` function
// that nothing in its module refers to (by `@name`) is removed, repeatedly,
// so that a private function only called from removed ones goes too.
// Public functions and other symbols stay. See docs/module.md "symbol-dce".
#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "module/pass.h"
#include "module/text_lex.h"

namespace shardbridge::module {

Status runSymbolDce(PassContext& ctx) {
  const OpTree& tree = ctx.tree;
  std::string_view t = ctx.text();
  std::vector<int> scopes = tree.modules();
  if (scopes.empty()) scopes.push_back(-1);
  for (int module : scopes) {
    const TreeVec<int>* body = tree.bodyOps(module);
    if (!body) continue;
    TextSpan scope = module < 0 ? TextSpan{0, t.size()} : tree.ops[module].whole;
    // The module's top-level ops in text order, to find which one holds a
    // reference; the private functions among them by name.
    std::vector<int> tops(body->begin(), body->end());
    std::unordered_map<std::string_view, int> privateByName;
    for (int f : tops)
      if (tree.ops[f].name == "func.func" && tree.ops[f].funcVisibility().in(t) == "private")
        privateByName[tree.ops[f].symbolName] = f;
    if (privateByName.empty()) continue;
    // Most `@` name something else (every sharding names its mesh): a name
    // whose length and first byte no private function has is passed over
    // before it is hashed.
    auto shape = [](std::string_view name) {
      return std::min<size_t>(name.size(), 63) * 256 + static_cast<unsigned char>(name.empty() ? 0 : name[0]);
    };
    std::vector<bool> shapes(64 * 256);
    for (const auto& [name, f] : privateByName) shapes[shape(name)] = true;
    // Every reference once: (the top-level op holding it, the private
    // function it names); references to itself do not count.
    std::unordered_map<int, int> uses;                         // private function -> references
    std::unordered_map<int, std::vector<int>> referencedFrom;  // holder -> private functions it names
    for (size_t at = t.find('@', scope.begin); at != std::string_view::npos && at < scope.end;
         at = t.find('@', at + 1)) {
      std::string_view name = module_lex::symbolAt(t, at);
      if (!shapes[shape(name)]) continue;
      auto target = privateByName.find(name);
      if (target == privateByName.end()) continue;
      auto holder = std::upper_bound(tops.begin(), tops.end(), at,
                                     [&](size_t v, int op) { return v < tree.ops[op].whole.begin; });
      int from = -1;
      if (holder != tops.begin() && at < tree.ops[*(holder - 1)].whole.end) from = *(holder - 1);
      if (from == target->second) continue;
      ++uses[target->second];
      if (from >= 0) referencedFrom[from].push_back(target->second);
    }
    // Remove the unused ones, and what only they used, from a worklist.
    std::vector<int> work;
    for (const auto& [name, f] : privateByName)
      if (uses[f] == 0) work.push_back(f);
    std::set<int> removed;
    while (!work.empty()) {
      int f = work.back();
      work.pop_back();
      if (!removed.insert(f).second) continue;
      for (int g : referencedFrom[f])
        if (--uses[g] == 0) work.push_back(g);
    }
    for (int f : removed) ctx.rw.erase(tree.ops[f].line);
  }
  return okStatus();
}

}  // namespace shardbridge::module
