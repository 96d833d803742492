// A tool of your own: the model calls `add`, hermes runs it and feeds the result back.
//
//   OPENAI_API_KEY=sk-... ./custom_tool "What is 1234 + 5678?"
//
// OPENAI_BASE_URL and HERMES_MODEL select another endpoint and model, HERMES_MCP_CONFIG
// an mcp.json file whose MCP servers add their tools. The README's C++ quick start is this
// program without the MCP servers and the progress lines.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hermes/hermes.hpp"

namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

}  // namespace

int main(int argc, char** argv) {
  auto tools = std::make_shared<hermes::ToolRegistry>();
  hermes::ToolSpec add;
  add.name = "add";
  add.description = "Add two numbers.";
  add.parameters = hermes::Json::parse(R"({"type":"object",
      "properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]})");
  add.handler = [](const hermes::Json& args, hermes::ToolContext&) -> hermes::Result<std::string> {
    if (!args["a"].is_number() || !args["b"].is_number()) {
      return hermes::Status::invalid_argument("a and b must be numbers");  // The model reads it.
    }
    return hermes::Json{{"sum", args["a"].get<double>() + args["b"].get<double>()}}.dump();
  };
  if (hermes::Status s = tools->register_tool(add); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.to_string().c_str());
    return 2;
  }

  // {"mcpServers": {"files": {"command": ...}, "search": {"url": ...}}}: the servers'
  // tools join the registry; `servers` keeps them connected while the agent runs.
  std::unique_ptr<hermes::McpServers> servers;
  if (const char* path = std::getenv("HERMES_MCP_CONFIG")) {
    auto configs = hermes::load_mcp_config(path);
    if (!configs.ok()) {
      std::fprintf(stderr, "%s\n", configs.status().to_string().c_str());
      return 2;
    }
    auto connected = hermes::McpServers::connect(std::move(*configs), tools);
    if (!connected.ok()) {
      std::fprintf(stderr, "%s\n", connected.status().to_string().c_str());
      return 2;
    }
    servers = std::move(*connected);
  }

  hermes::AgentOptions options;
  options.provider.model = env_or("HERMES_MODEL", "gpt-4.1-mini");
  options.provider.base_url = env_or("OPENAI_BASE_URL", "https://api.openai.com/v1");
  options.provider.api_key = env_or("OPENAI_API_KEY", "");
  options.tools = tools;
  options.persistence.enabled = false;  // Keep nothing on disk.
  options.callbacks.on_tool_progress = [](const hermes::ToolProgress& p) {
    if (p.phase == hermes::ToolProgress::Phase::kStarted) {
      std::printf("-> %s %s\n", p.name.c_str(), p.preview.c_str());
    }
  };

  auto agent = hermes::Agent::create(options);  // Result<std::unique_ptr<Agent>>
  if (!agent.ok()) {
    std::fprintf(stderr, "%s\n", agent.status().to_string().c_str());
    return 2;
  }
  hermes::ConversationResult result =
      (*agent)->run_conversation(argc > 1 ? argv[1] : "What is 2 + 40? Use the add tool.");
  if (!result.completed) {
    std::fprintf(stderr, "turn failed: %s %s\n", result.exit_reason.c_str(), result.error.c_str());
    return 1;
  }
  std::printf("%s\n(%d model calls)\n", result.final_response->c_str(), result.api_calls);
  return 0;
}
