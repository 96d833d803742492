// Where OAuth discovery looks and what it reads: challenges, metadata URLs in the MCP
// specification's order, metadata documents, resource checks and scope selection.
#include "mcp/oauth_discovery.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "common/json_text.hpp"
#include "mcp/oauth_session.hpp"
#include "mcp/oauth_url.hpp"

using namespace hermes;
using namespace hermes::internal;

namespace {

Json cases(const char* section) {
  std::ifstream in(std::string(HERMES_FIXTURES_DIR) + "/mcp/oauth_discovery.json");
  std::ostringstream text;
  text << in.rdbuf();
  auto doc = parse_json(text.str());
  REQUIRE(doc.has_value());
  return (*doc)[section];
}

}  // namespace

TEST_CASE("Bearer challenges are read with quoted, bare and escaped values") {
  for (const Json& c : cases("challenges")) {
    CAPTURE(c["header"].get<std::string>());
    const BearerChallenge challenge = parse_bearer_challenge(c["header"].get<std::string>());
    CHECK(challenge.error == c["error"].get<std::string>());
    CHECK(challenge.scope == c["scope"].get<std::string>());
    CHECK(challenge.resource_metadata == c["resource_metadata"].get<std::string>());
  }
}

TEST_CASE(
    "protected resource metadata is looked for at the challenge's URL, then with and "
    "without the server's path") {
  for (const Json& c : cases("resource_metadata_urls")) {
    CAPTURE(c["server_url"].get<std::string>());
    CHECK(protected_resource_metadata_urls(c["server_url"].get<std::string>(),
                                           c["from_challenge"].get<std::string>()) ==
          c["urls"].get<std::vector<std::string>>());
  }
}

TEST_CASE(
    "authorization server metadata is looked for with path insertion, OAuth before "
    "OpenID") {
  for (const Json& c : cases("server_metadata_urls")) {
    CAPTURE(c["issuer"].get<std::string>());
    CHECK(authorization_server_metadata_urls(c["issuer"].get<std::string>()) ==
          c["urls"].get<std::vector<std::string>>());
  }
}

TEST_CASE("scopes are chosen as the MCP scope selection strategy says") {
  for (const Json& c : cases("scope_selection")) {
    CAPTURE(c["name"].get<std::string>());
    BearerChallenge challenge;
    challenge.scope = c["challenge"].get<std::string>();
    OAuthDiscovery found;
    found.resource.scopes_supported = c["resource"].get<std::vector<std::string>>();
    found.server.scopes_supported = c["server"].get<std::vector<std::string>>();
    CHECK(select_scope(c["configured"].get<std::string>(), challenge, found,
                       c["wants_refresh"].get<bool>()) == c["expected"].get<std::string>());
  }
}

TEST_CASE("a resource covers its own URL and the paths below it, on the same origin only") {
  CHECK(resource_covers("http://localhost:3000/mcp", "http://localhost:3000/mcp"));
  CHECK(resource_covers("http://localhost:3000", "http://localhost:3000/mcp"));
  CHECK(resource_covers("HTTP://LocalHost:3000/", "http://localhost:3000/mcp"));
  CHECK(resource_covers("https://x.example/api", "https://x.example/api/mcp"));
  CHECK_FALSE(resource_covers("https://x.example/api", "https://x.example/apis/mcp"));
  CHECK_FALSE(resource_covers("https://evil.example.com/mcp", "http://localhost:3000/mcp"));
  CHECK_FALSE(resource_covers("http://localhost:3001/mcp", "http://localhost:3000/mcp"));
  CHECK_FALSE(resource_covers("not a url", "http://localhost:3000/mcp"));
}

TEST_CASE("well-formed metadata documents are read field by field") {
  auto resource = parse_protected_resource_metadata(
      R"({"resource": "https://x.example/mcp", "authorization_servers": ["https://auth.example"],
          "scopes_supported": ["a", "b"], "extra": 1})",
      "prm");
  REQUIRE(resource.ok());
  CHECK(resource->authorization_servers == std::vector<std::string>{"https://auth.example"});
  CHECK(resource->scopes_supported == std::vector<std::string>{"a", "b"});

  auto server = parse_authorization_server_metadata(
      R"({"issuer": "https://auth.example", "authorization_endpoint": "https://auth.example/a",
          "token_endpoint": "https://auth.example/t", "client_id_metadata_document_supported": true,
          "token_endpoint_auth_methods_supported": ["client_secret_post"]})",
      "asm");
  REQUIRE(server.ok());
  CHECK(server->token_endpoint == "https://auth.example/t");
  CHECK(server->registration_endpoint.empty());
  CHECK(server->client_id_metadata_document_supported);
  CHECK(server->token_endpoint_auth_methods_supported ==
        std::vector<std::string>{"client_secret_post"});
}

TEST_CASE("malformed metadata is an error that names the document and the field") {
  struct Case {
    const char* text;
    const char* reason;
  };
  const Case resource_cases[] = {
      {"<html>", "prm is not a JSON object"},
      {"[1]", "prm is not a JSON object"},
      {R"({"authorization_servers": ["https://a.example"]})", "no \"resource\""},
      {R"({"resource": 5, "authorization_servers": ["https://a.example"]})", "\"resource\" is not"},
      {R"({"resource": "https://x.example"})", "names no authorization server"},
      {R"({"resource": "https://x.example", "authorization_servers": "https://a"})",
       "not an array of strings"},
      {R"({"resource": "https://x.example", "authorization_servers": ["javascript:x"]})",
       "not an http(s) URL"},
  };
  for (const Case& c : resource_cases) {
    CAPTURE(c.text);
    auto parsed = parse_protected_resource_metadata(c.text, "prm");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message().find(c.reason) != std::string::npos);
  }
  const Case server_cases[] = {
      {"", "asm is not a JSON object"},
      {R"({"issuer": "https://a"})", "no \"token_endpoint\""},
      {R"({"token_endpoint": "file:///etc/passwd"})", "not an http(s) URL"},
      {R"({"token_endpoint": "https://a/t", "scopes_supported": [1]})", "not an array of strings"},
  };
  for (const Case& c : server_cases) {
    CAPTURE(c.text);
    auto parsed = parse_authorization_server_metadata(c.text, "asm");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message().find(c.reason) != std::string::npos);
  }
}

TEST_CASE("a server without metadata is authorized at /authorize, /token and /register") {
  const AuthorizationServerMetadata m = default_authorization_server("http://localhost:3000/mcp");
  CHECK(m.authorization_endpoint == "http://localhost:3000/authorize");
  CHECK(m.token_endpoint == "http://localhost:3000/token");
  CHECK(m.registration_endpoint == "http://localhost:3000/register");
}

TEST_CASE("OAuth talks https, or plain http only to a loopback address") {
  for (const char* url :
       {"https://auth.example/token", "HTTPS://Auth.Example", "http://127.0.0.1:8080/t",
        "http://127.3.4.5/t", "http://localhost:3000/mcp", "http://[::1]:9/cb",
        "http://user@localhost/x"}) {
    CAPTURE(url);
    CHECK(internal::is_secure_oauth_url(url));
  }
  for (const char* url : {"http://auth.example/token", "http://127.0.0.1.evil.example/t",
                          "http://localhost.evil.example/", "http://[::2]/", "http://10.0.0.1/t",
                          "http://localhost@evil.example/", "ftp://127.0.0.1/", "not a url"}) {
    CAPTURE(url);
    CHECK_FALSE(internal::is_secure_oauth_url(url));
  }
}

TEST_CASE("metadata naming plain-http endpoints off loopback is refused, naming the field") {
  auto server = parse_authorization_server_metadata(
      R"({"issuer": "https://auth.example", "authorization_endpoint": "https://auth.example/a",
          "token_endpoint": "http://auth.example/t"})",
      "asm");
  REQUIRE_FALSE(server.ok());
  CHECK(server.status().message() ==
        "asm: \"token_endpoint\" http://auth.example/t is not https; OAuth over plain http is "
        "allowed only to a loopback address (localhost, 127.0.0.1, [::1])");
  CHECK(parse_authorization_server_metadata(
            R"({"issuer": "http://127.0.0.1:7", "token_endpoint": "http://127.0.0.1:7/t"})", "asm")
            .ok());
  auto resource = parse_protected_resource_metadata(
      R"({"resource": "https://x.example/mcp", "authorization_servers": ["http://auth.example"]})",
      "prm");
  REQUIRE_FALSE(resource.ok());
  CHECK(resource.status().message().find("authorization server http://auth.example is not https") !=
        std::string::npos);
}

TEST_CASE("discovery refuses a plain-http server before sending it anything") {
  OAuthHttpLimits limits;
  auto found = discover_authorization("http://mcp.example/mcp", BearerChallenge{}, limits);
  REQUIRE_FALSE(found.ok());
  CHECK(found.status().message().find("the server http://mcp.example/mcp is not https") !=
        std::string::npos);
  BearerChallenge challenge;
  challenge.resource_metadata = "http://evil.example/.well-known/oauth-protected-resource";
  found = discover_authorization("https://mcp.example/mcp", challenge, limits);
  REQUIRE_FALSE(found.ok());
  CHECK(found.status().message().find("resource metadata at http://evil.example") !=
        std::string::npos);
}
