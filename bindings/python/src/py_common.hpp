// Shared pieces of the Python module: status -> exception mapping, and holding Python
// objects from C++ objects that may be destroyed on any thread.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <memory>

#include "hermes/session_store.hpp"
#include "hermes/status.hpp"
#include "hermes/tool.hpp"

namespace hermes::python {

// Runs `body` with the GIL held. Whatever it raises (a Python exception, or a value of
// the wrong type failing to convert) is reported as unraisable, naming `what`, and
// swallowed: a broken callback or plugin hook must not break the turn.
template <typename Body>
void run_guarded(const char* what, Body&& body) {
  pybind11::gil_scoped_acquire gil;
  try {
    body();
  } catch (pybind11::error_already_set& e) {
    e.discard_as_unraisable(what);
  } catch (const pybind11::builtin_exception& e) {
    e.set_error();
    pybind11::error_already_set().discard_as_unraisable(what);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    pybind11::error_already_set().discard_as_unraisable(what);
  }
}

// Creates the exception classes (hermes.HermesError and its subclasses) on `m`.
void register_exceptions(pybind11::module_& m);

// Raises the exception class that matches `status`.
[[noreturn]] void raise_status(const Status& status);

// A Python object referenced from C++: released with the GIL held, whichever thread
// drops the last reference, and not at all once the interpreter is gone.
class PyRef {
 public:
  explicit PyRef(pybind11::object object) : object_(std::move(object)) {}
  ~PyRef();
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  const pybind11::object& get() const { return object_; }

 private:
  pybind11::object object_;
};

// "ValueError: message" for the Python exception being handled.
std::string describe_python_error(pybind11::error_already_set& error);

// Builds a ToolSpec from a Python tool description: a hermes.Tool, a (callable, schema)
// pair, or a dict with "handler" and the schema keys. Raises TypeError/ValueError.
ToolSpec tool_spec_from_python(const pybind11::handle& tool);

// The store behind a hermes.SessionStore. Raises TypeError for anything else.
std::shared_ptr<SessionStore> session_store_from_python(const pybind11::handle& store);

void register_tools(pybind11::module_& m);
void register_session_store(pybind11::module_& m);
void register_turn_stream(pybind11::module_& m);
void register_runtime(pybind11::module_& m);
void register_agent(pybind11::module_& m);
void register_utilities(pybind11::module_& m);
void register_message_utils(pybind11::module_& m);
void register_context_compressor(pybind11::module_& m);
void register_skills(pybind11::module_& m);
void register_tracing(pybind11::module_& m);

}  // namespace hermes::python
