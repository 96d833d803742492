// The MCP client over Streamable HTTP against the reference server from the npm registry
// (@modelcontextprotocol/server-everything in its streamableHttp mode), installed by
// scripts/install-mcp-servers. Each test skips, with a message, when node or the package
// is missing.
#include <doctest/doctest.h>

#include <mutex>

#include "common/json_text.hpp"
#include "hermes/agent.hpp"
#include "http_server_process.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {}  // namespace

TEST_CASE("server-everything over HTTP: handshake, tool list and a plain call") {
  auto server = HttpServerProcess::everything();
  if (!server) return;
  UpServer c(server->config("everything"));
  auto s = c.status();
  CHECK(s.protocol_version == "2025-06-18");
  CHECK(s.server_name == "mcp-servers/everything");
  CHECK(s.tools.size() >= 10);
  CHECK(s.skipped_tools.empty());
  Json echo =
      result_json(call_tool(*c.registry, "mcp_everything_echo", {{"message", "over http"}}));
  CHECK(echo["result"] == "Echo: over http");
  CHECK(c.servers->ping("everything").ok());
}

TEST_CASE("server-everything over HTTP: structured content and images") {
  auto server = HttpServerProcess::everything();
  if (!server) return;
  UpServer c(server->config("everything"));
  Json weather = result_json(
      call_tool(*c.registry, "mcp_everything_get_structured_content", {{"location", "Chicago"}}));
  REQUIRE(weather.contains("structuredContent"));
  CHECK(weather["structuredContent"].contains("temperature"));
  Json image = result_json(call_tool(*c.registry, "mcp_everything_get_tiny_image", Json::object()));
  CHECK(image["result"].get<std::string>().find("[image: image/png, ") != std::string::npos);
}

TEST_CASE("server-everything over HTTP: a long-running call reports progress") {
  auto server = HttpServerProcess::everything();
  if (!server) return;
  UpServer c(server->config("everything"));
  ProgressRecorder progress;
  Json done = result_json(call_tool(*c.registry, "mcp_everything_trigger_long_running_operation",
                                    {{"duration", 1}, {"steps", 3}}, progress.context()));
  CHECK(done["result"].get<std::string>().find("completed") != std::string::npos);
  const std::vector<std::string> notes = progress.notes();
  REQUIRE(notes.size() == 3);
  CHECK(notes[2].rfind("mcp_everything_trigger_long_running_operation: 3/3", 0) == 0);
}

TEST_CASE("server-everything over HTTP: bad arguments come back as an error result") {
  auto server = HttpServerProcess::everything();
  if (!server) return;
  UpServer c(server->config("everything"));
  auto r = call_tool(*c.registry, "mcp_everything_get_sum", {{"a", "not a number"}});
  REQUIRE_FALSE(r.ok());
  CHECK_FALSE(r.status().message().empty());
  Json sum = result_json(call_tool(*c.registry, "mcp_everything_get_sum", {{"a", 2}, {"b", 40}}));
  CHECK(sum["result"].get<std::string>().find("42") != std::string::npos);
}

TEST_CASE("server-everything over HTTP: an agent turn calls a tool of the server") {
  auto server = HttpServerProcess::everything();
  if (!server) return;
  UpServer c(server->config("everything"));
  auto provider = std::make_shared<ScriptedProvider>();
  provider->tool_calls(
      {{"mcp_everything_get_sum", internal::dump_json(Json{{"a", 19}, {"b", 23}})}});
  provider->text("The sum is 42.");
  TempDir home;
  AgentOptions o;
  o.provider.model = "scripted-model";
  o.provider.instance = provider;
  o.tools = c.registry;
  o.home = home.path();
  o.persistence.enabled = false;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("add 19 and 23 with the server");
  CHECK(r.completed);
  CHECK(r.final_response == "The sum is 42.");
  std::string tool_text;
  for (const auto& m : r.messages) {
    if (m.role == Role::kTool) tool_text = m.content;
  }
  CHECK(tool_text.find("42") != std::string::npos);
  auto requests = provider->requests();
  REQUIRE_FALSE(requests.empty());
  CHECK(internal::dump_json(requests[0].tools).find("mcp_everything_echo") != std::string::npos);
}
