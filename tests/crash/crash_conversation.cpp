#include "crash/crash_conversation.hpp"

#include "support/mock_responses.hpp"

namespace hermes::testing::crash {

void script_conversation(MockServer& server) {
  // Turn 1: three tool rounds, then the answer.
  server.enqueue(chat::tool_calls({{"call_a1", "add", R"({"a": 2, "b": 3})"}}, true));
  server.enqueue(chat::tool_calls({{"call_a2", "add", R"({"a": 5, "b": 8})"}}, true));
  server.enqueue(chat::tool_calls({{"call_a3", "add", R"({"a": 13, "b": 21})"}}, true));
  server.enqueue(chat::text("The sums are 5, 13 and 34, one after the other.", true));
  // Turn 2: text only.
  server.enqueue(chat::text("The largest sum was 34, from adding 13 and 21.", true));
  // The compaction's summary (the summariser does not stream).
  server.enqueue(chat::text(
      "## Goal\nAdd numbers for the user.\n## Completed Actions\nAdded 2+3=5, 5+8=13 and "
      "13+21=34; said 34 was the largest.\n## Critical Context\nThe user wants sums.",
      false));
  // Turn 3: one tool round, then the answer.
  server.enqueue(chat::tool_calls({{"call_b1", "add", R"({"a": 34, "b": 55})"}}, true));
  server.enqueue(chat::text("34 and 55 make 89 in total.", true));
}

bool is_summary_request(const RecordedRequest& request) {
  Json body = request.json();
  return body.is_object() && !body.contains("tools");
}

std::shared_ptr<ToolRegistry> conversation_tools(std::function<void()> on_call) {
  auto tools = std::make_shared<ToolRegistry>();
  ToolSpec add;
  add.name = "add";
  add.description = "Add two numbers.";
  add.parameters = Json::parse(
      R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})");
  add.handler = [on_call](const Json& args, ToolContext&) -> Result<std::string> {
    if (on_call) on_call();
    return Json{{"sum", args.value("a", 0.0) + args.value("b", 0.0)}}.dump();
  };
  (void)tools->register_tool(add);
  return tools;
}

AgentOptions conversation_options(const MockServer& server, const std::string& home,
                                  std::shared_ptr<SessionStore> store) {
  AgentOptions o;
  o.provider.model = "mock-model";
  o.provider.base_url = server.base_url();
  o.provider.api_key = "sk-test";
  o.home = home;
  o.tools = conversation_tools();
  o.persistence.store = std::move(store);
  o.failover.max_retries = 1;
  o.compression.context_length = 1'000'000;
  o.compression.protect_last_n = 3;
  return o;
}

}  // namespace hermes::testing::crash
