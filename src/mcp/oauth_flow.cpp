#include "mcp/oauth_flow.hpp"

#include <algorithm>
#include <optional>

#include "common/base64.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/http_client.hpp"

namespace hermes::internal {
namespace {

constexpr const char* kFormType = "Content-Type: application/x-www-form-urlencoded";

HttpResult post(const std::string& url, std::vector<std::string> headers, std::string body,
                const OAuthHttpLimits& limits) {
  HttpRequest request = oauth_json_request(url, limits);
  request.headers.insert(request.headers.end(), headers.begin(), headers.end());
  request.body = std::move(body);
  return HttpClient::shared().post(request, limits.cancel);
}

// What went wrong with an answer that is not a success, in the server's own words when
// it gave them (RFC 6749 §5.2).
Status endpoint_error(const std::string& what, const HttpResult& result) {
  if (result.failure != TransportFailure::kNone || result.head.status == 0) {
    return Status::unavailable(
        what + " could not be reached: " + (result.error.empty() ? "no response" : result.error));
  }
  std::string message = what + " answered HTTP " + std::to_string(result.head.status);
  std::optional<Json> doc = parse_json(result.body);
  if (doc && doc->is_object() && !string_member(*doc, "error").empty()) {
    message += ": " + string_member(*doc, "error");
    if (auto description = string_member(*doc, "error_description"); !description.empty())
      message += " (" + excerpt(description) + ")";
  } else if (!trim_ascii(result.body).empty()) {
    message += ": " + excerpt(result.body);
  }
  return Status::permission_denied(std::move(message));
}

Result<OAuthTokens> parse_token_answer(const HttpResult& result, const std::string& what) {
  std::optional<Json> doc = parse_json(result.body);
  if (!doc || !doc->is_object()) {
    return Status::failed_precondition(
        what + " answered with something that is not JSON: " + excerpt(result.body));
  }
  OAuthTokens tokens;
  tokens.access_token = string_member(*doc, "access_token");
  if (tokens.access_token.empty()) {
    return Status::failed_precondition(what + " answered without an access_token");
  }
  // Bearer is the only type MCP uses; anything else could not be sent.
  const std::string type = string_member(*doc, "token_type");
  if (!type.empty() && lower_ascii(type) != "bearer") {
    return Status::failed_precondition(what + " issued a token of type '" + excerpt(type) +
                                       "', not Bearer");
  }
  tokens.refresh_token = string_member(*doc, "refresh_token");
  tokens.scope = string_member(*doc, "scope");
  if (auto it = doc->find("expires_in");
      it != doc->end() && it->is_number() && it->get<double>() > 0) {
    // A lifetime beyond a century is as good as none (and must not overflow).
    constexpr int64_t kCentury = int64_t{100} * 365 * 24 * 3600;
    tokens.expires_at = unix_seconds_now() + std::min(*json_integer(*it), kCentury);
  }
  return tokens;
}

}  // namespace

std::string token_endpoint_auth_method(const AuthorizationServerMetadata& server,
                                       const OAuthClientInfo& client) {
  if (!client.token_endpoint_auth_method.empty()) return client.token_endpoint_auth_method;
  if (client.client_secret.empty()) return "none";
  const auto& supported = server.token_endpoint_auth_methods_supported;
  if (supported.empty() || list_contains(supported, "client_secret_basic")) {
    return "client_secret_basic";
  }
  if (list_contains(supported, "client_secret_post")) return "client_secret_post";
  return list_contains(supported, "none") ? "none" : "client_secret_basic";
}

Result<OAuthClientInfo> register_client(const AuthorizationServerMetadata& server,
                                        const ClientRegistration& request,
                                        const OAuthHttpLimits& limits) {
  const std::string what = "the registration endpoint " + server.registration_endpoint;
  Json body = {{"client_name", request.client_name}};
  // A native application is a public client, unless the server takes only secrets.
  const auto& methods = server.token_endpoint_auth_methods_supported;
  std::string method = "none";
  if (!methods.empty() && !list_contains(methods, "none")) {
    method = list_contains(methods, "client_secret_basic") ? "client_secret_basic"
                                                           : "client_secret_post";
  }
  body["token_endpoint_auth_method"] = method;
  body["redirect_uris"] = {request.redirect_uri};
  // refresh_token too (SEP-2207): a server may hand out refresh tokens only to clients
  // registered for them.
  body["grant_types"] = {"authorization_code", "refresh_token"};
  body["response_types"] = {"code"};
  if (!request.scope.empty()) body["scope"] = request.scope;
  HttpResult result = post(server.registration_endpoint, {"Content-Type: application/json"},
                           dump_json(body), limits);
  if (result.failure != TransportFailure::kNone || result.head.status < 200 ||
      result.head.status >= 300) {
    return endpoint_error(what, result);
  }
  std::optional<Json> doc = parse_json(result.body);
  if (!doc || !doc->is_object()) {
    return Status::failed_precondition(
        what + " answered with something that is not JSON: " + excerpt(result.body));
  }
  OAuthClientInfo client;
  client.client_id = string_member(*doc, "client_id");
  if (client.client_id.empty()) {
    return Status::failed_precondition(what + " answered without a client_id");
  }
  client.client_secret = string_member(*doc, "client_secret");
  client.token_endpoint_auth_method = string_member(*doc, "token_endpoint_auth_method");
  client.issuer = server.issuer;
  return client;
}

std::string authorization_url(const AuthorizationServerMetadata& server,
                              const AuthorizationRequest& request) {
  FormFields fields = {{"response_type", "code"},
                       {"client_id", request.client_id},
                       {"redirect_uri", request.redirect_uri},
                       {"state", request.state},
                       {"code_challenge", request.code_challenge},
                       {"code_challenge_method", "S256"}};
  if (!request.scope.empty()) fields.emplace_back("scope", request.scope);
  if (!request.resource.empty()) fields.emplace_back("resource", request.resource);
  return with_query(server.authorization_endpoint, fields);
}

Result<std::string> authorization_code_from(std::string_view landed,
                                            const std::string& expected_state) {
  landed = trim_ascii(landed);
  if (landed.empty()) return Status::failed_precondition("the authorization returned nothing");
  // A bare code, pasted by a user: there is no state to check.
  if (landed.find_first_of("?=&") == std::string_view::npos) return std::string(landed);
  const auto params = query_parameters(landed);
  if (auto error = params.find("error"); error != params.end()) {
    std::string message = "the authorization server refused: " + excerpt(error->second);
    if (auto d = params.find("error_description"); d != params.end())
      message += " (" + excerpt(d->second) + ")";
    return Status::permission_denied(std::move(message));
  }
  auto state = params.find("state");
  if (state == params.end() || state->second != expected_state) {
    return Status::permission_denied(
        "the authorization came back with a state that is not the one sent; refused as a "
        "possible forgery");
  }
  auto code = params.find("code");
  if (code == params.end() || code->second.empty()) {
    return Status::failed_precondition("the authorization came back without a code");
  }
  return code->second;
}

Result<OAuthTokens> request_tokens(const AuthorizationServerMetadata& server,
                                   const OAuthClientInfo& client, FormFields fields,
                                   const OAuthHttpLimits& limits) {
  const std::string what = "the token endpoint " + server.token_endpoint;
  std::vector<std::string> headers = {kFormType};
  const std::string method = token_endpoint_auth_method(server, client);
  if (method == "client_secret_basic") {
    // RFC 6749 §2.3.1: both halves are form-encoded before they are joined.
    headers.push_back("Authorization: Basic " +
                      base64_encode(percent_encode(client.client_id) + ":" +
                                    percent_encode(client.client_secret)));
  } else {
    fields.emplace_back("client_id", client.client_id);
    if (method == "client_secret_post") fields.emplace_back("client_secret", client.client_secret);
  }
  HttpResult result = post(server.token_endpoint, std::move(headers), form_encode(fields), limits);
  if (result.failure != TransportFailure::kNone || result.head.status < 200 ||
      result.head.status >= 300) {
    return endpoint_error(what, result);
  }
  return parse_token_answer(result, what);
}

}  // namespace hermes::internal
