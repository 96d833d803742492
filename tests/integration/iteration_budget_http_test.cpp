// The iteration budget end to end: a step that ends in a compaction instead of a model
// answer gives its iteration back, so max_iterations model calls still reach the model.
// Over the real HTTP path against the loopback mock server, with a host context engine
// that compacts when it is told to.
#include <doctest/doctest.h>

#include "hermes/context_engine.hpp"
#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

// Asks for `pre_api` compactions before model calls (never at turn start), and compacts by
// dropping everything before the last message.
class CompactOnCue : public ContextEngine {
 public:
  explicit CompactOnCue(int pre_api) : pre_api_(pre_api) {}

  int compactions = 0;

  std::string name() const override { return "compact-on-cue"; }
  void update_from_response(const Usage&) override {}
  bool should_compress(std::optional<int64_t>) override {
    if (pre_api_ == 0) return false;
    --pre_api_;
    return true;
  }
  // The turn-start check: never.
  CompressDecision should_compress_info(std::optional<int64_t>) override { return {}; }
  Result<std::vector<Message>> compress(const std::vector<Message>& messages,
                                        const CompressOptions&) override {
    ++compactions;
    return std::vector<Message>{messages.back()};
  }
  int64_t context_length() const override { return 200'000; }
  int64_t threshold_tokens() const override { return 100'000; }

 private:
  int pre_api_;
};

std::vector<Message> earlier_exchange() {
  return {Message::user("What is 2 + 2?"), Message::assistant("4.")};
}

}  // namespace

TEST_CASE("a compaction before the first model call does not use up one of two iterations") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 2})"}}, false));
  f.server.enqueue(chat::text("The sum is 3.", false));
  auto engine = std::make_shared<CompactOnCue>(/*pre_api=*/1);
  AgentOptions o = f.options(/*stream=*/false);
  o.max_iterations = 2;
  o.persistence.enabled = false;
  o.context_engine = engine;
  auto agent = f.agent(o);

  ConversationResult r =
      agent->run_conversation("Add one and two.", std::nullopt, earlier_exchange());
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(engine->compactions == 1);
  CHECK(r.final_response == "The sum is 3.");
  CHECK(r.exit_reason == "text_response(finish_reason=stop)");
  CHECK(f.server.request_count() == 2);
  CHECK(f.add_calls == 1);
  CHECK(r.api_calls == 2);
  // The compacted step is numbered again when it runs.
  const auto steps = f.log.steps();
  REQUIRE(steps.size() == 3);
  CHECK(steps[0].first == 1);
  CHECK(steps[1].first == 1);
  CHECK(steps[2].first == 2);
}

TEST_CASE("a call refused for its size, compacted and retried, counts as one iteration") {
  LoopHttpFixture f;
  f.server.enqueue(chat::error(400,
                               "Input is too long for the requested model. Please reduce the "
                               "length of the messages or completion.",
                               "context_length_exceeded"));
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 2})"}}, false));
  f.server.enqueue(chat::text("The sum is 3.", false));
  auto engine = std::make_shared<CompactOnCue>(/*pre_api=*/0);
  AgentOptions o = f.options(/*stream=*/false);
  o.max_iterations = 2;
  o.persistence.enabled = false;
  o.context_engine = engine;
  auto agent = f.agent(o);

  ConversationResult r =
      agent->run_conversation("Add one and two.", std::nullopt, earlier_exchange());
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(engine->compactions == 1);
  CHECK(r.final_response == "The sum is 3.");
  CHECK(f.server.request_count() == 3);
  CHECK(r.api_calls == 2);
}

TEST_CASE("a spent budget still counts the summary call among the model calls") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_1", "add", R"({"a": 1, "b": 2})"}}, false));
  f.server.enqueue(chat::text("I added one and two.", false));
  AgentOptions o = f.options(/*stream=*/false);
  o.max_iterations = 1;
  o.persistence.enabled = false;
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Keep adding.");
  CHECK_FALSE(r.completed);
  CHECK(r.exit_reason == "max_iterations_reached(1/1)");
  CHECK(r.api_calls == 2);
  CHECK(f.server.request_count() == 2);
}
