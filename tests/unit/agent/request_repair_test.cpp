// Refusals of something the request carries: corrupt image bytes are stripped from the
// retried copy, a refused reasoning setting is changed, and each is retried at once.
#include "agent/request_repair.hpp"

#include <doctest/doctest.h>

#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

const char* const kInvalidPngError = R"({"code":"invalid-argument","error":"Invalid PNG image."})";
const char* const kReasoningMandatory =
    "Reasoning is mandatory for this endpoint and cannot be disabled.";

AgentOptions repair_options(std::shared_ptr<ScriptedProvider> provider,
                            const hermes::testing::TempDir& home) {
  AgentOptions o;
  o.provider.model = "vision-model";
  o.provider.instance = std::move(provider);
  o.home = home.path();
  o.persistence.enabled = false;
  return o;
}

Message user_with_image(Role role, const std::string& text) {
  Message m;
  m.role = role;
  m.parts = Json::array({Json{{"type", "text"}, {"text", text}},
                         Json{{"type", "image_url"},
                              {"image_url", {{"url", "data:image/png;base64,iVBORw0KGgo="}}}}});
  m.content = text;
  return m;
}

Message image_only_user() {
  Message m;
  m.role = Role::kUser;
  m.parts =
      Json::array({Json{{"type", "input_image"}, {"image_url", "data:image/png;base64,AA=="}}});
  return m;
}

std::size_t count_image_parts(const std::vector<Message>& messages) {
  std::size_t n = 0;
  for (const Message& m : messages) {
    if (!m.parts.is_array()) continue;
    for (const Json& p : m.parts) {
      const std::string type = p.value("type", "");
      if (type == "image_url" || type == "input_image" || type == "image") ++n;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("a corrupt image is stripped from the retried request and the history keeps it") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(400, kInvalidPngError);
  provider->text("The image was unreadable, but here is what I recall.");
  AgentOptions o = repair_options(provider, home);
  std::vector<std::string> notices;
  o.callbacks.on_status = [&](std::string_view kind, std::string_view text) {
    if (kind == "retry") notices.emplace_back(text);
  };
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  const std::vector<Message> history = {user_with_image(Role::kUser, "what's in this screenshot?"),
                                        Message::assistant("I see a browser window.")};

  ConversationResult r = (*agent)->run_conversation("did that look right?", std::nullopt, history);
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "The image was unreadable, but here is what I recall.");
  auto requests = provider->requests();
  REQUIRE(requests.size() == 2);
  CHECK(count_image_parts(requests[0].messages) == 1);
  CHECK(count_image_parts(requests[1].messages) == 0);
  // The text beside the image is still sent.
  bool text_kept = false;
  for (const Message& m : requests[1].messages) {
    text_kept |= m.content == "what's in this screenshot?";
  }
  CHECK(text_kept);
  // Only the wire copy lost the image.
  CHECK(count_image_parts(r.messages) == 1);
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("stripped images from the retry payload") != std::string::npos);
}

TEST_CASE("a corrupt-image refusal with no image left to strip takes the normal error path") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  for (int i = 0; i < 3; ++i) provider->error(400, kInvalidPngError, 0.0);
  AgentOptions o = repair_options(provider, home);
  o.failover.max_retries = 3;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("no pictures here");
  CHECK(r.failed);
  CHECK(r.failure_reason == "image_corrupt");
  CHECK(provider->requests().size() == 3);
}

TEST_CASE("stripping images keeps tool pairing and drops messages that held only images") {
  Message tool_result;
  tool_result.role = Role::kTool;
  tool_result.tool_call_id = "call_1";
  tool_result.name = "screenshot";
  tool_result.parts = Json::array({Json{{"type", "image"}, {"source", {{"type", "base64"}}}}});
  std::vector<Message> messages = {Message::user("look"), image_only_user(),
                                   user_with_image(Role::kUser, "and this"), tool_result,
                                   Message::assistant("done")};

  REQUIRE(internal::strip_request_images(messages));
  REQUIRE(messages.size() == 4);
  CHECK(messages[0].content == "look");
  CHECK(messages[1].content == "and this");
  CHECK(messages[1].parts.size() == 1);
  CHECK(messages[2].role == Role::kTool);
  CHECK(messages[2].parts.is_null());
  CHECK(messages[2].content == std::string(internal::kImageRemovedPlaceholder));
  CHECK(messages[2].tool_call_id == "call_1");
  // A second pass finds nothing: the recovery cannot loop.
  CHECK_FALSE(internal::strip_request_images(messages));
  CHECK(messages.size() == 4);
}

TEST_CASE("a refused reasoning disable is retried at the floor level for the rest of the session") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(400, kReasoningMandatory);
  provider->text("thinking after all");
  provider->text("still thinking");
  AgentOptions o = repair_options(provider, home);
  o.request.reasoning_effort = "none";
  std::vector<std::string> notices;
  o.callbacks.on_status = [&](std::string_view kind, std::string_view text) {
    if (kind == "retry") notices.emplace_back(text);
  };
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());

  ConversationResult r = (*agent)->run_conversation("hi");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "thinking after all");
  ConversationResult next = (*agent)->run_conversation("again");
  REQUIRE_MESSAGE(next.completed, next.error);

  auto requests = provider->requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].reasoning_effort == "none");
  CHECK(requests[1].reasoning_effort == "low");
  CHECK(requests[2].reasoning_effort == "low");  // The next turn does not ask again.
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("cannot disable reasoning") != std::string::npos);
  CHECK(notices[0].find("effort=low") != std::string::npos);
}

TEST_CASE("a refused reasoning level is dropped, and the retry happens once per turn") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(400, "reasoning is mandatory here; the level max is not supported");
  provider->error(400, kReasoningMandatory, 0.0);
  provider->error(400, kReasoningMandatory, 0.0);
  AgentOptions o = repair_options(provider, home);
  o.request.reasoning_effort = "max";
  o.failover.max_retries = 2;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());

  ConversationResult r = (*agent)->run_conversation("hi");
  CHECK(r.failed);
  CHECK(r.failure_reason == "reasoning_mandatory");
  auto requests = provider->requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].reasoning_effort == "max");
  CHECK(requests[1].reasoning_effort.empty());  // The route's own default.
  CHECK(requests[2].reasoning_effort.empty());  // Retried normally, not repaired again.
}

TEST_CASE("reasoning rejections choose what is sent") {
  using internal::ReasoningRejections;
  using internal::wire_reasoning_effort;
  CHECK(wire_reasoning_effort("none", {}) == "none");
  CHECK(wire_reasoning_effort("high", {}) == "high");
  ReasoningRejections disable{true, false, false};
  CHECK(wire_reasoning_effort("none", disable).empty());
  CHECK(wire_reasoning_effort("high", disable) == "high");
  ReasoningRejections floor{true, true, false};
  CHECK(wire_reasoning_effort("off", floor) == "low");
  CHECK(wire_reasoning_effort("", floor) == "low");
  CHECK(wire_reasoning_effort("medium", floor) == "medium");
  ReasoningRejections level{false, false, true};
  CHECK(wire_reasoning_effort("max", level).empty());
}
