// The JSON-RPC 2.0 side of an MCP connection, independent of how bytes travel: request
// ids, the table of calls waiting for an answer (each with its own deadline and cancel
// token), notifications, and requests the server sends to us.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "hermes/cancel.hpp"
#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// JSON-RPC error codes the client produces or recognises.
inline constexpr int kJsonRpcMethodNotFound = -32601;
inline constexpr int kJsonRpcInvalidParams = -32602;

// Thread-safety: every method may be called from any thread. call() blocks its caller
// only; receive() is normally called by the transport's reader thread and runs the
// handlers on it, so handlers must not block on another call().
class JsonRpcSession {
 public:
  // Hands one message to the transport.
  using SendFn = std::function<Status(const Json& message)>;
  // A notification from the server (other than progress, which goes to its call).
  using NotificationFn = std::function<void(const std::string& method, const Json& params)>;
  // A request from the server: the result to answer with, or a Status whose message is
  // answered as a JSON-RPC error (kUnimplemented: method not found).
  using RequestFn = std::function<Result<Json>(const std::string& method, const Json& params)>;
  // The params of a notifications/progress for a call.
  using ProgressFn = std::function<void(const Json& params)>;

  struct CallOptions {
    // How long to wait for the answer. Each progress notification restarts the clock.
    std::chrono::milliseconds timeout{60'000};
    CancelToken cancel;
    // Set: the request carries _meta.progressToken and progress is reported here (on
    // the receiving thread).
    ProgressFn on_progress;
  };

  // `label` names the peer in error messages ("MCP server 'files'").
  JsonRpcSession(std::string label, SendFn send);
  ~JsonRpcSession();
  JsonRpcSession(const JsonRpcSession&) = delete;
  JsonRpcSession& operator=(const JsonRpcSession&) = delete;

  void set_notification_handler(NotificationFn handler);
  void set_request_handler(RequestFn handler);

  // Sends a request and waits for its answer: the result member, or a Status for an
  // error answer, a timeout (DeadlineExceeded), cancellation (Cancelled) or a closed
  // session (the close reason). A call that times out or is cancelled is followed by
  // notifications/cancelled so the server can stop working on it.
  Result<Json> call(const std::string& method, Json params, const CallOptions& options);

  // Sends a notification.
  Status notify(const std::string& method, Json params);

  // Dispatches one message from the peer. Messages that are not JSON-RPC are logged and
  // ignored.
  void receive(const Json& message);

  // Fails the waiting call with request id `id` (as sent) with `reason`; nothing when no
  // such call waits.
  void fail_request(const Json& id, Status reason);

  // Fails every waiting call, and every later one, with `reason`.
  void close(Status reason);

 private:
  struct Pending;

  void receive_response(const Json& message);
  void receive_request(const Json& message);
  void receive_notification(const std::string& method, const Json& params);
  void deliver_progress(const Json& params);
  std::shared_ptr<Pending> take_pending(int64_t id);
  Result<Json> wait(int64_t id, const std::shared_ptr<Pending>& pending, const std::string& method,
                    const CallOptions& options);
  void abandon(int64_t id, const std::string& reason);

  const std::string label_;
  const SendFn send_;
  std::mutex mu_;
  NotificationFn on_notification_;
  RequestFn on_request_;
  std::map<int64_t, std::shared_ptr<Pending>> pending_;
  int64_t next_id_ = 1;
  Status closed_;  // Non-ok once closed.
};

// The Status for a JSON-RPC error object {"code", "message", "data"?}.
Status status_from_rpc_error(const Json& error);

}  // namespace hermes::internal
