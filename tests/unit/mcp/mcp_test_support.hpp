// Helpers shared by the MCP tests: fake and reference server configurations, calling a
// registered tool, waiting for background work.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/json_text.hpp"
#include "hermes/callbacks.hpp"
#include "hermes/mcp.hpp"
#include "hermes/tool.hpp"

namespace hermes::testing {

// A tool context for MCP calls whose status callback records their progress lines
// (kind "tool_progress"), which arrive on the transport's threads.
class ProgressRecorder {
 public:
  ProgressRecorder() {
    callbacks_.on_status = [this](std::string_view kind, std::string_view message) {
      std::lock_guard lock(mu_);
      if (kind == "tool_progress") notes_.emplace_back(message);
    };
    context_.state = &state_;
    context_.callbacks = &callbacks_;
  }
  ProgressRecorder(const ProgressRecorder&) = delete;
  ProgressRecorder& operator=(const ProgressRecorder&) = delete;

  ToolContext* context() { return &context_; }
  std::vector<std::string> notes() {
    std::lock_guard lock(mu_);
    return notes_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> notes_;
  Callbacks callbacks_;
  ToolSessionState state_;
  ToolContext context_;
};

inline std::string fake_server_script() {
  return std::string(HERMES_FIXTURES_DIR) + "/mcp/fake_server.py";
}

// A server running tests/fixtures/mcp/fake_server.py with `flags`; fast restarts.
inline McpServerConfig fake_server(const std::string& name, std::vector<std::string> flags = {}) {
  McpServerConfig c;
  c.name = name;
  c.command = HERMES_TEST_PYTHON;
  c.args = {fake_server_script()};
  c.args.insert(c.args.end(), flags.begin(), flags.end());
  c.restart_backoff = std::chrono::milliseconds(20);
  c.max_restart_backoff = std::chrono::milliseconds(200);
  c.connect_timeout = std::chrono::seconds(30);
  c.call_timeout = std::chrono::seconds(30);
  return c;
}

inline bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    if (::access((dirs.substr(start, end - start) + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// Where scripts/install-mcp-servers put the reference servers.
inline std::string reference_servers_dir() {
  const char* env = std::getenv("HERMES_MCP_SERVERS_DIR");
  return env && *env ? env : HERMES_MCP_SERVERS_DIR;
}

// The entry script of an installed reference server package, or "" (with a message)
// when node or the package is missing: the caller then skips.
inline std::string reference_server(const std::string& package) {
  if (!on_path("node")) {
    MESSAGE("skipped: node is not installed");
    return "";
  }
  const std::string script =
      reference_servers_dir() + "/node_modules/@modelcontextprotocol/" + package + "/dist/index.js";
  if (::access(script.c_str(), R_OK) != 0) {
    MESSAGE("skipped: " << package << " is not installed (run scripts/install-mcp-servers)");
    return "";
  }
  return script;
}

inline McpServerConfig node_server(const std::string& name, const std::string& script,
                                   std::vector<std::string> args = {}) {
  McpServerConfig c;
  c.name = name;
  c.command = "node";
  c.args = {script};
  c.args.insert(c.args.end(), args.begin(), args.end());
  c.connect_timeout = std::chrono::seconds(60);
  return c;
}

// Runs the registered tool `name` as the agent loop would.
inline Result<std::string> call_tool(ToolRegistry& registry, const std::string& name,
                                     const Json& arguments, ToolContext* context = nullptr) {
  auto spec = registry.find(name);
  if (!spec) return Status::not_found("no tool " + name);
  ToolContext local;
  ToolSessionState state;
  local.state = &state;
  return spec->handler(arguments, context ? *context : local);
}

// Polls `condition` until it holds or a generous bound passes.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds bound = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return condition();
}

inline const McpServerStatus* find_status(const std::vector<McpServerStatus>& all,
                                          const std::string& name) {
  for (const auto& s : all) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// One MCP server connected into a registry of its own. McpServers::connect must accept the
// configuration; with `must_be_up`, the server must also have completed its handshake.
struct ConnectedServer {
  std::shared_ptr<ToolRegistry> registry = std::make_shared<ToolRegistry>();
  std::unique_ptr<McpServers> servers;

  explicit ConnectedServer(McpServerConfig config, bool must_be_up = false) {
    auto r = McpServers::connect({std::move(config)}, registry);
    REQUIRE(r.ok());
    servers = std::move(*r);
    if (!must_be_up) return;
    const McpServerStatus s = status();
    INFO(s.last_error.to_string());
    REQUIRE(s.connected);
  }
  McpServerStatus status() const {
    auto all = servers->status();
    REQUIRE(all.size() == 1);
    return all[0];
  }
};

// A server that must be up once connected.
struct UpServer : ConnectedServer {
  explicit UpServer(McpServerConfig config)
      : ConnectedServer(std::move(config), /*must_be_up=*/true) {}
};

// The JSON a successful tool call answered.
inline Json result_json(const Result<std::string>& r) {
  INFO(r.status().to_string());
  REQUIRE(r.ok());
  auto j = internal::parse_json(*r);
  REQUIRE(j.has_value());
  return *j;
}

// The "result" string of a successful call to the test servers' echo-style tools.
inline std::string result_text(const Result<std::string>& r) {
  return result_json(r)["result"].get<std::string>();
}

}  // namespace hermes::testing
