// A conversation of a few messages whose tool output outgrows the model's window: nothing
// lies between the protected head and tail to summarise, so the compaction shortens the
// oversized tool results instead, and the turn completes. Over the real HTTP path: the
// loopback mock model refuses every request body above a size, as a model server refuses
// prompts over its window.
#include <doctest/doctest.h>

#include <string>

#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

// `bytes` of log text that starts and ends with recognisable lines.
std::string log_text(const std::string& name, std::size_t bytes) {
  std::string text = "FIRST LINE OF " + name + "\n";
  while (text.size() < bytes) text += name + ": worker 7 retried the upload and timed out again\n";
  return text + "LAST LINE OF " + name;
}

}  // namespace

TEST_CASE("an overflow of a few huge tool results compacts by shortening them and completes") {
  LoopHttpFixture f;
  f.register_tool("read_log", [](const Json& args, ToolContext&) -> Result<std::string> {
    const std::string name = args.value("name", std::string("?"));
    const std::size_t bytes = name == "a" ? 20'000 : name == "b" ? 30'000 : 25'000;
    return log_text(name, bytes);
  });
  f.server.refuse_bodies_over(
      70'000, chat::error(400,
                          "Input is too long for the requested model. Please reduce the length "
                          "of the messages or completion.",
                          "context_length_exceeded"));
  f.server.enqueue(chat::tool_calls({{"", "read_log", R"({"name":"a"})"}}, false));
  f.server.enqueue(chat::tool_calls({{"", "read_log", R"({"name":"b"})"}}, false));
  f.server.enqueue(chat::tool_calls({{"", "read_log", R"({"name":"c"})"}}, false));
  f.server.enqueue(chat::text("All three logs show the upload timing out.", false));

  AgentOptions o = f.options(/*stream=*/false);
  o.persistence.enabled = false;
  auto agent = f.agent(o);
  ConversationResult r = agent->run_conversation("Read logs a, b and c and tell me what failed.");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "All three logs show the upload timing out.");
  CHECK(r.exit_reason != "compression_exhausted");

  // The fourth request carried all three results and was refused; the fifth, after the
  // compaction, was accepted and is smaller.
  const auto requests = f.server.requests();
  std::size_t refused = requests.size();
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].body.size() > 70'000) {
      refused = i;
      break;
    }
  }
  REQUIRE(refused + 1 < requests.size());
  const std::string& retried = requests[refused + 1].body;
  MESSAGE("refused request: " << requests[refused].body.size()
                              << " bytes; retried: " << retried.size() << " bytes");
  CHECK(retried.size() < requests[refused].body.size());
  CHECK(retried.size() <= 70'000);
  // The shortened results still show where each log starts and ends, and say what was cut.
  for (const char* name : {"a", "b", "c"}) {
    CHECK(retried.find(std::string("FIRST LINE OF ") + name) != std::string::npos);
    CHECK(retried.find(std::string("LAST LINE OF ") + name) != std::string::npos);
  }
  CHECK(retried.find("characters of tool output omitted") != std::string::npos);
  // No two user or two assistant messages in a row reached the model.
  const Json sent = requests[refused + 1].json()["messages"];
  for (std::size_t i = 1; i < sent.size(); ++i) {
    const std::string role = sent[i]["role"], before = sent[i - 1]["role"];
    CHECK_FALSE((role == before && (role == "user" || role == "assistant")));
  }
}
