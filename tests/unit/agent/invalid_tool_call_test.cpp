// Calls to tools that were not offered: the text the model reads, which calls still run,
// and when the turn gives up.
#include "agent/invalid_tool_call.hpp"

#include <doctest/doctest.h>

#include <atomic>

#include "hermes/agent.hpp"
#include "support/scripted_agent.hpp"

using namespace hermes;
using hermes::testing::ScriptedProvider;

namespace {

// Two tools the model may call; every invented name is unknown.
struct UnknownToolFixture : hermes::testing::ScriptedAgentFixture {
  std::atomic<int> add_calls{0};

  UnknownToolFixture() {
    for (const char* name : {"add", "read_file"}) {
      add_tool(name, [this](const Json&, ToolContext&) -> Result<std::string> {
        ++add_calls;
        return std::string("ok");
      });
    }
  }
};

using hermes::testing::tool_messages;

std::string role_list(const std::vector<Message>& messages) {
  std::string out;
  for (const Message& m : messages) {
    if (!out.empty()) out += " ";
    out += m.role == Role::kUser ? "user" : m.role == Role::kAssistant ? "assistant" : "tool";
  }
  return out;
}

}  // namespace

TEST_CASE("an unknown name is answered with the sorted tools, a blank one without them") {
  const std::vector<std::string> offered = {"read_file", "add"};
  CHECK(internal::invalid_tool_name_error("frobnicate", offered) ==
        "Tool 'frobnicate' does not exist. Available tools: add, read_file");
  for (const char* blank : {"", "  "}) {
    const std::string text = internal::invalid_tool_name_error(blank, offered);
    CHECK(text.rfind("Tool call rejected: the tool name was empty. If tool-call XML or JSON", 0) ==
          0);
    CHECK(text.find("read_file") == std::string::npos);
  }
}

TEST_CASE("a long invented name is quoted as 80 bytes and an ellipsis") {
  CHECK(internal::tool_name_preview("fly") == "fly");
  CHECK(internal::tool_name_preview(std::string(80, 'x')) == std::string(80, 'x'));
  CHECK(internal::tool_name_preview(std::string(100, 'x')) == std::string(80, 'x') + "...");
  // A multi-byte character is never cut in half.
  const std::string accented = std::string(79, 'x') + "\xC3\xA9" + "tail";
  CHECK(internal::tool_name_preview(accented) == std::string(79, 'x') + "...");
}

TEST_CASE("beside valid calls only the unknown call is refused; the others run") {
  UnknownToolFixture f;
  f.provider->tool_calls({{"launch_rockets", R"({"x": })"}, {"add", "{}"}});
  f.provider->text("Added; no rockets.");
  auto agent = f.agent();
  ConversationResult r = agent->run_conversation("go");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(f.add_calls == 1);
  CHECK(f.provider->requests().size() == 2);  // No retry for the unknown call's arguments.
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 2);
  CHECK(results[0]->name == "launch_rockets");
  CHECK(results[0]->content ==
        "Tool 'launch_rockets' does not exist. Available tools: add, read_file");
  CHECK(results[1]->name == "add");
  CHECK(results[1]->content == "ok");
}

TEST_CASE("three rounds of only unknown tools end the turn as partial, without the third round") {
  UnknownToolFixture f;
  const std::string invented(100, 'z');
  for (int i = 0; i < 3; ++i) f.provider->tool_calls({{invented, "{}"}});
  f.provider->text("never asked");
  auto agent = f.agent();
  ConversationResult r = agent->run_conversation("fly");
  CHECK_FALSE(r.completed);
  CHECK(r.partial);
  const std::string expected = "Model generated invalid tool call: " + std::string(80, 'z') + "...";
  CHECK(r.final_response == expected);
  CHECK(r.error == expected);
  CHECK(r.exit_reason == "invalid_tool_call");
  CHECK(f.provider->requests().size() == 3);
  CHECK(f.provider->remaining() == 1);
  CHECK(role_list(r.messages) == "user assistant tool assistant tool assistant");
  CHECK(r.messages.back().content == expected);
}

TEST_CASE("a round with a valid call resets the count of invalid rounds") {
  UnknownToolFixture f;
  f.provider->tool_calls({{"nope", "{}"}});
  f.provider->tool_calls({{"nope", "{}"}});
  f.provider->tool_calls({{"nope", "{}"}, {"add", "{}"}});
  f.provider->tool_calls({{"nope", "{}"}});
  f.provider->tool_calls({{"nope", "{}"}});
  f.provider->text("done");
  auto agent = f.agent();
  ConversationResult r = agent->run_conversation("go");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.final_response == "done");
  CHECK(f.add_calls == 1);
}

TEST_CASE("a call with an empty name gets the short refusal") {
  UnknownToolFixture f;
  f.provider->tool_calls({{"", "{}"}});
  f.provider->text("Sorry.");
  auto agent = f.agent();
  ConversationResult r = agent->run_conversation("go");
  REQUIRE_MESSAGE(r.completed, r.error);
  auto results = tool_messages(r.messages);
  REQUIRE(results.size() == 1);
  CHECK(results[0]->content.rfind("Tool call rejected: the tool name was empty.", 0) == 0);
  CHECK(results[0]->content.find("add") == std::string::npos);
}
