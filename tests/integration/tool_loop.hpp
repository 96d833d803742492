// What the tests of the built-in tools through the real loop share: the loopback mock
// model server scripting the tool calls, a hermes home and a project directory on disk,
// the SQLite store, and one agent whose turns run over libcurl.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "hermes/hermes.hpp"
#include "hermes/session_search_tool.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

inline std::string tool_fixture(const std::string& name) {
  return read_text(std::string(HERMES_FIXTURES_DIR) + "/tools/" + name);
}

// One model step: the tool calls of one assistant message.
using ToolStep = std::vector<MockToolCall>;

// One scripted tool call with JSON arguments.
inline MockToolCall tool_call(const std::string& id, const std::string& name, const Json& args) {
  return {id, name, args.dump()};
}

// True when `value` is a string containing `needle`.
inline bool text_contains(const Json& value, const std::string& needle) {
  return value.is_string() && value.get<std::string>().find(needle) != std::string::npos;
}

class ToolLoop {
 public:
  // Registers every built-in toolset (the file tools rooted at `project`) and
  // session_search, and offers the model `toolsets`.
  explicit ToolLoop(std::vector<std::string> toolsets) {
    BuiltinToolOptions builtins;
    builtins.file.root = project.path();
    REQUIRE(register_builtin_tools(*tools, builtins).ok());
    REQUIRE(register_session_search_tool(*tools).ok());
    options.provider.model = "mock-model";
    options.provider.base_url = server.base_url();
    options.provider.api_key = "sk-test";
    options.home = home.path();
    options.tools = tools;
    options.tool_use.enabled_toolsets = std::move(toolsets);
    // Reviews would send model calls nobody scripted.
    options.review.enabled = false;
    options.compression.context_length = 128000;  // No metadata probe, no warning.
  }

  // Scripts each step as one streamed model response carrying its calls, then `answer`,
  // and runs one turn of the fixture's agent (created on the first turn from `options`).
  ConversationResult run(const std::vector<ToolStep>& steps, const std::string& answer = "Done.",
                         const std::string& prompt = "Go ahead.") {
    for (const ToolStep& step : steps) server.enqueue(chat::tool_calls(step, /*stream=*/true));
    server.enqueue(chat::text(answer, /*stream=*/true));
    ConversationResult r = agent().run_conversation(prompt);
    REQUIRE_MESSAGE(r.completed, r.error);
    CHECK(r.final_response == answer);
    CHECK(server.pending() == 0);
    return r;
  }

  Agent& agent() {
    if (!agent_) {
      auto created = Agent::create(options);
      REQUIRE_MESSAGE(created.ok(), created.status().to_string());
      agent_ = std::move(*created);
    }
    return *agent_;
  }

  // The tool message answering `call_id`, as the last request carried it to the model.
  std::string sent_text(const std::string& call_id) const {
    std::vector<RecordedRequest> requests = server.requests();
    REQUIRE_FALSE(requests.empty());
    const Json messages = requests.back().json()["messages"];
    for (const Json& m : messages) {
      if (m.value("role", "") == "tool" && m.value("tool_call_id", "") == call_id) {
        REQUIRE(m["content"].is_string());
        return m["content"].get<std::string>();
      }
    }
    FAIL("no tool result for " << call_id << " was sent to the model");
    return "";
  }

  // The same, parsed: every built-in tool answers with a JSON object.
  Json sent(const std::string& call_id) const {
    const std::string text = sent_text(call_id);
    std::optional<Json> parsed = internal::parse_json(text);
    REQUIRE_MESSAGE(parsed.has_value(), text);
    REQUIRE_MESSAGE(parsed->is_object(), text);
    return *parsed;
  }

  // The system prompt of the last request.
  std::string sent_system_prompt() const {
    const Json messages = server.requests().back().json()["messages"];
    REQUIRE(messages.at(0).value("role", "") == "system");
    return messages[0]["content"].get<std::string>();
  }

  MockServer server;
  TempDir home;
  TempDir project;
  std::shared_ptr<ToolRegistry> tools = std::make_shared<ToolRegistry>();
  AgentOptions options;

 private:
  std::unique_ptr<Agent> agent_;
};

// A tool answer the model can read as a failure: {"error": ...} from the loop, or a
// built-in's own {"success": false, "error": ...}.
inline bool is_error_result(const Json& result) {
  return result.contains("error") && result["error"].is_string() &&
         !result["error"].get<std::string>().empty() && result.value("success", false) == false;
}

}  // namespace hermes::testing
