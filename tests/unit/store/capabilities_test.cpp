// Every built-in store offers every capability, each answered by the store itself for as
// long as it lives, so callers never fall back to the degraded paths on them.
#include <doctest/doctest.h>

#include "unit/store/store_backends.hpp"

using hermes::testing::create;

TEST_CASE_TEMPLATE("the store offers search, compaction and routes", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  hermes::SessionStore& store = *backend.store;
  hermes::SessionSearch* search = store.search_capability();
  hermes::SessionCompaction* compaction = store.compaction_capability();
  hermes::SessionRoutes* routes = store.routes_capability();
  REQUIRE(search != nullptr);
  REQUIRE(compaction != nullptr);
  REQUIRE(routes != nullptr);
  // Asking again answers the same object.
  CHECK(store.search_capability() == search);
  CHECK(store.compaction_capability() == compaction);
  CHECK(store.routes_capability() == routes);

  // Each one works on what the core wrote.
  create(store, "s1");
  REQUIRE(store.append_messages("s1", {hermes::Message::user("the lighthouse keeper")}).ok());
  auto hits = search->search("lighthouse");
  REQUIRE(hits.ok());
  CHECK(hits->size() == 1);
  auto rows = search->read_messages("s1");
  REQUIRE(rows.ok());
  CHECK(rows->size() == 1);
  auto tip = compaction->compression_tip("s1");
  REQUIRE(tip.ok());
  CHECK(*tip == "s1");
  REQUIRE(routes->save_route("scope", "lane", hermes::Json{{"session_id", "s1"}}).ok());
  auto route = routes->load_route("scope", "lane");
  REQUIRE(route.ok());
  REQUIRE(route->has_value());
  CHECK((**route)["session_id"] == "s1");
}
