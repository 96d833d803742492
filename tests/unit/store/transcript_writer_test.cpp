#include <doctest/doctest.h>

#include <regex>

#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::StatusCode;
using hermes::TranscriptWriter;
using hermes::testing::create;

TEST_CASE_TEMPLATE("flushing twice writes each message once", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  TranscriptWriter writer(backend.store, "s1");
  std::vector<Message> transcript = {Message::user("hi"), Message::assistant("hello")};

  REQUIRE(writer.flush(transcript).ok());
  REQUIRE(writer.flush(transcript).ok());
  CHECK(writer.cursor() == 2);
  CHECK(backend.store->load_messages("s1")->size() == 2);

  transcript.push_back(Message::user("more"));
  REQUIRE(writer.flush(transcript).ok());
  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded->size() == 3);
  CHECK((*loaded)[2].content == "more");
}

TEST_CASE_TEMPLATE("scaffolding is skipped but counted as flushed", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  TranscriptWriter writer(backend.store, "s1");
  Message nudge = Message::user("Your last reply was empty; answer again.");
  nudge.scaffolding = true;
  const std::vector<Message> transcript = {Message::user("q"), nudge, Message::assistant("a")};
  REQUIRE(writer.flush(transcript).ok());
  CHECK(writer.cursor() == 3);
  auto loaded = backend.store->load_messages("s1");
  REQUIRE(loaded->size() == 2);
  CHECK((*loaded)[1].content == "a");
}

TEST_CASE_TEMPLATE("a failed flush is retried whole by the next one", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  TranscriptWriter writer(backend.store, "late");
  std::vector<Message> transcript = {Message::user("one"), Message::assistant("two")};
  // The session row does not exist yet, so the append fails and nothing moves.
  CHECK(writer.flush(transcript).code() == StatusCode::kNotFound);
  CHECK(writer.cursor() == 0);

  create(*backend.store, "late");
  transcript.push_back(Message::user("three"));
  REQUIRE(writer.flush(transcript).ok());
  auto loaded = backend.store->load_messages("late");
  REQUIRE(loaded.ok());
  REQUIRE(loaded->size() == 3);
  CHECK((*loaded)[0].content == "one");
}

TEST_CASE_TEMPLATE("a writer resumed after history writes only the new part", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->append_messages("s1", {Message::user("old")}).ok());
  auto history = backend.store->load_messages("s1");
  REQUIRE(history.ok());

  TranscriptWriter writer(backend.store, "s1", history->size());
  std::vector<Message> transcript = *history;
  transcript.push_back(Message::user("new"));
  REQUIRE(writer.flush(transcript).ok());
  CHECK(backend.store->load_messages("s1")->size() == 2);

  create(*backend.store, "s2");
  writer.reset("s2", 0);
  REQUIRE(writer.flush({Message::user("rotated")}).ok());
  CHECK(backend.store->load_messages("s2")->size() == 1);
}

TEST_CASE("a writer without a store writes nothing and succeeds") {
  TranscriptWriter writer;
  CHECK_FALSE(writer.enabled());
  CHECK(writer.flush({Message::user("x")}).ok());
}

TEST_CASE("a new session id is the local time and random hex") {
  const std::string id = hermes::new_session_id();
  CHECK(std::regex_match(id, std::regex(R"(\d{8}_\d{6}_[0-9a-f]{6})")));
  CHECK(std::regex_match(hermes::new_session_id(8), std::regex(R"(\d{8}_\d{6}_[0-9a-f]{8})")));
  CHECK(hermes::new_session_id() != hermes::new_session_id());
}

TEST_CASE_TEMPLATE("usage added between flushes is written with the next flush", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  TranscriptWriter writer(backend.store, "s1");
  hermes::UsageDelta delta;
  delta.usage.input_tokens = 1200;
  delta.usage.output_tokens = 20;
  delta.api_calls = 1;
  writer.add_usage(delta);
  writer.add_usage(delta);
  CHECK(backend.store->get_session("s1")->api_call_count == 0);  // Nothing written yet.

  REQUIRE(writer.flush({Message::user("q"), Message::assistant("a")}).ok());
  auto row = backend.store->get_session("s1");
  REQUIRE(row.ok());
  CHECK(row->message_count == 2);
  CHECK(row->api_call_count == 2);
  CHECK(row->usage.input_tokens == 2400);
  CHECK(row->usage.output_tokens == 40);

  // Usage alone is written too, and only once.
  writer.add_usage(delta);
  REQUIRE(writer.flush({Message::user("q"), Message::assistant("a")}).ok());
  REQUIRE(writer.flush({Message::user("q"), Message::assistant("a")}).ok());
  CHECK(backend.store->get_session("s1")->api_call_count == 3);
  CHECK(backend.store->load_messages("s1")->size() == 2);
}

TEST_CASE_TEMPLATE("a step is stored whole or not at all, and a failed flush is retried whole", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  create(*backend.store, "s1");
  REQUIRE(backend.store->end_session("s1", "compression").ok());
  hermes::UsageDelta delta;
  delta.usage.input_tokens = 7;
  delta.api_calls = 1;
  // Closed by compression and without a live tip to follow: the messages are refused, and
  // the usage that came with them is not recorded either.
  auto refused = backend.store->append_step("s1", {Message::user("late")}, {delta});
  CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
  CHECK(backend.store->get_session("s1")->api_call_count == 0);
  CHECK(backend.store->load_messages("s1")->empty());

  TranscriptWriter writer(backend.store, "missing");
  writer.add_usage(delta);
  const std::vector<Message> transcript = {Message::user("q")};
  CHECK_FALSE(writer.flush(transcript).ok());
  CHECK(writer.cursor() == 0);
  create(*backend.store, "missing");
  REQUIRE(writer.flush(transcript).ok());
  CHECK(backend.store->load_messages("missing")->size() == 1);
  CHECK(backend.store->get_session("missing")->api_call_count == 1);
}
