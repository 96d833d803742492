#include "agent/child_agent_options.hpp"

#include "agent/agent_core.hpp"

namespace hermes::internal {

AgentOptions child_agent_options(const AgentCore& core) {
  const AgentOptions& parent = core.options;
  AgentOptions o;
  o.model = parent.model;
  o.provider = parent.provider;
  o.api_mode = parent.api_mode;
  o.base_url = parent.base_url;
  o.api_key = parent.api_key;
  o.extra_api_keys = parent.extra_api_keys;
  o.fallback_providers = parent.fallback_providers;
  o.provider_instance = core.provider;
  o.timeouts = parent.timeouts;
  o.max_tokens = parent.max_tokens;
  o.temperature = parent.temperature;
  o.reasoning_effort = parent.reasoning_effort;
  o.stream = parent.stream;
  o.max_retries = parent.max_retries;
  o.retry_backoff = parent.retry_backoff;
  o.provider_routing = parent.provider_routing;
  o.skills = parent.skills;
  o.home = core.home;

  // Quiet and unrecorded: with no approval callback a dangerous command is denied rather
  // than put to a user who cannot see the child.
  o.callbacks = {};
  o.persist_sessions = false;
  o.background_review = false;
  o.memory_nudge_interval = 0;
  o.skill_nudge_interval = 0;
  return o;
}

}  // namespace hermes::internal
