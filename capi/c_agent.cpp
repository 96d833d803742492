// Agents: creation, turns, and the calls that are safe while a turn runs.
#include "c_internal.hpp"

using hermes::capi::report;

extern "C" {

hermes_status_t hermes_agent_new(const hermes_agent_options_t* options, hermes_agent_t** out_agent,
                                 hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_agent == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_agent: NULL", out_error);
    *out_agent = nullptr;
    if (options == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
    auto tap = std::make_shared<hermes::capi::EventTap>();
    hermes::AgentOptions tapped = options->options;
    hermes::capi::tap_callbacks(tapped.callbacks, tap);
    auto agent = hermes::Agent::create(std::move(tapped));
    if (!agent.ok()) return report(agent.status(), out_error);
    *out_agent = new hermes_agent_t{std::move(*agent), std::move(tap)};
    return HERMES_OK;
  });
}

void hermes_agent_free(hermes_agent_t* agent) {
  if (agent == nullptr) return;
  try {
    agent->agent.reset();  // Interrupts a turn started on a runtime and waits for its end.
    agent->pending_done->wait_idle();
  } catch (...) {
  }
  delete agent;
}

void hermes_agent_freep(hermes_agent_t** agent) {
  if (agent == nullptr) return;
  hermes_agent_free(*agent);
  *agent = nullptr;
}

hermes_status_t hermes_agent_chat(hermes_agent_t* agent, const char* message, char** out_text,
                                  hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_text != nullptr) *out_text = nullptr;
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (message == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "message: NULL", out_error);
    if (out_text == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_text: NULL", out_error);
    auto answer = agent->agent->chat(message);
    if (!answer.ok()) return report(answer.status(), out_error);
    *out_text = hermes::capi::copy_string(*answer);
    return *out_text ? HERMES_OK
                     : report(HERMES_ERR_RESOURCE_EXHAUSTED, "out of memory", out_error);
  });
}

hermes_status_t hermes_agent_run_conversation(hermes_agent_t* agent, const char* user_message,
                                              const char* system_message, const char* history_json,
                                              const char* task_id, char** out_result_json,
                                              hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_result_json != nullptr) *out_result_json = nullptr;
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (user_message == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "user_message: NULL", out_error);
    if (out_result_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_result_json: NULL", out_error);
    }
    std::optional<std::vector<hermes::Message>> history;
    if (history_json != nullptr) {
      auto parsed = hermes::capi::from_json_text(history_json);
      if (!parsed)
        return report(HERMES_ERR_INVALID_ARGUMENT, "history_json: not valid JSON", out_error);
      auto messages = hermes::messages_from_json(*parsed);
      if (!messages.ok()) {
        return report(HERMES_ERR_INVALID_ARGUMENT, "history_json: " + messages.status().message(),
                      out_error);
      }
      history = std::move(*messages);
    }
    std::optional<std::string> system;
    if (system_message != nullptr) system = system_message;
    auto result = agent->agent->run_conversation(user_message, system, history,
                                                 task_id != nullptr ? task_id : "");
    return hermes::capi::return_string(hermes::capi::turn_result_text(result), out_result_json,
                                       out_error);
  });
}

hermes_status_t hermes_agent_run_turn(hermes_agent_t* agent, const char* turn_json,
                                      char** out_result_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_result_json != nullptr) *out_result_json = nullptr;
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (out_result_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_result_json: NULL", out_error);
    }
    std::string user_message;
    auto turn = hermes::capi::parse_turn(turn_json, user_message);
    if (!turn.ok()) return report(turn.status(), out_error);
    auto result = agent->agent->run_conversation(user_message, *turn);
    return hermes::capi::return_string(hermes::capi::turn_result_text(result), out_result_json,
                                       out_error);
  });
}

void hermes_agent_interrupt(hermes_agent_t* agent, const char* message) {
  if (agent == nullptr) return;
  try {
    agent->agent->interrupt(message != nullptr ? message : "");
  } catch (...) {
  }
}

hermes_status_t hermes_agent_steer(hermes_agent_t* agent, const char* text,
                                   hermes_error_t** out_error) {
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

void hermes_agent_cancel(hermes_agent_t* agent) {
  hermes_agent_interrupt(agent, nullptr);
}

hermes_status_t hermes_agent_compress(hermes_agent_t* agent, const char* focus,
                                      char** out_result_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_result_json != nullptr) *out_result_json = nullptr;
    if (agent == nullptr || out_result_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "agent or out_result_json: NULL", out_error);
    }
    auto result = agent->agent->compress(focus != nullptr ? focus : "");
    if (!result.ok()) return report(result.status(), out_error);
    const hermes::Json j{{"compacted", result->compacted},
                         {"messages_before", result->messages_before},
                         {"messages_after", result->messages_after},
                         {"tokens_before", result->tokens_before},
                         {"tokens_after", result->tokens_after},
                         {"session_id", result->session_id},
                         {"note", result->note}};
    return hermes::capi::return_string(hermes::capi::to_json_text(j), out_result_json, out_error);
  });
}

hermes_status_t hermes_agent_history(hermes_agent_t* agent, char** out_messages_json,
                                     hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_messages_json != nullptr) *out_messages_json = nullptr;
    if (agent == nullptr || out_messages_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "agent or out_messages_json: NULL", out_error);
    }
    const std::string text =
        hermes::capi::to_json_text(hermes::messages_to_json(agent->agent->history()));
    return hermes::capi::return_string(text, out_messages_json, out_error);
  });
}

hermes_status_t hermes_agent_new_session(hermes_agent_t* agent, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    return report(agent->agent->new_session(), out_error);
  });
}

hermes_status_t hermes_agent_resume(hermes_agent_t* agent, const char* session_id,
                                    hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (session_id == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "session_id: NULL", out_error);
    return report(agent->agent->resume(session_id), out_error);
  });
}

}  // extern "C"
