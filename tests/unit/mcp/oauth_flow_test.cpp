// The pieces of the exchanges with an authorization server that need no server.
#include "mcp/oauth_flow.hpp"

#include <doctest/doctest.h>

#include "mcp/oauth_url.hpp"

using namespace hermes::internal;

TEST_CASE("the token endpoint auth method follows the registration, then the server") {
  AuthorizationServerMetadata server;
  OAuthClientInfo client{"id", "secret", "", ""};
  CHECK(token_endpoint_auth_method(server, client) == "client_secret_basic");
  server.token_endpoint_auth_methods_supported = {"client_secret_post"};
  CHECK(token_endpoint_auth_method(server, client) == "client_secret_post");
  server.token_endpoint_auth_methods_supported = {"client_secret_post", "client_secret_basic"};
  CHECK(token_endpoint_auth_method(server, client) == "client_secret_basic");
  client.token_endpoint_auth_method = "client_secret_post";
  CHECK(token_endpoint_auth_method(server, client) == "client_secret_post");
  CHECK(token_endpoint_auth_method(server, {"id", "", "", ""}) == "none");
}

TEST_CASE("the authorization URL carries PKCE, state, scope and resource") {
  AuthorizationServerMetadata server;
  server.authorization_endpoint = "https://auth.example/authorize?tenant=a";
  AuthorizationRequest request{"https://me.example/client.json",
                               "http://127.0.0.1:9/cb",
                               "a b",
                               "https://x.example/mcp",
                               "st",
                               "ch"};
  const std::string url = authorization_url(server, request);
  CHECK(url.rfind("https://auth.example/authorize?tenant=a&response_type=code&", 0) == 0);
  auto params = query_parameters(url);
  CHECK(params["client_id"] == "https://me.example/client.json");
  CHECK(params["redirect_uri"] == "http://127.0.0.1:9/cb");
  CHECK(params["scope"] == "a b");
  CHECK(params["resource"] == "https://x.example/mcp");
  CHECK(params["state"] == "st");
  CHECK(params["code_challenge"] == "ch");
  CHECK(params["code_challenge_method"] == "S256");
  request.scope.clear();
  CHECK(query_parameters(authorization_url(server, request)).count("scope") == 0);
}

TEST_CASE("the code is read from the redirect only when the state matches") {
  auto code = authorization_code_from("http://127.0.0.1/cb?code=c%2B1&state=s", "s");
  REQUIRE(code.ok());
  CHECK(*code == "c+1");
  CHECK(*authorization_code_from("  pasted-code \n", "s") == "pasted-code");
  CHECK(authorization_code_from("http://127.0.0.1/cb?code=c&state=t", "s")
            .status()
            .message()
            .find("state") != std::string::npos);
  CHECK(
      authorization_code_from("http://127.0.0.1/cb?code=c", "s").status().message().find("state") !=
      std::string::npos);
  CHECK(authorization_code_from("http://127.0.0.1/cb?state=s", "s")
            .status()
            .message()
            .find("without a code") != std::string::npos);
  CHECK(authorization_code_from("http://127.0.0.1/cb?error=access_denied&error_description=no+way",
                                "s")
            .status()
            .message() == "the authorization server refused: access_denied (no way)");
  CHECK_FALSE(authorization_code_from("", "s").ok());
}

TEST_CASE("form encoding escapes everything but unreserved characters") {
  CHECK(form_encode({{"a b", "x&y=z"}, {"k", "~._-"}}) == "a%20b=x%26y%3Dz&k=~._-");
  CHECK(query_parameters("a=1&a=2&b=%zz&c") ==
        std::map<std::string, std::string>{{"a", "1"}, {"b", "%zz"}, {"c", ""}});
  CHECK(canonical_resource("HTTPS://X.Example/MCP/?q#f") == "https://x.example/MCP");
  CHECK_FALSE(split_url("mailto:x@y").has_value());
}
