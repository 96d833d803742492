// Resuming a request's event stream that broke off before the answer (MCP 2025-11-25,
// "Resumability and Redelivery"): the server ended it on purpose to free the connection,
// or the connection dropped, and it redelivers what followed the last event id on a GET.
#include <algorithm>
#include <string>

#include "mcp/http_transport.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

// Each attempt may bring events and a new id without the answer; a server that never
// brings it is given up on rather than followed for the whole of the call's deadline.
constexpr int kMaxResumeAttempts = 5;
// The delay when the server named none, as EventSource clients use.
constexpr std::chrono::milliseconds kDefaultRetry{1'000};

std::string request_name(const Json& id) {
  return "request " + id.dump();
}

}  // namespace

Status HttpTransport::resume_request(const Json& id, const CancelToken& cancel,
                                     StreamCursor& cursor, bool& answered) {
  for (int attempt = 1; attempt <= kMaxResumeAttempts; ++attempt) {
    // A retry longer than the silence a stream may keep is not waited for in full.
    const auto delay = std::min(cursor.retry.value_or(kDefaultRetry), options_.response_timeout);
    if (cancel.wait_for(delay)) return {};
    HERMES_LOG_DEBUG("{}: resuming the event stream of {} after event '{}' (attempt {})",
                     options_.label, request_name(id), cursor.last_event_id, attempt);

    HttpRequest request;
    request.url = options_.url;
    bool sent_session = false;
    request.headers = request_headers("Accept: text/event-stream", &sent_session);
    request.headers.push_back("Last-Event-ID: " + cursor.last_event_id);
    request.timeouts = {options_.connect_timeout, options_.response_timeout,
                        options_.response_timeout, std::chrono::milliseconds(0)};
    const StreamRead read = read_answer(HttpMethod::kGet, request, cancel, id, cursor, answered,
                                        /*until_answered=*/true);
    if (read.result.cancelled || closing() || answered) return {};
    if (read.result.head.status == 405) {
      return Status::failed_precondition(
          options_.label + " ended the event stream of " + request_name(id) +
          " before answering and does not offer resuming it (HTTP 405 to the GET)");
    }
    if (!resumable(read, cursor)) return request_outcome(read, id, sent_session, answered);
  }
  return Status::unavailable(options_.label + " ended the event stream of " + request_name(id) +
                             " without answering, " + std::to_string(kMaxResumeAttempts) +
                             " times in a row");
}

}  // namespace hermes::internal
