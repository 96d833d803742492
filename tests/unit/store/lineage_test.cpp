// Lineage questions every store answers the same way: compression tips, the session to
// resume, ancestors, reopening, and the writer that follows a rotation.
#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Json;
using hermes::Message;
using hermes::SessionInfo;
using hermes::StatusCode;
using hermes::TranscriptWriter;
using hermes::testing::at;
using hermes::testing::compaction_of;
using hermes::testing::create;

namespace {

// root -> a -> b, each ended by compression except the last.
void make_chain(hermes::SessionStore& store) {
  create(store, "root", "cli", at(1));
  REQUIRE(store.append_messages("root", {Message::user("first question")}).ok());
  hermes::testing::rotate(store, "root", "a", {Message::user("summary one")});
  hermes::testing::rotate(store, "a", "b", {Message::user("summary two")});
}

}  // namespace

TEST_CASE_TEMPLATE("the compression tip follows continuations to the live end", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  make_chain(store);
  CHECK(*compaction_of(store).compression_tip("root") == "b");
  CHECK(*compaction_of(store).compression_tip("a") == "b");
  CHECK(*compaction_of(store).compression_tip("b") == "b");
  CHECK(compaction_of(store).compression_tip("nobody").status().code() == StatusCode::kNotFound);
}

TEST_CASE_TEMPLATE("branches, resets and sub-agent runs are not continuations", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  REQUIRE(store.end_session("root", "compression").ok());
  SessionInfo branch;
  branch.id = "branch";
  branch.parent_session_id = "root";
  branch.started_at = at(5);
  branch.model_config = Json{{"_branched_from", "root"}};
  REQUIRE(store.create_session(branch).ok());
  create(store, "tool-run", "tool", at(6), "root");
  CHECK(*compaction_of(store).compression_tip("root") == "root");

  create(store, "continuation", "cli", at(2), "root");
  CHECK(*compaction_of(store).compression_tip("root") == "continuation");
}

TEST_CASE_TEMPLATE("a continuation that was itself compressed is preferred", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "root", "cli", at(1));
  REQUIRE(store.end_session("root", "compression").ok());
  create(store, "older", "cli", at(2), "root");
  REQUIRE(store.end_session("older", "compression").ok());
  create(store, "newer", "cli", at(3), "root");  // A live sibling started later.
  create(store, "tip", "cli", at(4), "older");
  CHECK(*compaction_of(store).compression_tip("root") == "tip");
}

TEST_CASE_TEMPLATE("resume lands on the deepest continuation with messages", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  make_chain(store);
  CHECK(*compaction_of(store).resolve_resume_session_id("root") == "b");

  create(store, "lonely", "cli", at(9));
  CHECK(*compaction_of(store).resolve_resume_session_id("lonely") == "lonely");
}

TEST_CASE_TEMPLATE("lineage lists the ancestors root first", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  make_chain(store);
  auto chain = compaction_of(store).lineage("b");
  REQUIRE(chain.ok());
  REQUIRE(chain->size() == 3);
  CHECK((*chain)[0].id == "root");
  CHECK((*chain)[1].id == "a");
  CHECK((*chain)[2].id == "b");
}

TEST_CASE_TEMPLATE("a recoverable close can be reopened but a compression close cannot", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s1");
  REQUIRE(store.end_session("s1", "agent_close").ok());
  REQUIRE(compaction_of(store).reopen_session("s1").ok());
  auto reopened = store.get_session("s1");
  CHECK(reopened->ended_at == 0);
  CHECK(reopened->end_reason.empty());
  CHECK(store.append_messages("s1", {Message::user("back again")}).ok());

  REQUIRE(store.end_session("s1", "compression").ok());
  CHECK(compaction_of(store).reopen_session("s1").code() == StatusCode::kFailedPrecondition);
  CHECK(compaction_of(store).reopen_session("nobody").code() == StatusCode::kNotFound);
}

TEST_CASE_TEMPLATE("a writer whose session was rotated elsewhere continues in the tip", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s1");
  TranscriptWriter writer(backend.store, "s1");
  std::vector<Message> transcript = {Message::user("q1"), Message::assistant("a1")};
  REQUIRE(writer.flush(transcript).ok());

  hermes::testing::rotate(store, "s1", "s2", {Message::user("summary")});

  transcript.push_back(Message::user("q2"));
  const hermes::Status flushed = writer.flush(transcript);
  REQUIRE_MESSAGE(flushed.ok(), flushed.to_string());
  CHECK(writer.session_id() == "s2");
  auto tip = store.load_messages("s2");
  REQUIRE(tip->size() == 2);
  CHECK((*tip)[1].content == "q2");
  CHECK(store.load_messages("s1")->size() == 2);
}
