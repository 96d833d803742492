// One model call with its retry loop: stream events to the host, classify failures, back
// off (honouring Retry-After) and retry transient ones, stop cleanly on interrupt.
#include <algorithm>

#include "agent/safe_callback.hpp"
#include "agent/turn_runner.hpp"
#include "common/log.hpp"
#include "hermes/token_estimate.hpp"
#include "providers/retry_policy.hpp"

namespace hermes::internal {
namespace {

constexpr double kMaxRetryAfterSeconds = 600;
constexpr int64_t kDefaultContextLength = 200000;

std::chrono::milliseconds retry_delay(const ApiError& error, int retry) {
  if (error.retry_after_seconds && *error.retry_after_seconds >= 0) {
    const double seconds = std::min(*error.retry_after_seconds, kMaxRetryAfterSeconds);
    return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  }
  return jittered_backoff(retry, /*base_seconds=*/2, /*max_seconds=*/60);
}

}  // namespace

std::optional<ProviderResponse> TurnRunner::call_model(const ProviderRequest& request) {
  const Callbacks& cb = core_.options.callbacks;
  CallContext ctx;
  ctx.cancel = st_.cancel;
  ctx.on_event = [this, &cb](const StreamEvent& ev) {
    switch (ev.kind) {
      case StreamEvent::Kind::kTextDelta:
        st_.streamed_text.append(ev.text);
        safe_callback("stream_delta", cb.on_stream_delta, ev.text);
        break;
      case StreamEvent::Kind::kReasoningDelta:
        safe_callback("reasoning", cb.on_reasoning_delta, ev.text);
        break;
      case StreamEvent::Kind::kToolCallStart:
        safe_callback("tool_generation", cb.on_tool_generation, ev.name);
        break;
      default:
        break;
    }
  };

  const int max_attempts = std::max(1, core_.options.max_retries);
  for (int retry = 0;;) {
    if (st_.cancel.cancelled()) {
      st_.interrupted = true;
      st_.exit_reason = "interrupted_by_user";
      return std::nullopt;
    }
    st_.streamed_text.clear();
    safe_callback("thinking", cb.on_thinking, true);
    Result<ProviderResponse> result = core_.provider->complete(request, ctx);
    safe_callback("thinking", cb.on_thinking, false);
    if (result.ok()) return std::move(*result);

    const Status& s = result.status();
    if (s.code() == StatusCode::kCancelled || st_.cancel.cancelled()) {
      st_.interrupted = true;
      st_.exit_reason = "interrupted_by_user";
      return std::nullopt;
    }
    if (s.api_error() == nullptr) {
      // Not a provider failure (a request that cannot be encoded): retrying cannot help.
      fail(s.to_string(), "request_error");
      return std::nullopt;
    }
    ApiError error = *s.api_error();
    classify_in_place(error, estimate_messages_tokens_rough(request.messages),
                      kDefaultContextLength, static_cast<int64_t>(request.messages.size()));
    st_.last_api_error = error;
    st_.failure_reason = std::string(failover_reason_name(error.reason));
    ++retry;
    if (!error.retryable) {
      fail(error.to_string(), "non_retryable_error(" + st_.failure_reason + ")");
      return std::nullopt;
    }
    if (retry >= max_attempts) {
      fail("API call failed after " + std::to_string(retry) + " retries: " + error.to_string(),
           "all_retries_exhausted_no_response");
      return std::nullopt;
    }
    const auto delay = retry_delay(error, retry);
    HERMES_LOG_INFO("model call failed ({}); retry {}/{} in {} ms", error.to_string(), retry,
                    max_attempts - 1, delay.count());
    status("retry", fmt::format("\xE2\x8F\xB3 {} \xE2\x80\x94 retrying in {:.1f}s",
                                error.to_string(), static_cast<double>(delay.count()) / 1000.0));
    if (st_.cancel.wait_for(delay)) {
      st_.interrupted = true;
      st_.exit_reason = "interrupted_by_user";
      return std::nullopt;
    }
  }
}

void TurnRunner::record_usage(const ProviderResponse& response) {
  st_.usage += response.usage;
  core_.session_usage += response.usage;
  if (response.usage.reported) st_.last_prompt_tokens = response.usage.input_tokens;
  if (core_.options.context_engine) core_.options.context_engine->update_from_response(response.usage);
  if (core_.store && core_.session_row_created) {
    UsageDelta delta;
    delta.usage = response.usage;
    delta.api_calls = 1;
    delta.model = response.served_model.empty() ? core_.options.model : response.served_model;
    delta.billing_provider = core_.provider->info().name;
    delta.billing_base_url = core_.provider->info().base_url;
    delta.cost_status = "unknown";
    if (Status s = core_.store->record_usage(core_.session_id, delta); !s.ok()) {
      HERMES_LOG_WARN("could not record usage: {}", s.to_string());
    }
  }
}

}  // namespace hermes::internal
