// shardbridge.Error from library errors: the message, the byte offset, the
// 1-based line and column, and the MLIR-style diagnostic with its caret
// (base/diagnostic.h). The Error class itself is pure Python
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
  std::string diagnostic = renderDiagnostic(error, e.text, e.name);
  py::object instance =
      cls(py::str(error.message), py::arg("code") = codeName(error.code), py::arg("offset") = offset,
          py::arg("line") = line, py::arg("column") = column, py::arg("diagnostic") = diagnostic);
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
