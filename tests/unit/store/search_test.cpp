#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SearchOptions;
using hermes::testing::at;
using hermes::testing::create;
using hermes::testing::search_of;

namespace {

void seed(hermes::SessionStore& store) {
  create(store, "cli1", "cli", at(1));
  create(store, "tg1", "telegram", at(2));
  REQUIRE(store
              .append_messages("cli1", {Message::user("How does photosynthesis work?"),
                                        Message::assistant("Plants turn light into sugar.")})
              .ok());
  REQUIRE(store
              .append_messages("tg1", {Message::user("Tell me about volcanoes"),
                                       Message::tool("c1", "web_search", "volcano facts: magma")})
              .ok());
}

}  // namespace

TEST_CASE_TEMPLATE("search finds a message and marks the match in the snippet", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed(*backend.store);
  auto hits = search_of(backend.store).search("photosynthesis");
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  const auto& hit = (*hits)[0];
  CHECK(hit.session_id == "cli1");
  CHECK(hit.role == "user");
  CHECK(hit.source == "cli");
  CHECK(hit.message_id > 0);
  CHECK(hit.timestamp > 0);
  CHECK(hit.snippet.find(">>>photosynthesis<<<") != std::string::npos);
}

TEST_CASE_TEMPLATE("search filters by role and source", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed(*backend.store);
  SearchOptions assistant_only;
  assistant_only.roles = {"assistant"};
  CHECK(search_of(backend.store).search("photosynthesis", assistant_only)->empty());
  CHECK(search_of(backend.store).search("sugar", assistant_only)->size() == 1);

  SearchOptions no_telegram;
  no_telegram.exclude_sources = {"telegram"};
  CHECK(search_of(backend.store).search("volcanoes", no_telegram)->empty());

  SearchOptions telegram_only;
  telegram_only.sources = {"telegram"};
  CHECK(search_of(backend.store).search("volcanoes", telegram_only)->size() == 1);
  CHECK(search_of(backend.store).search("photosynthesis", telegram_only)->empty());
}

TEST_CASE_TEMPLATE("a tool-result search reads the tool output", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed(*backend.store);
  SearchOptions tools;
  tools.roles = {"tool"};
  auto hits = search_of(backend.store).search("magma", tools);
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].tool_name == "web_search");
}

TEST_CASE_TEMPLATE("search honours limit and offset", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", std::vector<Message>(5, Message::user("repeat me")))
              .ok());
  SearchOptions page;
  page.limit = 2;
  CHECK(search_of(backend.store).search("repeat", page)->size() == 2);
  page.offset = 4;
  CHECK(search_of(backend.store).search("repeat", page)->size() == 1);
  page.limit = 0;
  CHECK(search_of(backend.store).search("repeat", page)->empty());
}

TEST_CASE_TEMPLATE("search can name the root of each hit's lineage", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  REQUIRE(store.end_session("root", "compression").ok());
  create(store, "mid", "cli", at(2), "root");
  REQUIRE(store.end_session("mid", "compression").ok());
  create(store, "tip", "cli", at(3), "mid");
  REQUIRE(store.append_messages("tip", {Message::user("quantum entanglement")}).ok());

  SearchOptions options;
  options.resolve_roots = true;
  auto hits = search_of(store).search("entanglement", options);
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].root_session_id == "root");
}

TEST_CASE_TEMPLATE("hostile queries return results or nothing, never an error", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  seed(*backend.store);
  const std::vector<std::string> queries = {
      "",
      "   ",
      "\"",
      "\"unbalanced phrase",
      "((((",
      "photosynthesis)",
      "AND",
      "OR OR OR",
      "NOT photosynthesis",
      "photosynthesis NOT",
      "photosynthesis AND AND volcanoes",
      "NEAR(photosynthesis volcanoes, 2)",
      "content:photosynthesis",
      "*",
      "***photo*",
      "photo* -sugar",
      "-",
      "'; DROP TABLE messages; --",
      "100% sure",
      "a\\b",
      "`backticks` and {braces}",
      "chat-send P2.2 my_app.config.ts",
      std::string("null\0byte", 9),
      std::string("\xff\xfe invalid utf8 \xc3", 18),
      "^photosynthesis",
      "emoji 🙂 query",
      std::string(10'000, 'a'),
      std::string(10'000, '('),
      std::string(5'000, '"') + "x",
  };
  for (const auto& query : queries) {
    CAPTURE(query.substr(0, 40));
    auto hits = search_of(backend.store).search(query);
    CHECK_MESSAGE(hits.ok(), hits.status().to_string());
  }
  auto parenthesised = search_of(backend.store).search("(photosynthesis)");
  REQUIRE(parenthesised.ok());
  CHECK(parenthesised->size() == 1);
  auto quoted = search_of(backend.store).search("\"light into sugar\"");
  REQUIRE(quoted.ok());
  CHECK(quoted->size() == 1);
}

TEST_CASE_TEMPLATE("hidden rows among the best matches do not shorten a page", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  Message hidden = Message::user("comet comet comet");
  hidden.display_kind = "hidden";
  REQUIRE(backend.store
              ->append_messages("s1", {hidden, Message::user("a comet passed by the moon tonight"),
                                       Message::assistant("that comet returns in seventy years"),
                                       Message::user("comet")})
              .ok());
  SearchOptions page;
  page.limit = 2;
  auto first = search_of(backend.store).search("comet", page);
  REQUIRE(first.ok());
  REQUIRE(first->size() == 2);
  page.offset = 2;
  auto second = search_of(backend.store).search("comet", page);
  REQUIRE(second.ok());
  REQUIRE(second->size() == 1);
  std::vector<std::string> found;
  for (const auto* hits : {&*first, &*second}) {
    for (const auto& hit : *hits) found.push_back(hit.snippet);
  }
  for (const auto& snippet : found) CHECK(snippet.find("comet comet") == std::string::npos);
  CHECK((*first)[0].rank <= (*first)[1].rank);
  CHECK((*first)[1].rank <= (*second)[0].rank);
}
