// A generator of small sdy modules for the export-pipeline properties
// (tests/module/export_pipeline_property_test.cc) and the module benchmark:
// several top-level modules (or one implicit module), each with its own
// meshes (the same names reused across modules), functions whose arguments,
// results and ops carry sdy shardings, nested sdy.manual_computation ops,
// sharding constraints, sdy.reshard, the collectives, sdy.constant,
// multi-result custom calls, comments and loc(...) markers.
//
// The generator knows what the export must write at each value, by
// construction: for every value it records the sdy sharding it wrote and the
// manual axes in force there, and computes the expected `mhlo.sharding`
// string with convert::convertToHloSharding (the attribute converter the
// export command's path uses), MLIR-escaped as the module text holds it.
//
// Choices come from a `Pick` callback (pick(n) in [0, n)), so the same
// generator serves RapidCheck (rc::gen) and a seeded std::mt19937 (bench).
//
// Names (which the properties use to find values in the output):
//   values           %vN (results), %vN#i of a multi-result op
//   function args    %argK; manual-computation block args %bN_i
//   functions        @fM_K (M the module), custom-call targets @sb_target
//   lowering of the manual computation %vN (docs: shard_map_export.cc):
//     %vN_in<i> (copy), %vN_local<i> (@SPMDFullToShardShape), %vN_body
//     (the call), %vN_out<i> (copy), %vN or %vN_full<i> (@SPMDShardToFullShape)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "shardbridge/convert/export.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::module::testgen {

using Pick = std::function<int(int)>;

struct GenMesh {
  std::string name;                                     // without '@'
  std::vector<std::pair<std::string, int64_t>> axes;    // in mesh order
  int64_t maximalDevice = -1;                           // >= 0: `<[], device_ids=[N]>`
  std::string text() const {
    std::string s = "<[";
    for (size_t i = 0; i < axes.size(); ++i)
      s += (i ? ", \"" : "\"") + axes[i].first + "\"=" + std::to_string(axes[i].second);
    s += "]";
    if (maximalDevice >= 0) s += ", device_ids=[" + std::to_string(maximalDevice) + "]";
    return s + ">";
  }
};

struct GenOptions {
  int maxModules = 2;
  int maxFunctions = 2;
  int maxOpsPerBlock = 5;
  int maxManualDepth = 2;
};

// What a generated module holds, for checking the export against.
struct GeneratedModule {
  std::string text;
  // Every op written, in text order (parseOpTree's order): module,
  // sdy.mesh, func.func, the ops, return / sdy.return.
  std::vector<std::string> opNames;
  // Expected `mhlo.sharding` value (the MLIR string literal, quotes
  // included) of the op defining each result name; "" where none must be.
  std::map<std::string, std::string> opSharding;
  // Result names that must not be defined in the output (sdy.all_reduce).
  std::set<std::string> removed;
  // Expected argument / result shardings of each function, by the name of
  // its first argument (`@fM_K` top-level functions: "@fM_K"; an outlined
  // body: "%bN_0"); "" where none.
  struct FuncExpect {
    std::vector<std::string> args;
    std::vector<std::string> results;
  };
  std::map<std::string, FuncExpect> funcs;
  int manualComputations = 0;
  // Byte strings that must appear in the output exactly once, unchanged:
  // comment markers, loc markers, lines of ops nothing rewrites.
  std::vector<std::string> verbatim;
  int modules = 0;
  bool implicitModule = false;
};

class ModuleGenerator {
 public:
  ModuleGenerator(Pick pick, GenOptions options = {}) : pick_(std::move(pick)), options_(options) {}

  GeneratedModule generate() {
    out_ = {};
    int modules = 1 + pick_(options_.maxModules);
    out_.implicitModule = modules == 1 && pick_(4) == 0;
    out_.modules = modules;
    for (int m = 0; m < modules; ++m) genModule(m);
    return std::move(out_);
  }

  // The expected mhlo.sharding literal of `sharding` (an sdy `<@mesh, ...>`
  // or `<[...]>` per-value text) with `manual` axes, on `meshes`.
  static std::string expectedString(const std::map<std::string, GenMesh>& meshes,
                                    const std::string& sharding, bool perValue,
                                    const std::vector<std::string>& manual) {
    sdy::Context& ctx = context();
    auto lookup = [&](std::string_view name) -> sdy::MeshAttr {
      auto it = meshes.find(std::string(name));
      if (it == meshes.end()) return {};
      auto mesh = sdy::parseMesh(ctx, it->second.text());
      return mesh ? *mesh : sdy::MeshAttr();
    };
    Result<hlo::HloSharding> hlo = [&]() -> Result<hlo::HloSharding> {
      if (perValue) {
        auto s = sdy::parseTensorShardingPerValue(ctx, sharding);
        if (!s) return s.error();
        return convert::convertToHloSharding(*s, lookup, manual);
      }
      auto s = sdy::parseTensorSharding(ctx, sharding);
      if (!s) return s.error();
      return convert::convertToHloSharding(*s, lookup, manual);
    }();
    if (!hlo) return "<generator error: " + hlo.error().message + " for " + sharding + ">";
    std::string s = "\"";
    for (char c : hlo->toString()) s += c == '"' ? std::string("\\22") : std::string(1, c);
    return s + "\"";
  }

 private:
  struct Value {
    std::string name;            // `%v3`, `%v3#1`, `%arg0`
    std::vector<int64_t> dims;
  };
  struct Scope {
    const GenMesh* manualMesh = nullptr;   // inside a manual computation body
    std::vector<std::string> region;       // manual axes in force, outer first
    std::vector<Value> pool;
    std::set<std::string> forwarded;       // values whose uses the export rewrites (all_reduce
                                           // results, results of a 2-result manual computation)
    int manualDepth = 0;
    int keptOps = 0;                       // ops written that the export does not remove
    bool inBody() const { return manualMesh != nullptr; }
  };

  static sdy::Context& context() {
    static sdy::Context ctx;
    return ctx;
  }

  static std::string typeOf(const std::vector<int64_t>& dims) {
    std::string s = "tensor<";
    for (int64_t d : dims) s += std::to_string(d) + "x";
    return s + "f32>";
  }

  std::string indent(int depth) const { return std::string(static_cast<size_t>(depth) * 2, ' '); }

  // --- meshes and shardings ------------------------------------------------
  void genModule(int m) {
    meshes_.clear();
    const int depth = out_.implicitModule ? 0 : 1;
    if (!out_.implicitModule) {
      out_.text += "module @m" + std::to_string(m) + " {\n";
      out_.opNames.push_back("module");
    }
    static const char* kMeshNames[] = {"mesh", "mesh_1", "m"};
    int meshCount = 1 + pick_(3);
    for (int i = 0; i < meshCount; ++i) {
      GenMesh mesh;
      mesh.name = kMeshNames[i];
      // A mesh without axes (`<[]>`, everything on it replicated) now and
      // then; a maximal one (`device_ids=[N]`) only takes rank-0 shardings,
      // which tensors here never have.
      if (pick_(10) != 0) {
        static const char* kAxes[] = {"x", "y", "z", "w"};
        int axes = 1 + pick_(3);
        int start = pick_(2);
        for (int a = 0; a < axes; ++a) {
          static const int64_t kSizes[] = {2, 4, 2, 1};
          mesh.axes.push_back({kAxes[start + a], kSizes[pick_(a == 0 ? 2 : 4)]});
        }
      }
      out_.text += indent(depth) + "sdy.mesh @" + mesh.name + " = " + mesh.text() + "\n";
      out_.opNames.push_back("sdy.mesh");
      meshes_[mesh.name] = mesh;
    }
    int funcs = 1 + pick_(options_.maxFunctions);
    for (int f = 0; f < funcs; ++f) genFunction(m, f, depth);
    if (!out_.implicitModule) out_.text += "}\n";
  }

  const GenMesh& anyMesh() {
    auto it = meshes_.begin();
    std::advance(it, pick_(static_cast<int>(meshes_.size())));
    return it->second;
  }

  // Axes of `mesh` usable in a dim sharding under `region` (size > 1, not manual).
  static std::vector<std::string> freeAxes(const GenMesh& mesh, const std::vector<std::string>& region) {
    std::vector<std::string> v;
    for (const auto& [name, size] : mesh.axes) {
      bool manual = false;
      for (const std::string& r : region) manual |= r == name;
      if (size > 1 && !manual) v.push_back(name);
    }
    return v;
  }

  // A random valid sharding `<@mesh, [...]...>` of rank `rank` under `scope`.
  std::string genSharding(const Scope& scope, size_t rank) {
    const GenMesh& mesh = scope.inBody() ? *scope.manualMesh : anyMesh();
    std::vector<std::string> free = freeAxes(mesh, scope.region);
    // Shuffle, then deal the axes out to dims; the rest may be replicated.
    for (size_t i = free.size(); i > 1; --i) std::swap(free[i - 1], free[static_cast<size_t>(pick_(static_cast<int>(i)))]);
    size_t next = 0;
    std::string s = "<@" + mesh.name + ", [";
    for (size_t d = 0; d < rank; ++d) {
      s += d ? ", {" : "{";
      int n = next < free.size() ? pick_(3) : 0;
      bool first = true;
      for (int k = 0; k < n && next < free.size(); ++k, first = false) s += (first ? "\"" : ", \"") + free[next++] + "\"";
      if (pick_(5) == 0) s += first ? "?" : ", ?";
      s += "}";
    }
    s += "]";
    std::vector<std::string> rest;
    for (const auto& [name, size] : mesh.axes)
      for (size_t k = next; k < free.size(); ++k)
        if (free[k] == name) rest.push_back(name);
    if (!rest.empty() && pick_(3) == 0) {
      std::string list;
      for (const std::string& r : rest)
        if (pick_(2) == 0) list += (list.empty() ? "\"" : ", \"") + r + "\"";
      if (!list.empty()) s += ", replicated={" + list + "}";
    }
    return s + ">";
  }

  std::string replicatedOn(const GenMesh& mesh, size_t rank) {
    std::string s = "<@" + mesh.name + ", [";
    for (size_t d = 0; d < rank; ++d) s += d ? ", {}" : "{}";
    return s + "]>";
  }

  std::string expect(const std::string& sharding, bool perValue, const std::vector<std::string>& manual) {
    return expectedString(meshes_, sharding, perValue, manual);
  }

  // --- functions and ops ------------------------------------------------------
  std::vector<int64_t> genDims() {
    static const int64_t kDims[] = {64, 32, 16};
    std::vector<int64_t> dims(static_cast<size_t>(1 + pick_(3)));
    for (int64_t& d : dims) d = kDims[pick_(3)];
    return dims;
  }

  void genFunction(int m, int f, int depth) {
    Scope scope;
    std::string name = "@f" + std::to_string(m) + "_" + std::to_string(f);
    GeneratedModule::FuncExpect fe;
    std::string args;
    int argCount = 1 + pick_(3);
    for (int a = 0; a < argCount; ++a) {
      Value v{"%arg" + std::to_string(a), genDims()};
      args += (a ? ", " : "") + v.name + ": " + typeOf(v.dims);
      if (pick_(2) == 0) {
        std::string s = genSharding(scope, v.dims.size());
        args += " {sdy.sharding = #sdy.sharding" + s + "}";
        fe.args.push_back(expect(s, false, {}));
      } else {
        fe.args.push_back("");
      }
      scope.pool.push_back(std::move(v));
    }
    out_.opNames.push_back("func.func");
    std::string body = genBlock(scope, depth + 1);
    // Results: values of the pool (all of them tensors).
    int resCount = 1 + pick_(2);
    std::vector<Value> results;
    for (int r = 0; r < resCount; ++r) results.push_back(pickValue(scope));
    std::string sig, ret, retTypes;
    bool anyAttr = false;
    for (size_t r = 0; r < results.size(); ++r) {
      std::string t = typeOf(results[r].dims);
      sig += (r ? ", " : "") + t;
      if (pick_(2) == 0) {
        std::string s = genSharding(scope, results[r].dims.size());
        sig += " {sdy.sharding = #sdy.sharding" + s + "}";
        fe.results.push_back(expect(s, false, {}));
        anyAttr = true;
      } else {
        fe.results.push_back("");
      }
      ret += (r ? ", " : "") + results[r].name;
      retTypes += (r ? ", " : "") + t;
    }
    std::string resultText = results.size() == 1 && !anyAttr ? sig : "(" + sig + ")";
    out_.text += indent(depth) + "func.func " + name + "(" + args + ") -> " + resultText + " {\n";
    out_.text += body;
    out_.text += indent(depth + 1) + "return " + ret + " : " + retTypes + "\n";
    out_.text += indent(depth) + "}\n";
    out_.opNames.push_back("return");
    out_.funcs[name] = std::move(fe);
  }

  Value pickValue(const Scope& scope) {
    return scope.pool[static_cast<size_t>(pick_(static_cast<int>(scope.pool.size())))];
  }

  std::string fresh() { return "%v" + std::to_string(counter_++); }

  std::string locTail() {
    if (pick_(4) != 0) return "";
    std::string marker = "loc(\"sb_loc_" + std::to_string(counter_++) + "\")";
    out_.verbatim.push_back(marker);
    return " " + marker;
  }

  // An op's expected sharding: its own, or inside a body the replicated
  // manual one (shard_map_export marks every op of a body), else none.
  std::string opExpect(const Scope& scope, const std::string& own, bool perValue, size_t rank) {
    if (!own.empty()) return expect(own, perValue, scope.region);
    if (scope.inBody()) return expect(replicatedOn(*scope.manualMesh, rank), false, scope.region);
    return "";
  }

  std::string genBlock(Scope& scope, int depth) {
    std::string s;
    int ops = 1 + pick_(options_.maxOpsPerBlock);
    // No comment before the first op that stays in a manual computation
    // body (an sdy.all_reduce goes): the outlining drops it
    // (DISABLED_CommentBeforeTheFirstOpOfABodyIsKept in the property test).
    for (int i = 0; i < ops; ++i) s += genOp(scope, depth, !scope.inBody() || scope.keptOps > 0);
    return s;
  }

  std::string genOp(Scope& scope, int depth, bool allowComment = true) {
    std::string ind = indent(depth);
    int kind = allowComment ? pick_(14) : 1 + pick_(13);
    if (kind != 0 && kind != 8) ++scope.keptOps;
    Value x = pickValue(scope);
    std::string t = typeOf(x.dims);
    std::string r = fresh();
    auto maybeSharding = [&](std::string& own) -> std::string {
      if (pick_(2) != 0) return "";
      own = genSharding(scope, x.dims.size());
      return " {sdy.sharding = #sdy.sharding_per_value<[" + own + "]>}";
    };
    auto dimsList = [&]() {
      const GenMesh& mesh = scope.inBody() ? *scope.manualMesh : anyMesh();
      std::vector<std::string> free = freeAxes(mesh, scope.region);
      std::string l = "[";
      for (size_t d = 0; d < x.dims.size(); ++d) {
        l += d ? ", {" : "{";
        if (!free.empty() && pick_(2) == 0) l += "\"" + free[static_cast<size_t>(pick_(static_cast<int>(free.size())))] + "\"";
        l += "}";
      }
      return l + "]";
    };
    auto define = [&](const std::string& line, const std::string& sdyOwn, const std::string& opName, bool perValue) {
      out_.opNames.push_back(opName);
      out_.opSharding[r] = opExpect(scope, sdyOwn, perValue, x.dims.size());
      scope.pool.push_back({r, x.dims});
      return ind + line + "\n";
    };
    switch (kind) {
      case 0: {  // a comment with a unique marker
        // sdy text in a comment is not an sdy attribute. (No `@mesh` here:
        // export-shardings keeps a mesh a comment names, see
        // DISABLED_CommentNamingAMeshDoesNotKeepIt in the property test.)
        std::string c = "// sb-comment-" + std::to_string(counter_++) + " {sdy.sharding = #sdy.sharding<mesh>}";
        out_.verbatim.push_back(c);
        return ind + c + "\n" + genOp(scope, depth, false);
      }
      case 1:
      case 2: {  // unary elementwise, maybe sharded
        std::string own;
        std::string attrs = maybeSharding(own);
        std::string loc = locTail();
        std::string line = r + " = stablehlo.negate " + x.name + attrs + " : " + t + loc;
        if (own.empty() && !scope.inBody() && !scope.forwarded.count(x.name)) out_.verbatim.push_back(ind + line + "\n");
        return define(line, own, "stablehlo.negate", false);
      }
      case 3: {  // binary
        Value y = x;
        for (const Value& v : scope.pool)
          if (v.dims == x.dims && pick_(2) == 0) y = v;
        std::string own;
        std::string attrs = maybeSharding(own);
        std::string line = r + " = stablehlo.add " + x.name + ", " + y.name + attrs + " : " + t;
        if (own.empty() && !scope.inBody() && !scope.forwarded.count(x.name) && !scope.forwarded.count(y.name))
          out_.verbatim.push_back(ind + line + "\n");
        return define(line, own, "stablehlo.add", false);
      }
      case 4: {
        std::string own = genSharding(scope, x.dims.size());
        return define(r + " = sdy.sharding_constraint " + x.name + " " + own + " : " + t, own,
                      "sdy.sharding_constraint", false);
      }
      case 5: {
        std::string own = genSharding(scope, x.dims.size());
        return define(r + " = sdy.reshard " + x.name + " " + own + " : " + t, own, "sdy.reshard", false);
      }
      case 6: {
        static const char* kColl[] = {"sdy.all_gather", "sdy.all_slice", "sdy.reduce_scatter"};
        std::string op = kColl[pick_(3)];
        std::string own = genSharding(scope, x.dims.size());
        return define(r + " = " + op + " " + dimsList() + " " + x.name + " out_sharding=" + own + " : " + t, own, op,
                      false);
      }
      case 7: {
        std::string own = genSharding(scope, x.dims.size());
        if (x.dims.size() >= 2) {
          const GenMesh& mesh = scope.inBody() ? *scope.manualMesh : anyMesh();
          std::vector<std::string> free = freeAxes(mesh, scope.region);
          std::string axis = free.empty() ? "" : "\"" + free[0] + "\"";
          return define(r + " = sdy.all_to_all [{" + axis + "}: 0->1] " + x.name + " out_sharding=" + own + " : " + t,
                        own, "sdy.all_to_all", false);
        }
        return define(r + " = sdy.collective_permute " + x.name + " out_sharding=" + own + " : " + t, own,
                      "sdy.collective_permute", false);
      }
      case 8: {  // all_reduce without unreduced input: removed, uses forwarded
        std::string own = genSharding(scope, x.dims.size());
        const GenMesh& mesh = scope.inBody() ? *scope.manualMesh : anyMesh();
        std::vector<std::string> free = freeAxes(mesh, scope.region);
        std::string axes = free.empty() ? "{}" : "{\"" + free[0] + "\"}";
        out_.opNames.push_back("sdy.all_reduce");
        out_.removed.insert(r);
        scope.forwarded.insert(r);
        scope.pool.push_back({r, x.dims});
        return ind + r + " = sdy.all_reduce " + axes + " " + x.name + " out_sharding=" + own + " : " + t + "\n";
      }
      case 9: {
        std::string own;
        std::string attrs = maybeSharding(own);
        return define(r + " = sdy.constant" + attrs + " dense<1.000000e+00> : " + t, own, "sdy.constant", false);
      }
      case 10: {  // two results
        Value y = pickValue(scope);
        std::string ty = typeOf(y.dims);
        std::string own;
        std::string attrs;
        if (pick_(2) == 0) {
          own = "<[" + genSharding(scope, x.dims.size()) + ", " + genSharding(scope, y.dims.size()) + "]>";
          attrs = " {sdy.sharding = #sdy.sharding_per_value" + own + "}";
        }
        out_.opNames.push_back("stablehlo.custom_call");
        std::string e;
        if (!own.empty()) e = expect(own, true, scope.region);
        else if (scope.inBody())
          e = expect("<[" + replicatedOn(*scope.manualMesh, x.dims.size()) + ", " +
                         replicatedOn(*scope.manualMesh, y.dims.size()) + "]>",
                     true, scope.region);
        out_.opSharding[r] = e;
        std::string line = r + ":2 = stablehlo.custom_call @sb_target(" + x.name + ", " + y.name + ")" + attrs +
                           " : (" + t + ", " + ty + ") -> (" + t + ", " + ty + ")";
        if (own.empty() && !scope.inBody() && !scope.forwarded.count(x.name) && !scope.forwarded.count(y.name))
          out_.verbatim.push_back(ind + line + "\n");
        scope.pool.push_back({r + "#0", x.dims});
        scope.pool.push_back({r + "#1", y.dims});
        return ind + line + "\n";
      }
      default:
        if (depthOf(scope) < options_.maxManualDepth) {
          std::string s = genManual(scope, depth, r);
          if (!s.empty()) return s;
        }
        {
          std::string line = r + " = stablehlo.sine " + x.name + " : " + t;
          if (!scope.inBody() && !scope.forwarded.count(x.name)) out_.verbatim.push_back(ind + line + "\n");
          return define(line, "", "stablehlo.sine", false);
        }
    }
  }

  static int depthOf(const Scope& scope) { return scope.manualDepth; }

  // An sdy.manual_computation over 1-2 values of the pool, result i of the
  // shape of operand i; empty when no mesh has a free axis.
  std::string genManual(Scope& scope, int depth, const std::string& r) {
    const GenMesh* mesh = scope.inBody() ? scope.manualMesh : &anyMesh();
    // Own axes: after the last axis in force, in mesh order, size > 1.
    size_t start = 0;
    for (size_t a = 0; a < mesh->axes.size(); ++a)
      for (const std::string& reg : scope.region)
        if (mesh->axes[a].first == reg) start = a + 1;
    std::vector<std::pair<std::string, int64_t>> own;
    for (size_t a = start; a < mesh->axes.size(); ++a)
      if (mesh->axes[a].second > 1 && (own.empty() || pick_(2) == 0)) own.push_back(mesh->axes[a]);
    if (own.empty()) return "";
    int n = 1 + pick_(2);
    std::vector<Value> operands;
    for (int i = 0; i < n; ++i) operands.push_back(pickValue(scope));
    int id = std::stoi(r.substr(2));  // r == "%v<id>"
    Scope inner;
    inner.manualMesh = mesh;
    inner.manualDepth = depthOf(scope) + 1;
    inner.region = scope.region;
    for (const auto& a : own) inner.region.push_back(a.first);
    std::vector<std::string> ins;
    std::vector<std::vector<int64_t>> local;
    std::string blockArgs;
    GeneratedModule::FuncExpect fe;
    std::vector<std::string> rep;
    for (int i = 0; i < n; ++i) {
      const Value& v = operands[static_cast<size_t>(i)];
      std::vector<int64_t> l = v.dims;
      std::string s = "<@" + mesh->name + ", [";
      std::vector<bool> used(own.size());
      for (size_t d = 0; d < v.dims.size(); ++d) {
        s += d ? ", {" : "{";
        bool first = true;
        for (size_t k = 0; k < own.size(); ++k)
          if (!used[k] && pick_(3) == 0 && l[d] % own[k].second == 0) {
            used[k] = true;
            s += (first ? "\"" : ", \"") + own[k].first + "\"";
            first = false;
            l[d] /= own[k].second;
          }
        s += "}";
      }
      s += "]>";
      ins.push_back(s);
      local.push_back(l);
      std::string b = "%b" + std::to_string(id) + "_" + std::to_string(i);
      blockArgs += (i ? ", " : "") + b + ": " + typeOf(l);
      inner.pool.push_back({b, l});
      rep.push_back(replicatedOn(*mesh, l.size()));
      std::string e = expect(rep.back(), false, inner.region);
      fe.args.push_back(e);
      fe.results.push_back(e);
      std::string suffix = std::to_string(i);
      out_.opSharding["%v" + std::to_string(id) + "_in" + suffix] = expect(s, false, scope.region);
      out_.opSharding["%v" + std::to_string(id) + "_local" + suffix] = e;
      out_.opSharding["%v" + std::to_string(id) + "_out" + suffix] = e;
      out_.opSharding[n == 1 ? r : r + "_full" + suffix] = expect(s, false, scope.region);
    }
    std::string body = "<[";
    for (size_t i = 0; i < rep.size(); ++i) body += (i ? ", " : "") + rep[i];
    out_.opSharding[r + "_body"] = n == 1 ? fe.args[0] : expect(body + "]>", true, inner.region);
    out_.funcs["%b" + std::to_string(id) + "_0"] = fe;
    ++out_.manualComputations;
    out_.opNames.push_back("sdy.manual_computation");
    std::string list;
    for (size_t i = 0; i < ins.size(); ++i) list += (i ? ", " : "") + ins[i];
    std::string axes;
    for (size_t k = 0; k < own.size(); ++k) axes += (k ? ", \"" : "\"") + own[k].first + "\"";
    std::string operandText, globalTypes, localTypes;
    for (int i = 0; i < n; ++i) {
      operandText += (i ? ", " : "") + operands[static_cast<size_t>(i)].name;
      globalTypes += (i ? ", " : "") + typeOf(operands[static_cast<size_t>(i)].dims);
    }
    std::string inBody = genBlock(inner, depth + 1);
    std::string rets;
    for (int i = 0; i < n; ++i) {
      Value pickRet{"%b" + std::to_string(id) + "_" + std::to_string(i), local[static_cast<size_t>(i)]};
      for (const Value& v : inner.pool)
        if (v.dims == pickRet.dims && pick_(2) == 0) pickRet = v;
      rets += (i ? ", " : "") + pickRet.name;
      localTypes += (i ? ", " : "") + typeOf(local[static_cast<size_t>(i)]);
    }
    out_.opNames.push_back("sdy.return");
    std::string ind = indent(depth);
    std::string s = ind + r + (n == 1 ? "" : ":2") + " = sdy.manual_computation(" + operandText + ") in_shardings=[" +
                    list + "] out_shardings=[" + list + "] manual_axes={" + axes + "} (" + blockArgs + ") {\n" +
                    inBody + indent(depth + 1) + "sdy.return " + rets + " : " + localTypes + "\n" + ind + "} : (" +
                    globalTypes + ") -> " + (n == 1 ? globalTypes : "(" + globalTypes + ")") + "\n";
    for (int i = 0; i < n; ++i) {
      std::string name = n == 1 ? r : r + "#" + std::to_string(i);
      if (n != 1) scope.forwarded.insert(name);
      scope.pool.push_back({name, operands[static_cast<size_t>(i)].dims});
    }
    return s;
  }

  Pick pick_;
  GenOptions options_;
  GeneratedModule out_;
  std::map<std::string, GenMesh> meshes_;
  int counter_ = 0;
};

}  // namespace shardbridge::module::testgen
