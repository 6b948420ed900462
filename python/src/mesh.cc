// shardbridge.Mesh: a verified sdy mesh (`#sdy.mesh<["x"=2, "y"=4]>`), and
// the attribute contexts every sdy object lives in.
#include <pybind11/stl.h>

#include <mutex>

#include "common.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"

namespace shardbridge::python {

namespace {

std::mutex gContextMutex;
ContextPtr* gCurrent = new ContextPtr();  // never destroyed (outlives the interpreter)
std::vector<std::weak_ptr<SharedContext>>* gAll = new std::vector<std::weak_ptr<SharedContext>>();

}  // namespace

ContextPtr currentContext() {
  std::lock_guard<std::mutex> lock(gContextMutex);
  ContextPtr& current = *gCurrent;
  // Context::size() costs about as much as a small conversion: look every
  // 256 uses (a context may overshoot the limit by what 256 calls add).
  static uint32_t uses = 0;
  if (!current || (++uses % 256 == 0 && current->ctx.size() >= kContextRotateAt)) {
    current = std::make_shared<SharedContext>();
    std::erase_if(*gAll, [](const std::weak_ptr<SharedContext>& w) { return w.expired(); });
    gAll->push_back(current);
  }
  return current;
}

// (contexts alive, attributes in the current one): for tests of the
// rotation (docs/python.md § Memory).
std::pair<size_t, size_t> contextStats() {
  std::lock_guard<std::mutex> lock(gContextMutex);
  size_t live = 0;
  for (const auto& w : *gAll) live += !w.expired();
  return {live, *gCurrent ? (*gCurrent)->ctx.size() : 0};
}

sdy::MeshAttr meshIn(const MeshObject& mesh, const ContextPtr& context) {
  if (mesh.context == context) return mesh.mesh;
  std::vector<sdy::MeshAxisAttr> axes;
  for (sdy::MeshAxisAttr a : mesh.mesh.axes()) axes.push_back(sdy::MeshAxisAttr::get(context->ctx, a.name(), a.size()));
  return sdy::MeshAttr::get(context->ctx, axes, mesh.mesh.deviceIds());
}

sdy::MeshOrRef refIn(const MeshObject& mesh, const ContextPtr& context) {
  if (mesh.context != context) return sdy::MeshOrRef::ref(context->ctx, mesh.name);
  // Cached in the mesh's own context, which the mesh keeps alive; the GIL
  // orders the first write before every read.
  if (!mesh.ref.impl()) mesh.ref = sdy::MeshOrRef::ref(context->ctx, mesh.name);
  return mesh.ref;
}

MeshPtr parseMesh(std::string_view text, const std::string& name) {
  auto out = std::make_shared<MeshObject>();
  out->context = currentContext();
  sdy::SourceMap locations;
  auto attr = unwrap(sdy::parseAttribute(out->context->ctx, text, &locations), text);
  if (const auto* m = std::get_if<sdy::MeshAttr>(&attr)) {
    out->mesh = *m;
  } else if (const auto* symbol = std::get_if<sdy::MeshSymbol>(&attr)) {
    out->mesh = symbol->mesh;
    out->name = symbol->name;
  } else {
    raise(makeError(ErrorCode::kInvalid,
                    "expected a mesh (#sdy.mesh<...>, <[...]> or sdy.mesh @NAME = <...>), got an sdy sharding", 0),
          text);
  }
  if (!name.empty()) out->name = name;
  check(sdy::verifyMesh(out->mesh, &locations), text);
  return out;
}

MeshPtr meshFrom(py::handle value) {
  // One type lookup (the caster), not isinstance and then cast.
  py::detail::make_caster<MeshPtr> caster;
  if (!isText(value) && caster.load(value, false)) return static_cast<MeshPtr>(caster);
  if (isText(value)) return parseMesh(textOf(value, "mesh"));
  throw py::type_error("mesh must be a shardbridge.Mesh or mesh text, not " +
                       std::string(py::str(py::type::of(value).attr("__name__"))));
}

namespace {

std::string meshText(const MeshObject& m) { return sdy::printMesh(m.mesh); }

MeshPtr makeMesh(py::handle axes, py::object deviceIds, const std::string& name) {
  auto out = std::make_shared<MeshObject>();
  out->context = currentContext();
  std::vector<std::pair<std::string, int64_t>> pairs;
  if (py::isinstance<py::dict>(axes)) {
    for (auto item : axes.cast<py::dict>()) {
      if (!isText(item.first)) throw py::type_error("mesh axis names must be str");
      pairs.emplace_back(item.first.cast<std::string>(),
                         int64Of(item.second, "the size of axis '" + item.first.cast<std::string>() + "'"));
    }
  } else if (isText(axes) || isBytes(axes)) {
    throw py::type_error("Mesh(axes) takes a dict of axis sizes; use Mesh.parse for mesh text");
  } else {
    for (auto item : py::iter(axes)) {
      if (!py::isinstance<py::sequence>(item) || isText(item) || py::len(item) != 2 || !isText(item[py::int_(0)])) {
        throw py::type_error("Mesh(axes) takes a dict {name: size} or (name, size) pairs");
      }
      std::string axis = item[py::int_(0)].cast<std::string>();
      pairs.emplace_back(axis, int64Of(item[py::int_(1)], "the size of axis '" + axis + "'"));
    }
  }
  std::vector<sdy::MeshAxisAttr> attrs;
  for (const auto& [axis, size] : pairs) attrs.push_back(sdy::MeshAxisAttr::get(out->context->ctx, axis, size));
  std::vector<int64_t> ids;
  if (!deviceIds.is_none()) {
    if (isText(deviceIds) || isBytes(deviceIds)) throw py::type_error("device_ids must be a sequence of ints");
    for (auto id : py::iter(deviceIds)) ids.push_back(int64Of(id, "a device id"));
  }
  out->mesh = sdy::MeshAttr::get(out->context->ctx, attrs, ids);
  if (!name.empty()) out->name = name;
  check(sdy::verifyMesh(out->mesh));
  return out;
}

}  // namespace

void registerMesh(py::module_& m) {
  m.def("_context_stats", &contextStats,
        "(contexts alive, attributes in the current context); contexts are replaced after "
        "65,536 attributes and freed with their last object.");
  py::class_<MeshObject, MeshPtr>(m, "Mesh", R"doc(
A verified Shardy mesh: named axes with sizes, and optionally the device
order (``device_ids``; none means iota order).

>>> m = Mesh({"x": 2, "y": 4})
>>> str(m)
'#sdy.mesh<["x"=2, "y"=4]>'
>>> Mesh.parse('<["x"=2], device_ids=[1, 0]>').device_ids
[1, 0]
)doc")
      .def(py::init([](py::object axes, py::object deviceIds, const std::string& name) {
             return makeMesh(axes, deviceIds, name);
           }),
           py::arg("axes"), py::arg("device_ids") = py::none(), py::arg("name") = "mesh",
           "Mesh(axes: dict[str, int], device_ids=None, name='mesh'). Raises Error for meshes "
           "Shardy rejects (duplicate axis, non-positive size, bad device_ids).")
      .def_static(
          "parse",
          [](py::object text, const std::string& name) { return parseMesh(textOf(text, "text"), name); },
          py::arg("text"), py::arg("name") = "",
          "Parses `#sdy.mesh<...>`, `<[...]>` or `sdy.mesh @NAME = <...>` and verifies it.\n\n"
          ">>> Mesh.parse('sdy.mesh @m = <[\"a\"=4]>').name\n'm'")
      .def("__str__", [](const MeshObject& self) { return meshText(self); })
      .def("__repr__", [](const MeshObject& self) {
        std::string r = "Mesh.parse('" + meshText(self) + "'";
        if (self.name != "mesh") r += ", name='" + self.name + "'";
        return r + ")";
      })
      .def_property_readonly(
          "axes",
          [](const MeshObject& self) {
            py::dict d;
            for (sdy::MeshAxisAttr a : self.mesh.axes()) d[py::str(std::string(a.name()))] = a.size();
            return d;
          },
          "The axes in mesh order, {name: size}.")
      .def_property_readonly(
          "device_ids",
          [](const MeshObject& self) -> py::object {
            if (self.mesh.deviceIds().empty()) return py::none();
            return py::cast(std::vector<int64_t>(self.mesh.deviceIds().begin(), self.mesh.deviceIds().end()));
          },
          "The explicit device order, or None for iota order.")
      .def_property_readonly(
          "size",
          [](const MeshObject& self) {
            auto total = self.mesh.getTotalSize();
            return total ? *total : int64_t{1};
          },
          "The number of devices (the product of the axis sizes).")
      .def_property_readonly("name", [](const MeshObject& self) { return self.name; },
                             "The symbol name shardings refer to it by (`@mesh`).")
      .def("__eq__",
           [](const MeshObject& a, py::object b) {
             if (!py::isinstance<MeshObject>(b)) return false;
             return meshText(a) == meshText(*b.cast<MeshPtr>());
           })
      .def("__hash__", [](const MeshObject& self) { return py::hash(py::str(meshText(self))); })
      .def("__reduce__", &reduceToState, kReduceDoc)
      .def(py::pickle([](const MeshObject& self) { return py::make_tuple(meshText(self), self.name); },
                      [](py::tuple t) {
                        if (t.size() != 2) throw py::type_error("bad Mesh pickle state");
                        return parseMesh(textOf(t[0], "Mesh state"), textOf(t[1], "Mesh state"));
                      }));
}

}  // namespace shardbridge::python
