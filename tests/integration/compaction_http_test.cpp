// Compaction end to end: a long conversation stored in SQLite by one agent, resumed by
// another whose context window it no longer fits, over the real HTTP path against the
// loopback mock server. The compaction either rotates the session (a child linked to its
// parent) or, in place, archives the old rows; either way nothing said before it is lost
// to search.
#include <doctest/doctest.h>

#include <algorithm>

#include "hermes/hermes.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/recording_trace_sink.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

const char* kSummary =
    "## Historical Task Snapshot\nThe user is cataloguing minerals.\n"
    "## Goal\nDescribe each mineral the user names.\n"
    "## Completed Actions\nDescribed three minerals.\n"
    "## Critical Context\nThe user prefers short answers.";

// About 600 tokens of filler around a word that appears nowhere else.
std::string long_text(const std::string& word) {
  std::string text = "Tell me about " + word + ". ";
  while (text.size() < 2400) text += "Minerals form over long ages under heat and pressure. ";
  return text;
}

struct CompactionFixture {
  MockServer server;
  TempDir home;

  AgentOptions options() {
    AgentOptions o;
    o.provider.model = "mock-model";
    o.provider.base_url = server.base_url();
    o.provider.api_key = "sk-test";
    o.home = home.path();
    o.request.stream = false;
    o.tools = std::make_shared<ToolRegistry>();  // No tool schemas in the estimates.
    o.compression.context_length = 200000;       // The first agent never compacts.
    o.compression.protect_last_n = 2;
    return o;
  }

  std::unique_ptr<Agent> agent(const AgentOptions& o) {
    auto a = Agent::create(o);
    REQUIRE_MESSAGE(a.ok(), a.status().to_string());
    return std::move(*a);
  }

  // Four long exchanges (~4,800 tokens); "zanzibarite" is named in the third, which lies
  // between the protected head (the first three messages) and tail of any compaction.
  std::string record_long_session() {
    const std::vector<std::string> words = {"quartzite", "feldspar", "zanzibarite", "galena"};
    auto first = agent(options());
    std::string session_id;
    for (const std::string& word : words) {
      server.enqueue(chat::text(long_text(word + " answered"), false));
      ConversationResult r = first->run_conversation(long_text(word));
      REQUIRE_MESSAGE(r.completed, r.error);
      session_id = r.session_id;
    }
    return session_id;
  }

  std::shared_ptr<SessionStore> store() {
    auto s = open_sqlite_store(default_state_db_path(home.path()));
    REQUIRE_MESSAGE(s.ok(), s.status().to_string());
    return std::move(*s);
  }
};

bool has_summary(const std::vector<Message>& messages) {
  return std::any_of(messages.begin(), messages.end(),
                     [](const Message& m) { return is_context_summary(m); });
}

bool mentions(const std::vector<Message>& messages, const std::string& word) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const Message& m) { return m.content.find(word) != std::string::npos; });
}

}  // namespace

TEST_CASE(
    "a resumed conversation over the threshold rotates into a child session that search still "
    "reaches") {
  CompactionFixture f;
  const std::string root = f.record_long_session();

  f.server.enqueue(chat::text(kSummary, false));  // The summariser's answer.
  f.server.enqueue(chat::text("Pyrite is fool's gold.", false));
  AgentOptions o = f.options();
  o.persistence.session_id = root;
  // A threshold of 4,250 tokens: the stored session and the system prompt are over it,
  // the compacted transcript under it.
  o.compression.context_length = 5000;
  auto resumed = f.agent(o);
  ConversationResult r = resumed->run_conversation("And pyrite?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Pyrite is fool's gold.");
  REQUIRE(f.server.request_count() == 6);
  CHECK(f.server.requests()[4].json()["messages"].back()["content"].get<std::string>().find(
            "Historical Task Snapshot") != std::string::npos);

  // The conversation goes on in a child of the old session, which ended for compression.
  REQUIRE(r.session_id != root);
  auto store = f.store();
  auto parent = store->get_session(root);
  REQUIRE(parent.ok());
  CHECK(parent->end_reason == "compression");
  CHECK(parent->ended_at > 0);
  auto child = store->get_session(r.session_id);
  REQUIRE(child.ok());
  CHECK(child->parent_session_id == root);
  CHECK(child->end_reason.empty());
  auto lineage = compaction_of(store).lineage(r.session_id);
  REQUIRE(lineage.ok());
  REQUIRE(lineage->size() == 2);
  CHECK((*lineage)[0].id == root);
  CHECK((*lineage)[1].id == r.session_id);

  // The child holds the compacted transcript and the new exchange; the summarised middle
  // stays in the parent, where search finds it and names the lineage's root.
  auto live = store->load_messages(r.session_id);
  REQUIRE(live.ok());
  CHECK(has_summary(*live));
  CHECK_FALSE(mentions(*live, "zanzibarite"));
  CHECK(live->back().content == "Pyrite is fool's gold.");
  SearchOptions search;
  search.resolve_roots = true;
  auto hits = search_of(store).search("zanzibarite", search);
  REQUIRE(hits.ok());
  REQUIRE_FALSE(hits->empty());
  for (const SearchHit& hit : *hits) {
    CHECK(hit.session_id == root);
    CHECK(hit.root_session_id == root);
  }

  // A third agent resuming the child sees the compacted conversation, not the old one.
  f.server.enqueue(chat::text("Noted.", false));
  AgentOptions again = f.options();
  again.persistence.session_id = r.session_id;
  auto third = f.agent(again);
  CHECK(has_summary(third->history()));
  ConversationResult next = third->run_conversation("Thanks.");
  REQUIRE_MESSAGE(next.completed, next.error);
  CHECK(next.session_id == r.session_id);
}

TEST_CASE("an in-place compaction keeps the session id and archives the summarised rows") {
  CompactionFixture f;
  const std::string root = f.record_long_session();

  f.server.enqueue(chat::text(kSummary, false));
  f.server.enqueue(chat::text("Pyrite is fool's gold.", false));
  AgentOptions o = f.options();
  o.persistence.session_id = root;
  o.compression.context_length = 5000;
  o.compression.in_place = true;
  auto resumed = f.agent(o);
  ConversationResult r = resumed->run_conversation("And pyrite?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.session_id == root);

  auto store = f.store();
  auto session = store->get_session(root);
  REQUIRE(session.ok());
  CHECK(session->end_reason.empty());
  CHECK(session->parent_session_id.empty());
  auto live = store->load_messages(root);
  REQUIRE(live.ok());
  CHECK(has_summary(*live));
  CHECK_FALSE(mentions(*live, "zanzibarite"));
  CHECK(live->back().content == "Pyrite is fool's gold.");

  auto hits = search_of(store).search("zanzibarite");
  REQUIRE(hits.ok());
  REQUIRE_FALSE(hits->empty());
  for (const SearchHit& hit : *hits) {
    CHECK(hit.session_id == root);
    CHECK(hit.archived);
  }
}

TEST_CASE(
    "a context-overflow 400 from the server mid-turn compacts, retries and persists the turn") {
  CompactionFixture f;
  const std::string root = f.record_long_session();

  f.server.enqueue(chat::error(400,
                               "This model's maximum context length is 4096 tokens. However, your "
                               "messages resulted in 7000 tokens. Please reduce the length of the "
                               "messages.",
                               "context_length_exceeded"));
  f.server.enqueue(chat::text(kSummary, false));
  f.server.enqueue(chat::text("Pyrite is fool's gold.", false));
  AgentOptions o = f.options();
  o.persistence.session_id =
      root;  // A 200,000-token window as far as the agent knows: no preflight.
  auto resumed = f.agent(o);
  ConversationResult r = resumed->run_conversation("And pyrite?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "Pyrite is fool's gold.");
  REQUIRE(f.server.request_count() == 7);
  // The retried request is the compacted one.
  const std::size_t refused = f.server.requests()[4].json()["messages"].size();
  const std::size_t retried = f.server.requests()[6].json()["messages"].size();
  CHECK(retried < refused);

  auto store = f.store();
  auto live = store->load_messages(r.session_id);
  REQUIRE(live.ok());
  CHECK(has_summary(*live));
  CHECK(live->back().content == "Pyrite is fool's gold.");
  // The user message of the failed attempt was stored once, not once per attempt.
  CHECK(std::count_if(live->begin(), live->end(),
                      [](const Message& m) { return m.content == "And pyrite?"; }) == 1);
}

TEST_CASE(
    "a compaction is a span under the turn, with its summary call; compress() one of its own") {
  CompactionFixture f;
  const std::string root = f.record_long_session();
  f.server.enqueue(chat::text(kSummary, false));
  f.server.enqueue(chat::text("Pyrite is fool's gold.", false));
  auto sink = std::make_shared<RecordingTraceSink>();
  AgentOptions o = f.options();
  o.persistence.session_id = root;
  o.compression.context_length = 5000;
  o.tracing.sink = sink;
  auto resumed = f.agent(o);
  ConversationResult r = resumed->run_conversation("And pyrite?");
  REQUIRE_MESSAGE(r.completed, r.error);

  const SpanData turn = sink->named("invoke_agent hermes").at(0);
  const auto compactions = sink->children_of(turn, "hermes.compaction");
  REQUIRE(compactions.size() == 1);
  CHECK(string_attribute(compactions[0], "hermes.compaction.reason") == "preflight");
  CHECK(compactions[0].status == SpanStatusCode::kUnset);
  CHECK(int_attribute(compactions[0], "hermes.compaction.messages_after") <
        int_attribute(compactions[0], "hermes.compaction.messages_before"));
  const auto summary = sink->children_of(compactions[0], "chat mock-model");
  REQUIRE(summary.size() == 1);
  CHECK(string_attribute(summary[0], "hermes.call.purpose") == "compaction_summary");

  // A compaction asked for between turns starts a trace of its own.
  f.server.enqueue(chat::text(kSummary, false));
  auto manual = resumed->compress("minerals");
  REQUIRE_MESSAGE(manual.ok(), manual.status().to_string());
  const auto all = sink->named("hermes.compaction");
  REQUIRE(all.size() == 2);
  CHECK_FALSE(all[1].parent_span_id.valid());
  CHECK(string_attribute(all[1], "hermes.compaction.reason") == "manual");
}
