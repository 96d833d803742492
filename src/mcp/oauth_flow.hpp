// The exchanges with an authorization server: registering a client (RFC 7591), building
// the authorization request, reading where the browser was sent back to, and the token
// endpoint's grants (authorization code with PKCE, refresh token, client credentials).
#pragma once

#include <string>
#include <string_view>

#include "hermes/status.hpp"
#include "mcp/oauth_discovery.hpp"
#include "mcp/oauth_token_store.hpp"
#include "mcp/oauth_url.hpp"

namespace hermes::internal {

// How the client authenticates at the token endpoint: what it registered with, else
// what the server supports (client_secret_basic first, its default), "none" without a
// secret.
std::string token_endpoint_auth_method(const AuthorizationServerMetadata& server,
                                       const OAuthClientInfo& client);

struct ClientRegistration {
  std::string client_name;
  std::string redirect_uri;
  std::string scope;
};

// Registers a client of the authorization code grant at the server's registration
// endpoint. (Client credentials clients are registered beforehand.)
Result<OAuthClientInfo> register_client(const AuthorizationServerMetadata& server,
                                        const ClientRegistration& request,
                                        const OAuthHttpLimits& limits);

struct AuthorizationRequest {
  std::string client_id;
  std::string redirect_uri;
  std::string scope;     // Omitted when empty.
  std::string resource;  // RFC 8707; omitted when empty.
  std::string state;
  std::string code_challenge;
};

// The URL the user opens to authorize.
std::string authorization_url(const AuthorizationServerMetadata& server,
                              const AuthorizationRequest& request);

// The code from what the user's browser landed on (`landed`: the redirect URL, or the
// bare code). The state must match what was sent; an error parameter is reported.
Result<std::string> authorization_code_from(std::string_view landed,
                                            const std::string& expected_state);

// Posts a grant's `fields` (grant_type first) to the token endpoint with the client's
// authentication, and reads the tokens from the answer. An error answer is reported with
// its "error" and "error_description".
Result<OAuthTokens> request_tokens(const AuthorizationServerMetadata& server,
                                   const OAuthClientInfo& client, FormFields fields,
                                   const OAuthHttpLimits& limits);

}  // namespace hermes::internal
