// The agent end to end: the real HTTP path (libcurl) against the loopback mock server,
// with the SQLite store on disk.
#include <doctest/doctest.h>

#include <thread>

#include "hermes/hermes.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

struct HttpFixture {
  MockServer server;
  TempDir home;
  std::shared_ptr<ToolRegistry> tools = std::make_shared<ToolRegistry>();
  std::vector<std::string> calls;
  std::mutex calls_mu;

  HttpFixture() {
    ToolSpec add;
    add.name = "add";
    add.description = "Add two numbers.";
    add.parameters = Json::parse(
        R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})");
    add.handler = [this](const Json& args, ToolContext&) -> Result<std::string> {
      {
        std::lock_guard<std::mutex> lock(calls_mu);
        calls.push_back(args.dump());
      }
      return Json{{"sum", args.value("a", 0.0) + args.value("b", 0.0)}}.dump();
    };
    REQUIRE(tools->register_tool(add).ok());
  }

  AgentOptions options(bool stream = true) {
    AgentOptions o;
    o.provider.model = "mock-model";
    o.provider.base_url = server.base_url();
    o.provider.api_key = "sk-test";
    o.home = home.path();
    o.tools = tools;
    o.request.stream = stream;
    return o;
  }

  std::unique_ptr<Agent> agent(const AgentOptions& o) {
    auto a = Agent::create(o);
    REQUIRE_MESSAGE(a.ok(), a.status().to_string());
    return std::move(*a);
  }
};

}  // namespace

TEST_CASE("a streamed multi-step conversation with two parallel tool calls over HTTP") {
  HttpFixture f;
  f.server.enqueue(chat::tool_calls(
      {{"call_a", "add", R"({"a": 1, "b": 2})"}, {"call_b", "add", R"({"a": 10, "b": 20})"}},
      /*stream=*/true));
  f.server.enqueue(chat::tool_calls({{"call_c", "add", R"({"a": 3, "b": 30})"}}, true));
  f.server.enqueue(chat::text("The sums are 3, 30 and 33.", true));
  std::string streamed;
  AgentOptions o = f.options();
  o.callbacks.on_stream_delta = [&](std::string_view d) { streamed.append(d); };
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Add some numbers.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "The sums are 3, 30 and 33.");
  CHECK(streamed == "The sums are 3, 30 and 33.");
  CHECK(r.api_calls == 3);
  CHECK(f.calls.size() == 3);
  CHECK(r.usage.reported);

  auto requests = f.server.requests();
  REQUIRE(requests.size() == 3);
  Json second = requests[1].json();
  const Json& msgs = second["messages"];
  // system, user, assistant(2 calls), tool a, tool b — in call order.
  REQUIRE(msgs.size() == 5);
  CHECK(msgs[2]["tool_calls"].size() == 2);
  CHECK(msgs[3]["tool_call_id"] == "call_a");
  CHECK(msgs[3]["content"] == R"({"sum":3.0})");
  CHECK(msgs[4]["tool_call_id"] == "call_b");
  CHECK(requests[0].header("authorization") == "Bearer sk-test");
  CHECK(second["stream"] == true);
  CHECK(second["tools"].size() == 1);
}

TEST_CASE("a recorded stream of two parallel tool calls is assembled and executed once each") {
  HttpFixture f;
  ToolSpec weather;
  weather.name = "get_weather";
  weather.description = "Weather.";
  int weather_calls = 0;
  weather.handler = [&](const Json& args, ToolContext&) -> Result<std::string> {
    ++weather_calls;
    return Json{{"city", args.value("city", "")}, {"temp_c", 20}}.dump();
  };
  REQUIRE(f.tools->register_tool(weather).ok());
  f.server.enqueue(
      sse_fixture(std::string(HERMES_FIXTURES_DIR) + "/streams/a2_parallel_tool_calls.sse"));
  f.server.enqueue(chat::text("Paris 20, Tokyo 20.", true));
  auto agent = f.agent(f.options());
  ConversationResult r = agent->run_conversation("What's the weather in Paris and in Tokyo?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(weather_calls == 2);
  Json sent = f.server.requests()[1].json()["messages"];
  CHECK(sent[3]["tool_call_id"] == "call_TESTparis0001");
  CHECK(sent[4]["tool_call_id"] == "call_TESTtokyo0002");
  CHECK(sent[2]["tool_calls"][0]["function"]["arguments"] ==
        R"({"city":"Paris","unit":"celsius"})");
}

TEST_CASE("a 429 with Retry-After is retried after the delay and then succeeds") {
  HttpFixture f;
  f.server.enqueue(chat::error(429, "Rate limit reached for requests", "rate_limit_exceeded",
                               {{"Retry-After", "0.2"}}));
  f.server.enqueue(chat::text("Hello after waiting.", true));
  std::vector<std::string> notices;
  AgentOptions o = f.options();
  o.callbacks.on_status = [&](std::string_view kind, std::string_view) {
    notices.emplace_back(kind);
  };
  auto agent = f.agent(o);
  auto started = std::chrono::steady_clock::now();
  ConversationResult r = agent->run_conversation("hi");
  auto waited = std::chrono::steady_clock::now() - started;
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(f.server.request_count() == 2);
  CHECK(waited >= std::chrono::milliseconds(200));  // Retry-After honoured, not skipped.
  CHECK(std::find(notices.begin(), notices.end(), "retry") != notices.end());
}

TEST_CASE("a session is persisted in SQLite, resumed by a second agent and found by search") {
  HttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 2, "b": 2})"}}, false));
  f.server.enqueue(chat::text("Two plus two is four, said the flamingo.", false));
  f.server.enqueue(chat::text("You asked about two plus two.", false));
  std::string session_id;
  {
    auto agent = f.agent(f.options(false));
    ConversationResult r = agent->run_conversation("What is two plus two?");
    REQUIRE_MESSAGE(r.completed, r.error);
    session_id = r.session_id;
  }
  AgentOptions o = f.options(false);
  o.persistence.session_id = session_id;
  auto resumed = f.agent(o);
  REQUIRE(resumed->history().size() == 4);  // user, assistant(call), tool, assistant
  ConversationResult r = resumed->run_conversation("What did I ask?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.session_id == session_id);
  // The second run continues the same history.
  Json sent = f.server.requests()[2].json()["messages"];
  REQUIRE(sent.size() == 6);
  CHECK(sent[1]["content"] == "What is two plus two?");
  CHECK(sent[5]["content"] == "What did I ask?");

  auto store = open_sqlite_store(default_state_db_path(f.home.path()));
  REQUIRE(store.ok());
  auto stored = (*store)->load_messages(session_id);
  REQUIRE(stored.ok());
  CHECK(stored->size() == 6);
  auto hits = search_of(*store).search("flamingo");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].session_id == session_id);
  CHECK((*hits)[0].snippet.find(">>>flamingo<<<") != std::string::npos);
}

TEST_CASE("server errors exhaust the retries, fail the turn and keep the accepted messages") {
  HttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 1})"}}, true));
  MockResponse not_json;
  not_json.body = "<html>502 Bad Gateway</html>";
  not_json.headers = {{"Content-Type", "text/html"}};
  not_json.status = 200;
  f.server.enqueue(not_json);
  f.server.enqueue(chat::error(500, "internal error"));
  MockResponse cut = chat::text("this answer is cut short", true);
  cut.drop_after_chunks = 2;
  f.server.enqueue(cut);
  AgentOptions o = f.options();
  o.failover.max_retries = 3;
  auto agent = f.agent(o);
  ConversationResult r = agent->run_conversation("add one and one");
  CHECK_FALSE(r.completed);
  CHECK(r.failed);
  CHECK_FALSE(r.error.empty());
  CHECK(f.server.request_count() == 4);
  // user, assistant(call), tool: everything accepted is in the store.
  auto store = open_sqlite_store(default_state_db_path(f.home.path()));
  REQUIRE(store.ok());
  auto stored = (*store)->load_messages(r.session_id);
  REQUIRE(stored.ok());
  REQUIRE(stored->size() == 3);
  CHECK((*stored)[2].role == Role::kTool);
}
