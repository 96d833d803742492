#include "agent/child_agent_options.hpp"

#include "agent/agent_core.hpp"
#include "common/tracer.hpp"

namespace hermes::internal {

AgentOptions child_agent_options(const AgentCore& core) {
  const AgentOptions& parent = core.options;
  AgentOptions o;
  o.provider = parent.provider;  // Headers and timeouts included.
  o.provider.instance = core.provider;
  o.failover.extra_api_keys = parent.failover.extra_api_keys;
  o.failover.fallback_providers = parent.failover.fallback_providers;
  o.request = parent.request;
  o.failover.max_retries = parent.failover.max_retries;
  o.failover.backoff = parent.failover.backoff;
  o.skills = parent.skills;
  o.home = core.home;
  // A child's turns join the trace of what started it (a delegate_task call); a child
  // started outside any span (the background review) begins a trace of its own.
  o.tracing.sink = parent.tracing.sink;
  o.tracing.capture_content = parent.tracing.capture_content;
  if (const SpanParent& here = current_span(); here && here.context.valid()) {
    o.tracing.traceparent = here.context.traceparent();
  }

  // Quiet and unrecorded: with no approval callback a dangerous command is denied rather
  // than put to a user who cannot see the child.
  o.callbacks = {};
  o.persistence.enabled = false;
  o.review.enabled = false;
  o.review.memory_nudge_interval = 0;
  o.review.skill_nudge_interval = 0;
  return o;
}

}  // namespace hermes::internal
