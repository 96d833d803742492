// Replies that announce workspace work instead of doing it are told apart from answers.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "agent/intent_ack.hpp"
#include "hermes/json.hpp"

using namespace hermes;

TEST_CASE("announcements of workspace work are recognised and answers are not") {
  std::ifstream file(std::string(HERMES_FIXTURES_DIR) + "/agent/intent_ack_cases.json");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  const Json cases = Json::parse(text.str());
  REQUIRE(cases.size() >= 10);
  for (const Json& c : cases) {
    std::string answer = c["answer"];
    if (answer == "LONG") {
      answer = "I'll review the repository. ";
      while (answer.size() <= 1200) answer += "More detail about it. ";
    }
    std::vector<Message> messages = {Message::user(c["user"])};
    if (c.value("tool_ran", false)) messages.push_back(Message::tool("call_1", "read", "{}"));
    CAPTURE(c["why"].get<std::string>());
    CHECK(internal::looks_like_intent_ack(c["user"].get<std::string>(), answer, messages, 0) ==
          c["ack"].get<bool>());
  }
}
