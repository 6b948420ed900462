// shardbridge._core: the compiled half of the `shardbridge` package
// (python/shardbridge/__init__.py re-exports it; docs/python.md).
#include "common.h"
#include "shardbridge/version.h"

PYBIND11_MODULE(_core, m) {
  using namespace shardbridge::python;
  m.doc() = "shardbridge's C++ core: Shardy <-> XLA HloSharding conversions (docs/python.md)";
  m.attr("__version__") = SB_VERSION_STRING;
  registerErrors(m);
  registerMesh(m);
  registerTensorSharding(m);
  registerHloSharding(m);
  registerIndices(m, hloShardingClass());
  registerConversions(m);
  registerViews(m, hloShardingClass());
  registerModules(m);
  registerBench(m);
  registerFastCalls(m);
}
