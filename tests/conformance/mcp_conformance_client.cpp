// The client side of the MCP conformance suite (@modelcontextprotocol/conformance): the
// suite starts a server for a scenario and runs this program with the server's URL as the
// last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO. It connects with
// hermes' MCP client over Streamable HTTP, does what the scenario asks of a client that
// offers a server's tools to a model, and exits 0 when that worked.
//
// The auth/* scenarios put the server behind OAuth. The user's part of the authorization
// is played by fetching the authorization URL without following its redirect: the
// authorization server answers with the redirect to our redirect URI, code included. The
// scenario's context (MCP_CONFORMANCE_CONTEXT) carries pre-registered credentials.
#include <curl/curl.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "hermes/mcp.hpp"

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "mcp_conformance_client: %s\n", what.c_str());
  return 1;
}

// Calls the server's tool `name` as a model's tool call would, and prints its answer.
int call_tool(hermes::ToolRegistry& registry, const std::string& name, const hermes::Json& args) {
  auto tool = registry.find("mcp_conformance_" + name);
  if (!tool) return fail("the server's " + name + " tool was not registered");
  hermes::ToolContext context;
  hermes::ToolSessionState state;
  context.state = &state;
  auto result = tool->handler(args, context);
  if (!result.ok()) return fail(name + " failed: " + result.status().to_string());
  std::printf("%s: %s\n", name.c_str(), result->c_str());
  return 0;
}

// Accepts every question with the defaults its schema gives, as a user who confirms a
// prefilled form does.
hermes::McpElicitationResult accept_defaults(const hermes::McpElicitation& request) {
  hermes::McpElicitationResult answer;
  answer.action = "accept";
  const hermes::Json properties =
      request.requested_schema.value("properties", hermes::Json::object());
  for (const auto& [name, field] : properties.items()) {
    if (field.is_object() && field.contains("default")) answer.content[name] = field["default"];
  }
  return answer;
}

// Where the authorization server redirects the browser for `url`: its Location header.
hermes::Result<std::string> follow_authorization(const std::string& url) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return hermes::Status::internal("curl_easy_init failed");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  curl_easy_setopt(
      curl, CURLOPT_WRITEFUNCTION,
      +[](char*, size_t size, size_t count, void*) { return size * count; });
  const CURLcode code = curl_easy_perform(curl);
  char* location = nullptr;
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
  std::string landed = location != nullptr ? location : "";
  curl_easy_cleanup(curl);
  if (code != CURLE_OK) return hermes::Status::unavailable(curl_easy_strerror(code));
  if (landed.empty()) {
    return hermes::Status::permission_denied("the authorization endpoint answered HTTP " +
                                             std::to_string(status) + " without a redirect");
  }
  return landed;
}

// OAuth as the scenario needs it: its context's credentials, a client metadata document
// URL for servers that take one, and tokens kept in memory so that runs do not share them.
void configure_oauth(const std::string& scenario, hermes::McpOAuthConfig& oauth) {
  oauth.persist_tokens = false;
  oauth.on_authorize = follow_authorization;
  oauth.client_metadata_url = "https://conformance-test.local/client-metadata.json";
  oauth.redirect_uri = "http://localhost:3000/callback";
  const char* context_text = std::getenv("MCP_CONFORMANCE_CONTEXT");
  if (context_text != nullptr) {
    const hermes::Json context = hermes::Json::parse(context_text, nullptr, false);
    if (context.is_object()) {
      oauth.client_id = context.value("client_id", "");
      oauth.client_secret = context.value("client_secret", "");
    }
  }
  if (scenario.rfind("auth/client-credentials", 0) == 0) oauth.grant_type = "client_credentials";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage: mcp_conformance_client <server-url>");
  const char* scenario_env = std::getenv("MCP_CONFORMANCE_SCENARIO");
  const std::string scenario = scenario_env ? scenario_env : "";

  hermes::McpServerConfig config;
  config.name = "conformance";
  config.url = argv[argc - 1];
  config.max_restarts = 0;
  config.connect_timeout = std::chrono::seconds(10);
  config.call_timeout = std::chrono::seconds(10);
  config.request_timeout = std::chrono::seconds(10);
  config.on_elicitation = accept_defaults;
  configure_oauth(scenario, config.oauth);

  auto registry = std::make_shared<hermes::ToolRegistry>();
  auto servers = hermes::McpServers::connect({config}, registry);
  if (!servers.ok()) return fail(servers.status().to_string());
  const hermes::McpServerStatus status = (*servers)->status().at(0);
  if (!status.connected) return fail("not connected: " + status.last_error.to_string());
  std::printf("connected to %s %s (protocol %s) with %zu tools\n", status.server_name.c_str(),
              status.server_version.c_str(), status.protocol_version.c_str(), status.tools.size());

  if (scenario == "tools_call") return call_tool(*registry, "add_numbers", {{"a", 5}, {"b", 3}});
  // The server ends the call's event stream before answering: the answer comes on the
  // resumed stream.
  if (scenario == "sse-retry")
    return call_tool(*registry, "test_reconnection", hermes::Json::object());
  // The tool asks for a form whose every field has a default, and checks they came back.
  if (scenario == "elicitation-sep1034-client-defaults")
    return call_tool(*registry, "test_client_elicitation_defaults", hermes::Json::object());
  // A call shows the token is good for more than listing (and, for step-up
  // authorization, asks for more scope).
  if (scenario.rfind("auth/", 0) == 0)
    return call_tool(*registry, "test_tool", hermes::Json::object());
  return 0;
}
