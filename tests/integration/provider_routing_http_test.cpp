// OpenRouter's provider routing on the wire: the "provider" object goes to a service that
// is OpenRouter, and not to a fallback that is not.
#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

TEST_CASE("the routing object goes to OpenRouter and not to a fallback of another service") {
  LoopHttpFixture f;
  for (int i = 0; i < 4; ++i) f.server.enqueue(chat::text("", true));  // Empty answers: fall back.
  f.server.enqueue(chat::text("Hello from the fallback.", true));
  AgentOptions o = f.options();
  o.provider.provider = "openrouter";
  o.request.provider_routing.only = {"Groq", "Together"};
  o.request.provider_routing.sort = "throughput";
  o.request.provider_routing.require_parameters = true;
  ProviderConfig fallback;
  fallback.provider = "custom";
  fallback.base_url = f.server.base_url();
  fallback.model = "fallback-model";
  o.failover.fallback_providers = {fallback};
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Say something.");
  REQUIRE_MESSAGE(r.completed, r.error);
  auto requests = f.server.requests();
  REQUIRE(requests.size() == 5);
  CHECK(requests[0].json()["provider"] ==
        Json{{"only", {"Groq", "Together"}}, {"sort", "throughput"}, {"require_parameters", true}});
  CHECK(requests[4].json()["model"] == "fallback-model");
  CHECK_FALSE(requests[4].json().contains("provider"));
}

TEST_CASE("no routing object without routing, and a bad sort is refused at creation") {
  LoopHttpFixture f;
  f.server.enqueue(chat::text("Plain.", true));
  AgentOptions o = f.options();
  o.provider.provider = "openrouter";
  auto agent = f.agent(o);
  REQUIRE(agent->run_conversation("Hi.").completed);
  CHECK_FALSE(f.server.requests()[0].json().contains("provider"));

  o.request.provider_routing.sort = "cheapest";
  auto refused = Agent::create(o);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message() ==
        "request.provider_routing.sort: expected price, throughput or latency, got 'cheapest'");
}
