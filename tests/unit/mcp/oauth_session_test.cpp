// Servers behind OAuth, end to end: tests/fixtures/mcp/fake_oauth_server.py is the MCP
// server and its authorization server, and the authorization handler plays the user.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "http_server_process.hpp"
#include "mcp/oauth_url.hpp"
#include "mcp_test_support.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

// A user who consents at once to every scope asked for: the browser lands on the
// redirect URI with a code the fake server accepts (naming the scope) and the state it
// was given (or `state` instead, when set).
struct FakeUser {
  std::atomic<int> visits{0};
  std::string last_url;
  std::string state;

  McpAuthorizationHandler handler() {
    return [this](const std::string& url) -> Result<std::string> {
      ++visits;
      last_url = url;
      auto params = internal::query_parameters(url);
      const std::string code = "good-code:" + params["scope"];
      return params["redirect_uri"] + "?" +
             internal::form_encode(
                 {{"code", code}, {"state", state.empty() ? params["state"] : state}});
    };
  }
};

McpServerConfig oauth_config(const HttpServerProcess& server, const TempDir& dir, FakeUser& user) {
  McpServerConfig c = server.config("guarded");
  c.max_restarts = 0;
  c.oauth.on_authorize = user.handler();
  c.oauth.token_dir = dir.path();
  return c;
}

std::string read_token_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Connects `config` alone and returns why it is not connected ("" when it is).
std::string connect_error(McpServerConfig config) {
  auto registry = std::make_shared<ToolRegistry>();
  auto servers = McpServers::connect({std::move(config)}, registry);
  REQUIRE(servers.ok());
  const McpServerStatus status = (*servers)->status().at(0);
  return status.connected ? "" : status.last_error.message();
}

}  // namespace

TEST_CASE("a server behind OAuth is authorized through the handler and its tools work") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  auto registry = std::make_shared<ToolRegistry>();
  auto servers = McpServers::connect({oauth_config(*server, dir, user)}, registry);
  REQUIRE(servers.ok());
  REQUIRE((*servers)->status().at(0).connected);
  CHECK(user.visits == 1);
  const auto params = internal::query_parameters(user.last_url);
  CHECK(params.at("code_challenge_method") == "S256");
  CHECK(params.at("code_challenge").size() == 43);
  CHECK(params.at("resource") == server->url());
  CHECK(params.at("scope") == "files:read");  // The resource's scopes_supported.
  auto answer = call_tool(*registry, "mcp_guarded_whoami", Json::object());
  REQUIRE(answer.ok());
  const std::size_t at = answer->find("tok-");
  REQUIRE(at != std::string::npos);
  const std::string token = answer->substr(at, 36);

  struct stat info {};
  REQUIRE(::stat(dir.file("guarded.json").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  CHECK(read_token_file(dir.file("guarded.json")).find(token) != std::string::npos);
  CHECK(read_token_file(dir.file("guarded.client.json")).find("client-") != std::string::npos);
}

TEST_CASE("a stored token is reused by the next connection without asking the user") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  CHECK(connect_error(oauth_config(*server, dir, user)).empty());
  CHECK(connect_error(oauth_config(*server, dir, user)).empty());
  CHECK(user.visits == 1);
}

TEST_CASE("an expired token is refreshed instead of asking the user again") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py", {"--expires-in", "1"});
  TempDir dir;
  FakeUser user;
  auto registry = std::make_shared<ToolRegistry>();
  auto servers = McpServers::connect({oauth_config(*server, dir, user)}, registry);
  REQUIRE(servers.ok());
  REQUIRE((*servers)->status().at(0).connected);
  auto grants = call_tool(*registry, "mcp_guarded_grants", Json::object());
  REQUIRE(grants.ok());
  CHECK(grants->find("authorization_code refresh_token") != std::string::npos);
  CHECK(user.visits == 1);
}

TEST_CASE("tokens are not written when persisting is off") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  McpServerConfig config = oauth_config(*server, dir, user);
  config.oauth.persist_tokens = false;
  CHECK(connect_error(config).empty());
  CHECK(::access(dir.file("guarded.json").c_str(), F_OK) != 0);
}

TEST_CASE("a state that is not the one sent is refused as a forgery") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  user.state = "forged";
  CHECK(connect_error(oauth_config(*server, dir, user)).find("state") != std::string::npos);
}

TEST_CASE("bad answers from the authorization side fail the connection with a named reason") {
  struct Case {
    std::vector<std::string> flags;
    std::string reason;
  };
  const Case cases[] = {
      {{"--bad-prm"}, "protected resource metadata"},
      {{"--bad-as-metadata"}, "token_endpoint"},
      {{"--token-garbage"}, "not JSON"},
      {{"--token-error"}, "invalid_grant (code expired)"},
      {{"--wrong-resource"}, "http://elsewhere.example/mcp"},
      {{"--wrong-issuer"}, "names the issuer https://other.example, not http://127.0.0.1:"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.flags.front());
    auto server = HttpServerProcess::fixture("fake_oauth_server.py", c.flags);
    TempDir dir;
    FakeUser user;
    const std::string error = connect_error(oauth_config(*server, dir, user));
    CHECK(error.find("MCP server 'guarded'") != std::string::npos);
    CHECK(error.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("a redirect URI in plain http to another host is refused before the user is asked") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  McpServerConfig config = oauth_config(*server, dir, user);
  config.oauth.redirect_uri = "http://callback.example/cb";
  const std::string error = connect_error(config);
  CHECK(error.find("the redirect URI http://callback.example/cb is plain http") !=
        std::string::npos);
  CHECK(user.visits == 0);
}

TEST_CASE("a failing or missing authorization handler fails only its own server") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  McpServerConfig failing = oauth_config(*server, dir, user);
  failing.oauth.on_authorize = [](const std::string&) -> Result<std::string> {
    return Status::cancelled("the user closed the browser");
  };
  McpServerConfig throwing = oauth_config(*server, dir, user);
  throwing.name = "throwing";
  throwing.oauth.on_authorize = [](const std::string&) -> Result<std::string> {
    throw std::runtime_error("no display");
  };
  McpServerConfig missing = oauth_config(*server, dir, user);
  missing.name = "missing";
  missing.oauth.on_authorize = nullptr;
  auto registry = std::make_shared<ToolRegistry>();
  auto servers = McpServers::connect({failing, throwing, missing, fake_server("local")}, registry);
  REQUIRE(servers.ok());
  const auto status = (*servers)->status();
  CHECK(status[0].last_error.message().find("the user closed the browser") != std::string::npos);
  CHECK(status[1].last_error.message().find("no display") != std::string::npos);
  CHECK(status[2].last_error.message().find("on_authorize") != std::string::npos);
  CHECK(status[3].connected);
}

TEST_CASE("a call that needs more scope authorizes again for it, once") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  auto registry = std::make_shared<ToolRegistry>();
  auto servers = McpServers::connect({oauth_config(*server, dir, user)}, registry);
  REQUIRE(servers.ok());
  REQUIRE((*servers)->status().at(0).connected);
  CHECK(call_tool(*registry, "mcp_guarded_write", Json::object()).ok());
  CHECK(user.visits == 2);
  CHECK(internal::query_parameters(user.last_url).at("scope") == "files:read files:write");
  // The new token keeps the old scope too, and the next call needs no other.
  CHECK(call_tool(*registry, "mcp_guarded_write", Json::object()).ok());
  CHECK(call_tool(*registry, "mcp_guarded_whoami", Json::object()).ok());
  CHECK(user.visits == 2);
}

TEST_CASE("a server that refuses a token with the very scope it asks for is not asked again") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  auto registry = std::make_shared<ToolRegistry>();
  auto servers = McpServers::connect({oauth_config(*server, dir, user)}, registry);
  REQUIRE(servers.ok());
  auto refused = call_tool(*registry, "mcp_guarded_forbidden", Json::object());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("403") != std::string::npos);
  CHECK(user.visits == 1);
}

TEST_CASE("configured credentials, or OAuth turned off, make a 401 an error without asking") {
  auto server = HttpServerProcess::fixture("fake_oauth_server.py");
  TempDir dir;
  FakeUser user;
  McpServerConfig with_header = oauth_config(*server, dir, user);
  with_header.headers["Authorization"] = "Bearer from-the-config";
  CHECK(connect_error(with_header).find("HTTP 401") != std::string::npos);
  McpServerConfig disabled = oauth_config(*server, dir, user);
  disabled.oauth.enabled = false;
  CHECK(connect_error(disabled).find("HTTP 401") != std::string::npos);
  CHECK(user.visits == 0);
}
