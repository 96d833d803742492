// The tools that serve the conversation itself (todo_list, clarify, session_search,
// delegate_task) driven through the real loop over HTTP, with the SQLite store on disk.
#include <doctest/doctest.h>

#include <algorithm>

#include "integration/tool_loop.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

Json todo(const std::string& id, const std::string& content, const std::string& status) {
  return {{"id", id}, {"content", content}, {"status", status}};
}

}  // namespace

TEST_CASE("todo_list writes, merges and reads the task list across the loop's iterations") {
  ToolLoop loop({"todo"});
  loop.run({{tool_call("write", "todo_list",
                       {{"todos", Json::array({todo("a", "Read the spec", "in_progress"),
                                               todo("b", "Write the tests", "pending")})}})},
            {tool_call("merge", "todo_list",
                       {{"todos", Json::array({todo("a", "Read the spec", "completed")})},
                        {"merge", true}})},
            {tool_call("read", "todo_list", Json::object()),
             tool_call("bad", "todo_list", {{"todos", todo("c", "Not in a list", "pending")}})}});

  CHECK(loop.sent("write")["todos"].size() == 2);
  Json read = loop.sent("read");
  REQUIRE(read["todos"].size() == 2);
  CHECK(read["todos"][0]["id"] == "a");
  CHECK(read["todos"][0]["status"] == "completed");
  CHECK(read["todos"][1]["status"] == "pending");
  CHECK(is_error_result(loop.sent("bad")));
}

TEST_CASE("clarify asks through the callback and the answer reaches the model") {
  ToolLoop loop({"clarify"});
  std::vector<std::string> asked;
  loop.options.callbacks.on_clarify =
      [&](const std::string& question,
          const std::vector<std::string>& choices) -> std::optional<std::string> {
    asked.push_back(question + " " + Json(choices).dump());
    return "Blue";
  };
  loop.run({{tool_call("ask", "clarify",
                       {{"question", "Which colour?"}, {"choices", Json::array({"Red", "Blue"})}})},
            {tool_call("empty", "clarify", {{"question", "   "}}),
             tool_call("bad_choices", "clarify",
                       {{"question", "Which?"}, {"choices", {{"red", "Red"}}}})}});

  REQUIRE(asked.size() == 1);
  // The first choice is offered as the recommended one.
  CHECK(asked[0] == R"json(Which colour? ["Red (Recommended)","Blue"])json");
  Json answer = loop.sent("ask");
  CHECK(answer["question"] == "Which colour?");
  CHECK(answer["user_response"] == "Blue");
  CHECK(is_error_result(loop.sent("empty")));
  CHECK(is_error_result(loop.sent("bad_choices")));
}

TEST_CASE("session_search finds an earlier session in the SQLite store and reads it") {
  ToolLoop loop({"session_search"});
  loop.server.enqueue(chat::text("Flamingos are pink because of the shrimp they eat.", true));
  auto earlier = Agent::create(loop.options);
  REQUIRE(earlier.ok());
  ConversationResult first = (*earlier)->run_conversation("Why are flamingos pink?");
  REQUIRE_MESSAGE(first.completed, first.error);

  loop.run({{tool_call("find", "session_search", {{"query", "flamingos"}})},
            {tool_call("open", "session_search", {{"session_id", first.session_id}}),
             tool_call("unknown", "session_search", {{"session_id", "no-such-session"}}),
             tool_call("bad_anchor", "session_search",
                       {{"session_id", first.session_id}, {"around_message_id", "middle"}})}});

  Json found = loop.sent("find");
  CHECK(found["success"] == true);
  REQUIRE(found["count"] == 1);
  CHECK(found["results"][0]["session_id"] == first.session_id);
  CHECK(loop.agent().session_id() != first.session_id);
  Json opened = loop.sent("open");
  CHECK(opened["success"] == true);
  CHECK(text_contains(Json(loop.sent_text("open")), "shrimp they eat"));
  CHECK(text_contains(loop.sent("unknown")["error"], "no-such-session"));
  CHECK(is_error_result(loop.sent("bad_anchor")));
}

TEST_CASE("delegate_task runs a sub-agent over HTTP and only its summary returns") {
  ToolLoop loop({"delegation", "terminal"});
  loop.server.enqueue(chat::tool_calls(
      {{"delegate", "delegate_task",
        Json{{"goal", "Check whether the tests pass."}, {"context", "The project is in ./"}}
            .dump()},
       {"blank", "delegate_task", Json{{"goal", "   "}}.dump()}},
      true));
  loop.server.enqueue(chat::text("The tests pass.", true));  // The sub-agent's answer.
  loop.run({}, "The sub-agent says the tests pass.", "Are the tests green?");

  std::vector<RecordedRequest> requests = loop.server.requests();
  REQUIRE(requests.size() == 3);
  const Json child_request = requests[1].json();
  const Json& child = child_request["messages"];
  CHECK(child.dump().find("Are the tests green?") == std::string::npos);
  CHECK(child.back()["content"].get<std::string>().find("Check whether the tests pass.") !=
        std::string::npos);
  std::vector<std::string> child_tools;
  for (const Json& t : child_request["tools"]) child_tools.push_back(t["function"]["name"]);
  CHECK(std::find(child_tools.begin(), child_tools.end(), "delegate_task") == child_tools.end());
  CHECK(std::find(child_tools.begin(), child_tools.end(), "terminal") != child_tools.end());

  Json result = loop.sent("delegate");
  REQUIRE(result["results"].size() == 1);
  CHECK(result["results"][0]["status"] == "completed");
  CHECK(result["results"][0]["summary"] == "The tests pass.");
  CHECK(text_contains(loop.sent("blank")["error"], "goal"));
}
