// The recovery chain: key rotation, fallback providers, terminal failures.
#include <doctest/doctest.h>

#include <stdexcept>

#include "hermes/agent.hpp"
#include "hermes/context_engine.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

AgentOptions base_options(std::shared_ptr<Provider> provider,
                          const hermes::testing::TempDir& home) {
  AgentOptions o;
  o.provider.model = "primary-model";
  o.provider.instance = std::move(provider);
  o.home = home.path();
  o.persistence.enabled = false;
  return o;
}

}  // namespace

TEST_CASE("the first 429 retries the same key and the second rotates to the next key") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(429, "Rate limit reached for requests", 0.0);
  provider->error(429, "Rate limit reached for requests", 0.0);
  provider->text("ok");
  AgentOptions o = base_options(provider, home);
  o.provider.api_key = "key-one";
  o.failover.extra_api_keys = {"key-two"};
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.completed);
  CHECK(provider->api_keys() == std::vector<std::string>{"key-one", "key-one", "key-two"});
}

TEST_CASE("repeated server errors fall back to the next provider, which serves the turn") {
  hermes::testing::TempDir home;
  auto primary = std::make_shared<ScriptedProvider>();
  for (int i = 0; i < 3; ++i) primary->error(503, "Service temporarily overloaded", 0.0);
  primary->text("primary again");
  auto backup = std::make_shared<ScriptedProvider>();
  backup->text("from the backup");
  AgentOptions o = base_options(primary, home);
  ProviderConfig fb;
  fb.provider = "backup";
  fb.model = "backup-model";
  fb.instance = backup;
  o.failover.fallback_providers = {fb};
  std::vector<std::string> notices;
  o.callbacks.on_status = [&](std::string_view kind, std::string_view text) {
    if (kind == "fallback") notices.emplace_back(text);
  };
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.completed);
  CHECK(r.final_response == "from the backup");
  CHECK(r.model == "backup-model");
  REQUIRE(backup->requests().size() == 1);
  CHECK(backup->requests()[0].model == "backup-model");
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("switching to fallback: backup-model via backup") != std::string::npos);
  // The next turn goes back to the primary.
  ConversationResult next = (*agent)->run_conversation("again");
  CHECK(next.final_response == "primary again");
}

TEST_CASE("an auth failure with no fallback ends the turn without retrying") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(401, "Incorrect API key provided");
  provider->text("never");
  auto agent = Agent::create(base_options(provider, home));
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK_FALSE(r.completed);
  CHECK(r.failed);
  CHECK(r.failure_reason == "auth");
  CHECK(provider->requests().size() == 1);
}

TEST_CASE("a context overflow with compression disabled fails with a clear reason") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(400,
                  "This model's maximum context length is 8192 tokens. However, your messages "
                  "resulted in 9000 tokens.");
  AgentOptions o = base_options(provider, home);
  o.compression.enabled = false;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.failed);
  CHECK(r.failure_reason == "context_overflow");
  CHECK(r.error.find("Context overflow") != std::string::npos);
}

TEST_CASE("a retry backoff whose ceiling is below its base is rejected naming the field") {
  hermes::testing::TempDir home;
  AgentOptions o = base_options(std::make_shared<ScriptedProvider>(), home);
  o.failover.backoff.base = std::chrono::seconds(5);
  o.failover.backoff.max = std::chrono::seconds(1);
  auto agent = Agent::create(o);
  REQUIRE_FALSE(agent.ok());
  CHECK(agent.status().code() == StatusCode::kInvalidArgument);
  CHECK(agent.status().message().rfind("failover.backoff", 0) == 0);
}

namespace {

// A context engine that never compresses and remembers every model switch it is told of.
class ModelSwitchRecorder : public ContextEngine {
 public:
  std::vector<std::pair<std::string, int64_t>> switches;

  std::string name() const override { return "recorder"; }
  void update_from_response(const Usage&) override {}
  bool should_compress(std::optional<int64_t>) override { return false; }
  Result<std::vector<Message>> compress(const std::vector<Message>& messages,
                                        const CompressOptions&) override {
    return messages;
  }
  int64_t context_length() const override { return length_; }
  int64_t threshold_tokens() const override { return length_ / 2; }
  void update_model(const std::string& model, int64_t context_length) override {
    switches.emplace_back(model, context_length);
    length_ = context_length;
  }

 private:
  int64_t length_ = 32'000;
};

}  // namespace

TEST_CASE(
    "a fallback tells the context engine its model's window, and the primary's comes back with "
    "it") {
  hermes::testing::TempDir home;
  auto primary = std::make_shared<ScriptedProvider>();
  primary->error(401, "Invalid API key provided", 0.0);
  primary->text("primary again");
  auto backup = std::make_shared<ScriptedProvider>();
  backup->text("from the backup");
  AgentOptions o = base_options(primary, home);
  ProviderConfig fb;
  fb.provider = "backup";
  fb.model = "gpt-4";  // 128,000 tokens by the model table; a host's provider is not probed.
  fb.instance = backup;
  o.failover.fallback_providers = {fb};
  auto engine = std::make_shared<ModelSwitchRecorder>();
  o.context_engine = engine;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());

  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.final_response == "from the backup");
  REQUIRE(engine->switches.size() == 1);
  CHECK(engine->switches[0] == std::make_pair(std::string("gpt-4"), int64_t{128'000}));

  ConversationResult next = (*agent)->run_conversation("again");
  CHECK(next.final_response == "primary again");
  REQUIRE(engine->switches.size() == 2);
  CHECK(engine->switches[1] == std::make_pair(std::string("primary-model"), int64_t{32'000}));
}

TEST_CASE("a step that throws fails the turn and keeps the messages it accepted") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->tool_calls({{"echo_it", R"({"text": "one"})"}});
  provider->step([](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    throw std::runtime_error("no thread could be started");
  });
  provider->text("continued");
  auto tools = std::make_shared<ToolRegistry>();
  ToolSpec echo;
  echo.name = "echo_it";
  echo.parameters = Json{{"type", "object"}};
  echo.handler = [](const Json& args, ToolContext&) -> Result<std::string> {
    return args.value("text", std::string());
  };
  REQUIRE(tools->register_tool(echo).ok());
  AgentOptions o = base_options(provider, home);
  o.tools = tools;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());

  ConversationResult r = (*agent)->run_conversation("go");
  CHECK(r.failed);
  CHECK(r.exit_reason == "internal_error");
  CHECK(r.error.find("no thread could be started") != std::string::npos);
  std::vector<Message> kept = (*agent)->history();
  REQUIRE(kept.size() >= 3);
  CHECK(kept[0].content == "go");
  CHECK(kept[1].tool_calls.size() == 1);
  CHECK(kept[2].content == "one");
  // The next turn goes on from there.
  ConversationResult next = (*agent)->run_conversation("again");
  CHECK(next.completed);
  CHECK((*agent)->history().size() == kept.size() + 2);
}
