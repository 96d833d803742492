// A tool of your own: the model calls `add`, hermes runs it and feeds the result back.
//
//   OPENAI_API_KEY=sk-... ./custom_tool "What is 1234 + 5678?"
#include <cstdio>
#include <cstdlib>

#include "hermes/hermes.hpp"

int main(int argc, char** argv) {
  auto tools = std::make_shared<hermes::ToolRegistry>();

  hermes::ToolSpec add;
  add.name = "add";
  add.description = "Add two numbers and return their sum.";
  add.parameters = hermes::Json::parse(R"({
    "type": "object",
    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    "required": ["a", "b"]
  })");
  add.handler = [](const hermes::Json& args, hermes::ToolContext&) -> hermes::Result<std::string> {
    if (!args.contains("a") || !args.contains("b") || !args["a"].is_number() || !args["b"].is_number()) {
      // Becomes {"error": "..."} for the model, which can try again.
      return hermes::Status::invalid_argument("a and b must be numbers");
    }
    return hermes::Json{{"sum", args["a"].get<double>() + args["b"].get<double>()}}.dump();
  };
  if (auto s = tools->register_tool(add); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.to_string().c_str());
    return 2;
  }

  hermes::AgentOptions options;
  const char* model = std::getenv("HERMES_MODEL");
  const char* base_url = std::getenv("OPENAI_BASE_URL");
  const char* key = std::getenv("OPENAI_API_KEY");
  options.model = model ? model : "gpt-4.1-mini";
  if (base_url) options.base_url = base_url;
  if (key) options.api_key = key;
  options.tools = tools;
  options.persist_sessions = false;
  options.callbacks.on_tool_progress = [](const hermes::ToolProgress& p) {
    if (p.phase == hermes::ToolProgress::Phase::kStarted) {
      std::printf("-> %s %s\n", p.name.c_str(), p.preview.c_str());
    }
  };

  auto agent = hermes::Agent::create(options);
  if (!agent.ok()) {
    std::fprintf(stderr, "%s\n", agent.status().to_string().c_str());
    return 2;
  }
  hermes::ConversationResult result =
      (*agent)->run_conversation(argc > 1 ? argv[1] : "What is 1234 + 5678? Use the add tool.");
  if (!result.completed) {
    std::fprintf(stderr, "turn failed: %s %s\n", result.exit_reason.c_str(), result.error.c_str());
    return 1;
  }
  std::printf("%s\n(%d model calls)\n", result.final_response->c_str(), result.api_calls);
  return 0;
}
