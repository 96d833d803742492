// Agent options: typed setters over hermes::AgentOptions.
#include <cmath>
#include <cstring>

#include "c_internal.hpp"

namespace {

// Sets a string option; a NULL value sets `default_value`.
hermes_status_t assign(std::string& field, const char* value, const char* default_value = "") {
  try {
    field = value != nullptr ? value : default_value;
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
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

void hermes_agent_options_free(hermes_agent_options_t* options) {
  delete options;
}

void hermes_agent_options_freep(hermes_agent_options_t** options) {
  if (options == nullptr) return;
  delete *options;
  *options = nullptr;
}

hermes_status_t hermes_agent_options_set_model(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.provider.model, v);
}
hermes_status_t hermes_agent_options_set_provider(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.provider.provider, v);
}
hermes_status_t hermes_agent_options_set_api_mode(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.provider.api_mode, v);
}
hermes_status_t hermes_agent_options_set_base_url(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.provider.base_url, v);
}
hermes_status_t hermes_agent_options_set_api_key(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.provider.api_key, v);
}
hermes_status_t hermes_agent_options_set_home(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.home, v);
}
hermes_status_t hermes_agent_options_set_session_id(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.persistence.session_id, v);
}
hermes_status_t hermes_agent_options_set_source(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.source, v, "cli");
}
hermes_status_t hermes_agent_options_set_platform_hint(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    if (v == nullptr) {
      o->options.platform_hint.reset();
    } else {
      o->options.platform_hint = v;
    }
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}
hermes_status_t hermes_agent_options_set_context_dir(hermes_agent_options_t* o, const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.context_dir, v);
}
hermes_status_t hermes_agent_options_set_ephemeral_system_prompt(hermes_agent_options_t* o,
                                                                 const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.ephemeral_system_prompt, v);
}

hermes_status_t hermes_agent_options_add_api_key(hermes_agent_options_t* o, const char* key) {
  if (o == nullptr || key == nullptr || *key == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.failover.extra_api_keys.emplace_back(key);
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
    o->options.request.max_tokens.reset();
  } else {
    o->options.request.max_tokens = n;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_temperature(hermes_agent_options_t* o, double t) {
  if (o == nullptr || !std::isfinite(t) || t < 0) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.request.temperature = t;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_stream(hermes_agent_options_t* o, int stream) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.request.stream = stream != 0;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_persist_sessions(hermes_agent_options_t* o, int persist) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.persistence.enabled = persist != 0;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_durability(hermes_agent_options_t* o,
                                                    const char* durability) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (durability == nullptr) {
    o->options.persistence.durability = hermes::Durability::kFull;
    return HERMES_OK;
  }
  auto parsed = hermes::durability_from_name(durability);
  if (!parsed) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.persistence.durability = *parsed;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_max_retries(hermes_agent_options_t* o, int32_t n) {
  if (o == nullptr || n < 1) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.failover.max_retries = n;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_timeout_ms(hermes_agent_options_t* o, int32_t which,
                                                    int64_t ms) {
  if (o == nullptr || ms < 0) return HERMES_ERR_INVALID_ARGUMENT;
  const std::chrono::milliseconds value(ms);
  switch (which) {
    case HERMES_TIMEOUT_CONNECT:
      o->options.provider.timeouts.connect = value;
      break;
    case HERMES_TIMEOUT_FIRST_BYTE:
      o->options.provider.timeouts.first_byte = value;
      break;
    case HERMES_TIMEOUT_IDLE:
      o->options.provider.timeouts.idle = value;
      break;
    case HERMES_TIMEOUT_TOTAL:
      o->options.provider.timeouts.total = value;
      break;
    case HERMES_TIMEOUT_STALE_STREAM:
      o->options.provider.timeouts.stale_stream = value;
      break;
    case HERMES_TIMEOUT_TOOL_BATCH:
      o->options.tool_use.batch_timeout = value;
      break;
    case HERMES_TIMEOUT_TOOL_CALL:
      o->options.tool_use.call_timeout = value;
      break;
    default:
      return HERMES_ERR_INVALID_ARGUMENT;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_retry_backoff_ms(hermes_agent_options_t* o, int32_t which,
                                                          int64_t ms) {
  if (o == nullptr || ms < 0) return HERMES_ERR_INVALID_ARGUMENT;
  const std::chrono::milliseconds value(ms);
  hermes::AgentOptions::RetryBackoff& b = o->options.failover.backoff;
  switch (which) {
    case HERMES_BACKOFF_BASE:
      b.base = value;
      break;
    case HERMES_BACKOFF_MAX:
      b.max = value;
      break;
    case HERMES_BACKOFF_INVALID_RESPONSE_BASE:
      b.invalid_response_base = value;
      break;
    case HERMES_BACKOFF_INVALID_RESPONSE_MAX:
      b.invalid_response_max = value;
      break;
    default:
      return HERMES_ERR_INVALID_ARGUMENT;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_tools(hermes_agent_options_t* o,
                                               hermes_tool_registry_t* r) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.tools = r == nullptr ? nullptr : r->registry;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_enable_toolset(hermes_agent_options_t* o,
                                                    const char* toolset) {
  if (o == nullptr || toolset == nullptr || *toolset == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.tool_use.enabled_toolsets.emplace_back(toolset);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_disable_toolset(hermes_agent_options_t* o,
                                                     const char* toolset) {
  if (o == nullptr || toolset == nullptr || *toolset == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.tool_use.disabled_toolsets.emplace_back(toolset);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_pass_env(hermes_agent_options_t* o, const char* name) {
  if (o == nullptr || name == nullptr || *name == '\0' || std::strchr(name, '=') != nullptr)
    return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.tool_use.env_passthrough.emplace_back(name);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_reasoning_effort(hermes_agent_options_t* o,
                                                          const char* v) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  return assign(o->options.request.reasoning_effort, v);
}

hermes_status_t hermes_agent_options_add_fallback(hermes_agent_options_t* o, const char* provider,
                                                  const char* model, const char* base_url,
                                                  const char* api_key, const char* api_mode) {
  if (o == nullptr || model == nullptr || *model == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  auto text = [](const char* s) { return s != nullptr ? std::string(s) : std::string(); };
  try {
    hermes::ProviderConfig config;
    config.provider = text(provider);
    config.model = model;
    config.base_url = text(base_url);
    config.api_key = text(api_key);
    config.api_mode = text(api_mode);
    o->options.failover.fallback_providers.push_back(std::move(config));
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_compression(hermes_agent_options_t* o, int enabled) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.compression.enabled = enabled != 0;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_context_length(hermes_agent_options_t* o, int64_t tokens) {
  if (o == nullptr || tokens < 0) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.compression.context_length = tokens;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_compression_threshold(hermes_agent_options_t* o,
                                                               double fraction,
                                                               int32_t protect_last_n) {
  if (o == nullptr || !std::isfinite(fraction) || fraction <= 0 || fraction > 1 ||
      protect_last_n < 0) {
    return HERMES_ERR_INVALID_ARGUMENT;
  }
  o->options.compression.threshold_percent = fraction;
  o->options.compression.protect_last_n = protect_last_n;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_compress_in_place(hermes_agent_options_t* o,
                                                           int in_place) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.compression.in_place = in_place != 0;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_idle_compaction(hermes_agent_options_t* o,
                                                         double seconds) {
  if (o == nullptr || !std::isfinite(seconds) || seconds < 0) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.compression.idle_compact_after_seconds = seconds;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_approval_mode(hermes_agent_options_t* o, int32_t mode) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  switch (mode) {
    case HERMES_APPROVAL_MODE_MANUAL:
      o->options.tool_use.approvals.mode = hermes::ApprovalMode::kManual;
      break;
    case HERMES_APPROVAL_MODE_SMART:
      o->options.tool_use.approvals.mode = hermes::ApprovalMode::kSmart;
      break;
    case HERMES_APPROVAL_MODE_OFF:
      o->options.tool_use.approvals.mode = hermes::ApprovalMode::kOff;
      break;
    case HERMES_APPROVAL_MODE_ASK:
      o->options.tool_use.approvals.mode = hermes::ApprovalMode::kAsk;
      break;
    case HERMES_APPROVAL_MODE_ALLOWLIST:
      o->options.tool_use.approvals.mode = hermes::ApprovalMode::kAllowlist;
      break;
    default:
      return HERMES_ERR_INVALID_ARGUMENT;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_add_allowed_command(hermes_agent_options_t* o,
                                                         const char* program) {
  if (o == nullptr || program == nullptr || *program == '\0') return HERMES_ERR_INVALID_ARGUMENT;
  try {
    o->options.tool_use.approvals.allowed_commands.emplace_back(program);
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_approval_timeout_ms(hermes_agent_options_t* o,
                                                             int64_t milliseconds) {
  if (o == nullptr || milliseconds < 0) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.tool_use.approvals.timeout = std::chrono::milliseconds(milliseconds);
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_max_tool_workers(hermes_agent_options_t* o,
                                                          int32_t workers) {
  if (o == nullptr || workers < 1) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.tool_use.max_workers = workers;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_memory_limits(hermes_agent_options_t* o,
                                                       int64_t memory_chars, int64_t user_chars) {
  if (o == nullptr || memory_chars < 1 || user_chars < 1) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.memory_limits.memory_chars = static_cast<std::size_t>(memory_chars);
  o->options.memory_limits.user_chars = static_cast<std::size_t>(user_chars);
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_review_max_iterations(hermes_agent_options_t* o,
                                                               int32_t max_iterations) {
  if (o == nullptr || max_iterations < 1) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.review.max_iterations = max_iterations;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_background_review(hermes_agent_options_t* o, int enabled,
                                                           int32_t memory_interval,
                                                           int32_t skill_interval) {
  if (o == nullptr || memory_interval < 0 || skill_interval < 0) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.review.enabled = enabled != 0;
  o->options.review.memory_nudge_interval = memory_interval;
  o->options.review.skill_nudge_interval = skill_interval;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_delegation(hermes_agent_options_t* o,
                                                    int32_t max_iterations,
                                                    int32_t max_concurrent_children,
                                                    hermes_error_t** out_error) {
  using hermes::capi::report;
  if (o == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
  if (max_iterations < 1) {
    return report(HERMES_ERR_INVALID_ARGUMENT, "delegation.max_iterations: must be at least 1",
                  out_error);
  }
  if (max_concurrent_children < 1) {
    return report(HERMES_ERR_INVALID_ARGUMENT,
                  "delegation.max_concurrent_children: must be at least 1", out_error);
  }
  o->options.delegation.max_iterations = max_iterations;
  o->options.delegation.max_concurrent_children = max_concurrent_children;
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_tool_use_enforcement(hermes_agent_options_t* o, int mode) {
  if (o == nullptr || mode < HERMES_TOOL_USE_ENFORCEMENT_AUTO ||
      mode > HERMES_TOOL_USE_ENFORCEMENT_ON) {
    return HERMES_ERR_INVALID_ARGUMENT;
  }
  if (mode == HERMES_TOOL_USE_ENFORCEMENT_AUTO) {
    o->options.tool_use.enforcement.reset();
  } else {
    o->options.tool_use.enforcement = mode == HERMES_TOOL_USE_ENFORCEMENT_ON;
  }
  return HERMES_OK;
}

hermes_status_t hermes_agent_options_set_store(hermes_agent_options_t* o, hermes_store_t* store) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  o->options.persistence.store = store == nullptr ? nullptr : store->store;
  return HERMES_OK;
}

}  // extern "C"
