// The JSON-RPC core without a transport: messages are captured and answers injected.
#include "mcp/json_rpc_session.hpp"

#include <doctest/doctest.h>

#include <thread>

#include "common/tracer.hpp"
#include "support/recording_trace_sink.hpp"

using namespace hermes;
using hermes::internal::JsonRpcSession;

namespace {

// A peer that records what the session sends and can answer from another thread.
struct Peer {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Json> sent;
  JsonRpcSession session{"MCP server 'peer'", [this](const Json& m) {
                           std::lock_guard lock(mu);
                           sent.push_back(m);
                           cv.notify_all();
                           return Status();
                         }};

  // Waits for the n-th sent message (0-based).
  Json wait_sent(std::size_t n) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return sent.size() > n; });
    return sent[n];
  }
};

}  // namespace

TEST_CASE("a call is answered by the response carrying its id") {
  Peer peer;
  std::thread server([&] {
    Json request = peer.wait_sent(0);
    CHECK(request["jsonrpc"] == "2.0");
    CHECK(request["method"] == "tools/list");
    peer.session.receive(
        {{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", {{"tools", Json::array()}}}});
  });
  auto r = peer.session.call("tools/list", Json(), {});
  server.join();
  REQUIRE(r.ok());
  CHECK((*r)["tools"] == Json::array());
}

TEST_CASE("an error response becomes a status naming the code and message") {
  Peer peer;
  std::thread server([&] {
    Json request = peer.wait_sent(0);
    peer.session.receive({{"jsonrpc", "2.0"},
                          {"id", request["id"]},
                          {"error", {{"code", -32602}, {"message", "Unknown tool: nope"}}}});
  });
  auto r = peer.session.call("tools/call", Json{{"name", "nope"}}, {});
  server.join();
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message() == "MCP error -32602: Unknown tool: nope");
}

TEST_CASE("a timed-out call is followed by notifications/cancelled") {
  Peer peer;
  JsonRpcSession::CallOptions options;
  options.timeout = std::chrono::milliseconds(50);
  auto r = peer.session.call("tools/call", Json::object(), options);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kDeadlineExceeded);
  Json cancel = peer.wait_sent(1);
  CHECK(cancel["method"] == "notifications/cancelled");
  CHECK(cancel["params"]["requestId"] == peer.wait_sent(0)["id"]);
  CHECK_FALSE(cancel.contains("id"));
}

TEST_CASE("progress is delivered to its call through the progress token") {
  Peer peer;
  std::vector<double> seen;
  JsonRpcSession::CallOptions options;
  options.on_progress = [&](const Json& p) { seen.push_back(p["progress"].get<double>()); };
  std::thread server([&] {
    Json request = peer.wait_sent(0);
    Json token = request["params"]["_meta"]["progressToken"];
    for (int i = 1; i <= 2; ++i) {
      peer.session.receive({{"jsonrpc", "2.0"},
                            {"method", "notifications/progress"},
                            {"params", {{"progressToken", token}, {"progress", i}}}});
    }
    peer.session.receive({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", Json::object()}});
  });
  auto r = peer.session.call("tools/call", Json::object(), options);
  server.join();
  REQUIRE(r.ok());
  CHECK(seen == std::vector<double>{1, 2});
}

TEST_CASE("the server's ping is answered and unknown requests get method-not-found") {
  Peer peer;
  peer.session.receive({{"jsonrpc", "2.0"}, {"id", "p1"}, {"method", "ping"}});
  peer.session.receive({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "sampling/createMessage"}});
  Json pong = peer.wait_sent(0);
  CHECK(pong == Json{{"jsonrpc", "2.0"}, {"id", "p1"}, {"result", Json::object()}});
  Json refused = peer.wait_sent(1);
  CHECK(refused["id"] == 9);
  CHECK(refused["error"]["code"] == -32601);
}

TEST_CASE("notifications reach the handler and junk is ignored") {
  Peer peer;
  std::vector<std::string> methods;
  peer.session.set_notification_handler(
      [&](const std::string& m, const Json&) { methods.push_back(m); });
  peer.session.receive({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
  peer.session.receive(Json::array({1, 2}));
  peer.session.receive({{"hello", "world"}});
  peer.session.receive(
      {{"jsonrpc", "2.0"}, {"id", 12345}, {"result", Json::object()}});  // Nobody asked.
  CHECK(methods == std::vector<std::string>{"notifications/tools/list_changed"});
}

TEST_CASE("closing the session fails waiting calls and later ones with the reason") {
  Peer peer;
  std::thread closer([&] {
    peer.wait_sent(0);
    peer.session.close(Status::unavailable("MCP server 'peer' exited with status 1"));
  });
  auto r = peer.session.call("tools/call", Json::object(), {});
  closer.join();
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == "MCP server 'peer' exited with status 1");
  auto later = peer.session.call("ping", Json(), {});
  CHECK(later.status().message() == "MCP server 'peer' exited with status 1");
}

TEST_CASE("a call inside a traced span is a client span of its own; outside any, none") {
  Peer peer;
  auto sink = std::make_shared<hermes::testing::RecordingTraceSink>();
  hermes::internal::ActiveSpan tool(hermes::internal::SpanParent{sink, {}, false},
                                    "execute_tool search", SpanKind::kInternal);
  std::thread server([&] {
    for (std::size_t n = 0; n < 2; ++n) {
      Json request = peer.wait_sent(n);
      if (n == 0) {
        peer.session.receive(
            {{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", Json::object()}});
      } else {
        peer.session.receive({{"jsonrpc", "2.0"},
                              {"id", request["id"]},
                              {"error", {{"code", -32602}, {"message", "Unknown tool: nope"}}}});
      }
    }
  });
  {
    hermes::internal::SpanScope scope(tool.as_parent());
    CHECK(peer.session.call("tools/call", Json{{"name", "search"}}, {}).ok());
    CHECK_FALSE(peer.session.call("tools/call", Json{{"name", "nope"}}, {}).ok());
  }
  server.join();
  tool.end();
  const auto calls = sink->named("tools/call", true);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].name == "tools/call search");
  CHECK(calls[0].kind == SpanKind::kClient);
  CHECK(calls[0].parent_span_id == sink->named("execute_tool search").at(0).context.span_id);
  CHECK(hermes::testing::string_attribute(calls[0], "mcp.method.name") == "tools/call");
  CHECK(hermes::testing::string_attribute(calls[0], "gen_ai.tool.name") == "search");
  CHECK(hermes::testing::string_attribute(calls[0], "hermes.mcp.server") == "MCP server 'peer'");
  CHECK(calls[0].status == SpanStatusCode::kUnset);
  CHECK(calls[1].status == SpanStatusCode::kError);
  CHECK(hermes::testing::string_attribute(calls[1], "error.type") == "mcp_error");

  // Outside any span (the connection's own requests): nothing is recorded.
  const std::size_t before = sink->spans().size();
  std::thread answer([&] {
    Json request = peer.wait_sent(2);
    peer.session.receive({{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", Json::object()}});
  });
  CHECK(peer.session.call("tools/list", Json(), {}).ok());
  answer.join();
  CHECK(sink->spans().size() == before);
}
