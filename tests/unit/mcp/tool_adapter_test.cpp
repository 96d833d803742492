// Server tools as hermes tool entries: names, schemas, filters, annotations.
#include "mcp/tool_adapter.hpp"

#include <doctest/doctest.h>

using namespace hermes;
using namespace hermes::internal;

TEST_CASE("tool names are prefixed and sanitised to what providers accept") {
  CHECK(mcp_tool_name("files", "read_file") == "mcp_files_read_file");
  CHECK(mcp_tool_name("my-server", "get-sum") == "mcp_my_server_get_sum");
  CHECK(mcp_tool_name("a.b", "x y/z") == "mcp_a_b_x_y_z");
  CHECK(mcp_toolset_name("my-server") == "mcp-my-server");
}

TEST_CASE("long tool names are cut to 64 characters and stay distinct") {
  const std::string a = mcp_tool_name("server", std::string(80, 'a') + "1");
  const std::string b = mcp_tool_name("server", std::string(80, 'a') + "2");
  CHECK(a.size() == 64);
  CHECK(b.size() == 64);
  CHECK(a != b);
  CHECK(a.rfind("mcp_server_aaaa", 0) == 0);
}

TEST_CASE("schemas are completed when sparse and refused when a provider would reject them") {
  CHECK(*normalize_input_schema(Json()) ==
        Json{{"type", "object"}, {"properties", Json::object()}});
  CHECK(*normalize_input_schema(Json{{"type", "object"}}) ==
        Json{{"type", "object"}, {"properties", Json::object()}});
  CHECK((*normalize_input_schema(Json{{"properties", {{"x", {{"type", "string"}}}}}}))["type"] ==
        "object");
  Json full = Json::parse(
      R"({"$schema":"x","type":"object","properties":{"a":{"type":"number"}},"required":["a"]})");
  CHECK(*normalize_input_schema(full) == full);
  CHECK(normalize_input_schema(Json::array()).status().message() ==
        "inputSchema is not a JSON object");
  CHECK(normalize_input_schema(Json{{"type", "array"}}).status().message() ==
        "inputSchema type is \"array\", not \"object\"");
  CHECK(normalize_input_schema(Json{{"type", "object"}, {"properties", 3}}).status().message() ==
        "inputSchema properties is not an object");
  CHECK(normalize_input_schema(Json{{"type", "object"}, {"required", "a"}}).status().message() ==
        "inputSchema required is not an array of strings");
}

TEST_CASE("selection applies filters, skips invalid tools and reads the destructive hint") {
  McpServerConfig config;
  config.name = "srv";
  config.exclude_tools = {"hidden"};
  std::vector<Json> listed = {
      Json::parse(
          R"({"name":"keep","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true}})"),
      Json::parse(R"({"name":"hidden","inputSchema":{"type":"object"}})"),
      Json::parse(R"({"name":"bad","inputSchema":{"type":"string"}})"),
      Json::parse(R"({"description":"no name"})"),
      Json::parse(R"({"name":"plain","description":"Plain tool"})"),
  };
  McpToolSelection s = select_tools(config, listed);
  REQUIRE(s.tools.size() == 2);
  CHECK(s.tools[0].name == "mcp_srv_keep");
  CHECK(s.tools[0].destructive);
  CHECK(s.tools[0].description == "MCP tool keep from srv");
  CHECK(s.tools[1].name == "mcp_srv_plain");
  CHECK_FALSE(s.tools[1].destructive);
  CHECK(s.tools[1].description == "Plain tool");
  CHECK(s.skipped == std::vector<std::string>{"bad: inputSchema type is \"string\", not \"object\"",
                                              "(unnamed): the tool has no name"});
  config.include_tools = {"plain"};
  CHECK(select_tools(config, listed).tools.size() == 1);
}

TEST_CASE("two server tools that sanitise to one name keep the first") {
  McpServerConfig config;
  config.name = "s";
  McpToolSelection sel = select_tools(config, {Json{{"name", "a-b"}}, Json{{"name", "a_b"}}});
  REQUIRE(sel.tools.size() == 1);
  CHECK(sel.tools[0].mcp_name == "a-b");
  REQUIRE(sel.skipped.size() == 1);
  CHECK(sel.skipped[0] ==
        "a_b: its hermes name 'mcp_s_a_b' is taken by another tool of the server");
}
