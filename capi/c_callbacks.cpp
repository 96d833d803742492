// The callbacks of a turn, from C: function pointers with user data and a destructor.
#include "c_internal.hpp"

using hermes::capi::UserData;

extern "C" {

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
    fn(hermes::capi::to_json_text(hermes::capi::tool_progress_json(p)).c_str(), data->get());
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

hermes_status_t hermes_agent_options_set_reasoning_callback(hermes_agent_options_t* o, hermes_stream_fn fn,
                                                          void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_reasoning_delta = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_reasoning_delta = [fn, data](std::string_view delta) {
    fn(delta.data(), delta.size(), data->get());
  };
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_step_callback(hermes_agent_options_t* o, hermes_event_fn fn,
                                                     void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_step = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_step = [fn, data](int api_call_count, const std::vector<hermes::ToolOutcome>& previous) {
    hermes::Json tools = hermes::Json::array();
    for (const auto& t : previous) {
      tools.push_back({{"name", t.name}, {"arguments", t.arguments}, {"result", t.result}});
    }
    hermes::Json event{{"api_call_count", api_call_count}, {"previous", std::move(tools)}};
    fn(hermes::capi::to_json_text(event).c_str(), data->get());
  };
  return HERMES_OK;
}

hermes_status_t hermes_answer_set(hermes_answer_t* answer, const char* text) {
  if (answer == nullptr || text == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    answer->text = text;
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_clarify_callback(hermes_agent_options_t* o, hermes_clarify_fn fn,
                                                        void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_clarify = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_clarify = [fn, data](const std::string& question,
                                               const std::vector<std::string>& choices) {
    hermes_answer_t answer;
    fn(question.c_str(), hermes::capi::to_json_text(hermes::Json(choices)).c_str(), &answer, data->get());
    return answer.text;
  };
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_approval_callback(hermes_agent_options_t* o, hermes_approval_fn fn,
                                                         void* user_data, hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_approval = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_approval = [fn, data](const hermes::ApprovalRequest& request) {
    hermes::Json j{{"command", request.command},
                   {"description", request.description},
                   {"pattern_key", request.pattern_key},
                   {"tool_name", request.tool_name}};
    switch (fn(hermes::capi::to_json_text(j).c_str(), data->get())) {
      case HERMES_APPROVAL_ONCE: return hermes::ApprovalDecision::kOnce;
      case HERMES_APPROVAL_SESSION: return hermes::ApprovalDecision::kSession;
      case HERMES_APPROVAL_ALWAYS: return hermes::ApprovalDecision::kAlways;
      default: return hermes::ApprovalDecision::kDeny;
    }
  };
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_auth_refresh_callback(hermes_agent_options_t* o,
                                                              hermes_auth_refresh_fn fn, void* user_data,
                                                              hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.callbacks.on_auth_refresh = nullptr;
    return HERMES_OK;
  }
  auto data = std::make_shared<UserData>(user_data, destroy);
  o->options.callbacks.on_auth_refresh = [fn, data](const hermes::AuthRefreshRequest& request) {
    hermes::Json j{{"provider", request.provider},
                   {"base_url", request.base_url},
                   {"model", request.model},
                   {"http_status", request.http_status},
                   {"message", request.message}};
    hermes_answer_t answer;
    fn(hermes::capi::to_json_text(j).c_str(), &answer, data->get());
    return answer.text;
  };
  return HERMES_OK;
}

}  // extern "C"
