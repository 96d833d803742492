// The MCP client over Streamable HTTP against tests/fixtures/mcp/fake_http_server.py, a
// server that can misbehave on demand.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>

#include "common/json_text.hpp"
#include "http_server_process.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

Json server_log(const HttpServerProcess& server) {
  ConnectedServer c(server.config("log"));
  return *internal::parse_json(
      result_text(call_tool(*c.registry, "mcp_log_server_log", Json::object())));
}

}  // namespace

TEST_CASE("a server over HTTP is initialized, lists its tools across pages and answers calls") {
  for (const char* mode : {"--sse", "--json"}) {
    CAPTURE(mode);
    auto server = HttpServerProcess::fake({mode});
    ConnectedServer c(server->config("web"));
    auto s = c.status();
    INFO(s.last_error.to_string());
    REQUIRE(s.connected);
    CHECK(s.protocol_version == "2025-06-18");
    CHECK(s.server_name == "fake-http");
    CHECK(s.tools.size() == 15);  // Five pages of three.
    CHECK(c.registry->find("mcp_web_echo")->toolset == "mcp-web");
    CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "over http"}})) ==
          "over http");
    Json sum = result_json(call_tool(*c.registry, "mcp_web_add", {{"a", 2}, {"b", 40}}));
    CHECK(sum["structuredContent"]["sum"] == 42);
    auto failed = call_tool(*c.registry, "mcp_web_fail", Json::object());
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.status().message().find("it broke") != std::string::npos);
    CHECK(c.servers->ping("web").ok());
  }
}

TEST_CASE("the session id, the protocol version and the configured headers go with every request") {
  auto server = HttpServerProcess::fake();
  auto config = server->config("web");
  config.headers["Authorization"] = "Bearer sesame";
  ConnectedServer c(config);
  Json seen =
      *internal::parse_json(result_text(call_tool(*c.registry, "mcp_web_headers", Json::object())));
  CHECK(seen["Authorization"] == "Bearer sesame");
  CHECK(seen["MCP-Protocol-Version"] == "2025-06-18");
  CHECK(seen["Mcp-Session-Id"].get<std::string>().size() == 32);
  CHECK(seen["Accept"] == "application/json, text/event-stream");
  CHECK(seen["Content-Type"] == "application/json");
}

TEST_CASE("progress notifications arrive on the call's event stream") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  ProgressRecorder progress;
  CHECK(result_text(call_tool(*c.registry, "mcp_web_slow", {{"steps", 3}}, progress.context())) ==
        "done after 3 steps");
  const std::vector<std::string> notes = progress.notes();
  CHECK(notes ==
        std::vector<std::string>{"mcp_web_slow: 1/3", "mcp_web_slow: 2/3", "mcp_web_slow: 3/3"});
}

TEST_CASE("garbage, a 500 and a dropped connection fail only their own call") {
  auto server = HttpServerProcess::fake({"--json"});
  ConnectedServer c(server->config("web"));
  auto garbage = call_tool(*c.registry, "mcp_web_garbage", Json::object());
  REQUIRE_FALSE(garbage.ok());
  CHECK(garbage.status().message() ==
        "MCP call to 'garbage' failed: MCP server 'web' answered with a body that is not JSON: "
        "<html>this is not json</html>");
  auto error500 = call_tool(*c.registry, "mcp_web_error500", Json::object());
  REQUIRE_FALSE(error500.ok());
  CHECK(error500.status().code() == StatusCode::kUnavailable);
  CHECK(error500.status().message() ==
        "MCP call to 'error500' failed: MCP server 'web' answered HTTP 500: internal trouble");
  auto dropped = call_tool(*c.registry, "mcp_web_drop", Json::object());
  REQUIRE_FALSE(dropped.ok());
  CHECK(dropped.status().code() == StatusCode::kUnavailable);
  CHECK(dropped.status().message().find("MCP server 'web' dropped the connection") !=
        std::string::npos);
  CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "still here"}})) ==
        "still here");
  CHECK(c.status().connected);
  CHECK(c.status().restarts == 0);
}

TEST_CASE("a call the server never answers times out, is cancelled, and the client keeps working") {
  for (const char* mode : {"--sse", "--json"}) {
    CAPTURE(mode);
    auto server = HttpServerProcess::fake({mode});
    auto config = server->config("web");
    config.call_timeout = std::chrono::milliseconds(300);
    ConnectedServer c(config);
    auto hung = call_tool(*c.registry, "mcp_web_hang", Json::object());
    REQUIRE_FALSE(hung.ok());
    CHECK(hung.status().code() == StatusCode::kDeadlineExceeded);
    CHECK(hung.status().message() ==
          "MCP call to 'hang' failed: MCP server 'web' did not answer 'tools/call' within 0.3 s");
    CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "after"}})) == "after");
    CHECK(eventually([&] { return !server_log(*server)["cancelled"].empty(); }));
  }
}

TEST_CASE("an interrupted call aborts its request") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  ToolSessionState state;
  ToolContext ctx;
  ctx.state = &state;
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ctx.cancel.cancel();
  });
  auto hung = call_tool(*c.registry, "mcp_web_hang", Json::object(), &ctx);
  interrupter.join();
  REQUIRE_FALSE(hung.ok());
  CHECK(hung.status().code() == StatusCode::kCancelled);
  CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "after"}})) == "after");
}

TEST_CASE("a session the server forgot is started anew") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_expire", Json::object())) == "forgotten");
  auto lost = call_tool(*c.registry, "mcp_web_echo", {{"text", "hello"}});
  if (!lost.ok()) CHECK(lost.status().code() == StatusCode::kUnavailable);
  REQUIRE(eventually([&] { return c.status().connected && c.status().restarts == 1; }));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "again"}})) == "again");
}

TEST_CASE("disconnecting ends the session with a DELETE") {
  auto server = HttpServerProcess::fake();
  std::string session;
  {
    ConnectedServer c(server->config("web"));
    session =
        internal::parse_json(result_text(call_tool(*c.registry, "mcp_web_headers", Json::object())))
            ->at("Mcp-Session-Id")
            .get<std::string>();
  }
  Json deleted = server_log(*server)["deleted"];
  CHECK(std::find(deleted.begin(), deleted.end(), Json(session)) != deleted.end());
}

TEST_CASE("a tool list change announced on the GET stream re-lists the tools") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  CHECK_FALSE(c.registry->find("mcp_web_extra"));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_change_tools", Json::object())) == "changed");
  CHECK(eventually([&] { return c.registry->find("mcp_web_extra") != nullptr; }));
}

TEST_CASE("a server without a GET stream is used all the same") {
  auto server = HttpServerProcess::fake({"--no-get"});
  ConnectedServer c(server->config("web"));
  REQUIRE(c.status().connected);
  CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "posted"}})) == "posted");
}

TEST_CASE("an endpoint nobody listens at is reported unreachable and retried") {
  auto server = HttpServerProcess::fake();
  auto config = server->config("gone");
  server.reset();
  ConnectedServer c(config);
  auto s = c.status();
  CHECK_FALSE(s.connected);
  CHECK(s.last_error.code() == StatusCode::kUnavailable);
  CHECK(s.last_error.message().find("MCP server 'gone' could not be reached at " + config.url) !=
        std::string::npos);
  auto call = call_tool(*c.registry, "mcp_gone_echo", Json::object());
  CHECK_FALSE(call.ok());
}

TEST_CASE("a server that never answers initialize fails the connection attempt") {
  auto server = HttpServerProcess::fake({"--hang-initialize"});
  auto config = server->config("mute");
  config.connect_timeout = std::chrono::milliseconds(300);
  config.max_restarts = 0;
  ConnectedServer c(config);
  auto s = c.status();
  CHECK_FALSE(s.connected);
  CHECK(s.last_error.code() == StatusCode::kDeadlineExceeded);
  CHECK(s.last_error.message().find("initialize failed") != std::string::npos);
}

TEST_CASE("a header that would split the request is refused as configuration") {
  McpServerConfig config;
  config.name = "bad";
  config.url = "http://127.0.0.1:9/mcp";
  config.headers["X-Injected"] = "a\r\nHost: elsewhere";
  ConnectedServer c(config);
  auto s = c.status();
  CHECK_FALSE(s.connected);
  CHECK(s.last_error.code() == StatusCode::kInvalidArgument);
  CHECK(s.last_error.message() ==
        "MCP server 'bad': header 'X-Injected' is not a valid HTTP header");
}

TEST_CASE("requests wait for the GET stream to open, so the server can reach the client on it") {
  auto server = HttpServerProcess::fake({"--slow-get"});
  ConnectedServer c(server->config("web"));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_get_stream", Json::object())) == "open");
}
