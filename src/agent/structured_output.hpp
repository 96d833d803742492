// Structured output (AgentOptions::output): the schema put on each request the way its
// wire format takes it, and the answer checked against it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hermes/agent.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

// InvalidArgument naming the option unless the schema (when set) and the name are usable.
Status check_output_options(const AgentOptions::Output& output);

// Puts the schema on `request` for a provider speaking `api_mode`, replacing what an
// earlier attempt (perhaps to a provider of another wire format) put there: Chat
// Completions' response_format, Responses' text.format, or for Anthropic a tool named
// output.name with tool_choice "any". Nothing without a schema.
void apply_output_schema(const AgentOptions::Output& output, std::string_view api_mode,
                         ProviderRequest& request);

// Whether the answer comes as a call of the tool output.name (Anthropic).
bool answers_by_tool(const AgentOptions::Output& output, std::string_view api_mode);

// An answer read as JSON and checked: the value, or what is wrong with it.
struct CheckedAnswer {
  std::optional<Json> value;  // Set when it matched.
  std::string problem;        // Otherwise, e.g. "$.price: expected number, got string".
};
CheckedAnswer check_answer(std::string_view text, const Json& schema);

// What the model is told when its answer did not match.
std::string repair_prompt(const std::string& problem);

}  // namespace hermes::internal
