// The loop's recovery branches end to end (a reply cut by the output limit, invalid tool
// calls, empty answers, unusable replies): each scripted
// misbehaviour of the model goes over HTTP, and each test checks the transcript returned,
// the rows in state.db, the exit reason and the callbacks.
#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

const std::string kPostToolNudge =
    "You just executed tool calls but returned an empty response. Please process the tool "
    "results above and continue with the task.";
const std::string kDroppedToolCallPrompt =
    "Your previous turn indicated a tool call but none was included.";
const std::string kContinuePrompt =
    "[System: Your previous response was truncated by the output length limit.";
const std::string kMaxIterationsPrompt =
    "You've reached the maximum number of tool-calling iterations allowed.";

std::string last_content(const Json& wire) {
  return wire.back().value("content", "");
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

TEST_CASE(
    "an empty answer after a tool is nudged once, then retried, then the real answer is kept") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 2})"}}, true));
  f.server.enqueue(chat::text("", true));  // Empty after a tool: the nudge.
  f.server.enqueue(chat::text("", true));  // Empty again: a plain retry.
  f.server.enqueue(chat::text("The sum is 3.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Add one and two.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "The sum is 3.");
  CHECK(r.exit_reason == "text_response(finish_reason=stop)");
  CHECK(r.api_calls == 4);
  CHECK(f.add_calls == 1);

  // The nudge reaches the model as an "(empty)" assistant row and a user row...
  Json nudged = f.sent_messages(2);
  CHECK(roles_of(nudged) == "user assistant tool assistant user");
  CHECK(nudged[nudged.size() - 2]["content"] == "(empty)");
  CHECK(last_content(nudged) == kPostToolNudge);
  // ...is not repeated on the plain retry...
  CHECK(f.sent_messages(3) == nudged);
  // ...and is scaffolding: neither the transcript nor the store keeps it.
  CHECK(roles_of(r.messages) == "user assistant tool assistant");
  CHECK(r.messages.back().content == "The sum is 3.");
  check_same_rows(r.messages, f.stored(r.session_id));

  auto steps = f.log.steps();
  REQUIRE(steps.size() == 4);
  CHECK(steps[1].first == 2);
  CHECK(steps[1].second == std::vector<std::string>{"add"});
  CHECK(f.log.has_status("warning", "empty"));
  CHECK(f.log.streamed() == "The sum is 3.");
}

TEST_CASE(
    "an answer that stays empty ends the turn with the (empty) sentinel after three retries") {
  LoopHttpFixture f;
  for (int i = 0; i < 4; ++i) f.server.enqueue(chat::text("", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Say something.");
  CHECK(r.final_response == "(empty)");
  CHECK(r.exit_reason == "empty_response_exhausted");
  CHECK(r.api_calls == 4);
  CHECK(f.server.request_count() == 4);
  CHECK(f.server.pending() == 0);
  // Retries resend the same conversation: nothing is appended between them.
  CHECK(f.sent_messages(3) == f.sent_messages(0));
  CHECK(roles_of(r.messages) == "user assistant");
  check_same_rows(r.messages, f.stored(r.session_id));
  CHECK(f.stored(r.session_id).back().content == "(empty)");
}

TEST_CASE("silence after only bookkeeping calls delivers the text written beside them") {
  LoopHttpFixture f;
  f.register_tool("todo", [](const Json&, ToolContext&) -> Result<std::string> {
    return std::string(R"({"saved":true})");
  });
  const std::string text = "Your three errands are on the list.";
  f.server.enqueue(chat::tool_calls({{"call_1", "todo", "{}"}}, true, text));
  f.server.enqueue(chat::text("", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Note my errands.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == text);
  CHECK(r.exit_reason == "fallback_prior_turn_content");
  CHECK(f.server.request_count() == 2);  // No nudge, no retry.
  CHECK(f.log.has_status("warning", "earlier content"));
  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant tool assistant");
  CHECK(stored[1].content == text);
  CHECK(stored[3].content == text);
}

TEST_CASE("silence after real work is nudged, not answered with the narration") {
  LoopHttpFixture f;
  f.server.enqueue(
      chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 1})"}}, true, "Let me add those."));
  f.server.enqueue(chat::text("", true));
  f.server.enqueue(chat::text("It is 2.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Add one and one.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "It is 2.");
  CHECK(f.server.request_count() == 3);
  CHECK(f.sent_messages(2).back()["content"] == kPostToolNudge);
}

TEST_CASE("a model that stays empty hands the turn to the fallback provider, which answers") {
  LoopHttpFixture f;
  for (int i = 0; i < 4; ++i) f.server.enqueue(chat::text("", true));
  f.server.enqueue(chat::text("Hello from the fallback.", true));
  AgentOptions o = f.options();
  ProviderConfig fallback;
  fallback.provider = "custom";
  fallback.base_url = f.server.base_url();
  fallback.api_key = "sk-fallback";
  fallback.model = "fallback-model";
  o.failover.fallback_providers = {fallback};
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Say something.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Hello from the fallback.");
  auto requests = f.server.requests();
  REQUIRE(requests.size() == 5);
  CHECK(requests[3].json()["model"] == "mock-model");
  CHECK(requests[4].json()["model"] == "fallback-model");
  CHECK(requests[4].header("authorization") == "Bearer sk-fallback");
  CHECK(f.log.has_status("fallback", "fallback-model"));
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant");
}

TEST_CASE(
    "finish_reason tool_calls without a call re-prompts for the call and keeps no trace of it") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text("", true, {}, "tool_calls"));
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 20, "b": 22})"}}, true));
  f.server.enqueue(chat::text("It is 42.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("What is twenty plus twenty-two?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "It is 42.");
  CHECK(r.api_calls == 3);
  CHECK(f.add_calls == 1);

  Json reprompted = f.sent_messages(1);
  CHECK(last_content(reprompted).find(kDroppedToolCallPrompt) != std::string::npos);
  CHECK(reprompted.back()["role"] == "user");
  CHECK(roles_of(r.messages) == "user assistant tool assistant");
  check_same_rows(r.messages, f.stored(r.session_id));
  for (const Message& m : f.stored(r.session_id)) {
    CHECK(m.content.find(kDroppedToolCallPrompt) == std::string::npos);
  }
}

TEST_CASE("a mangled tool name is repaired to the offered tool and stored repaired") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "AddTool", R"({"a": 2, "b": 5})"}}, true));
  f.server.enqueue(chat::text("Seven.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Add two and five.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(f.add_calls == 1);
  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant tool assistant");
  CHECK(stored[1].tool_calls[0].name == "add");
  CHECK(stored[2].name == "add");
  CHECK(stored[2].content == R"({"sum":7.0})");
  Json sent = f.sent_messages(1);
  CHECK(sent[2]["tool_calls"][0]["function"]["name"] == "add");
  auto events = f.log.tool_events();
  REQUIRE(events.size() == 2);
  CHECK(events[0].name == "add");
  CHECK_FALSE(events[1].is_error);
}

TEST_CASE("an invented tool gets an error result the model reads, and the loop goes on") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls(
      {{"call_x", "launch_rockets", "{}"}, {"call_y", "add", R"({"a": 1, "b": 1})"}}, true));
  f.server.enqueue(chat::tool_calls({{"call_z", "add", R"({"a": 1, "b": 1})"}}, true));
  f.server.enqueue(chat::text("Two, and no rockets.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Launch the rockets and add one and one.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.api_calls == 3);
  CHECK(f.add_calls == 2);  // The valid sibling of the invented call runs at once.

  Json sent = f.sent_messages(1);
  REQUIRE(roles_of(sent) == "user assistant tool tool");
  CHECK(sent[3]["tool_call_id"] == "call_x");
  CHECK(sent[3]["content"].get<std::string>().rfind("Tool 'launch_rockets' does not exist. "
                                                    "Available tools: add, ",
                                                    0) == 0);
  CHECK(sent[4]["tool_call_id"] == "call_y");
  CHECK(sent[4]["content"] == R"({"sum":2.0})");

  auto stored = f.stored(r.session_id);
  CHECK(roles_of(stored) == "user assistant tool tool assistant tool assistant");
  check_same_rows(r.messages, stored);
  // Only the calls that ran report progress.
  auto events = f.log.tool_events();
  REQUIRE(events.size() == 4);
  for (const auto& event : events) CHECK(event.name == "add");
}

TEST_CASE("three rounds of invented tools end the turn as partial with the name") {
  LoopHttpFixture f;
  for (int i = 0; i < 3; ++i) f.server.enqueue(chat::tool_calls({{"", "fly", "{}"}}, true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Fly.");
  CHECK_FALSE(r.completed);
  CHECK(r.partial);
  CHECK(r.final_response == "Model generated invalid tool call: fly");
  CHECK(r.exit_reason == "invalid_tool_call");
  CHECK(f.server.request_count() == 3);
  auto stored = f.stored(r.session_id);
  // The third round is not kept: the answer closes the second round's result.
  CHECK(roles_of(stored) == "user assistant tool assistant tool assistant");
  CHECK(stored.back().content == "Model generated invalid tool call: fly");
}

TEST_CASE(
    "broken JSON arguments are asked for again, then answered with an error the model reads") {
  LoopHttpFixture f;
  const std::string broken = R"({"a": 1, "b": })";
  for (int i = 0; i < 4; ++i) f.server.enqueue(chat::tool_calls({{"call_1", "add", broken}}, true));
  f.server.enqueue(chat::text("I could not format the call.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Add one and something.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.api_calls == 5);
  CHECK(f.add_calls == 0);
  // Three silent retries: the broken call is not appended while the model may fix it.
  for (std::size_t i = 1; i < 4; ++i) CHECK(f.sent_messages(i) == f.sent_messages(0));
  Json last = f.sent_messages(4);
  REQUIRE(roles_of(last) == "user assistant tool");
  CHECK(last.back()["content"].get<std::string>().rfind("Error: Invalid JSON arguments. ", 0) == 0);
  CHECK(last.back()["content"].get<std::string>().find("use an empty object: {}") !=
        std::string::npos);

  auto stored = f.stored(r.session_id);
  CHECK(roles_of(stored) == "user assistant tool assistant");
  check_same_rows(r.messages, stored);
  // The error result stands in for the call: no tool ran, so none reported progress.
  CHECK(f.log.started_tools() == 0);
}

TEST_CASE("a truncated answer is continued and the parts are joined at their boundary") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text("The answer is forty", true, {}, "length"));
  f.server.enqueue(chat::text(" two, as computed.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("What is six times seven?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "The answer is forty two, as computed.");
  CHECK(r.exit_reason == "text_response(finish_reason=stop)");

  Json continued = f.sent_messages(1);
  CHECK(roles_of(continued) == "user assistant user");
  // The continuation gets twice the default output cap; the first call sent none.
  CHECK_FALSE(f.server.requests()[0].json().contains("max_tokens"));
  CHECK(f.server.requests()[1].json()["max_tokens"] == 8192);
  CHECK(continued[2]["content"] == "The answer is forty");
  CHECK(last_content(continued).rfind(kContinuePrompt, 0) == 0);

  auto stored = f.stored(r.session_id);
  CHECK(roles_of(stored) == "user assistant");
  CHECK(stored.back().content == "The answer is forty two, as computed.");
  check_same_rows(r.messages, stored);
}

TEST_CASE("an answer truncated five times ends partial with what was produced") {
  LoopHttpFixture f;
  for (int i = 0; i < 5; ++i) f.server.enqueue(chat::text("more", true, {}, "length"));
  AgentOptions o = f.options();
  o.request.max_tokens = 3000;
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Write forever.");
  CHECK_FALSE(r.completed);
  CHECK(r.partial);
  CHECK(r.error == "Response remained truncated after 4 continuation attempts");
  auto requests = f.server.requests();
  REQUIRE(requests.size() == 5);
  // The cap doubles per continuation from the configured one, up to 32768.
  const std::vector<int> caps = {3000, 6000, 12000, 24000, 32768};
  for (std::size_t i = 0; i < requests.size(); ++i) {
    CHECK(requests[i].json()["max_tokens"] == caps[i]);
  }
  REQUIRE(r.final_response.has_value());
  CHECK(r.final_response->find("more") == 0);
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant");
}

TEST_CASE("tool-call arguments cut by the output limit are asked again, never executed") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b)"}}, true, "", {}, "length"));
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 4})"}}, true));
  f.server.enqueue(chat::text("Five.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Add one and four.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(f.add_calls == 1);
  CHECK(f.sent_messages(1) == f.sent_messages(0));  // The cut call was never appended.
  // Only the retry gets the boosted cap.
  CHECK(f.server.requests()[1].json()["max_tokens"] == 8192);
  CHECK_FALSE(f.server.requests()[2].json().contains("max_tokens"));
  CHECK(f.log.has_status("warning", "truncated"));
  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant tool assistant");
  CHECK(stored[1].tool_calls[0].arguments == R"({"a": 1, "b": 4})");
}

TEST_CASE("tool calls truncated on every retry end the turn with the truncation message") {
  LoopHttpFixture f;
  for (int i = 0; i < 5; ++i) {
    f.server.enqueue(
        chat::tool_calls({{"call_1", "add", R"({"a": 1, "b)"}}, true, "", {}, "length"));
  }
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Add.");
  CHECK_FALSE(r.completed);
  CHECK(r.partial);
  CHECK(r.final_response == "Response truncated due to output length limit");
  CHECK(f.server.request_count() == 5);
  CHECK(f.add_calls == 0);
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant");
}

TEST_CASE(
    "a thinking-only reply is replayed as a prefill; the reasoning reaches the host, not the "
    "transcript") {
  LoopHttpFixture f;
  const std::string fixture = std::string(HERMES_FIXTURES_DIR) + "/streams/chat_reasoning_only.sse";
  f.server.enqueue(sse_fixture(fixture));
  f.server.enqueue(chat::text("Lima.", true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("What is the capital of Peru?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Lima.");
  CHECK(r.api_calls == 2);
  CHECK(r.last_reasoning == "The user wants the capital of Peru. That is Lima.");
  CHECK(f.log.reasoning() == "The user wants the capital of Peru. That is Lima.");
  CHECK(f.log.has_status("warning", "Thinking-only"));
  // The retry carries the reasoning-only reply as an assistant prefill, sent once: the
  // stored transcript never holds it.
  CHECK(roles_of(f.sent_messages(0)) == "user");
  CHECK(roles_of(f.sent_messages(1)) == "user assistant");
  auto stored = f.stored(r.session_id);
  CHECK(roles_of(stored) == "user assistant");
  check_same_rows(r.messages, stored);
}

TEST_CASE("thinking-only replies get two prefill rounds and three retries before (empty)") {
  LoopHttpFixture f;
  const std::string fixture = std::string(HERMES_FIXTURES_DIR) + "/streams/chat_reasoning_only.sse";
  for (int i = 0; i < 6; ++i) f.server.enqueue(sse_fixture(fixture));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("What is the capital of Peru?");
  CHECK(r.final_response == "(empty)");
  CHECK(r.exit_reason == "empty_response_exhausted");
  CHECK(f.server.request_count() == 6);
  CHECK(f.server.pending() == 0);
  // The reasoning never becomes the delivered answer.
  CHECK(r.messages.back().content == "(empty)");
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant");
}

TEST_CASE("a spent iteration budget ends with one tool-less summary call and its exit reason") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 1})"}}, true));
  f.server.enqueue(chat::tool_calls({{"call_2", "add", R"({"a": 2, "b": 2})"}}, true));
  f.server.enqueue(chat::text("I added 1+1 and 2+2.", true));
  AgentOptions o = f.options();
  o.max_iterations = 2;
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Keep adding.");
  CHECK_FALSE(r.completed);
  CHECK_FALSE(r.failed);
  CHECK(r.final_response == "I added 1+1 and 2+2.");
  CHECK(r.exit_reason == "max_iterations_reached(2/2)");
  CHECK(f.add_calls == 2);

  auto requests = f.server.requests();
  REQUIRE(requests.size() == 3);
  Json summary = requests[2].json();
  CHECK_FALSE(summary.contains("tools"));
  CHECK(summary["messages"].back()["content"].get<std::string>().rfind(kMaxIterationsPrompt, 0) ==
        0);

  auto stored = f.stored(r.session_id);
  CHECK(roles_of(stored) == "user assistant tool assistant tool user assistant");
  CHECK(stored.back().content == "I added 1+1 and 2+2.");
  check_same_rows(r.messages, stored);
  // The summary call is not an iteration.
  CHECK(f.log.steps().size() == 2);
}

TEST_CASE("a failed summary call after the budget still answers with the iteration-limit text") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 1})"}}, true));
  f.server.enqueue(chat::error(400, "bad request from the summary"));
  AgentOptions o = f.options();
  o.max_iterations = 1;
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Add.");
  REQUIRE(r.final_response.has_value());
  CHECK(r.final_response->rfind(
            "I reached the maximum iterations (1) but couldn't summarize. Error: ", 0) == 0);
  CHECK(r.exit_reason == "max_iterations_reached(1/1)");
  CHECK_FALSE(r.failed);
  CHECK(ends_with(roles_of(f.stored(r.session_id)), "tool user assistant"));
}

TEST_CASE("a Responses model that announces the work is told to do it, and then does it") {
  LoopHttpFixture f;
  const std::string ack = "I'll look into the project files and report back.";
  f.server.enqueue(responses::text(ack, true));
  f.server.enqueue(responses::tool_calls({{"call_1", "add", R"({"a": 3, "b": 4})"}}, true));
  f.server.enqueue(responses::text("The project adds up to 7.", true));
  AgentOptions o = f.options();
  o.provider.api_mode = "codex_responses";
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Summarise the project for me.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "The project adds up to 7.");
  CHECK(r.api_calls == 3);
  CHECK(f.add_calls == 1);
  CHECK(f.log.has_status("warning", "announced work"));

  // The second request carries the announcement and the nudge after it.
  const std::string second = f.server.requests()[1].body;
  CHECK(second.find(ack) != std::string::npos);
  CHECK(second.find("[System: Continue now. Execute the required tool calls") != std::string::npos);

  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant user assistant tool assistant");
  CHECK(stored[1].content == ack);
  CHECK(stored[1].finish_reason == "incomplete");
  CHECK(stored[2].content.rfind("[System: Continue now.", 0) == 0);
  check_same_rows(r.messages, stored);
}

TEST_CASE("an announcement is nudged at most twice, then accepted as the answer") {
  LoopHttpFixture f;
  const std::string ack = "Let me check the repository first.";
  for (int i = 0; i < 3; ++i) f.server.enqueue(responses::text(ack, true));
  AgentOptions o = f.options();
  o.provider.api_mode = "codex_responses";
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("What is in this repo?");
  CHECK(r.completed);
  CHECK(r.final_response == ack);
  CHECK(f.server.request_count() == 3);
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant user assistant user assistant");
}

TEST_CASE("a Chat Completions announcement is the answer, as upstream's default has it") {
  LoopHttpFixture f;
  const std::string ack = "I'll look into the project files and report back.";
  f.server.enqueue(chat::text(ack, true));
  auto agent = f.agent(f.options());

  ConversationResult r = agent->run_conversation("Summarise the project for me.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == ack);
  CHECK(f.server.request_count() == 1);
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant");
}
