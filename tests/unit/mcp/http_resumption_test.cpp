// Resuming a call's event stream that ended before the answer, against the tool `resume`
// of tests/fixtures/mcp/fake_http_server.py.
#include <doctest/doctest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/json_text.hpp"
#include "http_server_process.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

// The GETs that resumed a stream, as the server saw them.
Json resumes(const HttpServerProcess& server) {
  ConnectedServer c(server.config("log"));
  return internal::parse_json(
             result_text(call_tool(*c.registry, "mcp_log_server_log", Json::object())))
      ->at("resumes");
}

std::vector<std::string> last_event_ids(const Json& resumes) {
  std::vector<std::string> ids;
  for (const Json& r : resumes) ids.push_back(r["last_event_id"].get<std::string>());
  return ids;
}

}  // namespace

TEST_CASE("a call whose stream ends before the answer gets it on a GET from the last event id") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 200}})) == "resumed");
  const Json seen = resumes(*server);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["last_event_id"] == "stream0-0");
  CHECK(seen[0]["accept"] == "text/event-stream");
  CHECK(seen[0]["protocol"] == "2025-06-18");
  CHECK(seen[0]["session"].get<std::string>().size() == 32);
  // The server's retry is waited for: the GET never comes sooner (less a margin for the
  // server's own clock reading before the stream closed).
  CHECK(seen[0]["after_ms"].get<double>() >= 150);
  CHECK(result_text(call_tool(*c.registry, "mcp_web_echo", {{"text", "after"}})) == "after");
}

TEST_CASE("each resumption sends the latest event id and its events arrive like the original's") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  ProgressRecorder progress;
  CHECK(result_text(call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 20}, {"closes", 2}},
                              progress.context())) == "resumed");
  CHECK(last_event_ids(resumes(*server)) ==
        std::vector<std::string>{"stream0-0", "stream0-1", "stream0-2"});
  const std::vector<std::string> notes = progress.notes();
  CHECK(notes.size() == 3);  // One progress event on each resumed stream.
}

TEST_CASE("a stream whose connection drops before the answer is resumed too") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 20}, {"drop", true}})) ==
        "resumed");
  CHECK(last_event_ids(resumes(*server)) == std::vector<std::string>{"stream0-0"});
}

TEST_CASE("without a retry field the client waits a second before resuming") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  CHECK(result_text(call_tool(*c.registry, "mcp_web_resume", Json::object())) == "resumed");
  const Json seen = resumes(*server);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0]["after_ms"].get<double>() >= 950);
}

TEST_CASE("a server that refuses the GET fails the call, saying it cannot resume") {
  auto server = HttpServerProcess::fake({"--no-get"});
  ConnectedServer c(server->config("web"));
  auto call = call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 20}});
  REQUIRE_FALSE(call.ok());
  CHECK(call.status().code() == StatusCode::kFailedPrecondition);
  const std::string message = call.status().message();
  INFO(message);
  CHECK(message.rfind("MCP call to 'resume' failed: MCP server 'web' ended the event stream of "
                      "request ",
                      0) == 0);
  CHECK(message.find(" before answering and does not offer resuming it (HTTP 405 to the GET)") !=
        std::string::npos);
  CHECK(c.status().connected);
}

TEST_CASE("a resumed stream that never answers ends with the call's timeout") {
  auto server = HttpServerProcess::fake();
  auto config = server->config("web");
  config.call_timeout = std::chrono::milliseconds(500);
  ConnectedServer c(config);
  auto call = call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 20}, {"silent", true}});
  REQUIRE_FALSE(call.ok());
  CHECK(call.status().code() == StatusCode::kDeadlineExceeded);
  CHECK(call.status().message() ==
        "MCP call to 'resume' failed: MCP server 'web' did not answer 'tools/call' within 0.5 s");
  CHECK(resumes(*server).size() == 1);
}

TEST_CASE("a server that keeps ending the stream without the answer is given up after five tries") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  auto call = call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 10}, {"closes", 100}});
  REQUIRE_FALSE(call.ok());
  CHECK(call.status().code() == StatusCode::kUnavailable);
  CHECK(call.status().message().find("without answering, 5 times in a row") != std::string::npos);
  CHECK(last_event_ids(resumes(*server)) ==
        std::vector<std::string>{"stream0-0", "stream0-1", "stream0-2", "stream0-3", "stream0-4"});
}

TEST_CASE("a call cancelled while it waits to resume ends without resuming") {
  auto server = HttpServerProcess::fake();
  ConnectedServer c(server->config("web"));
  ToolSessionState state;
  ToolContext ctx;
  ctx.state = &state;
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ctx.cancel.cancel();
  });
  auto call = call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 60'000}}, &ctx);
  interrupter.join();
  REQUIRE_FALSE(call.ok());
  CHECK(call.status().code() == StatusCode::kCancelled);
  CHECK(resumes(*server).empty());
}

TEST_CASE("a call that times out while it waits to resume ends with its timeout") {
  auto server = HttpServerProcess::fake();
  auto config = server->config("web");
  config.call_timeout = std::chrono::milliseconds(300);
  ConnectedServer c(config);
  auto call = call_tool(*c.registry, "mcp_web_resume", {{"retry_ms", 60'000}});
  REQUIRE_FALSE(call.ok());
  CHECK(call.status().code() == StatusCode::kDeadlineExceeded);
  CHECK(resumes(*server).empty());
}
