// Explain and pictures: HloSharding.explain (the CLI's `explain --json`
// document, as a dict), .show (the CLI's `show` terminal grid), .svg, and
// the notebook hooks _repr_svg_ / _repr_html_; the same for TensorSharding.
// See docs/view.md for what the documents hold.
#include <pybind11/stl.h>

#include <functional>

#include "common.h"
#include "shardbridge/view/explain.h"
#include "shardbridge/view/grid.h"
#include "shardbridge/view/render_svg.h"
#include "shardbridge/view/render_text.h"

namespace shardbridge::python {
namespace {

std::optional<hlo::Shape> optionalShape(py::object shape) {
  if (shape.is_none()) return std::nullopt;
  return shapeFrom(shape);
}

view::Explanation explainHlo(const hlo::HloSharding& s, py::object shape, py::object mesh) {
  std::optional<hlo::Shape> sh = optionalShape(shape);
  MeshPtr m = mesh.is_none() ? MeshPtr() : meshFrom(mesh);
  ContextPtr context = currentContext();
  Result<view::Explanation> e = view::explainHloSharding(
      context->ctx, s, m ? meshIn(*m, context) : sdy::MeshAttr(), m ? m->name : "mesh", sh);
  if (!e) {
    Error error = e.error();
    error.dropOffsets();
    raise(error);
  }
  return std::move(*e);
}

view::Explanation explainSdy(const TensorShardingObject& s, py::object shape, py::object mesh,
                             const std::vector<std::string>& manualAxes) {
  std::optional<hlo::Shape> sh = optionalShape(shape);
  MeshPtr m = mesh.is_none() ? s.mesh : meshFrom(mesh);
  if (!m && !s.attr.meshOrRef().isInline()) {
    raise(ErrorCode::kInvalid, "no mesh for the sharding: pass mesh=, or parse it with a mesh");
  }
  verifySharding(s, m);
  Result<view::Explanation> e = view::explainSdySharding(s.context->ctx, s.attr, lookupFor(m, s.context), sh, manualAxes);
  if (!e) {
    Error error = e.error();
    error.dropOffsets();
    raise(error);
  }
  return std::move(*e);
}

py::object explanationDict(const view::Explanation& e) {
  return py::module_::import("json").attr("loads")(view::explanationJson(e));
}

// The `rows: dim 0 (2 tiles), columns: ...` line of `shardbridge show`.
std::string axesLine(const view::Grid& grid) {
  auto dim = [&](std::optional<int64_t> d) {
    if (!d) return std::string("-");
    const int64_t n = grid.layout->tileCounts[static_cast<size_t>(*d)];
    return "dim " + std::to_string(*d) + " (" + std::to_string(n) + (n == 1 ? " tile)" : " tiles)");
  };
  std::string line = "rows: " + dim(grid.rowsDim) + ", columns: " + dim(grid.colsDim);
  if (!grid.sliceDims.empty()) {
    line += grid.sliceDims.size() > 1 ? ", slices over dims " : ", slices over dim ";
    for (size_t i = 0; i < grid.sliceDims.size(); ++i) line += (i ? "," : "") + std::to_string(grid.sliceDims[i]);
  }
  return line;
}

struct ShowOptions {
  std::optional<int64_t> rows, cols;
  int64_t width = 80;
  bool color = false;
};

view::Grid gridOf(const view::Explanation& e, const ShowOptions& o) {
  if (!e.tiles) raise(ErrorCode::kUnsupported, e.tilesNote);
  view::GridOptions options;
  options.rowsDim = o.rows;
  options.colsDim = o.cols;
  auto grid = view::buildGrid(*e.tiles, options);
  if (!grid) {
    Error error = grid.error();
    error.dropOffsets();
    raise(error);
  }
  return std::move(*grid);
}

std::string titleOf(const view::Explanation& e) {
  std::string shapeText = e.shape ? e.shape->toString() : "one element per tile (no --shape)";
  return e.hlo.toString() + " on " + shapeText;
}

std::string showText(const view::Explanation& e, const ShowOptions& o) {
  view::Grid grid = gridOf(e, o);
  view::TextOptions text;
  text.width = o.width;
  text.color = o.color;
  std::string out = titleOf(e) + "\n" + axesLine(grid) + "\n";
  if (e.tiles->numDevices == 0) out += "every device holds the whole tensor (give --mesh to list them)\n";
  return out + view::renderText(grid, text);
}

ShowOptions showOptions(py::kwargs kwargs) {
  ShowOptions o;
  for (auto item : kwargs) {
    std::string key = item.first.cast<std::string>();
    py::handle v = item.second;
    if (key == "rows" || key == "cols") {
      if (v.is_none()) continue;
      if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v)) throw py::type_error(key + " must be an int");
      int64_t d = int64Of(v, key);
      if (d < 0) raise(ErrorCode::kInvalid, key + " must not be negative");
      (key == "rows" ? o.rows : o.cols) = d;
    } else if (key == "width") {
      if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v)) throw py::type_error("width must be an int");
      o.width = int64Of(v, "width");
      if (o.width < 8 || o.width > 10000) raise(ErrorCode::kInvalid, "width must be in [8, 10000]");
    } else if (key == "color") {
      if (!py::isinstance<py::bool_>(v)) throw py::type_error("color must be a bool");
      o.color = v.cast<bool>();
    } else {
      throw py::type_error("show() got an unexpected keyword argument '" + key +
                           "' (known: rows, cols, width, color, mesh)");
    }
  }
  return o;
}

// show(**opts) takes mesh= too; split it off.
py::object popMesh(py::kwargs& kwargs) {
  if (!kwargs.contains("mesh")) return py::none();
  py::object mesh = kwargs["mesh"];
  PyDict_DelItemString(kwargs.ptr(), "mesh");
  return mesh;
}

std::string svgOf(const view::Explanation& e) {
  view::Grid grid = gridOf(e, {});
  return view::renderSvg(grid, titleOf(e));
}

// The notebook hooks draw without a shape; a sharding without tiles
// (manual, a tuple, ...) falls back to its text.
py::object reprSvg(const std::function<view::Explanation()>& explain) {
  try {
    view::Explanation e = explain();
    if (!e.tiles) return py::none();
    return py::str(svgOf(e));
  } catch (const LibraryError&) {
    return py::none();
  }
}

}  // namespace

void registerViews(py::module_& m, py::class_<hlo::HloSharding>& cls) {
  cls.def(
         "explain",
         [](const hlo::HloSharding& self, py::object shape, py::object mesh) {
           return explanationDict(explainHlo(self, shape, mesh));
         },
         py::arg("shape") = py::none(), py::arg("mesh") = py::none(),
         R"doc(The document of ``shardbridge explain --json`` (docs/json.md) as a dict:
mesh, sdy form, PartitionSpec, replicated/manual/unreduced axes and, with a
``shape``, every device's tile. ``mesh``: import onto this Mesh instead of
the inferred one.

>>> HloSharding.parse('{devices=[2,2]<=[4]}').explain()['kind']
'tiled'
)doc")
      .def(
          "show",
          [](const hlo::HloSharding& self, py::object shape, py::kwargs kwargs) {
            py::object mesh = popMesh(kwargs);
            ShowOptions o = showOptions(kwargs);
            return showText(explainHlo(self, shape, mesh), o);
          },
          py::arg("shape") = py::none(),
          R"doc(The terminal grid ``shardbridge show`` prints: one box per tile labelled
with the devices holding it. Options: ``rows``, ``cols`` (tensor dims drawn
down/across), ``width`` (default 80), ``color`` (ANSI, default False),
``mesh``. Without a shape each tile is one unit.

>>> print(HloSharding.parse('{devices=[2,2]<=[4]}').show(width=20), end="")
{devices=[2,2]<=[4]} on one element per tile (no --shape)
rows: dim 0 (2 tiles), columns: dim 1 (2 tiles)
┌────────┬────────┐
│        │        │
│   0    │   1    │
│        │        │
├────────┼────────┤
│        │        │
│   2    │   3    │
│        │        │
└────────┴────────┘
)doc")
      .def(
          "svg",
          [](const hlo::HloSharding& self, py::object shape, py::object mesh) {
            return svgOf(explainHlo(self, shape, mesh));
          },
          py::arg("shape") = py::none(), py::arg("mesh") = py::none(),
          "The picture as a standalone SVG document (what `show --svg` writes).\n\n"
          ">>> HloSharding.parse('{devices=[2]<=[2]}').svg('f32[8]').startswith('<?xml')\nTrue")
      .def("_repr_svg_",
           [](const hlo::HloSharding& self) {
             return reprSvg([&] { return explainHlo(self, py::none(), py::none()); });
           })
      .def("_repr_html_", [](const hlo::HloSharding& self) -> py::object {
        py::object svg = reprSvg([&] { return explainHlo(self, py::none(), py::none()); });
        if (svg.is_none()) return svg;
        return py::str("<div>" + svg.cast<std::string>() + "</div>");
      });

  py::class_<TensorShardingObject, TensorShardingPtr> ts =
      py::reinterpret_borrow<py::class_<TensorShardingObject, TensorShardingPtr>>(m.attr("TensorSharding"));
  ts.def(
        "explain",
        [](const TensorShardingObject& self, py::object shape, py::object mesh,
           const std::vector<std::string>& manualAxes) {
          return explanationDict(explainSdy(self, shape, mesh, manualAxes));
        },
        py::arg("shape") = py::none(), py::arg("mesh") = py::none(), py::arg("manual_axes") = std::vector<std::string>{},
        "The `shardbridge explain --json` document of this sharding (on its mesh, or `mesh`).\n\n"
        ">>> TensorSharding.parse('#sdy.sharding<@mesh, [{\"x\"}, {}]>', '<[\"x\"=2]>').explain()['hlo']\n"
        "'{devices=[2,1]<=[2]}'")
      .def(
          "show",
          [](const TensorShardingObject& self, py::object shape, py::kwargs kwargs) {
            py::object mesh = popMesh(kwargs);
            ShowOptions o = showOptions(kwargs);
            return showText(explainSdy(self, shape, mesh, {}), o);
          },
          py::arg("shape") = py::none(), R"doc(The `shardbridge show` grid (options as HloSharding.show).

>>> s = TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}]>', '<["x"=2]>')
>>> print(s.show('f32[8]', width=20).splitlines()[0])
{devices=[2]<=[2]} on f32[8]
)doc")
      .def(
          "svg",
          [](const TensorShardingObject& self, py::object shape, py::object mesh) {
            return svgOf(explainSdy(self, shape, mesh, {}));
          },
          py::arg("shape") = py::none(), py::arg("mesh") = py::none(),
          "The picture as an SVG document.\n\n"
          ">>> TensorSharding.parse('<@mesh, [{\"x\"}]>', '<[\"x\"=2]>').svg().startswith('<?xml')\nTrue")
      .def("_repr_svg_",
           [](const TensorShardingObject& self) -> py::object {
             if (!self.mesh && !self.attr.meshOrRef().isInline()) return py::none();
             return reprSvg([&] { return explainSdy(self, py::none(), py::none(), {}); });
           })
      .def("_repr_html_", [](const TensorShardingObject& self) -> py::object {
        if (!self.mesh && !self.attr.meshOrRef().isInline()) return py::none();
        py::object svg = reprSvg([&] { return explainSdy(self, py::none(), py::none(), {}); });
        if (svg.is_none()) return svg;
        return py::str("<div>" + svg.cast<std::string>() + "</div>");
      });
}

}  // namespace shardbridge::python
