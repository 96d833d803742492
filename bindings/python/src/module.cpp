// The native part of the `hermes` Python package.
#include "hermes/version.hpp"
#include "py_async_turn.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

struct ExceptionClasses {
  py::object base;
  py::object by_code[16];
};

ExceptionClasses& classes() {
  static ExceptionClasses* c = new ExceptionClasses();  // Lives as long as the process.
  return *c;
}

py::object make_class(py::module_& m, const char* name, py::handle base, const char* doc) {
  std::string qualified = std::string("hermes.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  py::object out = py::reinterpret_steal<py::object>(cls);
  m.attr(name) = out;
  return out;
}

}  // namespace

void register_exceptions(py::module_& m) {
  auto& c = classes();
  c.base = make_class(m, "HermesError", PyExc_RuntimeError, "Base class of hermes errors.");
  auto add = [&](StatusCode code, const char* name, const char* doc) {
    c.by_code[-static_cast<int>(code)] = make_class(m, name, c.base, doc);
  };
  // Also a ValueError, as Python's own bad arguments are: `except ValueError` catches a bad
  // argument whether a keyword check or the library itself found it.
  const int invalid = -static_cast<int>(StatusCode::kInvalidArgument);
  c.by_code[invalid] =
      make_class(m, "InvalidArgumentError", py::make_tuple(c.base, py::handle(PyExc_ValueError)),
                 "A bad argument; the message names it.");
  add(StatusCode::kNotFound, "NotFoundError", "A session, tool or file does not exist.");
  add(StatusCode::kApiError, "ApiError", "The model provider failed.");
  add(StatusCode::kCancelled, "CancelledError", "The turn was interrupted.");
  add(StatusCode::kDataLoss, "DataLossError", "Stored data is corrupt or of a newer format.");
  add(StatusCode::kIoError, "StoreError", "The file system or database failed.");
}

void raise_status(const Status& status) {
  auto& c = classes();
  const int index = -static_cast<int>(status.code());
  py::object cls = (index > 0 && index < 16 && c.by_code[index]) ? c.by_code[index] : c.base;
  PyErr_SetString(cls.ptr(), status.message().c_str());
  throw py::error_already_set();
}

}  // namespace hermes::python

PYBIND11_MODULE(_native, m) {
  m.doc() = "hermes: an embeddable agent runtime (native part).";
  m.attr("__version__") = hermes::version();
  hermes::python::register_exceptions(m);
  hermes::python::register_tools(m);
  hermes::python::register_session_store(m);
  hermes::python::register_turn_stream(m);
  hermes::python::register_runtime(m);
  hermes::python::register_async_turn(m);
  hermes::python::register_agent(m);
  hermes::python::register_utilities(m);
  hermes::python::register_message_utils(m);
  hermes::python::register_context_compressor(m);
  hermes::python::register_skills(m);
  hermes::python::register_tracing(m);
}
