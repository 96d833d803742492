// Requests written from the encodings kept between steps are, byte for byte, the requests
// a from-scratch encoding of the same call makes: over the real HTTP path, through a turn
// with a repaired history, tool steps, guidance steered in while a tool runs, and a
// compaction before a model call, in both OpenAI wire formats.
#include <doctest/doctest.h>

#include <thread>

#include "common/json_text.hpp"
#include "hermes/context_engine.hpp"
#include "integration/loop_http_fixture.hpp"
#include "providers/chat_request_builder.hpp"
#include "providers/responses_request_builder.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

// Forwards to the real provider unchanged and writes down what a from-scratch encoding of
// the same request (no kept encodings) would have sent.
class FromScratchWitness : public Provider {
 public:
  explicit FromScratchWitness(std::shared_ptr<Provider> inner) : inner_(std::move(inner)) {}

  std::vector<std::string> expected;
  int with_cache = 0;

  const ProviderInfo& info() const override { return inner_->info(); }
  Result<ProviderResponse> complete(const ProviderRequest& request,
                                    const CallContext& context) override {
    ProviderRequest plain = request;
    plain.encoding_cache = nullptr;
    const ProviderInfo& i = inner_->info();
    Result<std::string> body =
        i.api_mode == kApiModeResponses
            ? internal::encode_responses_request(
                  plain, internal::responses_dialect_for(i.name, i.base_url), i.model)
            : internal::encode_chat_request(
                  plain, internal::chat_dialect_for(i.name, i.base_url, i.model), i.model);
    expected.push_back(body.ok() ? *body : body.status().to_string());
    if (request.encoding_cache != nullptr) ++with_cache;
    return inner_->complete(request, context);
  }

 private:
  std::shared_ptr<Provider> inner_;
};

// Compacts once, before the third model call, keeping the last four messages.
class CompactBeforeThirdCall : public ContextEngine {
 public:
  std::string name() const override { return "compact-before-third-call"; }
  void update_from_response(const Usage&) override {}
  bool should_compress(std::optional<int64_t>) override { return ++checks_ == 3; }
  CompressDecision should_compress_info(std::optional<int64_t>) override { return {}; }
  Result<std::vector<Message>> compress(const std::vector<Message>& messages,
                                        const CompressOptions&) override {
    const std::size_t keep = std::min<std::size_t>(4, messages.size());
    std::vector<Message> out{Message::user("[summary of the earlier conversation]")};
    out.insert(out.end(), messages.end() - static_cast<std::ptrdiff_t>(keep), messages.end());
    return out;
  }
  int64_t context_length() const override { return 200'000; }
  int64_t threshold_tokens() const override { return 100'000; }

 private:
  int checks_ = 0;
};

// A history the sequence repairs have work on: an orphan result, an unanswered call, a
// blank user message, adjacent user messages and a reply that only thought.
std::vector<Message> untidy_history() {
  Message calls = Message::assistant("");
  calls.tool_calls.push_back({"old_1", "add", R"({"a": 1, "b": 1})", nullptr});
  calls.tool_calls.push_back({"old_2", "add", "{\"a\": 2", nullptr});
  Message thinking = Message::assistant("<think>hmm</think>");
  return {Message::user("What is 1 + 1?"),
          calls,
          Message::tool("old_1", "add", R"({"sum":2})"),
          Message::tool("nobody", "add", "orphan"),
          Message::user("   "),
          Message::user("And then?"),
          Message::user("Take your time."),
          thinking,
          Message::assistant("It is 2.")};
}

void run_turn(bool responses) {
  LoopHttpFixture f;
  const bool stream = true;
  auto calls = [&](const std::vector<MockToolCall>& c) {
    return responses ? testing::responses::tool_calls(c, stream) : chat::tool_calls(c, stream);
  };
  f.server.enqueue(calls({{"call_1", "add", R"({"a": 1, "b": 2})"}}));
  f.server.enqueue(
      calls({{"call_2", "slow_step", "{}"}, {"call_3", "add", R"({"a": 5, "b": 6})"}}));
  f.server.enqueue(calls({{"call_4", "add", R"({"a": 3, "b": 4})"}}));
  f.server.enqueue(responses ? testing::responses::text("All done.", stream)
                             : chat::text("All done.", stream));
  AgentOptions o = f.options(stream);
  if (responses) o.provider.api_mode = std::string(kApiModeResponses);
  o.persistence.enabled = false;
  o.context_engine = std::make_shared<CompactBeforeThirdCall>();
  ProviderConfig inner_config = o.provider;
  auto inner = make_provider(inner_config);
  REQUIRE_MESSAGE(inner.ok(), inner.status().to_string());
  auto witness = std::make_shared<FromScratchWitness>(*inner);
  o.provider.instance = witness;
  auto agent = f.agent(o);

  std::thread host([&] {
    if (f.tool_started.wait()) CHECK(agent->steer("use metric units").ok());
    f.release_tool.open();
  });
  ConversationResult r =
      agent->run_conversation("Add some numbers.", std::nullopt, untidy_history());
  host.join();
  REQUIRE_MESSAGE(r.completed, r.error);

  const auto requests = f.server.requests();
  REQUIRE(requests.size() == 4);
  REQUIRE(witness->expected.size() == 4);
  CHECK(witness->with_cache == 4);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    CAPTURE(i);
    CHECK(requests[i].body == witness->expected[i]);
  }
  // What the turn went through: the steer after the slow tool's result, the compaction.
  CHECK(requests[2].body.find("use metric units") != std::string::npos);
  CHECK(requests[3].body.find("[summary of the earlier conversation]") != std::string::npos);
  CHECK(requests[3].body.find("What is 1 + 1?") == std::string::npos);
}

}  // namespace

TEST_CASE("Chat Completions requests from kept encodings equal from-scratch ones") {
  run_turn(/*responses=*/false);
}

TEST_CASE("Responses requests from kept items equal from-scratch ones") {
  run_turn(/*responses=*/true);
}
