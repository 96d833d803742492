// The MCP client against tests/fixtures/mcp/fake_server.py, a server that can misbehave
// on demand.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "common/json_text.hpp"
#include "mcp_test_support.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

struct FakeServers {
  std::shared_ptr<ToolRegistry> registry = std::make_shared<ToolRegistry>();
  std::unique_ptr<McpServers> servers;

  explicit FakeServers(std::vector<McpServerConfig> configs) {
    auto r = McpServers::connect(std::move(configs), registry);
    REQUIRE(r.ok());
    servers = std::move(*r);
  }
  McpServerStatus status(const std::string& name) const {
    auto all = servers->status();
    auto* s = find_status(all, name);
    REQUIRE(s != nullptr);
    return *s;
  }
  bool available(const std::string& tool) const {
    auto names = registry->resolve({}, {});
    return std::find(names.begin(), names.end(), tool) != names.end();
  }
};

Json json_of(const std::string& text) {
  auto j = internal::parse_json(text);
  REQUIRE(j.has_value());
  return *j;
}

}  // namespace

TEST_CASE("a server's tools are listed across pages and registered under its toolset") {
  FakeServers c({fake_server("fake", {"--page-size", "2"})});
  auto s = c.status("fake");
  CHECK(s.connected);
  CHECK(s.protocol_version == "2025-06-18");
  CHECK(s.server_name == "fake");
  // 14 listed, 2 with invalid schemas.
  CHECK(s.tools.size() == 12);
  CHECK(std::count(s.tools.begin(), s.tools.end(), "mcp_fake_with_space") == 1);
  auto spec = c.registry->find("mcp_fake_echo");
  REQUIRE(spec);
  CHECK(spec->toolset == "mcp-fake");
  CHECK(spec->description == "Echoes text");
  CHECK(spec->parameters["required"] == Json::array({"text"}));
  CHECK(spec->max_result_chars == 50000);
  CHECK_FALSE(spec->parallel_safe);
  auto image = c.registry->find("mcp_fake_image");
  REQUIRE(image);
  CHECK(image->parameters["properties"] == Json::object());
}

TEST_CASE("tools with invalid schemas are skipped with the reason, the others register") {
  FakeServers c({fake_server("fake")});
  auto s = c.status("fake");
  CHECK_FALSE(c.registry->find("mcp_fake_broken"));
  CHECK_FALSE(c.registry->find("mcp_fake_broken_too"));
  REQUIRE(s.skipped_tools.size() == 2);
  CHECK(s.skipped_tools[0] == "broken: inputSchema type is \"string\", not \"object\"");
  CHECK(s.skipped_tools[1] == "broken.too: inputSchema is not a JSON object");
  CHECK(c.registry->find("mcp_fake_echo"));
}

TEST_CASE("include and exclude filters choose the registered tools") {
  auto only = fake_server("only");
  only.include_tools = {"echo", "add"};
  auto but = fake_server("but");
  but.exclude_tools = {"echo"};
  FakeServers c({only, but});
  CHECK(c.status("only").tools == std::vector<std::string>{"mcp_only_add", "mcp_only_echo"});
  CHECK_FALSE(c.registry->find("mcp_but_echo"));
  CHECK(c.registry->find("mcp_but_add"));
}

TEST_CASE("text, structured, image and error results reach the model as text") {
  FakeServers c({fake_server("fake")});
  auto echo = call_tool(*c.registry, "mcp_fake_echo", {{"text", "hello"}});
  REQUIRE(echo.ok());
  CHECK(json_of(*echo) == Json{{"result", "hello"}});

  auto add = call_tool(*c.registry, "mcp_fake_add", {{"a", 2}, {"b", 3}});
  REQUIRE(add.ok());
  CHECK(json_of(*add) == Json{{"result", "5"}, {"structuredContent", {{"sum", 5}}}});

  auto image = call_tool(*c.registry, "mcp_fake_image", Json::object());
  REQUIRE(image.ok());
  CHECK(json_of(*image)["result"] == "a pixel:\n[image: image/png, 45 bytes]");

  auto fail = call_tool(*c.registry, "mcp_fake_fail", Json::object());
  REQUIRE_FALSE(fail.ok());
  CHECK(fail.status().message() == "it broke");
}

TEST_CASE("results and errors reach the model with credentials masked") {
  FakeServers c({fake_server("fake")});
  auto echo = call_tool(*c.registry, "mcp_fake_echo",
                        {{"text",
                          "fetch https://ci:Sup3rS3cret@registry.example/v2 with "
                          "sk-ant-api03-abcdefghijklmnopqrstuvwx"}});
  REQUIRE(echo.ok());
  CHECK(echo->find("Sup3rS3cret") == std::string::npos);
  CHECK(echo->find("abcdefghijklmnopqrstuvwx") == std::string::npos);
  CHECK(json_of(*echo)["result"].get<std::string>().find("https://ci:***@registry.example/v2") !=
        std::string::npos);
  auto fail = call_tool(*c.registry, "mcp_fake_fail",
                        {{"why", "login refused for https://ci:Sup3rS3cret@registry.example"}});
  REQUIRE_FALSE(fail.ok());
  CHECK(fail.status().message() == "login refused for https://ci:***@registry.example");
}

TEST_CASE("progress notifications are reported through on_status while a call runs") {
  FakeServers c({fake_server("fake")});
  ProgressRecorder progress;
  auto r = call_tool(*c.registry, "mcp_fake_slow", {{"steps", 3}}, progress.context());
  REQUIRE(r.ok());
  CHECK(json_of(*r)["result"] == "done after 3 steps");
  const std::vector<std::string> notes = progress.notes();
  CHECK(notes == std::vector<std::string>{"mcp_fake_slow: 1/3 step 1", "mcp_fake_slow: 2/3 step 2",
                                          "mcp_fake_slow: 3/3 step 3"});
}

TEST_CASE("a call the server never answers times out with a clear error and is cancelled") {
  auto config = fake_server("fake");
  config.call_timeout = std::chrono::milliseconds(300);
  FakeServers c({config});
  auto r = call_tool(*c.registry, "mcp_fake_hang", Json::object());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kDeadlineExceeded);
  CHECK(r.status().message() ==
        "MCP call to 'hang' failed: MCP server 'fake' did not answer 'tools/call' within 0.3 s");
  // The server was told to stop working on it, and still answers other calls.
  auto ids = call_tool(*c.registry, "mcp_fake_cancelled_requests", Json::object());
  REQUIRE(ids.ok());
  CHECK(json_of(json_of(*ids)["result"].get<std::string>()).size() == 1);
}

TEST_CASE("an interrupted call sends notifications/cancelled and returns promptly") {
  FakeServers c({fake_server("fake")});
  ToolSessionState state;
  ToolContext ctx;
  ctx.state = &state;
  std::thread interrupter([token = ctx.cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    token.cancel();
  });
  auto r = call_tool(*c.registry, "mcp_fake_hang", Json::object(), &ctx);
  interrupter.join();
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kCancelled);
  CHECK(r.status().message() == "MCP call interrupted: user sent a new message");
  auto ids = call_tool(*c.registry, "mcp_fake_cancelled_requests", Json::object());
  REQUIRE(ids.ok());
  CHECK(json_of(json_of(*ids)["result"].get<std::string>()).size() == 1);
}

TEST_CASE("a server that exits during a call fails that call and is restarted") {
  FakeServers c({fake_server("fake")});
  auto r = call_tool(*c.registry, "mcp_fake_die", Json::object());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kUnavailable);
  CHECK(r.status().message() == "MCP call to 'die' failed: MCP server 'fake' exited with status 3");
  REQUIRE(
      eventually([&] { return c.status("fake").restarts == 1 && c.available("mcp_fake_echo"); }));
  auto echo = call_tool(*c.registry, "mcp_fake_echo", {{"text", "back"}});
  REQUIRE(echo.ok());
  CHECK(json_of(*echo)["result"] == "back");
}

TEST_CASE("a server that cannot start leaves its tools unavailable and others working") {
  auto broken = fake_server("broken", {"--exit-at-start"});
  broken.max_restarts = 2;
  FakeServers c({broken, fake_server("fine")});
  auto s = c.status("broken");
  CHECK_FALSE(s.connected);
  CHECK(s.tools.empty());
  CHECK(s.last_error.message().find("MCP server 'broken' exited with status 7") !=
        std::string::npos);
  auto echo = call_tool(*c.registry, "mcp_fine_echo", {{"text", "still here"}});
  REQUIRE(echo.ok());
}

TEST_CASE("a program that does not exist is reported when connecting") {
  McpServerConfig missing;
  missing.name = "missing";
  missing.command = "hermes-no-such-mcp-server";
  missing.max_restarts = 0;
  FakeServers c({missing});
  auto s = c.status("missing");
  CHECK_FALSE(s.connected);
  CHECK(s.last_error.message() ==
        "MCP server 'missing': cannot run 'hermes-no-such-mcp-server': not found in PATH");
}

TEST_CASE("garbage lines on stdout are skipped and the protocol goes on") {
  FakeServers c({fake_server("noisy", {"--garbage"})});
  CHECK(c.status("noisy").connected);
  auto echo = call_tool(*c.registry, "mcp_noisy_echo", {{"text", "through the noise"}});
  REQUIRE(echo.ok());
  CHECK(json_of(*echo)["result"] == "through the noise");
}

TEST_CASE("an oversized message disconnects the server with a clear error for the call") {
  auto config = fake_server("big");
  config.max_message_bytes = 64 * 1024;
  config.max_restarts = 1;
  FakeServers c({config, fake_server("small")});
  auto r = call_tool(*c.registry, "mcp_big_huge", {{"bytes", 200000}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() ==
        "MCP call to 'huge' failed: MCP server 'big' sent a message larger than 65536 bytes; "
        "disconnected");
  auto other = call_tool(*c.registry, "mcp_small_huge", {{"bytes", 200000}});
  REQUIRE(other.ok());
  CHECK(other->size() > 200000);
}

TEST_CASE("a server that never answers initialize fails to connect after the timeout") {
  auto config = fake_server("mute", {"--no-answer"});
  config.connect_timeout = std::chrono::milliseconds(300);
  config.max_restarts = 0;
  FakeServers c({config});
  auto s = c.status("mute");
  CHECK_FALSE(s.connected);
  CHECK(s.last_error.code() == StatusCode::kDeadlineExceeded);
  CHECK(s.last_error.message() ==
        "initialize failed: MCP server 'mute' did not answer 'initialize' within 0.3 s");
}

TEST_CASE("an unsupported protocol version is refused") {
  auto config = fake_server("future", {"--version", "2099-01-01"});
  config.max_restarts = 0;
  FakeServers c({config});
  auto s = c.status("future");
  CHECK_FALSE(s.connected);
  CHECK(s.last_error.message() ==
        "MCP server 'future' speaks MCP protocol version '2099-01-01', which hermes does not "
        "support");
}

TEST_CASE("an older protocol version the server prefers is accepted") {
  FakeServers c({fake_server("older", {"--version", "2025-03-26"})});
  CHECK(c.status("older").protocol_version == "2025-03-26");
}

TEST_CASE("tools/list_changed re-lists the tools and updates the registry") {
  FakeServers c({fake_server("fake")});
  CHECK_FALSE(c.registry->find("mcp_fake_extra"));
  REQUIRE(call_tool(*c.registry, "mcp_fake_change_tools", Json::object()).ok());
  REQUIRE(eventually([&] { return c.registry->find("mcp_fake_extra") != nullptr; }));
  CHECK(c.registry->find("mcp_fake_extra")->toolset == "mcp-fake");
}

TEST_CASE("destructive tools ask for approval and are denied without an approver") {
  FakeServers c({fake_server("fake")});
  auto denied = call_tool(*c.registry, "mcp_fake_destroy", Json::object());
  REQUIRE_FALSE(denied.ok());
  CHECK(denied.status().code() == StatusCode::kPermissionDenied);

  std::vector<ApprovalRequest> asked;
  Callbacks callbacks;
  ApprovalDecision answer = ApprovalDecision::kDeny;
  callbacks.on_approval = [&](const ApprovalRequest& r) {
    asked.push_back(r);
    return answer;
  };
  ToolSessionState state;
  ToolContext ctx;
  ctx.state = &state;
  ctx.callbacks = &callbacks;
  auto no = call_tool(*c.registry, "mcp_fake_destroy", Json::object(), &ctx);
  REQUIRE_FALSE(no.ok());
  CHECK(no.status().message() == "The user denied running MCP tool 'destroy' of server 'fake'.");
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].tool_name == "mcp_fake_destroy");
  CHECK(asked[0].pattern_key == "mcp:fake:destroy");

  answer = ApprovalDecision::kSession;
  REQUIRE(call_tool(*c.registry, "mcp_fake_destroy", Json::object(), &ctx).ok());
  REQUIRE(call_tool(*c.registry, "mcp_fake_destroy", Json::object(), &ctx).ok());
  CHECK(asked.size() == 2);  // Remembered for the session.
  // Tools without the hint never ask.
  REQUIRE(call_tool(*c.registry, "mcp_fake_echo", {{"text", "x"}}, &ctx).ok());
  CHECK(asked.size() == 2);
}

TEST_CASE("ping reaches a connected server and names an unknown one") {
  FakeServers c({fake_server("fake")});
  CHECK(c.servers->ping("fake").ok());
  CHECK(c.servers->ping("nope").code() == StatusCode::kNotFound);
}

TEST_CASE("destroying the set unregisters the tools of its servers") {
  auto registry = std::make_shared<ToolRegistry>();
  {
    auto servers = McpServers::connect({fake_server("fake")}, registry);
    REQUIRE(servers.ok());
    CHECK(registry->find("mcp_fake_echo"));
  }
  CHECK(registry->names().empty());
}

TEST_CASE("bad configurations are refused before anything starts") {
  auto registry = std::make_shared<ToolRegistry>();
  CHECK(McpServers::connect({fake_server("a"), fake_server("a")}, registry).status().message() ==
        "MCP server name 'a' is used twice");
  McpServerConfig nothing;
  nothing.name = "nothing";
  CHECK(McpServers::connect({nothing}, registry).status().message() ==
        "MCP server 'nothing' needs a command or a url");
}

TEST_CASE("a message nested without end disconnects the server with a clear error for the call") {
  auto config = fake_server("deep", {"--deep"});
  config.max_restarts = 1;
  FakeServers c({config});
  auto r = call_tool(*c.registry, "mcp_deep_echo", {{"text", "hello"}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() ==
        "MCP call to 'echo' failed: MCP server 'deep' sent JSON nested deeper than 256 levels; "
        "disconnected");
}

TEST_CASE("MCP tools are not cut off by the agent's deadline: progress keeps a call alive") {
  FakeServers c({fake_server("timed")});
  auto spec = c.registry->find("mcp_timed_echo");
  REQUIRE(spec);
  CHECK(spec->call_timeout == std::chrono::milliseconds(0));
}
