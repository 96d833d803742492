// Agent options and agents.
#include <cmath>

#include "c_internal.hpp"

using hermes::capi::report;
using hermes::capi::UserData;

namespace {

hermes_status_t set_string(hermes_agent_options_t* options, std::string hermes::AgentOptions::*field,
                           const char* value, const char* default_value = "") {
  if (options == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    options->options.*field = value != nullptr ? value : default_value;
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes::Json tool_progress_json(const hermes::ToolProgress& p) {
  hermes::Json j{{"phase", p.phase == hermes::ToolProgress::Phase::kStarted ? "started" : "completed"},
                 {"call_id", p.call_id},
                 {"name", p.name},
                 {"preview", p.preview}};
  if (p.phase == hermes::ToolProgress::Phase::kCompleted) {
    j["duration_ms"] = p.duration.count();
    j["is_error"] = p.is_error;
    j["result"] = std::string(p.result);
  }
  return j;
}

}  // namespace

extern "C" {

hermes_agent_options_t* hermes_agent_options_new(void) {
  try {
    return new hermes_agent_options_t();
  } catch (...) {
    return nullptr;
  }
}

void hermes_agent_options_free(hermes_agent_options_t* options) { delete options; }

void hermes_agent_options_freep(hermes_agent_options_t** options) {
  if (options == nullptr) return;
  delete *options;
  *options = nullptr;
}

hermes_status_t hermes_agent_options_set_model(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::model, v);
}
hermes_status_t hermes_agent_options_set_provider(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::provider, v);
}
hermes_status_t hermes_agent_options_set_api_mode(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::api_mode, v);
}
hermes_status_t hermes_agent_options_set_base_url(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::base_url, v, "https://api.openai.com/v1");
}
hermes_status_t hermes_agent_options_set_api_key(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::api_key, v);
}
hermes_status_t hermes_agent_options_set_home(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::home, v);
}
hermes_status_t hermes_agent_options_set_session_id(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::session_id, v);
}
hermes_status_t hermes_agent_options_set_source(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::source, v, "cli");
}
hermes_status_t hermes_agent_options_set_ephemeral_system_prompt(hermes_agent_options_t* o, const char* v) {
  return set_string(o, &hermes::AgentOptions::ephemeral_system_prompt, v);
}

hermes_status_t hermes_agent_options_add_api_key(hermes_agent_options_t* o, const char* key) {
  if (o == nullptr || key == nullptr || *key == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.extra_api_keys.emplace_back(key);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_max_iterations(hermes_agent_options_t* o, int32_t n) {
  if (o == nullptr || n < 1) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.max_iterations = n;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_max_tokens(hermes_agent_options_t* o, int64_t n) {
  if (o == nullptr || n < 0) return HERMES_ERR_INVALID_ARGUMENT;
  if (n == 0) {
    o->options.max_tokens.reset();
  } else {
    o->options.max_tokens = n;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_temperature(hermes_agent_options_t* o, double t) {
  if (o == nullptr || !std::isfinite(t) || t < 0) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.temperature = t;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_stream(hermes_agent_options_t* o, int stream) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.stream = stream != 0;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_persist_sessions(hermes_agent_options_t* o, int persist) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.persist_sessions = persist != 0;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_max_retries(hermes_agent_options_t* o, int32_t n) {
  if (o == nullptr || n < 1) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.max_retries = n;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_timeout_ms(hermes_agent_options_t* o, int32_t which, int64_t ms) {
  if (o == nullptr || ms < 0) return HERMES_ERR_INVALID_ARGUMENT;
  const std::chrono::milliseconds value(ms);
  switch (which) {
    case HERMES_TIMEOUT_CONNECT: o->options.timeouts.connect = value; break;
    case HERMES_TIMEOUT_FIRST_BYTE: o->options.timeouts.first_byte = value; break;
    case HERMES_TIMEOUT_IDLE: o->options.timeouts.idle = value; break;
    case HERMES_TIMEOUT_TOTAL: o->options.timeouts.total = value; break;
    default: return HERMES_ERR_INVALID_ARGUMENT;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_tools(hermes_agent_options_t* o, hermes_tool_registry_t* r) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.tools = r == nullptr ? nullptr : r->registry;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_enable_toolset(hermes_agent_options_t* o, const char* toolset) {
  if (o == nullptr || toolset == nullptr || *toolset == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.enabled_toolsets.emplace_back(toolset);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_stream_callback(hermes_agent_options_t* o, hermes_stream_fn fn,
                                                        void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_stream_delta = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_stream_delta = [fn, data](std::string_view delta) {
    fn(delta.data(), delta.size(), data->get());
  };
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_tool_progress_callback(hermes_agent_options_t* o, hermes_event_fn fn,
                                                               void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_tool_progress = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_tool_progress = [fn, data](const hermes::ToolProgress& p) {
    fn(hermes::capi::to_json_text(tool_progress_json(p)).c_str(), data->get());
  };
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_status_callback(hermes_agent_options_t* o, hermes_event_fn fn,
                                                        void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_status = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_status = [fn, data](std::string_view kind, std::string_view message) {
    hermes::Json j{{"kind", std::string(kind)}, {"message", std::string(message)}};
    fn(hermes::capi::to_json_text(j).c_str(), data->get());
  };
  return HERMES_OK;
}

hermes_status_t hermes_agent_new(const hermes_agent_options_t* options, hermes_agent_t** out_agent,
                                 hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_agent: NULL", out_error);
    *out_agent = nullptr;
    if (options == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
    auto agent = hermes::Agent::create(options->options);
    if (!agent.ok()) return report(agent.status(), out_error);
    *out_agent = new hermes_agent_t{std::move(*agent)};
    return HERMES_OK;
  });
}

void hermes_agent_free(hermes_agent_t* agent) { delete agent; }

void hermes_agent_freep(hermes_agent_t** agent) {
  if (agent == nullptr) return;
  delete *agent;
  *agent = nullptr;
}

hermes_status_t hermes_agent_chat(hermes_agent_t* agent, const char* message, char** out_text,
                                  hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_text != nullptr) *out_text = nullptr;
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (message == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "message: NULL", out_error);
    if (out_text == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_text: NULL", out_error);
    auto answer = agent->agent->chat(message);
    if (!answer.ok()) return report(answer.status(), out_error);
    *out_text = hermes::capi::copy_string(*answer);
    return *out_text ? HERMES_OK : report(HERMES_ERR_RESOURCE_EXHAUSTED, "out of memory", out_error);
  });
}

hermes_status_t hermes_agent_run_conversation(hermes_agent_t* agent, const char* user_message,
                                              const char* system_message, const char* history_json,
                                              const char* task_id, char** out_result_json,
                                              hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_result_json != nullptr) *out_result_json = nullptr;
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (user_message == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "user_message: NULL", out_error);
    if (out_result_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_result_json: NULL", out_error);
    }
    std::optional<std::vector<hermes::Message>> history;
    if (history_json != nullptr) {
      auto parsed = hermes::capi::from_json_text(history_json);
      if (!parsed) return report(HERMES_ERR_INVALID_ARGUMENT, "history_json: not valid JSON", out_error);
      auto messages = hermes::messages_from_json(*parsed);
      if (!messages.ok()) {
        return report(HERMES_ERR_INVALID_ARGUMENT, "history_json: " + messages.status().message(), out_error);
      }
      history = std::move(*messages);
    }
    std::optional<std::string> system;
    if (system_message != nullptr) system = system_message;
    auto result = agent->agent->run_conversation(user_message, system, history,
                                                 task_id != nullptr ? task_id : "");
    *out_result_json = hermes::capi::copy_string(hermes::capi::to_json_text(result.to_json()));
    return *out_result_json ? HERMES_OK : report(HERMES_ERR_RESOURCE_EXHAUSTED, "out of memory", out_error);
  });
}

void hermes_agent_interrupt(hermes_agent_t* agent, const char* message) {
  if (agent == nullptr) return;
  try {
    agent->agent->interrupt(message != nullptr ? message : "");
  } catch (...) {
  }
}

hermes_status_t hermes_agent_steer(hermes_agent_t* agent, const char* text, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (text == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "text: NULL", out_error);
    return report(agent->agent->steer(text), out_error);
  });
}

hermes_status_t hermes_agent_session_id(hermes_agent_t* agent, char** out_session_id,
                                        hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_session_id != nullptr) *out_session_id = nullptr;
    if (agent == nullptr || out_session_id == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "agent or out_session_id: NULL", out_error);
    }
    *out_session_id = hermes::capi::copy_string(agent->agent->session_id());
    return HERMES_OK;
  });
}

}  // extern "C"
