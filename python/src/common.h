// What every file of the Python module shares: the objects it hands out,
// the attribute contexts they keep alive, and the conversion of library
// errors into shardbridge.Error (docs/python.md).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardbridge/base/result.h"
#include "shardbridge/hlo/hlo_sharding.h"
#include "shardbridge/hlo/shape.h"
#include "shardbridge/sdy/attrs.h"
#include "shardbridge/sdy/source_map.h"

namespace shardbridge::python {

namespace py = pybind11;

// One sdy attribute context. Every Mesh and TensorSharding holds the context
// its attributes live in, so a context lives exactly as long as some object
// uses it. New objects go into the current context, which is replaced by a
// fresh one once it holds kContextRotateAt attributes: a session that parses
// millions of shardings keeps only the contexts its live objects use.
struct SharedContext {
  sdy::Context ctx;
};
using ContextPtr = std::shared_ptr<SharedContext>;
inline constexpr size_t kContextRotateAt = 1 << 16;
ContextPtr currentContext();
std::pair<size_t, size_t> contextStats();

// A verified mesh and the symbol name shardings refer to it by.
struct MeshObject {
  ContextPtr context;
  sdy::MeshAttr mesh;
  std::string name = "mesh";
  // `@name` in `context`, made by the first refIn (with the GIL held).
  mutable sdy::MeshOrRef ref;
};
using MeshPtr = std::shared_ptr<MeshObject>;

// The same mesh in `context` (itself when it already lives there).
sdy::MeshAttr meshIn(const MeshObject& mesh, const ContextPtr& context);
// The reference `@name` to the mesh, in `context`. Call with the GIL held.
sdy::MeshOrRef refIn(const MeshObject& mesh, const ContextPtr& context);

// f() with the GIL released.
template <typename F>
auto withoutGil(F&& f) {
  py::gil_scoped_release unlocked;
  return f();
}

// One sdy sharding, with the mesh it was verified against when known, and
// the text it was parsed from (errors found later are located in it).
struct TensorShardingObject {
  ContextPtr context;
  sdy::TensorShardingAttr attr;
  MeshPtr mesh;  // null when unknown
  std::string text;
  sdy::SourceMap locations;
  bool parsed = false;
};
using TensorShardingPtr = std::shared_ptr<TensorShardingObject>;

// Objects made by `cls.__new__(cls)` alone (what unpickling does before
// __setstate__, and what a script may do by hand) have no C++ value: they
// own their value (pybind11's `owned`, set for every new instance) but their
// holder is not constructed, which pybind11 does for every owned value it
// is given. (Instances that refer to a value another object owns, such as
// tuple_elements' items, own none and have no holder.) Every argument of the
// three bound types is loaded through the casters below
// (pybind11::detail::type_caster, declared after this namespace), which
// raise TypeError for such an object before pybind11 would allocate raw
// memory for it and hand that to the function (docs/python.md § Objects
// made by __new__).
//
// TypeError "this <type> is not initialised ...".
[[noreturn]] void raiseUninitialised(py::handle obj);
// `(copyreg.__newobj__, (type(self),), self.__getstate__())`, the bound
// types' __reduce__: what object.__reduce_ex__ returns for protocols 2 and
// later, so those pickles are byte for byte what they were without it (and
// the ones written before load as they did). For protocols 0 and 1
// object.__reduce_ex__ went to copyreg._reduce_ex instead, which calls
// pybind11's base class and aborts the interpreter; with it they pickle too.
py::tuple reduceToState(py::handle self);
inline constexpr const char* kReduceDoc =
    "Pickling support: (copyreg.__newobj__, (type(self),), self.__getstate__()), for every protocol.";
// Raises raiseUninitialised when `src` is an instance of `info`'s type (or
// a subclass) that owns its value but has no holder; returns otherwise.
inline void requireInitialised(py::handle src, const py::detail::type_info* info) {
  if (!info || !PyObject_TypeCheck(src.ptr(), info->type)) return;
  auto* inst = reinterpret_cast<py::detail::instance*>(src.ptr());
  if (!inst->owned) return;
  if (inst->simple_layout) {
    if (!inst->simple_holder_constructed) raiseUninitialised(src);
    return;
  }
  // A Python class deriving from two bound classes: the part of `info`'s
  // type. (Not `vh &&`: value_and_holder's bool is "the value pointer is
  // set", which is false for exactly the objects looked for here.)
  py::detail::value_and_holder vh = inst->get_value_and_holder(info, false);
  if (vh.inst && !vh.holder_constructed()) raiseUninitialised(src);
}

// A library error as a C++ exception; translated into shardbridge.Error
// (registerErrors). `text` is what the offset points into.
struct LibraryError {
  Error error;
  std::string text;
  std::string name = "<input>";
};

[[noreturn]] void raise(const Error& error, std::string_view text = {});
[[noreturn]] void raise(ErrorCode code, const std::string& message);

template <typename T>
T unwrap(Result<T>&& result, std::string_view text = {}) {
  if (!result) raise(result.error(), text);
  return std::move(*result);
}
inline void check(const Status& status, std::string_view text = {}) {
  if (!status) raise(status.error(), text);
}

// The text of a `str` (UTF-8) or the bytes of a `bytes`/`bytearray`;
// TypeError for anything else, naming `what`.
std::string textOf(py::handle value, const char* what);
bool isText(py::handle value);
// UTF-8 text as str, bad bytes as U+FFFD (metadata read from OpSharding
// bytes, messages quoting such input).
py::str lenient(const std::string& text);
// A Python int that fits int64_t; TypeError (naming `what`) for other types,
// Error for ints out of range.
int64_t int64Of(py::handle value, const std::string& what);
bool isBytes(py::handle value);

// Inputs larger than this are converted with the GIL released.
inline constexpr size_t kReleaseGilAt = 4096;

// Coercions used by several functions (TypeError for other types).
MeshPtr meshFrom(py::handle value);                    // Mesh or mesh text
hlo::HloSharding hloFrom(py::handle value);            // HloSharding, text or OpSharding bytes
hlo::Shape shapeFrom(py::handle value);                // "f32[4,8]" or a sequence of ints
MeshPtr parseMesh(std::string_view text, const std::string& name = {});
TensorShardingPtr parseTensorSharding(std::string_view text, MeshPtr mesh);
// Verifies `s` against `mesh` (or its own inline mesh), located in its text.
void verifySharding(const TensorShardingObject& s, const MeshPtr& mesh);
sdy::MeshLookup lookupFor(const MeshPtr& mesh, const ContextPtr& context);

// to_sdy(s, mesh) with its keyword arguments at their defaults, for the
// shardings it returns one TensorSharding for without releasing the GIL
// (plainImport: not a tuple, not single-device, not large). Throws
// LibraryError as to_sdy raises Error.
bool plainImport(const hlo::HloSharding& s);
TensorShardingPtr importPlain(const hlo::HloSharding& s, const MeshPtr& mesh);

// Registration, one per file.
void registerErrors(py::module_& m);
void registerMesh(py::module_& m);
void registerTensorSharding(py::module_& m);
void registerHloSharding(py::module_& m);
void registerIndices(py::module_& m, py::class_<hlo::HloSharding>& cls);
void registerConversions(py::module_& m);
void registerViews(py::module_& m, py::class_<hlo::HloSharding>& cls);
void registerModules(py::module_& m);
void registerBench(py::module_& m);
// Last: replaces the hot entry points with direct CPython functions (fast_calls.cc).
void registerFastCalls(py::module_& m);
py::class_<hlo::HloSharding>& hloShardingClass();

}  // namespace shardbridge::python

namespace pybind11::detail {

// The casters of the bound types, as pybind11's own but refusing objects
// made by __new__ alone (shardbridge::python::requireInitialised).
template <typename T>
class InitialisedCaster : public type_caster_base<T> {
 public:
  bool load(handle src, bool convert) {
    shardbridge::python::requireInitialised(src, this->typeinfo);
    return type_caster_base<T>::load(src, convert);
  }
};
template <typename T>
class InitialisedHolderCaster : public copyable_holder_caster<T, std::shared_ptr<T>> {
 public:
  bool load(handle src, bool convert) {
    shardbridge::python::requireInitialised(src, this->typeinfo);
    return copyable_holder_caster<T, std::shared_ptr<T>>::load(src, convert);
  }
};

template <>
class type_caster<shardbridge::hlo::HloSharding> : public InitialisedCaster<shardbridge::hlo::HloSharding> {};
template <>
class type_caster<shardbridge::python::MeshObject> : public InitialisedCaster<shardbridge::python::MeshObject> {};
template <>
class type_caster<shardbridge::python::TensorShardingObject>
    : public InitialisedCaster<shardbridge::python::TensorShardingObject> {};
template <>
class type_caster<shardbridge::python::MeshPtr> : public InitialisedHolderCaster<shardbridge::python::MeshObject> {};
template <>
class type_caster<shardbridge::python::TensorShardingPtr>
    : public InitialisedHolderCaster<shardbridge::python::TensorShardingObject> {};

}  // namespace pybind11::detail
