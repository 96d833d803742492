#include <doctest/doctest.h>

#include <sstream>

#include "unit/store/store_backends.hpp"

using hermes::Json;
using hermes::Message;
using hermes::SessionInfo;
using hermes::StatusCode;
using hermes::testing::create;

namespace {

std::vector<Json> lines_of(const std::string& text) {
  std::vector<Json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  return lines;
}

}  // namespace

TEST_CASE_TEMPLATE("a session exports as a session line and one line per message", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(store.append_messages("s", {Message::user("hi"), Message::assistant("hello")}).ok());
  auto text = hermes::export_session_jsonl(store, "s");
  REQUIRE(text.ok());
  const auto lines = lines_of(*text);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0]["type"] == "session");
  CHECK(lines[0]["id"] == "s");
  CHECK(lines[1]["type"] == "message");
  CHECK(lines[1]["message"]["content"] == "hi");
  CHECK(lines[2]["message"]["role"] == "assistant");
  CHECK(lines[1]["id"] < lines[2]["id"]);
}

TEST_CASE_TEMPLATE("an export can include the compression ancestors and has a size guard", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "p");
  REQUIRE(store.append_messages("p", {Message::user("one"), Message::assistant("two")}).ok());
  hermes::testing::rotate(store, "p", "c", {Message::user("[summary]")});
  auto whole = hermes::export_session_jsonl(store, "c", /*include_ancestors=*/true);
  REQUIRE(whole.ok());
  const auto lines = lines_of(*whole);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0]["id"] == "p");
  CHECK(lines[3]["id"] == "c");

  CHECK(hermes::export_session_jsonl(store, "c", true, 2).status().code() ==
        StatusCode::kResourceExhausted);
  CHECK(hermes::export_session_jsonl(store, "nobody").status().code() == StatusCode::kNotFound);
}
