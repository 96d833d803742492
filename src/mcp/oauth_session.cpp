#include "mcp/oauth_session.hpp"

#include <algorithm>
#include <exception>
#include <sstream>
#include <vector>

#include "common/text_utils.hpp"
#include "hermes/home.hpp"
#include "mcp/oauth_flow.hpp"
#include "mcp/oauth_pkce.hpp"
#include "mcp/oauth_url.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

// Authorizations one request may go through before its refusal stands: the first, and
// two for more scope. A server that keeps asking would otherwise loop forever.
constexpr int kMaxAuthorizationsPerRequest = 3;
// A 401 is answered by refreshing, then by authorizing anew; a token refused after that
// will not do better by asking the user again.
constexpr int kMaxRetriesAfter401 = 2;

std::vector<std::string> split_scope(const std::string& scope) {
  std::vector<std::string> out;
  std::istringstream in(scope);
  for (std::string word; in >> word;) {
    if (std::find(out.begin(), out.end(), word) == out.end()) out.push_back(word);
  }
  return out;
}

std::string join_scope(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

// Step-up authorization: what was granted and what the server asks for now, or nullopt
// when it asks for nothing new (asking again for what it refuses cannot help).
std::optional<std::string> step_up_scope(const std::string& granted_scope,
                                         const BearerChallenge& challenge) {
  std::vector<std::string> words = split_scope(granted_scope);
  bool added = false;
  for (const std::string& s : split_scope(challenge.scope)) {
    if (list_contains(words, s)) continue;
    words.push_back(s);
    added = true;
  }
  if (!added) return std::nullopt;
  return join_scope(words);
}

std::string token_dir(const McpOAuthConfig& config) {
  if (!config.persist_tokens) return "";
  return config.token_dir.empty() ? default_home() + "/mcp-tokens" : config.token_dir;
}

}  // namespace

std::string select_scope(const std::string& configured, const BearerChallenge& challenge,
                         const OAuthDiscovery& found, bool wants_refresh_token) {
  std::vector<std::string> words = split_scope(configured);
  if (words.empty()) words = split_scope(challenge.scope);
  if (words.empty()) words = found.resource.scopes_supported;
  // SEP-2207: offline_access only where the authorization server lists it.
  if (!words.empty() && wants_refresh_token &&
      list_contains(found.server.scopes_supported, "offline_access") &&
      !list_contains(words, "offline_access")) {
    words.push_back("offline_access");
  }
  return join_scope(words);
}

OAuthSession::OAuthSession(Options options)
    : options_(std::move(options)), store_(token_dir(options_.config), options_.server_name) {}

OAuthHttpLimits OAuthSession::limits(const CancelToken& cancel) const {
  return {options_.http_timeout, cancel};
}

void OAuthSession::load_once() {
  if (loaded_) return;
  loaded_ = true;
  tokens_ = store_.load_tokens();
  // Tokens for another address of the server would be refused, or worse, accepted.
  if (tokens_ && !tokens_->server_url.empty() && tokens_->server_url != options_.server_url) {
    tokens_.reset();
  }
  client_ = store_.load_client();
}

std::string OAuthSession::header_line() const {
  return tokens_ ? "Authorization: Bearer " + tokens_->access_token : "";
}

std::string OAuthSession::authorization(const CancelToken& cancel) {
  std::lock_guard lock(mu_);
  load_once();
  if (tokens_ && tokens_->expired(unix_seconds_now()) && !tokens_->refresh_token.empty() && discovery_) {
    refresh(limits(cancel));
  }
  return header_line();
}

Result<bool> OAuthSession::answer_refusal(const HttpResponseHead& head, const std::string& sent,
                                          int attempt, const CancelToken& cancel) {
  const int status = head.status;
  if (status != 401 && status != 403) return false;
  const BearerChallenge challenge = parse_bearer_challenge(head.header("www-authenticate"));
  if (status == 403 && challenge.error != "insufficient_scope") return false;
  std::lock_guard lock(mu_);
  load_once();
  // Another request got a new token while this one was on its way: try that first.
  if (status == 401 && tokens_ && header_line() != sent) return true;
  if (attempt >= kMaxAuthorizationsPerRequest ||
      (status == 401 && attempt >= kMaxRetriesAfter401)) {
    return Status::permission_denied("the server still refuses the request after " +
                                     std::to_string(attempt) + " authorizations");
  }
  // Without a way to authorize, discovery and registration would only bother a server
  // that may well want other credentials altogether.
  const bool can_refresh = status == 401 && tokens_ && !tokens_->refresh_token.empty();
  if (!can_refresh && options_.config.grant_type != "client_credentials" &&
      !options_.config.on_authorize) {
    return Status::permission_denied(
        "the server requires authorization (HTTP " + std::to_string(status) +
        "), and no authorization handler is set (McpOAuthConfig::on_authorize)");
  }
  const OAuthHttpLimits http = limits(cancel);
  Result<OAuthDiscovery> found = discover_authorization(options_.server_url, challenge, http);
  if (!found.ok()) return Status(found.status().code(), "authorizing: " + found.status().message());
  discovery_ = *found;
  const bool wants_refresh = options_.config.grant_type != "client_credentials";
  std::string scope = select_scope(options_.config.scope, challenge, *found, wants_refresh);
  if (status == 403) {
    std::optional<std::string> more = step_up_scope(tokens_ ? tokens_->scope : "", challenge);
    if (!more) return false;
    scope = std::move(*more);
  } else if (attempt == 0 && tokens_ && !sent.empty() && !tokens_->refresh_token.empty() &&
             refresh(http)) {
    return true;
  }
  Status s = authorize(*found, scope, http);
  if (!s.ok()) return Status(s.code(), "authorizing: " + s.message());
  return true;
}

Status OAuthSession::authorize(const OAuthDiscovery& found, const std::string& scope,
                               const OAuthHttpLimits& http) {
  Result<OAuthClientInfo> client = client_for(found, scope, http);
  if (!client.ok()) return client.status();
  FormFields fields;
  if (options_.config.grant_type == "client_credentials") {
    fields = {{"grant_type", "client_credentials"}};
    if (!scope.empty()) fields.emplace_back("scope", scope);
  } else {
    std::string verifier;
    Result<std::string> code = authorization_code(found, *client, scope, verifier);
    if (!code.ok()) return code.status();
    fields = {{"grant_type", "authorization_code"},
              {"code", *code},
              {"redirect_uri", options_.config.redirect_uri},
              {"code_verifier", verifier}};
  }
  if (!found.resource_indicator.empty()) fields.emplace_back("resource", found.resource_indicator);
  Result<OAuthTokens> tokens = request_tokens(found.server, *client, std::move(fields), http);
  if (!tokens.ok()) return tokens.status();
  adopt(std::move(*tokens), scope);
  HERMES_LOG_INFO("{}: authorized{}", options_.label, scope.empty() ? "" : " for " + scope);
  return {};
}

Result<std::string> OAuthSession::authorization_code(const OAuthDiscovery& found,
                                                     const OAuthClientInfo& client,
                                                     const std::string& scope,
                                                     std::string& verifier) {
  const McpOAuthConfig& config = options_.config;
  if (!config.on_authorize) {
    return Status::failed_precondition(
        "the server requires authorization in a browser, and no authorization handler is set "
        "(McpOAuthConfig::on_authorize)");
  }
  // The code comes back through the redirect URI: over plain http it crosses the network
  // in the clear (custom schemes of native applications stay possible).
  if (starts_with(lower_ascii(config.redirect_uri), "http://") &&
      !is_secure_oauth_url(config.redirect_uri)) {
    return Status::failed_precondition(
        "the redirect URI " + excerpt(config.redirect_uri, 120) +
        " is plain http to a host that is not loopback; use https or a loopback address");
  }
  const AuthorizationServerMetadata& server = found.server;
  if (server.authorization_endpoint.empty()) {
    return Status::failed_precondition("the authorization server " + server.issuer +
                                       " has no authorization endpoint");
  }
  // Without S256 the code could be redeemed by whoever intercepts the redirect.
  if (!server.code_challenge_methods_supported.empty() &&
      !list_contains(server.code_challenge_methods_supported, "S256")) {
    return Status::failed_precondition("the authorization server " + server.issuer +
                                       " does not support PKCE with S256");
  }
  const Pkce pkce = make_pkce();
  AuthorizationRequest request;
  request.client_id = client.client_id;
  request.redirect_uri = config.redirect_uri;
  request.scope = scope;
  request.resource = found.resource_indicator;
  request.state = random_url_token(32);
  request.code_challenge = pkce.challenge;
  Result<std::string> landed = Status::internal("the authorization handler returned nothing");
  try {
    landed = config.on_authorize(authorization_url(server, request));
  } catch (const std::exception& e) {
    landed =
        Status::failed_precondition(std::string("the authorization handler failed: ") + e.what());
  } catch (...) {
    landed = Status::failed_precondition("the authorization handler failed");
  }
  if (!landed.ok()) return landed.status();
  verifier = pkce.verifier;
  return authorization_code_from(*landed, request.state);
}

bool OAuthSession::refresh(const OAuthHttpLimits& http) {
  if (!discovery_ || !client_ || !tokens_) return false;
  FormFields fields = {{"grant_type", "refresh_token"}, {"refresh_token", tokens_->refresh_token}};
  if (!discovery_->resource_indicator.empty())
    fields.emplace_back("resource", discovery_->resource_indicator);
  Result<OAuthTokens> fresh = request_tokens(discovery_->server, *client_, std::move(fields), http);
  if (!fresh.ok()) {
    HERMES_LOG_INFO("{}: refreshing the token failed, authorizing anew: {}", options_.label,
                    fresh.status().message());
    tokens_->refresh_token.clear();
    return false;
  }
  // A server may keep the refresh token (not rotate it) and say nothing of it.
  if (fresh->refresh_token.empty()) fresh->refresh_token = tokens_->refresh_token;
  adopt(std::move(*fresh), tokens_->scope);
  return true;
}

Result<OAuthClientInfo> OAuthSession::client_for(const OAuthDiscovery& found,
                                                 const std::string& scope,
                                                 const OAuthHttpLimits& http) {
  const McpOAuthConfig& config = options_.config;
  const AuthorizationServerMetadata& server = found.server;
  if (!config.client_id.empty()) {
    client_ = OAuthClientInfo{config.client_id, config.client_secret, "", server.issuer};
    return *client_;
  }
  if (client_ && (client_->issuer.empty() || client_->issuer == server.issuer)) return *client_;
  if (config.grant_type == "client_credentials") {
    return Status::failed_precondition(
        "the client credentials grant needs a configured client_id and client_secret");
  }
  if (server.client_id_metadata_document_supported && !config.client_metadata_url.empty()) {
    client_ = OAuthClientInfo{config.client_metadata_url, "", "none", server.issuer};
    return *client_;
  }
  if (server.registration_endpoint.empty()) {
    return Status::failed_precondition(
        "the authorization server " + server.issuer +
        " does not register clients; configure a client_id registered with it");
  }
  ClientRegistration request{config.client_name, config.redirect_uri, scope};
  Result<OAuthClientInfo> registered = register_client(server, request, http);
  if (!registered.ok()) return registered.status();
  client_ = *registered;
  if (Status s = store_.save_client(*client_); !s.ok()) HERMES_LOG_WARN("{}", s.message());
  return *client_;
}

void OAuthSession::adopt(OAuthTokens tokens, const std::string& asked_scope) {
  if (tokens.scope.empty()) tokens.scope = asked_scope;
  tokens.server_url = options_.server_url;
  tokens_ = std::move(tokens);
  if (Status s = store_.save_tokens(*tokens_); !s.ok()) HERMES_LOG_WARN("{}", s.message());
}

}  // namespace hermes::internal
