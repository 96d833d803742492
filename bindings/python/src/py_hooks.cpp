// Plugin hooks written in Python: hermes.Agent(hooks=[plugin, ...]).
//
// A plugin is any object; each method it has named after a hook point is called with
// keyword arguments (so `def pre_tool_call(self, tool_name, args, **kwargs)` keeps working
// when a later version passes more). What a hook raises is reported as unraisable and
// skipped, as the C++ runner does with exceptions: a plugin can never break a turn.
#include "py_hooks.hpp"

#include <array>
#include <string>
#include <string_view>

#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace hermes::python {
namespace {

constexpr std::array<const char*, 13> kHookNames = {
    "pre_llm_call",   "pre_api_request",  "post_api_request",      "api_request_error",
    "pre_tool_call",  "post_tool_call",   "transform_tool_result", "transform_llm_output",
    "post_llm_call",  "on_session_start", "subagent_start",        "subagent_stop",
    "on_session_end"};

Json request_json(const ProviderRequest& request) {
  return {{"model", request.model},
          {"messages", messages_to_json(request.messages)},
          {"tools", request.tools},
          {"stream", request.stream}};
}

Json response_json(const ProviderResponse& response) {
  Json message = message_to_json(response.message);
  return {{"message", std::move(message)},
          {"usage", usage_to_json(response.usage)},
          {"model", response.served_model},
          {"response_id", response.response_id}};
}

Json error_json(const ApiError& error) {
  return {{"status_code", error.http_status},
          {"reason", std::string(failover_reason_name(error.reason))},
          {"message", error.message},
          {"retryable", error.retryable},
          {"text", error.to_string()}};
}

// The text a hook returned: a str, or a dict's `key` when it is a str; nullopt otherwise.
std::optional<std::string> text_of(const py::object& value, const char* key) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    py::dict d = value.cast<py::dict>();
    if (d.contains(key) && py::isinstance<py::str>(d[key])) return d[key].cast<std::string>();
  }
  return std::nullopt;
}

class PythonHooks final : public Hooks {
 public:
  explicit PythonHooks(const py::handle& plugin) : plugin_(py::reinterpret_borrow<py::object>(plugin)) {
    // Runs with the GIL held (from hermes.Agent()).
    for (std::size_t i = 0; i < kHookNames.size(); ++i) {
      py::object method = py::getattr(plugin, kHookNames[i], py::none());
      has_[i] = !method.is_none() && PyCallable_Check(method.ptr());
    }
  }

  std::string pre_llm_call(const std::string& session_id, const std::string& user_message) override {
    std::string out;
    call("pre_llm_call", [&](const py::object& fn) {
      out = text_of(fn("session_id"_a = session_id, "user_message"_a = user_message), "context")
                .value_or("");
    });
    return out;
  }

  void pre_api_request(const ProviderRequest& request) override {
    call("pre_api_request", [&](const py::object& fn) { fn("request"_a = to_python(request_json(request))); });
  }

  void post_api_request(const ProviderRequest& request, const ProviderResponse& response) override {
    call("post_api_request", [&](const py::object& fn) {
      fn("request"_a = to_python(request_json(request)), "response"_a = to_python(response_json(response)));
    });
  }

  void api_request_error(const ProviderRequest& request, const ApiError& error) override {
    call("api_request_error", [&](const py::object& fn) {
      fn("request"_a = to_python(request_json(request)), "error"_a = to_python(error_json(error)));
    });
  }

  // {"action": "block", "message": "..."} refuses the call (upstream's shape); a dict with
  // "args" (an object) runs it with those arguments instead.
  ToolCallDecision pre_tool_call(const std::string& tool_name, const Json& arguments) override {
    ToolCallDecision decision;
    call("pre_tool_call", [&](const py::object& fn) {
      py::object r = fn("tool_name"_a = tool_name, "args"_a = to_python(arguments));
      if (!py::isinstance<py::dict>(r)) return;
      py::dict d = r.cast<py::dict>();
      if (d.contains("action") && py::str(d["action"]).cast<std::string>() == "block") {
        decision.block = true;
        decision.block_message = text_of(r, "message").value_or("blocked by a plugin");
      } else if (d.contains("args") && py::isinstance<py::dict>(d["args"])) {
        decision.arguments = from_python(py::object(d["args"]), "pre_tool_call args");
      }
    });
    return decision;
  }

  void post_tool_call(const std::string& tool_name, const Json& arguments, std::string_view result,
                      std::chrono::milliseconds duration, bool is_error) override {
    call("post_tool_call", [&](const py::object& fn) {
      fn("tool_name"_a = tool_name, "args"_a = to_python(arguments), "result"_a = std::string(result),
         "duration_ms"_a = duration.count(), "is_error"_a = is_error);
    });
  }

  std::optional<std::string> transform_tool_result(const std::string& tool_name, const Json& arguments,
                                                   std::string_view result) override {
    std::optional<std::string> out;
    call("transform_tool_result", [&](const py::object& fn) {
      py::object r = fn("tool_name"_a = tool_name, "args"_a = to_python(arguments),
                        "result"_a = std::string(result));
      if (py::isinstance<py::str>(r)) out = r.cast<std::string>();
    });
    return out;
  }

  std::optional<std::string> transform_llm_output(std::string_view response) override {
    std::optional<std::string> out;
    call("transform_llm_output", [&](const py::object& fn) {
      py::object r = fn("response_text"_a = std::string(response));
      if (py::isinstance<py::str>(r)) out = r.cast<std::string>();
    });
    return out;
  }

  void post_llm_call(const std::string& user_message, const std::string& response) override {
    call("post_llm_call", [&](const py::object& fn) {
      fn("user_message"_a = user_message, "assistant_response"_a = response);
    });
  }

  void on_session_start(const std::string& session_id) override {
    call("on_session_start", [&](const py::object& fn) { fn("session_id"_a = session_id); });
  }

  void subagent_start(const std::string& parent_session_id, std::size_t task_index,
                      const std::string& goal) override {
    call("subagent_start", [&](const py::object& fn) {
      fn("parent_session_id"_a = parent_session_id, "task_index"_a = task_index, "goal"_a = goal);
    });
  }

  void subagent_stop(const std::string& parent_session_id, std::size_t task_index,
                     const std::string& status, const std::string& summary,
                     std::chrono::milliseconds duration) override {
    call("subagent_stop", [&](const py::object& fn) {
      fn("parent_session_id"_a = parent_session_id, "task_index"_a = task_index, "status"_a = status,
         "summary"_a = summary, "duration_ms"_a = duration.count());
    });
  }

  void on_session_end(const std::string& session_id, const std::vector<Message>& messages) override {
    call("on_session_end", [&](const py::object& fn) {
      fn("session_id"_a = session_id, "messages"_a = to_python(messages_to_json(messages)));
    });
  }

 private:
  bool has(const char* name) const {
    for (std::size_t i = 0; i < kHookNames.size(); ++i) {
      if (std::string_view(kHookNames[i]) == name) return has_[i];
    }
    return false;
  }

  // Runs `body` with the plugin's method `name` under the GIL, when the plugin has it.
  template <typename Body>
  void call(const char* name, Body&& body) {
    if (!has(name)) return;  // Nothing to convert for hooks the plugin does not define.
    const std::string what = std::string("hermes plugin hook ") + name;
    run_guarded(what.c_str(), [&] { body(plugin_.get().attr(name)); });
  }

  PyRef plugin_;  // Released under the GIL, whichever thread drops the agent.
  std::array<bool, kHookNames.size()> has_{};
};

}  // namespace

std::vector<std::shared_ptr<Hooks>> hooks_from_python(const py::handle& plugins) {
  if (py::isinstance<py::str>(plugins) || !py::hasattr(plugins, "__iter__")) {
    throw py::type_error("hooks: expected a list of plugin objects");
  }
  std::vector<std::shared_ptr<Hooks>> hooks;
  for (py::handle plugin : plugins) {
    bool any = false;
    for (const char* name : kHookNames) {
      py::object method = py::getattr(plugin, name, py::none());
      any = any || (!method.is_none() && PyCallable_Check(method.ptr()));
    }
    if (!any) {
      throw py::type_error("hooks: " + py::repr(plugin).cast<std::string>() +
                           " has no hook method (pre_llm_call, pre_tool_call, ...)");
    }
    hooks.push_back(std::make_shared<PythonHooks>(plugin));
  }
  return hooks;
}

}  // namespace hermes::python
