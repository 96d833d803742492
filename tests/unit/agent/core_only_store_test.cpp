// An agent on a session store that implements only the core of SessionStore (no search,
// compaction or routes capability): turns run and persist, compactions stay in memory and
// the host is told so once, and session_search answers the model a readable error.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "hermes/agent.hpp"
#include "hermes/context_compressor.hpp"
#include "hermes/session_store.hpp"
#include "support/scripted_provider.hpp"
#include "support/ship_history.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::count_summaries;
using hermes::testing::kShipSummary;
using hermes::testing::ScriptedProvider;
using hermes::testing::ship_history;

// A named namespace: the unity build puts this file beside others with the same helpers.
namespace core_only_store_test {

// The core only: sessions and their messages in maps, every capability accessor left at
// its default (nullptr).
class CoreOnlyStore : public SessionStore {
 public:
  Status create_session(const SessionInfo& info) override {
    std::lock_guard lock(mutex_);
    sessions_.emplace(info.id, info);
    return {};
  }
  Status end_session(const std::string& session_id, const std::string& end_reason) override {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) return Status::not_found(session_id);
    if (it->second.ended_at == 0) {
      it->second.ended_at = 1;
      it->second.end_reason = end_reason;
    }
    return {};
  }
  Result<SessionInfo> get_session(const std::string& session_id) override {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) return Status::not_found(session_id);
    SessionInfo info = it->second;
    info.message_count = static_cast<int64_t>(messages_[session_id].size());
    return info;
  }
  Result<std::vector<SessionInfo>> list_sessions(const ListOptions&) override {
    std::lock_guard lock(mutex_);
    std::vector<SessionInfo> out;
    for (const auto& entry : sessions_) out.push_back(entry.second);
    return out;
  }
  Status delete_session(const std::string& session_id) override {
    std::lock_guard lock(mutex_);
    messages_.erase(session_id);
    return sessions_.erase(session_id) == 1 ? Status() : Status::not_found(session_id);
  }
  Result<std::vector<int64_t>> append_messages(const std::string& session_id,
                                               const std::vector<Message>& messages) override {
    std::lock_guard lock(mutex_);
    if (sessions_.count(session_id) == 0) return Status::not_found(session_id);
    std::vector<int64_t> ids;
    for (const Message& m : messages) {
      if (m.scaffolding) return Status::invalid_argument("scaffolding is never stored");
    }
    for (const Message& m : messages) {
      messages_[session_id].push_back(m);
      ids.push_back(++last_id_);
    }
    return ids;
  }
  Result<std::vector<Message>> load_messages(const std::string& session_id,
                                             const LoadOptions&) override {
    std::lock_guard lock(mutex_);
    if (sessions_.count(session_id) == 0) return Status::not_found(session_id);
    return messages_[session_id];
  }
  Status record_usage(const std::string&, const UsageDelta&) override { return {}; }
  Status set_system_prompt(const std::string& session_id, const std::string& prompt) override {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) return Status::not_found(session_id);
    it->second.system_prompt = prompt;
    return {};
  }
  Status set_title(const std::string& session_id, const std::string& title) override {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) return Status::not_found(session_id);
    it->second.title = title;
    return {};
  }

  std::vector<Message> stored(const std::string& session_id) {
    std::lock_guard lock(mutex_);
    return messages_[session_id];
  }

 private:
  std::mutex mutex_;
  std::map<std::string, SessionInfo> sessions_;
  std::map<std::string, std::vector<Message>> messages_;
  int64_t last_id_ = 0;
};

bool has_content(const std::vector<Message>& messages, const std::string& text) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const Message& m) { return m.content == text; });
}

struct Fixture {
  hermes::testing::TempDir home;
  std::shared_ptr<ScriptedProvider> provider = std::make_shared<ScriptedProvider>();
  std::shared_ptr<CoreOnlyStore> store = std::make_shared<CoreOnlyStore>();
  std::vector<std::string> cannot_compact;  // The messages of "store_cannot_compact".

  AgentOptions options() {
    AgentOptions o;
    o.provider.model = "m";
    o.provider.instance = provider;
    o.home = home.path();
    o.persistence.store = store;
    o.callbacks.on_status = [this](std::string_view kind, std::string_view text) {
      if (kind == "store_cannot_compact") cannot_compact.emplace_back(text);
    };
    return o;
  }
};

TEST_CASE("a core-only store offers no capability") {
  CoreOnlyStore store;
  CHECK(store.search_capability() == nullptr);
  CHECK(store.compaction_capability() == nullptr);
  CHECK(store.routes_capability() == nullptr);
}

TEST_CASE("on a core-only store a turn runs and is persisted") {
  Fixture f;
  f.provider->text("Hello back.");
  auto agent = Agent::create(f.options());
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("Hello there");
  CHECK_MESSAGE(r.completed, r.error);
  const std::string id = (*agent)->session_id();
  REQUIRE(f.store->get_session(id).ok());
  const std::vector<Message> stored = f.store->stored(id);
  REQUIRE(stored.size() == 2);
  CHECK(stored[0].role == Role::kUser);
  CHECK(stored[0].content == "Hello there");
  CHECK(stored[1].content == "Hello back.");
  CHECK(f.cannot_compact.empty());
}

TEST_CASE("automatic compactions on a core-only store stay in memory and are reported once") {
  Fixture f;
  f.provider->text(kShipSummary);
  f.provider->text("Noted.");
  f.provider->text(kShipSummary);
  f.provider->text("Noted again.");
  AgentOptions o = f.options();
  o.compression.context_length = 6000;  // The history alone is ~6,000 tokens.
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult first =
      (*agent)->run_conversation("And ship 21?", std::nullopt, ship_history());
  CHECK_MESSAGE(first.completed, first.error);
  CHECK(count_summaries(first.messages) == 1);
  REQUIRE(f.cannot_compact.size() == 1);
  CHECK(f.cannot_compact[0].find("memory only") != std::string::npos);
  const std::string id = (*agent)->session_id();

  // A second compaction (twice the history, far past the window) is not reported again,
  // and the conversation goes on in the same session.
  std::vector<Message> longer = ship_history();
  for (const Message& m : ship_history()) longer.push_back(m);
  ConversationResult second = (*agent)->run_conversation("And ship 22?", std::nullopt, longer);
  CHECK_MESSAGE(second.completed, second.error);
  CHECK(second.final_response == "Noted again.");
  REQUIRE(f.provider->requests().size() == 4);
  CHECK(count_summaries(second.messages) == 1);
  CHECK(f.cannot_compact.size() == 1);
  CHECK((*agent)->session_id() == id);

  // The store never saw a summary; it kept the replies of both turns.
  const std::vector<Message> stored = f.store->stored(id);
  CHECK(count_summaries(stored) == 0);
  CHECK(has_content(stored, "Noted."));
  CHECK(has_content(stored, "Noted again."));
}

TEST_CASE("Agent::compress on a core-only store compacts in memory and says the store cannot") {
  Fixture f;
  f.provider->text("ok");
  f.provider->text(kShipSummary);
  f.provider->text("Still here.");
  auto agent = Agent::create(f.options());
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello", std::nullopt, ship_history()).completed);
  auto result = (*agent)->compress();
  REQUIRE(result.ok());
  CHECK(result->compacted);
  CHECK(result->note.find("store cannot compact") != std::string::npos);
  CHECK(result->session_id == (*agent)->session_id());
  CHECK(f.cannot_compact.size() == 1);

  ConversationResult next = (*agent)->run_conversation("continue");
  CHECK_MESSAGE(next.completed, next.error);
  CHECK(count_summaries((*agent)->history()) == 1);
  const std::vector<Message> stored = f.store->stored((*agent)->session_id());
  CHECK(count_summaries(stored) == 0);
  CHECK(has_content(stored, "Still here."));
}

TEST_CASE("session_search on a core-only store answers the model a readable error") {
  Fixture f;
  f.provider->tool_calls({{"session_search", R"({"query":"frigates"})"}});
  f.provider->text("I cannot search past conversations here.");
  auto agent = Agent::create(f.options());
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("What did we say about frigates?");
  CHECK_MESSAGE(r.completed, r.error);
  auto tool = std::find_if(r.messages.begin(), r.messages.end(),
                           [](const Message& m) { return m.role == Role::kTool; });
  REQUIRE(tool != r.messages.end());
  const Json answer = Json::parse(tool->content);
  CHECK(answer["success"] == false);
  CHECK(answer["error"].get<std::string>().find("cannot search") != std::string::npos);
}

}  // namespace core_only_store_test
