#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Json;
using hermes::LoadOptions;
using hermes::Message;
using hermes::Role;
using hermes::StatusCode;
using hermes::ToolCall;
using hermes::testing::at;
using hermes::testing::create;
using hermes::testing::search_of;

namespace {

Message assistant_with_calls() {
  Message m = Message::assistant("");
  m.tool_calls.push_back({"call_1", "read_file", R"({"path":"a.txt"})", nullptr});
  m.tool_calls.push_back({"call_2", "search", "{not json", Json{{"thought_signature", "sig"}}});
  m.finish_reason = "tool_calls";
  m.reasoning = "I should read the file.";
  m.reasoning_details = Json::array({{{"type", "reasoning.text"}, {"text", "step 1"}}});
  m.codex_reasoning_items = Json::array({{{"type", "reasoning"}, {"encrypted_content", "xyz"}}});
  m.codex_message_items = Json::array({{{"type", "message"}, {"id", "msg_1"}}});
  m.timestamp = at(2);
  return m;
}

std::vector<Message> every_kind() {
  std::vector<Message> messages;
  Message system = Message::system("You are terse.");
  system.timestamp = at(0);
  messages.push_back(system);

  Message user = Message::user("What is in a.txt? 日本語 ✓ ünïcødé");
  user.api_content = "What is in a.txt? 日本語 ✓ ünïcødé\n\n<memory>likes tea</memory>";
  user.display_kind = "steer";
  user.timestamp = at(1);
  messages.push_back(user);

  messages.push_back(assistant_with_calls());

  Message result = Message::tool("call_1", "read_file", "hello from a.txt");
  result.timestamp = at(3);
  messages.push_back(result);
  Message error = Message::tool("call_2", "search", "error: bad arguments");
  error.timestamp = at(4);
  messages.push_back(error);

  Message answer = Message::assistant("It says hello.");
  answer.finish_reason = "stop";
  answer.timestamp = at(5);
  messages.push_back(answer);
  return messages;
}

}  // namespace

TEST_CASE_TEMPLATE("every kind of message survives a store round trip", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  const auto messages = every_kind();
  auto ids = backend.store->append_messages("s1", messages);
  REQUIRE(ids.ok());
  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    CAPTURE(i);
    CHECK((*loaded)[i] == messages[i]);
  }
}

TEST_CASE_TEMPLATE("appended messages get increasing ids and load in append order", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  auto first =
      backend.store->append_messages("s1", {Message::user("one"), Message::assistant("two")});
  auto second = backend.store->append_messages("s1", {Message::user("three")});
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  REQUIRE(first->size() == 2);
  REQUIRE(second->size() == 1);
  CHECK((*first)[0] < (*first)[1]);
  CHECK((*first)[1] < (*second)[0]);

  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 3);
  CHECK((*loaded)[0].content == "one");
  CHECK((*loaded)[1].content == "two");
  CHECK((*loaded)[2].content == "three");

  auto session = backend.store->get_session("s1");
  REQUIRE(session.ok());
  CHECK(session->message_count == 3);
}

TEST_CASE_TEMPLATE("a batch longer than one insert statement keeps every id with its message", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  // 37 rows: more than two full insert statements and a partial one on SQLite.
  std::vector<Message> batch;
  for (int i = 0; i < 37; ++i) {
    batch.push_back(i % 2 == 0 ? Message::user("row " + std::to_string(i))
                               : Message::assistant("row " + std::to_string(i)));
  }
  auto ids = backend.store->append_messages("s1", batch);
  REQUIRE(ids.ok());
  REQUIRE(ids->size() == batch.size());
  for (std::size_t i = 1; i < ids->size(); ++i) CHECK((*ids)[i - 1] < (*ids)[i]);

  auto stored = search_of(backend.store).read_messages("s1");
  REQUIRE(stored.ok());
  REQUIRE(stored->size() == batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    CHECK((*stored)[i].id == (*ids)[i]);
    CHECK((*stored)[i].message.content == batch[i].content);
    CHECK((*stored)[i].message.role == batch[i].role);
  }
  CHECK(backend.store->get_session("s1")->message_count == 37);
}

TEST_CASE_TEMPLATE("tool calls are counted on the session", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", {assistant_with_calls()}).ok());
  CHECK(backend.store->get_session("s1")->tool_call_count == 2);
}

TEST_CASE_TEMPLATE("messages without a timestamp get the clock, never going backwards", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  std::vector<Message> batch(5, Message::user("tick"));
  batch[2].timestamp = 12.5;  // Not a plausible date: replaced like a missing one.
  REQUIRE(backend.store->append_messages("s1", batch).ok());
  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 5);
  CHECK((*loaded)[0].timestamp > at(0));
  for (std::size_t i = 1; i < loaded->size(); ++i) {
    CHECK((*loaded)[i].timestamp > (*loaded)[i - 1].timestamp);
  }
}

TEST_CASE_TEMPLATE("an image part is stored as [screenshot] and never as its payload", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  auto parsed = hermes::message_from_json(Json::parse(R"({"role":"user","content":[
      {"type":"text","text":"what is this?"},
      {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAA"}}]})"));
  REQUIRE(parsed.ok());
  REQUIRE(backend.store->append_messages("s1", {*parsed}).ok());

  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 1);
  const Message& m = (*loaded)[0];
  CHECK(m.content == "what is this?\n[screenshot]");
  REQUIRE(m.parts.is_array());
  REQUIRE(m.parts.size() == 2);
  CHECK(m.parts[1] == Json{{"type", "text"}, {"text", "[screenshot]"}});
  CHECK(hermes::message_to_json(m).dump().find("iVBOR") == std::string::npos);
}

TEST_CASE_TEMPLATE("reasoning is kept only on assistant messages", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  Message user = Message::user("hi");
  user.reasoning = "should not be stored";
  user.finish_reason = "stop";
  REQUIRE(backend.store->append_messages("s1", {user}).ok());
  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded.ok());
  CHECK((*loaded)[0].reasoning.empty());
  CHECK((*loaded)[0].finish_reason.empty());
}

TEST_CASE_TEMPLATE("a batch with a scaffolding message is refused whole", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  Message nudge = Message::user("Please answer with text.");
  nudge.scaffolding = true;
  auto ids = backend.store->append_messages("s1", {Message::user("real"), nudge});
  CHECK(ids.status().code() == StatusCode::kInvalidArgument);
  CHECK(ids.status().message().find("messages[1]") != std::string::npos);
  CHECK(backend.store->load_messages("s1")->empty());
}

TEST_CASE_TEMPLATE("appends into a session closed by compression are refused", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->end_session("s1", "compression").ok());
  auto ids = backend.store->append_messages("s1", {Message::user("late")});
  CHECK(ids.status().code() == StatusCode::kFailedPrecondition);

  create(*backend.store, "s2");
  REQUIRE(backend.store->end_session("s2", "user_exit").ok());
  CHECK(backend.store->append_messages("s2", {Message::user("still fine")}).ok());
}

TEST_CASE_TEMPLATE("loading more messages than the guard allows is refused clearly", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", std::vector<Message>(5, Message::user("x"))).ok());

  LoadOptions small;
  small.max_messages = 4;
  auto refused = backend.store->load_messages("s1", small);
  CHECK(refused.status().code() == StatusCode::kResourceExhausted);
  CHECK(refused.status().message().find("max_messages") != std::string::npos);

  small.max_messages = 5;
  CHECK(backend.store->load_messages("s1", small).ok());
  small.max_messages = 0;
  CHECK(backend.store->load_messages("s1", small)->size() == 5);
}

TEST_CASE_TEMPLATE("ancestors load root first without the user message replayed into the child", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  REQUIRE(store
              .append_messages("root", {Message::user("plan a trip"), Message::assistant("ok"),
                                        Message::user("to Kyoto")})
              .ok());
  REQUIRE(store.end_session("root", "compression").ok());
  create(store, "tip", "cli", at(2), "root");
  REQUIRE(
      store.append_messages("tip", {Message::user("to Kyoto"), Message::assistant("booked")}).ok());

  auto tip_only = store.load_messages("tip");
  REQUIRE(tip_only.ok());
  CHECK(tip_only->size() == 2);

  LoadOptions lineage;
  lineage.include_ancestors = true;
  auto all = store.load_messages("tip", lineage);
  REQUIRE(all.ok());
  std::vector<std::string> texts;
  for (const auto& m : *all) texts.push_back(m.content);
  CHECK(texts == std::vector<std::string>{"plan a trip", "ok", "to Kyoto", "booked"});

  lineage.max_messages = 4;
  CHECK(store.load_messages("tip", lineage).status().code() == StatusCode::kResourceExhausted);
}

TEST_CASE_TEMPLATE("a sub-agent's parent is not loaded as its ancestor", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "parent", "cli", at(1));
  REQUIRE(store.append_messages("parent", {Message::user("delegate this")}).ok());
  create(store, "worker", "subagent", at(2), "parent");
  REQUIRE(store.append_messages("worker", {Message::user("subtask")}).ok());
  LoadOptions lineage;
  lineage.include_ancestors = true;
  auto loaded = store.load_messages("worker", lineage);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 1);
  CHECK((*loaded)[0].content == "subtask");
}
