// One configured MCP server over its lifetime: connecting, keeping its tools in the
// registry in step with the server, restarting it with backoff when it dies, and running
// the calls of its tools.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "hermes/mcp.hpp"
#include "hermes/tool.hpp"
#include "mcp/mcp_client.hpp"
#include "mcp/oauth_session.hpp"
#include "mcp/tool_adapter.hpp"

namespace hermes::internal {

// Thread-safety: every public method may be called from any thread. A background thread
// (the supervisor) handles list changes and restarts. Create with std::make_shared: tool
// handlers hold weak references to it.
class ServerConnection : public std::enable_shared_from_this<ServerConnection> {
 public:
  ServerConnection(McpServerConfig config, std::shared_ptr<ToolRegistry> registry);
  ~ServerConnection();
  ServerConnection(const ServerConnection&) = delete;
  ServerConnection& operator=(const ServerConnection&) = delete;

  // Makes the first connection attempt (blocking), then starts the supervisor, which
  // keeps retrying if it failed. The result is that of the first attempt.
  Status start();
  // Disconnects, stops the supervisor and unregisters the tools. Idempotent.
  void shutdown();

  // Drops the connection and connects again now, with a fresh restart budget.
  Status reconnect();
  Status ping();

  bool connected() const;
  McpServerStatus status() const;
  const std::string& name() const { return config_.name; }

  // Runs one call of `tool` for a registered hermes tool.
  Result<std::string> call_tool(const McpToolEntry& tool, const Json& arguments,
                                ToolContext& context);

 private:
  std::unique_ptr<McpTransport> make_transport() const;
  // One connection attempt: connect, list, register. Serialised by connect_mu_.
  Status connect_once();
  Status refresh_tools(const std::shared_ptr<McpClient>& client);
  void sync_registry(const McpToolSelection& selection);
  ToolSpec make_spec(const McpToolEntry& entry);
  void supervise();
  void handle_lost_connection(std::unique_lock<std::mutex>& lock);
  void try_restart(std::unique_lock<std::mutex>& lock);
  std::shared_ptr<McpClient> current_client() const;
  Status approve(const McpToolEntry& tool, const Json& arguments, ToolContext& context);
  void note_success();

  const McpServerConfig config_;
  const std::string label_;
  const std::shared_ptr<ToolRegistry> registry_;
  // A remote server's authorization, kept across its connections (null for local ones).
  const std::shared_ptr<OAuthSession> oauth_;

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::shared_ptr<McpClient> client_;
  uint64_t generation_ = 0;  // Of client_: events from older clients are ignored.
  McpHandshake handshake_;
  bool tools_changed_ = false;
  bool connection_lost_ = false;
  bool stopping_ = false;
  bool parked_ = false;  // Gave up restarting.
  int attempts_ = 0;     // Restart attempts since the server last proved healthy.
  int restarts_ = 0;
  bool ever_connected_ = false;
  std::chrono::steady_clock::time_point next_attempt_;
  Status last_error_;
  std::set<std::string> registered_;
  std::vector<std::string> skipped_;
  std::set<std::string> always_approved_;

  std::mutex connect_mu_;   // One connection attempt at a time.
  std::mutex registry_mu_;  // Registry changes vs. shutdown.
  std::thread supervisor_;
};

}  // namespace hermes::internal
