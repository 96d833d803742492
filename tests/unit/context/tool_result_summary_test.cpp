#include "context/tool_result_summary.hpp"

#include <doctest/doctest.h>

#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

TEST_CASE("each tool's old result becomes its one-line description") {
  // Ordered, so the generic description sees the arguments in the model's order.
  const auto fixture =
      nlohmann::ordered_json::parse(testing::read_fixture_text("tool_summaries.json"));
  for (const auto& c : fixture.at("cases")) {
    const std::string args =
        c.contains("args_text") ? c.at("args_text").get<std::string>() : c.at("args").dump();
    CAPTURE(c.at("expected").get<std::string>());
    CHECK(summarize_tool_result(c.at("tool").get<std::string>(), args,
                                c.at("content").get<std::string>()) ==
          c.at("expected").get<std::string>());
  }
}

TEST_CASE("a clarify answer stays under the pruning floor") {
  const std::string answer = "{\"user_response\": \"" + std::string(500, 'a') + "\"}";
  const std::string line = summarize_tool_result("clarify", "{}", answer);
  CHECK(line.rfind("[clarify] user responded: \"aaa", 0) == 0);
  CHECK(line.size() == 199);
  CHECK(line.substr(line.size() - 14) == "...[truncated]");
}

TEST_CASE("arguments of any shape never stop a description") {
  for (const char* args :
       {"", "null", "[1,2]", "\"text\"", "{\"command\": {\"nested\": [1]}}", "{\"urls\": 5}"}) {
    CAPTURE(args);
    for (const char* tool : {"terminal", "web_extract", "delegate_task", "execute_code", "other"}) {
      const std::string line = summarize_tool_result(tool, args, "output");
      CHECK(line.rfind(std::string("[") + tool + "]", 0) == 0);
    }
  }
}

}  // namespace
}  // namespace hermes::internal
