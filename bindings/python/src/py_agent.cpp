// hermes.Agent: the C++ Agent with keyword arguments, dicts in and out, and Python
// callables as tools and callbacks. The GIL is released while a turn runs and re-taken
// only to call back into Python.
#include <pybind11/stl.h>

#include "json_convert.hpp"
#include "py_common.hpp"
#include "hermes/agent.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

template <typename T>
std::optional<T> opt(const py::object& o) {
  if (o.is_none()) return std::nullopt;
  return o.cast<T>();
}

// Wraps a Python callable as a C++ callback that takes the GIL, and never lets a Python
// exception escape into the loop (it is printed as an unraisable error instead).
template <typename... Args>
std::function<void(Args...)> callback(const py::object& fn) {
  if (fn.is_none()) return nullptr;
  auto ref = std::make_shared<PyRef>(fn);
  return [ref](Args... args) {
    py::gil_scoped_acquire gil;
    try {
      ref->get()(std::forward<Args>(args)...);
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("hermes callback");
    }
  };
}

// One entry of fallback_providers: a dict with model and any of provider, base_url,
// api_key, api_mode. Unknown keys are refused so that a typo does not silently drop a key.
ProviderConfig fallback_from_python(const py::handle& entry) {
  if (!py::isinstance<py::dict>(entry)) {
    throw py::type_error("fallback_providers: each entry must be a dict");
  }
  ProviderConfig config;
  for (auto [key, value] : entry.cast<py::dict>()) {
    const auto name = key.cast<std::string>();
    const auto text = value.is_none() ? std::string() : value.cast<std::string>();
    if (name == "model") config.model = text;
    else if (name == "provider") config.provider = text;
    else if (name == "base_url") config.base_url = text;
    else if (name == "api_key") config.api_key = text;
    else if (name == "api_mode") config.api_mode = text;
    else throw py::value_error("fallback_providers: unknown key '" + name + "'");
  }
  if (config.model.empty()) throw py::value_error("fallback_providers: every entry needs a model");
  return config;
}

class PyAgent {
 public:
  PyAgent(const std::string& model, const std::string& base_url, const py::object& api_key,
          const std::string& provider, const std::string& api_mode, const py::object& home,
          int max_iterations, const py::list& tools, const py::object& enabled_toolsets,
          const py::object& disabled_toolsets, const py::object& session_id,
          bool persist_sessions, bool stream, const py::object& max_tokens,
          const py::object& temperature, const std::string& ephemeral_system_prompt,
          int max_retries, const py::object& stream_callback,
          const py::object& tool_progress_callback, const py::object& status_callback,
          const py::object& fallback_providers, const std::string& reasoning_effort) {
    AgentOptions o;
    o.model = model;
    o.base_url = base_url;
    if (py::isinstance<py::str>(api_key)) {
      o.api_key = api_key.cast<std::string>();
    } else if (!api_key.is_none()) {
      auto keys = api_key.cast<std::vector<std::string>>();
      if (!keys.empty()) {
        o.api_key = keys.front();
        o.extra_api_keys.assign(keys.begin() + 1, keys.end());
      }
    }
    o.provider = provider;
    o.api_mode = api_mode;
    if (!home.is_none()) o.home = py::str(home);
    o.max_iterations = max_iterations;
    if (!enabled_toolsets.is_none()) o.enabled_toolsets = enabled_toolsets.cast<std::vector<std::string>>();
    if (!disabled_toolsets.is_none()) o.disabled_toolsets = disabled_toolsets.cast<std::vector<std::string>>();
    if (!session_id.is_none()) o.session_id = session_id.cast<std::string>();
    o.persist_sessions = persist_sessions;
    o.stream = stream;
    o.max_tokens = opt<int64_t>(max_tokens);
    o.temperature = opt<double>(temperature);
    o.ephemeral_system_prompt = ephemeral_system_prompt;
    o.max_retries = max_retries;
    o.reasoning_effort = reasoning_effort;
    if (!fallback_providers.is_none()) {
      for (auto entry : fallback_providers) o.fallback_providers.push_back(fallback_from_python(entry));
    }

    auto registry = std::make_shared<ToolRegistry>();
    for (auto tool : tools) {
      Status s = registry->register_tool(tool_spec_from_python(tool));
      if (!s.ok()) raise_status(s);
    }
    o.tools = registry;

    o.callbacks.on_stream_delta = callback<std::string_view>(stream_callback);
    if (!tool_progress_callback.is_none()) {
      auto ref = std::make_shared<PyRef>(tool_progress_callback);
      o.callbacks.on_tool_progress = [ref](const ToolProgress& p) {
        py::gil_scoped_acquire gil;
        try {
          py::dict event;
          event["phase"] = p.phase == ToolProgress::Phase::kStarted ? "started" : "completed";
          event["call_id"] = p.call_id;
          event["name"] = p.name;
          event["preview"] = p.preview;
          if (p.arguments != nullptr) event["arguments"] = to_python(*p.arguments);
          if (p.phase == ToolProgress::Phase::kCompleted) {
            event["duration"] = static_cast<double>(p.duration.count()) / 1000.0;
            event["is_error"] = p.is_error;
            event["result"] = std::string(p.result);
          }
          ref->get()(event);
        } catch (py::error_already_set& e) {
          e.discard_as_unraisable("hermes tool_progress_callback");
        }
      };
    }
    o.callbacks.on_status = callback<std::string_view, std::string_view>(status_callback);

    Result<std::unique_ptr<Agent>> agent = [&] {
      py::gil_scoped_release release;  // Opening the store may touch the disk.
      return Agent::create(std::move(o));
    }();
    if (!agent.ok()) raise_status(agent.status());
    agent_ = std::move(*agent);
  }

  std::string chat(const std::string& message) {
    Result<std::string> answer = [&] {
      py::gil_scoped_release release;
      return agent_->chat(message);
    }();
    if (!answer.ok()) raise_status(answer.status());
    return *answer;
  }

  py::dict run_conversation(const std::string& user_message, const py::object& system_message,
                            const py::object& conversation_history, const py::object& task_id) {
    std::optional<std::string> system = opt<std::string>(system_message);
    std::optional<std::vector<Message>> history;
    if (!conversation_history.is_none()) {
      auto parsed = messages_from_json(from_python(conversation_history, "conversation_history"));
      if (!parsed.ok()) {
        raise_status(Status::invalid_argument("conversation_history: " + parsed.status().message()));
      }
      history = std::move(*parsed);
    }
    std::string task = task_id.is_none() ? "" : task_id.cast<std::string>();
    ConversationResult result = [&] {
      py::gil_scoped_release release;
      return agent_->run_conversation(user_message, system, history, task);
    }();
    return to_python(result.to_json()).cast<py::dict>();
  }

  void interrupt(const std::string& message) { agent_->interrupt(message); }

  void steer(const std::string& text) {
    Status s = agent_->steer(text);
    if (!s.ok()) raise_status(s);
  }

  std::string session_id() const { return agent_->session_id(); }
  py::list history() const { return to_python(messages_to_json(agent_->history())).cast<py::list>(); }
  std::string system_prompt() const { return agent_->system_prompt(); }

  void new_session() {
    Status s = agent_->new_session();
    if (!s.ok()) raise_status(s);
  }

  void resume(const std::string& session_id) {
    Status s = [&] {
      py::gil_scoped_release release;
      return agent_->resume(session_id);
    }();
    if (!s.ok()) raise_status(s);
  }

 private:
  std::unique_ptr<Agent> agent_;
};

}  // namespace

void register_agent(py::module_& m) {
  py::class_<PyAgent>(m, "Agent", R"doc(
An agent: a conversation with a model that can call tools.

    agent = hermes.Agent(model="gpt-4.1-mini", api_key="sk-...", tools=[(fn, schema)])
    print(agent.chat("What is 2 + 2?"))

Every turn is persisted to the SQLite session store at <home>/state.db unless
persist_sessions=False. Only one turn may run at a time; interrupt() and steer() may be
called from other threads while a turn runs.)doc")
      .def(py::init<const std::string&, const std::string&, const py::object&, const std::string&,
                    const std::string&, const py::object&, int, const py::list&, const py::object&,
                    const py::object&, const py::object&, bool, bool, const py::object&,
                    const py::object&, const std::string&, int, const py::object&,
                    const py::object&, const py::object&, const py::object&,
                    const std::string&>(),
           py::kw_only(), py::arg("model"), py::arg("base_url") = "https://api.openai.com/v1",
           py::arg("api_key") = py::none(), py::arg("provider") = "", py::arg("api_mode") = "",
           py::arg("home") = py::none(), py::arg("max_iterations") = 90,
           py::arg("tools") = py::list(), py::arg("enabled_toolsets") = py::none(),
           py::arg("disabled_toolsets") = py::none(), py::arg("session_id") = py::none(),
           py::arg("persist_sessions") = true, py::arg("stream") = true,
           py::arg("max_tokens") = py::none(), py::arg("temperature") = py::none(),
           py::arg("ephemeral_system_prompt") = "", py::arg("max_retries") = 3,
           py::arg("stream_callback") = py::none(), py::arg("tool_progress_callback") = py::none(),
           py::arg("status_callback") = py::none(), py::arg("fallback_providers") = py::none(),
           py::arg("reasoning_effort") = "")
      .def("chat", &PyAgent::chat, py::arg("message"),
           "Runs one turn and returns the answer. Raises hermes.HermesError when the turn fails.")
      .def("run_conversation", &PyAgent::run_conversation, py::arg("user_message"),
           py::arg("system_message") = py::none(), py::arg("conversation_history") = py::none(),
           py::arg("task_id") = py::none(),
           "Runs one turn and returns the result dict (final_response, messages, api_calls, "
           "completed, exit_reason, session_id, token counts, error, ...).")
      .def("interrupt", &PyAgent::interrupt, py::arg("message") = "",
           "Stops the running turn as soon as possible. Safe from any thread.")
      .def("steer", &PyAgent::steer, py::arg("text"),
           "Queues guidance for the running turn. Safe from any thread.")
      .def("new_session", &PyAgent::new_session, "Ends the session and starts an empty one.")
      .def("resume", &PyAgent::resume, py::arg("session_id"), "Switches to a stored session.")
      .def_property_readonly("session_id", &PyAgent::session_id)
      .def_property_readonly("history", &PyAgent::history)
      .def_property_readonly("system_prompt", &PyAgent::system_prompt);
}

}  // namespace hermes::python
