// Where the parts of a parsed sdy attribute came from in its text.
//
// Attributes are uniqued and carry no location, so the parser records one
// beside them: an AttrPath names a part ("dim 1, axis 0"), the SourceMap says
// at which byte that part starts. The verifier reports the AttrPath of what it
// rejects and turns it into an offset through the map, so the caret of a
// diagnostic lands on the offending token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shardbridge::sdy {

struct AttrPath {
  enum class Part : uint8_t {
    kWhole,           // the attribute as a whole
    kMeshOrRef,       // the `@mesh` reference or inline `mesh<...>` of a sharding
    kDim,             // dim shardings[index], at its `{`
    kDimAxis,         // dim shardings[index].axes[sub]
    kDimPriority,     // the `pN` of dim shardings[index]
    kReplicatedAxis,  // replicated axes[index]
    kUnreducedAxis,   // unreduced axes[index]
    kMeshAxis,        // mesh axes[index] (its quoted name)
    kMeshAxisSize,    // the size of mesh axes[index]
    kDeviceIds,       // the `device_ids` list, at its `[`
    kDeviceId,        // device_ids[index]
  };
  Part part = Part::kWhole;
  int32_t value = -1;  // which sharding of a sharding_per_value; -1 otherwise
  int32_t index = -1;
  int32_t sub = -1;

  friend bool operator==(const AttrPath&, const AttrPath&) = default;
};

class SourceMap {
 public:
  void add(const AttrPath& path, size_t offset) { entries_.push_back({path, offset}); }
  void clear() { entries_.clear(); }
  bool empty() const { return entries_.empty(); }

  // The offset recorded for `path`; failing that, for the nearest enclosing
  // part (an axis falls back to its dim, a dim to the whole value, ...); and
  // failing that `fallback`.
  size_t find(const AttrPath& path, size_t fallback = static_cast<size_t>(-1)) const {
    AttrPath p = path;
    for (int step = 0; step < 4; ++step) {
      for (const auto& e : entries_)
        if (e.path == p) return e.offset;
      // Walk outwards.
      if (p.part == AttrPath::Part::kDimAxis || p.part == AttrPath::Part::kDimPriority) {
        p.part = AttrPath::Part::kDim;
        p.sub = -1;
      } else if (p.part == AttrPath::Part::kMeshAxisSize) {
        p.part = AttrPath::Part::kMeshAxis;
      } else if (p.part == AttrPath::Part::kDeviceId) {
        p.part = AttrPath::Part::kDeviceIds;
        p.index = -1;
      } else if (p.part != AttrPath::Part::kWhole) {
        p = AttrPath{AttrPath::Part::kWhole, p.value, -1, -1};
      } else if (p.value != -1) {
        p.value = -1;
      } else {
        break;
      }
    }
    return fallback;
  }

 private:
  struct Entry {
    AttrPath path;
    size_t offset;
  };
  std::vector<Entry> entries_;
};

}  // namespace shardbridge::sdy
