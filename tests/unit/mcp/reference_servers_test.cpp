// The MCP client against the reference servers from the npm registry
// (@modelcontextprotocol/server-everything, -filesystem, -memory), installed by
// scripts/install-mcp-servers. Each test skips, with a message, when node or the
// package is missing.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "common/json_text.hpp"
#include "hermes/agent.hpp"
#include "mcp_test_support.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("server-everything: handshake, tool list and a plain call") {
  const std::string script = reference_server("server-everything");
  if (script.empty()) return;
  UpServer c(node_server("everything", script, {"stdio"}));
  auto s = c.status();
  CHECK(s.protocol_version == "2025-06-18");
  CHECK(s.server_name == "mcp-servers/everything");
  CHECK(s.tools.size() >= 10);
  CHECK(s.skipped_tools.empty());
  CHECK(c.registry->find("mcp_everything_get_sum")->toolset == "mcp-everything");
  Json echo = result_json(call_tool(*c.registry, "mcp_everything_echo", {{"message", "hi there"}}));
  CHECK(echo["result"] == "Echo: hi there");
  CHECK(c.servers->ping("everything").ok());
}

TEST_CASE("server-everything: structured content and images") {
  const std::string script = reference_server("server-everything");
  if (script.empty()) return;
  UpServer c(node_server("everything", script, {"stdio"}));
  Json weather = result_json(
      call_tool(*c.registry, "mcp_everything_get_structured_content", {{"location", "Chicago"}}));
  REQUIRE(weather.contains("structuredContent"));
  CHECK(weather["structuredContent"].contains("temperature"));
  CHECK(weather["structuredContent"].contains("conditions"));
  Json image = result_json(call_tool(*c.registry, "mcp_everything_get_tiny_image", Json::object()));
  CHECK(image["result"].get<std::string>().find("[image: image/png, ") != std::string::npos);
}

TEST_CASE("server-everything: a long-running call reports progress") {
  const std::string script = reference_server("server-everything");
  if (script.empty()) return;
  UpServer c(node_server("everything", script, {"stdio"}));
  ProgressRecorder progress;
  Json done = result_json(call_tool(*c.registry, "mcp_everything_trigger_long_running_operation",
                                    {{"duration", 1}, {"steps", 3}}, progress.context()));
  CHECK(done["result"].get<std::string>().find("completed") != std::string::npos);
  const std::vector<std::string> notes = progress.notes();
  REQUIRE(notes.size() == 3);
  CHECK(notes[0].rfind("mcp_everything_trigger_long_running_operation: 1/3", 0) == 0);
  CHECK(notes[2].rfind("mcp_everything_trigger_long_running_operation: 3/3", 0) == 0);
}

TEST_CASE("server-everything: bad arguments come back as an error result") {
  const std::string script = reference_server("server-everything");
  if (script.empty()) return;
  UpServer c(node_server("everything", script, {"stdio"}));
  auto r = call_tool(*c.registry, "mcp_everything_get_sum", {{"a", "not a number"}});
  REQUIRE_FALSE(r.ok());
  CHECK_FALSE(r.status().message().empty());
  // The server is still usable afterwards.
  Json sum = result_json(call_tool(*c.registry, "mcp_everything_get_sum", {{"a", 2}, {"b", 40}}));
  CHECK(sum["result"].get<std::string>().find("42") != std::string::npos);
}

TEST_CASE("server-memory: entities are created and read back") {
  const std::string script = reference_server("server-memory");
  if (script.empty()) return;
  TempDir dir;
  auto config = node_server("memory", script);
  config.env["MEMORY_FILE_PATH"] = dir.file("memory.jsonl");
  UpServer c(config);
  CHECK(c.registry->find("mcp_memory_delete_entities"));
  Json created =
      result_json(call_tool(*c.registry, "mcp_memory_create_entities",
                            {{"entities", Json::array({{{"name", "hermes"},
                                                        {"entityType", "library"},
                                                        {"observations", {"written in C++"}}}})}}));
  CHECK(created.dump().find("hermes") != std::string::npos);
  Json graph = result_json(call_tool(*c.registry, "mcp_memory_read_graph", Json::object()));
  CHECK(graph.dump().find("written in C++") != std::string::npos);
  CHECK(read_file(dir.file("memory.jsonl")).find("written in C++") != std::string::npos);
}

TEST_CASE("server-filesystem: an agent turn writes and reads a file through the server") {
  const std::string script = reference_server("server-filesystem");
  if (script.empty()) return;
  TempDir root;
  auto connected = std::make_unique<UpServer>(node_server("fs", script, {root.path()}));
  // The model is the loopback mock server, spoken to over HTTP like a real one.
  MockServer model;
  const std::string path = root.file("note.txt");
  model.enqueue(
      chat::tool_calls({{"", "mcp_fs_write_file",
                         internal::dump_json(Json{{"path", path}, {"content", "from the agent"}})}},
                       /*stream=*/true));
  model.enqueue(chat::tool_calls(
      {{"", "mcp_fs_read_text_file", internal::dump_json(Json{{"path", path}})}}, true));
  model.enqueue(chat::text("The note says: from the agent", true));

  TempDir home;
  AgentOptions o;
  o.provider.model = "mock-model";
  o.provider.base_url = model.base_url();
  o.provider.api_key = "sk-test";
  o.compression.context_length = 128000;  // No metadata probe.
  o.tools = connected->registry;
  o.home = home.path();
  o.persistence.enabled = false;
  int approvals = 0;
  o.callbacks.on_approval = [&](const ApprovalRequest& r) {
    ++approvals;
    CHECK(r.tool_name == "mcp_fs_write_file");
    return ApprovalDecision::kOnce;
  };
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("write a note and read it back");
  CHECK(r.completed);
  CHECK(r.final_response == "The note says: from the agent");
  CHECK(approvals == 1);
  CHECK(read_file(path) == "from the agent");
  std::vector<std::string> tool_texts;
  for (const auto& m : r.messages) {
    if (m.role == Role::kTool) tool_texts.push_back(m.content);
  }
  REQUIRE(tool_texts.size() == 2);
  CHECK(tool_texts[1].find("from the agent") != std::string::npos);
  // The model was offered the server's tools, and saw the file's text in the last request.
  const std::vector<RecordedRequest> requests = model.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].body.find("mcp_fs_list_directory") != std::string::npos);
  CHECK(requests[2].body.find("from the agent") != std::string::npos);
}

TEST_CASE("server-filesystem: a path outside the allowed roots is an error for that call only") {
  const std::string script = reference_server("server-filesystem");
  if (script.empty()) return;
  TempDir root;
  UpServer c(node_server("fs", script, {root.path()}));
  auto outside = call_tool(*c.registry, "mcp_fs_read_text_file", {{"path", "/etc/hostname"}});
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.status().message().find("ccess denied") != std::string::npos);
  Json listing =
      result_json(call_tool(*c.registry, "mcp_fs_list_allowed_directories", Json::object()));
  CHECK(listing.dump().find(root.path()) != std::string::npos);
}
