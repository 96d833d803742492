// What a persisted turn commits to state.db, counted in its write-ahead log: one
// transaction per point a step must be durable, never one per message or per usage.
#include <mutex>

#include "integration/loop_http_fixture.hpp"
#include "support/wal_commits.hpp"

using namespace hermes;
using namespace hermes::testing;

TEST_CASE("a tool step commits twice and an answer once, at either durability") {
  for (Durability durability : {Durability::kFull, Durability::kNormal}) {
    CAPTURE(durability_name(durability));
    LoopHttpFixture f;
    const std::string db = default_state_db_path(f.home.path());
    std::mutex mu;
    std::vector<int> commits_when_tools_ran;
    f.register_tool("tally", [&](const Json&, ToolContext&) -> Result<std::string> {
      std::lock_guard lock(mu);
      commits_when_tools_ran.push_back(wal_commit_count(db));
      return std::string(R"({"ok":true})");
    });
    // The first turn creates the session row; the second is the one counted.
    f.server.enqueue(chat::text("Hello.", true));
    f.server.enqueue(chat::tool_calls({{"c1", "tally", R"({"a":1})"}}, true));
    f.server.enqueue(chat::tool_calls({{"c2", "tally", R"({"a":2})"},
                                       {"c3", "tally", R"({"a":3})"},
                                       {"c4", "tally", R"({"a":4})"}},
                                      true));
    f.server.enqueue(chat::text("Tallied four times.", true));
    AgentOptions options = f.options();
    options.persistence.durability = durability;
    auto agent = f.agent(options);
    REQUIRE(agent->run_conversation("Hi.").completed);

    const int before = wal_commit_count(db);
    ConversationResult r = agent->run_conversation("Tally once, then three times.");
    REQUIRE_MESSAGE(r.completed, r.error);
    // The user message; each tool step's call before its tools and its results after
    // them; the answer with its usage. (Before: 1 + 3 + 5 + 2 = 11.)
    CHECK(wal_commit_count(db) - before == 6);
    // When a tool ran, its step's call was already committed, and no result of its batch.
    std::sort(commits_when_tools_ran.begin(), commits_when_tools_ran.end());
    CHECK(commits_when_tools_ran ==
          std::vector<int>{before + 2, before + 4, before + 4, before + 4});

    // Every message and every model call's usage reached the store.
    const std::vector<Message> rows = f.stored(r.session_id);
    CHECK(rows.size() == 2 + 1 + 2 + 4 + 1);
    auto store = open_sqlite_store(db);
    REQUIRE(store.ok());
    auto session = (*store)->get_session(r.session_id);
    REQUIRE(session.ok());
    CHECK(session->api_call_count == 4);
    CHECK(session->message_count == static_cast<int64_t>(rows.size()));
  }
}
