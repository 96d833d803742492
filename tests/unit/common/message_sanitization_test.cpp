// The wire copy of a transcript: thinking-only turns go, except the prefill the loop
// sends on purpose.
#include <doctest/doctest.h>

#include "hermes/message_utils.hpp"

using namespace hermes;

namespace {

Message thinking(const std::string& reasoning) {
  Message m = Message::assistant("");
  m.reasoning = reasoning;
  return m;
}

}  // namespace

TEST_CASE("a thinking-only turn in the history is dropped and the users around it merged") {
  const std::vector<Message> wire = sanitize_api_messages(
      {Message::user("first"), thinking("hmm"), Message::user("second")});
  REQUIRE(wire.size() == 1);
  CHECK(wire[0].content == "first\n\nsecond");
}

TEST_CASE("a thinking prefill flagged as scaffolding is kept, and no flag reaches the wire") {
  Message prefill = thinking("The capital of Peru is Lima.");
  prefill.scaffolding = true;
  Message nudge = Message::user("Continue.");
  nudge.scaffolding = true;
  const std::vector<Message> wire =
      sanitize_api_messages({Message::user("Capital of Peru?"), prefill});
  REQUIRE(wire.size() == 2);
  CHECK(wire[1].reasoning == "The capital of Peru is Lima.");
  CHECK_FALSE(wire[1].scaffolding);
  // Other scaffolding (a recovery prompt) is sent like any row and loses its flag too.
  const std::vector<Message> prompted =
      sanitize_api_messages({Message::user("Go."), Message::assistant("(empty)"), nudge});
  REQUIRE(prompted.size() == 3);
  CHECK_FALSE(prompted[2].scaffolding);
}
