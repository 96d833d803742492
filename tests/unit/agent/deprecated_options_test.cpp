// The 0.1 option names AgentOptions keeps for one release: a value set under an old name
// reaches its new place, and both names set to different values are refused.
#include <doctest/doctest.h>

#include "hermes/agent.hpp"

// These tests name the deprecated options on purpose.
#if defined(__GNUC__) || defined(__clang__)
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

using namespace hermes;

TEST_CASE("options set under their 0.1 names reach their new places") {
  AgentOptions options;
  options.model = "old-model";
  options.base_url = "http://127.0.0.1:9/v1";
  options.api_key = "sk-old";
  options.persist_sessions = false;
  auto agent = Agent::create(options);
  REQUIRE(agent.ok());
  const AgentOptions& settled = (*agent)->options();
  CHECK(settled.provider.model == "old-model");
  CHECK(settled.provider.base_url == "http://127.0.0.1:9/v1");
  CHECK(settled.provider.api_key == "sk-old");
  CHECK_FALSE(settled.persistence.enabled);
  CHECK((*agent)->session_store() == nullptr);
  // Moved, not copied: the old names are empty afterwards.
  CHECK(settled.model.empty());
  CHECK_FALSE(settled.persist_sessions.has_value());
}

TEST_CASE("an old name and its new one set to different values are refused") {
  AgentOptions options;
  options.persistence.enabled = false;
  options.provider.model = "new-model";
  options.model = "old-model";
  auto agent = Agent::create(options);
  REQUIRE_FALSE(agent.ok());
  CHECK(agent.status().code() == StatusCode::kInvalidArgument);
  CHECK(agent.status().message() ==
        "model (deprecated) and provider.model are both set and differ; set only "
        "provider.model");

  options.model = "new-model";  // The same value under both names is harmless.
  CHECK(Agent::create(options).ok());

  AgentOptions store;
  store.provider.model = "m";
  store.persistence.enabled = false;
  store.persist_sessions = true;
  auto refused = Agent::create(store);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("persist_sessions (deprecated)") == 0);
}

TEST_CASE("without a base URL or an instance the primary provider is OpenAI's endpoint") {
  AgentOptions options;
  options.provider.model = "m";
  options.persistence.enabled = false;
  auto agent = Agent::create(options);
  REQUIRE(agent.ok());
  CHECK((*agent)->options().provider.base_url == "https://api.openai.com/v1");
}

#if defined(__GNUC__) || defined(__clang__)
#  pragma GCC diagnostic pop
#endif
