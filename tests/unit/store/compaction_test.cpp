// Rotation and in-place compaction: one transaction each, rows that arrive during the
// summary call carried over, counters and search kept honest.
#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SearchOptions;
using hermes::SessionInfo;
using hermes::StatusCode;
using hermes::testing::at;
using hermes::testing::compaction_of;
using hermes::testing::create;
using hermes::testing::search_of;

namespace {

std::vector<std::string> contents(const std::vector<Message>& messages) {
  std::vector<std::string> out;
  for (const auto& m : messages) out.push_back(m.content);
  return out;
}

SessionInfo child_named(const std::string& id) {
  SessionInfo child;
  child.id = id;
  return child;
}

}  // namespace

TEST_CASE_TEMPLATE("rotation ends the parent and starts a numbered child with the summary", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  SessionInfo parent;
  parent.id = "p";
  parent.model = "model-a";
  parent.session_key = "agent:main:telegram:dm:1";
  parent.system_prompt = "be brief";
  REQUIRE(store.create_session(parent).ok());
  REQUIRE(store.set_title("p", "Fix the build").ok());
  REQUIRE(
      store.append_messages("p", {Message::user("old question"), Message::assistant("old")}).ok());
  auto watermark = compaction_of(store).active_message_watermark("p");
  REQUIRE(watermark.ok());
  CHECK(*watermark > 0);

  REQUIRE(compaction_of(store)
              .rotate_for_compression("p", child_named("c"), {Message::user("[summary]")},
                                      *watermark, "")
              .ok());
  auto p = store.get_session("p");
  CHECK(p->end_reason == "compression");
  CHECK(p->ended_at > 0);
  auto c = store.get_session("c");
  REQUIRE(c.ok());
  CHECK(c->parent_session_id == "p");
  CHECK(c->title == "Fix the build #2");
  CHECK(c->model == "model-a");
  CHECK(c->session_key == parent.session_key);
  CHECK(c->system_prompt == "be brief");
  CHECK(c->message_count == 1);
  CHECK(contents(*store.load_messages("c")) == std::vector<std::string>{"[summary]"});
  CHECK(store.append_messages("p", {Message::user("late")}).status().code() ==
        StatusCode::kFailedPrecondition);

  // The next rotation numbers on.
  hermes::testing::rotate(store, "c", "d", {Message::user("[s2]")});
  CHECK(store.get_session("d")->title == "Fix the build #3");
}

TEST_CASE_TEMPLATE("rows appended during the summary call are copied into the child", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "p");
  REQUIRE(store.append_messages("p", {Message::user("q1"), Message::assistant("a1")}).ok());
  const int64_t watermark = *compaction_of(store).active_message_watermark("p");
  REQUIRE(store.append_messages("p", {Message::user("arrived meanwhile")}).ok());

  REQUIRE(compaction_of(store)
              .rotate_for_compression("p", child_named("c"), {Message::user("[summary]")},
                                      watermark, "")
              .ok());
  CHECK(contents(*store.load_messages("c")) ==
        std::vector<std::string>{"[summary]", "arrived meanwhile"});
  CHECK(store.get_session("c")->message_count == 2);
}

TEST_CASE_TEMPLATE("a failed rotation changes nothing", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "p");
  create(store, "taken");
  CHECK(compaction_of(store)
            .rotate_for_compression("p", child_named("taken"), {Message::user("s")}, 0, "")
            .code() == StatusCode::kAlreadyExists);
  CHECK(store.get_session("p")->ended_at == 0);

  Message scaffold = Message::user("nudge");
  scaffold.scaffolding = true;
  CHECK(compaction_of(store)
            .rotate_for_compression("p", child_named("c"), {scaffold}, 0, "")
            .code() == StatusCode::kInvalidArgument);
  CHECK(store.get_session("c").status().code() == StatusCode::kNotFound);

  REQUIRE(store.end_session("p", "user_exit").ok());
  CHECK(compaction_of(store)
            .rotate_for_compression("p", child_named("c"), {Message::user("s")}, 0, "")
            .code() == StatusCode::kFailedPrecondition);
  CHECK(compaction_of(store).rotate_for_compression("nobody", child_named("c"), {}, 0, "").code() ==
        StatusCode::kNotFound);
}

TEST_CASE_TEMPLATE("loading with ancestors joins the lineage without replayed user turns", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "p");
  REQUIRE(store.append_messages("p", {Message::user("build it"), Message::assistant("done")}).ok());
  REQUIRE(store.append_messages("p", {Message::user("and test it")}).ok());
  hermes::testing::rotate(store, "p", "c",
                          {Message::user("[summary of the build]"), Message::user("and test it")});
  REQUIRE(store.append_messages("c", {Message::assistant("tested")}).ok());
  hermes::LoadOptions options;
  options.include_ancestors = true;
  CHECK(contents(*store.load_messages("c", options)) ==
        std::vector<std::string>{"build it", "done", "and test it", "[summary of the build]",
                                 "tested"});
}

TEST_CASE_TEMPLATE("in-place compaction archives the old rows and keeps the id", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(store
              .append_messages("s", {Message::user("zebra question"), Message::assistant("long"),
                                     Message::user("keep this tail")})
              .ok());
  const int64_t watermark = *compaction_of(store).active_message_watermark("s");
  REQUIRE(store.append_messages("s", {Message::user("late arrival")}).ok());

  REQUIRE(compaction_of(store)
              .compact_in_place(
                  "s", {Message::assistant("[summary: zebra]"), Message::user("keep this tail")},
                  watermark, "")
              .ok());
  CHECK(contents(*store.load_messages("s")) ==
        std::vector<std::string>{"[summary: zebra]", "keep this tail", "late arrival"});
  auto session = store.get_session("s");
  CHECK(session->message_count == 3);
  CHECK(session->ended_at == 0);

  // The archived question is still found, flagged; the carried rows are found once.
  auto zebra = search_of(store).search("zebra", SearchOptions{});
  REQUIRE(zebra.ok());
  int archived = 0;
  for (const auto& hit : *zebra) archived += hit.archived ? 1 : 0;
  CHECK(archived == 1);
  CHECK(zebra->size() == 2);
  CHECK(search_of(store).search("tail", SearchOptions{})->size() == 1);
  CHECK(search_of(store).search("arrival", SearchOptions{})->size() == 1);

  auto rows = search_of(store).read_messages("s");
  REQUIRE(rows.ok());
  CHECK(rows->size() == 5);  // Two archived originals and three live rows.
  hermes::ReadOptions live_only;
  live_only.include_archived = false;
  CHECK(search_of(store).read_messages("s", live_only)->size() == 3);
}

TEST_CASE_TEMPLATE("compaction refuses a session closed by compression", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(store.end_session("s", "compression").ok());
  CHECK(compaction_of(store).compact_in_place("s", {Message::user("x")}, 0, "").code() ==
        StatusCode::kFailedPrecondition);
  CHECK(compaction_of(store).compact_in_place("nobody", {Message::user("x")}, 0, "").code() ==
        StatusCode::kNotFound);
}
