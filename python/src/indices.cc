// HloSharding.devices_indices_map(shape): which slice of the array each
// device holds, with JAX's semantics (jax.sharding.Sharding.devices_indices_map,
// computed in jax/_src/op_shardings.py `op_sharding_to_numpy_indices`):
// an unsharded dim is slice(None), a dim split n ways gives tile i
// slice(i*size, (i+1)*size); tiles are visited in row-major order, each
// held by the next `replicas` devices of the tile assignment; a replicated
// sharding maps every device to the whole array; a single-device sharding
// maps its device to the whole array.
//
// JAX refuses a sharded dim that does not divide evenly (jax/_src/sharding.py
// _common_shard_shape raises IndivisibleError; op_sharding_to_numpy_indices
// asserts it). For an uneven dim the split here is XLA's
// (TileOffsetForDevice / TileLimitForDevice, as the SPMD partitioner pads):
// tile i covers [min(i*c, dim), min((i+1)*c, dim)) with c = ceil(dim / n),
// so the last tiles may be shorter or empty; require_even=True raises as
// JAX does.
#include <Python.h>

#include <algorithm>

#include "common.h"
#include "shardbridge/hlo/named_sharding.h"

namespace shardbridge::python {
namespace {

py::object wholeArray(size_t rank) {
  py::tuple t(rank);
  for (size_t i = 0; i < rank; ++i) t[i] = py::slice(py::none(), py::none(), py::none());
  return t;
}

py::dict indicesMap(const hlo::HloSharding& input, py::object shapeArg, std::optional<int64_t> numDevices,
                    bool requireEven) {
  hlo::Shape shape = shapeFrom(shapeArg);
  if (!shape.isArray()) raise(ErrorCode::kInvalid, "devices_indices_map needs an array shape, got " + shape.toString());
  const std::vector<int64_t>& dims = shape.dimensions();
  const size_t rank = dims.size();
  if (input.isTuple()) {
    raise(ErrorCode::kInvalid, "a tuple sharding has no devices_indices_map: take one of its tuple_elements");
  }
  hlo::HloSharding s = input.isNamed() ? unwrap(hlo::toV2Sharding(input)) : input;
  if (s.isManual() || s.isManualSubgroup()) {
    raise(ErrorCode::kUnsupported,
          "a manual sharding has no devices_indices_map: each device holds its own local data, not a "
          "slice of one array");
  }
  if (s.isUnreduced() || s.isUnreducedSubgroup()) {
    raise(ErrorCode::kUnsupported,
          "an unreduced sharding has no devices_indices_map: its devices hold partial values to be "
          "reduced, not slices of the array");
  }
  if (s.isUnknown()) raise(ErrorCode::kUnsupported, "an unknown sharding has no devices_indices_map");
  py::dict out;
  if (s.isReplicated()) {
    if (!numDevices) {
      raise(ErrorCode::kInvalid, "a replicated sharding needs num_devices: every device holds the whole array");
    }
    if (*numDevices < 0) raise(ErrorCode::kInvalid, "num_devices must not be negative");
    py::object whole = wholeArray(rank);
    for (int64_t d = 0; d < *numDevices; ++d) out[py::int_(d)] = whole;
    return out;
  }
  if (s.isSingleDevice()) {
    out[py::int_(*s.uniqueDevice())] = wholeArray(rank);
    return out;
  }
  const int64_t dataRank = s.tiledDataRank();
  if (dataRank != static_cast<int64_t>(rank)) {
    raise(ErrorCode::kInvalid, "sharding " + s.toString() + " tiles " + std::to_string(dataRank) +
                                   " dimensions but the shape " + shape.toString() + " has rank " +
                                   std::to_string(rank));
  }
  const hlo::TileAssignment& tiles = s.tileAssignment();
  const int64_t total = tiles.numElements();
  if (numDevices && *numDevices != total) {
    raise(ErrorCode::kInvalid, "num_devices is " + std::to_string(*numDevices) + " but the sharding has " +
                                   std::to_string(total) + " devices");
  }
  int64_t replicas = 1;
  for (int64_t i = dataRank; i < tiles.numDimensions(); ++i) replicas *= tiles.dim(i);

  // One slice object per (dim, tile index), shared by every tuple.
  std::vector<std::vector<py::object>> slices(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t n = tiles.dim(static_cast<int64_t>(d));
    if (n == 1) {
      slices[d].push_back(py::slice(py::none(), py::none(), py::none()));
      continue;
    }
    const int64_t size = dims[d];
    if (requireEven && size % n != 0) {
      // What JAX's Sharding.shard_shape raises (IndivisibleError,
      // jax/_src/sharding.py _common_shard_shape) before devices_indices_map.
      raise(ErrorCode::kInvalid, "sharding " + s.toString() + " partitions array axis " + std::to_string(d) + " " +
                                     std::to_string(n) + " times, but the dimension size is " +
                                     std::to_string(size) + " (full shape: " + shape.toString() +
                                     "): JAX needs the tiles to divide it evenly");
    }
    const int64_t c = size % n == 0 ? size / n : (size + n - 1) / n;
    for (int64_t i = 0; i < n; ++i) {
      int64_t lo = std::min(i * c, size), hi = std::min((i + 1) * c, size);
      slices[d].push_back(py::reinterpret_steal<py::object>(
          PySlice_New(py::int_(lo).ptr(), py::int_(hi).ptr(), nullptr)));
    }
  }
  std::vector<int64_t> devices;
  if (tiles.isIota()) {
    tiles.iotaForm()->materialize(devices);
  } else {
    auto list = unwrap(tiles.devices());
    devices.assign(list.begin(), list.end());
  }
  // (device, tile) in ascending device order: a bucket per id when the ids
  // are 0..n-1 (the usual case), else a sort.
  std::vector<std::pair<int64_t, int64_t>> order(static_cast<size_t>(total), {-1, -1});
  bool dense = true;
  for (int64_t f = 0; f < total && dense; ++f) {
    int64_t d = devices[static_cast<size_t>(f)];
    if (d < 0 || d >= total || order[static_cast<size_t>(d)].first != -1) {
      dense = false;
    } else {
      order[static_cast<size_t>(d)] = {d, f / replicas};
    }
  }
  if (!dense) {
    for (int64_t f = 0; f < total; ++f) order[static_cast<size_t>(f)] = {devices[static_cast<size_t>(f)], f / replicas};
    std::sort(order.begin(), order.end());
  }
  // Sized once: growing a dict to 65,536 keys rehashes it a dozen times.
#if PY_VERSION_HEX < 0x030D0000
  if (PyObject* sized = _PyDict_NewPresized(static_cast<Py_ssize_t>(total))) {
    out = py::reinterpret_steal<py::dict>(sized);
  } else {
    throw py::error_already_set();
  }
#endif
  // The 65,536 tuples of a large map would each count towards a cyclic
  // garbage collection; none of them can be in a cycle, so the collector is
  // paused while they are made (and resumed if it was running).
  struct GcPause {
    int wasEnabled = PyGC_Disable();
    ~GcPause() {
      if (wasEnabled) PyGC_Enable();
    }
  } pause;
  std::vector<int64_t> index(rank), counts(rank);
  for (size_t d = 0; d < rank; ++d) counts[d] = tiles.dim(static_cast<int64_t>(d));
  for (const auto& [device, tile] : order) {
    int64_t rest = tile;
    for (size_t d = rank; d-- > 0;) {
      index[d] = rest % counts[d];
      rest /= counts[d];
    }
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(rank));
    if (!t) throw py::error_already_set();
    for (size_t d = 0; d < rank; ++d) {
      PyObject* item = slices[d][static_cast<size_t>(index[d])].ptr();
      Py_INCREF(item);
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(d), item);
    }
    PyObject* key = PyLong_FromLongLong(device);
    int failed = key ? PyDict_SetItem(out.ptr(), key, t) : -1;
    Py_XDECREF(key);
    Py_DECREF(t);
    if (failed != 0) throw py::error_already_set();
  }
  return out;
}

}  // namespace

void registerIndices(py::module_&, py::class_<hlo::HloSharding>& cls) {
  cls.def("devices_indices_map", &indicesMap, py::arg("shape"), py::arg("num_devices") = py::none(), py::kw_only(),
          py::arg("require_even") = false,
          R"doc(``{device: tuple[slice, ...]}``: the part of an array of ``shape`` each
device holds, as ``jax.sharding.Sharding.devices_indices_map`` computes it
(devices in ascending order). A replicated sharding needs ``num_devices``;
a maximal sharding maps its device to the whole array; manual, unreduced
and unknown shardings raise Error saying why. JAX itself refuses a dim the
tiles do not divide evenly (``Sharding.shard_shape`` raises IndivisibleError
before it maps any device); here such a dim is split as XLA's SPMD
partitioner pads it (ceil-sized tiles, the last ones shorter or empty), or,
with ``require_even=True``, raises Error as JAX does.

>>> HloSharding.parse('{devices=[2,1]<=[2]}').devices_indices_map((4, 3))
{0: (slice(0, 2, None), slice(None, None, None)), 1: (slice(2, 4, None), slice(None, None, None))}
)doc");
}

}  // namespace shardbridge::python
