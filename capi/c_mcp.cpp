// MCP servers from C: connect the servers of an mcp.json document into a tool registry.
#include "c_internal.hpp"
#include "hermes/mcp.hpp"

using hermes::capi::report;

struct hermes_mcp_servers_t {
  std::unique_ptr<hermes::McpServers> servers;
};

namespace {

hermes::Json status_json(const hermes::McpServerStatus& s) {
  return {{"name", s.name},
          {"connected", s.connected},
          {"protocol_version", s.protocol_version},
          {"server_name", s.server_name},
          {"server_version", s.server_version},
          {"tools", s.tools},
          {"skipped_tools", s.skipped_tools},
          {"restarts", s.restarts},
          {"last_error", s.last_error.ok() ? std::string() : s.last_error.message()}};
}

}  // namespace

extern "C" {

hermes_status_t hermes_mcp_servers_connect(const char* config_json, hermes_tool_registry_t* registry,
                                           hermes_mcp_servers_t** out_servers,
                                           hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_servers == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_servers: NULL", out_error);
    *out_servers = nullptr;
    if (config_json == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "config_json: NULL", out_error);
    if (registry == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "registry: NULL", out_error);
    auto configs = hermes::parse_mcp_config(config_json);
    if (!configs.ok()) return report(configs.status(), out_error);
    auto servers = hermes::McpServers::connect(std::move(*configs), registry->registry);
    if (!servers.ok()) return report(servers.status(), out_error);
    *out_servers = new hermes_mcp_servers_t{std::move(*servers)};
    return HERMES_OK;
  });
}

hermes_status_t hermes_mcp_servers_status(const hermes_mcp_servers_t* servers, char** out_json,
                                          hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json != nullptr) *out_json = nullptr;
    if (servers == nullptr || out_json == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "servers or out_json: NULL", out_error);
    }
    hermes::Json list = hermes::Json::array();
    for (const auto& s : servers->servers->status()) list.push_back(status_json(s));
    return hermes::capi::return_string(hermes::capi::to_json_text(list), out_json, out_error);
  });
}

void hermes_mcp_servers_free(hermes_mcp_servers_t* servers) { delete servers; }

void hermes_mcp_servers_freep(hermes_mcp_servers_t** servers) {
  if (servers == nullptr) return;
  delete *servers;
  *servers = nullptr;
}

}  // extern "C"
