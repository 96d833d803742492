// Keeping tokens and client registrations between connections.
#include "mcp/oauth_token_store.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

using namespace hermes::internal;
using hermes::testing::TempDir;

TEST_CASE("tokens and the client survive a round trip through their files") {
  TempDir dir;
  const OAuthTokenStore store(dir.file("tokens"), "files");
  OAuthTokens tokens;
  tokens.access_token = "at";
  tokens.refresh_token = "rt";
  tokens.scope = "a b";
  tokens.expires_at = 1'900'000'000;
  tokens.server_url = "https://x.example/mcp";
  REQUIRE(store.save_tokens(tokens).ok());
  REQUIRE(store.save_client({"id", "secret", "client_secret_post", "https://auth"}).ok());

  const OAuthTokenStore reopened(dir.file("tokens"), "files");
  auto loaded = reopened.load_tokens();
  REQUIRE(loaded.has_value());
  CHECK(loaded->access_token == "at");
  CHECK(loaded->refresh_token == "rt");
  CHECK(loaded->scope == "a b");
  CHECK(loaded->expires_at == 1'900'000'000);
  CHECK(loaded->server_url == "https://x.example/mcp");
  auto client = reopened.load_client();
  REQUIRE(client.has_value());
  CHECK(client->client_secret == "secret");
  CHECK(client->token_endpoint_auth_method == "client_secret_post");
  CHECK(client->issuer == "https://auth");
}

TEST_CASE("token files are readable by the user alone") {
  TempDir dir;
  const OAuthTokenStore store(dir.file("tokens"), "files");
  REQUIRE(store.save_tokens({"at", "Bearer", "", "", 0, ""}).ok());
  struct stat info {};
  REQUIRE(::stat(store.tokens_path().c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  REQUIRE(::stat(dir.file("tokens").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);
}

TEST_CASE("server names become safe file names") {
  const OAuthTokenStore store("/dir", "../evil/name");
  CHECK(store.tokens_path() == "/dir/evil_name.json");
  CHECK(store.client_path() == "/dir/evil_name.client.json");
  CHECK(OAuthTokenStore("/dir", "///").tokens_path() == "/dir/default.json");
}

TEST_CASE("missing, corrupt and tokenless files read as nothing") {
  TempDir dir;
  const OAuthTokenStore store(dir.path(), "s");
  CHECK_FALSE(store.load_tokens().has_value());
  std::ofstream(store.tokens_path()) << "{not json";
  CHECK_FALSE(store.load_tokens().has_value());
  std::ofstream(store.tokens_path()) << R"({"token_type": "Bearer"})";
  CHECK_FALSE(store.load_tokens().has_value());
  std::ofstream(store.client_path()) << R"(["client"])";
  CHECK_FALSE(store.load_client().has_value());
}

TEST_CASE("an expiry is absolute and a margin before it counts as expired") {
  OAuthTokens tokens;
  tokens.expires_at = 1000;
  CHECK(tokens.expired(1000));
  CHECK(tokens.expired(975));
  CHECK_FALSE(tokens.expired(900));
  tokens.expires_at = 0;
  CHECK_FALSE(tokens.expired(1'000'000));
}

TEST_CASE("a store without a directory keeps nothing") {
  const OAuthTokenStore store("", "s");
  CHECK(store.save_tokens({"at", "Bearer", "", "", 0, ""}).ok());
  CHECK_FALSE(store.load_tokens().has_value());
}

TEST_CASE("the token directory and the home it is created in are private under umask 0") {
  TempDir base;
  hermes::testing::ScopedUmask open_umask(0);
  const OAuthTokenStore store(base.file("home/mcp-tokens"), "github");
  OAuthTokens tokens;
  tokens.access_token = "at";
  REQUIRE(store.save_tokens(tokens).ok());
  struct stat info {};
  for (const char* dir : {"home", "home/mcp-tokens"}) {
    CAPTURE(dir);
    REQUIRE(::stat(base.file(dir).c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
  }
  REQUIRE(::stat(base.file("home/mcp-tokens/github.json").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
}
