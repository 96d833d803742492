#include "agent_kwargs.hpp"

#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hermes/agent_options_json.hpp"
#include "hermes/builtin_tools.hpp"
#include "hermes/session_search_tool.hpp"
#include "json_convert.hpp"
#include "py_callbacks.hpp"
#include "py_common.hpp"
#include "py_hooks.hpp"
#include "py_memory_provider.hpp"
#include "py_tracing.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

std::string type_name(const py::handle& value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

// Takes keyword arguments off a copy of the kwargs, checking each one's type; whatever
// is left at the end was not a keyword hermes.Agent knows.
class KwargReader {
 public:
  explicit KwargReader(const py::kwargs& kwargs) : rest_(py::dict(kwargs)) {}

  // The argument, or None when it was not given.
  py::object take(const char* name) {
    if (!rest_.contains(name)) return py::none();
    return rest_.attr("pop")(name);
  }

  void text(const char* name, std::string& out) {
    if (py::object v = take_checked(name, is_str, "str"); !v.is_none()) out = v.cast<std::string>();
  }

  void text(const char* name, std::optional<std::string>& out) {
    if (py::object v = take_checked(name, is_str, "str"); !v.is_none()) out = v.cast<std::string>();
  }

  template <typename Int>
  void integer(const char* name, Int& out) {
    if (py::object v = take_checked(name, is_int, "int"); !v.is_none()) out = v.cast<Int>();
  }

  template <typename Int>
  void integer(const char* name, std::optional<Int>& out) {
    if (py::object v = take_checked(name, is_int, "int"); !v.is_none()) out = v.cast<Int>();
  }

  void real(const char* name, double& out) {
    if (py::object v = take_checked(name, is_number, "float"); !v.is_none()) out = v.cast<double>();
  }

  void real(const char* name, std::optional<double>& out) {
    if (py::object v = take_checked(name, is_number, "float"); !v.is_none()) out = v.cast<double>();
  }

  void flag(const char* name, bool& out) {
    py::object v = take(name);
    if (!v.is_none()) out = py::bool_(v);
  }

  void strings(const char* name, std::vector<std::string>& out) {
    py::object v = take(name);
    if (v.is_none()) return;
    if (py::isinstance<py::str>(v) || !py::isinstance<py::iterable>(v))
      wrong_type(name, "list[str]", v);
    for (auto item : v) {
      if (!py::isinstance<py::str>(item)) wrong_type(name, "list[str]", v);
      out.push_back(item.cast<std::string>());
    }
  }

  py::object callable(const char* name) { return take_checked(name, is_callable, "a callable"); }

  // Raises TypeError, as Python does, for the first keyword nobody took.
  void finish() const {
    for (auto item : rest_) {
      throw py::type_error("Agent() got an unexpected keyword argument '" +
                           item.first.cast<std::string>() + "'");
    }
  }

 private:
  static bool is_str(const py::handle& v) { return py::isinstance<py::str>(v); }
  static bool is_int(const py::handle& v) { return py::isinstance<py::int_>(v); }
  static bool is_number(const py::handle& v) { return is_int(v) || py::isinstance<py::float_>(v); }
  static bool is_callable(const py::handle& v) { return PyCallable_Check(v.ptr()) != 0; }

  // The argument, or None; TypeError when it is neither None nor accepted by `ok`.
  py::object take_checked(const char* name, bool (*ok)(const py::handle&), const char* expected) {
    py::object v = take(name);
    if (!v.is_none() && !ok(v)) wrong_type(name, expected, v);
    return v;
  }

  [[noreturn]] static void wrong_type(const char* name, const char* expected, const py::handle& v) {
    throw py::type_error(std::string(name) + ": expected " + expected + ", got " + type_name(v));
  }

  py::dict rest_;
};

void read_api_keys(KwargReader& kw, AgentOptions& o) {
  py::object keys = kw.take("api_key");
  if (keys.is_none()) return;
  if (py::isinstance<py::str>(keys)) {
    o.provider.api_key = keys.cast<std::string>();
    return;
  }
  auto list = keys.cast<std::vector<std::string>>();
  if (list.empty()) return;
  o.provider.api_key = list.front();
  o.failover.extra_api_keys.assign(list.begin() + 1, list.end());
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
    if (name == "model")
      config.model = text;
    else if (name == "provider")
      config.provider = text;
    else if (name == "base_url")
      config.base_url = text;
    else if (name == "api_key")
      config.api_key = text;
    else if (name == "api_mode")
      config.api_mode = text;
    else
      throw py::value_error("fallback_providers: unknown key '" + name + "'");
  }
  if (config.model.empty()) throw py::value_error("fallback_providers: every entry needs a model");
  return config;
}

// A list of str, or of os.PathLike for directories. A lone string is refused: it would
// become one entry per character.
std::vector<std::string> string_list(const py::handle& value, const std::string& name) {
  if (py::isinstance<py::str>(value) || !py::isinstance<py::iterable>(value))
    throw py::type_error(name + ": expected a list, got " + type_name(value));
  std::vector<std::string> out;
  for (auto item : value) out.push_back(py::str(item));
  return out;
}

// skills={"external_dirs": [...], "disabled": [...], "template_vars": bool}. Unknown keys
// are refused so that a typo does not silently drop a setting.
void read_skills(KwargReader& kw, AgentOptions& o) {
  py::object skills = kw.take("skills");
  if (skills.is_none()) return;
  if (!py::isinstance<py::dict>(skills))
    throw py::type_error("skills: expected a dict, got " + type_name(skills));
  for (auto [key, value] : skills.cast<py::dict>()) {
    const auto name = py::str(key).cast<std::string>();
    if (value.is_none()) continue;
    if (name == "external_dirs")
      o.skills.external_dirs = string_list(value, "skills.external_dirs");
    else if (name == "disabled")
      o.skills.disabled = string_list(value, "skills.disabled");
    else if (name == "template_vars" && py::isinstance<py::bool_>(value))
      o.skills.template_vars = value.cast<bool>();
    else if (name == "template_vars")
      throw py::type_error("skills.template_vars: expected bool, got " + type_name(value));
    else
      throw py::value_error("skills: unknown key '" + name + "'");
  }
}

// The built-in tools in a registry of the agent's own, for tools of the caller to join.
// They follow the agent's memory, skills and env_passthrough settings, as the library's
// own registry does. Registering them costs about a hundred microseconds (their schemas
// and handlers), so each distinct set of settings is registered once, into a template
// that agents' registries are cloned from. The file tools' root is the working directory
// at registration, so it is part of what tells templates apart.
std::shared_ptr<ToolRegistry> own_registry(const AgentOptions& o) {
  BuiltinToolOptions builtins;
  builtins.memory = o.memory_limits;
  builtins.skills = o.skills;
  builtins.terminal.env_passthrough = o.tool_use.env_passthrough;
  builtins.approvals = o.tool_use.approvals;
  std::error_code cwd_error;
  const std::string key =
      Json{{"cwd", std::filesystem::current_path(cwd_error).string()},
           {"memory", {builtins.memory.memory_chars, builtins.memory.user_chars}},
           {"skills",
            {builtins.skills.external_dirs, builtins.skills.disabled,
             builtins.skills.template_vars}},
           {"env_passthrough", builtins.terminal.env_passthrough},
           {"approvals",
            {static_cast<int>(builtins.approvals.mode), builtins.approvals.timeout.count(),
             builtins.approvals.deny, builtins.approvals.allowed_commands}}}
          .dump();
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const ToolRegistry>> templates;
  std::lock_guard lock(mu);
  if (auto it = templates.find(key); it != templates.end()) return it->second->clone();
  auto registry = std::make_shared<ToolRegistry>();
  if (Status s = register_builtin_tools(*registry, builtins); !s.ok()) raise_status(s);
  if (Status s = register_session_search_tool(*registry); !s.ok()) raise_status(s);
  if (templates.size() >= 16) templates.clear();  // Settings that keep changing: no reuse.
  templates.emplace(key, registry->clone());
  return registry;
}

// Without Python tools the agent takes the library's shared default registry. With them,
// a registry of the built-ins plus the Python tools, which win a name clash: the caller
// asked for them by name.
void read_tools(KwargReader& kw, AgentOptions& o) {
  py::object tools = kw.take("tools");
  if (tools.is_none() || py::len(tools) == 0) return;
  auto registry = own_registry(o);
  for (auto tool : tools) {
    Status s = registry->register_tool(tool_spec_from_python(tool), /*allow_override=*/true);
    if (!s.ok()) raise_status(s);
  }
  o.tools = std::move(registry);
}

// mcp_authorize=callable(authorization_url) -> str: the OAuth step of remote servers that
// answer 401, given the URL to open in a browser and returning the URL the browser was
// sent back to (or the code). What it raises becomes the connection's error.
McpAuthorizationHandler authorization_handler(const py::object& authorize) {
  if (!PyCallable_Check(authorize.ptr())) {
    throw py::type_error("mcp_authorize: expected a callable taking the authorization URL, got " +
                         type_name(authorize));
  }
  auto callable = std::make_shared<PyRef>(authorize);
  return [callable](const std::string& url) -> Result<std::string> {
    py::gil_scoped_acquire gil;
    try {
      py::object answer = callable->get()(url);
      if (!py::isinstance<py::str>(answer)) {
        return Status::invalid_argument("mcp_authorize: expected a str (the redirect URL), got " +
                                        type_name(answer));
      }
      return answer.cast<std::string>();
    } catch (py::error_already_set& e) {
      return Status::unavailable("mcp_authorize raised " + describe_python_error(e));
    }
  };
}

// mcp_servers={"name": {"command": ..., "args": [...]} | {"url": ..., "headers": {...}}},
// the "mcpServers" object of an mcp.json document: the servers' tools join the agent's
// registry.
std::unique_ptr<McpServers> connect_mcp_servers(const py::object& servers,
                                                const py::object& authorize, AgentOptions& o) {
  if (!py::isinstance<py::dict>(servers)) {
    throw py::type_error("mcp_servers: expected a dict of server name to settings, got " +
                         type_name(servers));
  }
  const Json document{{"mcpServers", from_python(servers, "mcp_servers")}};
  Result<std::vector<McpServerConfig>> configs = parse_mcp_config(document.dump());
  if (!configs.ok()) raise_status(configs.status());
  if (!authorize.is_none()) {
    McpAuthorizationHandler handler = authorization_handler(authorize);
    for (McpServerConfig& config : *configs) config.oauth.on_authorize = handler;
  }
  if (!o.tools) o.tools = own_registry(o);
  Result<std::unique_ptr<McpServers>> connected = [&] {
    py::gil_scoped_release release;  // Starting servers and their handshakes take a while.
    return McpServers::connect(std::move(*configs), o.tools);
  }();
  if (!connected.ok()) raise_status(connected.status());
  return std::move(*connected);
}

// A memory provider's own tools join the registry next to the built-in memory tool; a
// name that is already taken is refused rather than silently replacing that tool.
void add_memory_provider_tools(const py::handle& provider, AgentOptions& o) {
  std::vector<ToolSpec> tools = memory_provider_tools(provider);
  if (tools.empty()) return;
  if (!o.tools) o.tools = own_registry(o);
  for (ToolSpec& tool : tools) {
    if (Status s = o.tools->register_tool(std::move(tool)); !s.ok()) {
      throw py::value_error("memory_provider: " + s.message());
    }
  }
}

void read_compression(KwargReader& kw, AgentOptions& o) {
  kw.flag("compression", o.compression.enabled);
  kw.integer("context_length", o.compression.context_length);
  kw.real("compression_threshold", o.compression.threshold_percent);
  kw.integer("protect_last_n", o.compression.protect_last_n);
  kw.flag("compress_in_place", o.compression.in_place);
  kw.real("idle_compact_after_seconds", o.compression.idle_compact_after_seconds);
  if (!(o.compression.idle_compact_after_seconds >= 0))
    throw py::value_error("idle_compact_after_seconds: must not be negative");
  if (o.compression.threshold_percent <= 0 || o.compression.threshold_percent > 1) {
    throw py::value_error("compression_threshold: must be in (0, 1]");
  }
  if (o.compression.protect_last_n < 0)
    throw py::value_error("protect_last_n: must not be negative");
}

// A dict of durations in seconds, such as timeouts={"idle": 30, "total": 600}: each key
// names one of `fields`, each value is a non-negative number of seconds.
using DurationField = std::pair<const char*, std::chrono::milliseconds*>;
void read_durations(KwargReader& kw, const char* name,
                    std::initializer_list<DurationField> fields) {
  py::object table = kw.take(name);
  if (table.is_none()) return;
  if (!py::isinstance<py::dict>(table))
    throw py::type_error(std::string(name) + ": expected dict[str, float], got " +
                         type_name(table));
  for (auto [key, value] : table.cast<py::dict>()) {
    const std::string field = py::str(key);
    const DurationField* target = nullptr;
    for (const DurationField& f : fields) {
      if (field == f.first) target = &f;
    }
    if (target == nullptr) {
      std::string known;
      for (const DurationField& f : fields)
        known += (known.empty() ? "" : ", ") + std::string(f.first);
      throw py::value_error(std::string(name) + ": unknown key '" + field + "' (known: " + known +
                            ")");
    }
    if (!py::isinstance<py::int_>(value) && !py::isinstance<py::float_>(value)) {
      throw py::type_error(std::string(name) + "['" + field +
                           "']: expected seconds as a number, got " + type_name(value));
    }
    const double seconds = value.cast<double>();
    // Beyond a year is a mistake, and would overflow the conversion below.
    if (!std::isfinite(seconds) || seconds < 0 || seconds > 366.0 * 86400) {
      throw py::value_error(std::string(name) + "['" + field +
                            "']: must be between 0 and a year of seconds");
    }
    *target->second = std::chrono::milliseconds(std::llround(seconds * 1000));
  }
}

void read_network(KwargReader& kw, AgentOptions& o) {
  HttpTimeouts& t = o.provider.timeouts;
  read_durations(kw, "timeouts",
                 {{"connect", &t.connect},
                  {"first_byte", &t.first_byte},
                  {"idle", &t.idle},
                  {"stale_stream", &t.stale_stream},
                  {"total", &t.total},
                  {"tool_batch", &o.tool_use.batch_timeout},
                  {"tool_call", &o.tool_use.call_timeout}});
  kw.integer("max_retries", o.failover.max_retries);
  AgentOptions::RetryBackoff& b = o.failover.backoff;
  read_durations(kw, "retry_backoff",
                 {{"base", &b.base},
                  {"max", &b.max},
                  {"invalid_response_base", &b.invalid_response_base},
                  {"invalid_response_max", &b.invalid_response_max}});
}

// Sub-agents of the delegate_task tool, flat like the compression settings.
void read_delegation(KwargReader& kw, AgentOptions& o) {
  kw.integer("delegation_max_iterations", o.delegation.max_iterations);
  kw.integer("delegation_max_concurrent_children", o.delegation.max_concurrent_children);
  if (o.delegation.max_iterations < 1)
    throw py::value_error("delegation_max_iterations: must be at least 1");
  if (o.delegation.max_concurrent_children < 1)
    throw py::value_error("delegation_max_concurrent_children: must be at least 1");
}

void read_review(KwargReader& kw, AgentOptions& o) {
  kw.flag("background_review", o.review.enabled);
  kw.integer("memory_nudge_interval", o.review.memory_nudge_interval);
  kw.integer("skill_nudge_interval", o.review.skill_nudge_interval);
  kw.integer("review_max_iterations", o.review.max_iterations);
  if (o.review.max_iterations < 1)
    throw py::value_error("review_max_iterations: must be at least 1");
  for (auto [name, limit] : {std::pair{"memory_char_limit", &o.memory_limits.memory_chars},
                             std::pair{"user_char_limit", &o.memory_limits.user_chars}}) {
    std::int64_t chars = static_cast<std::int64_t>(*limit);
    kw.integer(name, chars);
    if (chars < 1) throw py::value_error(std::string(name) + ": must be at least 1");
    *limit = static_cast<std::size_t>(chars);
  }
}

// approval_mode="manual"|"smart"|"off"|"ask"|"allowlist", allowed_commands=[...] (the
// allow-list mode's programs), approval_timeout=seconds.
void read_approvals(KwargReader& kw, AgentOptions& o) {
  std::optional<std::string> mode;
  kw.text("approval_mode", mode);
  if (mode) {
    auto parsed = approval_mode_from_name(*mode);
    if (!parsed) {
      throw py::value_error(
          "approval_mode: expected 'manual', 'smart', 'off', 'ask' or "
          "'allowlist', got '" +
          *mode + "'");
    }
    o.tool_use.approvals.mode = *parsed;
  }
  kw.strings("allowed_commands", o.tool_use.approvals.allowed_commands);
  std::optional<double> timeout;
  kw.real("approval_timeout", timeout);
  if (timeout) {
    if (!std::isfinite(*timeout) || *timeout < 0 || *timeout > 366.0 * 86400)
      throw py::value_error("approval_timeout: must be between 0 and a year of seconds");
    o.tool_use.approvals.timeout = std::chrono::milliseconds(std::llround(*timeout * 1000));
  }
}

// options={...} (or its JSON text): the options document, applied before the keyword
// arguments, so that one given beside it wins.
void read_document(KwargReader& kw, AgentOptions& o) {
  py::object document = kw.take("options");
  if (document.is_none()) return;
  Json parsed;
  if (py::isinstance<py::str>(document)) {
    parsed = Json::parse(document.cast<std::string>(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) throw py::value_error("options: not valid JSON text");
  } else if (py::isinstance<py::dict>(document)) {
    parsed = from_python(document, "options");
  } else {
    throw py::type_error("options: expected a dict or its JSON text, got " + type_name(document));
  }
  if (Status s = apply_agent_options(parsed, o); !s.ok())
    throw py::value_error("options: " + s.message());
}

PythonCallbacks read_callbacks(KwargReader& kw) {
  PythonCallbacks fns;
  fns.stream = kw.callable("stream_callback");
  fns.reasoning = kw.callable("reasoning_callback");
  fns.tool_progress = kw.callable("tool_progress_callback");
  fns.status = kw.callable("status_callback");
  fns.step = kw.callable("step_callback");
  fns.clarify = kw.callable("clarify_callback");
  fns.approval = kw.callable("approval_callback");
  fns.auth_refresh = kw.callable("auth_refresh_callback");
  return fns;
}

}  // namespace

Json output_schema_from_python(const py::object& schema, const char* what) {
  py::object value = schema;
  if (py::hasattr(value, "model_json_schema")) value = value.attr("model_json_schema")();
  if (!py::isinstance<py::dict>(value)) {
    throw py::type_error(std::string(what) +
                         ": expected a JSON Schema dict or a class with model_json_schema()");
  }
  return from_python(value, what);
}

AgentOptions agent_options_from_kwargs(const py::kwargs& kwargs, std::shared_ptr<EventTap> tap,
                                       std::unique_ptr<McpServers>& mcp_servers) {
  KwargReader kw(kwargs);
  AgentOptions o;
  read_document(kw, o);
  if (o.provider.model.empty() && !kwargs.contains("model"))
    throw py::type_error("Agent() missing required keyword argument 'model'");
  kw.text("model", o.provider.model);
  kw.text("base_url", o.provider.base_url);
  read_api_keys(kw, o);
  kw.text("provider", o.provider.provider);
  kw.text("api_mode", o.provider.api_mode);
  if (py::object home = kw.take("home"); !home.is_none()) o.home = py::str(home);
  if (py::object dir = kw.take("context_dir"); !dir.is_none()) o.context_dir = py::str(dir);
  kw.text("source", o.source);
  kw.text("platform_hint", o.platform_hint);
  kw.integer("max_iterations", o.max_iterations);
  kw.integer("max_tool_workers", o.tool_use.max_workers);
  if (o.tool_use.max_workers < 1) throw py::value_error("max_tool_workers: must be at least 1");
  read_review(kw, o);  // Before the tools too: the built-in memory tool follows its limits.
  read_skills(kw, o);  // Before the tools: the built-in skills tools follow it.
  kw.strings("env_passthrough", o.tool_use.env_passthrough);  // And the terminal this.
  read_approvals(kw, o);  // Before the tools: the built-in terminal tools follow it.
  read_tools(kw, o);
  kw.strings("enabled_toolsets", o.tool_use.enabled_toolsets);
  kw.strings("disabled_toolsets", o.tool_use.disabled_toolsets);
  kw.text("session_id", o.persistence.session_id);
  kw.flag("persist_sessions", o.persistence.enabled);
  std::optional<std::string> durability;
  kw.text("durability", durability);
  if (durability) {
    auto parsed = durability_from_name(*durability);
    if (!parsed) {
      throw py::value_error("durability: expected 'full' or 'normal', got '" + *durability + "'");
    }
    o.persistence.durability = *parsed;
  }
  if (py::object store = kw.take("session_store"); !store.is_none()) {
    o.persistence.store = session_store_from_python(store);
  }
  kw.flag("stream", o.request.stream);
  kw.integer("max_tokens", o.request.max_tokens);
  kw.real("temperature", o.request.temperature);
  kw.text("ephemeral_system_prompt", o.ephemeral_system_prompt);
  if (py::object v = kw.take("tool_use_enforcement"); !v.is_none()) {
    if (!py::isinstance<py::bool_>(v))
      throw py::type_error("tool_use_enforcement: expected bool or None");
    o.tool_use.enforcement = v.cast<bool>();
  }
  read_network(kw, o);
  kw.text("reasoning_effort", o.request.reasoning_effort);
  if (py::object schema = kw.take("output_schema"); !schema.is_none()) {
    o.output.schema = output_schema_from_python(schema, "output_schema");
  }
  kw.text("output_name", o.output.name);
  kw.integer("output_max_repairs", o.output.max_repairs);
  if (py::object fallbacks = kw.take("fallback_providers"); !fallbacks.is_none()) {
    for (auto entry : fallbacks)
      o.failover.fallback_providers.push_back(fallback_from_python(entry));
  }
  read_compression(kw, o);
  read_delegation(kw, o);
  if (py::object memory = kw.take("memory_provider"); !memory.is_none()) {
    o.memory_provider = memory_provider_from_python(memory, o.source);
    add_memory_provider_tools(memory, o);
  }
  o.callbacks = make_callbacks(read_callbacks(kw), std::move(tap));
  if (py::object sink = kw.take("trace_sink"); !sink.is_none()) {
    o.tracing.sink = trace_sink_from_python(sink);
  }
  kw.flag("trace_capture_content", o.tracing.capture_content);
  kw.text("traceparent", o.tracing.traceparent);
  if (py::object plugins = kw.take("hooks"); !plugins.is_none())
    o.hooks = hooks_from_python(plugins);
  py::object servers = kw.take("mcp_servers");
  py::object authorize = kw.take("mcp_authorize");
  kw.finish();
  if (!authorize.is_none() && servers.is_none()) {
    throw py::value_error("mcp_authorize: given without mcp_servers to authorize with");
  }
  // Last: nothing is started for arguments that are refused.
  if (!servers.is_none()) mcp_servers = connect_mcp_servers(servers, authorize, o);
  return o;
}

}  // namespace hermes::python
