#include "faults/fault_case.hpp"

#include <chrono>

namespace hermes::testing {
namespace {

using namespace std::chrono_literals;
using Script = std::vector<MockResponse>;

// Far longer than the agent's first-byte and idle timeouts; the server's sleep ends when
// the case tears it down, so the length costs nothing.
constexpr auto kLongSilence = 30s;

// `fault` once, then the answer.
std::function<Script(const WireScript&)> once(
    std::function<MockResponse(const WireScript&)> fault) {
  return [fault](const WireScript& s) { return Script{fault(s), s.text(kFinalAnswer)}; };
}

FaultCase recovers(std::string name, Recovery recovery,
                   std::function<MockResponse(const WireScript&)> fault) {
  FaultCase c;
  c.name = std::move(name);
  c.script = once(std::move(fault));
  c.recovery = recovery;
  return c;
}

FaultCase http_error(std::string name, HttpFault fault, Recovery recovery = Recovery::kRetry) {
  return recovers(std::move(name), recovery,
                  [fault](const WireScript& s) { return s.http_error(fault); });
}

// The compressor's summary call comes between the refused request and its retry.
FaultCase compaction(std::string name, HttpFault fault) {
  FaultCase c;
  c.name = std::move(name);
  c.script = [fault](const WireScript& s) {
    return Script{s.http_error(fault),
                  s.summary("## Goal\nAdd one and two.\n## Completed Actions\nThe add tool "
                            "answered 3."),
                  s.text(kFinalAnswer)};
  };
  c.recovery = Recovery::kCompress;
  return c;
}

std::vector<FaultCase> recovering_http_errors() {
  std::vector<FaultCase> cases;
  cases.push_back(recovers("429 with Retry-After", Recovery::kRetry, [](const WireScript& s) {
    return s.http_error(HttpFault::kRateLimit, {{"Retry-After", "0.05"}});
  }));
  cases.push_back(http_error("429 without Retry-After", HttpFault::kRateLimit));
  // A spent quota that says when it resets is a rate limit.
  cases.push_back(recovers("429 insufficient_quota with Retry-After", Recovery::kRetry,
                           [](const WireScript& s) {
                             return s.http_error(HttpFault::kQuota, {{"Retry-After", "0.05"}});
                           }));
  cases.push_back(http_error("500", HttpFault::kServerError));
  cases.push_back(http_error("502", HttpFault::kBadGateway));
  cases.push_back(http_error("503", HttpFault::kUnavailable));
  cases.push_back(http_error("529", HttpFault::kOverloaded));
  FaultCase auth = http_error("401, then the second key", HttpFault::kAuth, Recovery::kRotate);
  auth.two_keys = true;
  cases.push_back(std::move(auth));
  FaultCase rate_limited;
  rate_limited.name = "429 twice, then the second key";
  rate_limited.script = [](const WireScript& s) {
    return Script{s.http_error(HttpFault::kRateLimit), s.http_error(HttpFault::kRateLimit),
                  s.text(kFinalAnswer)};
  };
  rate_limited.recovery = Recovery::kRotate;
  rate_limited.two_keys = true;
  cases.push_back(std::move(rate_limited));
  FaultCase overloaded;
  overloaded.name = "503 until the fallback takes over";
  overloaded.script = [](const WireScript& s) {
    // Overload switches to the fallback once it has been retried.
    return Script{s.http_error(HttpFault::kUnavailable), s.http_error(HttpFault::kUnavailable),
                  s.text(kFinalAnswer)};
  };
  overloaded.recovery = Recovery::kFallback;
  overloaded.with_fallback = true;
  cases.push_back(std::move(overloaded));
  cases.push_back(compaction("400 context overflow", HttpFault::kContextOverflow));
  cases.push_back(compaction("413 payload too large", HttpFault::kPayloadTooLarge));
  return cases;
}

std::vector<FaultCase> recovering_transport_faults() {
  std::vector<FaultCase> cases;
  FaultCase refused = recovers("connection refused", Recovery::kFallback, nullptr);
  refused.script = [](const WireScript& s) { return Script{s.text(kFinalAnswer)}; };
  refused.with_fallback = true;
  refused.primary_refuses = true;
  cases.push_back(std::move(refused));
  cases.push_back(recovers("connection reset before headers", Recovery::kRetry,
                           [](const WireScript&) { return reset_before_headers(); }));
  cases.push_back(
      recovers("connection dropped after some text", Recovery::kRetry,
               [](const WireScript& s) { return s.cut_text("Partial answer that never ends"); }));
  FaultCase cut_call;
  cut_call.name = "connection dropped inside tool-call arguments";
  cut_call.script = [](const WireScript& s) {
    const MockToolCall second{"call_2", "add", R"({"a": 3, "b": 4})"};
    return Script{s.cut_tool_call(second), s.tool_call(second), s.text(kFinalAnswer)};
  };
  cut_call.recovery = Recovery::kRetry;
  cut_call.tool_runs = 2;
  cases.push_back(std::move(cut_call));
  FaultCase unterminated;
  unterminated.name = "connection dropped after whole tool-call arguments, before the end";
  unterminated.script = [](const WireScript& s) {
    const MockToolCall second{"call_2", "add", R"({"a": 3, "b": 4})"};
    return Script{s.unterminated_tool_call(second), s.tool_call(second), s.text(kFinalAnswer)};
  };
  unterminated.recovery = Recovery::kRetry;
  unterminated.tool_runs = 2;
  cases.push_back(std::move(unterminated));
  cases.push_back(recovers(
      "first byte later than the timeout", Recovery::kRetry,
      [](const WireScript& s) { return slow_first_byte(s.text(kFinalAnswer), kLongSilence); }));
  cases.push_back(
      recovers("stream stalled past the idle timeout", Recovery::kRetry, [](const WireScript& s) {
        return s.stalled_text("Partial answer that stalls forever", kLongSilence);
      }));
  cases.push_back(recovers("malformed JSON chunk", Recovery::kRetry, [](const WireScript& s) {
    return s.malformed_text("Partial answer with damage");
  }));
  cases.push_back(recovers("error event inside a 200 response", Recovery::kRetry,
                           [](const WireScript& s) { return s.error_in_ok_response(); }));
  return cases;
}

std::vector<FaultCase> failing_cases() {
  std::vector<FaultCase> cases;
  FaultCase exhausted;
  exhausted.name = "503 on every attempt";
  exhausted.script = [](const WireScript& s) {
    return Script{s.http_error(HttpFault::kUnavailable), s.http_error(HttpFault::kUnavailable),
                  s.http_error(HttpFault::kUnavailable)};
  };
  exhausted.failure_reason = "overloaded";
  exhausted.exit_reason = "all_retries_exhausted_no_response";
  cases.push_back(std::move(exhausted));
  FaultCase interrupted;
  interrupted.name = "host interrupt while the stream stalls";
  interrupted.script = [](const WireScript& s) {
    return Script{s.stalled_text(std::string(kInterruptedText) + " that stalls", kLongSilence)};
  };
  interrupted.exit_reason = "interrupted_by_user";
  interrupted.interrupt = true;
  cases.push_back(std::move(interrupted));
  FaultCase auth;
  auth.name = "401 on both keys";
  auth.script = [](const WireScript& s) {
    return Script{s.http_error(HttpFault::kAuth), s.http_error(HttpFault::kAuth)};
  };
  auth.failure_reason = "auth";
  auth.exit_reason = "non_retryable_error(auth)";
  auth.two_keys = true;
  cases.push_back(std::move(auth));
  FaultCase quota;
  quota.name = "429 insufficient_quota without a reset";
  quota.script = [](const WireScript& s) { return Script{s.http_error(HttpFault::kQuota)}; };
  quota.failure_reason = "billing";
  quota.exit_reason = "non_retryable_error(billing)";
  cases.push_back(std::move(quota));
  return cases;
}

}  // namespace

std::string_view recovery_name(Recovery recovery) {
  switch (recovery) {
    case Recovery::kRetry:
      return "retry";
    case Recovery::kRotate:
      return "rotate";
    case Recovery::kCompress:
      return "compress";
    case Recovery::kFallback:
      return "fallback";
  }
  return "?";
}

MockToolCall first_tool_call() {
  return {"call_1", "add", R"({"a": 1, "b": 2})"};
}

std::vector<FaultCase> fault_cases() {
  std::vector<FaultCase> cases = recovering_http_errors();
  for (FaultCase& c : recovering_transport_faults()) cases.push_back(std::move(c));
  for (FaultCase& c : failing_cases()) cases.push_back(std::move(c));
  return cases;
}

}  // namespace hermes::testing
