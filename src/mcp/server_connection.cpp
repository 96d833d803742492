#include "mcp/server_connection.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/json_text.hpp"
#include "mcp/call_result.hpp"
#include "mcp/elicitation.hpp"
#include "mcp/http_transport.hpp"
#include "mcp/stdio_transport.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

using Clock = std::chrono::steady_clock;

// Destructive tools approved "for the session", kept in the agent's ToolSessionState.
struct SessionApprovals {
  std::mutex mu;
  std::set<std::string> keys;
};

std::string progress_text(const std::string& tool, const Json& params) {
  std::string text = tool + ": ";
  auto number = [](const Json& v) {
    return v.is_number() ? fmt::format("{:g}", v.get<double>()) : v.dump();
  };
  if (params.contains("progress")) text += number(params["progress"]);
  if (params.contains("total")) text += "/" + number(params["total"]);
  if (auto m = params.find("message"); m != params.end() && m->is_string())
    text += " " + m->get<std::string>();
  return text;
}

std::shared_ptr<OAuthSession> make_oauth(const McpServerConfig& config, const std::string& label) {
  if (!config.command.empty() || config.url.empty() || !config.oauth.enabled) return nullptr;
  OAuthSession::Options options;
  options.config = config.oauth;
  options.server_name = config.name;
  options.server_url = config.url;
  options.label = label;
  options.http_timeout = config.request_timeout;
  return std::make_shared<OAuthSession>(std::move(options));
}

// Retrying cannot help a configuration this build cannot use, a bad one, or credentials
// the server refuses (and trying again would ask the user to authorize again and again).
bool retry_cannot_help(const Status& s) {
  return s.code() == StatusCode::kUnimplemented || s.code() == StatusCode::kInvalidArgument ||
         s.code() == StatusCode::kPermissionDenied;
}

// The wait before the next restart: the first backoff, doubled per failed attempt.
std::chrono::milliseconds backoff_after(const McpServerConfig& config, int attempts) {
  auto wait = config.restart_backoff;
  for (int i = 0; i < attempts && wait < config.max_restart_backoff; ++i) wait *= 2;
  return std::min(wait, config.max_restart_backoff);
}

}  // namespace

ServerConnection::ServerConnection(McpServerConfig config, std::shared_ptr<ToolRegistry> registry)
    : config_(std::move(config)),
      label_("MCP server '" + config_.name + "'"),
      registry_(std::move(registry)),
      oauth_(make_oauth(config_, label_)) {}

ServerConnection::~ServerConnection() {
  shutdown();
}

std::unique_ptr<McpTransport> ServerConnection::make_transport() const {
  if (config_.command.empty()) {
    HttpTransportOptions options;
    options.label = label_;
    options.url = config_.url;
    options.headers = config_.headers;
    options.connect_timeout = config_.connect_timeout;
    options.response_timeout = std::max(config_.call_timeout, config_.request_timeout);
    options.max_message_bytes = config_.max_message_bytes;
    options.oauth = oauth_;
    return std::make_unique<HttpTransport>(std::move(options));
  }
  StdioTransportOptions options;
  options.label = label_;
  options.process = {config_.command, config_.args, config_.env, config_.cwd,
                     config_.env_passthrough};
  options.max_message_bytes = config_.max_message_bytes;
  return std::make_unique<StdioTransport>(std::move(options));
}

Status ServerConnection::start() {
  Status first = connect_once();
  {
    std::lock_guard lock(mu_);
    if (!first.ok()) {
      last_error_ = first;
      next_attempt_ = Clock::now() + config_.restart_backoff;
      parked_ = retry_cannot_help(first);
    }
  }
  if (!first.ok()) HERMES_LOG_WARN("{}: {}", label_, first.message());
  supervisor_ = std::thread([this] { supervise(); });
  return first;
}

Status ServerConnection::connect_once() {
  std::lock_guard connect_lock(connect_mu_);
  uint64_t generation = 0;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return Status::cancelled(label_ + " is shutting down");
    generation = ++generation_;
    connection_lost_ = false;
  }
  McpClient::Options options;
  options.label = label_;
  options.connect_timeout = config_.connect_timeout;
  options.request_timeout = config_.request_timeout;
  if (config_.on_elicitation) {
    options.on_elicitation = [handler = config_.on_elicitation,
                              name = config_.name](const Json& params) {
      return answer_elicitation(handler, name, params);
    };
  }
  // Raw `this`: the callbacks run on the client's threads, which end before the client
  // is closed, and every client is closed before this object goes away.
  options.on_tools_changed = [this, generation] {
    std::lock_guard lock(mu_);
    if (generation != generation_) return;
    tools_changed_ = true;
    wake_.notify_all();
  };
  options.on_closed = [this, generation](Status reason) {
    std::lock_guard lock(mu_);
    if (generation != generation_) return;
    last_error_ = std::move(reason);
    connection_lost_ = true;
    wake_.notify_all();
  };
  auto connected = McpClient::connect(make_transport(), std::move(options));
  if (!connected.ok()) return connected.status();
  std::shared_ptr<McpClient> client = std::move(*connected);
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      client->close();
      return Status::cancelled(label_ + " is shutting down");
    }
    client_ = client;
    handshake_ = client->handshake();
    tools_changed_ = false;
    if (ever_connected_) ++restarts_;
    ever_connected_ = true;
    parked_ = false;
  }
  Status listed = refresh_tools(client);
  if (!listed.ok()) {
    {
      std::lock_guard lock(mu_);
      if (client_ == client) client_.reset();
    }
    client->close();
    return listed;
  }
  std::lock_guard lock(mu_);
  last_error_ = {};
  HERMES_LOG_INFO("{} connected ({} {}, protocol {}) with {} tools", label_, handshake_.server_name,
                  handshake_.server_version, handshake_.protocol_version, registered_.size());
  return {};
}

Status ServerConnection::refresh_tools(const std::shared_ptr<McpClient>& client) {
  Result<std::vector<Json>> listed = client->list_tools();
  if (!listed.ok())
    return Status(listed.status().code(), label_ + ": " + listed.status().message());
  sync_registry(select_tools(config_, *listed));
  return {};
}

ToolSpec ServerConnection::make_spec(const McpToolEntry& entry) {
  ToolSpec spec;
  spec.name = entry.name;
  spec.toolset = mcp_toolset_name(config_.name);
  spec.description = entry.description;
  spec.parameters = entry.parameters;
  spec.parallel_safe = config_.parallel_calls;
  spec.max_result_chars = kMcpResultBudgetChars;
  // A call bounds itself: it ends when the server has said nothing for call_timeout. Every
  // progress notification restarts that clock, so a long call that keeps reporting may
  // run past any fixed deadline the agent could set; an interrupt still ends it.
  spec.call_timeout = std::chrono::milliseconds(0);
  std::weak_ptr<ServerConnection> weak = weak_from_this();
  spec.handler = [weak, entry](const Json& arguments, ToolContext& context) -> Result<std::string> {
    auto self = weak.lock();
    if (!self) return Status::unavailable("the MCP server of '" + entry.name + "' was shut down");
    return self->call_tool(entry, arguments, context);
  };
  spec.check_available = [weak] {
    auto self = weak.lock();
    return self && self->connected();
  };
  // A flag read, not a probe: a server that went away takes its tools with it at once.
  spec.availability_ttl = std::chrono::seconds::zero();
  return spec;
}

void ServerConnection::sync_registry(const McpToolSelection& selection) {
  std::lock_guard registry_lock(registry_mu_);
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
  }
  std::set<std::string> now;
  std::vector<std::string> skipped = selection.skipped;
  for (const McpToolEntry& entry : selection.tools) {
    Status s = registry_->register_tool(make_spec(entry));
    if (!s.ok()) {
      skipped.push_back(entry.mcp_name + ": " + s.message());
      continue;
    }
    now.insert(entry.name);
  }
  for (const std::string& gone : registered_) {
    if (now.count(gone) == 0) (void)registry_->unregister_tool(gone);
  }
  for (const std::string& reason : skipped) HERMES_LOG_WARN("{}: tool skipped: {}", label_, reason);
  std::lock_guard lock(mu_);
  registered_ = std::move(now);
  skipped_ = std::move(skipped);
}

void ServerConnection::supervise() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    if (connection_lost_) {
      handle_lost_connection(lock);
    } else if (tools_changed_ && client_) {
      tools_changed_ = false;
      auto client = client_;
      lock.unlock();
      if (Status s = refresh_tools(client); !s.ok()) HERMES_LOG_WARN("{}", s.message());
      lock.lock();
    } else if (!client_ && !parked_) {
      if (Clock::now() >= next_attempt_) {
        try_restart(lock);
      } else {
        wake_.wait_until(lock, next_attempt_);
      }
    } else {
      wake_.wait(lock);
    }
  }
}

void ServerConnection::handle_lost_connection(std::unique_lock<std::mutex>& lock) {
  connection_lost_ = false;
  std::shared_ptr<McpClient> old = std::move(client_);
  // Without a client the loss happened inside a connection attempt, which has already
  // scheduled the next one.
  if (!old) return;
  if (attempts_ >= config_.max_restarts) {
    parked_ = true;
    HERMES_LOG_ERROR("{} is down and was not restarted after {} attempts: {}", label_, attempts_,
                     last_error_.message());
  } else {
    next_attempt_ = Clock::now() + backoff_after(config_, attempts_);
  }
  lock.unlock();
  old->close();
  lock.lock();
}

void ServerConnection::try_restart(std::unique_lock<std::mutex>& lock) {
  ++attempts_;
  lock.unlock();
  HERMES_LOG_INFO("{}: reconnecting (attempt {})", label_, attempts_);
  Status s = connect_once();
  lock.lock();
  if (s.ok() || stopping_) return;
  last_error_ = s;
  if (attempts_ >= config_.max_restarts || retry_cannot_help(s)) {
    parked_ = true;
    HERMES_LOG_ERROR("{} could not be restarted after {} attempts: {}", label_, attempts_,
                     s.message());
  } else {
    next_attempt_ = Clock::now() + backoff_after(config_, attempts_);
  }
}

Status ServerConnection::reconnect() {
  std::shared_ptr<McpClient> old;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return Status::failed_precondition(label_ + " is shut down");
    old = std::move(client_);
    ++generation_;  // Events of the old connection are ignored from now on.
    attempts_ = 0;
    parked_ = false;
  }
  if (old) old->close();
  Status s = connect_once();
  std::lock_guard lock(mu_);
  if (!s.ok()) {
    last_error_ = s;
    next_attempt_ = Clock::now() + config_.restart_backoff;
    wake_.notify_all();
  }
  return s;
}

void ServerConnection::shutdown() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    wake_.notify_all();
  }
  if (supervisor_.joinable()) supervisor_.join();
  std::shared_ptr<McpClient> client;
  {
    std::lock_guard lock(mu_);
    client = std::move(client_);
  }
  if (client) client->close();
  std::lock_guard registry_lock(registry_mu_);
  for (const std::string& name : registered_) (void)registry_->unregister_tool(name);
  registered_.clear();
}

std::shared_ptr<McpClient> ServerConnection::current_client() const {
  std::lock_guard lock(mu_);
  return connection_lost_ ? nullptr : client_;
}

bool ServerConnection::connected() const {
  return current_client() != nullptr;
}

Status ServerConnection::ping() {
  auto client = current_client();
  if (!client) return Status::unavailable(label_ + " is not connected");
  Status s = client->ping();
  if (s.ok()) note_success();
  return s;
}

void ServerConnection::note_success() {
  std::lock_guard lock(mu_);
  attempts_ = 0;
}

Status ServerConnection::approve(const McpToolEntry& tool, const Json& arguments,
                                 ToolContext& context) {
  const std::string key = "mcp:" + config_.name + ":" + tool.mcp_name;
  {
    std::lock_guard lock(mu_);
    if (always_approved_.count(key) != 0) return {};
  }
  std::shared_ptr<SessionApprovals> session;
  if (context.state != nullptr) {
    session = context.state->get_or_create<SessionApprovals>("mcp_approvals");
    std::lock_guard lock(session->mu);
    if (session->keys.count(key) != 0) return {};
  }
  const std::string what = "MCP tool '" + tool.mcp_name + "' of server '" + config_.name + "'";
  if (context.callbacks == nullptr || !context.callbacks->on_approval) {
    return Status::permission_denied(
        what + " is marked destructive and needs approval, but nobody can approve it here");
  }
  ApprovalRequest request;
  request.command = tool.mcp_name + " " + dump_json(arguments);
  request.description = what + " is marked destructive";
  request.pattern_key = key;
  request.tool_name = tool.name;
  ApprovalDecision decision = ApprovalDecision::kDeny;
  try {
    decision = context.callbacks->on_approval(request);
  } catch (...) {
    HERMES_LOG_WARN("{}: the approval callback threw; treating it as a denial", label_);
  }
  switch (decision) {
    case ApprovalDecision::kDeny:
      return Status::permission_denied("The user denied running " + what + ".");
    case ApprovalDecision::kOnce:
      return {};
    case ApprovalDecision::kSession:
      if (session) {
        std::lock_guard lock(session->mu);
        session->keys.insert(key);
      }
      return {};
    case ApprovalDecision::kAlways: {
      std::lock_guard lock(mu_);
      always_approved_.insert(key);
      return {};
    }
  }
  return {};
}

Result<std::string> ServerConnection::call_tool(const McpToolEntry& tool, const Json& arguments,
                                                ToolContext& context) {
  auto client = current_client();
  if (!client) {
    std::lock_guard lock(mu_);
    std::string why = last_error_.ok() ? "" : " (" + last_error_.message() + ")";
    return Status::unavailable(redact_for_model(label_ + " is not connected" + why));
  }
  if (tool.destructive && config_.destructive_needs_approval) {
    HERMES_RETURN_IF_ERROR(approve(tool, arguments, context));
  }
  JsonRpcSession::CallOptions options;
  options.timeout = config_.call_timeout;
  options.cancel = context.cancel;
  std::function<void(std::string_view, std::string_view)> on_status;
  if (context.callbacks != nullptr) on_status = context.callbacks->on_status;
  // Always asked for: progress also keeps a long call from timing out.
  options.on_progress = [on_status, name = tool.name](const Json& params) {
    if (!on_status) return;
    try {
      on_status("tool_progress", progress_text(name, params));
    } catch (...) {
    }
  };
  Result<Json> raw = client->call_tool(tool.mcp_name, arguments, options);
  if (!raw.ok()) {
    const Status& s = raw.status();
    if (s.code() == StatusCode::kCancelled)
      return Status::cancelled("MCP call interrupted: user sent a new message");
    return Status(s.code(),
                  redact_for_model("MCP call to '" + tool.mcp_name + "' failed: " + s.message()));
  }
  note_success();
  return render_call_result(*raw);
}

McpServerStatus ServerConnection::status() const {
  std::lock_guard lock(mu_);
  McpServerStatus s;
  s.name = config_.name;
  s.connected = client_ != nullptr && !connection_lost_;
  s.protocol_version = handshake_.protocol_version;
  s.server_name = handshake_.server_name;
  s.server_version = handshake_.server_version;
  s.tools.assign(registered_.begin(), registered_.end());
  s.skipped_tools = skipped_;
  s.restarts = restarts_;
  s.last_error = last_error_;
  return s;
}

}  // namespace hermes::internal
