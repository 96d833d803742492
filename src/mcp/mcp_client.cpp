#include "mcp/mcp_client.hpp"

#include <algorithm>

#include "common/json_text.hpp"
#include "hermes/version.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

// A server whose cursor never ends must not keep discovery spinning.
constexpr int kMaxListPages = 50;

}  // namespace

const std::vector<std::string>& supported_mcp_protocol_versions() {
  static const std::vector<std::string> versions{"2025-06-18", "2025-03-26", "2024-11-05"};
  return versions;
}

McpClient::McpClient(std::unique_ptr<McpTransport> transport, Options options)
    : options_(std::move(options)), transport_(std::move(transport)) {
  session_ = std::make_unique<JsonRpcSession>(
      options_.label, [this](const Json& message) { return transport_->send(message); });
  session_->set_notification_handler(
      [this](const std::string& method, const Json& params) { on_notification(method, params); });
  // Roots and sampling are not offered in the handshake, nor elicitation without a
  // handler; a server that asks anyway is told the method does not exist.
  session_->set_request_handler(
      [this](const std::string& method, const Json& params) -> Result<Json> {
        if (method == "elicitation/create" && options_.on_elicitation)
          return options_.on_elicitation(params);
        return Status::unimplemented("Method not found: " + method);
      });
}

McpClient::~McpClient() {
  close();
}

Result<std::unique_ptr<McpClient>> McpClient::connect(std::unique_ptr<McpTransport> transport,
                                                      Options options) {
  std::unique_ptr<McpClient> client(new McpClient(std::move(transport), std::move(options)));
  McpTransport::Handlers handlers;
  McpClient* self = client.get();
  handlers.on_message = [self](const Json& message) { self->session_->receive(message); };
  handlers.on_closed = [self](Status reason) {
    self->session_->close(reason);
    if (self->options_.on_closed) self->options_.on_closed(std::move(reason));
  };
  handlers.on_request_failed = [self](const Json& id, Status reason) {
    self->session_->fail_request(id, std::move(reason));
  };
  HERMES_RETURN_IF_ERROR(client->transport_->start(std::move(handlers)));
  if (Status s = client->perform_handshake(); !s.ok()) {
    client->close();
    return s;
  }
  return client;
}

Status McpClient::perform_handshake() {
  Json capabilities = Json::object();
  if (options_.on_elicitation) capabilities["elicitation"] = Json::object();
  Json params{{"protocolVersion", supported_mcp_protocol_versions().front()},
              {"capabilities", std::move(capabilities)},
              {"clientInfo", {{"name", "hermes"}, {"version", hermes::version()}}}};
  JsonRpcSession::CallOptions call;
  call.timeout = options_.connect_timeout;
  Result<Json> result = session_->call("initialize", std::move(params), call);
  if (!result.ok()) {
    return Status(result.status().code(), "initialize failed: " + result.status().message());
  }
  const Json& r = *result;
  handshake_.protocol_version = string_member(r, "protocolVersion");
  const auto& versions = supported_mcp_protocol_versions();
  if (std::find(versions.begin(), versions.end(), handshake_.protocol_version) == versions.end()) {
    return Status::failed_precondition(options_.label + " speaks MCP protocol version '" +
                                       handshake_.protocol_version +
                                       "', which hermes does not support");
  }
  if (r.contains("serverInfo")) {
    handshake_.server_name = string_member(r["serverInfo"], "name");
    handshake_.server_version = string_member(r["serverInfo"], "version");
  }
  if (r.contains("capabilities") && r["capabilities"].is_object())
    handshake_.capabilities = r["capabilities"];
  handshake_.instructions = string_member(r, "instructions");
  transport_->set_protocol_version(handshake_.protocol_version);
  return session_->notify("notifications/initialized", Json());
}

void McpClient::on_notification(const std::string& method, const Json& params) {
  if (method == "notifications/tools/list_changed") {
    if (options_.on_tools_changed) options_.on_tools_changed();
  } else if (method == "notifications/message") {
    HERMES_LOG_INFO(
        "{} log: {}", options_.label,
        params.is_object() && params.contains("data") ? params["data"].dump() : std::string());
  } else {
    HERMES_LOG_DEBUG("{} notification ignored: {}", options_.label, method);
  }
}

Result<std::vector<Json>> McpClient::list_tools(const CancelToken& cancel) {
  std::vector<Json> tools;
  std::string cursor;
  JsonRpcSession::CallOptions call;
  call.timeout = options_.request_timeout;
  call.cancel = cancel;
  for (int page = 0; page < kMaxListPages; ++page) {
    Json params = cursor.empty() ? Json() : Json{{"cursor", cursor}};
    Result<Json> result = session_->call("tools/list", std::move(params), call);
    if (!result.ok()) {
      return Status(result.status().code(), "tools/list failed: " + result.status().message());
    }
    auto list = result->find("tools");
    if (!result->is_object() || list == result->end() || !list->is_array()) {
      return Status::failed_precondition(options_.label +
                                         " answered tools/list without a tools array");
    }
    for (auto& tool : *list) tools.push_back(std::move(tool));
    cursor = string_member(*result, "nextCursor");
    if (cursor.empty()) return tools;
  }
  HERMES_LOG_WARN("{}: tools/list still had more pages after {}; keeping the first {} tools",
                  options_.label, kMaxListPages, tools.size());
  return tools;
}

Result<Json> McpClient::call_tool(const std::string& name, const Json& arguments,
                                  const JsonRpcSession::CallOptions& options) {
  Json params{{"name", name}, {"arguments", arguments.is_object() ? arguments : Json::object()}};
  Result<Json> result = session_->call("tools/call", std::move(params), options);
  if (result.ok() && !result->is_object()) {
    return Status::failed_precondition(options_.label +
                                       " answered tools/call with a non-object result");
  }
  return result;
}

Status McpClient::ping() {
  JsonRpcSession::CallOptions call;
  call.timeout = options_.request_timeout;
  Result<Json> result = session_->call("ping", Json(), call);
  return result.ok() ? Status() : result.status();
}

void McpClient::close() {
  session_->close(Status::unavailable(options_.label + " was disconnected"));
  transport_->close();
}

}  // namespace hermes::internal
