// _core._time_cpp: the C++ cost of what a Python call does, timed in a C++
// loop inside this same module, so bench/python_overhead.py can subtract it
// from the per-call Python time (issue 12 item 5). Private: not part of the
// public API.
#include <chrono>
#include <map>

#include "common.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/hlo/text.h"

namespace shardbridge::python {
namespace {

// Seconds per iteration of `op` ("parse_print": hlo::parseSharding +
// printSharding of `text`; "to_sdy": convertToSdySharding of the parsed
// `text` onto `mesh`), over `iterations` runs.
double timeCpp(const std::string& op, const std::string& text, py::object mesh, int64_t iterations) {
  if (iterations <= 0) throw py::value_error("iterations must be positive");
  auto start = std::chrono::steady_clock::now();
  volatile size_t sink = 0;
  if (op == "parse_print") {
    for (int64_t i = 0; i < iterations; ++i) {
      auto parsed = hlo::parseSharding(text);
      if (!parsed) raise(parsed.error(), text);
      sink = sink + hlo::printSharding(*parsed).size();
    }
  } else if (op == "to_sdy") {
    hlo::HloSharding s = unwrap(hlo::parseSharding(text), text);
    MeshPtr m = meshFrom(mesh);
    ContextPtr context = currentContext();
    sdy::MeshAttr attr = meshIn(*m, context);
    sdy::MeshOrRef ref = sdy::MeshOrRef::ref(context->ctx, m->name);
    std::map<int64_t, std::string> singles;
    convert::AnyOrderOptions anyOrder{true};
    start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < iterations; ++i) {
      auto out = convert::convertToSdySharding(context->ctx, s, attr, ref, singles, convert::ownRank(s), false,
                                               anyOrder);
      if (!out) raise(out.error());
      sink = sink + static_cast<size_t>(out->rank());
    }
  } else {
    throw py::value_error("unknown op '" + op + "' (parse_print, to_sdy)");
  }
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count() / static_cast<double>(iterations);
}

}  // namespace

void registerBench(py::module_& m) {
  m.def("_time_cpp", &timeCpp, py::arg("op"), py::arg("text"), py::arg("mesh") = py::none(),
        py::arg("iterations") = 100000, "Seconds per C++ iteration of `op` (bench/python_overhead.py).");
}

}  // namespace shardbridge::python
