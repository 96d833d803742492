// Memory providers written in Python. The object needs none of upstream's MemoryProvider
// base class, only some of its methods, called as upstream's memory manager calls them:
// initialize(session_id, hermes_home=..., platform=...), system_prompt_block(),
// prefetch(query, session_id=...), sync_turn(user_content, assistant_content,
// session_id=..., messages=[...]), on_session_switch(new_session_id,
// parent_session_id=..., reset=...), on_compaction(messages) (or upstream's name,
// on_pre_compress), on_memory_write(action, target, content), on_session_end(messages),
// shutdown(). What a method raises goes to sys.unraisablehook and the turn goes on. Its
// tools (get_tool_schemas() and handle_tool_call()) join the agent's registry like any
// Python tool.
#include "py_memory_provider.hpp"

#include <array>
#include <string_view>

#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace hermes::python {
namespace {

constexpr std::array<const char*, 10> kMethodNames = {"initialize",        "system_prompt_block",
                                                      "prefetch",          "sync_turn",
                                                      "on_session_switch", "on_compaction",
                                                      "on_pre_compress",   "on_memory_write",
                                                      "on_session_end",    "shutdown"};

bool has_method(const py::handle& object, const char* name) {
  py::object method = py::getattr(object, name, py::none());
  return !method.is_none() && PyCallable_Check(method.ptr()) != 0;
}

// Upstream declares name as a property; a method or a plain attribute does as well.
std::string provider_name(const py::handle& provider) {
  py::object name = py::getattr(provider, "name", py::none());
  if (!name.is_none() && PyCallable_Check(name.ptr()) != 0) name = name();
  if (py::isinstance<py::str>(name)) return name.cast<std::string>();
  return py::str(py::type::handle_of(provider).attr("__name__"));
}

// The text a method returned; None counts as none. Anything else is the method's mistake
// and is reported.
std::string text_result(const py::object& value, const char* method) {
  if (value.is_none()) return "";
  if (!py::isinstance<py::str>(value)) {
    throw py::type_error(std::string(method) + "() must return str or None, not " +
                         py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>());
  }
  return value.cast<std::string>();
}

class PythonMemoryProvider final : public MemoryProvider {
 public:
  PythonMemoryProvider(const py::handle& provider, std::string platform)
      : provider_(py::reinterpret_borrow<py::object>(provider)),
        name_(provider_name(provider)),
        platform_(std::move(platform)) {
    // Runs with the GIL held (from hermes.Agent()).
    for (std::size_t i = 0; i < kMethodNames.size(); ++i)
      has_[i] = has_method(provider, kMethodNames[i]);
  }

  std::string name() const override { return name_; }

  void initialize(const std::string& session_id, const std::string& home) override {
    call("initialize", [&](const py::object& fn) {
      fn(session_id, "hermes_home"_a = home, "platform"_a = platform_);
    });
  }

  std::string system_prompt_block() override {
    std::string out;
    call("system_prompt_block",
         [&](const py::object& fn) { out = text_result(fn(), "system_prompt_block"); });
    return out;
  }

  std::string prefetch(const std::string& query, const std::string& session_id) override {
    std::string out;
    call("prefetch", [&](const py::object& fn) {
      out = text_result(fn(query, "session_id"_a = session_id), "prefetch");
    });
    return out;
  }

  void sync_turn(const std::string& user_content, const std::string& assistant_content,
                 const std::string& session_id, const std::vector<Message>& messages) override {
    call("sync_turn", [&](const py::object& fn) {
      fn(user_content, assistant_content, "session_id"_a = session_id,
         "messages"_a = to_python(messages_to_json(messages)));
    });
  }

  void on_session_switch(const MemorySessionSwitch& change) override {
    call("on_session_switch", [&](const py::object& fn) {
      fn(change.new_session_id, "parent_session_id"_a = change.parent_session_id,
         "reset"_a = change.reset);
    });
  }

  std::string on_compaction(const std::vector<Message>& discarded) override {
    const char* method = has("on_compaction") ? "on_compaction" : "on_pre_compress";
    std::string out;
    call(method, [&](const py::object& fn) {
      out = text_result(fn(to_python(messages_to_json(discarded))), method);
    });
    return out;
  }

  void on_memory_write(const std::string& action, const std::string& target,
                       const std::string& content) override {
    call("on_memory_write", [&](const py::object& fn) { fn(action, target, content); });
  }

  void on_session_end(const std::vector<Message>& messages) override {
    call("on_session_end",
         [&](const py::object& fn) { fn(to_python(messages_to_json(messages))); });
  }

  void shutdown() override {
    call("shutdown", [](const py::object& fn) { fn(); });
  }

 private:
  bool has(std::string_view name) const {
    for (std::size_t i = 0; i < kMethodNames.size(); ++i) {
      if (name == kMethodNames[i]) return has_[i];
    }
    return false;
  }

  // Runs `body` with the provider's method `name` under the GIL, when it has one.
  template <typename Body>
  void call(const char* name, Body&& body) {
    if (!has(name)) return;  // Nothing to convert for methods the provider leaves out.
    const std::string what = "hermes memory provider " + name_ + "." + name;
    run_guarded(what.c_str(), [&] { body(provider_.get().attr(name)); });
  }

  PyRef provider_;  // Released under the GIL, whichever thread drops the agent.
  const std::string name_;
  const std::string platform_;
  std::array<bool, kMethodNames.size()> has_{};
};

}  // namespace

std::vector<ToolSpec> memory_provider_tools(const py::handle& provider) {
  std::vector<ToolSpec> tools;
  if (!has_method(provider, "get_tool_schemas") || !has_method(provider, "handle_tool_call")) {
    return tools;
  }
  py::object handle_tool_call = provider.attr("handle_tool_call");
  for (py::handle schema : provider.attr("get_tool_schemas")()) {
    if (!py::isinstance<py::dict>(schema)) {
      throw py::type_error("memory_provider: get_tool_schemas() must return a list of dicts");
    }
    py::dict tool = py::dict(schema.cast<py::dict>());
    if (tool.contains("function") && py::isinstance<py::dict>(tool["function"])) {
      tool = py::dict(tool["function"].cast<py::dict>());
    }
    const py::object name = tool.contains("name") ? py::object(tool["name"]) : py::str("");
    tool["handler"] = py::cpp_function(
        [handle_tool_call, name](const py::object& args) { return handle_tool_call(name, args); });
    // Its own toolset: a tool in a built-in toolset could silently replace a built-in tool.
    tool["toolset"] = "memory_provider";
    tools.push_back(tool_spec_from_python(tool));
  }
  return tools;
}

std::shared_ptr<MemoryProvider> memory_provider_from_python(const py::handle& provider,
                                                            const std::string& platform) {
  bool any = has_method(provider, "get_tool_schemas");  // A provider of tools only.
  for (const char* name : kMethodNames) any = any || has_method(provider, name);
  if (!any) {
    throw py::type_error(
        "memory_provider: " + py::repr(provider).cast<std::string>() +
        " has none of the methods of a memory provider (prefetch, sync_turn, ...)");
  }
  return std::make_shared<PythonMemoryProvider>(provider, platform);
}

}  // namespace hermes::python
