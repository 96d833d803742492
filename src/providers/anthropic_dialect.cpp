#include "providers/anthropic_dialect.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "common/text_utils.hpp"
#include "providers/reasoning_models.hpp"
#include "providers/url_parts.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kInterleavedThinkingBeta = "interleaved-thinking-2025-05-14";
constexpr std::string_view kToolStreamingBeta = "fine-grained-tool-streaming-2025-05-14";
constexpr std::string_view kContext1mBeta = "context-1m-2025-08-07";
constexpr std::string_view kOauthBetas = "claude-code-20250219,oauth-2025-04-20";

bool host_is(std::string_view host, std::string_view domain) {
  return host == domain || (host.size() > domain.size() && host.ends_with(domain) &&
                            host[host.size() - domain.size() - 1] == '.');
}

bool is_kimi_model(std::string_view model) {
  const std::string m = bare_model(model);
  if (m == "k3") return true;
  for (std::string_view prefix : {"kimi-", "kimi_", "moonshot-", "moonshot_", "k1.", "k1-", "k2.",
                                  "k2-", "k25", "k3.", "k3-"}) {
    if (m.starts_with(prefix)) return true;
  }
  return false;
}

// Console API keys go in x-api-key; setup tokens, other Anthropic-issued tokens, OAuth
// JWTs and Claude Code tokens are bearer tokens.
bool is_oauth_token(std::string_view key) {
  if (key.empty() || key.starts_with("sk-ant-api")) return false;
  return key.starts_with("sk-ant-") || key.starts_with("eyJ") || key.starts_with("cc-");
}

std::string join(const std::vector<std::string_view>& parts) {
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += ',';
    out += part;
  }
  return out;
}

bool is_version_separator(char c) {
  return c == '-' || c == '_' || c == '.';
}

// Reads digits at `at`; returns how many.
std::size_t digits_at(std::string_view text, std::size_t at, int& value) {
  std::size_t n = 0;
  value = 0;
  while (at + n < text.size() && is_ascii_digit(text[at + n]) && n < 9) {
    value = value * 10 + (text[at + n] - '0');
    ++n;
  }
  return n;
}

}  // namespace

bool model_preserves_prior_thinking(std::string_view model) {
  const std::string m = lower_ascii(model);
  if (contains(m, "claude-mythos-preview") || contains(m, "claude_mythos_preview")) return true;
  for (std::size_t at = m.find("claude"); at != std::string::npos; at = m.find("claude", at + 1)) {
    std::size_t pos = at + 6;
    if (pos >= m.size() || !is_version_separator(m[pos])) continue;
    ++pos;
    std::string_view family;
    for (std::string_view name : {"opus", "sonnet", "fable", "mythos"}) {
      if (std::string_view(m).substr(pos, name.size()) == name) family = name;
    }
    pos += family.size();
    if (family.empty() || pos >= m.size() || !is_version_separator(m[pos])) continue;
    int major = 0;
    const std::size_t major_digits = digits_at(m, ++pos, major);
    if (major_digits == 0) continue;
    pos += major_digits;
    int minor = 0;
    // A minor version is one or two digits; a snapshot date (4-20250514) is not one.
    if (pos + 1 < m.size() && is_version_separator(m[pos])) {
      const std::size_t n = digits_at(m, pos + 1, minor);
      const std::size_t end = pos + 1 + n;
      if (n == 0 || n > 2 || (end < m.size() && !is_version_separator(m[end]))) minor = 0;
    }
    if (family == "opus") return major > 4 || (major == 4 && minor >= 5);
    if (family == "sonnet") return major > 4 || (major == 4 && minor >= 6);
    return major == 5 && (minor == 0 || minor == 1);
  }
  return false;
}

AnthropicDialect anthropic_dialect_for(std::string_view base_url, std::string_view api_key,
                                       std::string_view model) {
  const std::string host = url_host(base_url);
  const std::string path = url_path(base_url);
  const std::string lower_model = lower_ascii(model);
  const bool anthropic = host.empty() || host_is(host, "anthropic.com");
  const bool nous_portal = host == "inference-api.nousresearch.com";
  const bool third_party = !anthropic && !nous_portal;
  const bool minimax =
      (host == "api.minimax.io" || host == "api.minimaxi.com") && path.starts_with("/anthropic");
  const bool azure = contains(host, "azure.com");

  AnthropicDialect dialect;
  dialect.bearer_auth = nous_portal || minimax || azure || host_is(host, "palantirfoundry.com") ||
                        host == "api.commandcode.ai";
  dialect.oauth = !third_party && !dialect.bearer_auth && is_oauth_token(api_key);
  dialect.bearer_auth = dialect.bearer_auth || dialect.oauth;

  std::vector<std::string_view> betas = {kInterleavedThinkingBeta};
  // MiniMax fails every tool-use request that carries the tool-streaming beta.
  if (!minimax) betas.push_back(kToolStreamingBeta);
  if (azure) betas.push_back(kContext1mBeta);
  if (dialect.oauth) betas.push_back(kOauthBetas);
  dialect.betas = join(betas);

  const bool kimi = host == "api.kimi.com" || host_is(host, "moonshot.ai") ||
                    host_is(host, "moonshot.cn") || is_kimi_model(model);
  const bool deepseek = (host == "api.deepseek.com" && contains(path, "/anthropic")) ||
                        (third_party && contains(lower_model, "deepseek"));
  dialect.replay = kimi          ? ThinkingReplay::kKimi
                   : deepseek    ? ThinkingReplay::kDeepSeek
                   : third_party ? ThinkingReplay::kThirdParty
                                 : ThinkingReplay::kNative;
  dialect.prompt_caching = anthropic || nous_portal || minimax || contains(lower_model, "claude") ||
                           contains(lower_model, "minimax") || contains(lower_model, "qwen");
  return dialect;
}

}  // namespace hermes::internal
