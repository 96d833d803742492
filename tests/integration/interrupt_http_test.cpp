// Steering and interrupting a running turn from another thread, over the
// real HTTP path: while a tool runs, while the model streams, before its first byte.
#include <thread>

#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

const std::string kSteerOpen =
    "[OUT-OF-BAND USER MESSAGE \xE2\x80\x94 a direct message from the user";
const std::string kSteerClose = "[/OUT-OF-BAND USER MESSAGE]";

// Twenty words, one SSE chunk each, `delay` apart.
MockResponse slow_text(std::chrono::milliseconds delay) {
  std::string text = "one";
  for (int i = 2; i <= 20; ++i) text += " word" + std::to_string(i);
  MockResponse r = chat::text(text, true);
  r.chunk_delay = delay;
  return r;
}

}  // namespace

TEST_CASE("guidance steered while a tool runs is delivered right after its result") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "slow_step", "{}"}}, true));
  f.server.enqueue(chat::text("Done, in metric.", true));
  auto agent = f.agent(f.options());

  std::thread host([&] {
    REQUIRE(f.tool_started.wait());
    CHECK(agent->steer("  use metric units  ").ok());
    CHECK(agent->steer("and be brief").ok());
    f.release_tool.open();
  });
  ConversationResult r = agent->run_conversation("Measure the room.");
  host.join();
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.pending_steer.empty());

  Json sent = f.sent_messages(1);
  REQUIRE(roles_of(sent) == "user assistant tool user");
  const std::string delivered = sent.back()["content"];
  CHECK(delivered.rfind(kSteerOpen, 0) == 0);
  CHECK(delivered.find("\nuse metric units\nand be brief\n" + kSteerClose) != std::string::npos);

  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant tool user assistant");
  CHECK(stored[3].content == delivered);
  CHECK(stored[3].display_kind == "steer");
  check_same_rows(r.messages, stored);
  auto steps = f.log.steps();
  REQUIRE(steps.size() == 2);
  CHECK(steps[1].second == std::vector<std::string>{"slow_step"});
}

TEST_CASE("blank guidance is refused and a steer that arrives after the answer is handed back") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text("Hello.", true));
  AgentOptions o = f.options();
  std::unique_ptr<Agent> agent;
  bool steered = false;
  // The answer is streaming: no delivery point is left in this turn.
  o.callbacks.on_stream_delta = [&](std::string_view) {
    if (!steered) steered = agent->steer("next, say goodbye").ok();
  };
  agent = f.agent(o);
  CHECK(agent->steer(" \n\t ").code() == StatusCode::kInvalidArgument);
  ConversationResult r = agent->run_conversation("Hi.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.pending_steer == "next, say goodbye");
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant");
}

TEST_CASE("an interrupt while the answer streams keeps the streamed part as the answer") {
  LoopHttpFixture f;
  f.server.enqueue(slow_text(std::chrono::milliseconds(100)));
  AgentOptions o = f.options();
  Latch first_delta;
  o.callbacks.on_stream_delta = [&](std::string_view) { first_delta.open(); };
  auto agent = f.agent(o);

  std::thread host([&] {
    REQUIRE(first_delta.wait());
    agent->interrupt("user pressed stop");
  });
  ConversationResult r = agent->run_conversation("Count to twenty slowly.");
  host.join();
  CHECK(r.interrupted);
  CHECK_FALSE(r.completed);
  CHECK(r.exit_reason == "interrupted_by_user");
  CHECK(r.interrupt_message == "user pressed stop");
  REQUIRE(r.final_response.has_value());
  CHECK(r.final_response->rfind("one", 0) == 0);
  CHECK(r.final_response->find("word20") == std::string::npos);  // Cut short.
  CHECK(f.server.request_count() == 1);

  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant");
  CHECK(stored.back().content == *r.final_response);

  // The interrupt belonged to that turn: the next one runs normally.
  f.server.enqueue(chat::text("Fine.", true));
  ConversationResult next = agent->run_conversation("Go on.");
  REQUIRE_MESSAGE(next.completed, next.error);
  CHECK(roles_of(f.stored(r.session_id)) == "user assistant user assistant");
}

TEST_CASE("an interrupt before the model's first byte says how long it waited") {
  LoopHttpFixture f;
  MockResponse slow = chat::text("too late", true);
  slow.first_byte_delay = std::chrono::seconds(20);
  f.server.enqueue(slow);
  AgentOptions o = f.options();
  Latch waiting;
  o.callbacks.on_thinking = [&](bool thinking) {
    if (thinking) waiting.open();
  };
  auto agent = f.agent(o);

  std::thread host([&] {
    REQUIRE(waiting.wait());
    agent->interrupt();
  });
  ConversationResult r = agent->run_conversation("Take your time.");
  host.join();
  CHECK(r.interrupted);
  CHECK(r.exit_reason == "interrupted_by_user");
  REQUIRE(r.final_response.has_value());
  CHECK(r.final_response->rfind("Operation interrupted: waiting for model response (", 0) == 0);
  CHECK(r.final_response->find("s elapsed).") != std::string::npos);
  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant");
  CHECK(stored.back().content == *r.final_response);
}

TEST_CASE("an interrupt during a retry wait ends the turn at once with what it was doing") {
  LoopHttpFixture f;
  f.server.enqueue(chat::error(503, "The server is overloaded", "", {{"Retry-After", "60"}}));
  f.server.enqueue(chat::text("never asked", true));
  AgentOptions o = f.options();
  Latch retrying;
  auto log_status = o.callbacks.on_status;
  o.callbacks.on_status = [&](std::string_view kind, std::string_view message) {
    log_status(kind, message);
    if (kind == "retry") retrying.open();
  };
  auto agent = f.agent(o);

  std::thread host([&] {
    REQUIRE(retrying.wait());
    agent->interrupt();
  });
  ConversationResult r = agent->run_conversation("Hello?");
  host.join();
  CHECK(r.interrupted);
  CHECK_FALSE(r.completed);
  CHECK(r.exit_reason == "interrupted_by_user");
  CHECK(r.final_response == "Operation interrupted: retrying API call after error (retry 1/3).");
  CHECK(f.server.request_count() == 1);
  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant");
  CHECK(stored.back().content == *r.final_response);
}

TEST_CASE("an interrupt while a tool blocks cancels it and leaves a valid stored transcript") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "wait_for_stop", "{}"}}, true));
  f.server.enqueue(chat::text("never asked", true));
  auto agent = f.agent(f.options());

  std::thread host([&] {
    REQUIRE(f.tool_started.wait());
    agent->interrupt("stop the tool");
  });
  ConversationResult r = agent->run_conversation("Wait for me.");
  host.join();
  CHECK(r.interrupted);
  CHECK_FALSE(r.completed);
  CHECK(r.exit_reason == "interrupted_by_user");
  CHECK(r.interrupt_message == "stop the tool");
  CHECK(f.server.request_count() == 1);
  CHECK(f.server.pending() == 1);

  // Every call has its result, and the turn ends on an assistant row.
  auto stored = f.stored(r.session_id);
  REQUIRE(roles_of(stored) == "user assistant tool assistant");
  CHECK(stored[2].tool_call_id == "call_1");
  CHECK(stored[3].content == "Operation interrupted.");
  check_same_rows(r.messages, stored);

  auto events = f.log.tool_events();
  REQUIRE(events.size() == 2);
  CHECK(events[0].started);
  CHECK_FALSE(events[1].started);
  CHECK(events[1].is_error);
}
