#include "mcp/http_transport.hpp"

#include <algorithm>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/http_client.hpp"
#include "providers/sse_parser.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

constexpr const char* kAcceptBoth = "Accept: application/json, text/event-stream";
constexpr const char* kAcceptStream = "Accept: text/event-stream";
// The GET stream is optional: after this many failures in a row it is given up.
constexpr int kMaxListenFailures = 3;
constexpr std::chrono::milliseconds kListenRetry{1'000};
// Requests wait this long at most for the GET stream to open, so that a server that is
// slow to open it does not hold them up.
constexpr std::chrono::milliseconds kListenerOpenWait{3'000};
// Ending the session is a courtesy; a server that does not answer quickly is left alone.
constexpr std::chrono::milliseconds kDeleteTimeout{5'000};

bool is_event_stream(const HttpResponseHead& head) {
  return lower_ascii(head.content_type).rfind("text/event-stream", 0) == 0;
}

// A name or value that could end the header line early would let configuration smuggle
// in headers of its own.
bool splits_header(std::string_view text) {
  return text.find_first_of("\r\n") != std::string_view::npos;
}

// Session ids are visible ASCII by the specification; anything else is not echoed back.
bool valid_session_id(std::string_view id) {
  return !id.empty() &&
         std::all_of(id.begin(), id.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

// Ids we send are integers; a server may echo them back as strings.
bool same_id(const Json& a, const Json& b) {
  if (a == b) return true;
  auto text = [](const Json& id) { return id.is_string() ? id.get<std::string>() : id.dump(); };
  return (a.is_string() || a.is_number_integer()) && (b.is_string() || b.is_number_integer()) &&
         text(a) == text(b);
}

bool is_response(const Json& message) {
  return message.is_object() && message.contains("id") && !message.contains("method") &&
         (message.contains("result") || message.contains("error"));
}

}  // namespace

struct HttpTransport::Exchange {
  Json id;
  std::string body;
  CancelToken cancel;
  std::atomic<bool> done{false};
  std::thread thread;
};

HttpTransport::HttpTransport(HttpTransportOptions options) : options_(std::move(options)) {
  for (const auto& [name, value] : options_.headers) {
    if (lower_ascii(name) == "authorization") configured_authorization_ = true;
  }
}

HttpTransport::~HttpTransport() {
  close();
}

Status HttpTransport::start(Handlers handlers) {
  std::lock_guard lock(lifecycle_mu_);
  if (started_) return Status::failed_precondition(options_.label + ": already started");
  if (options_.url.empty()) return Status::invalid_argument(options_.label + ": no url configured");
  for (const auto& [name, value] : options_.headers) {
    if (name.empty() || name.find(':') != std::string::npos || splits_header(name) ||
        splits_header(value)) {
      return Status::invalid_argument(options_.label + ": header '" + excerpt(name) +
                                      "' is not a valid HTTP header");
    }
  }
  handlers_ = std::move(handlers);
  started_ = true;
  dispatcher_ = std::thread([this] { dispatch(); });
  return {};
}

void HttpTransport::set_protocol_version(const std::string& version) {
  std::lock_guard lock(mu_);
  protocol_version_ = version;
}

Status HttpTransport::send(const Json& message) {
  Outgoing out;
  out.body = dump_json(message);
  if (message.is_object()) {
    auto method = message.find("method");
    const bool has_method = method != message.end() && method->is_string();
    if (has_method && message.contains("id")) {
      out.request_id = message["id"];
    } else if (has_method && *method == "notifications/cancelled") {
      out.cancelled_id = message.value("params", Json::object()).value("requestId", Json());
    } else if (has_method && *method == "notifications/initialized") {
      out.starts_listening = true;
    }
  }
  std::lock_guard lock(mu_);
  if (closing()) return Status::unavailable(options_.label + " is disconnected");
  if (!broken_.ok()) return broken_;
  queue_.push_back(std::move(out));
  wake_.notify_all();
  return {};
}

void HttpTransport::dispatch() {
  std::unique_lock lock(mu_);
  while (true) {
    wake_.wait(lock, [this] { return closing() || !queue_.empty(); });
    if (closing()) break;
    Outgoing next = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    reap_exchanges(/*all=*/false);
    if (!next.request_id.is_null()) {
      start_request(std::move(next));
    } else {
      if (!next.cancelled_id.is_null()) cancel_exchange(next.cancelled_id);
      post_one_way(next);
      if (next.starts_listening && !closing() && !listener_.joinable()) {
        listener_ = std::thread([this] { listen(); });
        // Requests a server sends on its own go only to an open GET stream: one made
        // during the next call would be lost if the stream were not open yet.
        lock.lock();
        wake_.wait_for(lock, kListenerOpenWait, [this] { return listener_opened_ || closing(); });
        lock.unlock();
      }
    }
    lock.lock();
  }
  lock.unlock();
  reap_exchanges(/*all=*/true);
}

void HttpTransport::start_request(Outgoing message) {
  auto exchange = std::make_shared<Exchange>();
  exchange->id = std::move(message.request_id);
  exchange->body = std::move(message.body);
  exchange->cancel = stop_.child();
  Exchange* raw = exchange.get();  // Kept alive by exchanges_ until joined.
  exchange->thread = std::thread([this, raw] {
    post_request(*raw);
    raw->done = true;
  });
  exchanges_.push_back(std::move(exchange));
}

void HttpTransport::cancel_exchange(const Json& id) {
  for (const auto& exchange : exchanges_) {
    if (same_id(exchange->id, id)) exchange->cancel.cancel();
  }
}

void HttpTransport::reap_exchanges(bool all) {
  for (auto it = exchanges_.begin(); it != exchanges_.end();) {
    if (all || (*it)->done) {
      if ((*it)->thread.joinable()) (*it)->thread.join();
      it = exchanges_.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<std::string> HttpTransport::request_headers(const char* accept, bool* sent_session,
                                                        std::string* sent_authorization) const {
  std::vector<std::string> headers{accept};
  if (options_.oauth && !configured_authorization_) {
    std::string line = options_.oauth->authorization(stop_);
    if (!line.empty()) headers.push_back(line);
    if (sent_authorization) *sent_authorization = std::move(line);
  }
  {
    std::lock_guard lock(mu_);
    if (!session_id_.empty()) headers.push_back("Mcp-Session-Id: " + session_id_);
    if (!protocol_version_.empty()) headers.push_back("MCP-Protocol-Version: " + protocol_version_);
    if (sent_session) *sent_session = !session_id_.empty();
  }
  for (const auto& [name, value] : options_.headers) headers.push_back(name + ": " + value);
  return headers;
}

void HttpTransport::note_session_id(const HttpResponseHead& head) {
  auto id = head.find_header("mcp-session-id");
  if (!id) return;
  if (!valid_session_id(*id)) {
    HERMES_LOG_WARN("{} sent a session id that is not visible ASCII; ignored", options_.label);
    return;
  }
  std::lock_guard lock(mu_);
  if (session_id_.empty() && broken_.ok()) session_id_.assign(*id);
}

void HttpTransport::post_request(Exchange& exchange) {
  HttpRequest request;
  request.url = options_.url;
  bool sent_session = false;
  request.body = exchange.body;
  request.timeouts = {options_.connect_timeout, options_.response_timeout,
                      options_.response_timeout, std::chrono::milliseconds(0)};

  bool answered = false;
  StreamCursor cursor;
  StreamRead read;
  for (int attempt = 0;; ++attempt) {
    std::string authorization;
    request.headers = request_headers(kAcceptBoth, &sent_session, &authorization);
    read = read_answer(HttpMethod::kPost, request, exchange.cancel, exchange.id, cursor, answered,
                       /*until_answered=*/false);
    if (read.result.cancelled || closing()) return;
    Result<bool> again = reauthorize(read.result, authorization, attempt);
    if (!again.ok()) {
      if (handlers_.on_request_failed) handlers_.on_request_failed(exchange.id, again.status());
      return;
    }
    if (!*again) break;
  }
  Status failure = request_outcome(read, exchange.id, sent_session, answered);
  if (!answered && resumable(read, cursor)) {
    failure = resume_request(exchange.id, exchange.cancel, cursor, answered);
    if (exchange.cancel.cancelled() || closing()) return;
  }
  // A 202 for a request leaves the answer to the GET stream, or to the call's deadline.
  if (failure.ok() || answered) return;
  HERMES_LOG_DEBUG("{}: request {} failed: {}", options_.label, exchange.id.dump(),
                   failure.message());
  if (handlers_.on_request_failed) handlers_.on_request_failed(exchange.id, failure);
}

HttpTransport::StreamRead HttpTransport::read_answer(HttpMethod method, const HttpRequest& request,
                                                     const CancelToken& cancel, const Json& id,
                                                     StreamCursor& cursor, bool& answered,
                                                     bool until_answered) {
  StreamRead read;
  SseParser parser(
      [&](const SseEvent& event) {
        if (read.stream_error.ok()) read.stream_error = receive_event(event, id, answered);
      },
      options_.max_message_bytes);
  HttpBodySink sink;
  sink.wants_stream = [&](const HttpResponseHead& head) {
    note_session_id(head);
    return head.status == 200 && is_event_stream(head);
  };
  sink.on_data = [&](std::string_view bytes) {
    parser.feed(bytes);
    return read.stream_error.ok() && parser.error().empty() && !(until_answered && answered);
  };
  read.result = HttpClient::shared().send(method, request, cancel, &sink);
  if (read.stream_error.ok() && read.result.streamed) {
    read.stream_error = stream_limit_status(parser.error(), read.result);
  }
  const HttpResult& result = read.result;
  if (result.streamed && !result.stopped && result.failure == TransportFailure::kNone) {
    parser.finish();
  }
  if (!parser.last_event_id().empty()) cursor.last_event_id = parser.last_event_id();
  if (parser.retry()) cursor.retry = parser.retry();
  return read;
}

Status HttpTransport::request_outcome(const StreamRead& read, const Json& id, bool sent_session,
                                      bool& answered) {
  const HttpResult& result = read.result;
  if (!result.streamed) {
    Status s = receive_buffered(result, id, sent_session, answered);
    if (s.ok() && !answered && result.head.status == 200) {
      return Status::failed_precondition(options_.label + " answered without a JSON-RPC response");
    }
    return s;
  }
  if (!read.stream_error.ok()) return read.stream_error;
  if (answered) return {};
  if (result.failure != TransportFailure::kNone) return transport_status(result);
  return Status::unavailable(options_.label + " ended the event stream without answering");
}

bool HttpTransport::resumable(const StreamRead& read, const StreamCursor& cursor) {
  const HttpResult& result = read.result;
  return result.streamed && read.stream_error.ok() && !cursor.last_event_id.empty() &&
         (result.failure == TransportFailure::kNone ||
          result.failure == TransportFailure::kDisconnect);
}

void HttpTransport::post_one_way(const Outgoing& message) {
  HttpRequest request;
  request.url = options_.url;
  bool sent_session = false;
  request.body = message.body;
  const auto limit = options_.connect_timeout;
  request.timeouts = {limit, limit, limit, limit};
  HttpResult result;
  for (int attempt = 0;; ++attempt) {
    std::string authorization;
    request.headers = request_headers(kAcceptBoth, &sent_session, &authorization);
    result = HttpClient::shared().post(request, stop_);
    if (result.cancelled || closing()) return;
    Result<bool> again = reauthorize(result, authorization, attempt);
    if (!again.ok()) {
      HERMES_LOG_WARN("{}", again.status().message());
      return;
    }
    if (!*again) break;
  }
  note_session_id(result.head);
  bool answered = false;
  Status s = receive_buffered(result, Json(), sent_session, answered);
  if (!s.ok()) HERMES_LOG_WARN("{}", s.message());
}

void HttpTransport::listen() {
  int failures = 0;
  while (!closing()) {
    HttpRequest request;
    request.url = options_.url;
    bool sent_session = false;
    std::string authorization;
    request.headers = request_headers(kAcceptStream, &sent_session, &authorization);
    // A quiet stream is normal, but not a silent one: it lasts until the server or
    // close() ends it, or until it says nothing for listen_idle_timeout.
    request.timeouts = {options_.connect_timeout, options_.listen_idle_timeout,
                        options_.listen_idle_timeout, std::chrono::milliseconds(0)};
    bool answered = false;
    Status stream_error;
    SseParser parser(
        [&](const SseEvent& event) {
          if (stream_error.ok()) stream_error = receive_event(event, Json(), answered);
        },
        options_.max_message_bytes);
    HttpBodySink sink;
    sink.wants_stream = [this](const HttpResponseHead& head) {
      mark_listener_opened();
      return head.status == 200 && is_event_stream(head);
    };
    sink.on_data = [&](std::string_view bytes) {
      parser.feed(bytes);
      return stream_error.ok() && parser.error().empty();
    };
    HttpResult result = HttpClient::shared().get(request, stop_, &sink);
    mark_listener_opened();  // Or refused: either way, nothing to wait for.
    if (result.cancelled || closing()) return;
    if (stream_error.ok() && result.streamed) {
      stream_error = stream_limit_status(parser.error(), result);
    }
    if (stream_error.ok() && result.streamed && result.failure == TransportFailure::kTimeout) {
      HERMES_LOG_DEBUG("{}: the server's message stream was silent for {} ms; reopening it",
                       options_.label, options_.listen_idle_timeout.count());
      failures = 0;
      continue;
    }
    if (Result<bool> again = reauthorize(result, authorization, failures);
        again.ok() && *again && ++failures < kMaxListenFailures) {
      continue;
    }
    // 405 is the answer the specification gives servers without the stream; some answer
    // 404 instead, which here does not mean an expired session (POSTs tell that).
    if (result.head.status == 405 || result.head.status == 404) {
      HERMES_LOG_DEBUG("{} offers no stream of its own messages", options_.label);
      return;
    }
    Status s = stream_error;
    if (s.ok() && result.streamed && result.failure == TransportFailure::kNone) {
      parser.finish();
      failures = 0;  // The server ended a healthy stream: open a new one.
    } else {
      if (s.ok())
        s = result.streamed ? transport_status(result)
                            : receive_buffered(result, Json(), sent_session, answered);
      {
        std::lock_guard lock(mu_);
        if (!broken_.ok()) return;
      }
      if (++failures >= kMaxListenFailures) {
        HERMES_LOG_WARN("{}: giving up on the server's message stream: {}", options_.label,
                        s.ok() ? "no event stream" : s.message());
        return;
      }
    }
    if (stop_.wait_for(kListenRetry * (1 << failures))) return;
  }
}

Result<bool> HttpTransport::reauthorize(const HttpResult& result,
                                        const std::string& sent_authorization, int attempt) const {
  if (!options_.oauth || configured_authorization_ || result.streamed) return false;
  Result<bool> again =
      options_.oauth->answer_refusal(result.head, sent_authorization, attempt, stop_);
  if (again.ok()) return again;
  return Status(again.status().code(), options_.label + ": " + again.status().message());
}

void HttpTransport::mark_listener_opened() {
  std::lock_guard lock(mu_);
  listener_opened_ = true;
  wake_.notify_all();
}

Status HttpTransport::stream_limit_status(const std::string& parser_error,
                                          const HttpResult& result) const {
  if (!parser_error.empty())
    return Status::resource_exhausted(options_.label + ": " + parser_error);
  if (result.too_large) return Status::resource_exhausted(options_.label + ": " + result.error);
  return {};
}

Status HttpTransport::receive_event(const SseEvent& event, const Json& id, bool& answered) {
  const std::string_view data = trim_ascii(event.data);
  if (!event.has_data || data.empty()) return {};  // Priming events and keep-alives.
  if (data.size() > options_.max_message_bytes) {
    return Status::resource_exhausted(options_.label + " sent a message larger than " +
                                      std::to_string(options_.max_message_bytes) + " bytes");
  }
  Result<Json> message = parse_json_checked(data);
  if (!message.ok()) {
    // Too deep to read is hostile, not noise: it ends the stream like an oversized event.
    if (message.status().code() == StatusCode::kResourceExhausted) {
      return Status::resource_exhausted(options_.label + " sent " + message.status().message());
    }
    HERMES_LOG_WARN("{} sent an event that is not JSON, skipped: {}", options_.label,
                    excerpt(data));
    return {};
  }
  deliver(*message, id, answered);
  return {};
}

Status HttpTransport::receive_buffered(const HttpResult& result, const Json& id, bool sent_session,
                                       bool& answered) {
  if (result.head.status == 0 || result.failure != TransportFailure::kNone ||
      !result.error.empty()) {
    return transport_status(result);
  }
  const int status = result.head.status;
  if (status == 404 && sent_session) {
    Status expired = Status::unavailable(options_.label +
                                         " no longer knows this session (HTTP 404); reconnecting");
    report_closed(expired);
    return expired;
  }
  const std::optional<Json> message =
      trim_ascii(result.body).empty() ? std::nullopt : parse_json(result.body);
  if (status >= 200 && status < 300) {
    if (trim_ascii(result.body).empty()) return {};  // 202 Accepted.
    if (result.body.size() > options_.max_message_bytes) {
      return Status::resource_exhausted(options_.label + " sent a message larger than " +
                                        std::to_string(options_.max_message_bytes) + " bytes");
    }
    if (!message && json_nesting_exceeds(result.body)) {
      return Status::resource_exhausted(options_.label + " sent " + json_too_deep_message());
    }
    if (!message) {
      return Status::failed_precondition(
          options_.label + " answered with a body that is not JSON: " + excerpt(result.body));
    }
    deliver(*message, id, answered);
    return {};
  }
  // An error status whose body is the JSON-RPC error answer says the most.
  if (message && !id.is_null() && is_response(*message) && same_id((*message)["id"], id)) {
    deliver(*message, id, answered);
    return {};
  }
  return http_error(result);
}

void HttpTransport::deliver(const Json& message, const Json& id, bool& answered) {
  if (message.is_array()) {  // A batch (protocol 2025-03-26).
    for (const Json& each : message) deliver(each, id, answered);
    return;
  }
  if (!id.is_null() && is_response(message) && same_id(message["id"], id)) answered = true;
  if (handlers_.on_message) handlers_.on_message(message);
}

Status HttpTransport::http_error(const HttpResult& result) const {
  const int status = result.head.status;
  std::string what = options_.label + " answered HTTP " + std::to_string(status);
  if (!trim_ascii(result.body).empty()) what += ": " + excerpt(result.body);
  if (status == 401 || status == 403) return Status::permission_denied(std::move(what));
  if (status == 408 || status == 429 || status >= 500) return Status::unavailable(std::move(what));
  return Status::failed_precondition(std::move(what));
}

Status HttpTransport::transport_status(const HttpResult& result) {
  const std::string why = result.error.empty() ? "no response" : result.error;
  switch (result.failure) {
    case TransportFailure::kTimeout:
      return Status::deadline_exceeded(options_.label + ": " + why);
    case TransportFailure::kConnect: {
      // Nobody listens at the url: the server is down, and the connection layer should
      // treat it as gone (and retry with backoff) rather than fail call after call.
      Status down = Status::unavailable(options_.label + " could not be reached at " +
                                        options_.url + ": " + why);
      report_closed(down);
      return down;
    }
    case TransportFailure::kSsl:
    case TransportFailure::kDisconnect:
      return Status::unavailable(options_.label + " dropped the connection: " + why);
    case TransportFailure::kNone:
      break;
  }
  return Status::resource_exhausted(options_.label + ": " + why);
}

void HttpTransport::report_closed(Status reason) {
  {
    std::lock_guard lock(mu_);
    if (broken_.ok()) broken_ = reason;
    session_id_.clear();  // Gone with the session: nothing to end on close().
  }
  if (closing() || reported_closed_.exchange(true)) return;
  HERMES_LOG_WARN("{}", reason.message());
  if (handlers_.on_closed) handlers_.on_closed(std::move(reason));
}

Status HttpTransport::end_session() {
  bool sent_session = false;
  HttpRequest request;
  request.url = options_.url;
  request.headers = request_headers(kAcceptBoth, &sent_session);
  if (!sent_session) return {};
  request.timeouts = {kDeleteTimeout, kDeleteTimeout, kDeleteTimeout, kDeleteTimeout};
  HttpResult result = HttpClient::shared().send(HttpMethod::kDelete, request, CancelToken());
  // 405: the server does not let clients end sessions; it will expire it itself.
  if (result.failure == TransportFailure::kNone && result.head.status < 400) return {};
  if (result.head.status == 405) return {};
  return Status::unavailable(
      options_.label + ": ending the session failed: " +
      (result.error.empty() ? std::to_string(result.head.status) : result.error));
}

void HttpTransport::close() {
  std::lock_guard lifecycle(lifecycle_mu_);
  if (!started_ || closed_) return;
  closed_ = true;
  {
    std::lock_guard lock(mu_);
    closing_ = true;
    wake_.notify_all();
  }
  stop_.cancel();
  if (dispatcher_.joinable()) dispatcher_.join();
  if (listener_.joinable()) listener_.join();
  if (Status s = end_session(); !s.ok()) HERMES_LOG_DEBUG("{}", s.message());
}

}  // namespace hermes::internal
