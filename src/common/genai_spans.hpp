// The spans and metrics of model and tool calls, named and attributed the way the
// OpenTelemetry GenAI semantic conventions describe them. Shared by the agent's loop and
// the compressor's summary call.
#pragma once

#include <chrono>
#include <string_view>

#include "common/tracer.hpp"
#include "hermes/api_error.hpp"
#include "hermes/provider.hpp"

namespace hermes::internal {

// "chat <model>", a client span under `parent`, with the request's attributes. `purpose`
// (when not empty) is hermes.call.purpose, e.g. "compaction_summary".
ActiveSpan start_model_call_span(const SpanParent& parent, const ProviderInfo& provider,
                                 const ProviderRequest& request, int attempt,
                                 std::string_view purpose = {});
// Ends the attempt with what the response says (model, id, finish reason, tokens) and
// records its metrics: duration, token usage, a model call.
void end_model_call_span(ActiveSpan& span, const ProviderInfo& provider,
                         const ProviderRequest& request, const ProviderResponse& response,
                         std::chrono::steady_clock::duration took);
// Ends a failed attempt: status ERROR with `message` (already redacted), error.type the failure's
// class (rate_limit, timeout, ...), the HTTP status when there was one; metrics as above plus an
// error.
void fail_model_call_span(ActiveSpan& span, const ProviderInfo& provider,
                          const ProviderRequest& request, std::string_view error_type,
                          std::string_view message, int http_status,
                          std::chrono::steady_clock::duration took);

}  // namespace hermes::internal
