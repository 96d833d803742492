// The options as the agent uses them: the 0.1 names moved to their places and the
// defaults that depend on other options filled in.
#pragma once

#include "hermes/agent.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// Where the primary provider is when neither a base URL nor an instance is given.
inline constexpr const char* kDefaultBaseUrl = "https://api.openai.com/v1";

// Moves each deprecated option set in `options` to its new place and clears it;
// InvalidArgument when both the old and the new name are set and differ. Then an empty
// provider.base_url becomes kDefaultBaseUrl (unless provider.instance is set).
Status settle_options(AgentOptions& options);

}  // namespace hermes::internal
