#include "providers/endpoint_url.hpp"

#include <array>
#include <charconv>
#include <cstdint>

#include "common/text_utils.hpp"
#include "hermes/model_metadata.hpp"
#include "providers/url.hpp"

namespace hermes::internal {
namespace {

using namespace std::string_view_literals;

// Host fragment -> provider. A fragment matches anywhere in the host, so
// ".githubcopilot.com" covers the enterprise and business hosts.
struct KnownHost {
  std::string_view fragment;
  std::string_view provider;
};
constexpr KnownHost kKnownHosts[] = {
    {"api.openai.com", "openai"},
    {"chatgpt.com", "openai"},
    {"api.anthropic.com", "anthropic"},
    {"api.z.ai", "zai"},
    {"open.bigmodel.cn", "zai"},
    {"api.moonshot.ai", "kimi-coding"},
    {"api.moonshot.cn", "kimi-coding-cn"},
    {"api.kimi.com", "kimi-coding"},
    {"api.stepfun.ai", "stepfun"},
    {"api.stepfun.com", "stepfun"},
    {"api.arcee.ai", "arcee"},
    {"api.minimax", "minimax"},
    {"dashscope.aliyuncs.com", "alibaba"},
    {"dashscope-intl.aliyuncs.com", "alibaba"},
    {"portal.qwen.ai", "qwen-oauth"},
    {"openrouter.ai", "openrouter"},
    {"generativelanguage.googleapis.com", "gemini"},
    {"inference-api.nousresearch.com", "nous"},
    {"api.deepseek.com", "deepseek"},
    {"api.githubcopilot.com", "copilot"},
    {".githubcopilot.com", "copilot"},
    {"models.github.ai", "copilot"},
    {"models.inference.ai.azure.com", "copilot"},
    {"api.fireworks.ai", "fireworks"},
    {"opencode.ai", "opencode-go"},
    {"api.x.ai", "xai"},
    {"integrate.api.nvidia.com", "nvidia"},
    {"api.xiaomimimo.com", "xiaomi"},
    {"xiaomimimo.com", "xiaomi"},
    {"api.gmi-serving.com", "gmi"},
    {"api.novita.ai", "novita"},
    {"tokenhub.tencentmaas.com", "tencent-tokenhub"},
    {"api.lkeap.cloud.tencent.com", "tencent-tokenplan"},
    {"ollama.com", "ollama-cloud"},
};

// Names a model id may be prefixed with ("openrouter:anthropic/claude-sonnet-4").
constexpr std::string_view kProviderNames[] = {
    "local",
    "custom",
    "openrouter",
    "anthropic",
    "openai",
    "openai-codex",
    "azure",
    "stepfun",
    "fireworks",
    "ollama",
    "ollama-cloud",
    "lmstudio",
    "lm-studio",
    "vllm",
    "llamacpp",
    "nous",
    "deepseek",
    "zai",
    "kimi-coding",
    "kimi-coding-cn",
    "moonshot",
    "minimax",
    "alibaba",
    "qwen-oauth",
    "gemini",
    "google",
    "copilot",
    "xai",
    "xai-oauth",
    "nvidia",
    "xiaomi",
    "gmi",
    "novita",
    "arcee",
    "opencode-go",
    "opencode-free",
    "bedrock",
    "groq",
    "mistral",
    "together",
    "huggingface",
    "cerebras",
    "tencent-tokenhub",
    "tencent-tokenplan",
    "meta-ai",
    "commandcode",
};

// Ollama tags ("qwen3.5:27b", "llama3:latest") that must not be read as "provider:model".
bool looks_like_ollama_tag(std::string_view suffix) {
  const std::string s = lower_ascii(trim_ascii(suffix));
  for (std::string_view word :
       {"latest"sv, "stable"sv, "instruct"sv, "chat"sv, "coder"sv, "vision"sv, "text"sv}) {
    if (starts_with(s, word)) return true;
  }
  if (s.size() >= 2 && s[0] == 'q' && is_ascii_digit(s[1])) return true;
  if (s.size() >= 2 && s[0] == 'f' && is_ascii_digit(s[1])) return true;
  if (s.size() >= 3 && s[0] == 'f' && s[1] == 'p' && is_ascii_digit(s[2])) return true;
  // "27b", "0.5b", "1.5b".
  std::size_t i = 0;
  while (i < s.size() && is_ascii_digit(s[i])) ++i;
  if (i == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_ascii_digit(s[i])) ++i;
  }
  return i < s.size() && s[i] == 'b';
}

std::optional<std::array<int, 4>> dotted_quad(std::string_view host) {
  std::array<int, 4> parts{};
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const std::size_t end = i < 3 ? host.find('.', start) : host.size();
    if (end == std::string_view::npos || end == start || end - start > 3) return std::nullopt;
    const auto [ptr, ec] = std::from_chars(host.data() + start, host.data() + end, parts[i]);
    if (ec != std::errc() || ptr != host.data() + end || parts[i] > 255) return std::nullopt;
    start = end + 1;
  }
  return parts;
}

bool is_local_ipv4(const std::array<int, 4>& ip) {
  const int a = ip[0];
  const int b = ip[1];
  return a == 10 || a == 127 || a == 0 || (a == 172 && b >= 16 && b <= 31) ||
         (a == 192 && b == 168) || (a == 169 && b == 254) ||
         (a == 100 && b >= 64 && b <= 127);  // Tailscale's CGNAT range.
}

bool is_local_ipv6(std::string_view host) {
  if (host.find(':') == std::string_view::npos) return false;
  if (host == "::1" || host == "::") return true;
  const std::string h = lower_ascii(host);
  // fe80::/10 link-local, fc00::/7 unique local.
  return starts_with(h, "fe8") || starts_with(h, "fe9") || starts_with(h, "fea") ||
         starts_with(h, "feb") || starts_with(h, "fc") || starts_with(h, "fd");
}

}  // namespace

EndpointUrl parse_endpoint_url(std::string_view base_url) {
  EndpointUrl out;
  const auto url = parse_url(base_url, "http");
  if (!url) return out;
  out.scheme = url->scheme;
  out.host = url->host;
  if (out.host.size() >= 2 && out.host.front() == '[' && out.host.back() == ']') {
    out.host = out.host.substr(1, out.host.size() - 2);
  }
  out.port = url->port;
  out.path = url->path;
  while (!out.path.empty() && out.path.back() == '/') out.path.pop_back();
  out.has_userinfo = url->has_userinfo;
  out.has_query_or_fragment = url->has_query || url->has_fragment;
  out.valid = true;
  return out;
}

std::optional<std::string> provider_for_base_url(std::string_view base_url) {
  const EndpointUrl url = parse_endpoint_url(base_url);
  if (!url.valid || url.host.empty()) return std::nullopt;
  for (const KnownHost& known : kKnownHosts) {
    if (url.host.find(known.fragment) != std::string::npos) return std::string(known.provider);
  }
  return std::nullopt;
}

std::string without_openrouter_variant(std::string_view model) {
  const std::size_t colon = model.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::string(model);
  const std::string suffix = lower_ascii(model.substr(colon + 1));
  for (std::string_view variant : {"nitro"sv, "floor"sv, "exacto"sv, "online"sv}) {
    if (suffix == variant) return std::string(model.substr(0, colon));
  }
  return std::string(model);
}

}  // namespace hermes::internal

namespace hermes {

bool is_local_endpoint(std::string_view base_url) {
  using namespace std::string_view_literals;
  const internal::EndpointUrl url = internal::parse_endpoint_url(base_url);
  if (!url.valid || url.host.empty()) return false;
  const std::string& host = url.host;
  for (std::string_view local : {"localhost"sv, "127.0.0.1"sv, "::1"sv, "0.0.0.0"sv}) {
    if (host == local) return true;
  }
  for (std::string_view suffix :
       {".docker.internal"sv, ".containers.internal"sv, ".lima.internal"sv, ".local"sv}) {
    if (host.size() > suffix.size() && host.ends_with(suffix)) return true;
  }
  // Compose service names, /etc/hosts entries: a name without dots is on this network.
  if (host.find('.') == std::string::npos && host.find(':') == std::string::npos) return true;
  if (auto quad = internal::dotted_quad(host)) return internal::is_local_ipv4(*quad);
  return internal::is_local_ipv6(host);
}

std::string strip_provider_prefix(std::string_view model) {
  const std::string_view text = internal::trim_ascii(model);
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos || internal::starts_with(text, "http")) {
    return std::string(model);
  }
  const std::string prefix = internal::lower_ascii(internal::trim_ascii(text.substr(0, colon)));
  const std::string_view suffix = text.substr(colon + 1);
  if (internal::list_contains(internal::kProviderNames, std::string_view(prefix)) &&
      !internal::looks_like_ollama_tag(suffix)) {
    return std::string(suffix);
  }
  return std::string(model);
}

}  // namespace hermes
