// OpenRouter's provider routing: which upstream providers may serve a request, sent as
// the body's "provider" object to OpenRouter and to no other service.
#pragma once

#include "hermes/agent.hpp"
#include "hermes/provider.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// InvalidArgument naming the field for a sort or data_collection OpenRouter does not take.
Status check_provider_routing(const AgentOptions::ProviderRouting& routing);

// Puts the routing object into `request.extra_body["provider"]` when `service` is
// OpenRouter (by name or base URL) and the routing says anything; otherwise takes out
// what an earlier call to it put there, so a fallback to another service sends none.
void apply_provider_routing(const AgentOptions::ProviderRouting& routing,
                            const ProviderInfo& service, ProviderRequest& request);

}  // namespace hermes::internal
