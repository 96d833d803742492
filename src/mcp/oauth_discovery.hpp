// Finding where and how to authorize with an MCP server: its 401 challenge, its
// Protected Resource Metadata (RFC 9728) and its authorization server's metadata
// (RFC 8414 and OpenID Connect Discovery), in the order the MCP specification gives, with
// the 2025-03-26 fallbacks for servers that publish neither.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/cancel.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// The parameters of a "WWW-Authenticate: Bearer ..." challenge (RFC 6750, RFC 9728).
struct BearerChallenge {
  std::string error;              // "invalid_token", "insufficient_scope", ...
  std::string scope;              // Space-separated.
  std::string resource_metadata;  // The Protected Resource Metadata URL.
};

// Reads the Bearer challenge of a WWW-Authenticate value; empty fields for absent
// parameters or another scheme.
BearerChallenge parse_bearer_challenge(std::string_view header);

struct ProtectedResourceMetadata {
  std::string resource;
  std::vector<std::string> authorization_servers;
  std::vector<std::string> scopes_supported;
};

struct AuthorizationServerMetadata {
  std::string issuer;
  std::string authorization_endpoint;
  std::string token_endpoint;
  std::string registration_endpoint;  // Empty: no Dynamic Client Registration.
  std::vector<std::string> scopes_supported;
  std::vector<std::string> grant_types_supported;
  std::vector<std::string> token_endpoint_auth_methods_supported;
  std::vector<std::string> code_challenge_methods_supported;
  bool client_id_metadata_document_supported = false;
};

// Where to look for the Protected Resource Metadata of `server_url`, in order: the
// challenge's URL (when given), then the well-known URI with the server's path, then
// without it.
std::vector<std::string> protected_resource_metadata_urls(std::string_view server_url,
                                                          std::string_view from_challenge);

// Where to look for the metadata of the authorization server `issuer`, in order: OAuth
// and OpenID with the well-known segment inserted before the issuer's path, then OpenID
// appended to it (the first two only, without the path, for an issuer without one).
std::vector<std::string> authorization_server_metadata_urls(std::string_view issuer);

// Parse and check metadata documents; `where` names the source in errors.
Result<ProtectedResourceMetadata> parse_protected_resource_metadata(std::string_view text,
                                                                    const std::string& where);
Result<AuthorizationServerMetadata> parse_authorization_server_metadata(std::string_view text,
                                                                        const std::string& where);

// Whether the protected resource `resource` covers `server_url`: same origin, and the
// server's path within the resource's.
bool resource_covers(std::string_view resource, std::string_view server_url);

// The 2025-03-26 fallback: /authorize, /token and /register at the root of `server_url`.
AuthorizationServerMetadata default_authorization_server(std::string_view server_url);

// What discovery found for one server.
struct OAuthDiscovery {
  bool has_resource_metadata = false;  // False: a 2025-03-26 server without RFC 9728.
  ProtectedResourceMetadata resource;
  AuthorizationServerMetadata server;
  // The RFC 8707 resource parameter: the metadata's resource; empty without metadata.
  std::string resource_indicator;
};

struct OAuthHttpLimits {
  std::chrono::milliseconds timeout{30'000};  // Of each request, from connect to last byte.
  CancelToken cancel;
};

struct HttpRequest;
// A request to `url` asking for JSON, with `limits.timeout` on every phase.
HttpRequest oauth_json_request(const std::string& url, const OAuthHttpLimits& limits);

// Runs the discovery for `server_url` after it answered with `challenge`.
Result<OAuthDiscovery> discover_authorization(const std::string& server_url,
                                              const BearerChallenge& challenge,
                                              const OAuthHttpLimits& limits);

}  // namespace hermes::internal
