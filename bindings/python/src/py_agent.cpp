// hermes.Agent: the C++ Agent with keyword arguments, dicts in and out, and Python
// callables as tools and callbacks. The GIL is released while a turn runs and re-taken
// only to call back into Python.
#include <pybind11/stl.h>

#include <atomic>
#include <optional>

#include "agent_kwargs.hpp"
#include "hermes/agent.hpp"
#include "hermes/agent_options_json.hpp"
#include "hermes/home.hpp"
#include "hermes/skills.hpp"
#include "json_convert.hpp"
#include "py_async_turn.hpp"
#include "py_common.hpp"
#include "py_runtime.hpp"
#include "py_turn_stream.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// The arguments of one turn, converted while the GIL is held.
struct TurnRequest {
  std::string user_message;
  TurnOptions turn;
};

// `output_schema` (a dict or a pydantic-style class) is this turn's answer schema, with
// the agent's output_name and output_max_repairs.
TurnRequest turn_request(const std::string& user_message, const py::object& system_message,
                         const py::object& conversation_history, const py::object& task_id,
                         const py::object& output_schema,
                         const AgentOptions::Output& agent_output) {
  TurnRequest r;
  r.user_message = user_message;
  if (!system_message.is_none()) r.turn.system_message = system_message.cast<std::string>();
  if (!conversation_history.is_none()) {
    auto parsed = messages_from_json(from_python(conversation_history, "conversation_history"));
    if (!parsed.ok()) {
      raise_status(Status::invalid_argument("conversation_history: " + parsed.status().message()));
    }
    r.turn.conversation_history = std::move(*parsed);
  }
  if (!task_id.is_none()) r.turn.task_id = task_id.cast<std::string>();
  if (!output_schema.is_none()) {
    r.turn.output = agent_output;
    r.turn.output->schema = output_schema_from_python(output_schema, "output_schema");
  }
  return r;
}

py::dict compress_result_to_python(const CompressResult& r) {
  py::dict d;
  d["compacted"] = r.compacted;
  d["messages_before"] = r.messages_before;
  d["messages_after"] = r.messages_after;
  d["tokens_before"] = r.tokens_before;
  d["tokens_after"] = r.tokens_after;
  d["session_id"] = r.session_id;
  d["note"] = r.note;
  return d;
}

class PyAgent {
 public:
  // A tool call that overran its deadline may still be running (Python code, on its own
  // thread); the agent waits for it, which must not be done holding the GIL. Everything
  // Python the agent holds is released through PyRef, which takes the GIL itself.
  ~PyAgent() {
    py::gil_scoped_release release;
    agent_.reset();
  }
  PyAgent(const PyAgent&) = delete;
  PyAgent& operator=(const PyAgent&) = delete;

  explicit PyAgent(const py::kwargs& kwargs) {
    AgentOptions options = agent_options_from_kwargs(kwargs, tap_, mcp_servers_);
    Result<std::unique_ptr<Agent>> agent = [&] {
      py::gil_scoped_release release;  // Opening the store may touch the disk.
      return Agent::create(std::move(options));
    }();
    if (!agent.ok()) raise_status(agent.status());
    agent_ = std::move(*agent);
  }

  std::string chat(const std::string& message) {
    Slot slot(*this);
    Result<std::string> answer = [&] {
      py::gil_scoped_release release;
      return agent_->chat(message);
    }();
    if (!answer.ok()) raise_status(answer.status());
    return *answer;
  }

  py::dict run_conversation(const std::string& user_message, const py::object& system_message,
                            const py::object& conversation_history, const py::object& task_id,
                            const py::object& output_schema) {
    TurnRequest r = turn_request(user_message, system_message, conversation_history, task_id,
                                 output_schema, agent_->options().output);
    Slot slot(*this);
    Json result = [&] {
      py::gil_scoped_release release;
      return run(r);
    }();
    return to_python(result).cast<py::dict>();
  }

  // A `/<name> [instruction]` turn, as the CLI runs it: the skill's message is the turn's
  // user message, built from the agent's own home and skills settings.
  py::dict run_skill(const std::string& name, const std::string& instruction) {
    Slot slot(*this);
    Result<Json> result = [&]() -> Result<Json> {
      py::gil_scoped_release release;  // Reads the skill from disk, then runs the turn.
      Result<std::string> message = skill_message(name, instruction);
      if (!message.ok()) return message.status();
      return run(TurnRequest{std::move(*message), {}});
    }();
    if (!result.ok()) raise_status(result.status());
    return to_python(*result).cast<py::dict>();
  }

  // The stream holds the slot until its thread has finished the turn.
  std::unique_ptr<TurnStream> stream(const std::string& user_message,
                                     const py::object& system_message,
                                     const py::object& conversation_history,
                                     const py::object& task_id, const py::object& output_schema) {
    TurnRequest r = turn_request(user_message, system_message, conversation_history, task_id,
                                 output_schema, agent_->options().output);
    Slot slot(*this);
    auto queue = std::make_shared<TurnEventQueue>();
    tap_->attach(queue);
    std::unique_ptr<TurnStream> stream;
    try {
      stream = std::make_unique<TurnStream>(
          std::move(queue),
          [this, r = std::move(r)] {
            Json result = run(r);
            tap_->detach();
            busy_ = false;  // The slot handed over below.
            return result;
          },
          [this] { agent_->interrupt(); });
    } catch (...) {
      tap_->detach();
      throw;  // The slot is still ours and clears itself.
    }
    slot.release();
    return stream;
  }

  // The turn of arun() and astream() (hermes/_aio.py), on `runtime` (None: the shared
  // one). The slot is held until the turn has ended, on a runtime thread.
  py::object start_async(py::object self, const py::object& runtime, py::object loop,
                         py::object on_done, py::object on_text, const std::string& user_message,
                         const py::object& system_message, const py::object& conversation_history,
                         const py::object& task_id, const py::object& output_schema) {
    TurnRequest r = turn_request(user_message, system_message, conversation_history, task_id,
                                 output_schema, agent_->options().output);
    py::object runtime_object = runtime_or_shared(runtime);
    Slot slot(*this);
    AsyncTurnRequest request;
    request.agent = agent_.get();
    request.user_message = std::move(r.user_message);
    request.turn = std::move(r.turn);
    request.agent_object = std::move(self);
    request.runtime_object = std::move(runtime_object);
    request.loop = std::move(loop);
    request.on_done = std::move(on_done);
    request.on_text = std::move(on_text);
    request.tap = tap_;
    request.turn_ended = [this] { busy_ = false; };  // The agent outlives the turn.
    py::object turn = start_async_turn(std::move(request));
    slot.release();
    return turn;
  }

  py::dict compress(const py::object& focus) {
    const std::string topic = focus.is_none() ? "" : focus.cast<std::string>();
    Slot slot(*this);
    Result<CompressResult> result = [&] {
      py::gil_scoped_release release;
      return agent_->compress(topic);
    }();
    if (!result.ok()) raise_status(result.status());
    return compress_result_to_python(*result);
  }

  void interrupt(const std::string& message) { agent_->interrupt(message); }

  void steer(const std::string& text) {
    Status s = agent_->steer(text);
    if (!s.ok()) raise_status(s);
  }

  std::string session_id() const { return agent_->session_id(); }
  py::list history() const {
    return to_python(messages_to_json(agent_->history())).cast<py::list>();
  }
  std::string system_prompt() const { return agent_->system_prompt(); }
  py::dict options() const {
    return to_python(agent_options_to_json(agent_->options())).cast<py::dict>();
  }

  py::list mcp_status() const {
    py::list out;
    if (!mcp_servers_) return out;
    for (const McpServerStatus& s : mcp_servers_->status()) {
      py::dict d;
      d["name"] = s.name;
      d["connected"] = s.connected;
      d["protocol_version"] = s.protocol_version;
      d["server_name"] = s.server_name;
      d["server_version"] = s.server_version;
      d["tools"] = s.tools;
      d["skipped_tools"] = s.skipped_tools;
      d["restarts"] = s.restarts;
      d["last_error"] = s.last_error.ok() ? std::string() : s.last_error.message();
      out.append(std::move(d));
    }
    return out;
  }

  void new_session() {
    Slot slot(*this);
    Status s = agent_->new_session();
    if (!s.ok()) raise_status(s);
  }

  void resume(const std::string& session_id) {
    Slot slot(*this);
    Status s = [&] {
      py::gil_scoped_release release;
      return agent_->resume(session_id);
    }();
    if (!s.ok()) raise_status(s);
  }

 private:
  // The agent runs one call at a time; a second one (from another thread, or while a
  // stream is open) is refused rather than racing the first.
  class Slot {
   public:
    explicit Slot(PyAgent& agent) : busy_(&agent.busy_) {
      if (busy_->exchange(true)) {
        raise_status(Status::failed_precondition(
            "the agent is busy: another call or an open stream is running a turn"));
      }
    }
    ~Slot() {
      if (busy_ != nullptr) *busy_ = false;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    // The slot is handed over to someone who clears it later.
    void release() { busy_ = nullptr; }

   private:
    std::atomic<bool>* busy_;
  };

  Result<std::string> skill_message(const std::string& name, const std::string& instruction) {
    const AgentOptions& o = agent_->options();
    return build_skill_invocation_message(o.home.empty() ? default_home() : o.home, o.skills, name,
                                          instruction, agent_->session_id());
  }

  Json run(const TurnRequest& r) {
    return agent_->run_conversation(r.user_message, r.turn).to_json();
  }

  std::shared_ptr<EventTap> tap_ = std::make_shared<EventTap>();
  std::atomic<bool> busy_{false};
  // Declared before the agent so that the servers outlive it.
  std::unique_ptr<McpServers> mcp_servers_;
  std::unique_ptr<Agent> agent_;
};

constexpr const char* kAgentDoc = R"doc(
An agent: a conversation with a model that can call tools.

    agent = hermes.Agent(model="gpt-4.1-mini", api_key="sk-...", tools=[(fn, schema)])
    print(agent.chat("What is 2 + 2?"))

Keyword arguments only; model is required. The model: model, base_url, api_key (a str,
or a list of keys rotated on rate limits), provider, api_mode, fallback_providers (dicts
with model and any of provider, base_url, api_key, api_mode), stream, max_tokens,
temperature, reasoning_effort, max_retries, timeouts (seconds by name: connect,
first_byte, idle, stale_stream, total; 0 disables one), retry_backoff (seconds: base, max,
invalid_response_base, invalid_response_max). The loop: max_iterations,
ephemeral_system_prompt, tool_use_enforcement (None: the system prompt tells the model
families known to narrate instead of calling tools to act; True or False for every
model). Tools: tools (hermes.Tool, (callable, schema) pairs or dicts
with "handler"), offered next to the built-in toolsets; enabled_toolsets and
disabled_toolsets choose among them. mcp_servers: MCP servers whose tools join them, as
the "mcpServers" object of an mcp.json file ({"name": {"command", "args", "env"} or
{"url", "headers", "oauth"}}); mcp_authorize(url) -> str: the OAuth step for servers
that answer 401 (open url in a browser, return the URL it was sent back to);
mcp_status() reports their connections. options: the options document (a dict, or its
JSON text) as hermes.describe_options() lists it, nested as {"compression":
{"threshold_percent": 0.7}}; keyword arguments given beside it win. Sessions: home, session_id (resume it),
persist_sessions, session_store (a hermes.SessionStore to share), durability ("full", the
default: every commit of <home>/state.db waits for the disk; "normal": commits survive a
crash of the process but a power loss may take the last ones back). context_dir: the
project directory whose context files (.hermes.md, AGENTS.md, CLAUDE.md, .cursorrules)
join the system prompt; None loads none. source: where the conversation takes place
("cli", "telegram", "email", "sms", "cron", ...), recorded on the session and picking the
system prompt's hint on what renders there; platform_hint: your own such hint instead
("" for none). Context compression:
compression, context_length, compression_threshold, protect_last_n, compress_in_place
(keep the session id, archive the summarised rows), idle_compact_after_seconds (compact
at turn start after that long a pause; 0 never). Self-improvement: background_review
(after a turn, review it on a background thread and save memories every
memory_nudge_interval user turns and skills every skill_nudge_interval tool-calling
iterations; 0 disables one; reported through status_callback as kind "review"),
review_max_iterations (its budget, 8); memory_char_limit and user_char_limit (MEMORY.md
2200 and USER.md 1375 characters). max_tool_workers: tools of one batch run at most this
many at once (8).
Sub-agents of delegate_task (the "delegation" toolset): delegation_max_iterations (50),
delegation_max_concurrent_children (3). memory_provider: an external memory backend, any
object with some of upstream's MemoryProvider methods (initialize, system_prompt_block,
prefetch, sync_turn, on_session_switch, on_compaction or on_pre_compress,
on_memory_write, on_session_end, shutdown; get_tool_schemas and handle_tool_call offer
its tools); like a hook, a method that raises is reported and skipped. Callbacks:
stream_callback(delta), reasoning_callback(delta), tool_progress_callback(event),
status_callback(kind, message), step_callback(api_call_count, previous_tools),
clarify_callback(question, choices) -> str | None, approval_callback(command,
description) -> "deny" | "once" | "session" | "always" (session and always cover that exact
command again, nothing broader), auth_refresh_callback(request)
-> str | None (a fresh credential after a 401/403; request has provider, base_url, model,
http_status, message). Callbacks run on the turn's
threads; an exception raised in one goes to sys.unraisablehook and never into the turn
(a failed clarify counts as no answer, a failed approval as a denial). Approvals of the
terminal tools and of text written to background processes: approval_mode "manual" (the
default: ask about dangerous commands), "smart" (as manual), "off", "ask" (ask about every
command) or "allowlist" (ask unless every program run is in allowed_commands and nothing
is dangerous); approval_timeout seconds of silence deny. The guard is a best-effort check,
not a sandbox. Plugins: hooks, a
list of objects whose methods named after hook points are called with keyword arguments
(accept **kwargs): pre_llm_call(session_id, user_message) -> str | None (added to the
turn's user message), pre_api_request(request), post_api_request(request, response),
api_request_error(request, error), pre_tool_call(tool_name, args) -> None |
{"action": "block", "message": str} | {"args": dict}, post_tool_call(tool_name, args,
result, duration_ms, is_error), transform_tool_result(tool_name, args, result) -> str |
None, transform_llm_output(response_text) -> str | None, post_llm_call(user_message,
assistant_response), on_session_start(session_id), on_session_end(session_id, messages),
subagent_start(...), subagent_stop(...). Like callbacks, a hook that raises is reported
and skipped.

Skills: skills, a dict of external_dirs (more skill directories after <home>/skills,
read-only), disabled (skill names hidden from the index, the tools and slash commands) and
template_vars (fill ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID}); run_skill() runs a
/<skill> turn.

Every turn is persisted to the SQLite session store at <home>/state.db unless
persist_sessions=False. One call at a time: a second call while a turn runs (or while a
stream is open) raises hermes.HermesError. interrupt() and steer() may be called from
other threads while a turn runs.)doc";

}  // namespace

void register_agent(py::module_& m) {
  m.def(
      "describe_options", [] { return to_python(describe_agent_options()); },
      "Every option the options document takes: a list of dicts with name (dotted, e.g. "
      "'compression.threshold_percent'), type, default, doc, and minimum, maximum, values "
      "where they apply.");
  py::class_<PyAgent>(m, "Agent", kAgentDoc)
      .def(py::init<const py::kwargs&>())
      .def("chat", &PyAgent::chat, py::arg("message"),
           "Runs one turn and returns the answer. Raises hermes.HermesError when the turn fails.")
      .def("run_conversation", &PyAgent::run_conversation, py::arg("user_message"),
           py::arg("system_message") = py::none(), py::arg("conversation_history") = py::none(),
           py::arg("task_id") = py::none(), py::kw_only(), py::arg("output_schema") = py::none(),
           "Runs one turn and returns the result dict (final_response, messages, api_calls, "
           "completed, exit_reason, session_id, token counts, error, ...). `output_schema` "
           "(a JSON Schema dict or a pydantic-style class) asks this turn for a structured "
           "answer, parsed into result['output'].")
      .def("run_skill", &PyAgent::run_skill, py::arg("name"), py::arg("instruction") = "",
           "Runs one turn that invokes a skill, as the CLI's /<name> [instruction] does: the "
           "skill's full text, its directory and supporting files and `instruction` become "
           "the turn's user message (see hermes.build_skill_invocation_message). `name` may "
           "be \"/deploy-staging\", \"deploy-staging\" or \"deploy_staging\". Returns the "
           "run_conversation() dict; raises hermes.NotFoundError when no enabled skill of the "
           "agent's home answers to `name`.")
      .def("stream", &PyAgent::stream, py::arg("user_message"),
           py::arg("system_message") = py::none(), py::arg("conversation_history") = py::none(),
           py::arg("task_id") = py::none(), py::kw_only(), py::arg("output_schema") = py::none(),
           py::keep_alive<0, 1>(),
           "Runs one turn on a background thread and returns a hermes.TurnStream of its "
           "events; the last one is {'type': 'done', 'result': <run_conversation() dict>}. "
           "Leaving the loop early interrupts the turn.")
      .def(
          "_start_async",
          [](py::object self, const py::object& runtime, py::object loop, py::object on_done,
             py::object on_text, const std::string& user_message, const py::object& system_message,
             const py::object& conversation_history, const py::object& task_id,
             const py::object& output_schema) {
            PyAgent& agent = self.cast<PyAgent&>();
            return agent.start_async(std::move(self), runtime, std::move(loop), std::move(on_done),
                                     std::move(on_text), user_message, system_message,
                                     conversation_history, task_id, output_schema);
          },
          py::arg("runtime"), py::arg("loop"), py::arg("on_done"), py::arg("on_text"),
          py::arg("user_message"), py::arg("system_message"), py::arg("conversation_history"),
          py::arg("task_id"), py::arg("output_schema"),
          "Starts a turn on a runtime for arun() and astream() (internal).")
      .def("compress", &PyAgent::compress, py::arg("focus") = py::none(),
           "Compacts the conversation now, giving `focus` most of the summary. Returns a dict: "
           "compacted, messages_before, messages_after, tokens_before, tokens_after, "
           "session_id (where the conversation continues), note (why nothing happened). "
           "Raises hermes.HermesError when compression is off or the summary call fails.")
      .def("interrupt", &PyAgent::interrupt, py::arg("message") = "",
           "Stops the running turn as soon as possible. Safe from any thread.")
      .def("steer", &PyAgent::steer, py::arg("text"),
           "Queues guidance for the running turn. Safe from any thread.")
      .def("new_session", &PyAgent::new_session, "Ends the session and starts an empty one.")
      .def("resume", &PyAgent::resume, py::arg("session_id"), "Switches to a stored session.")
      .def_property_readonly("session_id", &PyAgent::session_id, "The current session id.")
      .def_property_readonly("history", &PyAgent::history,
                             "The transcript as chat message dicts (no system prompt).")
      .def_property_readonly("system_prompt", &PyAgent::system_prompt,
                             "The session's system prompt, built on the first turn.")
      .def_property_readonly("options", &PyAgent::options,
                             "Every option of the options document with the agent's value, "
                             "nested as the document is (API keys included).")
      .def("mcp_status", &PyAgent::mcp_status,
           "One dict per server of mcp_servers: name, connected, protocol_version, "
           "server_name, server_version, tools, skipped_tools, restarts, last_error.");
}

}  // namespace hermes::python
