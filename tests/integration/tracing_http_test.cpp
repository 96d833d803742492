// Tracing over the real HTTP path: a conversation with a failed attempt, a retry and two
// tool calls produces the span tree the GenAI conventions describe, with the right
// parents, attributes and statuses, and the metrics that go with it. Message text stays
// off the spans unless content capture is on, and then it is redacted.
#include <stdexcept>

#include "integration/loop_http_fixture.hpp"
#include "support/recording_trace_sink.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

AgentOptions traced(LoopHttpFixture& f, const std::shared_ptr<TraceSink>& sink) {
  AgentOptions o = f.options();
  o.tracing.sink = sink;
  o.failover.backoff.base = std::chrono::milliseconds(1);
  o.failover.backoff.max = std::chrono::milliseconds(1);
  return o;
}

// The scripted model: a server error, then two additions, then the answer.
void script_tool_conversation(LoopHttpFixture& f) {
  f.server.enqueue(chat::error(500, "the upstream fell over"));
  f.server.enqueue(chat::tool_calls(
      {{"call_a", "add", R"({"a":1,"b":2})"}, {"call_b", "add", R"({"a":3,"b":4})"}}, true));
  f.server.enqueue(chat::text("3 and 7.", true));
}

bool any_string_contains(const std::vector<SpanData>& spans, const std::string& needle) {
  for (const SpanData& s : spans) {
    for (const Attribute& a : s.attributes) {
      if (const auto* text = std::get_if<std::string>(&a.value)) {
        if (text->find(needle) != std::string::npos) return true;
      }
    }
  }
  return false;
}

}  // namespace

TEST_CASE("a turn with a retry and two tool calls produces the GenAI span tree") {
  LoopHttpFixture f;
  script_tool_conversation(f);
  auto sink = std::make_shared<RecordingTraceSink>();
  auto agent = f.agent(traced(f, sink));

  ConversationResult r = agent->run_conversation("What are 1+2 and 3+4? my-private-question");
  REQUIRE_MESSAGE(r.completed, r.error);

  // One root: the turn.
  const auto turns = sink->named("invoke_agent hermes");
  REQUIRE(turns.size() == 1);
  const SpanData& turn = turns[0];
  CHECK_FALSE(turn.parent_span_id.valid());
  CHECK(string_attribute(turn, "gen_ai.operation.name") == "invoke_agent");
  CHECK(string_attribute(turn, "gen_ai.conversation.id") == r.session_id);
  CHECK(string_attribute(turn, "gen_ai.request.model") == "mock-model");
  CHECK(string_attribute(turn, "hermes.exit_reason") == r.exit_reason);
  CHECK(int_attribute(turn, "hermes.api_calls") == 2);
  CHECK(int_attribute(turn, "gen_ai.usage.input_tokens") == r.usage.input_tokens);
  CHECK(int_attribute(turn, "gen_ai.usage.output_tokens") == r.usage.output_tokens);
  CHECK(turn.status == SpanStatusCode::kUnset);

  // Every span is in the turn's trace, and every span that started also ended.
  const auto all = sink->spans();
  CHECK(sink->started().size() == all.size());
  for (const SpanData& s : all) {
    CHECK(s.context.trace_id == turn.context.trace_id);
    CHECK(s.end_time_unix_nano >= s.start_time_unix_nano);
  }

  // Two steps under the turn.
  const auto steps = sink->children_of(turn, "hermes.step");
  REQUIRE(steps.size() == 2);
  CHECK(int_attribute(steps[0], "hermes.step.number") == 1);
  CHECK(int_attribute(steps[1], "hermes.step.number") == 2);

  // Step 1: the failed attempt and its retry, each a client span of its own.
  const auto attempts = sink->children_of(steps[0], "chat ", true);
  REQUIRE(attempts.size() == 2);
  CHECK(attempts[0].name == "chat mock-model");
  CHECK(attempts[0].kind == SpanKind::kClient);
  CHECK(attempts[0].status == SpanStatusCode::kError);
  CHECK(string_attribute(attempts[0], "error.type") == "server_error");
  CHECK(int_attribute(attempts[0], "http.response.status_code") == 500);
  CHECK(int_attribute(attempts[0], "hermes.attempt") == 1);
  CHECK(attempts[1].status == SpanStatusCode::kUnset);
  CHECK(int_attribute(attempts[1], "hermes.attempt") == 2);
  CHECK(string_attribute(attempts[1], "gen_ai.operation.name") == "chat");
  CHECK(string_attribute(attempts[1], "gen_ai.system") == "custom");
  CHECK(string_attribute(attempts[1], "gen_ai.request.model") == "mock-model");
  CHECK(string_attribute(attempts[1], "server.address") == "127.0.0.1");
  CHECK(int_attribute(attempts[1], "gen_ai.usage.input_tokens") == 10);
  CHECK(int_attribute(attempts[1], "gen_ai.usage.output_tokens") == 5);
  const AttributeValue* reasons = attempts[1].find("gen_ai.response.finish_reasons");
  REQUIRE(reasons != nullptr);
  CHECK(std::get<std::vector<std::string>>(*reasons) == std::vector<std::string>{"tool_calls"});

  // Step 1's two tool calls, under the step.
  const auto tools = sink->children_of(steps[0], "execute_tool add");
  REQUIRE(tools.size() == 2);
  std::vector<std::string> ids{string_attribute(tools[0], "gen_ai.tool.call.id"),
                               string_attribute(tools[1], "gen_ai.tool.call.id")};
  std::sort(ids.begin(), ids.end());
  CHECK(ids == std::vector<std::string>{"call_a", "call_b"});
  for (const SpanData& t : tools) {
    CHECK(string_attribute(t, "gen_ai.operation.name") == "execute_tool");
    CHECK(string_attribute(t, "gen_ai.tool.name") == "add");
    CHECK(t.status == SpanStatusCode::kUnset);
  }

  // Step 2: the answer.
  const auto answer = sink->children_of(steps[1], "chat mock-model");
  REQUIRE(answer.size() == 1);
  CHECK(std::get<std::vector<std::string>>(*answer[0].find("gen_ai.response.finish_reasons")) ==
        std::vector<std::string>{"stop"});

  // Store writes hang under the turn or a step; the user message is written before the
  // first step.
  const auto writes = sink->named("hermes.store.write");
  REQUIRE_FALSE(writes.empty());
  CHECK(writes[0].parent_span_id == turn.context.span_id);
  for (const SpanData& w : writes) {
    const bool under_step = std::any_of(steps.begin(), steps.end(), [&](const SpanData& s) {
      return w.parent_span_id == s.context.span_id;
    });
    CHECK((under_step || w.parent_span_id == turn.context.span_id));
  }

  // No message text on any span without content capture.
  CHECK_FALSE(any_string_contains(all, "my-private-question"));
  CHECK_FALSE(any_string_contains(all, "3 and 7."));

  // Metrics: three attempts (one failed), the tokens of the two answers, two tool calls.
  CHECK(sink->total("hermes.model_calls") == 3);
  CHECK(sink->total("hermes.errors") == 1);
  CHECK(sink->count("gen_ai.client.operation.duration") == 3);
  CHECK(sink->total("gen_ai.client.token.usage") == 2 * (10 + 5));
  CHECK(sink->total("hermes.tool_calls") == 2);
  CHECK(sink->count("hermes.step.duration") == 2);
}

TEST_CASE("content capture puts the messages and tool arguments on spans, redacted") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls(
      {{"call_k", "add", R"({"a":1,"b":2,"note":"sk-proj-abcdefghijklmnopqrstuvwxyz0123"})"}},
      true));
  f.server.enqueue(chat::text("The sum is 3.", true));
  auto sink = std::make_shared<RecordingTraceSink>();
  AgentOptions o = traced(f, sink);
  o.tracing.capture_content = true;
  auto agent = f.agent(o);

  ConversationResult r =
      agent->run_conversation("Add one and two, key sk-proj-zyxwvutsrqponmlkjihg99");
  REQUIRE_MESSAGE(r.completed, r.error);
  const auto turn = sink->named("invoke_agent hermes").at(0);
  const std::string input = string_attribute(turn, "gen_ai.input.messages");
  CHECK(input.find("Add one and two") != std::string::npos);
  CHECK(input.find("zyxwvutsrqponmlkjihg99") == std::string::npos);
  Json parsed = Json::parse(input);
  CHECK(parsed[0]["role"] == "user");
  CHECK(Json::parse(string_attribute(turn, "gen_ai.output.messages"))[0]["parts"][0]["content"] ==
        "The sum is 3.");
  const auto tool = sink->named("execute_tool add").at(0);
  const std::string arguments = string_attribute(tool, "gen_ai.tool.call.arguments");
  CHECK(arguments.find("\"a\"") != std::string::npos);
  CHECK(arguments.find("abcdefghijklmnopqrstuvwxyz0123") == std::string::npos);
  CHECK(string_attribute(tool, "gen_ai.tool.call.result").find("\"sum\"") != std::string::npos);
}

TEST_CASE("a traceparent puts the turn in the caller's trace; a malformed one is refused") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text("Hello.", true));
  auto sink = std::make_shared<RecordingTraceSink>();
  AgentOptions o = traced(f, sink);
  o.tracing.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto agent = f.agent(o);
  REQUIRE(agent->run_conversation("Hi").completed);
  const auto turn = sink->named("invoke_agent hermes").at(0);
  CHECK(turn.context.trace_id.hex() == "4bf92f3577b34da6a3ce929d0e0e4736");
  CHECK(turn.parent_span_id.hex() == "00f067aa0ba902b7");

  for (const char* bad : {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                          "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                          "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "garbage"}) {
    AgentOptions refused = f.options();
    refused.tracing.traceparent = bad;
    auto created = Agent::create(refused);
    REQUIRE_FALSE(created.ok());
    CHECK(created.status().message().find("tracing.traceparent") != std::string::npos);
  }
}

TEST_CASE("a sink that throws never breaks the turn") {
  struct ThrowingSink : TraceSink {
    void on_start(const SpanData&) override { throw std::runtime_error("start"); }
    void on_end(const SpanData&) override { throw std::runtime_error("end"); }
    void on_metric(const MetricRecord&) override { throw std::runtime_error("metric"); }
  };
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_a", "add", R"({"a":1,"b":2})"}}, true));
  f.server.enqueue(chat::text("3.", true));
  auto agent = f.agent(traced(f, std::make_shared<ThrowingSink>()));
  ConversationResult r = agent->run_conversation("1+2?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "3.");
  CHECK(f.add_calls == 1);
}

TEST_CASE("a failed turn's span carries the error; an invalid tool call gets an error span") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_x", "no_such_tool", "{}"}}, true));
  f.server.enqueue(chat::error(401, "bad key", "invalid_api_key"));
  auto sink = std::make_shared<RecordingTraceSink>();
  auto agent = f.agent(traced(f, sink));
  ConversationResult r = agent->run_conversation("Go");
  REQUIRE(r.failed);
  const auto turn = sink->named("invoke_agent hermes").at(0);
  CHECK(turn.status == SpanStatusCode::kError);
  CHECK_FALSE(string_attribute(turn, "error.type").empty());
  const auto invalid = sink->named("execute_tool no_such_tool");
  REQUIRE(invalid.size() == 1);
  CHECK(invalid[0].status == SpanStatusCode::kError);
  CHECK(string_attribute(invalid[0], "error.type") == "invalid_tool_call");
}
