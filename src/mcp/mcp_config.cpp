// Reading MCP server configurations from the mcp.json document.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/json_text.hpp"
#include "hermes/mcp.hpp"
#include "safety/log.hpp"

namespace hermes {
namespace {

// "${VAR}" becomes the value of VAR; unset variables are left as written, so the error
// a server reports still shows which one was missing.
std::string interpolate_env(const std::string& text) {
  static const std::regex pattern(R"(\$\{([^}]+)\})");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), pattern);
  std::size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.append(text, last, static_cast<std::size_t>(m.position()) - last);
    const char* value = std::getenv(m[1].str().c_str());
    out += value != nullptr ? std::string(value) : m.str();
    last = static_cast<std::size_t>(m.position() + m.length());
  }
  out.append(text, last, std::string::npos);
  return out;
}

// Reads the fields of one server object, naming the key of the first bad value.
class ServerReader {
 public:
  ServerReader(const Json& object, std::string path) : object_(object), path_(std::move(path)) {}

  Status string(const char* key, std::string& out) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return {};
    if (!it->is_string()) return bad(key, "expected a string");
    out = interpolate_env(it->get<std::string>());
    return {};
  }

  Status strings(const Json& value, const std::string& where, std::vector<std::string>& out) {
    if (value.is_null()) return {};
    if (!value.is_array())
      return Status::invalid_argument(where + ": expected an array of strings");
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string()) {
        return Status::invalid_argument(where + "[" + std::to_string(i) + "]: expected a string");
      }
      out.push_back(interpolate_env(value[i].get<std::string>()));
    }
    return {};
  }

  Status strings(const char* key, std::vector<std::string>& out) {
    auto it = object_.find(key);
    return it == object_.end() ? Status() : strings(*it, path_ + "." + key, out);
  }

  Status string_map(const char* key, std::map<std::string, std::string>& out) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return {};
    if (!it->is_object()) return bad(key, "expected an object of strings");
    for (const auto& [k, v] : it->items()) {
      if (v.is_string()) {
        out[k] = interpolate_env(v.get<std::string>());
      } else if (v.is_number() || v.is_boolean()) {
        out[k] = v.dump();  // Environment values written as numbers are common.
      } else {
        return Status::invalid_argument(path_ + "." + key + "." + k + ": expected a string");
      }
    }
    return {};
  }

  Status boolean(const char* key, bool& out) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return {};
    if (!it->is_boolean()) return bad(key, "expected true or false");
    out = it->get<bool>();
    return {};
  }

  Status seconds(const char* key, std::chrono::milliseconds& out) {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return {};
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
      return bad(key, "expected a positive number of seconds");
    }
    out = std::chrono::milliseconds(static_cast<int64_t>(std::llround(it->get<double>() * 1000)));
    return {};
  }

  Status bad(const char* key, const std::string& what) const {
    return Status::invalid_argument(path_ + "." + key + ": " + what);
  }

  const std::string& path() const { return path_; }

 private:
  const Json& object_;
  std::string path_;
};

bool is_known_key(const std::string& key) {
  static const char* const kKeys[] = {"command",
                                      "args",
                                      "env",
                                      "env_passthrough",
                                      "cwd",
                                      "url",
                                      "headers",
                                      "oauth",
                                      "enabled",
                                      "disabled",
                                      "tools",
                                      "timeout",
                                      "connect_timeout",
                                      "request_timeout",
                                      "destructive_needs_approval",
                                      "parallel",
                                      "max_restarts",
                                      "type",
                                      "transport"};
  for (const char* k : kKeys) {
    if (key == k) return true;
  }
  return false;
}

Status read_tool_filters(const Json& tools, const std::string& path, ServerReader& reader,
                         McpServerConfig& config) {
  if (tools.is_null()) return {};
  if (!tools.is_object())
    return Status::invalid_argument(path + ": expected an object with include/exclude");
  for (const auto& [key, value] : tools.items()) {
    if (key == "include") {
      HERMES_RETURN_IF_ERROR(reader.strings(value, path + ".include", config.include_tools));
    } else if (key == "exclude") {
      HERMES_RETURN_IF_ERROR(reader.strings(value, path + ".exclude", config.exclude_tools));
    } else {
      HERMES_LOG_WARN("MCP config: unknown key {}.{} ignored", path, key);
    }
  }
  return {};
}

Status read_oauth(const Json& oauth, const std::string& path, McpOAuthConfig& config) {
  if (oauth.is_null()) return {};
  if (!oauth.is_object()) return Status::invalid_argument(path + ": expected an object");
  ServerReader r(oauth, path);
  HERMES_RETURN_IF_ERROR(r.boolean("enabled", config.enabled));
  HERMES_RETURN_IF_ERROR(r.string("client_id", config.client_id));
  HERMES_RETURN_IF_ERROR(r.string("client_secret", config.client_secret));
  HERMES_RETURN_IF_ERROR(r.string("client_metadata_url", config.client_metadata_url));
  HERMES_RETURN_IF_ERROR(r.string("client_name", config.client_name));
  HERMES_RETURN_IF_ERROR(r.string("scope", config.scope));
  HERMES_RETURN_IF_ERROR(r.string("grant_type", config.grant_type));
  HERMES_RETURN_IF_ERROR(r.string("redirect_uri", config.redirect_uri));
  HERMES_RETURN_IF_ERROR(r.boolean("persist_tokens", config.persist_tokens));
  HERMES_RETURN_IF_ERROR(r.string("token_dir", config.token_dir));
  if (config.grant_type != "authorization_code" && config.grant_type != "client_credentials") {
    return r.bad("grant_type", "expected \"authorization_code\" or \"client_credentials\"");
  }
  static const std::set<std::string> kKeys = {
      "enabled", "client_id",  "client_secret", "client_metadata_url", "client_name",
      "scope",   "grant_type", "redirect_uri",  "persist_tokens",      "token_dir"};
  for (const auto& [key, value] : oauth.items()) {
    if (!kKeys.count(key)) HERMES_LOG_WARN("MCP config: unknown key {}.{} ignored", path, key);
  }
  return {};
}

Status read_server(const std::string& name, const Json& object, McpServerConfig& config) {
  const std::string path = "mcpServers." + name;
  if (!object.is_object()) return Status::invalid_argument(path + ": expected an object");
  config.name = name;
  ServerReader r(object, path);
  HERMES_RETURN_IF_ERROR(r.string("command", config.command));
  HERMES_RETURN_IF_ERROR(r.strings("args", config.args));
  HERMES_RETURN_IF_ERROR(r.string_map("env", config.env));
  HERMES_RETURN_IF_ERROR(r.strings("env_passthrough", config.env_passthrough));
  HERMES_RETURN_IF_ERROR(r.string("cwd", config.cwd));
  HERMES_RETURN_IF_ERROR(r.string("url", config.url));
  HERMES_RETURN_IF_ERROR(r.string_map("headers", config.headers));
  if (object.contains("oauth")) {
    HERMES_RETURN_IF_ERROR(read_oauth(object["oauth"], path + ".oauth", config.oauth));
  }
  HERMES_RETURN_IF_ERROR(r.boolean("enabled", config.enabled));
  bool disabled = false;
  HERMES_RETURN_IF_ERROR(r.boolean("disabled", disabled));
  if (disabled) config.enabled = false;
  if (object.contains("tools")) {
    HERMES_RETURN_IF_ERROR(read_tool_filters(object["tools"], path + ".tools", r, config));
  }
  HERMES_RETURN_IF_ERROR(r.seconds("timeout", config.call_timeout));
  HERMES_RETURN_IF_ERROR(r.seconds("connect_timeout", config.connect_timeout));
  HERMES_RETURN_IF_ERROR(r.seconds("request_timeout", config.request_timeout));
  HERMES_RETURN_IF_ERROR(
      r.boolean("destructive_needs_approval", config.destructive_needs_approval));
  HERMES_RETURN_IF_ERROR(r.boolean("parallel", config.parallel_calls));
  if (auto it = object.find("max_restarts"); it != object.end()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 0) {
      return r.bad("max_restarts", "expected a non-negative integer");
    }
    config.max_restarts = static_cast<int>(std::min<int64_t>(it->get<int64_t>(), 1000));
  }
  for (const auto& [key, value] : object.items()) {
    if (!is_known_key(key)) HERMES_LOG_WARN("MCP config: unknown key {}.{} ignored", path, key);
  }
  if (config.command.empty() && config.url.empty()) {
    return Status::invalid_argument(
        path + ": needs \"command\" (a local server) or \"url\" (a remote one)");
  }
  if (!config.command.empty() && !config.url.empty()) {
    return Status::invalid_argument(path + ": has both \"command\" and \"url\"; keep one");
  }
  return {};
}

}  // namespace

Result<std::vector<McpServerConfig>> parse_mcp_config(std::string_view json_text) {
  std::optional<Json> document = internal::parse_json(json_text);
  if (!document) return Status::invalid_argument("MCP config is not valid JSON");
  if (!document->is_object()) return Status::invalid_argument("MCP config: expected a JSON object");
  auto servers = document->find("mcpServers");
  if (servers == document->end() || servers->is_null()) return std::vector<McpServerConfig>{};
  if (!servers->is_object())
    return Status::invalid_argument("mcpServers: expected an object of servers");
  std::vector<McpServerConfig> out;
  for (const auto& [name, object] : servers->items()) {
    if (name.empty()) return Status::invalid_argument("mcpServers: a server has an empty name");
    McpServerConfig config;
    HERMES_RETURN_IF_ERROR(read_server(name, object, config));
    out.push_back(std::move(config));
  }
  return out;
}

Result<std::vector<McpServerConfig>> load_mcp_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::not_found("cannot open MCP config '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = parse_mcp_config(text.str());
  if (!parsed.ok()) return Status(parsed.status().code(), path + ": " + parsed.status().message());
  return parsed;
}

std::string default_mcp_config_path(const std::string& home) {
  return home + "/mcp.json";
}

}  // namespace hermes
