// Refusals of something in the request, over HTTP: the retried body no longer carries
// what was refused (a corrupt image, a reasoning disable), and the turn completes.
#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

std::size_t image_parts(const Json& wire) {
  std::size_t n = 0;
  for (const Json& m : wire) {
    if (!m.contains("content") || !m["content"].is_array()) continue;
    for (const Json& part : m["content"]) n += part.value("type", "") == "image_url" ? 1 : 0;
  }
  return n;
}

}  // namespace

TEST_CASE("a corrupt image in the history is left out of the retried body, once") {
  LoopHttpFixture f;
  f.server.enqueue(chat::error(400, "Request contains an invalid argument: Invalid PNG image.",
                               "invalid-argument"));
  f.server.enqueue(chat::text("The picture did not come through.", true));
  auto agent = f.agent(f.options());
  Message shot;
  shot.role = Role::kUser;
  shot.parts = Json::array({Json{{"type", "text"}, {"text", "what is on this screenshot?"}},
                            Json{{"type", "image_url"},
                                 {"image_url", {{"url", "data:image/png;base64,iVBORw0KGgo="}}}}});
  shot.content = "what is on this screenshot?";
  const std::vector<Message> history = {shot, Message::assistant("A browser window.")};

  ConversationResult r = agent->run_conversation("Did it look right?", std::nullopt, history);
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "The picture did not come through.");
  REQUIRE(f.server.request_count() == 2);
  CHECK(image_parts(f.sent_messages(0)) == 1);
  const Json retried = f.sent_messages(1);
  CHECK(image_parts(retried) == 0);
  CHECK(retried[1]["content"] ==
        Json::array({Json{{"type", "text"}, {"text", "what is on this screenshot?"}}}));
  CHECK(f.log.has_status("retry", "stripped images from the retry payload"));
  // The transcript keeps the image for a later call that can read it.
  REQUIRE(r.messages[0].parts.is_array());
  CHECK(r.messages[0].parts.size() == 2);
}

TEST_CASE("a route that refuses reasoning off gets the lowest level, on every later request") {
  LoopHttpFixture f;
  f.server.enqueue(
      chat::error(400, "Reasoning is mandatory for this endpoint and cannot be disabled."));
  f.server.enqueue(chat::text("Thought briefly.", true));
  f.server.enqueue(chat::text("Again.", true));
  AgentOptions o = f.options();
  o.request.reasoning_effort = "none";
  auto agent = f.agent(o);

  ConversationResult r = agent->run_conversation("Quick answer, please.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Thought briefly.");
  REQUIRE_MESSAGE(agent->run_conversation("And another.").completed, "second turn");

  auto requests = f.server.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].json()["reasoning_effort"] == "none");
  CHECK(requests[1].json()["reasoning_effort"] == "low");
  CHECK(requests[2].json()["reasoning_effort"] == "low");
  CHECK(f.log.has_status("retry", "cannot disable reasoning"));
}
