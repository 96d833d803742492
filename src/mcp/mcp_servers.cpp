// The public set of MCP servers: validates configurations and connects them in parallel.
#include <set>
#include <thread>

#include "hermes/mcp.hpp"
#include "mcp/server_connection.hpp"

namespace hermes {

struct McpServers::Impl {
  std::vector<std::shared_ptr<internal::ServerConnection>> servers;

  std::shared_ptr<internal::ServerConnection> find(std::string_view name) const {
    for (const auto& s : servers) {
      if (s->name() == name) return s;
    }
    return nullptr;
  }
};

namespace {

Status validate(const std::vector<McpServerConfig>& configs) {
  std::set<std::string> names;
  for (const auto& c : configs) {
    if (c.name.empty()) return Status::invalid_argument("an MCP server config has an empty name");
    if (!names.insert(c.name).second) {
      return Status::invalid_argument("MCP server name '" + c.name + "' is used twice");
    }
    if (c.command.empty() && c.url.empty()) {
      return Status::invalid_argument("MCP server '" + c.name + "' needs a command or a url");
    }
    if (c.call_timeout.count() <= 0 || c.connect_timeout.count() <= 0 ||
        c.request_timeout.count() <= 0) {
      return Status::invalid_argument("MCP server '" + c.name + "': timeouts must be positive");
    }
  }
  return {};
}

}  // namespace

McpServers::McpServers(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

McpServers::~McpServers() {
  for (auto& s : impl_->servers) s->shutdown();
}

Result<std::unique_ptr<McpServers>> McpServers::connect(std::vector<McpServerConfig> configs,
                                                        std::shared_ptr<ToolRegistry> registry) {
  if (!registry) return Status::invalid_argument("McpServers::connect needs a ToolRegistry");
  HERMES_RETURN_IF_ERROR(validate(configs));
  auto impl = std::make_unique<Impl>();
  for (auto& c : configs) {
    if (!c.enabled) continue;
    impl->servers.push_back(std::make_shared<internal::ServerConnection>(std::move(c), registry));
  }
  // Servers start at the same time: a slow one (npx resolving a package) must not delay
  // the others by its whole start-up.
  std::vector<std::thread> starters;
  for (auto& s : impl->servers) {
    starters.emplace_back([server = s] { (void)server->start(); });
  }
  for (auto& t : starters) t.join();
  return std::unique_ptr<McpServers>(new McpServers(std::move(impl)));
}

std::vector<McpServerStatus> McpServers::status() const {
  std::vector<McpServerStatus> out;
  for (const auto& s : impl_->servers) out.push_back(s->status());
  return out;
}

Status McpServers::ping(std::string_view server) {
  auto s = impl_->find(server);
  if (!s) return Status::not_found("no MCP server named '" + std::string(server) + "'");
  return s->ping();
}

Status McpServers::reconnect(std::string_view server) {
  auto s = impl_->find(server);
  if (!s) return Status::not_found("no MCP server named '" + std::string(server) + "'");
  return s->reconnect();
}

}  // namespace hermes
