// Objects of the bound types made by `cls.__new__(cls)` alone: the error
// their use raises, and the __reduce__ that pickles go through (common.h;
// docs/python.md § Objects made by __new__).
#include <string>

#include "common.h"

namespace shardbridge::python {
namespace {

std::string typeName(py::handle obj) { return py::str(py::type::of(obj).attr("__name__")); }

// How to make a real one, for the message.
const char* makeWith(py::handle obj) {
  if (py::isinstance<hlo::HloSharding>(obj)) return "HloSharding.parse() or HloSharding.from_proto()";
  if (py::isinstance<MeshObject>(obj)) return "Mesh(axes) or Mesh.parse()";
  return "TensorSharding.parse() or to_sdy()";
}

}  // namespace

void raiseUninitialised(py::handle obj) {
  throw py::type_error("this " + typeName(obj) + " is not initialised (it was made by __new__() alone); make one with " +
                       makeWith(obj));
}

py::tuple reduceToState(py::handle self) {
  return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"), py::make_tuple(py::type::of(self)),
                        self.attr("__getstate__")());
}

}  // namespace shardbridge::python
