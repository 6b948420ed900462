// shardbridge.HloSharding: XLA's HloSharding, parsed from its text (V1
// device lists, V2 iota, V3 named, tuples, metadata) or from xla.OpSharding
// bytes, printed byte-identical to HloSharding::ToString(), compared with
// XLA's equality and hashed consistently with it.
#include <pybind11/stl.h>

#include <functional>

#include "common.h"
#include "shardbridge/hlo/named_sharding.h"
#include "shardbridge/hlo/text.h"
#include "shardbridge/proto/op_sharding.h"
#include "shardbridge/view/explain.h"

namespace shardbridge::python {
namespace {

py::class_<hlo::HloSharding>* gClass = nullptr;

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

// A hash that agrees with operator== (hlo_sharding.cc): metadata is not
// part of equality, V3 compares through its V2 form, and an iota tile
// assignment equals its materialised device list. The device list is
// sampled through valueAtFlat (the same value in both forms), so nothing
// is materialised.
size_t hashOf(const hlo::HloSharding& s) {
  if (s.isNamed()) {
    auto v2 = hlo::toV2Sharding(s);
    if (v2) return hashOf(v2->withShardGroup(s.shardGroup()));
    return mix(0x5eed, std::hash<std::string>()(s.toString()));
  }
  size_t h = static_cast<size_t>(s.kind());
  h = mix(h, s.replicateOnLastTileDim());
  for (hlo::OpShardingType t : s.subgroupTypes()) h = mix(h, static_cast<size_t>(t));
  const hlo::ShardGroup& g = s.shardGroup();
  h = mix(h, static_cast<size_t>(g.id));
  h = mix(h, g.shardAs * 2 + g.shardLike);
  for (const hlo::HloSharding& e : s.tupleElements()) h = mix(h, hashOf(e));
  const hlo::TileAssignment& t = s.tileAssignment();
  for (int64_t d : t.dimensions()) h = mix(h, static_cast<size_t>(d));
  const int64_t n = t.numElements();
  if (n > 0) {
    const int64_t samples[] = {0, 1, n / 3, n / 2, (2 * n) / 3, n - 2, n - 1};
    for (int64_t i : samples)
      if (i >= 0 && i < n) h = mix(h, static_cast<size_t>(t.valueAtFlat(i)));
  }
  return h;
}

hlo::HloSharding parseText(std::string_view text) {
  if (text.size() >= kReleaseGilAt) {
    Result<hlo::HloSharding> parsed = makeError(ErrorCode::kInternal, "not parsed");
    {
      py::gil_scoped_release release;
      parsed = hlo::parseSharding(text);
    }
    return unwrap(std::move(parsed), text);
  }
  return unwrap(hlo::parseSharding(text), text);
}

proto::ProtoFormat formatOf(const std::string& format) {
  if (format == "binary") return proto::ProtoFormat::kBinary;
  if (format == "text") return proto::ProtoFormat::kText;
  if (format == "json") return proto::ProtoFormat::kJson;
  raise(ErrorCode::kInvalid, "format must be 'binary', 'text' or 'json', not '" + format + "'");
}

hlo::HloSharding fromProto(const std::string& data, const std::string& format) {
  proto::ProtoFormat f = formatOf(format);
  Result<hlo::HloSharding> parsed = makeError(ErrorCode::kInternal, "not parsed");
  {
    py::gil_scoped_release release;
    parsed = proto::parseOpSharding(data, f);
  }
  // Only text-format offsets point into printable text.
  return unwrap(std::move(parsed), f == proto::ProtoFormat::kText ? std::string_view(data) : std::string_view());
}

std::vector<int64_t> tileDims(const hlo::HloSharding& s) {
  if (s.isNamed()) {
    auto v2 = hlo::toV2Sharding(s);
    return v2 ? tileDims(*v2) : std::vector<int64_t>{};
  }
  if (!s.isTiled()) return {};
  auto dims = s.tileAssignment().dimensions();
  return std::vector<int64_t>(dims.begin(), dims.end());
}

}  // namespace

py::class_<hlo::HloSharding>& hloShardingClass() { return *gClass; }

hlo::HloSharding hloFrom(py::handle value) {
  if (py::isinstance<hlo::HloSharding>(value)) return value.cast<hlo::HloSharding>();
  if (isText(value)) return parseText(textOf(value, "sharding"));
  if (isBytes(value)) return fromProto(textOf(value, "sharding"), "binary");
  throw py::type_error("sharding must be a shardbridge.HloSharding, HLO sharding text (str) or "
                       "OpSharding bytes, not " +
                       std::string(py::str(py::type::of(value).attr("__name__"))));
}

hlo::Shape shapeFrom(py::handle value) {
  if (isText(value)) {
    std::string text = textOf(value, "shape");
    return unwrap(view::parseViewShape(text), text);
  }
  if (isBytes(value) || py::isinstance<py::int_>(value)) {
    throw py::type_error("shape must be shape text ('f32[4,8]') or a sequence of ints");
  }
  std::vector<int64_t> dims;
  for (auto d : py::iter(value)) {
    int64_t v = int64Of(d, "a shape dim");
    if (v < 0) raise(ErrorCode::kInvalid, "shape dims must not be negative, got " + std::to_string(v));
    dims.push_back(v);
  }
  return hlo::Shape::array("f32", std::move(dims));
}

void registerHloSharding(py::module_& m) {
  // Never destroyed: its destructor would run after the interpreter is gone.
  auto* owned = new py::class_<hlo::HloSharding>(m, "HloSharding", R"doc(
An XLA HloSharding. ``str()`` is XLA's ``HloSharding::ToString()``.

>>> s = HloSharding.parse('{devices=[4,2]<=[2,4]T(1,0)}')
>>> s.tile_dims
(4, 2)
>>> HloSharding.from_proto(s.to_proto()) == s
True
)doc");
  gClass = owned;
  py::class_<hlo::HloSharding>& cls = *owned;
  cls.def_static(
         "parse",
         [](py::handle text) {
           if (PyUnicode_Check(text.ptr())) {
             Py_ssize_t size = 0;
             const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
             if (!data) throw py::error_already_set();
             return parseText(std::string_view(data, static_cast<size_t>(size)));
           }
           return parseText(textOf(text, "text"));
         },
         py::arg("text"),
         "Parses HLO sharding text as XLA does: `{devices=[2,2]0,2,1,3}`, `{devices=[4,2]<=[2,4]T(1,0)}`, "
         "`{mesh['x'=2], [{'x'}]}`, `{replicated}`, `{maximal device=3}`, tuples, metadata. Raises Error, "
         "located in `text`.\n\n"
         ">>> HloSharding.parse('{devices=[2,2]0,1,2,3}')\n"
         "HloSharding.parse('{devices=[2,2]0,1,2,3}')")
      .def_static("from_proto", &fromProto, py::arg("data"), py::arg("format") = "binary",
                  "Reads an xla.OpSharding: `format` 'binary' (XLA's bytes), 'text' or 'json'. Raises Error "
                  "for bytes that are not an OpSharding XLA accepts.\n\n"
                  ">>> print(HloSharding.from_proto(b'\\x08\\x03\\x1a\\x02\\x02\\x02J\\x01\\x04R\\x01\\x00'))\n"
                  "{devices=[2,2]<=[4]}")
      .def(
          "to_proto",
          [](const hlo::HloSharding& self, const std::string& format) -> py::object {
            std::string out = unwrap(proto::printOpSharding(self, formatOf(format)));
            if (format == "binary") return py::bytes(out);
            return py::str(out);
          },
          py::arg("format") = "binary",
          "The xla.OpSharding: bytes in XLA's wire format ('binary'), or str ('text', 'json').\n\n"
          ">>> HloSharding.parse('{devices=[2,2]<=[4]}').to_proto()\n"
          "b'\\x08\\x03\\x1a\\x02\\x02\\x02J\\x01\\x04R\\x01\\x00'")
      .def("__str__", [](const hlo::HloSharding& self) { return hlo::printSharding(self); })
      .def(
          "to_string",
          [](const hlo::HloSharding& self, bool metadata) { return lenient(hlo::printSharding(self, metadata)); },
          py::arg("metadata") = false,
          "XLA's ToString(include_metadata).\n\n"
          ">>> HloSharding.parse('{devices=[2]<=[2] metadata={op_name=\"a\"}}').to_string(metadata=True)\n"
          "'{devices=[2]<=[2] metadata={op_name=\"a\"}}'")
      .def("__repr__",
           [](const hlo::HloSharding& self) { return "HloSharding.parse('" + hlo::printSharding(self) + "')"; })
      .def(
          "__eq__",
          [](const hlo::HloSharding& a, py::object b) {
            if (!py::isinstance<hlo::HloSharding>(b)) return false;
            return a == b.cast<const hlo::HloSharding&>();
          },
          py::is_operator())
      .def("__hash__", [](const hlo::HloSharding& self) { return static_cast<Py_ssize_t>(hashOf(self)); })
      .def_property_readonly(
          "tile_dims", [](const hlo::HloSharding& self) { return py::tuple(py::cast(tileDims(self))); },
          "The tile assignment dimensions (last_tile_dims included); () when not tiled.")
      .def_property_readonly("is_replicated", &hlo::HloSharding::isReplicated,
                             "Every device holds the whole array ({replicated}).")
      .def_property_readonly("is_tuple", &hlo::HloSharding::isTuple,
                             "A tuple sharding ({{...}, {...}}): see tuple_elements.")
      .def_property_readonly("is_manual", &hlo::HloSharding::isManual,
                             "A fully manual sharding ({manual}); a MANUAL subgroup shows in subgroup_types.")
      .def_property_readonly("is_unknown", &hlo::HloSharding::isUnknown, "The {unknown} sharding.")
      .def_property_readonly("is_unreduced", &hlo::HloSharding::isUnreduced,
                             "A fully unreduced sharding ({unreduced}); an UNREDUCED subgroup shows in subgroup_types.")
      .def_property_readonly("is_maximal", &hlo::HloSharding::isSingleDevice,
                             "A single-device ({maximal device=N}) sharding.")
      .def_property_readonly("is_tiled", &hlo::HloSharding::isTiled,
                             "A sharding with a tile assignment ({devices=...}, V1 or V2).")
      .def_property_readonly("is_named", &hlo::HloSharding::isNamed, "A V3 (NamedSharding) sharding.")
      .def_property_readonly("replicate_on_last_tile_dim", &hlo::HloSharding::replicateOnLastTileDim,
                             "The last tile dim replicates (last_tile_dim_replicate).")
      .def_property_readonly(
          "subgroup_types",
          [](const hlo::HloSharding& self) {
            std::vector<std::string> names;
            for (hlo::OpShardingType t : self.subgroupTypes()) names.push_back(hlo::subgroupTypeName(t));
            return names;
          },
          "The last_tile_dims types, e.g. ['manual'].")
      .def_property_readonly(
          "device",
          [](const hlo::HloSharding& self) -> py::object {
            auto d = self.uniqueDevice();
            return d ? py::object(py::int_(*d)) : py::object(py::none());
          },
          "The device of a single-device sharding, else None.")
      .def_property_readonly("tuple_elements", &hlo::HloSharding::tupleElements,
                             "The elements of a tuple sharding ([] otherwise).")
      .def(
          "validate",
          [](const hlo::HloSharding& self, py::object shape, std::optional<int64_t> numDevices) {
            check(self.validate(shapeFrom(shape), numDevices));
          },
          py::arg("shape"), py::arg("num_devices") = py::none(),
          "XLA's Validate against `shape` ('f32[4,8]', a tuple shape text, or a sequence of ints): "
          "returns None, or raises Error with XLA's message.\n\n"
          ">>> HloSharding.parse('{devices=[2]<=[2]}').validate('f32[4]')\n"
          ">>> try:\n"
          "...     HloSharding.parse('{devices=[2]<=[2]}').validate((4, 4))\n"
          "... except Error as e:\n"
          "...     print(str(e).split('.')[0])\n"
          "Number of tile assignment dimensions (excluding subgroups) is different than the input rank")
      .def("__reduce__", &reduceToState, kReduceDoc)
      // The state is bytes: metadata read from OpSharding bytes need not be UTF-8.
      .def(py::pickle([](const hlo::HloSharding& self) { return py::make_tuple(py::bytes(hlo::printSharding(self, true))); },
                      [](py::tuple t) {
                        if (t.size() != 1) throw py::type_error("bad HloSharding pickle state");
                        return parseText(textOf(t[0], "HloSharding state"));
                      }));
}

}  // namespace shardbridge::python
