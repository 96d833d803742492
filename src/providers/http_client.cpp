#include "providers/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <mutex>
#include <utility>

#include "common/text_utils.hpp"
#include "hermes/version.hpp"
#include "providers/io_loop.hpp"

namespace hermes::internal {
namespace {

using Clock = std::chrono::steady_clock;

// How often the transfer loop wakes to look at the cancel token and the deadlines; the
// bound on how late a cancellation is noticed.
constexpr int kPollIntervalMs = 25;
// Handles kept for reuse. Each keeps its own connections alive; more concurrent calls
// than this simply open fresh connections.
constexpr std::size_t kMaxIdleSessions = 16;
// The header lines of one response, together: real responses carry a few KiB. Below
// libcurl's own bound (300 KB since 8.3), so that older versions, which have none, stop a
// server sending headers without end at the same point.
constexpr std::size_t kMaxHeaderBytes = std::size_t{256} << 10;

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

// The pool's parts are not in the anonymous namespace: HttpClient::Pool, which has
// external linkage, holds them.
namespace curl_pool {

// DNS answers and TLS sessions shared by every handle, behind one mutex per kind of data.
class SharedCaches {
 public:
  SharedCaches() : share_(curl_share_init()) {
    curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, &SharedCaches::lock);
    curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, &SharedCaches::unlock);
    curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  CURLSH* handle() const { return share_; }

 private:
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* self) {
    static_cast<SharedCaches*>(self)->mutex_for(data).lock();
  }
  static void unlock(CURL*, curl_lock_data data, void* self) {
    static_cast<SharedCaches*>(self)->mutex_for(data).unlock();
  }
  std::mutex& mutex_for(curl_lock_data data) {
    const auto index = static_cast<std::size_t>(data);
    return mutexes_[index < mutexes_.size() ? index : 0];
  }

  CURLSH* share_;
  std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes_;
};

// One multi handle with one easy handle. The multi handle owns the connection cache,
// so a session that goes back to the pool keeps its connections open for the next call.
struct Session {
  CURLM* multi = nullptr;
  CURL* easy = nullptr;
};

void destroy(Session& session) {
  if (session.easy) curl_easy_cleanup(session.easy);
  if (session.multi) curl_multi_cleanup(session.multi);
  session = {};
}

}  // namespace curl_pool

using curl_pool::Session;

struct HttpClient::Pool {
  curl_pool::SharedCaches caches;
  std::mutex mutex;
  std::vector<Session> idle;  // Guarded by mutex. The most recently used is at the back.

  Session acquire() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!idle.empty()) {
        Session session = idle.back();
        idle.pop_back();
        return session;
      }
    }
    return Session{curl_multi_init(), curl_easy_init()};
  }

  void release(Session session) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (idle.size() < kMaxIdleSessions) {
        idle.push_back(session);
        return;
      }
    }
    destroy(session);
  }
};

namespace {

// The state of one transfer, shared with libcurl's callbacks.
class Transfer {
 public:
  Transfer(const HttpRequest& request, const CancelToken& cancel, const HttpBodySink* sink)
      : request_(request), cancel_(cancel), sink_(sink), start_(Clock::now()) {}

  // libcurl callbacks.
  static size_t on_header(char* data, size_t size, size_t count, void* self) {
    return static_cast<Transfer*>(self)->header({data, size * count}) ? size * count : 0;
  }
  static size_t on_body(char* data, size_t size, size_t count, void* self) {
    return static_cast<Transfer*>(self)->body({data, size * count}) ? size * count : 0;
  }
  static int on_progress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<Transfer*>(self)->should_abort() ? 1 : 0;
  }

  // True when the cancel token or a deadline says the transfer must stop now. The
  // first verdict sticks.
  bool should_abort();

  HttpResult finish(CURLcode code, const char* curl_error);

 private:
  bool header(std::string_view line);
  bool body(std::string_view bytes);
  void note_byte() {
    const auto now = Clock::now();
    if (!first_byte_) first_byte_ = now;
    last_byte_ = now;
  }
  void finish_head();
  // Ends the transfer from a callback for a reason of hermes' own; returns false for
  // libcurl.
  bool stop(std::string why);
  bool too_large(const char* what, std::size_t limit);
  bool abort_with_timeout(std::string what, std::chrono::milliseconds limit);

  const HttpRequest& request_;
  const CancelToken& cancel_;
  const HttpBodySink* sink_;
  const Clock::time_point start_;
  std::optional<Clock::time_point> first_byte_;
  Clock::time_point last_byte_;

  HttpResult result_;
  std::optional<double> retry_after_ms_;
  std::optional<double> retry_after_;
  std::string request_id_fallback_;  // request-id, used when x-request-id is absent.
  std::size_t streamed_bytes_ = 0;
  std::size_t header_bytes_ = 0;  // Of the current response's header lines.
  bool head_done_ = false;
  bool sink_failed_ = false;
  bool aborted_ = false;
};

bool Transfer::header(std::string_view line) {
  note_byte();
  if (line.substr(0, 5) == "HTTP/") {
    // A new status line: an interim 1xx response or a new response after it.
    result_.head = {};
    header_bytes_ = 0;
    retry_after_ms_.reset();
    retry_after_.reset();
    request_id_fallback_.clear();
    const std::size_t space = line.find(' ');
    if (space != std::string_view::npos) {
      int status = 0;
      const char* begin = line.data() + space + 1;
      std::from_chars(begin, line.data() + line.size(), status);
      result_.head.status = status;
    }
    return true;
  }
  header_bytes_ += line.size();
  if (header_bytes_ > kMaxHeaderBytes) return too_large("headers", kMaxHeaderBytes);
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return true;
  const std::string_view name = trim_ascii(line.substr(0, colon));
  const std::string_view value = trim_ascii(line.substr(colon + 1));
  result_.head.headers.emplace_back(name, value);
  if (iequals(name, "content-type")) {
    result_.head.content_type.assign(value);
  } else if (iequals(name, "x-request-id")) {
    result_.head.request_id.assign(value);
  } else if (iequals(name, "request-id")) {
    request_id_fallback_.assign(value);
  } else if (iequals(name, "retry-after-ms")) {
    if (auto ms = parse_number(value); ms && *ms >= 0) retry_after_ms_ = *ms / 1000.0;
  } else if (iequals(name, "retry-after")) {
    retry_after_ = parse_retry_after(value, static_cast<long long>(std::time(nullptr)));
  }
  return true;
}

void Transfer::finish_head() {
  if (head_done_) return;
  head_done_ = true;
  HttpResponseHead& head = result_.head;
  if (head.request_id.empty()) head.request_id = request_id_fallback_;
  head.retry_after_seconds = retry_after_ms_ ? retry_after_ms_ : retry_after_;
  if (!sink_ || !sink_->wants_stream || !sink_->on_data) return;
  // Exceptions must not unwind through libcurl's C frames.
  try {
    result_.streamed = sink_->wants_stream(head);
  } catch (...) {
    sink_failed_ = true;
  }
}

bool Transfer::body(std::string_view bytes) {
  note_byte();
  finish_head();
  if (sink_failed_) return stop("the body sink threw an exception");
  if (result_.streamed) {
    streamed_bytes_ += bytes.size();
    if (streamed_bytes_ > request_.max_streamed_body_bytes) {
      return too_large("stream", request_.max_streamed_body_bytes);
    }
    bool more = false;
    try {
      more = sink_->on_data(bytes);
    } catch (...) {
      return stop("the body sink threw an exception");
    }
    if (more) return true;
    result_.stopped = true;
    return false;
  }
  if (result_.body.size() + bytes.size() > request_.max_buffered_body_bytes) {
    return too_large("body", request_.max_buffered_body_bytes);
  }
  result_.body.append(bytes);
  return true;
}

bool Transfer::too_large(const char* what, std::size_t limit) {
  result_.too_large = true;
  // Worded without "exceeds the limit", which the error classifier reads as a context
  // overflow.
  return stop(std::string("the response ") + what + " reached " + byte_size_text(limit) +
              ", more than hermes reads of one response");
}

bool Transfer::stop(std::string why) {
  result_.stopped = true;
  result_.error = std::move(why);
  return false;
}

bool Transfer::abort_with_timeout(std::string what, std::chrono::milliseconds limit) {
  aborted_ = true;
  result_.failure = TransportFailure::kTimeout;
  result_.error = what + " timed out after " + std::to_string(limit.count()) + " ms";
  return true;
}

bool Transfer::should_abort() {
  if (aborted_) return true;
  if (cancel_.cancelled()) {
    aborted_ = true;
    result_.cancelled = true;
    return true;
  }
  const auto now = Clock::now();
  const HttpTimeouts& limits = request_.timeouts;
  if (limits.total.count() > 0 && now - start_ > limits.total) {
    return abort_with_timeout("the request", limits.total);
  }
  if (!first_byte_) {
    if (limits.first_byte.count() > 0 && now - start_ > limits.first_byte) {
      return abort_with_timeout("waiting for the first response byte", limits.first_byte);
    }
  } else if (limits.idle.count() > 0 && now - last_byte_ > limits.idle) {
    return abort_with_timeout("waiting for more of the response (idle)", limits.idle);
  }
  return false;
}

TransportFailure failure_of(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure::kTimeout;
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
      return TransportFailure::kConnect;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_USE_SSL_FAILED:
      return TransportFailure::kSsl;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_READ_ERROR:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_WEIRD_SERVER_REPLY:
      return TransportFailure::kDisconnect;
    default:
      // A malformed URL, an unsupported scheme and the like: nothing was reached.
      return TransportFailure::kConnect;
  }
}

HttpResult Transfer::finish(CURLcode code, const char* curl_error) {
  finish_head();
  if (aborted_ || result_.stopped || code == CURLE_OK) return std::move(result_);
  result_.failure = failure_of(code);
  result_.error = curl_error && *curl_error ? curl_error : curl_easy_strerror(code);
  return std::move(result_);
}

bool names_content_type(const std::vector<std::string>& headers) {
  constexpr std::string_view kName = "content-type:";
  return std::any_of(headers.begin(), headers.end(), [&](const std::string& line) {
    return iequals(std::string_view(line).substr(0, kName.size()), kName);
  });
}

curl_slist* header_list(HttpMethod method, const HttpRequest& request) {
  curl_slist* list = nullptr;
  if (method == HttpMethod::kPost && !names_content_type(request.headers)) {
    list = curl_slist_append(list, "Content-Type: application/json");
  }
  // libcurl's Expect: 100-continue on large bodies costs a round trip, and some proxies
  // mishandle it.
  list = curl_slist_append(list, "Expect:");
  for (const std::string& header : request.headers) list = curl_slist_append(list, header.c_str());
  return list;
}

void set_body(CURL* easy, const HttpRequest& request) {
  curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
}

void set_method(CURL* easy, HttpMethod method, const HttpRequest& request) {
  switch (method) {
    case HttpMethod::kGet:
      curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
      return;
    case HttpMethod::kPost:
      curl_easy_setopt(easy, CURLOPT_POST, 1L);
      set_body(easy, request);
      return;
    case HttpMethod::kDelete:
      // A custom verb over a GET (no body) or a POST (with one), so the response body
      // is still read.
      if (request.body.empty()) {
        curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
      } else {
        curl_easy_setopt(easy, CURLOPT_POST, 1L);
        set_body(easy, request);
      }
      curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, "DELETE");
      return;
  }
}

void configure(CURL* easy, CURLSH* share, HttpMethod method, const HttpRequest& request,
               curl_slist* headers, Transfer& transfer, char* error_buffer) {
  curl_easy_reset(easy);
  curl_easy_setopt(easy, CURLOPT_SHARE, share);
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
  set_method(easy, method, request);
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "hermes/" HERMES_VERSION_STRING);
  // Signals cannot be used for DNS timeouts in a multi-threaded process.
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  // Long quiet reasoning phases must not let NAT boxes forget the connection.
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPIDLE, 60L);
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPINTVL, 30L);
  // Zero leaves libcurl's own connect limit (300 s): a connect cannot wait forever.
  if (request.timeouts.connect.count() > 0) {
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(request.timeouts.connect.count()));
  }
  if (request.accept_compressed) curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Transfer::on_body);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &Transfer::on_progress);
  curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &transfer);
}

// The result of the finished transfer, if it has finished.
std::optional<CURLcode> finished_code(CURLM* multi) {
  int queued = 0;
  while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
    if (message->msg == CURLMSG_DONE) return message->data.result;
  }
  return std::nullopt;
}

// Drives the transfer until it ends. The progress callback alone is not enough for the
// 100 ms cancellation bound (libcurl may call it only once a second on a quiet
// connection), so the loop itself wakes every kPollIntervalMs to check.
CURLcode run(CURLM* multi, Transfer& transfer, std::string& multi_error) {
  while (true) {
    int running = 0;
    CURLMcode status = curl_multi_perform(multi, &running);
    if (status == CURLM_OK) {
      if (auto code = finished_code(multi)) return *code;
      if (running == 0) return CURLE_OK;
      if (transfer.should_abort()) return CURLE_ABORTED_BY_CALLBACK;
      status = curl_multi_poll(multi, nullptr, 0, kPollIntervalMs, nullptr);
    }
    if (status != CURLM_OK) {
      multi_error = curl_multi_strerror(status);
      return CURLE_FAILED_INIT;
    }
  }
}

}  // namespace

HttpClient::HttpClient() {
  // curl_global_init is not thread-safe before 7.84; shared() runs this exactly once.
  curl_global_init(CURL_GLOBAL_DEFAULT);
  pool_ = new Pool();
}

HttpClient& HttpClient::shared() {
  // Leaked on purpose: calls from other threads may outlive static destruction.
  static HttpClient* client = new HttpClient();
  return *client;
}

namespace {

HttpResult no_handle() {
  HttpResult failed;
  failed.failure = TransportFailure::kConnect;
  failed.error = "libcurl could not create a transfer handle";
  return failed;
}

// One transfer on `easy`: configured here, run by `drive` (which returns the transfer's
// code and may set a multi handle's error), and read back.
template <typename Drive>
HttpResult transfer_on(CURL* easy, CURLSH* share, HttpMethod method, const HttpRequest& request,
                       const CancelToken& cancel, const HttpBodySink* sink, Drive&& drive) {
  Transfer transfer(request, cancel, sink);
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(header_list(method, request),
                                                                      &curl_slist_free_all);
  char error_buffer[CURL_ERROR_SIZE] = {};
  configure(easy, share, method, request, headers.get(), transfer, error_buffer);
  std::string multi_error;
  const CURLcode code = drive(transfer, multi_error);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, nullptr);
  return transfer.finish(code, multi_error.empty() ? error_buffer : multi_error.c_str());
}

}  // namespace

HttpResult HttpClient::send(HttpMethod method, const HttpRequest& request,
                            const CancelToken& cancel, const HttpBodySink* sink) {
  if (IoLoop* loop = IoLoop::current()) return send_on_loop(*loop, method, request, cancel, sink);
  Session session = pool_->acquire();
  if (!session.multi || !session.easy) {
    destroy(session);
    return no_handle();
  }
  HttpResult result = transfer_on(session.easy, pool_->caches.handle(), method, request, cancel,
                                  sink, [&](Transfer& transfer, std::string& multi_error) {
                                    curl_multi_add_handle(session.multi, session.easy);
                                    const CURLcode code = run(session.multi, transfer, multi_error);
                                    // Removing a handle mid-transfer closes its connection; a
                                    // finished one stays cached.
                                    curl_multi_remove_handle(session.multi, session.easy);
                                    return code;
                                  });
  pool_->release(session);
  return result;
}

// A turn on a runtime: the transfer joins its I/O thread's multi handle and the turn's
// fiber parks until it ends, leaving the thread to the other turns.
HttpResult HttpClient::send_on_loop(IoLoop& loop, HttpMethod method, const HttpRequest& request,
                                    const CancelToken& cancel, const HttpBodySink* sink) {
  CURL* easy = loop.take_easy();
  if (!easy) return no_handle();
  HttpResult result =
      transfer_on(easy, pool_->caches.handle(), method, request, cancel, sink,
                  [&](Transfer& transfer, std::string& multi_error) {
                    return loop.perform(
                        easy, [&transfer] { return transfer.should_abort(); }, multi_error);
                  });
  loop.give_back_easy(easy);
  return result;
}

std::optional<std::string_view> HttpResponseHead::find_header(std::string_view name) const {
  for (const auto& [header_name, value] : headers) {
    if (iequals(header_name, name)) return std::string_view(value);
  }
  return std::nullopt;
}

std::optional<double> parse_retry_after(std::string_view value, long long now_unix) {
  value = trim_ascii(value);
  if (value.empty()) return std::nullopt;
  if (auto seconds = parse_number(value)) {
    if (*seconds < 0) return std::nullopt;
    return *seconds;
  }
  const std::string text(value);
  const time_t when = curl_getdate(text.c_str(), nullptr);
  if (when == -1) return std::nullopt;
  return static_cast<double>(std::max<long long>(0, static_cast<long long>(when) - now_unix));
}

}  // namespace hermes::internal
