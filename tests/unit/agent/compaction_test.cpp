// Compaction inside the loop: on a context-overflow error, at turn start (over the threshold
// or after a long idle), and on demand.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>

#include "hermes/agent.hpp"
#include "hermes/context_compressor.hpp"
#include "support/scripted_provider.hpp"
#include "support/ship_history.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::count_summaries;
using hermes::testing::kShipSummary;
using hermes::testing::ScriptedProvider;
using hermes::testing::ship_history;

namespace {

bool is_summary_request(const ProviderRequest& r) {
  return r.tools.empty() && !r.messages.empty() &&
         r.messages.back().content.find("Historical Task Snapshot") != std::string::npos;
}

AgentOptions compaction_options(std::shared_ptr<ScriptedProvider> provider,
                                const hermes::testing::TempDir& home) {
  AgentOptions o;
  o.provider.model = "m";
  o.provider.instance = std::move(provider);
  o.home = home.path();
  o.persistence.enabled = false;
  return o;
}

}  // namespace

TEST_CASE("a context-overflow error compacts the transcript and the turn completes") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->error(400,
                  "This model's maximum context length is 8192 tokens. However, your "
                  "messages resulted in 9000 tokens. Please reduce the length of the messages.");
  provider->text(kShipSummary);  // The summariser's answer.
  provider->text("Frigates were fast warships.");
  auto agent = Agent::create(compaction_options(provider, home));
  REQUIRE(agent.ok());
  ConversationResult r =
      (*agent)->run_conversation("What is a frigate?", std::nullopt, ship_history());

  CHECK_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Frigates were fast warships.");
  CHECK(r.messages.size() < 42);
  CHECK(count_summaries(r.messages) == 1);
  // The latest user message is kept verbatim, after the summary.
  auto user = std::find_if(r.messages.rbegin(), r.messages.rend(), [](const Message& m) {
    return m.role == Role::kUser && !is_context_summary(m);
  });
  REQUIRE(user != r.messages.rend());
  CHECK(user->content == "What is a frigate?");
  auto requests = provider->requests();
  REQUIRE(requests.size() == 3);
  CHECK(is_summary_request(requests[1]));
  // The retried call carries the compacted transcript and the compaction note.
  CHECK(requests[2].messages.size() < requests[0].messages.size());
  CHECK(requests[2].messages[0].content.find(std::string(kCompactionSystemNote)) !=
        std::string::npos);
}

TEST_CASE("a transcript over the threshold is compacted before the first call") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text(kShipSummary);
  provider->text("Noted.");
  AgentOptions o = compaction_options(provider, home);
  o.compression.context_length = 6000;  // The history alone is ~6,000 tokens.
  std::vector<std::string> notices;
  o.callbacks.on_status = [&](std::string_view kind, std::string_view text) {
    notices.push_back(std::string(kind) + ": " + std::string(text));
  };
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("And ship 21?", std::nullopt, ship_history());
  CHECK_MESSAGE(r.completed, r.error);
  auto requests = provider->requests();
  REQUIRE(requests.size() == 2);
  CHECK(is_summary_request(requests[0]));
  CHECK(count_summaries(r.messages) == 1);
  CHECK(std::any_of(notices.begin(), notices.end(), [](const std::string& n) {
    return n.find("Preflight compression") != std::string::npos;
  }));
}

TEST_CASE("a manual compaction summarises with the focus topic and keeps going") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("ok");
  provider->text(kShipSummary);
  provider->text("Still here.");
  auto agent = Agent::create(compaction_options(provider, home));
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello", std::nullopt, ship_history()).completed);
  auto result = (*agent)->compress("frigates");
  REQUIRE(result.ok());
  CHECK(result->compacted);
  CHECK(result->messages_after < result->messages_before);
  auto requests = provider->requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].messages.back().content.find("frigates") != std::string::npos);
  ConversationResult next = (*agent)->run_conversation("continue");
  CHECK(next.completed);
  CHECK(count_summaries(next.messages) == 1);
}

TEST_CASE("a failing summariser leaves a valid transcript and loses nothing") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("ok");
  provider->text("this is not a summary at all");  // Wrong format: the static summary stands in.
  auto agent = Agent::create(compaction_options(provider, home));
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello", std::nullopt, ship_history()).completed);
  auto result = (*agent)->compress();
  REQUIRE(result.ok());
  CHECK(result->compacted);
  auto history = (*agent)->history();
  CHECK(count_summaries(history) == 1);
  CHECK(history.back().content == "ok");
}

TEST_CASE("after a compaction the next turn over the threshold is compacted again") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text(kShipSummary);
  provider->text("Noted.");  // Reports real usage: the prompt fits now.
  provider->text(kShipSummary);
  provider->text("Noted again.");
  AgentOptions o = compaction_options(provider, home);
  o.compression.context_length = 6000;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("And ship 21?", std::nullopt, ship_history()).completed);
  REQUIRE(provider->requests().size() == 2);

  // Twice the history: far past what the provider last said fits.
  std::vector<Message> longer = ship_history();
  for (const Message& m : ship_history()) longer.push_back(m);
  ConversationResult r = (*agent)->run_conversation("And ship 22?", std::nullopt, longer);
  CHECK_MESSAGE(r.completed, r.error);
  auto requests = provider->requests();
  REQUIRE(requests.size() == 4);
  CHECK(is_summary_request(requests[2]));
  CHECK(count_summaries(r.messages) == 1);
}

TEST_CASE("a new session starts the compressor afresh") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text(kShipSummary);
  provider->text("Noted.");
  provider->text("Hello again.");
  AgentOptions o = compaction_options(provider, home);
  o.compression.context_length = 6000;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("And ship 21?", std::nullopt, ship_history()).completed);
  REQUIRE((*agent)->new_session().ok());
  ConversationResult r = (*agent)->run_conversation("hello");
  CHECK_MESSAGE(r.completed, r.error);
  auto requests = provider->requests();
  REQUIRE(requests.size() == 3);
  // The new session's prompt carries no note about an earlier compaction.
  CHECK(requests[2].messages[0].content.find(std::string(kCompactionSystemNote)) ==
        std::string::npos);
}

namespace {

// The ship history, last said `seconds_ago`.
std::vector<Message> history_from(double seconds_ago) {
  const double then =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() -
      seconds_ago;
  std::vector<Message> history = ship_history();
  for (std::size_t i = 0; i < history.size(); ++i) {
    history[i].timestamp = then - static_cast<double>(history.size() - 1 - i);
  }
  return history;
}

// A 20,000-token window: the ~6,000-token history is far under the 17,000-token threshold
// but over the idle trigger's floor of a fifth of it.
AgentOptions idle_options(std::shared_ptr<ScriptedProvider> provider,
                          const hermes::testing::TempDir& home, std::vector<std::string>& notices) {
  AgentOptions o = compaction_options(std::move(provider), home);
  o.compression.context_length = 20000;
  o.compression.idle_compact_after_seconds = 600;
  o.callbacks.on_status = [&notices](std::string_view kind, std::string_view text) {
    notices.push_back(std::string(kind) + ": " + std::string(text));
  };
  return o;
}

bool any_contains(const std::vector<std::string>& notices, const std::string& text) {
  return std::any_of(notices.begin(), notices.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("a conversation resumed after a long idle is compacted before the first call") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text(kShipSummary);
  provider->text("Welcome back.");
  std::vector<std::string> notices;
  auto agent = Agent::create(idle_options(provider, home, notices));
  REQUIRE(agent.ok());
  ConversationResult r =
      (*agent)->run_conversation("Where were we?", std::nullopt, history_from(3600));
  CHECK_MESSAGE(r.completed, r.error);
  auto requests = provider->requests();
  REQUIRE(requests.size() == 2);
  CHECK(is_summary_request(requests[0]));
  CHECK(count_summaries(r.messages) == 1);
  CHECK(any_contains(notices, "Resumed after 3600s idle"));
  CHECK_FALSE(any_contains(notices, "Preflight compression"));
}

TEST_CASE(
    "the idle trigger leaves a recent conversation, a small one and a disabled option alone") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  for (int i = 0; i < 3; ++i) provider->text("Go on.");
  std::vector<std::string> notices;
  AgentOptions o = idle_options(provider, home, notices);

  // Paused for less than the setting.
  auto recent = Agent::create(o);
  REQUIRE(recent.ok());
  CHECK((*recent)->run_conversation("next", std::nullopt, history_from(60)).completed);

  // Long idle, but too little conversation to be worth a summary.
  std::vector<Message> small = history_from(3600);
  small.resize(4);
  auto little = Agent::create(o);
  REQUIRE(little.ok());
  CHECK((*little)->run_conversation("next", std::nullopt, small).completed);

  // Long idle with the option off (the default).
  o.compression.idle_compact_after_seconds = 0;
  auto off = Agent::create(o);
  REQUIRE(off.ok());
  CHECK((*off)->run_conversation("next", std::nullopt, history_from(3600)).completed);

  auto requests = provider->requests();
  REQUIRE(requests.size() == 3);
  for (const auto& request : requests) CHECK_FALSE(is_summary_request(request));
  CHECK_FALSE(any_contains(notices, "idle"));
}

TEST_CASE("the active todo list survives a compaction inside the turn's user message") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->tool_calls({{"todo_list", R"({"todos":[
      {"id":"1","content":"Chart the course","status":"in_progress"},
      {"id":"2","content":"Load the cargo","status":"completed"}]})"}});
  provider->text("Planned.");
  provider->text(kShipSummary);
  provider->text("Ship 21 was a sloop.");
  AgentOptions o = compaction_options(provider, home);
  o.compression.context_length = 6000;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("Plan the voyage.").completed);

  ConversationResult r = (*agent)->run_conversation("And ship 21?", std::nullopt, ship_history());
  CHECK_MESSAGE(r.completed, r.error);
  auto requests = provider->requests();
  REQUIRE(requests.size() == 4);
  REQUIRE(is_summary_request(requests[2]));
  // The model sees the open item (not the finished one) after the user's question...
  const Message& sent = requests[3].messages.back();
  CHECK(sent.role == Role::kUser);
  CHECK(sent.wire_text().rfind("And ship 21?", 0) == 0);
  CHECK(sent.wire_text().find("[Your active task list was preserved across context compression]") !=
        std::string::npos);
  CHECK(sent.wire_text().find("Chart the course") != std::string::npos);
  CHECK(sent.wire_text().find("Load the cargo") == std::string::npos);
  // ...in the same message: roles still alternate, and the question reads as typed.
  const Message& before = requests[3].messages[requests[3].messages.size() - 2];
  CHECK(before.role != Role::kUser);
  auto question = std::find_if(r.messages.begin(), r.messages.end(),
                               [](const Message& m) { return m.content == "And ship 21?"; });
  REQUIRE(question != r.messages.end());
  CHECK(question->content == "And ship 21?");
}

TEST_CASE("resuming a session that compression closed resumes its continuation") {
  hermes::testing::TempDir home;
  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("ok");
  provider->text(kShipSummary);
  AgentOptions o = compaction_options(provider, home);
  o.persistence.store = make_memory_store();
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello", std::nullopt, ship_history()).completed);
  const std::string first = (*agent)->session_id();
  REQUIRE((*agent)->compress().ok());
  const std::string continuation = (*agent)->session_id();
  REQUIRE(continuation != first);

  auto later = Agent::create(o);
  REQUIRE(later.ok());
  REQUIRE((*later)->resume(first).ok());
  CHECK((*later)->session_id() == continuation);
  CHECK(count_summaries((*later)->history()) == 1);
  CHECK((*later)->resume("no-such-session").code() == StatusCode::kNotFound);
}
