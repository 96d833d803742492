// The library's pure helpers from C: error classification, context limits, dangerous
// commands, redaction, message sanitising and token estimates.
#include "c_internal.hpp"
#include "hermes/api_error.hpp"
#include "hermes/message_utils.hpp"
#include "hermes/model_metadata.hpp"
#include "hermes/redaction.hpp"
#include "hermes/safety.hpp"
#include "hermes/token_estimate.hpp"

using hermes::capi::report;

namespace {

// Reads the optional keys of the facts object; a key of the wrong type is an error.
hermes::Result<hermes::ApiErrorFacts> facts_from_json(const hermes::Json& j) {
  if (!j.is_object()) return hermes::Status::invalid_argument("facts_json: expected an object");
  hermes::ApiErrorFacts facts;
  try {
    if (j.contains("status_code") && !j["status_code"].is_null()) facts.http_status = j["status_code"].get<int>();
    facts.message = j.value("message", "");
    if (j.contains("body") && !j["body"].is_null()) {
      facts.body = j["body"].is_string() ? j["body"].get<std::string>() : j["body"].dump();
    }
    const std::string transport = j.value("transport", "");
    const auto failure = hermes::parse_transport_failure(transport);
    if (!failure) {
      return hermes::Status::invalid_argument("transport: expected \"\", \"timeout\", \"connect\", \"ssl\" or "
                                              "\"disconnect\", got \"" + transport + "\"");
    }
    facts.transport = *failure;
    facts.provider = j.value("provider", "");
    facts.model = j.value("model", "");
    facts.approx_tokens = j.value("approx_tokens", int64_t{0});
    if (const int64_t window = j.value("context_length", int64_t{0}); window > 0) facts.context_length = window;
    facts.num_messages = j.value("num_messages", int64_t{0});
    if (j.contains("retry_after") && !j["retry_after"].is_null()) {
      facts.retry_after_seconds = j["retry_after"].get<double>();
    }
  } catch (const hermes::Json::exception& e) {
    return hermes::Status::invalid_argument(std::string("facts_json: ") + e.what());
  }
  return facts;
}

}  // namespace

extern "C" {

hermes_status_t hermes_classify_api_error(const char* facts_json, char** out_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_json: NULL", out_error);
    *out_json = nullptr;
    auto parsed = hermes::capi::parse_argument(facts_json, "facts_json");
    if (!parsed.ok()) return report(parsed.status(), out_error);
    auto facts = facts_from_json(*parsed);
    if (!facts.ok()) return report(facts.status(), out_error);
    const hermes::ApiError e = hermes::classify_api_error(*facts);
    hermes::Json out{{"reason", std::string(hermes::failover_reason_name(e.reason))},
                     {"retryable", e.retryable},
                     {"should_compress", e.should_compress},
                     {"should_rotate_credential", e.should_rotate_credential},
                     {"should_fallback", e.should_fallback},
                     {"message", e.message},
                     {"error_code", e.error_code},
                     {"error_context", e.error_context},
                     {"billing_unverified", e.billing_unverified()},
                     {"retry_after", e.retry_after_seconds ? hermes::Json(*e.retry_after_seconds)
                                                           : hermes::Json()}};
    return hermes::capi::return_string(hermes::capi::to_json_text(out), out_json, out_error);
  });
}

hermes_status_t hermes_parse_context_limit(const char* message, int64_t* out_tokens) {
  if (message == nullptr || out_tokens == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    const auto limit = hermes::parse_context_limit_from_error(message);
    if (!limit) return HERMES_ERR_NOT_FOUND;
    *out_tokens = *limit;
    return HERMES_OK;
  } catch (...) {
    return HERMES_ERR_INTERNAL;
  }
}

hermes_status_t hermes_get_model_context_length(const char* model, const char* base_url, const char* provider,
                                                int64_t config_override, const char* api_key,
                                                const char* home, int64_t* out_tokens) {
  if (model == nullptr || out_tokens == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    hermes::ContextLengthOptions options;
    if (api_key != nullptr) options.api_key = api_key;
    if (home != nullptr) options.home = home;
    std::optional<int64_t> override_length;
    if (config_override > 0) override_length = config_override;
    *out_tokens = hermes::get_model_context_length(model, base_url != nullptr ? base_url : "",
                                                   provider != nullptr ? provider : "", override_length,
                                                   options);
    return HERMES_OK;
  } catch (...) {
    return HERMES_ERR_INTERNAL;
  }
}

hermes_status_t hermes_detect_dangerous_command(const char* command, char** out_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_json: NULL", out_error);
    *out_json = nullptr;
    if (command == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "command: NULL", out_error);
    const hermes::CommandFinding hardline = hermes::detect_hardline_command(command);
    const hermes::CommandFinding dangerous = hermes::detect_dangerous_command(command);
    const hermes::Json out{{"dangerous", hardline.found || dangerous.found},
                           {"hardline", hardline.found},
                           {"description", hardline.found ? hardline.description : dangerous.description}};
    return hermes::capi::return_string(hermes::capi::to_json_text(out), out_json, out_error);
  });
}

hermes_status_t hermes_redact_text(const char* text, char** out_text, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_text == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_text: NULL", out_error);
    *out_text = nullptr;
    if (text == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "text: NULL", out_error);
    return hermes::capi::return_string(hermes::redact_sensitive_text(text), out_text, out_error);
  });
}

hermes_status_t hermes_sanitize_messages(const char* messages_json, char** out_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_json: NULL", out_error);
    *out_json = nullptr;
    auto parsed = hermes::capi::parse_argument(messages_json, "messages_json");
    if (!parsed.ok()) return report(parsed.status(), out_error);
    auto sanitized = hermes::sanitize_api_messages(*parsed);
    if (!sanitized.ok()) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "messages_json: " + sanitized.status().message(), out_error);
    }
    return hermes::capi::return_string(hermes::capi::to_json_text(*sanitized), out_json, out_error);
  });
}

int64_t hermes_estimate_tokens(const char* text) {
  if (text == nullptr) return 0;
  try {
    return hermes::estimate_tokens_rough(text);
  } catch (...) {
    return 0;
  }
}

}  // extern "C"
