// The bridge: to_hlo (sdy -> HloSharding, Shardy's export), to_sdy
// (HloSharding -> sdy, XLA's import) and infer_mesh (the mesh XLA's import
// pass infers for several shardings), as libshardbridge's sb_export,
// sb_import and sb_import_inferred do (src/capi/capi_convert.cc).
#include <pybind11/stl.h>

#include <map>

#include "common.h"
#include "shardbridge/convert/export.h"
#include "shardbridge/convert/import.h"
#include "shardbridge/convert/mesh_inference.h"
#include "shardbridge/sdy/text.h"

namespace shardbridge::python {
namespace {

// `@single_device_<id>` for every single-device leaf, the names the module
// import gives their meshes.
std::map<int64_t, std::string> singleDeviceNames(const hlo::HloSharding& sharding) {
  std::map<int64_t, std::string> names;
  for (const hlo::HloSharding* leaf : hlo::leavesOf(sharding))
    if (auto d = leaf->uniqueDevice(); d && leaf->isSingleDevice()) names[*d] = "single_device_" + std::to_string(*d);
  return names;
}

bool large(const hlo::HloSharding& s) {
  if (s.isTuple()) return s.tupleElements().size() > 64;
  return !s.isNamed() && s.tileAssignment().numElements() >= static_cast<int64_t>(kReleaseGilAt);
}

struct ImportSetup {
  ContextPtr context;
  MeshPtr mesh;  // the global mesh, named
  std::map<int64_t, std::string> singles;
  convert::AnyOrderOptions anyOrder;
};

// One leaf imported onto setup.mesh; a single-device leaf refers to (and
// carries) its maximal mesh.
TensorShardingPtr importLeaf(const ImportSetup& setup, const hlo::HloSharding& leaf, std::optional<int64_t> rank,
                             bool openDims, bool release) {
  sdy::MeshAttr global = meshIn(*setup.mesh, setup.context);
  sdy::MeshOrRef ref = refIn(*setup.mesh, setup.context);
  int64_t r = rank ? *rank : convert::ownRank(leaf);
  auto convert = [&] {
    return convert::convertToSdySharding(setup.context->ctx, leaf, global, ref, setup.singles, r, openDims,
                                         setup.anyOrder);
  };
  auto out = std::make_shared<TensorShardingObject>();
  out->context = setup.context;
  out->attr = unwrap(release ? withoutGil(convert) : convert());
  out->mesh = setup.mesh;
  if (auto d = leaf.uniqueDevice(); d && leaf.isSingleDevice()) {
    auto single = std::make_shared<MeshObject>();
    single->context = setup.context;
    int64_t ids[] = {*d};
    single->mesh = sdy::MeshAttr::get(setup.context->ctx, {}, ids);
    single->name = "single_device_" + std::to_string(*d);
    out->mesh = single;
  }
  return out;
}

py::object importAll(const ImportSetup& setup, const hlo::HloSharding& s, std::optional<int64_t> rank,
                     bool openDims) {
  bool release = large(s);
  if (!s.isTuple()) return py::cast(importLeaf(setup, s, rank, openDims, release));
  py::list out;
  for (const hlo::HloSharding* leaf : hlo::leavesOf(s)) out.append(importLeaf(setup, *leaf, rank, openDims, release));
  return out;
}

MeshPtr inferredMesh(const ContextPtr& context, std::span<const hlo::HloSharding> inputs,
                     const convert::AnyOrderOptions& anyOrder, std::map<int64_t, std::string>& singles,
                     bool release) {
  Result<convert::InferredMeshes> inferred = makeError(ErrorCode::kInternal, "not inferred");
  if (release) {
    py::gil_scoped_release unlocked;
    inferred = convert::inferModuleMesh(context->ctx, inputs, anyOrder);
  } else {
    inferred = convert::inferModuleMesh(context->ctx, inputs, anyOrder);
  }
  convert::InferredMeshes meshes = unwrap(std::move(inferred));
  auto mesh = std::make_shared<MeshObject>();
  mesh->context = context;
  mesh->mesh = meshes.mesh;
  for (const auto& [id, name] : meshes.singleDevice) singles[id] = name;
  return mesh;
}

}  // namespace

bool plainImport(const hlo::HloSharding& s) { return !s.isTuple() && !s.isSingleDevice() && !large(s); }

TensorShardingPtr importPlain(const hlo::HloSharding& s, const MeshPtr& mesh) {
  // toSdy below with rank, open_dims and upstream_device_order at their
  // defaults, for a sharding plainImport accepts: no single-device names, no
  // list, no GIL release.
  ImportSetup setup;
  setup.context = currentContext();
  setup.anyOrder.enabled = true;
  setup.mesh = mesh;
  return importLeaf(setup, s, std::nullopt, false, false);
}

namespace {

py::object toSdy(py::object sharding, py::object mesh, std::optional<int64_t> rank, bool openDims,
                 bool upstreamDeviceOrder) {
  if (rank && *rank < 0) raise(ErrorCode::kInvalid, "rank must be at least 0, got " + std::to_string(*rank));
  // An HloSharding object is used in place (no copy of its tile assignment).
  std::optional<hlo::HloSharding> owned;
  py::detail::make_caster<hlo::HloSharding> caster;
  const bool isObject = !isText(sharding) && !isBytes(sharding) && caster.load(sharding, false);
  if (!isObject) owned = hloFrom(sharding);
  const hlo::HloSharding& s = owned ? *owned : py::detail::cast_op<const hlo::HloSharding&>(caster);
  ImportSetup setup;
  setup.context = currentContext();
  setup.anyOrder.enabled = !upstreamDeviceOrder;
  if (mesh.is_none()) {
    setup.mesh = inferredMesh(setup.context, std::span<const hlo::HloSharding>(&s, 1), setup.anyOrder,
                              setup.singles, large(s));
  } else {
    setup.mesh = meshFrom(mesh);
    setup.singles = singleDeviceNames(s);
  }
  return importAll(setup, s, rank, openDims);
}

hlo::HloSharding toHlo(py::object sharding, py::object mesh, const std::vector<std::string>& manualAxes, bool v3) {
  MeshPtr given = mesh.is_none() ? MeshPtr() : meshFrom(mesh);
  TensorShardingPtr s;
  if (py::isinstance<TensorShardingObject>(sharding)) {
    s = sharding.cast<TensorShardingPtr>();
  } else if (isText(sharding)) {
    s = parseTensorSharding(textOf(sharding, "sharding"), given);
  } else {
    throw py::type_error("sharding must be a shardbridge.TensorSharding or #sdy.sharding text, not " +
                         std::string(py::str(py::type::of(sharding).attr("__name__"))));
  }
  MeshPtr useMesh = given ? given : s->mesh;
  if (!useMesh && !s->attr.meshOrRef().isInline()) {
    raise(ErrorCode::kInvalid, "no mesh for the sharding: pass mesh=, or parse it with a mesh");
  }
  verifySharding(*s, useMesh);
  convert::ExportOptions options;
  options.v3 = v3;
  sdy::MeshLookup lookup = lookupFor(useMesh, s->context);
  bool release = useMesh && useMesh->mesh.getTotalSize().value_or(0) >= static_cast<int64_t>(kReleaseGilAt);
  Result<hlo::HloSharding> out = makeError(ErrorCode::kInternal, "not converted");
  if (release) {
    py::gil_scoped_release unlocked;
    out = convert::convertToHloSharding(s->attr, lookup, manualAxes, options);
  } else {
    out = convert::convertToHloSharding(s->attr, lookup, manualAxes, options);
  }
  return unwrap(std::move(out), s->text);
}

py::tuple inferMesh(py::object shardings, std::optional<int64_t> rank, bool openDims, bool upstreamDeviceOrder) {
  if (isText(shardings) || isBytes(shardings) || py::isinstance<hlo::HloSharding>(shardings)) {
    throw py::type_error("infer_mesh takes a sequence of shardings, not one sharding");
  }
  std::vector<hlo::HloSharding> inputs;
  for (auto item : py::iter(shardings)) inputs.push_back(hloFrom(item));
  ImportSetup setup;
  setup.context = currentContext();
  setup.anyOrder.enabled = !upstreamDeviceOrder;
  bool release = inputs.size() > 64;
  setup.mesh = inferredMesh(setup.context, inputs, setup.anyOrder, setup.singles, release);
  py::list out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    try {
      out.append(importAll(setup, inputs[i], rank, openDims));
    } catch (LibraryError& e) {
      e.error.message = "input " + std::to_string(i + 1) + " (" + inputs[i].toString() + "): " + e.error.message;
      e.error.dropOffsets();
      throw;
    }
  }
  return py::make_tuple(setup.mesh, out);
}

}  // namespace

void registerConversions(py::module_& m) {
  m.def("to_sdy", &toSdy, py::arg("sharding"), py::arg("mesh") = py::none(), py::kw_only(),
        py::arg("rank") = py::none(), py::arg("open_dims") = false, py::arg("upstream_device_order") = false,
        R"doc(The sdy form of an HLO sharding (XLA's import).

``sharding``: an HloSharding, HLO sharding text (str) or OpSharding bytes.
``mesh``: a Mesh or mesh text; without one, the mesh XLA's import infers for
this sharding alone is the result's ``.mesh``. ``rank`` defaults to the
sharding's own data rank. A tuple gives a list, one TensorSharding per leaf.
``upstream_device_order=True`` fails where upstream aborts on device orders
no iota mesh explains, instead of using a mesh with device_ids.

>>> str(to_sdy('{devices=[4,2]<=[2,4]T(1,0)}', '<["x"=2, "y"=4]>'))
'#sdy.sharding<@mesh, [{"y"}, {"x"}]>'
)doc");
  m.def("to_hlo", &toHlo, py::arg("sharding"), py::arg("mesh") = py::none(), py::kw_only(),
        py::arg("manual_axes") = std::vector<std::string>{}, py::arg("v3") = false,
        R"doc(The HloSharding of an sdy sharding (Shardy's export).

``sharding``: a TensorSharding or ``#sdy.sharding<...>`` text; ``mesh``: a
Mesh or mesh text (default: the sharding's own). ``manual_axes``: the axes an
enclosing manual computation makes manual (a MANUAL subgroup). ``v3`` writes
the V3 NamedSharding form.

>>> str(to_hlo('#sdy.sharding<@mesh, [{"y"}, {"x"}]>', '<["x"=2, "y"=4]>'))
'{devices=[4,2]<=[2,4]T(1,0)}'
)doc");
  m.def("infer_mesh", &inferMesh, py::arg("shardings"), py::kw_only(), py::arg("rank") = py::none(),
        py::arg("open_dims") = false, py::arg("upstream_device_order") = false,
        R"doc(The mesh XLA's import pass infers for all ``shardings`` together, and each
one imported onto it: ``(Mesh, list[TensorSharding])`` (a tuple sharding
gives a list in its place).

>>> mesh, [a, b] = infer_mesh(['{devices=[2,4]<=[8]}', '{devices=[8]<=[8]}'])
>>> str(mesh)
'#sdy.mesh<["_axis_0"=2, "_axis_1"=4]>'
)doc");
}

}  // namespace shardbridge::python
