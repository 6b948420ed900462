// shardbridge.TensorSharding: one `#sdy.sharding<...>`, verified against its
// mesh when one is known (given, or inline in the sharding).
#include <pybind11/stl.h>

#include "common.h"
#include "shardbridge/sdy/text.h"
#include "shardbridge/sdy/verifier.h"
#include "shardbridge/view/partition_spec.h"

namespace shardbridge::python {

sdy::MeshLookup lookupFor(const MeshPtr& mesh, const ContextPtr& context) {
  if (!mesh) return [](std::string_view) { return sdy::MeshAttr(); };
  sdy::MeshAttr attr = meshIn(*mesh, context);
  // The one mesh given stands for whatever name the sharding refers to, as
  // the CLI's --mesh without NAME=.
  return [attr](std::string_view) { return attr; };
}

void verifySharding(const TensorShardingObject& s, const MeshPtr& mesh) {
  sdy::VerifyOptions options;
  if (s.parsed) options.locations = &s.locations;
  check(sdy::verifyTensorSharding(s.attr, lookupFor(mesh, s.context), std::nullopt, options), s.text);
}

TensorShardingPtr parseTensorSharding(std::string_view text, MeshPtr mesh) {
  auto out = std::make_shared<TensorShardingObject>();
  out->context = currentContext();
  auto attr = unwrap(sdy::parseAttribute(out->context->ctx, text, &out->locations), text);
  const auto* sharding = std::get_if<sdy::TensorShardingAttr>(&attr);
  if (!sharding) {
    raise(makeError(ErrorCode::kInvalid,
                    std::holds_alternative<sdy::TensorShardingPerValueAttr>(attr)
                        ? "expected one #sdy.sharding<...>, got a #sdy.sharding_per_value"
                        : "expected #sdy.sharding<...>, got a mesh",
                    0),
          text);
  }
  out->attr = *sharding;
  out->text = std::string(text);
  out->parsed = true;
  if (!mesh && out->attr.meshOrRef().isInline()) {
    mesh = std::make_shared<MeshObject>();
    mesh->context = out->context;
    mesh->mesh = out->attr.meshOrRef().inlineMeshAttr();
  }
  if (mesh || out->attr.meshOrRef().isInline()) verifySharding(*out, mesh);
  out->mesh = std::move(mesh);
  return out;
}

namespace {

std::string axisText(sdy::AxisRefAttr a) {
  std::string s(a.name());
  if (a.isSubAxis()) {
    s += ":(" + std::to_string(a.subAxisInfo().preSize()) + ")" + std::to_string(a.subAxisInfo().size());
  }
  return s;
}

std::vector<std::string> axesText(std::span<const sdy::AxisRefAttr> axes) {
  std::vector<std::string> out;
  for (sdy::AxisRefAttr a : axes) out.push_back(axisText(a));
  return out;
}

std::string shardingText(const TensorShardingObject& s) { return sdy::printTensorSharding(s.attr); }

}  // namespace

void registerTensorSharding(py::module_& m) {
  py::class_<TensorShardingObject, TensorShardingPtr>(m, "TensorSharding", R"doc(
One Shardy sharding, ``#sdy.sharding<@mesh, [{"x"}, {}]>``.

>>> s = TensorSharding.parse('#sdy.sharding<@mesh, [{"y"}, {"x"}]>', Mesh({"x": 2, "y": 4}))
>>> s.dims
[['y'], ['x']]
>>> str(s.mesh)
'#sdy.mesh<["x"=2, "y"=4]>'
)doc")
      .def_static(
          "parse",
          [](py::object text, py::object mesh) {
            MeshPtr given = mesh.is_none() ? MeshPtr() : meshFrom(mesh);
            return parseTensorSharding(textOf(text, "text"), given);
          },
          py::arg("text"), py::arg("mesh") = py::none(),
          "Parses `#sdy.sharding<...>` (or the stripped `<@mesh, [...]>`); verified with "
          "Shardy's rules when a mesh is given or inline. Raises Error, located in `text`.\n\n"
          ">>> TensorSharding.parse('<@mesh, [{\"x\"}, {}]>', '<[\"x\"=2]>')\n"
          "TensorSharding.parse('#sdy.sharding<@mesh, [{\"x\"}, {}]>')")
      .def("__str__", [](const TensorShardingObject& self) { return shardingText(self); })
      .def("__repr__",
           [](const TensorShardingObject& self) { return "TensorSharding.parse('" + shardingText(self) + "')"; })
      .def_property_readonly(
          "dims",
          [](const TensorShardingObject& self) {
            std::vector<std::vector<std::string>> dims;
            for (sdy::DimensionShardingAttr d : self.attr.dimShardings()) dims.push_back(axesText(d.axes()));
            return dims;
          },
          "Per tensor dim, the axes it is sharded over, major first ('x', or 'x:(2)2' for a sub-axis).")
      .def_property_readonly(
          "open_dims",
          [](const TensorShardingObject& self) {
            std::vector<bool> open;
            for (sdy::DimensionShardingAttr d : self.attr.dimShardings()) open.push_back(d.isOpen());
            return open;
          },
          "Per tensor dim, whether it is open (`?`).")
      .def_property_readonly(
          "replicated", [](const TensorShardingObject& self) { return axesText(self.attr.replicatedAxes()); },
          "The explicitly replicated axes.")
      .def_property_readonly(
          "unreduced", [](const TensorShardingObject& self) { return axesText(self.attr.unreducedAxes()); },
          "The unreduced axes.")
      .def_property_readonly(
          "reduction",
          [](const TensorShardingObject& self) {
            switch (self.attr.reductionOp()) {
              case sdy::ReductionOp::kMax: return "max";
              case sdy::ReductionOp::kMin: return "min";
              default: return "sum";
            }
          },
          "How the unreduced axes are reduced: 'sum', 'max' or 'min'.")
      .def_property_readonly(
          "rank", [](const TensorShardingObject& self) { return self.attr.rank(); }, "The tensor rank.")
      .def_property_readonly(
          "mesh_name",
          [](const TensorShardingObject& self) -> py::object {
            if (!self.attr.meshOrRef().isRef()) return py::none();
            return py::str(std::string(self.attr.meshOrRef().refName()));
          },
          "The mesh symbol the sharding refers to, without '@' (None for an inline mesh).")
      .def_property_readonly(
          "mesh", [](const TensorShardingObject& self) -> py::object {
            if (!self.mesh) return py::none();
            return py::cast(self.mesh);
          },
          "The Mesh it was verified against (given, inline or inferred), or None.")
      .def(
          "_partition_spec",
          [](const TensorShardingObject& self) {
            if (!self.mesh) {
              raise(ErrorCode::kInvalid, "the sharding has no known mesh (parse it with mesh=...)");
            }
            view::PartitionSpec spec = view::toPartitionSpec(self.attr, meshIn(*self.mesh, self.context));
            return py::make_tuple(spec.exists, spec.dims, spec.unconstrained, spec.unreduced, spec.reason,
                                  spec.notes);
          })
      .def("__eq__",
           [](const TensorShardingObject& a, py::object b) {
             if (!py::isinstance<TensorShardingObject>(b)) return false;
             const auto& other = *b.cast<TensorShardingPtr>();
             if (shardingText(a) != shardingText(other)) return false;
             if (!a.mesh || !other.mesh) return !a.mesh && !other.mesh;
             return sdy::printMesh(a.mesh->mesh) == sdy::printMesh(other.mesh->mesh);
           })
      .def("__hash__", [](const TensorShardingObject& self) { return py::hash(py::str(shardingText(self))); })
      .def("__reduce__", &reduceToState, kReduceDoc)
      .def(py::pickle(
          [](const TensorShardingObject& self) {
            return py::make_tuple(shardingText(self), self.mesh ? py::cast(self.mesh) : py::none());
          },
          [](py::tuple t) {
            if (t.size() != 2) throw py::type_error("bad TensorSharding pickle state");
            py::object mesh = t[1];
            return parseTensorSharding(textOf(t[0], "TensorSharding state"),
                                       mesh.is_none() ? MeshPtr() : meshFrom(mesh));
          }));
}

}  // namespace shardbridge::python
