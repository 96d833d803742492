// Where the tokens of an authorized MCP server and the client it registered are kept
// between connections: "<dir>/<server>.json" and "<dir>/<server>.client.json", readable
// by the user alone, as the Python runtime keeps them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

struct OAuthTokens {
  std::string access_token;
  std::string token_type = "Bearer";
  std::string refresh_token;
  std::string scope;       // As granted (else as asked for), space-separated.
  int64_t expires_at = 0;  // Unix seconds; 0 when the server gave no lifetime.
  std::string server_url;  // The MCP server they were obtained for.

  // True when the token has expired or will within `margin_seconds`.
  bool expired(int64_t now_unix, int64_t margin_seconds = 30) const {
    return expires_at != 0 && now_unix + margin_seconds >= expires_at;
  }
};

// The clock tokens' expiry is kept in: Unix seconds.
int64_t unix_seconds_now();

// The client identity used with one authorization server.
struct OAuthClientInfo {
  std::string client_id;
  std::string client_secret;
  std::string token_endpoint_auth_method;  // As registered; empty when not said.
  std::string issuer;                      // The authorization server it belongs to.
};

Json tokens_to_json(const OAuthTokens& tokens);
// nullopt when `doc` is not a token object with an access_token.
std::optional<OAuthTokens> tokens_from_json(const Json& doc);
Json client_to_json(const OAuthClientInfo& client);
std::optional<OAuthClientInfo> client_from_json(const Json& doc);

// Thread-safety: none; the owner serialises calls.
class OAuthTokenStore {
 public:
  // `dir` empty: nothing is read or written.
  OAuthTokenStore(std::string dir, const std::string& server_name);

  // Missing, unreadable or corrupt files read as nothing (a corrupt one is logged).
  std::optional<OAuthTokens> load_tokens() const;
  std::optional<OAuthClientInfo> load_client() const;

  // Replaces the file atomically, created with mode 0600 in a directory of mode 0700.
  Status save_tokens(const OAuthTokens& tokens) const;
  Status save_client(const OAuthClientInfo& client) const;
  void forget_tokens() const;

  std::string tokens_path() const;
  std::string client_path() const;

 private:
  std::optional<Json> read(const std::string& path) const;
  Status write(const std::string& path, const Json& doc) const;

  std::string dir_;
  std::string stem_;  // The server's name made safe for a file name.
};

}  // namespace hermes::internal
