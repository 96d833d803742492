#include "mcp/oauth_discovery.hpp"

#include <optional>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "mcp/oauth_url.hpp"
#include "providers/http_client.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxMetadataBytes = 1u << 20;

bool is_token_char(char c) {
  return c > 0x20 && c < 0x7f && c != ',' && c != '=' && c != '"';
}

// One auth-param value: a quoted-string (with backslash escapes) or a token.
std::string read_param_value(std::string_view text, std::size_t& i) {
  std::string value;
  if (i < text.size() && text[i] == '"') {
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) ++i;
      value += text[i];
    }
    if (i < text.size()) ++i;  // The closing quote.
    return value;
  }
  while (i < text.size() && is_token_char(text[i])) value += text[i++];
  return value;
}

void skip_spaces(std::string_view text, std::size_t& i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
}

// A field that must be a string when present; `required` when it must be present.
Status read_string(const Json& doc, const char* key, const std::string& where, bool required,
                   std::string& out) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) {
    if (!required) return {};
    return Status::failed_precondition(where + " has no \"" + key + "\"");
  }
  if (!it->is_string())
    return Status::failed_precondition(where + ": \"" + key + "\" is not a string");
  out = it->get<std::string>();
  return {};
}

Status insecure_url(const std::string& what, const std::string& url) {
  return Status::failed_precondition(what + " " + excerpt(url, 120) +
                                     " is not https; OAuth over plain http is allowed only to "
                                     "a loopback address (localhost, 127.0.0.1, [::1])");
}

// An endpoint hermes will send requests (and so codes, tokens, secrets) to must be https.
Status read_url(const Json& doc, const char* key, const std::string& where, bool required,
                std::string& out, bool endpoint = true) {
  HERMES_RETURN_IF_ERROR(read_string(doc, key, where, required, out));
  if (!out.empty() && !split_url(out)) {
    return Status::failed_precondition(where + ": \"" + key +
                                       "\" is not an http(s) URL: " + excerpt(out, 120));
  }
  if (endpoint && !out.empty() && !is_secure_oauth_url(out)) {
    return insecure_url(where + ": \"" + key + "\"", out);
  }
  return {};
}

// RFC 8414 §3.3: the issuer a metadata document names must be the one whose well-known
// URI served it, or a server could pass off another authorization server's endpoints as
// its own (a mix-up attack). Only a trailing slash may differ.
bool same_issuer(std::string_view a, std::string_view b) {
  if (!a.empty() && a.back() == '/') a.remove_suffix(1);
  if (!b.empty() && b.back() == '/') b.remove_suffix(1);
  return !a.empty() && a == b;
}

Status read_strings(const Json& doc, const char* key, const std::string& where,
                    std::vector<std::string>& out) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return {};
  bool ok = it->is_array();
  for (std::size_t i = 0; ok && i < it->size(); ++i) ok = (*it)[i].is_string();
  if (!ok)
    return Status::failed_precondition(where + ": \"" + key + "\" is not an array of strings");
  out = it->get<std::vector<std::string>>();
  return {};
}

Result<Json> parse_object(std::string_view text, const std::string& where) {
  std::optional<Json> doc = parse_json(text);
  if (!doc || !doc->is_object()) {
    return Status::failed_precondition(where + " is not a JSON object: " + excerpt(text, 120));
  }
  return std::move(*doc);
}

// The document at `url`: its text, nullopt when the server has none there (any answer
// but 2xx, or no answer: discovery moves on to the next place), an error for a body too
// large to be metadata.
Result<std::optional<std::string>> fetch_document(const std::string& url,
                                                  const OAuthHttpLimits& limits) {
  HttpResult result = HttpClient::shared().get(oauth_json_request(url, limits), limits.cancel);
  if (result.failure != TransportFailure::kNone || result.head.status < 200 ||
      result.head.status >= 300) {
    HERMES_LOG_DEBUG("OAuth discovery: nothing at {} ({})", url,
                     result.error.empty() ? std::to_string(result.head.status) : result.error);
    return std::optional<std::string>();
  }
  if (result.body.size() > kMaxMetadataBytes) {
    return Status::resource_exhausted("the metadata at " + url + " is larger than 1 MiB");
  }
  return std::optional<std::string>(std::move(result.body));
}

Result<std::optional<ProtectedResourceMetadata>> find_resource_metadata(
    const std::string& server_url, const BearerChallenge& challenge,
    const OAuthHttpLimits& limits) {
  for (const std::string& url :
       protected_resource_metadata_urls(server_url, challenge.resource_metadata)) {
    if (limits.cancel.cancelled()) return Status::cancelled("OAuth discovery was cancelled");
    auto text = fetch_document(url, limits);
    if (!text.ok()) return text.status();
    if (!*text) continue;
    auto parsed =
        parse_protected_resource_metadata(**text, "the protected resource metadata at " + url);
    if (!parsed.ok()) return parsed.status();
    return std::optional<ProtectedResourceMetadata>(std::move(*parsed));
  }
  return std::optional<ProtectedResourceMetadata>();
}

// `issuer` is an issuer identifier the metadata must name exactly (RFC 8414 §3.3) when
// `exact`; otherwise it is the MCP server's origin, which 2025-03-26 servers without
// resource metadata use as their authorization server: the metadata may then name an
// issuer with a path on that origin, but not another origin.
Result<std::optional<AuthorizationServerMetadata>> find_server_metadata(
    const std::string& issuer, bool exact, const OAuthHttpLimits& limits) {
  for (const std::string& url : authorization_server_metadata_urls(issuer)) {
    if (limits.cancel.cancelled()) return Status::cancelled("OAuth discovery was cancelled");
    auto text = fetch_document(url, limits);
    if (!text.ok()) return text.status();
    if (!*text) continue;
    auto parsed = parse_authorization_server_metadata(
        **text, "the authorization server metadata at " + url);
    if (!parsed.ok()) return parsed.status();
    const auto named = split_url(parsed->issuer);
    const bool matches = exact ? same_issuer(parsed->issuer, issuer)
                               : parsed->issuer.empty() || (named && named->origin == issuer);
    if (!matches) {
      return Status::failed_precondition(
          "the authorization server metadata at " + url + " names the issuer " +
          (parsed->issuer.empty() ? std::string("(none)") : excerpt(parsed->issuer, 120)) +
          ", not " + issuer +
          (exact ? ", the issuer it was fetched for" : ", the origin it was fetched from"));
    }
    return std::optional<AuthorizationServerMetadata>(std::move(*parsed));
  }
  return std::optional<AuthorizationServerMetadata>();
}

}  // namespace

HttpRequest oauth_json_request(const std::string& url, const OAuthHttpLimits& limits) {
  HttpRequest request;
  request.url = url;
  request.headers = {"Accept: application/json"};
  request.timeouts = {limits.timeout, limits.timeout, limits.timeout, limits.timeout};
  return request;
}

BearerChallenge parse_bearer_challenge(std::string_view header) {
  BearerChallenge challenge;
  const std::string lower = lower_ascii(header);
  std::size_t at = lower.find("bearer");
  while (at != std::string::npos && at > 0 && lower[at - 1] != ' ' && lower[at - 1] != ',') {
    at = lower.find("bearer", at + 1);
  }
  if (at == std::string::npos) return challenge;
  std::size_t i = at + 6;
  while (i < header.size()) {
    skip_spaces(header, i);
    std::size_t name_start = i;
    while (i < header.size() && is_token_char(header[i])) ++i;
    const std::string name = lower_ascii(header.substr(name_start, i - name_start));
    skip_spaces(header, i);
    if (i >= header.size() || header[i] != '=') {
      // Not an auth-param: the next challenge (or a token68) starts here.
      if (!name.empty()) break;
      ++i;  // A stray comma.
      continue;
    }
    ++i;
    skip_spaces(header, i);
    std::string value = read_param_value(header, i);
    if (name == "error") challenge.error = std::move(value);
    if (name == "scope") challenge.scope = std::move(value);
    if (name == "resource_metadata") challenge.resource_metadata = std::move(value);
    skip_spaces(header, i);
    if (i < header.size() && header[i] == ',') ++i;
  }
  return challenge;
}

std::vector<std::string> protected_resource_metadata_urls(std::string_view server_url,
                                                          std::string_view from_challenge) {
  std::vector<std::string> urls;
  if (split_url(from_challenge)) urls.emplace_back(trim_ascii(from_challenge));
  auto parts = split_url(server_url);
  if (!parts) return urls;
  const std::string base = parts->origin + "/.well-known/oauth-protected-resource";
  std::string path = parts->path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (!path.empty()) urls.push_back(base + path);
  urls.push_back(base);
  return urls;
}

std::vector<std::string> authorization_server_metadata_urls(std::string_view issuer) {
  auto parts = split_url(issuer);
  if (!parts) return {};
  std::string path = parts->path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  const std::string& origin = parts->origin;
  if (path.empty()) {
    return {origin + "/.well-known/oauth-authorization-server",
            origin + "/.well-known/openid-configuration"};
  }
  return {origin + "/.well-known/oauth-authorization-server" + path,
          origin + "/.well-known/openid-configuration" + path,
          origin + path + "/.well-known/openid-configuration"};
}

Result<ProtectedResourceMetadata> parse_protected_resource_metadata(std::string_view text,
                                                                    const std::string& where) {
  Result<Json> parsed = parse_object(text, where);
  if (!parsed.ok()) return parsed.status();
  const Json& doc = *parsed;
  ProtectedResourceMetadata metadata;
  HERMES_RETURN_IF_ERROR(
      read_url(doc, "resource", where, /*required=*/true, metadata.resource, /*endpoint=*/false));
  HERMES_RETURN_IF_ERROR(
      read_strings(doc, "authorization_servers", where, metadata.authorization_servers));
  HERMES_RETURN_IF_ERROR(read_strings(doc, "scopes_supported", where, metadata.scopes_supported));
  if (metadata.authorization_servers.empty()) {
    return Status::failed_precondition(where + " names no authorization server");
  }
  for (const std::string& server : metadata.authorization_servers) {
    if (!split_url(server)) {
      return Status::failed_precondition(where + ": authorization server " + excerpt(server, 120) +
                                         " is not an http(s) URL");
    }
    if (!is_secure_oauth_url(server)) return insecure_url(where + ": authorization server", server);
  }
  return metadata;
}

Result<AuthorizationServerMetadata> parse_authorization_server_metadata(std::string_view text,
                                                                        const std::string& where) {
  Result<Json> parsed = parse_object(text, where);
  if (!parsed.ok()) return parsed.status();
  const Json& doc = *parsed;
  AuthorizationServerMetadata m;
  HERMES_RETURN_IF_ERROR(read_string(doc, "issuer", where, /*required=*/false, m.issuer));
  HERMES_RETURN_IF_ERROR(
      read_url(doc, "authorization_endpoint", where, false, m.authorization_endpoint));
  HERMES_RETURN_IF_ERROR(read_url(doc, "token_endpoint", where, true, m.token_endpoint));
  HERMES_RETURN_IF_ERROR(
      read_url(doc, "registration_endpoint", where, false, m.registration_endpoint));
  HERMES_RETURN_IF_ERROR(read_strings(doc, "scopes_supported", where, m.scopes_supported));
  HERMES_RETURN_IF_ERROR(
      read_strings(doc, "grant_types_supported", where, m.grant_types_supported));
  HERMES_RETURN_IF_ERROR(read_strings(doc, "token_endpoint_auth_methods_supported", where,
                                      m.token_endpoint_auth_methods_supported));
  HERMES_RETURN_IF_ERROR(read_strings(doc, "code_challenge_methods_supported", where,
                                      m.code_challenge_methods_supported));
  auto cimd = doc.find("client_id_metadata_document_supported");
  m.client_id_metadata_document_supported =
      cimd != doc.end() && cimd->is_boolean() && cimd->get<bool>();
  return m;
}

bool resource_covers(std::string_view resource, std::string_view server_url) {
  auto ours = split_url(server_url);
  auto theirs = split_url(resource);
  if (!ours || !theirs || ours->origin != theirs->origin) return false;
  std::string prefix = theirs->path;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  const std::string& path = ours->path;
  return path.compare(0, prefix.size(), prefix) == 0 &&
         (path.size() == prefix.size() || path[prefix.size()] == '/');
}

AuthorizationServerMetadata default_authorization_server(std::string_view server_url) {
  AuthorizationServerMetadata m;
  auto parts = split_url(server_url);
  if (!parts) return m;
  m.issuer = parts->origin;
  m.authorization_endpoint = parts->origin + "/authorize";
  m.token_endpoint = parts->origin + "/token";
  m.registration_endpoint = parts->origin + "/register";
  return m;
}

Result<OAuthDiscovery> discover_authorization(const std::string& server_url,
                                              const BearerChallenge& challenge,
                                              const OAuthHttpLimits& limits) {
  if (!is_secure_oauth_url(server_url)) return insecure_url("the server", server_url);
  if (!challenge.resource_metadata.empty() && split_url(challenge.resource_metadata) &&
      !is_secure_oauth_url(challenge.resource_metadata)) {
    return insecure_url("the server's challenge names resource metadata at",
                        challenge.resource_metadata);
  }
  OAuthDiscovery found;
  auto resource = find_resource_metadata(server_url, challenge, limits);
  if (!resource.ok()) return resource.status();
  std::string issuer;
  if (*resource) {
    // A server must not send us to authorize for another resource (RFC 9728 §3.3): the
    // token would be good there too.
    if (!resource_covers((*resource)->resource, server_url)) {
      return Status::failed_precondition("the protected resource metadata is for " +
                                         excerpt((*resource)->resource, 120) + ", not " +
                                         server_url);
    }
    found.has_resource_metadata = true;
    found.resource = std::move(**resource);
    found.resource_indicator = found.resource.resource;
    issuer = found.resource.authorization_servers.front();
  } else {
    // 2025-03-26: the server's own origin is the authorization server.
    issuer = split_url(server_url) ? split_url(server_url)->origin : server_url;
  }
  auto server = find_server_metadata(issuer, found.has_resource_metadata, limits);
  if (!server.ok()) return server.status();
  if (*server) {
    found.server = std::move(**server);
  } else if (!found.has_resource_metadata) {
    found.server = default_authorization_server(server_url);
  } else {
    return Status::failed_precondition("the authorization server " + issuer +
                                       " publishes no metadata");
  }
  return found;
}

}  // namespace hermes::internal
