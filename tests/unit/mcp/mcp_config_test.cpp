// Reading mcp.json.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "hermes/mcp.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;

TEST_CASE("a full server entry is read with every field") {
  ::setenv("HERMES_MCP_TEST_TOKEN", "s3cret", 1);
  auto r = parse_mcp_config(R"({"mcpServers": {
    "files": {"command": "npx", "args": ["-y", "pkg", "${HERMES_MCP_TEST_TOKEN}"],
              "env": {"A": "1", "N": 2}, "cwd": "/tmp",
              "tools": {"include": ["read"], "exclude": ["write"]},
              "timeout": 1.5, "connect_timeout": 10, "parallel": true,
              "destructive_needs_approval": false, "max_restarts": 2},
    "remote": {"url": "https://example.invalid/mcp", "headers": {"Authorization": "Bearer ${HERMES_MCP_TEST_TOKEN}"},
               "disabled": true}}})");
  REQUIRE(r.ok());
  REQUIRE(r->size() == 2);
  const McpServerConfig& f = (*r)[0];
  CHECK(f.name == "files");
  CHECK(f.command == "npx");
  CHECK(f.args == std::vector<std::string>{"-y", "pkg", "s3cret"});
  CHECK(f.env == std::map<std::string, std::string>{{"A", "1"}, {"N", "2"}});
  CHECK(f.cwd == "/tmp");
  CHECK(f.include_tools == std::vector<std::string>{"read"});
  CHECK(f.exclude_tools == std::vector<std::string>{"write"});
  CHECK(f.call_timeout == std::chrono::milliseconds(1500));
  CHECK(f.connect_timeout == std::chrono::seconds(10));
  CHECK(f.parallel_calls);
  CHECK_FALSE(f.destructive_needs_approval);
  CHECK(f.max_restarts == 2);
  const McpServerConfig& remote = (*r)[1];
  CHECK(remote.url == "https://example.invalid/mcp");
  CHECK(remote.headers.at("Authorization") == "Bearer s3cret");
  CHECK_FALSE(remote.enabled);
}

TEST_CASE("errors name the offending key") {
  auto message = [](const char* text) { return parse_mcp_config(text).status().message(); };
  CHECK(message("{") == "MCP config is not valid JSON");
  CHECK(message(R"({"mcpServers": []})") == "mcpServers: expected an object of servers");
  CHECK(message(R"({"mcpServers": {"a": 3}})") == "mcpServers.a: expected an object");
  CHECK(message(R"({"mcpServers": {"a": {"command": 1}}})") ==
        "mcpServers.a.command: expected a string");
  CHECK(message(R"({"mcpServers": {"a": {"command": "x", "args": ["ok", 2]}}})") ==
        "mcpServers.a.args[1]: expected a string");
  CHECK(message(R"({"mcpServers": {"a": {"command": "x", "env": {"K": []}}}})") ==
        "mcpServers.a.env.K: expected a string");
  CHECK(message(R"({"mcpServers": {"a": {"command": "x", "timeout": -1}}})") ==
        "mcpServers.a.timeout: expected a positive number of seconds");
  CHECK(message(R"({"mcpServers": {"a": {"command": "x", "tools": {"include": "one"}}}})") ==
        "mcpServers.a.tools.include: expected an array of strings");
  CHECK(message(R"({"mcpServers": {"a": {"args": []}}})") ==
        "mcpServers.a: needs \"command\" (a local server) or \"url\" (a remote one)");
  CHECK(message(R"({"mcpServers": {"a": {"command": "x", "url": "http://h"}}})") ==
        "mcpServers.a: has both \"command\" and \"url\"; keep one");
}

TEST_CASE("unknown keys are ignored and an empty document has no servers") {
  auto r =
      parse_mcp_config(R"({"mcpServers": {"a": {"command": "x", "autoApprove": []}}, "other": 1})");
  REQUIRE(r.ok());
  CHECK(r->size() == 1);
  CHECK(parse_mcp_config("{}")->empty());
}

TEST_CASE("the config file is read from the home and a missing one is NotFound") {
  hermes::testing::TempDir home;
  CHECK(default_mcp_config_path(home.path()) == home.path() + "/mcp.json");
  CHECK(load_mcp_config(home.file("mcp.json")).status().code() == StatusCode::kNotFound);
  std::ofstream(home.file("mcp.json")) << R"({"mcpServers": {"m": {"command": "mem"}}})";
  auto r = load_mcp_config(home.file("mcp.json"));
  REQUIRE(r.ok());
  CHECK((*r)[0].command == "mem");
  std::ofstream(home.file("bad.json")) << R"({"mcpServers": {"m": {"command": false}}})";
  CHECK(load_mcp_config(home.file("bad.json")).status().message() ==
        home.file("bad.json") + ": mcpServers.m.command: expected a string");
}

TEST_CASE("a remote server's oauth section is read, and a bad grant type is named") {
  auto r = parse_mcp_config(R"({"mcpServers": {"remote": {"url": "https://x.example/mcp",
    "oauth": {"client_id": "id", "client_secret": "secret", "scope": "a b",
              "client_metadata_url": "https://me.example/client.json",
              "redirect_uri": "http://127.0.0.1:7000/cb", "persist_tokens": false,
              "token_dir": "/tokens", "grant_type": "client_credentials"}}}})");
  REQUIRE(r.ok());
  const McpOAuthConfig& oauth = r->at(0).oauth;
  CHECK(oauth.enabled);
  CHECK(oauth.client_id == "id");
  CHECK(oauth.client_secret == "secret");
  CHECK(oauth.scope == "a b");
  CHECK(oauth.client_metadata_url == "https://me.example/client.json");
  CHECK(oauth.redirect_uri == "http://127.0.0.1:7000/cb");
  CHECK_FALSE(oauth.persist_tokens);
  CHECK(oauth.token_dir == "/tokens");
  CHECK(oauth.grant_type == "client_credentials");

  auto bad = parse_mcp_config(
      R"({"mcpServers": {"remote": {"url": "https://x", "oauth": {"grant_type": "password"}}}})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("mcpServers.remote.oauth.grant_type") != std::string::npos);
  auto wrong_type =
      parse_mcp_config(R"({"mcpServers": {"remote": {"url": "https://x", "oauth": true}}})");
  REQUIRE_FALSE(wrong_type.ok());
  CHECK(wrong_type.status().message() == "mcpServers.remote.oauth: expected an object");
}
