// Direct CPython entry points for the calls a loop over shardings makes
// most: HloSharding.parse(text), str(HloSharding) and to_sdy(HloSharding,
// Mesh) (issue 12 item 5; docs/python.md § Performance).
//
// pybind11's dispatcher costs about as much as a small parse: it builds an
// argument tuple, loads each argument through a caster that looks its type
// up by name, sets up exception translation and, for a result, looks the type
// up again and registers the new instance. Each function here is a plain
// CPython function (METH_FASTCALL, or the type's tp_str slot) that does the
// common case itself and hands every other call — other argument types or
// counts, keywords, uninitialised objects, large inputs, and every error — to
// the pybind11 function it replaces, unchanged. So results, exceptions (type,
// message, location), docstrings, __module__ and __qualname__ are exactly
// the pybind11 path's; python/tests/test_fast_calls.py compares the two.
#include <Python.h>

#include <cstring>
#include <utility>

#include "common.h"
#include "shardbridge/hlo/text.h"

namespace shardbridge::python {
namespace {

namespace pyd = py::detail;

// One pybind11-bound type: its type_info and Python type object. `fast` is
// set only when pybind11 gives its instances the simple layout (one value
// pointer, then the holder, in the object itself), which the helpers below
// read and write directly.
struct Bound {
  const pyd::type_info* info = nullptr;
  PyTypeObject* type = nullptr;
  bool fast = false;
};

Bound gHlo, gMesh, gTensor;
PyObject* gSlowParse = nullptr;  // the pybind11 HloSharding.parse
PyObject* gSlowToSdy = nullptr;  // the pybind11 to_sdy
reprfunc gSlowStr = nullptr;     // HloSharding's tp_str before (calls the pybind11 __str__)

// Calls each fast path answered itself and handed on, for the tests
// (_core._fast_call_stats; updated with the GIL held).
enum Entry { kParse, kStr, kToSdy, kEntries };
uint64_t gAnswered[kEntries] = {}, gHandedOn[kEntries] = {};

Bound bound(const std::type_info& t) {
  Bound b;
  b.info = pyd::get_type_info(t);
  if (!b.info) return b;
  b.type = b.info->type;
  const auto& bases = pyd::all_type_info(b.type);
  b.fast = bases.size() == 1 && b.info->holder_size_in_ptrs <= pyd::instance_simple_holder_in_ptrs();
  return b;
}

// The C++ value of `obj` when it is an initialised instance of exactly `b`'s
// type (not a subclass), else null. An object made by __new__ alone owns a
// value but has no holder: its value pointer is null or, once pybind11 has
// loaded it, raw memory; the pybind11 function such an object is handed to
// raises TypeError (common.h). With `holder`, the holder must be constructed
// (pybind11 loads a shared_ptr-held object only then); without, an instance
// that refers to a value another object owns (no holder) is taken too.
template <typename T>
T* valueOf(PyObject* obj, const Bound& b, bool holder = false) {
  if (!b.fast || Py_TYPE(obj) != b.type) return nullptr;
  auto* inst = reinterpret_cast<pyd::instance*>(obj);
  if (!inst->simple_layout || (!inst->simple_holder_constructed && (holder || inst->owned))) return nullptr;
  return static_cast<T*>(inst->simple_value_holder[0]);
}

// A new instance of `b`'s type owning `value` through `holder` (what
// pybind11's cast with take_ownership makes, laid out as
// instance::allocate_layout does for the simple layout). The instance is not
// entered in pybind11's registry of C++ pointers: that registry only lets a
// later cast of the same pointer return this object, and nothing hands these
// pointers back to pybind11 (every object the module returns is new); pybind11
// deallocates unregistered instances as usual (clear_instance skips the
// deregistration). Null, with MemoryError set, when allocation fails.
template <typename Holder, typename T>
PyObject* adopt(const Bound& b, T* value, Holder&& holder) {
  PyObject* self = b.type->tp_alloc(b.type, 0);
  if (!self) return nullptr;
  auto* inst = reinterpret_cast<pyd::instance*>(self);
  inst->simple_layout = true;
  inst->simple_instance_registered = false;
  inst->owned = true;
  pyd::value_and_holder vh(inst, b.info, 0, 0);
  vh.value_ptr() = value;
  new (std::addressof(vh.holder<std::decay_t<Holder>>())) std::decay_t<Holder>(std::forward<Holder>(holder));
  vh.set_holder_constructed();
  return self;
}

// tp_dealloc of the types adopt() makes instances of: an instance of exactly
// that type in the state adopt() leaves it (holder constructed, not
// registered, no keep-alive patients, no weak references) is freed here —
// the holder destroyed, then the memory, as pybind11_object_dealloc does,
// without its type lookups and error save/restore (the destructors run no
// Python). Every other instance, subclasses included, goes to the type's
// previous tp_dealloc.
template <typename Holder>
struct Dealloc {
  static inline const Bound* b = nullptr;
  static inline destructor slow = nullptr;
  static void run(PyObject* self) {
    auto* inst = reinterpret_cast<pyd::instance*>(self);
    PyTypeObject* type = Py_TYPE(self);
    if (type == b->type && inst->simple_layout && inst->simple_holder_constructed &&
        !inst->simple_instance_registered && !inst->has_patients && !inst->weakrefs) {
      pyd::value_and_holder vh(inst, b->info, 0, 0);
      vh.holder<Holder>().~Holder();
      type->tp_free(self);
      Py_DECREF(type);
      return;
    }
    slow(self);
  }
  static void install(const Bound& bound) {
    if (PyType_HasFeature(bound.type, Py_TPFLAGS_HAVE_GC)) return;  // pybind11's dynamic_attr types
    b = &bound;
    slow = bound.type->tp_dealloc;
    bound.type->tp_dealloc = run;
  }
};

// HloSharding.parse(text) for one positional str below the GIL-release size
// that parses; the pybind11 function for anything else (it raises the Error).
PyObject* fastParse(PyObject*, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  if (PyVectorcall_NARGS(nargsf) == 1 && !kwnames && PyUnicode_Check(args[0])) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(args[0], &size);
    if (data && static_cast<size_t>(size) < kReleaseGilAt) {
      try {
        Result<hlo::HloSharding> parsed = hlo::parseSharding(std::string_view(data, static_cast<size_t>(size)));
        if (parsed) {
          auto value = std::make_unique<hlo::HloSharding>(std::move(*parsed));
          hlo::HloSharding* raw = value.get();
          if (PyObject* out = adopt(gHlo, raw, std::move(value))) {
            ++gAnswered[kParse];
            return out;
          }
        }
      } catch (...) {
      }
    }
    PyErr_Clear();
  }
  ++gHandedOn[kParse];
  return PyObject_Vectorcall(gSlowParse, args, static_cast<size_t>(nargsf), kwnames);
}

// `text` as a str, decoded strictly as pybind11 returns a std::string; an
// ASCII text (the usual case) is copied straight into a new compact str.
PyObject* strOf(std::string_view text) {
  const auto n = static_cast<Py_ssize_t>(text.size());
  uint64_t bits = 0;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    bits |= word;
  }
  for (; i < text.size(); ++i) bits |= static_cast<unsigned char>(text[i]);
  if (bits & 0x8080808080808080ULL) return PyUnicode_DecodeUTF8(text.data(), n, nullptr);
  PyObject* out = PyUnicode_New(n, 127);
  if (out) std::memcpy(PyUnicode_DATA(out), text.data(), text.size());
  return out;
}

// str(HloSharding): printSharding's text (HloSharding::print into a buffer
// kept between calls, which the GIL serialises; nothing between clear() and
// the copy runs Python code, as a str is not tracked by the cyclic collector
// and allocating one never starts a collection).
PyObject* fastStr(PyObject* self) {
  if (const auto* s = valueOf<const hlo::HloSharding>(self, gHlo)) {
    try {
      static std::string* buffer = new std::string();  // never destroyed (outlives the interpreter)
      buffer->clear();
      s->print(*buffer, false);
      PyObject* out = strOf(*buffer);
      if (buffer->capacity() > 4096) *buffer = std::string();  // no large buffer kept
      if (out) {
        ++gAnswered[kStr];
        return out;
      }
    } catch (...) {
    }
    PyErr_Clear();
  }
  ++gHandedOn[kStr];
  return gSlowStr(self);
}

// to_sdy(HloSharding, Mesh) with no keywords, for a sharding importPlain
// takes; the pybind11 function for anything else.
PyObject* fastToSdy(PyObject*, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  if (PyVectorcall_NARGS(nargsf) == 2 && !kwnames) {
    const auto* s = valueOf<const hlo::HloSharding>(args[0], gHlo);
    const auto* mesh = s ? valueOf<MeshObject>(args[1], gMesh, true) : nullptr;
    if (mesh && plainImport(*s)) {
      const MeshPtr& holder =
          pyd::value_and_holder(reinterpret_cast<pyd::instance*>(args[1]), gMesh.info, 0, 0).holder<MeshPtr>();
      try {
        TensorShardingPtr out = importPlain(*s, holder);
        TensorShardingObject* raw = out.get();
        if (PyObject* result = adopt(gTensor, raw, std::move(out))) {
          ++gAnswered[kToSdy];
          return result;
        }
      } catch (...) {
      }
      PyErr_Clear();
    }
  }
  ++gHandedOn[kToSdy];
  return PyObject_Vectorcall(gSlowToSdy, args, static_cast<size_t>(nargsf), kwnames);
}

// A METH_FASTCALL function standing in for the pybind11 function `slow`: the
// same name, docstring (signature line included), __module__ and __self__
// (pybind11's function-record capsule, which also gives the same
// __qualname__).
PyObject* replacement(PyObject* slow, PyMethodDef* def, _PyCFunctionFastWithKeywords fn) {
  py::handle h(slow);
  std::string doc = py::str(h.attr("__doc__"));
  def->ml_name = strdup(std::string(py::str(h.attr("__name__"))).c_str());
  def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn));
  def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
  def->ml_doc = strdup(doc.c_str());
  py::object module = h.attr("__module__");
  PyObject* out = PyCFunction_NewEx(def, PyCFunction_GET_SELF(slow), module.ptr());
  if (!out) throw py::error_already_set();
  return out;
}

// Never freed: the functions live as long as the interpreter.
PyMethodDef gParseDef{}, gToSdyDef{};

}  // namespace

void registerFastCalls(py::module_& m) {
  gHlo = bound(typeid(hlo::HloSharding));
  gMesh = bound(typeid(MeshObject));
  gTensor = bound(typeid(TensorShardingObject));
  if (!gHlo.fast || !gMesh.fast || !gTensor.fast) return;  // the pybind11 functions stay

  py::object cls = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(gHlo.type));
  gSlowParse = py::object(cls.attr("parse")).release().ptr();
  py::object parse = py::reinterpret_steal<py::object>(replacement(gSlowParse, &gParseDef, fastParse));
  cls.attr("parse") = py::reinterpret_steal<py::object>(PyStaticMethod_New(parse.ptr()));

  gSlowToSdy = py::object(m.attr("to_sdy")).release().ptr();
  m.attr("to_sdy") = py::reinterpret_steal<py::object>(replacement(gSlowToSdy, &gToSdyDef, fastToSdy));

  // The class keeps its pybind11 __str__ (HloSharding.__str__(h) and
  // subclasses, which get CPython's slot_tp_str, call it); str(h) of an
  // HloSharding goes through the slot.
  Dealloc<std::unique_ptr<hlo::HloSharding>>::install(gHlo);
  Dealloc<TensorShardingPtr>::install(gTensor);

  gSlowStr = gHlo.type->tp_str;
  gHlo.type->tp_str = fastStr;
  PyType_Modified(gHlo.type);

  // For python/tests/test_fast_calls.py: the functions replaced, and how
  // often each fast path answered or handed a call on.
  py::dict slow;
  slow["HloSharding.parse"] = py::handle(gSlowParse);
  slow["to_sdy"] = py::handle(gSlowToSdy);
  m.attr("_pybind11_functions") = slow;
  m.def("_fast_call_stats", [] {
    const char* names[kEntries] = {"HloSharding.parse", "str(HloSharding)", "to_sdy"};
    py::dict out;
    for (int i = 0; i < kEntries; ++i) out[names[i]] = py::make_tuple(gAnswered[i], gHandedOn[i]);
    return out;
  }, "{entry point: (calls answered by the fast path, calls handed to pybind11)} (python/tests/test_fast_calls.py).");
}

}  // namespace shardbridge::python
