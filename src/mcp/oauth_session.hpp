// The OAuth authorization of one MCP server across its connections: the token its
// requests carry, and what to do when the server refuses one.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "hermes/cancel.hpp"
#include "hermes/mcp.hpp"
#include "mcp/oauth_discovery.hpp"
#include "mcp/oauth_token_store.hpp"
#include "providers/http_client.hpp"

namespace hermes::internal {

// The scopes to ask for (MCP's scope selection strategy): the configured ones, else the
// challenge's, else all the protected resource advertises, else none. offline_access is
// added to a non-empty choice when the authorization server offers it and the grant can
// use a refresh token.
std::string select_scope(const std::string& configured, const BearerChallenge& challenge,
                         const OAuthDiscovery& found, bool wants_refresh_token);

// Thread-safety: every method may be called from any thread. Authorizations are
// serialised: a request refused while another one authorizes waits for its token.
class OAuthSession {
 public:
  struct Options {
    McpOAuthConfig config;
    std::string server_name;  // Names the token files.
    std::string server_url;
    std::string label;                               // "MCP server 'x'", for messages.
    std::chrono::milliseconds http_timeout{30'000};  // Each discovery or token request.
  };

  explicit OAuthSession(Options options);

  // The Authorization header line for the next request, "" before there is a token. An
  // expired token is refreshed first when it can be.
  std::string authorization(const CancelToken& cancel);

  // A request sent with `sent` (its Authorization line, "" for none) was answered with
  // `head`. True: a new token may pass, send the request again. False: not a refusal
  // OAuth can answer (a 403 that asks for no scope, a server that refuses a token with
  // the scope it asked for); the answer stands. An error: authorizing failed.
  // `attempt` counts the earlier refusals of the same request.
  Result<bool> answer_refusal(const HttpResponseHead& head, const std::string& sent, int attempt,
                              const CancelToken& cancel);

 private:
  void load_once();
  std::string header_line() const;
  Status authorize(const OAuthDiscovery& found, const std::string& scope,
                   const OAuthHttpLimits& limits);
  Result<std::string> authorization_code(const OAuthDiscovery& found, const OAuthClientInfo& client,
                                         const std::string& scope, std::string& verifier);
  bool refresh(const OAuthHttpLimits& limits);
  Result<OAuthClientInfo> client_for(const OAuthDiscovery& found, const std::string& scope,
                                     const OAuthHttpLimits& limits);
  void adopt(OAuthTokens tokens, const std::string& asked_scope);
  OAuthHttpLimits limits(const CancelToken& cancel) const;

  const Options options_;
  const OAuthTokenStore store_;

  std::mutex mu_;  // Held through each authorization.
  bool loaded_ = false;
  std::optional<OAuthTokens> tokens_;
  std::optional<OAuthClientInfo> client_;
  std::optional<OAuthDiscovery> discovery_;  // Of the last authorization: for refreshing.
};

}  // namespace hermes::internal
