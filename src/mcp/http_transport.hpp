// The Streamable HTTP transport (MCP 2025-03-26 and later). Every message is POSTed to
// one endpoint. A request is answered in its POST's response, either as a JSON body or as
// an SSE stream that may carry the server's notifications and requests before the answer;
// notifications and responses are acknowledged with 202. A GET on the endpoint opens a
// stream for messages the server sends on its own. The session id the server hands out
// with the initialize answer goes with every later request, and a DELETE ends it.
//
// A request's stream that ends before its answer is resumed (SEP-1699): after the delay
// the server asked for with `retry`, a GET with Last-Event-ID picks it up where it broke.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "hermes/cancel.hpp"
#include "mcp/oauth_session.hpp"
#include "mcp/transport.hpp"
#include "providers/http_client.hpp"

namespace hermes::internal {

struct SseEvent;

struct HttpTransportOptions {
  std::string label;  // "MCP server 'search'", for messages.
  std::string url;
  std::map<std::string, std::string> headers;  // Sent with every request.
  // Reaching the server, and the whole of each notification's exchange.
  std::chrono::milliseconds connect_timeout{60'000};
  // The longest wait for the first byte of an answer, and the longest silence inside an
  // answer's stream. The JSON-RPC session's own deadlines are normally shorter: a call
  // it gives up on has its POST aborted.
  std::chrono::milliseconds response_timeout{300'000};
  // The longest silence on the GET stream of the server's own messages (keep-alive
  // comments count as traffic). A quiet stream is normal, so it is then closed and opened
  // again, which also frees a connection a server or proxy dropped without a word.
  // Five minutes, as the reference SDKs' read timeout of that stream.
  std::chrono::milliseconds listen_idle_timeout{300'000};
  // The largest message, and so the largest event of an event stream; a longer one ends
  // the stream it came on with ResourceExhausted. A whole stream is cut off at
  // kMaxStreamedBodyBytes (http_client.hpp), a JSON body at kMaxBufferedBodyBytes.
  std::size_t max_message_bytes = 16u << 20;
  // Set: requests carry its token, and a 401 (or a 403 asking for more scope) is answered
  // by authorizing and sending the request again. Shared by the server's connections.
  std::shared_ptr<OAuthSession> oauth;
};

// Thread-safety: as McpTransport. send() only queues: one dispatcher thread posts the
// queue in order, each request on a thread of its own so that a long call does not hold
// up the others, and every notification or response before the next message (so that
// notifications/initialized reaches the server before the requests that follow it).
class HttpTransport final : public McpTransport {
 public:
  explicit HttpTransport(HttpTransportOptions options);
  ~HttpTransport() override;

  Status start(Handlers handlers) override;
  Status send(const Json& message) override;
  void close() override;
  void set_protocol_version(const std::string& version) override;

 private:
  struct Outgoing {
    std::string body;
    Json request_id;                // Set for a request.
    Json cancelled_id;              // Set for notifications/cancelled: the request it gives up.
    bool starts_listening = false;  // notifications/initialized: open the GET stream after.
  };
  struct Exchange;  // One request's POST.
  // Where a request's event stream got to, for picking it up again.
  struct StreamCursor {
    std::string last_event_id;  // Empty: the server gave no ids, so it cannot resume.
    std::optional<std::chrono::milliseconds> retry;  // The server's reconnection delay.
  };
  // One answer that may have been an event stream, read to its end.
  struct StreamRead {
    HttpResult result;
    Status stream_error;  // An event the stream could not carry; it ended the transfer.
  };

  void dispatch();
  void start_request(Outgoing message);
  void post_request(Exchange& exchange);
  // Sends `request` and reads its answer: a stream's events are delivered as they come
  // (answering `id`, null for none) and `cursor` follows them. `until_answered` stops
  // reading once the answer came, for streams the server keeps open after it.
  StreamRead read_answer(HttpMethod method, const HttpRequest& request, const CancelToken& cancel,
                         const Json& id, StreamCursor& cursor, bool& answered, bool until_answered);
  // What an answer read by read_answer() means for the request `id`.
  Status request_outcome(const StreamRead& read, const Json& id, bool sent_session, bool& answered);
  // The stream broke off (ended, or its connection dropped) with nothing wrong in what
  // it carried, and the server gave event ids to resume it from.
  static bool resumable(const StreamRead& read, const StreamCursor& cursor);
  // Reopens the stream of an unanswered request with GETs until the answer arrives, the
  // attempts run out or the request is cancelled (which returns OK: its caller knows).
  Status resume_request(const Json& id, const CancelToken& cancel, StreamCursor& cursor,
                        bool& answered);
  void post_one_way(const Outgoing& message);
  void cancel_exchange(const Json& id);
  void reap_exchanges(bool all);
  void listen();
  // The GET stream answered (or failed to): requests held back for it may go.
  void mark_listener_opened();
  Status end_session();

  // Accept, session id, protocol version, the configured headers and the OAuth token;
  // `sent_session` tells whether a session id was among them, `sent_authorization` gets
  // the token's header line.
  std::vector<std::string> request_headers(const char* accept, bool* sent_session,
                                           std::string* sent_authorization = nullptr) const;
  // The answer to a request sent with `sent_authorization` refused its credentials: true
  // when a new token was obtained and the request should go again; an error when
  // authorizing failed.
  Result<bool> reauthorize(const HttpResult& result, const std::string& sent_authorization,
                           int attempt) const;
  void note_session_id(const HttpResponseHead& head);
  // The error that ends a stream which broke a size limit (`parser_error`, or the whole
  // stream's in `result`); OK when it did not.
  Status stream_limit_status(const std::string& parser_error, const HttpResult& result) const;
  // One SSE event of a POST's or the GET's stream. Sets `answered` when it carried the
  // answer to `id` (null for the GET stream); an error ends the stream.
  Status receive_event(const SseEvent& event, const Json& id, bool& answered);
  // A buffered response (JSON, 202, an error status or no response at all): what it
  // means for the request `id` (null for notifications and the GET).
  Status receive_buffered(const HttpResult& result, const Json& id, bool sent_session,
                          bool& answered);
  void deliver(const Json& message, const Json& id, bool& answered);
  Status http_error(const HttpResult& result) const;
  // The Status for a failure below HTTP. A server nobody listens for is reported closed.
  Status transport_status(const HttpResult& result);
  // The session is over (expired, or the server is gone): later sends fail with `reason`
  // and on_closed is called once.
  void report_closed(Status reason);
  bool closing() const { return closing_.load(); }

  const HttpTransportOptions options_;
  bool configured_authorization_ = false;  // The headers carry credentials of their own.
  Handlers handlers_;
  CancelToken stop_;  // Aborts every transfer in flight when the transport closes.

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Outgoing> queue_;
  std::string session_id_;
  std::string protocol_version_;
  Status broken_;  // Set once the session expired: sends fail with it.
  bool listener_opened_ = false;
  std::list<std::shared_ptr<Exchange>> exchanges_;  // Requests in flight (dispatcher only).

  std::atomic<bool> closing_{false};
  std::atomic<bool> reported_closed_{false};
  std::thread dispatcher_;
  std::thread listener_;
  std::mutex lifecycle_mu_;
  bool started_ = false;
  bool closed_ = false;
};

}  // namespace hermes::internal
