#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Json;
using hermes::ListOptions;
using hermes::SessionInfo;
using hermes::StatusCode;
using hermes::UsageDelta;
using hermes::testing::at;
using hermes::testing::create;
using hermes::testing::search_of;

TEST_CASE_TEMPLATE("a created session reads back with its fields", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  SessionInfo info;
  info.id = "20250101_120000_abc123";
  info.source = "telegram";
  info.model = "gpt-x";
  info.user_id = "u1";
  info.session_key = "agent:main:telegram:dm:1";
  info.model_config = Json{{"temperature", 0.5}};
  info.system_prompt = "You are helpful.";
  info.started_at = at(10);
  REQUIRE(backend.store->create_session(info).ok());

  auto got = backend.store->get_session(info.id);
  REQUIRE(got.ok());
  CHECK(got->source == "telegram");
  CHECK(got->model == "gpt-x");
  CHECK(got->user_id == "u1");
  CHECK(got->session_key == info.session_key);
  CHECK(got->model_config == info.model_config);
  CHECK(got->system_prompt == "You are helpful.");
  CHECK(got->started_at == at(10));
  CHECK(got->ended_at == 0);
  CHECK(got->message_count == 0);
  CHECK_FALSE(got->usage.reported);
}

TEST_CASE_TEMPLATE("creating a session twice leaves the first row unchanged", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1", "cli", at(1));
  SessionInfo again;
  again.id = "s1";
  again.source = "discord";
  again.started_at = at(2);
  CHECK(backend.store->create_session(again).ok());
  auto got = backend.store->get_session("s1");
  REQUIRE(got.ok());
  CHECK(got->source == "cli");
  CHECK(got->started_at == at(1));
}

TEST_CASE_TEMPLATE("a session without a start time starts now", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  auto got = backend.store->get_session("s1");
  REQUIRE(got.ok());
  CHECK(got->started_at > at(0));
}

TEST_CASE_TEMPLATE("an empty session id and a missing parent are refused", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  SessionInfo info;
  CHECK(backend.store->create_session(info).code() == StatusCode::kInvalidArgument);
  info.id = "child";
  info.parent_session_id = "nobody";
  CHECK(backend.store->create_session(info).code() == StatusCode::kNotFound);
}

TEST_CASE_TEMPLATE("an unknown session is not found by any operation", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  CHECK(store.get_session("nope").status().code() == StatusCode::kNotFound);
  CHECK(store.end_session("nope", "user_exit").code() == StatusCode::kNotFound);
  CHECK(store.delete_session("nope").code() == StatusCode::kNotFound);
  CHECK(store.load_messages("nope").status().code() == StatusCode::kNotFound);
  CHECK(store.append_messages("nope", {hermes::Message::user("x")}).status().code() ==
        StatusCode::kNotFound);
  CHECK(store.record_usage("nope", UsageDelta{}).code() == StatusCode::kNotFound);
  CHECK(store.set_system_prompt("nope", "p").code() == StatusCode::kNotFound);
  CHECK(store.set_title("nope", "t").code() == StatusCode::kNotFound);
}

TEST_CASE_TEMPLATE("the first end of a session wins", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->end_session("s1", "user_exit").ok());
  auto first = backend.store->get_session("s1");
  REQUIRE(first.ok());
  CHECK(first->end_reason == "user_exit");
  CHECK(first->ended_at > 0);

  REQUIRE(backend.store->end_session("s1", "compression").ok());
  auto second = backend.store->get_session("s1");
  REQUIRE(second.ok());
  CHECK(second->end_reason == "user_exit");
  CHECK(second->ended_at == first->ended_at);
}

TEST_CASE_TEMPLATE("sessions are listed most recent first, filtered and paged", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "old", "cli", at(1));
  create(*backend.store, "mid", "telegram", at(2));
  create(*backend.store, "new", "cli", at(3));

  auto all = backend.store->list_sessions(ListOptions{});
  REQUIRE(all.ok());
  REQUIRE(all->size() == 3);
  CHECK((*all)[0].id == "new");
  CHECK((*all)[1].id == "mid");
  CHECK((*all)[2].id == "old");

  ListOptions cli;
  cli.source = "cli";
  auto only_cli = backend.store->list_sessions(cli);
  REQUIRE(only_cli.ok());
  REQUIRE(only_cli->size() == 2);
  CHECK((*only_cli)[0].id == "new");

  ListOptions page;
  page.limit = 1;
  page.offset = 1;
  auto paged = backend.store->list_sessions(page);
  REQUIRE(paged.ok());
  REQUIRE(paged->size() == 1);
  CHECK((*paged)[0].id == "mid");
}

TEST_CASE_TEMPLATE("listing roots hides compression continuations and sub-agent runs", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  create(store, "subagent", "subagent", at(2), "root");
  REQUIRE(store.end_session("root", "compression").ok());
  create(store, "continuation", "cli", at(3), "root");

  SessionInfo branch;
  branch.id = "branch";
  branch.parent_session_id = "continuation";
  branch.started_at = at(4);
  branch.model_config = Json{{"_branched_from", "continuation"}};
  REQUIRE(store.create_session(branch).ok());

  ListOptions roots;
  roots.roots_only = true;
  auto listed = store.list_sessions(roots);
  REQUIRE(listed.ok());
  std::vector<std::string> ids;
  for (const auto& s : *listed) ids.push_back(s.id);
  CHECK(ids == std::vector<std::string>{"branch", "root"});
}

TEST_CASE_TEMPLATE("deleting a session removes its messages and orphans its children", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "parent", "cli", at(1));
  create(store, "child", "cli", at(2), "parent");
  REQUIRE(store.append_messages("parent", {hermes::Message::user("zebra crossing")}).ok());

  REQUIRE(store.delete_session("parent").ok());
  CHECK(store.get_session("parent").status().code() == StatusCode::kNotFound);
  auto child = store.get_session("child");
  REQUIRE(child.ok());
  CHECK(child->parent_session_id.empty());
  auto hits = search_of(store).search("zebra");
  REQUIRE(hits.ok());
  CHECK(hits->empty());
}

TEST_CASE_TEMPLATE("usage deltas add up and the first billing route wins", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s1");
  UsageDelta first;
  first.usage.input_tokens = 100;
  first.usage.output_tokens = 20;
  first.usage.cache_read_tokens = 50;
  first.usage.reasoning_tokens = 5;
  first.api_calls = 1;
  first.estimated_cost_usd = 0.25;
  first.billing_provider = "openrouter";
  first.model = "model-a";
  REQUIRE(store.record_usage("s1", first).ok());

  UsageDelta second;
  second.usage.input_tokens = 10;
  second.usage.output_tokens = 2;
  second.usage.cache_write_tokens = 7;
  second.api_calls = 2;
  second.estimated_cost_usd = 0.5;
  second.billing_provider = "anthropic";
  second.model = "model-b";
  REQUIRE(store.record_usage("s1", second).ok());

  auto got = store.get_session("s1");
  REQUIRE(got.ok());
  CHECK(got->usage.input_tokens == 110);
  CHECK(got->usage.output_tokens == 22);
  CHECK(got->usage.cache_read_tokens == 50);
  CHECK(got->usage.cache_write_tokens == 7);
  CHECK(got->usage.reasoning_tokens == 5);
  CHECK(got->usage.reported);
  CHECK(got->api_call_count == 3);
  CHECK(got->estimated_cost_usd == doctest::Approx(0.75));
  CHECK(got->billing_provider == "openrouter");
  CHECK(got->model == "model-a");
}

TEST_CASE_TEMPLATE("the system prompt can be set and replaced", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->set_system_prompt("s1", "first prompt").ok());
  REQUIRE(backend.store->set_system_prompt("s1", "second prompt").ok());
  auto got = backend.store->get_session("s1");
  REQUIRE(got.ok());
  CHECK(got->system_prompt == "second prompt");
}

TEST_CASE_TEMPLATE("titles are cleaned, limited to 100 characters and unique", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "a", "cli", at(1));
  create(store, "b", "cli", at(2));

  REQUIRE(store.set_title("a", "  Fix\u200b the   build\t ").ok());
  CHECK(store.get_session("a")->title == "Fix the build");

  CHECK(store.set_title("b", "Fix the build").code() == StatusCode::kAlreadyExists);
  CHECK(store.set_title("b", std::string(101, 'x')).code() == StatusCode::kInvalidArgument);
  CHECK(store.set_title("b", std::string(100, 'x')).ok());
  // A title may be set again on the session that holds it.
  CHECK(store.set_title("a", "Fix the build").ok());

  REQUIRE(store.set_title("a", "   ").ok());
  CHECK(store.get_session("a")->title.empty());
  CHECK(store.set_title("b", "Fix the build").ok());
}

TEST_CASE_TEMPLATE("a title moves from a compression ancestor to its continuation", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  REQUIRE(store.set_title("root", "Trip planning").ok());
  REQUIRE(store.end_session("root", "compression").ok());
  create(store, "tip", "cli", at(2), "root");

  REQUIRE(store.set_title("tip", "Trip planning").ok());
  CHECK(store.get_session("tip")->title == "Trip planning");
  CHECK(store.get_session("root")->title.empty());
}

TEST_CASE_TEMPLATE("creating a session with a taken title is refused", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "a");
  REQUIRE(backend.store->set_title("a", "Same").ok());
  SessionInfo b;
  b.id = "b";
  b.title = "Same";
  CHECK(backend.store->create_session(b).code() == StatusCode::kAlreadyExists);
  CHECK(backend.store->get_session("b").status().code() == StatusCode::kNotFound);
}
