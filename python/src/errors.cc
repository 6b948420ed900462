// shardbridge.Error from library errors: the message, the byte offset, the
// 1-based line and column, the note (with its line and column) and the
// MLIR-style diagnostic with its caret (base/diagnostic.h). The Error class itself is pure Python
// (shardbridge/_errors.py), so it can be subclassed and pickled as usual.
#include <Python.h>

#include "common.h"
#include "shardbridge/base/diagnostic.h"

namespace shardbridge::python {
namespace {

const char* codeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kParse: return "parse";
    case ErrorCode::kInvalid: return "invalid";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

// Messages quote the input, which may be cut inside a UTF-8 sequence (or
// not be UTF-8 at all): decoded with U+FFFD for bad bytes, never an error.
}  // namespace

py::str lenient(const std::string& text) {
  PyObject* s = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

namespace {

void setPythonError(const LibraryError& e) {
  py::object cls = py::module_::import("shardbridge._errors").attr("Error");
  Error error = e.error;
  if (error.hasOffset() && error.offset > e.text.size()) error.offset = Error::kNoOffset;
  py::object offset = py::none(), line = py::none(), column = py::none();
  if (error.hasOffset()) {
    LineCol at = lineColAt(e.text, error.offset);
    offset = py::int_(error.offset);
    line = py::int_(at.line);
    column = py::int_(at.column);
  }
  if (error.hasNoteOffset() && error.noteOffset > e.text.size()) error.noteOffset = Error::kNoOffset;
  py::object note = py::none(), noteLine = py::none(), noteColumn = py::none();
  if (error.hasNote()) note = lenient(error.note);
  if (error.hasNoteOffset()) {
    LineCol at = lineColAt(e.text, error.noteOffset);
    noteLine = py::int_(at.line);
    noteColumn = py::int_(at.column);
  }
  std::string diagnostic = renderDiagnostic(error, e.text, e.name);
  py::object instance =
      cls(lenient(error.message), py::arg("code") = codeName(error.code), py::arg("offset") = offset,
          py::arg("line") = line, py::arg("column") = column, py::arg("diagnostic") = lenient(diagnostic),
          py::arg("note") = note, py::arg("note_line") = noteLine,
          py::arg("note_column") = noteColumn);
  PyErr_SetObject(cls.ptr(), instance.ptr());
}

}  // namespace

void raise(const Error& error, std::string_view text) {
  throw LibraryError{error, std::string(text)};
}

void raise(ErrorCode code, const std::string& message) { throw LibraryError{makeError(code, message), {}}; }

void registerErrors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LibraryError& e) {
      setPythonError(e);
    }
  });
}

int64_t int64Of(py::handle value, const std::string& what) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
    throw py::type_error(what + " must be an int, not " + std::string(py::str(py::type::of(value).attr("__name__"))));
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0) raise(ErrorCode::kInvalid, what + " is out of range: " + std::string(py::str(value)));
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<int64_t>(v);
}

bool isText(py::handle value) { return PyUnicode_Check(value.ptr()); }
bool isBytes(py::handle value) { return PyBytes_Check(value.ptr()) || PyByteArray_Check(value.ptr()); }

std::string textOf(py::handle value, const char* what) {
  if (PyUnicode_Check(value.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
    if (!data) throw py::error_already_set();
    return std::string(data, static_cast<size_t>(size));
  }
  if (PyBytes_Check(value.ptr())) {
    return std::string(PyBytes_AS_STRING(value.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(value.ptr())));
  }
  if (PyByteArray_Check(value.ptr())) {
    return std::string(PyByteArray_AS_STRING(value.ptr()),
                       static_cast<size_t>(PyByteArray_GET_SIZE(value.ptr())));
  }
  throw py::type_error(std::string(what) + " must be str or bytes, not " +
                       std::string(py::str(py::type::of(value).attr("__name__"))));
}

}  // namespace shardbridge::python
