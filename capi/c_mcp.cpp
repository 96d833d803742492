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

// The C callback as every server's authorization handler; `data` owns the user data.
hermes::McpAuthorizationHandler authorization_handler(
    const std::string& server, hermes_mcp_authorize_fn fn,
    std::shared_ptr<hermes::capi::UserData> data) {
  return [server, fn, data](const std::string& url) -> hermes::Result<std::string> {
    hermes::Json request{{"server", server}, {"authorization_url", url}};
    hermes_answer_t answer;
    fn(hermes::capi::to_json_text(request).c_str(), &answer, data->get());
    if (!answer.text) return hermes::Status::cancelled("the authorization was refused");
    return *answer.text;
  };
}

}  // namespace

extern "C" {

hermes_status_t hermes_mcp_servers_connect(const char* config_json, hermes_tool_registry_t* registry,
                                           hermes_mcp_servers_t** out_servers,
                                           hermes_error_t** out_error) {
  return hermes_mcp_servers_connect_authorized(config_json, registry, nullptr, nullptr, nullptr,
                                               out_servers, out_error);
}

hermes_status_t hermes_mcp_servers_connect_authorized(const char* config_json,
                                                      hermes_tool_registry_t* registry,
                                                      hermes_mcp_authorize_fn authorize,
                                                      void* user_data, hermes_destroy_fn destroy,
                                                      hermes_mcp_servers_t** out_servers,
                                                      hermes_error_t** out_error) {
  auto data = std::make_shared<hermes::capi::UserData>(user_data, destroy);
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_servers == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "out_servers: NULL", out_error);
    *out_servers = nullptr;
    if (config_json == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "config_json: NULL", out_error);
    if (registry == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "registry: NULL", out_error);
    auto configs = hermes::parse_mcp_config(config_json);
    if (!configs.ok()) return report(configs.status(), out_error);
    if (authorize != nullptr) {
      for (auto& config : *configs)
        config.oauth.on_authorize = authorization_handler(config.name, authorize, data);
    }
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
