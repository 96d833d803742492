// Search extras every store offers: neighbours of a hit, lineage roots, ordering.
#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SearchOptions;
using hermes::SearchOrder;
using hermes::SessionInfo;
using hermes::testing::at;
using hermes::testing::create;
using hermes::testing::search_of;

namespace {

Message user_at(const std::string& text, double t) {
  Message m = Message::user(text);
  m.timestamp = t;
  return m;
}

}  // namespace

TEST_CASE_TEMPLATE("a hit carries the messages around it, cut to 200 characters", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(
      store
          .append_messages("s", {Message::user(std::string(300, 'x')),
                                 Message::assistant("the walrus answer"), Message::user("thanks")})
          .ok());
  SearchOptions options;
  options.include_context = true;
  auto hits = search_of(store).search("walrus", options);
  REQUIRE(hits.ok());
  REQUIRE(hits->size() == 1);
  const auto& context = (*hits)[0].context;
  REQUIRE(context.size() == 2);
  CHECK(context[0].role == "user");
  CHECK(context[0].content == std::string(200, 'x'));
  CHECK(context[1].content == "thanks");
  CHECK(context[0].message_id < (*hits)[0].message_id);
  CHECK(context[1].message_id > (*hits)[0].message_id);

  auto plain = search_of(store).search("walrus", SearchOptions{});
  CHECK((*plain)[0].context.empty());
}

TEST_CASE_TEMPLATE("hits resolve to the root of their lineage", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  hermes::testing::rotate(store, "root", "child", {Message::user("penguin notes")});
  SearchOptions options;
  options.resolve_roots = true;
  auto hits = search_of(store).search("penguin", options);
  REQUIRE(hits->size() == 1);
  CHECK((*hits)[0].session_id == "child");
  CHECK((*hits)[0].root_session_id == "root");
}

TEST_CASE_TEMPLATE("hits can be ordered newest or oldest first", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(store
              .append_messages("s", {user_at("otter one", at(10)), user_at("otter two", at(20)),
                                     user_at("otter three", at(15))})
              .ok());
  SearchOptions newest;
  newest.order = SearchOrder::kNewest;
  auto by_newest = search_of(store).search("otter", newest);
  REQUIRE(by_newest->size() == 3);
  CHECK((*by_newest)[0].timestamp == at(20));
  CHECK((*by_newest)[2].timestamp == at(10));
  SearchOptions oldest;
  oldest.order = SearchOrder::kOldest;
  auto by_oldest = search_of(store).search("otter", oldest);
  CHECK((*by_oldest)[0].timestamp == at(10));
  CHECK((*by_oldest)[2].timestamp == at(20));
}

TEST_CASE_TEMPLATE("hostile queries never fail", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(store.append_messages("s", {Message::user("plain text about NOT much")}).ok());
  for (const char* query : {"\"",     "\"unbalanced", "AND",
                            "OR OR",  "NOT",          "a AND AND b",
                            "*",      "***x",         "(",
                            ")(",     "NEAR(",        "col:value",
                            "^start", "{}[]<>",       "'; DROP TABLE messages; --",
                            "%_\\",   "\x01\x02",     "\xff\xfe broken utf8",
                            "日本",   "テ",           "a\"b\"c\"",
                            "-",      "--",           "x* OR *y"}) {
    auto hits = search_of(store).search(query, SearchOptions{});
    CHECK_MESSAGE(hits.ok(), query << ": " << hits.status().to_string());
  }
  CHECK(search_of(store).search(std::string(10000, 'a'), SearchOptions{}).ok());
}
