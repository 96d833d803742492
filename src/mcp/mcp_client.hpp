// One live MCP connection: the transport, the JSON-RPC session over it, the handshake
// (protocol version negotiation) and the client requests hermes makes: tools/list,
// tools/call, ping.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mcp/json_rpc_session.hpp"
#include "mcp/transport.hpp"

namespace hermes::internal {

// Protocol revisions this client speaks, newest first. The first is offered.
const std::vector<std::string>& supported_mcp_protocol_versions();

// What the server said about itself in the handshake.
struct McpHandshake {
  std::string protocol_version;
  std::string server_name;
  std::string server_version;
  Json capabilities = Json::object();
  std::string instructions;
};

// Thread-safety: every method may be called from any thread, concurrently.
class McpClient {
 public:
  struct Options {
    std::string label;  // "MCP server 'files'".
    std::chrono::milliseconds connect_timeout{60'000};
    std::chrono::milliseconds request_timeout{60'000};
    // The server's tool list changed. Runs on the transport's thread: must not call back
    // into this client.
    std::function<void()> on_tools_changed;
    // The connection broke (not called for close()). Same threading rule.
    std::function<void(Status reason)> on_closed;
    // Set: the elicitation capability is offered and elicitation/create requests are
    // answered with what this returns for their params.
    std::function<Result<Json>(const Json& params)> on_elicitation;
  };

  // Opens `transport` and performs the handshake: initialize, version check,
  // notifications/initialized.
  static Result<std::unique_ptr<McpClient>> connect(std::unique_ptr<McpTransport> transport,
                                                    Options options);

  ~McpClient();
  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  const McpHandshake& handshake() const { return handshake_; }

  // Every tool of the server (following nextCursor), as the server describes them.
  Result<std::vector<Json>> list_tools(const CancelToken& cancel = CancelToken());

  // tools/call: the raw CallToolResult.
  Result<Json> call_tool(const std::string& name, const Json& arguments,
                         const JsonRpcSession::CallOptions& options);

  Status ping();

  // Closes the connection; calls in progress fail. Idempotent.
  void close();

 private:
  McpClient(std::unique_ptr<McpTransport> transport, Options options);
  Status perform_handshake();
  void on_notification(const std::string& method, const Json& params);

  const Options options_;
  std::unique_ptr<McpTransport> transport_;
  std::unique_ptr<JsonRpcSession> session_;
  McpHandshake handshake_;
};

}  // namespace hermes::internal
