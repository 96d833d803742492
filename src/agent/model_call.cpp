// One model call with its recovery chain: stream events to the host, classify a failure,
// then carry out what decide_recovery (recovery_decision.hpp) chooses: refresh the
// credential, rotate the key, repair the request, compact, fall back to another provider,
// back off (honouring Retry-After) and retry, or stop with a clear reason.
#include <algorithm>
#include <chrono>

#include "agent/provider_routing.hpp"
#include "agent/recovery_decision.hpp"
#include "agent/safe_callback.hpp"
#include "agent/structured_output.hpp"
#include "agent/turn_runner.hpp"
#include "common/genai_spans.hpp"
#include "common/provider_call.hpp"
#include "common/text_utils.hpp"
#include "context/compression_triggers.hpp"
#include "hermes/model_metadata.hpp"
#include "hermes/redaction.hpp"
#include "hermes/token_estimate.hpp"
#include "providers/retry_policy.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

constexpr int64_t kDefaultContextLength = 200000;

bool is_invalid_response(const ApiError& error) {
  return error.error_code == "invalid_response";
}

std::chrono::milliseconds retry_delay(const ApiError& error, int retry,
                                      const AgentOptions::RetryBackoff& backoff) {
  if (error.retry_after_seconds) return retry_after_delay(*error.retry_after_seconds);
  return is_invalid_response(error)
             ? jittered_backoff(retry, backoff.invalid_response_base, backoff.invalid_response_max)
             : jittered_backoff(retry, backoff.base, backoff.max);
}

// An interrupt that lands while the provider is answering. Text streamed by then becomes
// the answer when the turn ends; without any, the answer says what was interrupted, and
// hosts recognise it by its prefix, "Operation interrupted:".
void note_model_wait_interrupted(TurnState& st, std::chrono::steady_clock::time_point started) {
  st.interrupted = true;
  st.exit_reason = "interrupted_by_user";
  if (!strip_think_blocks(st.streamed_text).empty()) return;
  const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - started;
  st.final_response = fmt::format(
      "Operation interrupted: waiting for model response ({:.1f}s elapsed).", waited.count());
}

}  // namespace

StreamCallback TurnRunner::stream_forwarder() {
  const Callbacks* cb = &core_.options.callbacks;
  return [this, cb](const StreamEvent& ev) {
    switch (ev.kind) {
      case StreamEvent::Kind::kTextDelta:
        st_.streamed_text.append(ev.text);
        safe_callback("stream_delta", cb->on_stream_delta, ev.text);
        break;
      case StreamEvent::Kind::kReasoningDelta:
        safe_callback("reasoning", cb->on_reasoning_delta, ev.text);
        break;
      case StreamEvent::Kind::kToolCallStart:
        safe_callback("tool_generation", cb->on_tool_generation, ev.name);
        break;
      default:
        break;
    }
  };
}

ModelCall TurnRunner::call_model(ProviderRequest& request) {
  const Callbacks& cb = core_.options.callbacks;
  ProviderRuntime& runtime = *core_.runtime;
  CallContext ctx;
  ctx.cancel = st_.cancel;
  ctx.on_event = stream_forwarder();

  const int max_attempts = std::max(1, core_.options.failover.max_retries);
  bool credential_refreshed = false;
  int attempts = 0;  // Of this call, every provider and retry counted: the spans' numbers.
  for (int retry = 0;;) {
    if (st_.cancel.cancelled()) {
      st_.interrupted = true;
      st_.exit_reason = "interrupted_by_user";
      return {};
    }
    request.model = runtime.model();
    // The service may have changed (a fallback): its own routing, or none.
    apply_provider_routing(core_.options.request.provider_routing, runtime.provider().info(),
                           request);
    apply_output_schema(turn_output(), runtime.provider().info().api_mode, request);
    ctx.api_key = runtime.api_key();
    st_.streamed_text.clear();
    safe_callback("thinking", cb.on_thinking, true);
    core_.hooks.pre_api_request(request);
    const ProviderInfo& provider = runtime.provider().info();
    ActiveSpan attempt = start_model_call_span(current_span(), provider, request, ++attempts);
    if (attempt && runtime.on_fallback()) attempt.set("hermes.fallback", true);
    const auto call_started = std::chrono::steady_clock::now();
    Result<ProviderResponse> result = call_provider(runtime.provider(), request, ctx);
    const auto took = std::chrono::steady_clock::now() - call_started;
    safe_callback("thinking", cb.on_thinking, false);
    if (result.ok()) {
      end_model_call_span(attempt, provider, request, *result, took);
      runtime.note_success();
      core_.hooks.post_api_request(request, *result);
      return {AfterCall::kAnswered, std::move(*result)};
    }

    const Status& s = result.status();
    if (s.code() == StatusCode::kCancelled || st_.cancel.cancelled()) {
      fail_model_call_span(attempt, provider, request, "cancelled", "interrupted", 0, took);
      note_model_wait_interrupted(st_, call_started);
      return {};
    }
    if (s.api_error() == nullptr) {
      // Not a provider failure (a request that cannot be encoded): retrying cannot help.
      fail_model_call_span(attempt, provider, request, "request_error",
                           redact_sensitive_text(s.to_string()), 0, took);
      fail(s.to_string(), "request_error");
      return {};
    }
    ApiError error = *s.api_error();
    const int64_t context_length =
        core_.engine ? core_.engine->context_length() : kDefaultContextLength;
    classify_in_place(error, estimate_messages_tokens_rough(request.messages), context_length,
                      static_cast<int64_t>(request.messages.size()));
    core_.hooks.api_request_error(request, error);
    fail_model_call_span(attempt, provider, request, failover_reason_name(error.reason),
                         redact_sensitive_text(error.to_string()), error.http_status, took);
    RecoveryFacts facts;
    facts.retry = retry;
    facts.max_attempts = max_attempts;
    facts.credential_refreshed = credential_refreshed;
    facts.can_refresh_credential = static_cast<bool>(cb.on_auth_refresh);
    facts.keys_left = runtime.keys_left();
    RecoveryAction action = decide_recovery(error, facts);
    if (action.kind == RecoveryKind::kRefreshCredential) {
      if (refresh_credential(error)) {
        credential_refreshed = true;
        status("retry", "\xF0\x9F\x94\x91 auth \xE2\x80\x94 retrying with a refreshed credential");
        continue;
      }
      facts.refresh_declined = true;
      action = decide_recovery(error, facts);
    }
    error.reason = action.reason;
    st_.last_api_error = error;
    st_.failure_reason = std::string(failover_reason_name(error.reason));
    HERMES_LOG_INFO("model call failed: {}", error.to_string());

    switch (perform_recovery(action, error, facts, request)) {
      case AfterFailure::kRetryCall:
        break;
      case AfterFailure::kStepAgain:
        return {AfterCall::kStepAgain, std::nullopt};
      case AfterFailure::kStop:
        return {};
    }
    retry = action.retry;
  }
}

AfterFailure TurnRunner::perform_recovery(RecoveryAction& action, const ApiError& error,
                                          RecoveryFacts& facts, ProviderRequest& request) {
  for (;;) {
    switch (action.kind) {
      case RecoveryKind::kRefreshCredential:
        // Decided before the failure is recorded (call_model); never asked again.
        facts.refresh_declined = true;
        break;
      case RecoveryKind::kRotateKey:
        if (core_.runtime->rotate_key_for(error)) {
          status("retry", "\xF0\x9F\x94\x91 " + st_.failure_reason +
                              " \xE2\x80\x94 switching to the next API key");
          return AfterFailure::kRetryCall;
        }
        facts.rotation_declined = true;
        break;
      case RecoveryKind::kRepairRequest:
        if (repair_refused_request(error, request)) return AfterFailure::kRetryCall;
        facts.repair_declined = true;
        break;
      case RecoveryKind::kCompact:
        return recover_by_compaction(error, request) ? AfterFailure::kStepAgain
                                                     : AfterFailure::kStop;
      case RecoveryKind::kFallBack:
        if (switch_to_fallback(error)) return AfterFailure::kRetryCall;
        facts.fallback_declined = true;
        break;
      case RecoveryKind::kRetryAfterBackoff:
        return back_off(error, action.retry, facts.max_attempts) ? AfterFailure::kRetryCall
                                                                 : AfterFailure::kStop;
      case RecoveryKind::kFail:
        fail(action.error, action.exit_reason);
        return AfterFailure::kStop;
    }
    action = decide_recovery(error, facts);
  }
}

bool TurnRunner::back_off(const ApiError& error, int retry, int max_attempts) {
  const auto delay = retry_delay(error, retry, core_.options.failover.backoff);
  status("retry",
         fmt::format("\xE2\x8F\xB3 {} \xE2\x80\x94 retrying in {:.1f}s ({}/{})", error.to_string(),
                     static_cast<double>(delay.count()) / 1000.0, retry, max_attempts - 1));
  if (!st_.cancel.wait_for(delay)) return true;
  // Hosts recognise an interrupted turn's answer by its "Operation interrupted" prefix.
  st_.interrupted = true;
  st_.exit_reason = "interrupted_by_user";
  st_.final_response = fmt::format(
      "Operation interrupted: retrying API call after error (retry {}/{}).", retry, max_attempts);
  return false;
}

bool TurnRunner::refresh_credential(const ApiError& error) {
  const auto& refresh = core_.options.callbacks.on_auth_refresh;
  if (!refresh) return false;
  const ProviderInfo& info = core_.runtime->provider().info();
  AuthRefreshRequest request;
  request.provider = info.name;
  request.base_url = info.base_url;
  request.model = core_.runtime->model();
  request.http_status = error.http_status;
  request.message = error.message;
  std::optional<std::string> key;
  try {
    key = refresh(request);
  } catch (const std::exception& e) {
    HERMES_LOG_WARN("the auth refresh callback threw: {}", e.what());
  } catch (...) {
    HERMES_LOG_WARN("the auth refresh callback threw");
  }
  if (!key || key->empty()) return false;
  core_.runtime->replace_active_key(std::move(*key));
  return true;
}

bool TurnRunner::repair_refused_request(const ApiError& error, ProviderRequest& request) {
  switch (error.reason) {
    case FailoverReason::kImageCorrupt:
      // Shrinking cannot repair bad bytes. Only this call's copy loses its images: the
      // transcript keeps them. With none left to strip, the error takes its normal path.
      if (!strip_request_images(request.messages)) return false;
      request.encoding_cache = nullptr;  // The lent messages changed: no encoding holds.
      wire_.invalidate();
      status("retry",
             "\xE2\x9A\xA0\xEF\xB8\x8F Provider rejected a corrupted image \xE2\x80\x94 "
             "stripped images from the retry payload and retrying...");
      return true;
    case FailoverReason::kReasoningMandatory:
      return repair_reasoning_refusal(error, request);
    default:
      return false;
  }
}

bool TurnRunner::repair_reasoning_refusal(const ApiError& error, ProviderRequest& request) {
  if (st_.reasoning_refusal_retried) return false;
  st_.reasoning_refusal_retried = true;
  ReasoningRejections& rejected = core_.reasoning_rejections;
  const std::string sent = request.reasoning_effort;
  const std::string model = core_.runtime->model();
  std::string text;
  if (!is_blank(sent) && !disables_reasoning(sent)) {
    // The route refuses the level itself: resending it would be refused again.
    rejected.effort_rejected = true;
    text = fmt::format(
        "{} rejects reasoning effort {} \xE2\x80\x94 using the route's default "
        "for this session, retrying...",
        model, sent);
  } else {
    rejected.disable_rejected = true;
    // "Mandatory" understands the setting and refuses only the off: the closest level the
    // route allows is the lowest. A route that does not know the setting gets none.
    rejected.floor_required = error.error_context.value("reasoning_required", false);
    text = rejected.floor_required
               ? fmt::format(
                     "{} cannot disable reasoning \xE2\x80\x94 using effort={} for this "
                     "session, retrying...",
                     model, kReasoningFloorEffort)
               : fmt::format(
                     "{} rejects disabling reasoning \xE2\x80\x94 using the route's "
                     "default for this session, retrying...",
                     model);
  }
  std::string effort = wire_reasoning_effort(core_.options.request.reasoning_effort, rejected);
  if (effort == sent) return false;  // The same request would be refused the same way.
  request.reasoning_effort = std::move(effort);
  status("retry", "\xE2\x9A\xA0\xEF\xB8\x8F " + text);
  HERMES_LOG_WARN("reasoning setting refused by {}: now sending effort '{}'", model,
                  request.reasoning_effort);
  return true;
}

bool TurnRunner::recover_by_compaction(const ApiError& error, const ProviderRequest& request) {
  const bool payload = error.reason == FailoverReason::kPayloadTooLarge;
  if (!core_.engine) {
    fail(payload ? "Request payload too large (413) and compression is disabled: " + error.message
                 : "Context overflow and auto-compaction is disabled: " + error.message +
                       " Compress the conversation or start a new session.",
         st_.failure_reason);
    return false;
  }
  if (st_.compression_attempts >= kMaxCompressionAttempts) {
    fail(payload ? "Request payload too large (413). Cannot compress further."
                 : "Context length exceeded: max compression attempts (3) reached.",
         "compression_exhausted");
    return false;
  }
  // A limit the provider states is believed (and only lowered, never raised).
  if (!payload) {
    if (auto limit = context_length_after_overflow(core_.engine->context_length(),
                                                   parse_context_limit_from_error(error.message))) {
      core_.engine->update_model(core_.runtime->model(), *limit);
    }
  }
  const int64_t estimate = request_estimate(request);
  if (compact(payload ? "payload_too_large" : "overflow", estimate)) {
    status("lifecycle", "Context compacted after the provider's size limit; retrying the call");
    return true;
  }
  fail(fmt::format("Context length exceeded ({} tokens). Cannot compress further.", estimate),
       "compression_exhausted");
  return false;
}

void TurnRunner::record_subagent_usage(const Usage& usage, int api_calls,
                                       const std::string& model) {
  st_.usage += usage;
  core_.session_usage += usage;
  if (!core_.store || !core_.session_row_created || api_calls == 0) return;
  UsageDelta delta;
  delta.usage = usage;
  delta.api_calls = api_calls;
  delta.model = model;
  delta.cost_status = "unknown";
  if (Status s = core_.store->record_usage(core_.session_id, delta); !s.ok()) {
    HERMES_LOG_WARN("could not record sub-agent usage: {}", s.to_string());
  }
}

bool TurnRunner::switch_to_fallback(const ApiError& error) {
  ProviderRuntime& runtime = *core_.runtime;
  const bool from_primary = !runtime.on_fallback();
  std::string text;
  if (!runtime.activate_fallback(error, &text)) return false;
  status("fallback", text);
  // The context engine now manages the fallback model's window (the primary's comes back
  // with the primary at the next turn).
  if (ContextEngine* engine = core_.engine.get()) {
    if (from_primary) core_.primary_context_length = engine->context_length();
    const ProviderConfig& config = *runtime.active_fallback();
    const ProviderInfo& info = runtime.provider().info();
    ContextLengthOptions lookup;
    lookup.api_key = config.api_key;
    lookup.home = core_.home;
    lookup.probe_endpoint = config.instance == nullptr;  // A host's provider is not probed.
    engine->update_model(config.model, get_model_context_length(config.model, info.base_url,
                                                                info.name, std::nullopt, lookup));
  }
  return true;
}

void TurnRunner::record_usage(const ProviderResponse& response) {
  st_.usage += response.usage;
  core_.session_usage += response.usage;
  if (response.usage.reported) st_.last_prompt_tokens = response.usage.input_tokens;
  // The engine in use, the default compressor included: without real usage after a
  // compaction it would wait for it forever, and never compact again before a call.
  if (core_.engine) core_.engine->update_from_response(response.usage);
  if (core_.store && core_.session_row_created) {
    const ProviderInfo& info = core_.runtime->provider().info();
    UsageDelta delta;
    delta.usage = response.usage;
    delta.api_calls = 1;
    delta.model = response.served_model.empty() ? core_.runtime->model() : response.served_model;
    delta.billing_provider = info.name;
    delta.billing_base_url = info.base_url;
    delta.cost_status = "unknown";
    // Written with the step's next flush, in its transaction.
    core_.writer.add_usage(std::move(delta));
  }
}

}  // namespace hermes::internal
