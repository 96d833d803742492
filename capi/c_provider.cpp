// A provider implemented in C: the agent's model calls go to a host callback that
// answers with JSON, so an embedder can use its own HTTP stack, gateway or local model.
#include "c_internal.hpp"

using hermes::capi::report;

struct hermes_provider_call_t {
  std::string request_json;
  const hermes::CallContext* context = nullptr;
  std::optional<hermes::ProviderResponse> response;
  std::optional<hermes::ApiError> error;
  std::string problem;  // Why set_response refused its input, for the failed call.
};

namespace {

hermes::Json request_json(const hermes::ProviderRequest& r) {
  hermes::Json j{{"model", r.model},
                 {"messages", hermes::messages_to_json(r.messages)},
                 {"tools", r.tools},
                 {"stream", r.stream}};
  if (r.max_tokens) j["max_tokens"] = *r.max_tokens;
  if (r.temperature) j["temperature"] = *r.temperature;
  if (!r.reasoning_effort.empty()) j["reasoning_effort"] = r.reasoning_effort;
  if (r.extra_body.is_object() && !r.extra_body.empty()) j["extra_body"] = r.extra_body;
  return j;
}

int64_t counter(const hermes::Json& usage, const char* key) {
  const auto it = usage.find(key);
  return it != usage.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

// OpenAI-style usage, with the cached and reasoning details where they are reported.
hermes::Usage usage_from_json(const hermes::Json& u) {
  hermes::Usage usage;
  if (!u.is_object()) return usage;
  usage.reported = true;
  usage.input_tokens = counter(u, "prompt_tokens");
  usage.output_tokens = counter(u, "completion_tokens");
  usage.cache_read_tokens = counter(u, "cache_read_tokens");
  usage.cache_write_tokens = counter(u, "cache_write_tokens");
  usage.reasoning_tokens = counter(u, "reasoning_tokens");
  if (auto d = u.find("prompt_tokens_details"); d != u.end() && d->is_object()) {
    usage.cache_read_tokens = std::max(usage.cache_read_tokens, counter(*d, "cached_tokens"));
  }
  if (auto d = u.find("completion_tokens_details"); d != u.end() && d->is_object()) {
    usage.reasoning_tokens = std::max(usage.reasoning_tokens, counter(*d, "reasoning_tokens"));
  }
  return usage;
}

hermes::Result<hermes::ProviderResponse> response_from_json(const hermes::Json& j) {
  if (!j.is_object() || !j.contains("message")) {
    return hermes::Status::invalid_argument("response_json: expected an object with \"message\"");
  }
  hermes::Json message = j["message"];
  if (message.is_object() && !message.contains("role")) message["role"] = "assistant";
  auto parsed = hermes::message_from_json(message);
  if (!parsed.ok())
    return hermes::Status::invalid_argument("response_json: message: " + parsed.status().message());
  if (parsed->role != hermes::Role::kAssistant) {
    return hermes::Status::invalid_argument("response_json: message: role must be \"assistant\"");
  }
  hermes::ProviderResponse response;
  response.message = std::move(*parsed);
  if (auto reason = j.find("finish_reason"); reason != j.end() && reason->is_string()) {
    response.message.finish_reason = reason->get<std::string>();
  }
  if (auto usage = j.find("usage"); usage != j.end()) response.usage = usage_from_json(*usage);
  if (auto model = j.find("model"); model != j.end() && model->is_string()) {
    response.served_model = model->get<std::string>();
  }
  return response;
}

class CProvider final : public hermes::Provider {
 public:
  CProvider(hermes::ProviderInfo info, hermes_provider_fn fn,
            std::shared_ptr<hermes::capi::UserData> data)
      : info_(std::move(info)), fn_(fn), data_(std::move(data)) {}

  const hermes::ProviderInfo& info() const override { return info_; }

  hermes::Result<hermes::ProviderResponse> complete(const hermes::ProviderRequest& request,
                                                    const hermes::CallContext& context) override {
    hermes_provider_call_t call;
    call.request_json = hermes::capi::to_json_text(request_json(request));
    call.context = &context;
    const hermes_status_t status = fn_(&call, data_->get());
    if (context.cancel.cancelled() || status == HERMES_ERR_CANCELLED) {
      return hermes::Status::cancelled("the model call was cancelled");
    }
    if (call.error) {
      call.error->provider = info_.name;
      call.error->model = request.model;
      return hermes::Status::api_error(std::move(*call.error));
    }
    if (status == HERMES_OK && call.response) return std::move(*call.response);
    hermes::ApiError error;
    error.provider = info_.name;
    error.model = request.model;
    error.message = !call.problem.empty() ? call.problem
                    : status == HERMES_OK ? "the provider callback set no response"
                                          : std::string("the provider callback failed: ") +
                                                hermes_status_name(status);
    return hermes::Status::api_error(std::move(error));
  }

 private:
  hermes::ProviderInfo info_;
  hermes_provider_fn fn_;
  std::shared_ptr<hermes::capi::UserData> data_;
};

}  // namespace

extern "C" {

const char* hermes_provider_call_request(const hermes_provider_call_t* call) {
  return call == nullptr ? "" : call->request_json.c_str();
}

const char* hermes_provider_call_api_key(const hermes_provider_call_t* call) {
  return call == nullptr ? "" : call->context->api_key.c_str();
}

int hermes_provider_call_cancelled(const hermes_provider_call_t* call) {
  return call != nullptr && call->context->cancel.cancelled() ? 1 : 0;
}

hermes_status_t hermes_provider_call_emit_text(hermes_provider_call_t* call, const char* delta,
                                               size_t length) {
  if (call == nullptr || (delta == nullptr && length > 0)) return HERMES_ERR_INVALID_ARGUMENT;
  if (!call->context->on_event || length == 0) return HERMES_OK;
  try {
    hermes::StreamEvent event;
    event.kind = hermes::StreamEvent::Kind::kTextDelta;
    event.text = std::string_view(delta, length);
    call->context->on_event(event);
  } catch (...) {
    return HERMES_ERR_INTERNAL;
  }
  return HERMES_OK;
}

hermes_status_t hermes_provider_call_set_response(hermes_provider_call_t* call,
                                                  const char* response_json) {
  if (call == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    auto parsed = hermes::capi::parse_argument(response_json, "response_json");
    auto response = parsed.ok() ? response_from_json(*parsed)
                                : hermes::Result<hermes::ProviderResponse>(parsed.status());
    if (!response.ok()) {
      call->problem = response.status().message();
      return HERMES_ERR_INVALID_ARGUMENT;
    }
    call->response = std::move(*response);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_provider_call_set_error(hermes_provider_call_t* call, int32_t http_status,
                                               const char* message, const char* body,
                                               double retry_after_seconds) {
  if (call == nullptr || http_status < 0) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    hermes::ApiError error;
    error.http_status = http_status;
    error.message = message != nullptr ? message : "";
    error.body = body != nullptr ? body : "";
    if (retry_after_seconds >= 0) error.retry_after_seconds = retry_after_seconds;
    call->error = std::move(error);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_provider_callback(hermes_agent_options_t* o,
                                                           const char* name, const char* model,
                                                           hermes_provider_fn fn, void* user_data,
                                                           hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.provider.instance = nullptr;
    return HERMES_OK;
  }
  try {
    hermes::ProviderInfo info;
    info.name = name != nullptr && *name != '\0' ? name : "custom";
    info.api_mode = std::string(hermes::kApiModeChatCompletions);
    info.model = model != nullptr ? model : o->options.provider.model;
    if (model != nullptr && o->options.provider.model.empty()) o->options.provider.model = model;
    auto data = std::make_shared<hermes::capi::UserData>(user_data, nullptr);
    o->options.provider.instance = std::make_shared<CProvider>(std::move(info), fn, data);
    data->adopt(destroy);  // Owned from here on; a throw above left it with the caller.
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

}  // extern "C"
