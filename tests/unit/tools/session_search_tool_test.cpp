// The session_search tool over a real store: its four modes, and what it must not show.
#include "hermes/session_search_tool.hpp"

#include <doctest/doctest.h>

#include "hermes/session_store.hpp"
#include "support/store_capabilities.hpp"
#include "tools/session_search.hpp"

using hermes::Json;
using hermes::Message;
using hermes::SessionInfo;
using hermes::testing::compaction_of;
using hermes::testing::search_of;

namespace {

double at(double seconds) {
  return 1'750'000'000.0 + seconds;
}

struct Fixture {
  std::shared_ptr<hermes::SessionStore> store = hermes::make_memory_store();

  void session(const std::string& id, const std::string& source, double started,
               const std::vector<Message>& messages, const std::string& parent = {}) {
    SessionInfo info;
    info.id = id;
    info.source = source;
    info.started_at = at(started);
    info.parent_session_id = parent;
    REQUIRE(store->create_session(info).ok());
    if (!messages.empty()) REQUIRE(store->append_messages(id, messages).ok());
  }

  Json run(const Json& args, const std::string& current = "") {
    return Json::parse(hermes::tools::run_session_search(*store, current, args));
  }
};

std::vector<std::string> result_sessions(const Json& response) {
  std::vector<std::string> ids;
  for (const auto& r : response["results"]) ids.push_back(r["session_id"].get<std::string>());
  return ids;
}

}  // namespace

TEST_CASE("discovery returns one result per conversation with context for the best") {
  Fixture f;
  f.session("b", "telegram", 2, {Message::user("kafka consumer lag again")});
  // Newer, so it ranks first in the substring scan of the memory store.
  f.session("a", "cli", 1,
            {Message::user("set up the kafka cluster"), Message::assistant("done with kafka"),
             Message::user("thanks"), Message::assistant("welcome")});
  auto response = f.run({{"query", "kafka"}, {"limit", 5}});
  CHECK(response["success"] == true);
  CHECK(response["mode"] == "discover");
  REQUIRE(response["count"] == 2);
  const Json& best = response["results"][0];
  CHECK(best["detail"] == "full");
  CHECK_FALSE(best["bookend_start"].empty());
  CHECK(best["messages"].size() > 1);
  const Json& next = response["results"][1];
  CHECK(next["detail"] == "compact");
  REQUIRE(next["messages"].size() == 1);
  CHECK(next["messages"][0]["anchor"] == true);
}

TEST_CASE("discovery hides sub-agent sessions and the current conversation") {
  Fixture f;
  f.session("mine", "cli", 1, {Message::user("walrus plans")});
  f.session("helper", "subagent", 2, {Message::user("walrus research")});
  f.session("old", "cli", 3, {Message::user("walrus history")});
  auto response = f.run({{"query", "walrus"}, {"limit", 10}}, "mine");
  CHECK(result_sessions(response) == std::vector<std::string>{"old"});
}

TEST_CASE("discovery shows what compaction took out of the current conversation") {
  Fixture f;
  f.session("mine", "cli", 1, {Message::user("the narwhal detail"), Message::assistant("ok")});
  const int64_t watermark = *compaction_of(f.store).active_message_watermark("mine");
  REQUIRE(compaction_of(f.store)
              .compact_in_place("mine", {Message::user("[summary]")}, watermark, "")
              .ok());
  auto response = f.run({{"query", "narwhal"}}, "mine");
  REQUIRE(result_sessions(response) == std::vector<std::string>{"mine"});
  CHECK(response["results"][0]["messages"][0]["archived"] == true);
}

TEST_CASE("hits in a compressed ancestor resolve to the lineage root") {
  Fixture f;
  f.session("root", "cli", 1, {Message::user("the ocelot bug")});
  SessionInfo child;
  child.id = "child";
  const int64_t watermark = *compaction_of(f.store).active_message_watermark("root");
  REQUIRE(compaction_of(f.store)
              .rotate_for_compression("root", child, {Message::user("[summary]")}, watermark, "")
              .ok());
  f.session("other", "cli", 5, {Message::user("nothing here")});
  // From another conversation: one result, naming the session that holds the match.
  auto response = f.run({{"query", "ocelot"}}, "other");
  REQUIRE(response["count"] == 1);
  CHECK(response["results"][0]["session_id"] == "root");
  // From the continuation: the compressed parent left the live context, so it shows.
  CHECK(f.run({{"query", "ocelot"}}, "child")["count"] == 1);
}

TEST_CASE("scroll returns a window around the anchor and refuses live context") {
  Fixture f;
  std::vector<Message> many;
  for (int i = 0; i < 30; ++i) many.push_back(Message::user("line " + std::to_string(i)));
  f.session("s", "cli", 1, many);
  auto rows = search_of(f.store).read_messages("s");
  const int64_t anchor = (*rows)[10].id;
  auto response = f.run({{"session_id", "s"}, {"around_message_id", anchor}, {"window", 2}}, "x");
  CHECK(response["mode"] == "scroll");
  REQUIRE(response["messages"].size() == 5);
  CHECK(response["messages"][2]["anchor"] == true);
  CHECK(response["messages_before"] == 8);
  CHECK(response["messages_after"] == 17);

  auto own = f.run({{"session_id", "s"}, {"around_message_id", anchor}}, "s");
  CHECK(own["success"] == false);
  auto missing = f.run({{"session_id", "s"}, {"around_message_id", 999999}});
  CHECK(missing["success"] == false);
}

TEST_CASE("read returns a long session's head and tail") {
  Fixture f;
  std::vector<Message> many;
  for (int i = 0; i < 40; ++i) many.push_back(Message::user("m" + std::to_string(i)));
  f.session("s", "cli", 1, many);
  auto response = f.run({{"session_id", "@session:default/s"}});
  CHECK(response["mode"] == "read");
  CHECK(response["truncated"] == true);
  CHECK(response["message_count"] == 40);
  REQUIRE(response["messages"].size() == 30);
  CHECK(response["messages"][19]["content"] == "m19");
  CHECK(response["messages"][20]["content"] == "m30");
  CHECK(f.run({{"session_id", "nope"}})["success"] == false);
}

TEST_CASE("browse lists recent conversations without hidden sources or the current one") {
  Fixture f;
  f.session("old", "cli", 1, {Message::user("an old conversation with a long first line")});
  f.session("run", "subagent", 2, {Message::user("sub")});
  f.session("new", "telegram", 3, {Message::user("hello")});
  f.session("mine", "cli", 4, {});
  auto response = f.run(Json::object(), "mine");
  CHECK(response["mode"] == "browse");
  CHECK(result_sessions(response) == std::vector<std::string>{"new", "old"});
  CHECK(response["results"][1]["preview"] == "an old conversation with a long first line");
}

TEST_CASE("the tool registers in its toolset and needs a store") {
  hermes::ToolRegistry registry;
  REQUIRE(hermes::register_session_search_tool(registry).ok());
  auto spec = registry.find("session_search");
  REQUIRE(spec != nullptr);
  CHECK(spec->toolset == "session_search");
  hermes::ToolContext context;
  CHECK_FALSE(spec->handler(Json::object(), context).ok());
  auto store = hermes::make_memory_store();
  context.store = store.get();
  auto result = spec->handler(Json{{"query", "anything"}}, context);
  REQUIRE(result.ok());
  CHECK(Json::parse(*result)["count"] == 0);
}
