// The options every agent the runtime starts on its own (a background review, a
// delegate_task sub-agent) takes from the agent that started it.
#pragma once

#include "hermes/agent.hpp"

namespace hermes::internal {

struct AgentCore;

// The parent's provider instance, model, credentials, fallback chain, generation settings,
// timeouts, retries, skills and home; and what no child may do: show anything to the
// host (no callbacks), write to the session store, earn a background review of its own.
// Tools, toolsets, iteration budget, prompt and compaction are the caller's to set.
AgentOptions child_agent_options(const AgentCore& core);

}  // namespace hermes::internal
