// Whole files: convert_module (the CLI's `convert`: upstream's export or
// import pipeline over MLIR text, pipeline options by their upstream names
// with `-` written `_`) and list_shardings (the rows of `list --json`).
#include <pybind11/stl.h>

#include "common.h"
#include "shardbridge/dump/listing.h"
#include "shardbridge/module/convert_module.h"
#include "shardbridge/module/mlir_input.h"
#include "shardbridge/module/pipeline.h"

namespace shardbridge::python {
namespace {

std::string optionValue(const std::string& name, py::handle v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(v)) return std::to_string(int64Of(v, "pipeline option " + name));
  if (isText(v)) return v.cast<std::string>();
  throw py::type_error("pipeline option " + name + " must be a bool, int or str");
}

std::string convertModule(py::object textArg, const std::string& to, py::kwargs kwargs) {
  std::string text = textOf(textArg, "text");
  if (to != "hlo" && to != "sdy") raise(ErrorCode::kInvalid, "to must be 'hlo' or 'sdy', not '" + to + "'");
  bool roundTrip = false;
  std::vector<std::pair<std::string, std::string>> options;
  for (auto item : kwargs) {
    std::string key = item.first.cast<std::string>();
    if (key == "round_trip") {
      if (!py::isinstance<py::bool_>(item.second)) throw py::type_error("round_trip must be a bool");
      roundTrip = item.second.cast<bool>();
      continue;
    }
    std::string name = key;
    for (char& c : name)
      if (c == '_') c = '-';
    if (name == "v3") name = "enable-hlo-sharding-v3";
    options.push_back({name, optionValue(key, item.second)});
  }
  if (roundTrip && to != "hlo") raise(ErrorCode::kInvalid, "round_trip applies to to='hlo' only");
  // The pipeline `shardbridge convert --to` runs (module::conversionSpec);
  // option errors are about the call, not the module text.
  auto spec = module::conversionSpec(to == "hlo", roundTrip, text, options);
  if (!spec) raise(spec.error());
  std::vector<module::PassSpec> specs{std::move(*spec)};
  Result<module::ConvertedModule> result = makeError(ErrorCode::kInternal, "not converted");
  {
    py::gil_scoped_release release;
    Status mlir = module::checkMlirModule(text);
    if (!mlir) {
      result = mlir.error();
    } else {
      result = module::runPasses(text, specs);
    }
  }
  module::ConvertedModule converted = unwrap(std::move(result), text);
  if (!converted.warnings.empty()) {
    py::object warn = py::module_::import("warnings").attr("warn");
    for (const module::ModuleWarning& w : converted.warnings) warn(py::str(w.message), py::module_::import("builtins").attr("UserWarning"), 2);
  }
  return converted.text;
}

py::list listShardings(py::object source, py::object mesh, bool metadata) {
  std::string text, name = "<input>";
  py::object os = py::module_::import("os");
  if (isText(source) || isBytes(source)) {
    text = textOf(source, "source");
  } else if (py::isinstance(source, os.attr("PathLike"))) {
    py::object path = os.attr("fspath")(source);
    name = py::str(path).cast<std::string>();
    py::object f = py::module_::import("builtins").attr("open")(path, "rb");
    py::bytes data = f.attr("read")();
    f.attr("close")();
    text = data.cast<std::string>();
  } else {
    throw py::type_error("source must be the file's text (str or bytes) or an os.PathLike, not " +
                         std::string(py::str(py::type::of(source).attr("__name__"))));
  }
  if (text.empty()) raise(ErrorCode::kInvalid, name + " is empty");
  MeshPtr m = mesh.is_none() ? MeshPtr() : meshFrom(mesh);
  // A context of its own, freed on return: the rows are plain dicts, and a
  // large dump's attributes would otherwise stay in the shared current
  // context until it rotates.
  auto context = std::make_shared<SharedContext>();
  dump::ListOptions options;
  options.includeMetadata = metadata;
  if (m) {
    options.mesh = meshIn(*m, context);
    options.meshName = m->name;
  }
  Result<dump::Listing> listing = makeError(ErrorCode::kInternal, "not listed");
  std::string json;
  {
    py::gil_scoped_release release;
    listing = dump::listShardings(context->ctx, text, options);
    if (listing) json = dump::printListingJson(*listing, name);
  }
  if (!listing) {
    LibraryError e{listing.error(), text, name};
    // A str is the file's text; say so when it names an existing file.
    if (isText(source) && text.find('\n') == std::string::npos &&
        os.attr("path").attr("exists")(source).cast<bool>()) {
      e.error.message += " (a str is the file's text: pass pathlib.Path(...) to read the file it names)";
    }
    throw e;
  }
  py::dict doc = py::module_::import("json").attr("loads")(json);
  return doc["shardings"];
}

}  // namespace

void registerModules(py::module_& m) {
  m.def("convert_module", &convertModule, py::arg("text"), py::arg("to") = "hlo",
        R"doc(Converts every sharding of an MLIR module, as ``shardbridge convert`` does:
``to="hlo"`` runs upstream's xla-sdy-stablehlo-export-pipeline (or, with
``round_trip=True``, the round-trip export), ``to="sdy"`` the import
pipeline the module calls for (the round-trip one for the round-trip form,
else xla-sdy-stablehlo-import-pipeline), as ``shardbridge convert --to`` does. Other keyword arguments are the pipeline's
upstream options with ``-`` written ``_`` (``enable_hlo_sharding_v3=True``,
``keep_hlo_sharding_constraints=True``, ``upstream_device_order=True``; ``v3``
is short for the first). The conversion's warnings (what it kept or lost)
are reported with ``warnings.warn``. Raises Error, located in the module text.

>>> m = 'module {\n  func.func @f(%a: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) {\n    return\n  }\n}\n'
>>> print(convert_module(m, to="sdy"), end="")
module {
  sdy.mesh @mesh = <["_axis_0"=2]>
  func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}]>}) {
    return
  }
}
)doc");
  m.def("list_shardings", &listShardings, py::arg("source"), py::kw_only(), py::arg("mesh") = py::none(),
        py::arg("metadata") = false,
        R"doc(The rows of ``shardbridge list --json``: every sharding of an HLO dump, an
MLIR module, an OpSharding or a sharding string, each a dict with its place,
``hlo`` and ``sdy`` forms (or ``error``). ``source``: the file's text (str
or bytes), or an ``os.PathLike`` naming the file. ``mesh``: import onto
this mesh instead of the inferred one.

>>> [(r["hlo"], r["sdy"]) for r in list_shardings("{devices=[2]<=[2]}")]
[('{devices=[2]<=[2]}', '#sdy.sharding<@mesh, [{"_axis_0"}]>')]
)doc");
}

}  // namespace shardbridge::python
