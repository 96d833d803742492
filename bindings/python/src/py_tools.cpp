// Python callables as tools.
#include <pybind11/stl.h>

#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// A tool as the Python side describes it.
struct PyTool {
  py::object handler;
  std::string name;
  std::string description;
  py::object parameters;  // dict or None
  std::string toolset = "python";
  bool parallel_safe = true;
};

std::string result_text(const py::handle& result) {
  if (result.is_none()) return "";
  if (py::isinstance<py::str>(result)) return from_python(result, "tool result").get<std::string>();
  return from_python(result, "tool result").dump(-1, ' ', false, Json::error_handler_t::replace);
}

ToolHandler make_handler(py::object callable) {
  auto ref = std::make_shared<PyRef>(std::move(callable));
  return [ref](const Json& arguments, ToolContext& context) -> Result<std::string> {
    py::gil_scoped_acquire gil;
    try {
      py::object args = to_python(arguments);
      py::object result = ref->get()(args);
      return result_text(result);
    } catch (py::error_already_set& e) {
      (void)context;
      return Status::internal("[TOOL_ERROR] Tool execution failed: " + describe_python_error(e));
    }
  };
}

ToolSpec spec_from(const PyTool& tool) {
  ToolSpec spec;
  spec.name = tool.name;
  spec.description = tool.description;
  spec.toolset = tool.toolset;
  spec.parallel_safe = tool.parallel_safe;
  if (!tool.parameters.is_none()) spec.parameters = from_python(tool.parameters, "parameters");
  spec.handler = make_handler(tool.handler);
  return spec;
}

std::string str_or(const py::dict& d, const char* key, const std::string& fallback) {
  if (!d.contains(key) || d[key].is_none()) return fallback;
  return py::str(d[key]);
}

}  // namespace

PyRef::~PyRef() {
  if (!Py_IsInitialized()) {
    object_.release();  // The interpreter is gone; the object went with it.
    return;
  }
  py::gil_scoped_acquire gil;
  object_ = py::object();
}

std::string describe_python_error(py::error_already_set& error) {
  std::string type = py::str(error.type().attr("__name__"));
  std::string message = py::str(error.value());
  return message.empty() ? type : type + ": " + message;
}

ToolSpec tool_spec_from_python(const py::handle& tool) {
  if (py::isinstance<PyTool>(tool)) return spec_from(tool.cast<const PyTool&>());
  PyTool t;
  py::dict schema;
  if (py::isinstance<py::tuple>(tool) || py::isinstance<py::list>(tool)) {
    auto seq = tool.cast<py::sequence>();
    if (seq.size() != 2 || !py::isinstance<py::dict>(seq[1])) {
      throw py::type_error("a tool given as a pair must be (callable, schema dict)");
    }
    t.handler = seq[0];
    schema = seq[1];
  } else if (py::isinstance<py::dict>(tool)) {
    schema = tool.cast<py::dict>();
    if (!schema.contains("handler")) throw py::value_error("a tool dict needs a 'handler' callable");
    t.handler = schema["handler"];
  } else {
    throw py::type_error("a tool must be hermes.Tool, (callable, schema) or a dict with 'handler'");
  }
  if (!PyCallable_Check(t.handler.ptr())) throw py::type_error("tool handler is not callable");
  // Accept both {"name", "description", "parameters"} and {"type":"function","function":{...}}.
  if (schema.contains("function") && py::isinstance<py::dict>(schema["function"])) schema = schema["function"];
  py::object fallback_name = py::getattr(t.handler, "__name__", py::str(""));
  t.name = str_or(schema, "name", py::str(fallback_name));
  t.description = str_or(schema, "description", "");
  t.parameters = schema.contains("parameters") ? py::object(schema["parameters"]) : py::object(py::none());
  t.toolset = str_or(schema, "toolset", "python");
  return spec_from(t);
}

void register_tools(py::module_& m) {
  py::class_<PyTool>(m, "Tool", R"doc(
A tool the model can call: a Python callable plus its JSON schema.

The callable receives the arguments as a dict and returns a str (sent as is) or any
JSON-serialisable value (sent as JSON). An exception becomes an error result the model
can read; the conversation goes on.)doc")
      .def(py::init([](py::object handler, std::string name, std::string description,
                       py::object parameters, std::string toolset, bool parallel_safe) {
             if (!PyCallable_Check(handler.ptr())) throw py::type_error("handler is not callable");
             PyTool t;
             if (name.empty()) name = py::str(py::getattr(handler, "__name__", py::str("")));
             t.handler = std::move(handler);
             t.name = std::move(name);
             t.description = std::move(description);
             t.parameters = std::move(parameters);
             t.toolset = std::move(toolset);
             t.parallel_safe = parallel_safe;
             return t;
           }),
           py::arg("handler"), py::arg("name") = "", py::arg("description") = "",
           py::arg("parameters") = py::none(), py::arg("toolset") = "python",
           py::arg("parallel_safe") = true)
      .def_readonly("name", &PyTool::name)
      .def_readonly("description", &PyTool::description)
      .def_readonly("toolset", &PyTool::toolset)
      .def_readonly("parallel_safe", &PyTool::parallel_safe)
      .def("__repr__", [](const PyTool& t) { return "hermes.Tool(name='" + t.name + "')"; });
}

}  // namespace hermes::python
