// Whether a provider's refusal says reasoning cannot be switched off for the route
// ("Reasoning is mandatory for this endpoint and cannot be disabled"), as opposed to a
// route that does not know the setting. The classifier reports it as
// ApiError::error_context["reasoning_required"].
#pragma once

#include <string_view>

namespace hermes::internal {

// True for a reasoning word ("reasoning", "thinking", "reasoning_effort", ...) with a
// "mandatory"-like phrase close to it; "reasoning models are mandatory reading" is not.
bool is_reasoning_required_rejection(std::string_view message);

}  // namespace hermes::internal
