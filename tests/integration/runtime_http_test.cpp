// Turns on a hermes::Runtime over the real HTTP path: many conversations on one I/O
// thread, tools on the workers, retries on timers, interrupts, refusals, and agents or
// runtimes destroyed with work in flight.
#include <future>
#include <thread>

#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

std::unique_ptr<Runtime> make_runtime(RuntimeOptions options = {}) {
  auto runtime = Runtime::create(options);
  REQUIRE_MESSAGE(runtime.ok(), runtime.status().to_string());
  return std::move(*runtime);
}

// A conversation of its own on the server: /c/<key>/ gets the script from its start.
AgentOptions conversation_options(LoopHttpFixture& f, int key, bool stream) {
  AgentOptions o = f.options(stream);
  o.provider.base_url = f.server.url() + "/c/" + std::to_string(key) + "/v1";
  return o;
}

}  // namespace

TEST_CASE("a runtime carries many conversations with tool steps on one I/O thread") {
  LoopHttpFixture f;
  f.server.set_recording(false);
  f.server.set_conversation_script({chat::tool_calls({{"call_1", "add", R"({"a":2,"b":3})"}}, true),
                                    chat::text("The sum is 5.", true)});
  auto runtime = make_runtime();
  constexpr int kConversations = 60;
  std::vector<std::unique_ptr<Agent>> agents;
  std::vector<std::future<ConversationResult>> results;
  for (int i = 0; i < kConversations; ++i) {
    agents.push_back(f.agent(conversation_options(f, i, true)));
  }
  for (int i = 0; i < kConversations; ++i) {
    results.push_back(agents[i]->run_conversation_async(*runtime, "Add 2 and 3."));
  }
  for (auto& result : results) {
    ConversationResult r = result.get();
    CHECK_MESSAGE(!r.failed, r.error);
    CHECK(r.final_response.value_or("") == "The sum is 5.");
    CHECK(r.api_calls == 2);
  }
  CHECK(f.add_calls.load() == kConversations);
  for (auto& agent : agents) CHECK(roles_of(agent->history()) == "user assistant tool assistant");
  const RuntimeStats stats = runtime->stats();
  CHECK(stats.turns_started == kConversations);
  CHECK(stats.turns_running == 0);
  CHECK(stats.transfers == 0);
}

TEST_CASE("an asynchronous turn persists, streams and answers like a synchronous one") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a":1,"b":1})"}}, true));
  f.server.enqueue(chat::text("Two.", true));
  auto runtime = make_runtime();
  auto agent = f.agent(f.options(true));
  std::promise<ConversationResult> done;
  std::thread::id callback_thread;
  Status started =
      agent->run_conversation_async(*runtime, "One plus one?", {}, [&](ConversationResult r) {
        callback_thread = std::this_thread::get_id();
        done.set_value(std::move(r));
      });
  REQUIRE(started.ok());
  ConversationResult r = done.get_future().get();
  CHECK(callback_thread != std::this_thread::get_id());
  CHECK(r.final_response.value_or("") == "Two.");
  CHECK(f.log.streamed() == "Two.");
  check_same_rows(agent->history(), f.stored(agent->session_id()));
  // The agent is free again: a synchronous turn follows.
  f.server.enqueue(chat::text("Still two.", false));
  CHECK(agent->chat("Sure?").value_or("") == "Still two.");
}

TEST_CASE("a second turn on a busy agent is refused, asynchronous or not") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "slow_step", "{}"}}, true));
  f.server.enqueue(chat::text("Done.", true));
  auto runtime = make_runtime();
  auto agent = f.agent(f.options(true));
  auto first = agent->run_conversation_async(*runtime, "Go.");
  REQUIRE(f.tool_started.wait());

  Status again = agent->run_conversation_async(*runtime, "Again.", {}, [](ConversationResult) {
    FAIL("a refused start must not call back");
  });
  CHECK(again.code() == StatusCode::kFailedPrecondition);
  ConversationResult refused = agent->run_conversation_async(*runtime, "Again.").get();
  CHECK(refused.failed);
  CHECK(refused.exit_reason == "agent_busy");
  ConversationResult sync = agent->run_conversation("Now.");
  CHECK(sync.failed);
  CHECK(sync.exit_reason == "agent_busy");
  CHECK(agent->run_conversation_async(*runtime, "x", {}, nullptr).code() ==
        StatusCode::kInvalidArgument);

  f.release_tool.open();
  CHECK(first.get().final_response.value_or("") == "Done.");
  CHECK(roles_of(agent->history()) == "user assistant tool assistant");
}

TEST_CASE("a turn started while a synchronous one runs on another thread is refused") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "slow_step", "{}"}}, true));
  f.server.enqueue(chat::text("Done.", true));
  auto runtime = make_runtime();
  auto agent = f.agent(f.options(true));
  auto first = std::async(std::launch::async, [&] { return agent->run_conversation("Go."); });
  REQUIRE(f.tool_started.wait());

  Status async_start = agent->run_conversation_async(
      *runtime, "Again.", {},
      [](ConversationResult) { FAIL("a refused start must not call back"); });
  CHECK(async_start.code() == StatusCode::kFailedPrecondition);
  ConversationResult sync = agent->run_conversation("Now.");
  CHECK(sync.exit_reason == "agent_busy");
  CHECK(agent->chat("Now.").status().code() == StatusCode::kFailedPrecondition);

  f.release_tool.open();
  CHECK(first.get().final_response.value_or("") == "Done.");
  CHECK(roles_of(agent->history()) == "user assistant tool assistant");
  CHECK(agent->chat("Later.").status().code() != StatusCode::kFailedPrecondition);  // Free again.
}

TEST_CASE("a slow tool runs on a worker and leaves the I/O thread to other conversations") {
  LoopHttpFixture f;
  RuntimeOptions one_thread;
  one_thread.io_threads = 1;
  auto runtime = make_runtime(one_thread);
  f.server.set_conversation_script(
      {chat::tool_calls({{"call_1", "slow_step", "{}"}}, true), chat::text("Finished.", true)});
  auto blocked = f.agent(conversation_options(f, 1, true));
  auto blocked_result = blocked->run_conversation_async(*runtime, "Slow.");
  REQUIRE(f.tool_started.wait());
  // While slow_step holds its worker, another conversation completes on the same thread.
  f.server.enqueue(chat::text("Meanwhile.", true));
  auto other = f.agent(f.options(true));
  CHECK(other->run_conversation_async(*runtime, "Also.").get().final_response.value_or("") ==
        "Meanwhile.");
  CHECK(runtime->stats().turns_running == 1);
  f.release_tool.open();
  CHECK(blocked_result.get().final_response.value_or("") == "Finished.");
}

TEST_CASE("a tool that never returns is abandoned at its deadline without holding the runtime") {
  LoopHttpFixture f;
  Latch never;
  f.register_tool("hang", [&never](const Json&, ToolContext&) -> Result<std::string> {
    never.wait(std::chrono::seconds(20));
    return std::string("late");
  });
  f.server.set_conversation_script(
      {chat::tool_calls({{"call_1", "hang", "{}"}}, false), chat::text("Gave up on it.", false)});
  auto runtime = make_runtime();
  AgentOptions o = conversation_options(f, 1, false);
  o.tool_use.call_timeout = std::chrono::milliseconds(300);
  auto agent = f.agent(o);
  auto hung = agent->run_conversation_async(*runtime, "Hang.");
  ConversationResult r = hung.get();
  CHECK(r.final_response.value_or("") == "Gave up on it.");
  CHECK(agent->history()[2].content.find("timed out after 0.3s") != std::string::npos);
  // The abandoned handler still holds its worker; the runtime goes on regardless.
  f.server.enqueue(chat::text("Next.", false));
  auto other = f.agent(f.options(false));
  CHECK(other->run_conversation_async(*runtime, "Next?").get().final_response.value_or("") ==
        "Next.");
  never.open();
}

TEST_CASE("retries wait on the runtime's timers and an interrupt cuts the wait short") {
  LoopHttpFixture f;
  auto runtime = make_runtime();
  SUBCASE("a retried error then an answer") {
    f.server.enqueue(chat::error(500, "try again"));
    f.server.enqueue(chat::text("Recovered.", false));
    auto agent = f.agent(f.options(false));
    ConversationResult r = agent->run_conversation_async(*runtime, "Hello.").get();
    CHECK(r.final_response.value_or("") == "Recovered.");
    CHECK(f.server.request_count() == 2);
  }
  SUBCASE("an interrupt during the backoff") {
    f.server.set_default(chat::error(503, "overloaded"));
    auto agent = f.agent(f.options(false));
    auto result = agent->run_conversation_async(*runtime, "Hello.");
    while (f.server.request_count() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto asked = std::chrono::steady_clock::now();
    agent->interrupt("enough");
    ConversationResult r = result.get();
    CHECK(r.interrupted);
    CHECK(std::chrono::steady_clock::now() - asked < std::chrono::seconds(2));
  }
}

TEST_CASE("an interrupt stops a streaming answer within the cancellation bound") {
  LoopHttpFixture f;
  std::string words = "one";
  for (int i = 2; i <= 20; ++i) words += " word" + std::to_string(i);
  MockResponse slow = chat::text(words, true);
  slow.chunk_delay = std::chrono::milliseconds(200);
  f.server.enqueue(slow);
  auto runtime = make_runtime();
  auto agent = f.agent(f.options(true));
  auto result = agent->run_conversation_async(*runtime, "Count slowly.");
  while (f.log.streamed().empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto asked = std::chrono::steady_clock::now();
  agent->interrupt("stop");
  ConversationResult r = result.get();
  CHECK_MESSAGE(r.interrupted, r.exit_reason);
  CHECK(r.interrupt_message == "stop");
  CHECK(std::chrono::steady_clock::now() - asked < std::chrono::milliseconds(1500));
  REQUIRE(r.final_response.has_value());
  CHECK(r.final_response->find("word20") == std::string::npos);
}

TEST_CASE("destroying an agent or the runtime with a turn in flight ends it cleanly") {
  LoopHttpFixture f;
  MockResponse slow = chat::text("late answer", false);
  slow.first_byte_delay = std::chrono::seconds(20);
  f.server.set_default(slow);
  SUBCASE("the agent goes first") {
    auto runtime = make_runtime();
    auto agent = f.agent(f.options(false));
    std::promise<ConversationResult> done;
    REQUIRE(
        agent
            ->run_conversation_async(*runtime, "Wait.", {},
                                     [&](ConversationResult r) { done.set_value(std::move(r)); })
            .ok());
    while (f.server.request_count() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    agent.reset();  // Interrupts the turn and waits for it.
    CHECK(done.get_future().get().interrupted);
  }
  SUBCASE("the runtime goes first") {
    auto runtime = make_runtime();
    auto agent = f.agent(f.options(false));
    auto result = agent->run_conversation_async(*runtime, "Wait.");
    while (f.server.request_count() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    runtime.reset();
    CHECK(result.get().interrupted);
    // The agent outlives the runtime and still works synchronously.
    f.server.set_default(chat::text("Quick.", false));
    CHECK(agent->chat("Again.").value_or("") == "Quick.");
  }
}

TEST_CASE("runtime options out of range are refused with the field named") {
  RuntimeOptions o;
  o.io_threads = 0;
  auto r = Runtime::create(o);
  REQUIRE(!r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK(r.status().message().find("io_threads") != std::string::npos);
  o = {};
  o.tool_workers = 5000;
  CHECK(Runtime::create(o).status().message().find("tool_workers") != std::string::npos);
  o = {};
  o.stack_bytes = 1024;
  CHECK(Runtime::create(o).status().message().find("stack_bytes") != std::string::npos);
  o = {};
  o.io_threads = 4;
  CHECK(Runtime::create(o).ok());
}

TEST_CASE("a stalled, a reset and a flooding model each affect only their own conversation") {
  LoopHttpFixture f;  // The healthy model, and the tools.
  MockServer stalled_server;
  MockServer reset_server;
  MockServer flood_server;
  RuntimeOptions one_thread;
  one_thread.io_threads = 1;
  auto runtime = make_runtime(one_thread);

  MockResponse stall = chat::text("one two three", true);
  stall.stall_after_chunks = 1;
  stall.stall = std::chrono::seconds(30);
  stalled_server.set_default(stall);
  MockResponse reset;
  reset.close_before_headers = true;
  reset.reset_connection = true;
  reset_server.set_default(reset);
  std::string flood;
  for (int i = 0; i < 4000; ++i) flood += "token" + std::to_string(i) + " ";
  MockResponse flooding = chat::text(flood, true);
  flood_server.set_default(flooding);
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a":2,"b":2})"}}, true));
  f.server.enqueue(chat::text("Four.", true));

  auto with_server = [&](MockServer& server) {
    AgentOptions o = f.options(true);
    o.provider.base_url = server.base_url();
    o.failover.max_retries = 1;
    return f.agent(o);
  };
  auto stalled = with_server(stalled_server);
  auto resetting = with_server(reset_server);
  auto flooded = with_server(flood_server);
  auto healthy = f.agent(f.options(true));

  auto stalled_result = stalled->run_conversation_async(*runtime, "Talk.");
  auto reset_result = resetting->run_conversation_async(*runtime, "Talk.");
  auto flood_result = flooded->run_conversation_async(*runtime, "Talk a lot.");
  ConversationResult ok = healthy->run_conversation_async(*runtime, "Two plus two?").get();
  CHECK(ok.final_response.value_or("") == "Four.");

  ConversationResult failed = reset_result.get();
  CHECK(failed.failed);
  CHECK_FALSE(failed.error.empty());
  ConversationResult long_answer = flood_result.get();
  CHECK(long_answer.final_response.value_or("").size() == flood.size() - 1);  // Trimmed.

  // The stalled conversation is still waiting for its model all along.
  CHECK(stalled_result.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout);
  stalled->interrupt("enough");
  CHECK(stalled_result.get().interrupted);
}

TEST_CASE("guidance steered into an asynchronous turn arrives after the running tool") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "slow_step", "{}"}}, true));
  f.server.enqueue(chat::text("Done, in metric.", true));
  auto runtime = make_runtime();
  auto agent = f.agent(f.options(true));
  auto result = agent->run_conversation_async(*runtime, "Measure the room.");
  REQUIRE(f.tool_started.wait());
  CHECK(agent->steer("use metric units").ok());
  f.release_tool.open();
  CHECK(result.get().final_response.value_or("") == "Done, in metric.");
  // The second request carries the guidance after the tool's result.
  const std::string second = f.sent_messages(1).dump();
  const auto tool_at = second.find("\"role\":\"tool\"");
  const auto steer_at = second.find("use metric units");
  REQUIRE(tool_at != std::string::npos);
  REQUIRE(steer_at != std::string::npos);
  CHECK(tool_at < steer_at);
}

TEST_CASE("an agent destroyed in another turn's completion callback ends its own turn") {
  LoopHttpFixture f;
  MockResponse slow = chat::text("late answer", false);
  slow.first_byte_delay = std::chrono::seconds(20);
  RuntimeOptions one_thread;
  one_thread.io_threads = 1;  // Both turns on the thread the destructor runs on.
  auto runtime = make_runtime(one_thread);
  f.server.set_conversation_script({chat::text("Quick.", false)});
  AgentOptions slow_options = f.options(false);
  slow_options.provider.base_url = f.server.base_url();
  f.server.set_default(slow);
  auto doomed = f.agent(slow_options);
  auto quick = f.agent(conversation_options(f, 1, false));
  auto doomed_result = doomed->run_conversation_async(*runtime, "Wait.");
  while (f.server.request_count() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::promise<void> destroyed;
  REQUIRE(quick
              ->run_conversation_async(
                  *runtime, "Go.", {},
                  [&](ConversationResult) {
                    doomed.reset();  // On the runtime thread: interrupts and waits, parked.
                    destroyed.set_value();
                  })
              .ok());
  REQUIRE(destroyed.get_future().wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  CHECK(doomed_result.get().interrupted);
}

TEST_CASE("an asynchronous turn takes the history it is given") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text("Noted.", false));
  auto runtime = make_runtime();
  auto agent = f.agent(f.options(false));
  TurnOptions turn;
  turn.conversation_history = std::vector<Message>{Message::user("Earlier question."),
                                                   Message::assistant("Earlier answer.")};
  ConversationResult r = agent->run_conversation_async(*runtime, "And now?", turn).get();
  CHECK(r.final_response.value_or("") == "Noted.");
  CHECK(roles_of(agent->history()) == "user assistant user assistant");
  CHECK(agent->history()[0].content == "Earlier question.");
  CHECK(roles_of(f.sent_messages(0)) == "user assistant user");
  CHECK(turn.conversation_history->size() == 2);  // The caller's copy is untouched.
}
