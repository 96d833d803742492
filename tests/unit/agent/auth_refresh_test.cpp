// The host's auth refresh: asked once per model call on 401/403, before key rotation and
// fallback.
#include <doctest/doctest.h>

#include <stdexcept>

#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

AgentOptions refresh_options(std::shared_ptr<Provider> provider,
                             const hermes::testing::TempDir& home) {
  AgentOptions o;
  o.provider.model = "primary-model";
  o.provider.instance = std::move(provider);
  o.home = home.path();
  o.persistence.enabled = false;
  o.provider.api_key = "stale-token";
  return o;
}

}  // namespace

TEST_CASE("a 401 asks the host for a fresh credential and retries the call with it") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(401, "Token expired");
  provider->text("ok");
  provider->text("still ok");
  AgentOptions o = refresh_options(provider, home);
  std::vector<AuthRefreshRequest> asked;
  o.callbacks.on_auth_refresh =
      [&](const AuthRefreshRequest& request) -> std::optional<std::string> {
    asked.push_back(request);
    return "fresh-token";
  };
  auto agent = Agent::create(o);
  REQUIRE_MESSAGE(agent.ok(), agent.status().to_string());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.completed);
  CHECK(r.final_response == "ok");
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].http_status == 401);
  CHECK(asked[0].model == "primary-model");
  CHECK(asked[0].message.find("Token expired") != std::string::npos);
  // The fresh credential stays in use for later calls.
  CHECK((*agent)->run_conversation("again").final_response == "still ok");
  CHECK(provider->api_keys() ==
        std::vector<std::string>{"stale-token", "fresh-token", "fresh-token"});
}

TEST_CASE("a credential that still fails after one refresh ends the turn as auth_permanent") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(401, "Invalid token");
  provider->error(401, "Invalid token");
  provider->text("never");
  AgentOptions o = refresh_options(provider, home);
  int asked = 0;
  o.callbacks.on_auth_refresh = [&](const AuthRefreshRequest&) -> std::optional<std::string> {
    ++asked;
    return "another-bad-token";
  };
  auto agent = Agent::create(o);
  REQUIRE_MESSAGE(agent.ok(), agent.status().to_string());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.failed);
  CHECK(r.failure_reason == "auth_permanent");
  CHECK(asked == 1);
  CHECK(provider->requests().size() == 2);
}

TEST_CASE("a refresh that yields nothing falls through to key rotation") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(401, "Incorrect API key provided");
  provider->text("ok");
  AgentOptions o = refresh_options(provider, home);
  o.failover.extra_api_keys = {"second-key"};
  o.callbacks.on_auth_refresh = [](const AuthRefreshRequest&) -> std::optional<std::string> {
    return std::nullopt;
  };
  auto agent = Agent::create(o);
  REQUIRE_MESSAGE(agent.ok(), agent.status().to_string());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.completed);
  CHECK(provider->api_keys() == std::vector<std::string>{"stale-token", "second-key"});
}

TEST_CASE("a refresh callback that throws counts as no credential") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(403, "Forbidden: invalid credentials");
  provider->text("never");
  AgentOptions o = refresh_options(provider, home);
  o.callbacks.on_auth_refresh = [](const AuthRefreshRequest&) -> std::optional<std::string> {
    throw std::runtime_error("vault unreachable");
  };
  auto agent = Agent::create(o);
  REQUIRE_MESSAGE(agent.ok(), agent.status().to_string());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.failed);
  CHECK(r.failure_reason == "auth");
  CHECK(provider->requests().size() == 1);
}

TEST_CASE("a refreshed credential on a fallback is used for that fallback only") {
  hermes::testing::TempDir home;
  auto primary = std::make_shared<ScriptedProvider>();
  for (int i = 0; i < 3; ++i) primary->error(503, "Service temporarily overloaded", 0.0);
  primary->text("primary again");
  auto backup = std::make_shared<ScriptedProvider>();
  backup->error(401, "Token expired");
  backup->text("from the backup");
  AgentOptions o = refresh_options(primary, home);
  ProviderConfig fb;
  fb.provider = "backup";
  fb.model = "backup-model";
  fb.instance = backup;
  o.failover.fallback_providers = {fb};
  o.callbacks.on_auth_refresh =
      [](const AuthRefreshRequest& request) -> std::optional<std::string> {
    return request.provider == "backup" || request.model == "backup-model"
               ? std::optional<std::string>("backup-fresh")
               : std::nullopt;
  };
  auto agent = Agent::create(o);
  REQUIRE_MESSAGE(agent.ok(), agent.status().to_string());
  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.final_response == "from the backup");
  CHECK(backup->api_keys() == std::vector<std::string>{"", "backup-fresh"});
  CHECK((*agent)->run_conversation("again").final_response == "primary again");
  CHECK(primary->api_keys().back() == "stale-token");
}
