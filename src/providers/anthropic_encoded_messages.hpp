// The messages array of an Anthropic request written run by run
// (anthropic_message_runs.hpp), each run's bytes taken from the request's encoding cache
// when it holds them under the same shape, so that a call converts only the runs that
// are new or that a change touched.
//
// A run's bytes are stored at the index of its first message and a mark at the index of
// its last: the cache's owner drops every entry from the first message that changed, so
// both are found only while every message of the run is the one encoded.
#pragma once

#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "providers/anthropic_dialect.hpp"
#include "providers/anthropic_message_runs.hpp"

namespace hermes::internal {

// The last assistant run of `plan` converted, or null when there is none: the request's
// thinking parameters look at it, so it is converted for every request and handed to
// append_anthropic_messages.
Json converted_last_assistant(const ProviderRequest& request, const AnthropicRunPlan& plan,
                              const AnthropicDialect& dialect, std::string_view model);

// Appends the messages array convert_to_anthropic would write for `request.messages`, as
// dump_json writes it. `last_assistant` is converted_last_assistant's result.
void append_anthropic_messages(std::string& out, const ProviderRequest& request,
                               const AnthropicRunPlan& plan, const AnthropicDialect& dialect,
                               std::string_view model, const Json& last_assistant);

}  // namespace hermes::internal
