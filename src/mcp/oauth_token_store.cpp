#include "mcp/oauth_token_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/json_text.hpp"
#include "common/private_files.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

std::string safe_file_stem(const std::string& name) {
  std::string stem;
  for (char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_';
    stem += plain ? c : '_';
  }
  const std::size_t first = stem.find_first_not_of('_');
  stem =
      first == std::string::npos ? "" : stem.substr(first, stem.find_last_not_of('_') - first + 1);
  if (stem.size() > 128) stem.resize(128);
  return stem.empty() ? "default" : stem;
}

Status write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::io_error(std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  return {};
}

}  // namespace

Json tokens_to_json(const OAuthTokens& tokens) {
  Json doc = {{"access_token", tokens.access_token}, {"token_type", tokens.token_type}};
  if (!tokens.refresh_token.empty()) doc["refresh_token"] = tokens.refresh_token;
  if (!tokens.scope.empty()) doc["scope"] = tokens.scope;
  // Absolute, so that a token that expired while hermes was not running reads as expired.
  if (tokens.expires_at != 0) doc["expires_at"] = tokens.expires_at;
  if (!tokens.server_url.empty()) doc["server_url"] = tokens.server_url;
  return doc;
}

std::optional<OAuthTokens> tokens_from_json(const Json& doc) {
  if (!doc.is_object()) return std::nullopt;
  OAuthTokens tokens;
  tokens.access_token = string_member(doc, "access_token");
  if (tokens.access_token.empty()) return std::nullopt;
  if (auto type = string_member(doc, "token_type"); !type.empty()) tokens.token_type = type;
  tokens.refresh_token = string_member(doc, "refresh_token");
  tokens.scope = string_member(doc, "scope");
  tokens.server_url = string_member(doc, "server_url");
  if (auto it = doc.find("expires_at"); it != doc.end() && it->is_number()) {
    tokens.expires_at = it->get<int64_t>();
  }
  return tokens;
}

Json client_to_json(const OAuthClientInfo& client) {
  Json doc = {{"client_id", client.client_id}};
  if (!client.client_secret.empty()) doc["client_secret"] = client.client_secret;
  if (!client.token_endpoint_auth_method.empty())
    doc["token_endpoint_auth_method"] = client.token_endpoint_auth_method;
  if (!client.issuer.empty()) doc["issuer"] = client.issuer;
  return doc;
}

std::optional<OAuthClientInfo> client_from_json(const Json& doc) {
  if (!doc.is_object()) return std::nullopt;
  OAuthClientInfo client;
  client.client_id = string_member(doc, "client_id");
  if (client.client_id.empty()) return std::nullopt;
  client.client_secret = string_member(doc, "client_secret");
  client.token_endpoint_auth_method = string_member(doc, "token_endpoint_auth_method");
  client.issuer = string_member(doc, "issuer");
  return client;
}

OAuthTokenStore::OAuthTokenStore(std::string dir, const std::string& server_name)
    : dir_(std::move(dir)), stem_(safe_file_stem(server_name)) {}

std::string OAuthTokenStore::tokens_path() const {
  return dir_.empty() ? "" : dir_ + "/" + stem_ + ".json";
}

std::string OAuthTokenStore::client_path() const {
  return dir_.empty() ? "" : dir_ + "/" + stem_ + ".client.json";
}

std::optional<OAuthTokens> OAuthTokenStore::load_tokens() const {
  auto doc = read(tokens_path());
  if (!doc) return std::nullopt;
  auto tokens = tokens_from_json(*doc);
  if (!tokens) HERMES_LOG_WARN("{} holds no usable token; ignored", tokens_path());
  return tokens;
}

std::optional<OAuthClientInfo> OAuthTokenStore::load_client() const {
  auto doc = read(client_path());
  if (!doc) return std::nullopt;
  auto client = client_from_json(*doc);
  if (!client) HERMES_LOG_WARN("{} holds no usable client; ignored", client_path());
  return client;
}

Status OAuthTokenStore::save_tokens(const OAuthTokens& tokens) const {
  return write(tokens_path(), tokens_to_json(tokens));
}

Status OAuthTokenStore::save_client(const OAuthClientInfo& client) const {
  return write(client_path(), client_to_json(client));
}

void OAuthTokenStore::forget_tokens() const {
  if (!dir_.empty()) std::remove(tokens_path().c_str());
}

std::optional<Json> OAuthTokenStore::read(const std::string& path) const {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  std::optional<Json> doc = parse_json(text.str());
  if (!doc) HERMES_LOG_WARN("{} is not JSON; ignored", path);
  return doc;
}

Status OAuthTokenStore::write(const std::string& path, const Json& doc) const {
  if (path.empty()) return {};
  // The directory holds credentials; so does the hermes home it is usually in.
  HERMES_RETURN_IF_ERROR(make_private_directories(dir_));
  ::chmod(dir_.c_str(), kPrivateDirMode);
  const std::string temp = path + ".tmp";
  std::remove(temp.c_str());  // A leftover would keep its mode through O_TRUNC.
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::io_error("cannot write " + temp + ": " + std::strerror(errno));
  Status written = write_all(fd, dump_json_pretty(doc) + "\n");
  if (written.ok() && ::fsync(fd) != 0) written = Status::io_error(std::strerror(errno));
  ::close(fd);
  if (written.ok() && std::rename(temp.c_str(), path.c_str()) != 0) {
    written = Status::io_error(std::strerror(errno));
  }
  if (!written.ok()) {
    std::remove(temp.c_str());
    return Status::io_error("cannot write " + path + ": " + written.message());
  }
  return {};
}

int64_t unix_seconds_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace hermes::internal
