#include "mcp/json_rpc_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "common/json_text.hpp"
#include "common/tracer.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

using Clock = std::chrono::steady_clock;

// Waiting slices short enough that an interrupt is noticed within the 100 ms budget.
constexpr std::chrono::milliseconds kCancelPollInterval{50};

std::string brief(const Json& message) {
  std::string text = dump_json(message);
  if (text.size() > 200) text = text.substr(0, 200) + "...";
  return text;
}

// Ids we send are integers; a peer may echo them back as strings.
std::optional<int64_t> id_of(const Json& id) {
  if (id.is_number_integer()) return id.get<int64_t>();
  if (id.is_string()) {
    const std::string& s = id.get_ref<const std::string&>();
    char* end = nullptr;
    long long value = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end == s.c_str() + s.size()) return value;
  }
  return std::nullopt;
}

Json error_object(int code, const std::string& message) {
  return Json{{"code", code}, {"message", message}};
}

}  // namespace

struct JsonRpcSession::Pending {
  std::condition_variable cv;
  bool done = false;
  Result<Json> outcome{Status::internal("unanswered")};
  Clock::time_point deadline;
  std::chrono::milliseconds timeout{0};
  ProgressFn on_progress;
};

Status status_from_rpc_error(const Json& error) {
  int code = 0;
  std::string message = "unknown error";
  if (error.is_object()) {
    if (auto it = error.find("code"); it != error.end() && it->is_number_integer())
      code = it->get<int>();
    if (auto it = error.find("message"); it != error.end() && it->is_string())
      message = it->get<std::string>();
  }
  std::string text = "MCP error " + std::to_string(code) + ": " + message;
  if (code == kJsonRpcMethodNotFound) return Status::unimplemented(std::move(text));
  if (code == kJsonRpcInvalidParams) return Status::invalid_argument(std::move(text));
  return Status::failed_precondition(std::move(text));
}

JsonRpcSession::JsonRpcSession(std::string label, SendFn send)
    : label_(std::move(label)), send_(std::move(send)) {}

JsonRpcSession::~JsonRpcSession() {
  close(Status::cancelled(label_ + ": session destroyed"));
}

void JsonRpcSession::set_notification_handler(NotificationFn handler) {
  std::lock_guard lock(mu_);
  on_notification_ = std::move(handler);
}

void JsonRpcSession::set_request_handler(RequestFn handler) {
  std::lock_guard lock(mu_);
  on_request_ = std::move(handler);
}

Result<Json> JsonRpcSession::call(const std::string& method, Json params,
                                  const CallOptions& options) {
  auto pending = std::make_shared<Pending>();
  pending->timeout = options.timeout;
  pending->deadline = Clock::now() + options.timeout;
  pending->on_progress = options.on_progress;
  int64_t id = 0;
  {
    std::lock_guard lock(mu_);
    if (!closed_.ok()) return closed_;
    id = next_id_++;
    pending_[id] = pending;
  }
  if (options.on_progress) {
    if (!params.is_object()) params = Json::object();
    params["_meta"]["progressToken"] = id;
  }
  // A request made inside a traced tool call (or turn) is a client span of its own,
  // named the MCP conventions' way: "tools/call <tool>".
  ActiveSpan span;
  if (current_span()) {
    std::string target;
    if (params.is_object() && params.contains("name") && params["name"].is_string()) {
      target = params["name"].get<std::string>();
    }
    span = ActiveSpan(current_span(), target.empty() ? method : method + " " + target,
                      SpanKind::kClient,
                      {{"mcp.method.name", method},
                       {"jsonrpc.request.id", std::to_string(id)},
                       {"hermes.mcp.server", label_}});
    if (!target.empty()) span.set("gen_ai.tool.name", target);
  }
  Json request{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = std::move(params);
  if (Status sent = send_(request); !sent.ok()) {
    take_pending(id);
    span.set_error("transport_error", sent.message());
    return sent;
  }
  Result<Json> answer = wait(id, pending, method, options);
  if (!answer.ok()) {
    span.set_error(
        answer.status().code() == StatusCode::kDeadlineExceeded ? "timeout" : "mcp_error",
        answer.status().message());
  }
  return answer;
}

Result<Json> JsonRpcSession::wait(int64_t id, const std::shared_ptr<Pending>& pending,
                                  const std::string& method, const CallOptions& options) {
  std::unique_lock lock(mu_);
  while (!pending->done) {
    if (options.cancel.cancelled()) {
      lock.unlock();
      abandon(id, "cancelled by the client");
      return Status::cancelled(label_ + ": '" + method + "' was cancelled");
    }
    const auto now = Clock::now();
    if (now >= pending->deadline) {
      lock.unlock();
      abandon(id, "timed out");
      const auto seconds = std::chrono::duration<double>(pending->timeout).count();
      return Status::deadline_exceeded(label_ + " did not answer '" + method + "' within " +
                                       fmt::format("{:g}", seconds) + " s");
    }
    pending->cv.wait_for(lock,
                         std::min<Clock::duration>(pending->deadline - now, kCancelPollInterval));
  }
  return std::move(pending->outcome);
}

void JsonRpcSession::abandon(int64_t id, const std::string& reason) {
  if (!take_pending(id)) return;  // Answered meanwhile; the answer is dropped.
  Status ignored = notify("notifications/cancelled", Json{{"requestId", id}, {"reason", reason}});
  (void)ignored;  // The connection may be gone; nothing more to do then.
}

Status JsonRpcSession::notify(const std::string& method, Json params) {
  {
    std::lock_guard lock(mu_);
    if (!closed_.ok()) return closed_;
  }
  Json message{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  return send_(message);
}

std::shared_ptr<JsonRpcSession::Pending> JsonRpcSession::take_pending(int64_t id) {
  std::lock_guard lock(mu_);
  auto it = pending_.find(id);
  if (it == pending_.end()) return nullptr;
  auto pending = std::move(it->second);
  pending_.erase(it);
  return pending;
}

void JsonRpcSession::receive(const Json& message) {
  if (!message.is_object()) {
    HERMES_LOG_WARN("{} sent a message that is not a JSON object, ignored: {}", label_,
                    brief(message));
    return;
  }
  auto method = message.find("method");
  if (method != message.end() && method->is_string()) {
    if (message.contains("id")) {
      receive_request(message);
    } else {
      auto params = message.find("params");
      receive_notification(method->get<std::string>(), params == message.end() ? Json() : *params);
    }
    return;
  }
  if (message.contains("id") && (message.contains("result") || message.contains("error"))) {
    receive_response(message);
    return;
  }
  HERMES_LOG_WARN("{} sent a message that is not JSON-RPC, ignored: {}", label_, brief(message));
}

void JsonRpcSession::receive_response(const Json& message) {
  auto id = id_of(message["id"]);
  std::shared_ptr<Pending> pending = id ? take_pending(*id) : nullptr;
  if (!pending) {
    HERMES_LOG_DEBUG("{} answered an unknown or abandoned request: {}", label_, brief(message));
    return;
  }
  std::lock_guard lock(mu_);
  if (auto error = message.find("error"); error != message.end()) {
    pending->outcome = status_from_rpc_error(*error);
  } else {
    pending->outcome = message["result"];
  }
  pending->done = true;
  pending->cv.notify_all();
}

void JsonRpcSession::receive_request(const Json& message) {
  const std::string method = message["method"].get<std::string>();
  const Json params = message.value("params", Json());
  Json reply{{"jsonrpc", "2.0"}, {"id", message["id"]}};
  RequestFn handler;
  {
    std::lock_guard lock(mu_);
    handler = on_request_;
  }
  Result<Json> answer = Status::unimplemented("Method not found: " + method);
  if (method == "ping") {
    answer = Json::object();
  } else if (handler) {
    answer = handler(method, params);
  }
  if (answer.ok()) {
    reply["result"] = std::move(*answer);
  } else {
    const Status& s = answer.status();
    const int code = s.code() == StatusCode::kUnimplemented     ? kJsonRpcMethodNotFound
                     : s.code() == StatusCode::kInvalidArgument ? kJsonRpcInvalidParams
                                                                : -32603;
    reply["error"] = error_object(code, s.message());
  }
  if (Status sent = send_(reply); !sent.ok()) {
    HERMES_LOG_WARN("{}: could not answer '{}': {}", label_, method, sent.to_string());
  }
}

void JsonRpcSession::receive_notification(const std::string& method, const Json& params) {
  if (method == "notifications/progress") {
    deliver_progress(params);
    return;
  }
  NotificationFn handler;
  {
    std::lock_guard lock(mu_);
    handler = on_notification_;
  }
  if (handler) handler(method, params);
}

void JsonRpcSession::deliver_progress(const Json& params) {
  if (!params.is_object() || !params.contains("progressToken")) return;
  auto token = id_of(params["progressToken"]);
  ProgressFn on_progress;
  {
    std::lock_guard lock(mu_);
    auto it = token ? pending_.find(*token) : pending_.end();
    if (it == pending_.end()) return;
    // Progress shows the server is working: the call's clock starts again.
    it->second->deadline = Clock::now() + it->second->timeout;
    on_progress = it->second->on_progress;
  }
  if (on_progress) on_progress(params);
}

void JsonRpcSession::fail_request(const Json& id, Status reason) {
  auto key = id_of(id);
  std::shared_ptr<Pending> pending = key ? take_pending(*key) : nullptr;
  if (!pending) return;
  std::lock_guard lock(mu_);
  pending->outcome = std::move(reason);
  pending->done = true;
  pending->cv.notify_all();
}

void JsonRpcSession::close(Status reason) {
  if (reason.ok()) reason = Status::unavailable(label_ + ": connection closed");
  std::lock_guard lock(mu_);
  if (closed_.ok()) closed_ = reason;
  for (auto& [id, pending] : pending_) {
    pending->outcome = closed_;
    pending->done = true;
    pending->cv.notify_all();
  }
  pending_.clear();
}

}  // namespace hermes::internal
