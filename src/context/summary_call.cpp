#include "context/summary_call.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <initializer_list>

#include "common/genai_spans.hpp"
#include "common/provider_call.hpp"
#include "common/text_utils.hpp"
#include "context/summary_prompt.hpp"
#include "context/text_cut.hpp"
#include "hermes/api_error.hpp"
#include "hermes/redaction.hpp"

namespace hermes::internal {
namespace {

// Wordings of a quota that does not reset by waiting, or of a missing credential.
constexpr std::array<std::string_view, 9> kAccessMarkers = {
    "insufficient_quota", "quota exceeded",       "quota_exceeded",
    "out of funds",       "out of credits",       "out of credit",
    "out of extra usage", "no api key was found", "no api key found"};

// Headings of the summary template, including those of earlier releases.
constexpr std::array<std::string_view, 6> kOlderHeadings = {
    "## Active Task",    "## In Progress", "## Pending User Asks",
    "## Remaining Work", "## Progress",    "## Next Steps"};

bool contains_any(std::string_view text, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return text.find(n) != std::string_view::npos; });
}

SummaryFailure classify_api_failure(const ApiError& e) {
  const std::string text = lower_ascii(e.message + " " + e.body + " " + e.error_code);
  const bool quota_wording =
      std::any_of(kAccessMarkers.begin(), kAccessMarkers.end(),
                  [&](std::string_view m) { return text.find(m) != std::string::npos; });
  if (e.http_status == 429 && !quota_wording) return SummaryFailure::kTimeout;
  if (e.http_status == 401 || e.http_status == 402 || e.http_status == 403 || quota_wording ||
      e.is_auth()) {
    return SummaryFailure::kAccess;
  }
  switch (e.transport) {
    case TransportFailure::kTimeout:
      return SummaryFailure::kTimeout;
    case TransportFailure::kConnect:
    case TransportFailure::kSsl:
    case TransportFailure::kDisconnect:
      return SummaryFailure::kNetwork;
    case TransportFailure::kNone:
      break;
  }
  if (e.http_status == 408 || e.http_status == 502 || e.http_status == 504 ||
      contains_any(text, {"timeout", "timed out"})) {
    return SummaryFailure::kTimeout;
  }
  if (contains_any(text, {"expecting value", "invalid json", "not valid json"})) {
    return SummaryFailure::kMalformed;
  }
  return SummaryFailure::kOther;
}

SummaryFailure classify_status(const Status& status) {
  if (status.code() == StatusCode::kApiError && status.api_error() != nullptr) {
    return classify_api_failure(*status.api_error());
  }
  if (status.code() == StatusCode::kDeadlineExceeded) return SummaryFailure::kTimeout;
  if (status.code() == StatusCode::kCancelled || status.code() == StatusCode::kUnavailable) {
    return SummaryFailure::kNetwork;
  }
  return SummaryFailure::kOther;
}

bool has_template_heading(std::string_view text) {
  auto at_line_start = [&](std::string_view heading) {
    for (std::size_t at = text.find(heading); at != std::string_view::npos;
         at = text.find(heading, at + 1)) {
      if (at == 0 || text[at - 1] == '\n') return true;
    }
    return false;
  };
  for (auto heading : kSummaryHeadings) {
    if (at_line_start(heading)) return true;
  }
  return std::any_of(kOlderHeadings.begin(), kOlderHeadings.end(), at_line_start);
}

struct Attempt {
  std::optional<std::string> body;
  SummaryFailure failure = SummaryFailure::kNone;
  std::string error;
};

Attempt ask(Provider& provider, const std::string& model, const std::string& prompt,
            const RedactionHook& redact) {
  ProviderRequest request;
  request.model = model.empty() ? provider.info().model : model;
  request.messages.push_back(Message::user(prompt));
  request.stream = false;
  CallContext context;
  ActiveSpan span =
      start_model_call_span(current_span(), provider.info(), request, 1, "compaction_summary");
  const auto started = std::chrono::steady_clock::now();
  // On a runtime, a provider of the caller's own runs on a worker, not on the I/O thread.
  auto response = call_provider(provider, request, context);
  const auto took = std::chrono::steady_clock::now() - started;
  if (!response.ok()) {
    const Status& status = response.status();
    const ApiError* api = status.api_error();
    std::string error = api ? api->to_string() : status.to_string();
    fail_model_call_span(span, provider.info(), request,
                         summary_failure_name(classify_status(status)),
                         redact_sensitive_text(error), api ? api->http_status : 0, took);
    return {std::nullopt, classify_status(status), std::move(error)};
  }
  end_model_call_span(span, provider.info(), request, *response, took);
  std::string body;
  const SummaryFailure verdict =
      judge_summary_text(response->message.content, response->message.finish_reason, body);
  if (verdict != SummaryFailure::kNone) {
    return {std::nullopt, verdict,
            "the summariser's answer was rejected (" + std::string(summary_failure_name(verdict)) +
                ")"};
  }
  // The model may echo a secret despite the instructions; redact its output too.
  return {redact ? redact(body) : body, SummaryFailure::kNone, ""};
}

}  // namespace

std::string_view summary_failure_name(SummaryFailure failure) {
  switch (failure) {
    case SummaryFailure::kNone:
      return "none";
    case SummaryFailure::kNoProvider:
      return "no_provider";
    case SummaryFailure::kAccess:
      return "access";
    case SummaryFailure::kNetwork:
      return "network";
    case SummaryFailure::kTimeout:
      return "timeout";
    case SummaryFailure::kMalformed:
      return "malformed_response";
    case SummaryFailure::kEmpty:
      return "empty";
    case SummaryFailure::kTruncated:
      return "truncated";
    case SummaryFailure::kWrongFormat:
      return "wrong_format";
    case SummaryFailure::kOther:
      return "error";
  }
  return "error";
}

SummaryFailure judge_summary_text(std::string_view content, std::string_view finish_reason,
                                  std::string& body) {
  if (is_blank(content)) return SummaryFailure::kEmpty;
  if (finish_reason == "length") return SummaryFailure::kTruncated;
  // Thinking models emit their reasoning inline; kept, it would feed every later update.
  std::string text = strip_think_blocks(content);
  if (text.empty()) text = strip(content);
  if (!has_template_heading(text)) return SummaryFailure::kWrongFormat;
  body = std::move(text);
  return SummaryFailure::kNone;
}

SummaryAnswer request_summary(const Summarizers& summarizers, const std::string& prompt,
                              const RedactionHook& redact) {
  SummaryAnswer answer;
  if (!summarizers.auxiliary && !summarizers.main) {
    answer.failure = SummaryFailure::kNoProvider;
    answer.error = "no summary model is configured";
    return answer;
  }
  if (summarizers.auxiliary) {
    Attempt a = ask(*summarizers.auxiliary, summarizers.auxiliary_model, prompt, redact);
    if (a.body) {
      answer.body = std::move(a.body);
      return answer;
    }
    answer.failure = a.failure;
    answer.error = a.error;
    answer.auxiliary_error = a.error;
  }
  if (summarizers.main) {
    Attempt m = ask(*summarizers.main, summarizers.main_model, prompt, redact);
    if (m.body) {
      answer.body = std::move(m.body);
      answer.used_main = static_cast<bool>(summarizers.auxiliary);
      answer.failure = SummaryFailure::kNone;
      answer.error.clear();
      return answer;
    }
    answer.failure = m.failure;
    answer.error = m.error;
  }
  return answer;
}

bool keeps_transcript_unchanged(SummaryFailure failure) {
  return failure == SummaryFailure::kAccess || failure == SummaryFailure::kNetwork;
}

std::chrono::seconds summary_cooldown(SummaryFailure failure, int consecutive_timeouts) {
  using std::chrono::seconds;
  switch (failure) {
    case SummaryFailure::kNone:
      return seconds(0);
    case SummaryFailure::kNoProvider:
      return seconds(600);
    case SummaryFailure::kTimeout: {
      constexpr std::array<int, 3> kLadder = {60, 300, 900};
      const int step = std::clamp(consecutive_timeouts, 1, 3) - 1;
      return seconds(kLadder[static_cast<std::size_t>(step)]);
    }
    case SummaryFailure::kMalformed:
    case SummaryFailure::kNetwork:
      return seconds(30);
    default:
      return seconds(60);
  }
}

}  // namespace hermes::internal
